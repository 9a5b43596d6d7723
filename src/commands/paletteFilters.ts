// Which sessions each palette command offers in its picker. No vscode import, so tests run the very predicates
// the palette uses (test/component/controls.test.ts holds them to the controller's verdicts). Every action
// filter is a live connection plus the controller's verdict for that action: none decides on its own.
import { isReconnectable } from '../host/reconnect';
import type { SessionActions, SessionView } from '../store/model';
import type { SessionStore } from '../store/sessionStore';
import { subtreeSummary } from '../store/subtreeSummary';
import { needsUser } from '../views/sessionTreeModel';

/** A session and its connection, as far as the filters look (a command's SessionTarget fits). */
export interface PaletteTarget {
  readonly runtime: {
    readonly live: boolean;
    readonly status: string;
    readonly store: Pick<SessionStore, 'actionsFor' | 'itemActionsFor' | 'getSession' | 'canReconnect'>;
  };
  readonly session: SessionView;
}

type Verdict = keyof Pick<SessionActions, 'cancel' | 'prompt' | 'close' | 'changeSetting' | 'openSubagent' | 'message' | 'cancelChildren'>;

/** The session's live connection allows the action now (the controller's verdict). */
const liveAndAllowed = (action: Verdict) => (t: PaletteTarget) => t.runtime.live && t.runtime.store.actionsFor(t.session.id)[action].allowed;

/** The session's tool calls the agent lets the user stop one by one (ACP v2 `capabilities.cancel`). */
export function cancellableToolCalls(t: PaletteTarget): string[] {
  return t.session.toolCallOrder.filter((toolCallId) => t.runtime.store.itemActionsFor(t.session.id, { toolCallId }).cancel.allowed);
}

export const PALETTE_FILTERS = {
  'subchats.sendPrompt': liveAndAllowed('prompt'),
  'subchats.cancel': liveAndAllowed('cancel'),
  'subchats.closeSession': liveAndAllowed('close'),
  'subchats.changeModeOrOption': liveAndAllowed('changeSetting'),
  'subchats.openSubagentSession': liveAndAllowed('openSubagent'),
  /** A subagent a message can reach now: as a prompt of its own, or relayed through its parent. */
  'subchats.messageChild': liveAndAllowed('message'),
  'subchats.cancelToolCall': (t: PaletteTarget) => t.runtime.live && cancellableToolCalls(t).length > 0,
  /** A session with some subagent below it that can be cancelled now. */
  'subchats.cancelAllChildren': liveAndAllowed('cancelChildren'),
  'subchats.showWaiting': (t: PaletteTarget) => t.runtime.live && needsUser(t.session),
  // The files the row counts ("N files changed"): the same subtree summary.
  'subchats.openChanges': (t: PaletteTarget) => (subtreeSummary(t.runtime.store, t.session.id)?.changedPaths.size ?? 0) > 0,
  'subchats.reconnectSession': (t: PaletteTarget) => isReconnectable(t.runtime, t.session),
} as const satisfies Record<string, (t: PaletteTarget) => boolean>;
