// Browse Agent Sessions: nesting one `session/list` result (read + nest, no vscode) for 16,000 flat sessions,
// a 16,000-deep parent chain, a 16,000-long parent cycle and a 4,000-deep chain. Before issue 20 the chain
// cost 45.6 s and then overflowed the stack (a parent walk per session, then recursion); now every shape is
// linear, so the deep and cyclic pages cost about what the flat one does.
import { nestListedSessions, readListedSessions } from '../src/acp/sessionListTree';

export interface SessionListRow {
  readonly shape: string;
  readonly sessions: number;
  readonly ms: number;
}

type Entry = { sessionId: string; parentSessionId?: string };

const shapes: Record<string, (n: number) => Entry[]> = {
  flat: (n) => Array.from({ length: n }, (_, i) => ({ sessionId: `s${i}` })),
  chain: (n) => Array.from({ length: n }, (_, i) => (i === n - 1 ? { sessionId: 's0' } : { sessionId: `s${n - 1 - i}`, parentSessionId: `s${n - 2 - i}` })),
  cycle: (n) => Array.from({ length: n }, (_, i) => ({ sessionId: `s${i}`, parentSessionId: `s${(i + 1) % n}` })),
};

/** Median ms of read + nest over 11 runs (after 3 warm-ups). */
function timeNesting(page: readonly Entry[]): number {
  const run = () => nestListedSessions(readListedSessions(page, Infinity)).length;
  for (let i = 0; i < 3; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    if (run() !== page.length) throw new Error('session list bench lost rows');
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[5]!;
}

export function runSessionListBench(): SessionListRow[] {
  const cases: [string, number][] = [
    ['flat', 16_000],
    ['chain', 4_000],
    ['chain', 16_000],
    ['cycle', 16_000],
  ];
  return cases.map(([shape, sessions]) => ({ shape, sessions, ms: timeNesting(shapes[shape]!(sessions)) }));
}
