// The timeline of a parent's children: when each started, waited on the user, worked, and how it ended,
// from the state changes the store recorded. Pure; the chat draws it (webview/components/subchats-timeline.ts).
import type { SessionStateInfo, StateHistoryItem, TimeSpent } from '../protocol/transcript';
import type { ChatTimelineRow, ChatTimelineSegment, TimelinePhase } from '../protocol/webviewMessages';
import { stateLabel } from './sessionState';

export interface TimelineChild {
  readonly id: string;
  readonly label: string;
  readonly state: SessionStateInfo;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly timeSpent: TimeSpent;
  readonly stateHistory: readonly StateHistoryItem[];
  /** The store's revision of the child (it changes with every change to the child but its label): a row is built once per revision. */
  readonly rev?: number;
}

/** What a reported state means on the timeline; `idle` ends the row with its outcome. */
function phaseOf(item: Pick<StateHistoryItem, 'state' | 'stopReason'>): TimelinePhase {
  switch (item.state) {
    case 'running':
      return 'working';
    case 'requires_action':
      return 'waiting';
    case 'idle':
      if (item.stopReason === 'cancelled') return 'cancelled';
      if (item.stopReason === 'error' || item.stopReason === 'refusal') return 'failed';
      return 'done';
    default:
      // Unconfirmed, unknown, disconnected: the client does not know what the child did then.
      return 'unknown';
  }
}

const ENDS = new Set<TimelinePhase>(['done', 'cancelled', 'failed']);

/**
 * Rows already built, per child (the store's session object) at the revision they were built at: a parent's header
 * is built again on every update in its subtree, and with hundreds of children rebuilding every row made each
 * update cost as much more. A row shared with the last header also compares at once (sameJson).
 */
const builtRows = new WeakMap<TimelineChild, { readonly rev: number; readonly label: string; readonly row: ChatTimelineRow }>();

/** One row per child: spans between its state changes (the last one open while it has not ended). */
export function childTimeline(children: readonly TimelineChild[]): ChatTimelineRow[] {
  return children.map((child) => {
    if (child.rev === undefined) return timelineRow(child);
    const built = builtRows.get(child);
    // The label is compared too: a child's label can change with its parent's (it names the parent's call).
    if (built?.rev === child.rev && built.label === child.label) return built.row;
    const row = timelineRow(child);
    builtRows.set(child, { rev: child.rev, label: child.label, row });
    return row;
  });
}

function timelineRow(child: TimelineChild): ChatTimelineRow {
  const history = [...child.stateHistory].sort((a, b) => a.at - b.at);
  const segments: ChatTimelineSegment[] = [];
  let end: ChatTimelineRow['end'] = null;
  history.forEach((item, i) => {
    const phase = phaseOf(item);
    const next = history[i + 1];
    if (ENDS.has(phase)) {
      // An end is a moment; a later state (a new turn) opens the row again.
      end = next ? null : { at: item.at, phase, label: stateLabel(item) };
      return;
    }
    segments.push({ start: item.at, end: next ? next.at : null, phase, label: stateLabel(item) });
  });
  const start = Math.min(child.createdAt, history[0]?.at ?? child.createdAt);
  const times = { state: { state: child.state.state }, createdAt: child.createdAt, updatedAt: child.updatedAt, timeSpent: child.timeSpent };
  return { sessionId: child.id, label: child.label, start, segments, end, times };
}
