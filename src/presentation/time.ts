// Durations and clock times, the same in the tree and the chat.
import type { StateHistoryItem } from '../protocol/transcript';
import { isWorking, type PresentableState } from './sessionState';

/** "12s", "1m 5s", "2h 3m". */
export function formatDuration(ms: number): string {
  const seconds = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** What elapsedMs reads: the store's SessionRecord and the webview's header both fit. */
export interface TimedSession {
  readonly state: PresentableState;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly stateHistory?: readonly Pick<StateHistoryItem, 'at'>[];
  /** Working time in ended spells and the current spell's start (the store keeps them); absent in old records. */
  readonly workedMs?: number;
  readonly workingSince?: number | null;
}

/**
 * How long the session has worked: its ended working spells plus the current one until `now` while its
 * connection is live. Idle time between turns (or while a loaded session waits) is not counted. Records
 * without the working time: from creation until `now` or the last state change.
 */
export function elapsedMs(session: TimedSession, now: number, live: boolean): number {
  if (session.workedMs !== undefined) {
    const current = isWorking(session.state) && live && session.workingSince != null ? Math.max(0, now - session.workingSince) : 0;
    return session.workedMs + current;
  }
  const end = isWorking(session.state) && live ? now : (session.stateHistory?.at(-1)?.at ?? session.updatedAt);
  return Math.max(0, end - session.createdAt);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** HH:MM:SS, 24 hours, in local time (or UTC, for tests and logs). */
export function clockTime(at: number, utc = false): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '--:--:--';
  return utc
    ? `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
    : `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
