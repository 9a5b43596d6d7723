// Line diff benchmark: 2,500 × 2,500 changed lines (past the bound) and a 2,000-line file with 20 edits
// (within it), through the diff before issue 10 (a copy of its work array per step), the current bounded
// one (summary and full diff) and jsdiff's `diffArrays` with the same edit bound (the library the structure
// issue asked to weigh: it bounds edits but not work, so a diff past the bound costs it far more). Each case
// runs in its own process (median of 15 runs, peak memory). As a child:
//   node --import tsx bench/diffBench.ts <before|summary|lines|jsdiff> <replaced|edited>
import { diffArrays } from 'diff';
import { DEFAULT_DIFF_LIMITS, diffLines, diffSummary } from '../src/presentation/lineDiff';
import { diffLines as diffLinesBefore } from './baselines/lineDiffBefore';
import { measureInChild, reportFromChild, type ChildMeasurement } from './childMeasure';

export type DiffVariant = 'before' | 'summary' | 'lines' | 'jsdiff';
export type DiffWorkload = 'replaced' | 'edited';

export interface DiffRow extends ChildMeasurement {
  readonly workload: string;
  readonly variant: DiffVariant;
}

function texts(workload: DiffWorkload): [string, string] {
  if (workload === 'replaced') {
    return [Array.from({ length: 2500 }, (_, i) => `old line ${i}`).join('\n'), Array.from({ length: 2500 }, (_, i) => `new line ${i}`).join('\n')];
  }
  const lines = Array.from({ length: 2000 }, (_, i) => `const value${i} = compute(${i});`);
  const edited = lines.map((line, i) => (i % 100 === 50 ? `${line} // changed` : line));
  return [lines.join('\n'), edited.join('\n')];
}

const WORKLOAD_LABEL: Record<DiffWorkload, string> = { replaced: '2,500 × 2,500 changed lines', edited: '2,000 lines, 20 edits' };

export function runDiffBench(): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const workload of ['replaced', 'edited'] as const) {
    for (const variant of ['before', 'summary', 'lines', 'jsdiff'] as const) rows.push({ workload: WORKLOAD_LABEL[workload], variant, ...measureInChild(__filename, [variant, workload]) });
  }
  return rows;
}

/** jsdiff over the same lines with the same edit bound; past it, the counts of the whole texts (as ours). */
function jsdiffSummary(oldText: string, newText: string): { added: number; removed: number } {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  const changes = diffArrays(a, b, { maxEditLength: DEFAULT_DIFF_LIMITS.maxEdits });
  if (!changes) return { added: b.length, removed: a.length };
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    if (change.added) added += change.count;
    else if (change.removed) removed += change.count;
  }
  return { added, removed };
}

if (require.main === module) {
  const [variant, workload] = process.argv.slice(2) as [DiffVariant, DiffWorkload];
  const [oldText, newText] = texts(workload);
  const run = { before: diffLinesBefore, summary: diffSummary, lines: diffLines, jsdiff: jsdiffSummary }[variant];
  reportFromChild(() => {
    const result = run(oldText, newText);
    if (result.added + result.removed === 0) throw new Error('no changes found');
  }, 15).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
