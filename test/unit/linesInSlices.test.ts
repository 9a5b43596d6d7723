// A long text is walked line by line in slices, with the event loop getting turns between them
// (src/store/linesInSlices.ts): the same lines, numbered the same, as a split would give.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachLineInSlices } from '../../src/store/linesInSlices';

test('every line, numbered from 1, as split("\\n") gives them, with or without a last newline', async () => {
  for (const text of ['', 'one', 'one\ntwo\n', '\n\nthree\n\n', 'a\r\nb']) {
    const seen: [string, number][] = [];
    await eachLineInSlices(text, (line, n) => seen.push([line, n]));
    assert.deepEqual(seen, text.split('\n').map((line, i) => [line, i + 1]), JSON.stringify(text));
  }
});

test('it gives the loop a turn each time a slice has taken its time, and not before', async () => {
  let clock = 0;
  const yields: number[] = [];
  const lines: number[] = [];
  await eachLineInSlices(
    Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n'),
    (_line, n) => {
      lines.push(n);
      clock += 3; // each line takes 3 ms
    },
    { sliceMs: 8, now: () => clock, yieldNow: async () => void yields.push(lines.length) },
  );
  assert.equal(lines.length, 10);
  assert.deepEqual(yields, [3, 6, 9], 'a turn after every third line (9 ms ≥ 8 ms)');
});
