// The webview's bounded line diff: minimal and faithful on small cases, honest and cheap past its bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffLines, diffSummary, hunks, PairMemo } from '../../src/presentation/lineDiff';

/** Edit distance (insertions + deletions) by the textbook LCS table, to check minimality. */
function editDistance(a: string[], b: string[]): number {
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) lcs[i]![j] = a[i - 1] === b[j - 1] ? lcs[i - 1]![j - 1]! + 1 : Math.max(lcs[i - 1]![j]!, lcs[i]![j - 1]!);
  }
  return a.length + b.length - 2 * lcs[a.length]![b.length]!;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('diffLines', () => {
  it('gives the unified lines of a small edit', () => {
    const diff = diffLines('a\nb\nc\n', 'a\nB\nc\nd\n');
    assert.deepEqual(
      diff.lines?.map((line) => `${line.op}${line.text}`),
      [' a', '-b', '+B', ' c', '+d'],
    );
    assert.deepEqual([diff.added, diff.removed, diff.exact], [2, 1, true]);
    assert.deepEqual(diffSummary('a\nb\nc\n', 'a\nB\nc\nd\n'), { added: 2, removed: 1, exact: true });
  });

  it('handles new files, deleted content and identical texts', () => {
    assert.deepEqual(diffSummary(null, 'x\ny'), { added: 2, removed: 0, exact: true });
    assert.deepEqual(diffSummary('x\ny', ''), { added: 0, removed: 2, exact: true });
    assert.deepEqual(diffLines('same\n', 'same\n').lines, [{ op: ' ', text: 'same' }]);
  });

  it('is minimal and rebuilds both texts on random small cases', () => {
    const random = seeded(7);
    for (let round = 0; round < 300; round++) {
      const line = () => 'abcd'[Math.floor(random() * 4)]!;
      const a = Array.from({ length: Math.floor(random() * 12) }, line);
      const b = Array.from({ length: Math.floor(random() * 12) }, line);
      const diff = diffLines(a.join('\n'), b.join('\n'));
      const lines = diff.lines!;
      assert.deepEqual(lines.filter((l) => l.op !== '+').map((l) => l.text), a, `old text, round ${round}`);
      assert.deepEqual(lines.filter((l) => l.op !== '-').map((l) => l.text), b, `new text, round ${round}`);
      assert.equal(diff.added + diff.removed, editDistance(a, b), `minimal, round ${round}`);
      const summary = diffSummary(a.join('\n'), b.join('\n'));
      assert.deepEqual([summary.added, summary.removed], [diff.added, diff.removed]);
    }
  });

  it('stops at its bound on 2,500 × 2,500 changed lines and says so instead of showing a wrong diff', () => {
    const oldText = Array.from({ length: 2500 }, (_, i) => `old ${i}`).join('\n');
    const newText = Array.from({ length: 2500 }, (_, i) => `new ${i}`).join('\n');
    const diff = diffLines(`head\n${oldText}\ntail`, `head\n${newText}\ntail`);
    assert.deepEqual([diff.added, diff.removed, diff.exact, diff.lines], [2500, 2500, false, null]);
    assert.deepEqual(diffSummary(oldText, newText), { added: 2500, removed: 2500, exact: false });
    // Within the bound a large file with a small edit is still exact.
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const edited = [...big.slice(0, 9000), 'inserted', ...big.slice(9000, 15_000), ...big.slice(15_001)];
    const small = diffLines(big.join('\n'), edited.join('\n'));
    assert.deepEqual([small.added, small.removed, small.exact], [1, 1, true]);
    assert.equal(hunks(small.lines!).length, 2);
  });
});

describe('PairMemo', () => {
  it('computes once per (oldText, newText) pair', () => {
    const memo = new PairMemo<number>();
    let runs = 0;
    const compute = () => ++runs;
    memo.get('a', 'b', compute);
    memo.get('a', `${'b'}`, compute);
    assert.equal(runs, 1);
    memo.get(null, 'b', compute);
    memo.get('a', 'c', compute);
    assert.equal(runs, 3);
  });
});
