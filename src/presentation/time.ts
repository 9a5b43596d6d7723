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
}

/**
 * How long the session has been at it: until `now` while it is working and its connection is live, else
 * until its last state change (the update time when no history is known).
 */
export function elapsedMs(session: TimedSession, now: number, live: boolean): number {
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
