// Durations and clock times, the same in the tree and the chat.
import type { StateHistoryItem, TimeSpent } from '../protocol/transcript';
import { t } from './l10n';
import { isWorking, type PresentableState } from './sessionState';

/** "12s", "1m 5s", "2h 3m". */
export function formatDuration(ms: number): string {
  const seconds = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  if (seconds < 60) return t('{0}s', seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t('{0}m {1}s', minutes, seconds % 60);
  return t('{0}h {1}m', Math.floor(minutes / 60), minutes % 60);
}

/** What elapsedMs reads: the store's SessionRecord and the webview's header both fit. */
export interface TimedSession {
  readonly state: PresentableState;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly stateHistory?: readonly Pick<StateHistoryItem, 'at'>[];
  /** Time spent working and waiting (the store keeps it); absent in old records. */
  readonly timeSpent?: TimeSpent;
}

/** What a state spends time on: running is working, requiring action is waiting on the user, the rest idle. */
export function spellOf(state: Pick<PresentableState, 'state'>): 'working' | 'waiting' | null {
  if (state.state === 'running') return 'working';
  if (state.state === 'requires_action') return 'waiting';
  return null;
}

/** Time working, waiting on the user and idle since the session began (ms), up to `now` while it is live. */
export interface SpentTimes {
  readonly working: number;
  readonly waiting: number;
  readonly idle: number;
}

export function spentTimes(session: TimedSession, now: number, live: boolean): SpentTimes {
  const end = live ? now : (session.stateHistory?.at(-1)?.at ?? session.updatedAt);
  const spent = session.timeSpent;
  if (!spent) {
    const busy = Math.max(0, (isWorking(session.state) && live ? now : end) - session.createdAt);
    return { working: busy, waiting: 0, idle: 0 };
  }
  const spell = spellOf(session.state);
  const current = spell && live && spent.since !== null ? Math.max(0, now - spent.since) : 0;
  const working = spent.working + (spell === 'working' ? current : 0);
  const waiting = spent.waiting + (spell === 'waiting' ? current : 0);
  return { working, waiting, idle: Math.max(0, end - session.createdAt - working - waiting) };
}

/** "working 12s · waiting on you 3s · idle 1m 2s" (a part that is zero is left out; "no time yet" when all are). */
export function spentTimesText(times: SpentTimes): string {
  const parts = [
    times.working >= 1000 ? t('working {0}', formatDuration(times.working)) : '',
    times.waiting >= 1000 ? t('waiting on you {0}', formatDuration(times.waiting)) : '',
    times.idle >= 1000 ? t('idle {0}', formatDuration(times.idle)) : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : t('under a second');
}

/**
 * The same times as text that does not move with the clock: the spell going on now reads from when it began
 * ("working since 11:03:52"), the ended ones as durations. The tree's rows carry this (in their tooltip): a row
 * whose text changes every second is refreshed every second, and VS Code drops the context-menu target of every
 * row below a refreshing one until the workbench fetches them again (microsoft/vscode#144250).
 */
export function spentTimesSinceText(session: TimedSession, live: boolean): string {
  const lastChange = session.stateHistory?.at(-1)?.at ?? session.updatedAt;
  const spent = session.timeSpent;
  if (!live || !spent) {
    // Not live: its totals. A record without the spells it spent: since it began, while it works.
    if (live && isWorking(session.state)) return t('working since {0}', clockTime(session.createdAt));
    return spentTimesText(spentTimes(session, lastChange, false));
  }
  const spell = spellOf(session.state);
  const since = spell && spent.since !== null ? spent.since : lastChange;
  // The ended spells: the store's totals leave the current one out.
  const before = { working: spent.working, waiting: spent.waiting, idle: Math.max(0, since - session.createdAt - spent.working - spent.waiting) };
  const now = spell === 'working' ? t('working since {0}', clockTime(since)) : spell === 'waiting' ? t('waiting on you since {0}', clockTime(since)) : t('idle since {0}', clockTime(since));
  const earlier = [before.working, before.waiting, before.idle].some((ms) => ms >= 1000) ? spentTimesText(before) : '';
  return earlier ? `${now} · ${t('before: {0}', earlier)}` : now;
}

/**
 * How long the session has worked: its ended working spells plus the current one until `now` while its
 * connection is live. Idle time between turns (or while a loaded session waits) is not counted. Records
 * without the working time: from creation until `now` or the last state change.
 */
export function elapsedMs(session: TimedSession, now: number, live: boolean): number {
  if (session.timeSpent) {
    const times = spentTimes(session, now, live);
    return times.working + times.waiting;
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

/** YYYY-MM-DD, the day as people type it to find a chat, in local time (or UTC, for tests). */
export function calendarDay(at: number, utc = false): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '----------';
  return utc ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** YYYY-MM-DD HH:MM, when a chat began. */
export function dayAndTime(at: number, utc = false): string {
  return `${calendarDay(at, utc)} ${clockTime(at, utc).slice(0, 5)}`;
}
