// Agents and terminal commands run as process-group leaders, so stopping one reaches everything it
// started (an agent that ignores stdin EOF and SIGTERM, a command's grandchildren). Groups still alive when
// the extension host exits are killed then. Windows has no process groups: the direct child only.
import type { ChildProcess } from 'node:child_process';

const POSIX = process.platform !== 'win32';
const liveGroups = new Set<number>();
let sweepInstalled = false;

/** Remembers a group for the exit sweep; call the returned function once it needs no sweeping. */
export function trackProcessGroup(pid: number | undefined): () => void {
  if (!POSIX || pid === undefined) return () => undefined;
  liveGroups.add(pid);
  if (!sweepInstalled) {
    sweepInstalled = true;
    // 'exit' handlers must be synchronous: no grace period, SIGKILL at once.
    process.on('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
  return () => liveGroups.delete(pid);
}

/** Signals the child's whole group (falling back to the child alone); never throws. */
export function killProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined && POSIX && signalGroup(child.pid, signal)) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Spawn option: make the child a group leader where groups exist. */
export const GROUP_LEADER = POSIX;
