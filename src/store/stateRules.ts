// Work-state rules: reading reported states, deriving the state of children that follow a tool call, and which sessions the client prompts.
import type { SessionRecord, SessionStateInfo } from './model';
import { asString, isObject } from './wireMessage';

export const UNCONFIRMED: SessionStateInfo = { state: 'unconfirmed' };

// Early RFD drafts reported outcomes as bare strings; these are explicit reports, so they map to the final design.
const DRAFT_STRING_STATES: Record<string, SessionStateInfo> = {
  completed: { state: 'idle', stopReason: 'end_turn' },
  failed: { state: 'idle', stopReason: 'error' },
  cancelled: { state: 'idle', stopReason: 'cancelled' },
  disconnected: { state: 'unknown' },
};

/**
 * Reads a `state` field of a subagent update. `undefined` = field omitted (keep), `null` → unconfirmed,
 * objects and strings are kept as reported; unknown states stay as their raw string.
 */
export function readReportedState(raw: unknown): SessionStateInfo | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return UNCONFIRMED;
  if (typeof raw === 'string') return (Object.hasOwn(DRAFT_STRING_STATES, raw) ? DRAFT_STRING_STATES[raw] : undefined) ?? { state: raw };
  if (!isObject(raw)) return UNCONFIRMED;
  const state = asString(raw['state']);
  if (!state) return UNCONFIRMED;
  const info: { -readonly [K in keyof SessionStateInfo]: SessionStateInfo[K] } = { state };
  const stopReason = raw['stopReason'];
  if (typeof stopReason === 'string') info.stopReason = stopReason;
  else if (isObject(stopReason) && typeof stopReason['stopReason'] === 'string') {
    info.stopReason = stopReason['stopReason'];
    if (isObject(stopReason['error'])) info.error = readError(stopReason['error']);
  }
  if (isObject(raw['error'])) info.error = readError(raw['error']);
  if (isObject(raw['usage'])) info.usage = raw['usage'];
  return info;
}

function readError(raw: Record<string, unknown>): { code?: number; message?: string } {
  const error: { code?: number; message?: string } = {};
  if (typeof raw['code'] === 'number') error.code = raw['code'];
  if (typeof raw['message'] === 'string') error.message = raw['message'];
  return error;
}

/** A virtual child follows the tool call that spawned it. */
export function stateFromToolStatus(status: string): SessionStateInfo {
  switch (status) {
    case 'completed':
      return { state: 'idle', stopReason: 'end_turn' };
    case 'failed':
      return { state: 'idle', stopReason: 'error' };
    case 'cancelled':
      return { state: 'idle', stopReason: 'cancelled' };
    default:
      return { state: 'running' };
  }
}

export function isToolCallOpen(status: string): boolean {
  return status !== 'completed' && status !== 'failed' && status !== 'cancelled';
}

/** A session that is not working and never will again without a new turn: what the memory bounds may drop. */
export function isSessionFinished(state: SessionStateInfo): boolean {
  return state.state === 'idle' || state.state === 'disconnected';
}

export function sameState(a: SessionStateInfo, b: SessionStateInfo): boolean {
  return a.state === b.state && a.stopReason === b.stopReason && a.error?.message === b.error?.message && a.reported === b.reported;
}

/** Sessions whose turns the client drives (it sends their prompts): roots it opened, full-session children, virtual children. */
export function drivesTurns(session: Pick<SessionRecord, 'openedByClient' | 'origin'>): boolean {
  return session.openedByClient || session.origin !== 'announced';
}
