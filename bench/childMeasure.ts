// Runs one benchmark case in a fresh Node process, so its peak memory (max RSS) is its own and one case's
// garbage never slows the next. The child reports time and peak RSS above what it held before the case ran.
import { spawnSync } from 'node:child_process';

export interface ChildMeasurement {
  readonly ms: number;
  /** Peak resident memory during the case, above the process's resident memory just before it (MB). */
  readonly peakMB: number;
}

const MARK = 'BENCH-RESULT ';

/** In the parent: runs `module` with `args` in a child process and returns what it reported. */
export function measureInChild(module: string, args: readonly string[]): ChildMeasurement {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', module, ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const line = child.stdout.split('\n').find((l) => l.startsWith(MARK));
  if (child.status !== 0 || !line) throw new Error(`benchmark case ${module} ${args.join(' ')} failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(MARK.length)) as ChildMeasurement;
}

/** In the child: runs the case `repeat` times (median time; peak over all runs) and prints it for the parent. */
export async function reportFromChild(run: () => void | Promise<void>, repeat = 1): Promise<void> {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
    global.gc?.();
  }
  const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  const peakMB = (process.resourceUsage().maxRSS * 1024 - rssBefore) / (1024 * 1024);
  console.log(`${MARK}${JSON.stringify({ ms, peakMB: Math.max(0, peakMB) })}`);
}
