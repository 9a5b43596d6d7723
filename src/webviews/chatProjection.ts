// What the chat webview reads of the store: sessions projected into the protocol's shapes (headers without
// raw agent blobs, safe tool calls, ancestors, terminals) and whole snapshots. Pure reads; no delta bookkeeping.
import type { SessionView, SessionStateInfo, ToolCallRecord } from '../store/model';
import { viewSafeToolCall } from './viewSafeToolCall';
import { childTimeline, preOrder, sessionSettings, subtreeUsageLines } from '../presentation';
import { changeSummary, ownChanges, subtreeChanges, type FileChange } from '../store/sessionChanges';
import type { SessionStoreReader } from '../store/storeAccess';
import { questionsNotForwardedBy } from '../store/subagentDialects';
import { subtreeSummary } from '../store/subtreeSummary';
import { t } from '../presentation/l10n';
import {
  HEADER_STATE_HISTORY,
  WEBVIEW_PROTOCOL_VERSION,
  type ChatAncestor,
  type ChatFileChange,
  type ChatSessionData,
  type ChatSessionHeader,
  type ChatSessionState,
  type ChatTerminalOutput,
  type ChatUsage,
  type SnapshotMessage,
} from '../protocol/webviewMessages';

/** The session and all its descendants, parents before children (cycles are cut). */
export function subtreeSessions(store: SessionStoreReader, rootSessionId: string): SessionView[] {
  return preOrder([rootSessionId], (id) => store.getSession(id), (session) => session.childIds);
}

/** The reported state without the agent's usage blob; `lastKnown` one level deep. */
function chatState(state: SessionStateInfo, depth = 0): ChatSessionState {
  const error = state.error ? { ...(typeof state.error.code === 'number' ? { code: state.error.code } : {}), ...(typeof state.error.message === 'string' ? { message: state.error.message } : {}) } : undefined;
  return {
    state: state.state,
    ...(state.stopReason !== undefined ? { stopReason: state.stopReason } : {}),
    ...(error ? { error } : {}),
    ...(state.reported !== undefined ? { reported: state.reported } : {}),
    ...(state.lastKnown && depth === 0 ? { lastKnown: chatState(state.lastKnown, depth + 1) } : {}),
  };
}

/** The numbers of a usage report the chat shows; anything else the agent put there stays on the host. */
function chatUsage(usage: Readonly<Record<string, unknown>> | null): ChatUsage | null {
  if (!usage) return null;
  const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const used = num(usage['used']);
  const size = num(usage['size']);
  const rawCost = usage['cost'];
  const cost = typeof rawCost === 'object' && rawCost !== null ? (rawCost as Record<string, unknown>) : undefined;
  const amount = num(cost?.['amount']);
  const currency = typeof cost?.['currency'] === 'string' ? cost['currency'] : undefined;
  if (used === undefined && size === undefined && amount === undefined) return null;
  return {
    ...(used !== undefined ? { used } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(amount !== undefined ? { cost: { amount, ...(currency !== undefined ? { currency } : {}) } } : {}),
  };
}

function chatChanges(changes: readonly FileChange[]): ChatFileChange[] {
  return changes.map(changeSummary);
}

export type SessionControls = Pick<ChatSessionHeader, 'actions' | 'toolCallCancel'>;

/**
 * What the chat may offer on a session now, as the store rules: the session's actions and whether its items
 * (v2 tool calls, agent terminals) may be cancelled alone. A disconnect withdraws both at once.
 */
export function sessionControls(store: SessionStoreReader, sessionId: string): SessionControls {
  return { actions: store.actionsFor(sessionId), toolCallCancel: store.itemActionsFor(sessionId).cancel };
}

export function controlsChanged(now: SessionControls, sent: ChatSessionHeader): boolean {
  return JSON.stringify(now.actions) !== JSON.stringify(sent.actions) || JSON.stringify(now.toolCallCancel) !== JSON.stringify(sent.toolCallCancel);
}

/** What the webview reads of a session (see ChatSessionHeader): built field by field, never spread. */
export function sessionHeader(store: SessionStoreReader, session: SessionView, controls = sessionControls(store, session.id)): ChatSessionHeader {
  const changes = chatChanges(ownChanges(session));
  const below = subtreeSummary(store, session.id);
  return {
    id: session.id,
    parentId: session.parentId,
    label: session.label,
    state: chatState(session.state),
    stateHistory: session.stateHistory.slice(-HEADER_STATE_HISTORY),
    childIds: [...session.childIds],
    actions: controls.actions,
    queued: session.queued.map(({ content: _content, ...shown }) => shown),
    toolCallCancel: controls.toolCallCancel,
    awaitingUser: session.awaitingUser,
    usage: chatUsage(session.usage),
    spend: session.spend,
    spendLines: below ? subtreeUsageLines(below.usage) : [],
    cancelRequestedAt: session.cancelRequestedAt ?? null,
    background: session.background === true,
    backgroundRunning: below?.backgroundRunning ?? 0,
    questionsNotForwardedBy: questionsNotForwardedBy(store, session),
    childTimeline: childTimeline(session.childIds.map((id) => store.getSession(id)).filter((child): child is SessionView => child !== undefined)),
    settings: session.parentId === null && !session.closed ? sessionSettings(session) : [],
    changes,
    treeChanges: session.childIds.length > 0 ? chatChanges(subtreeChanges(store, session.id)) : changes,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    timeSpent: session.timeSpent,
    commands: session.availableCommands ?? [],
    promptCapabilities: store.promptCapabilities(),
  };
}

export function sessionData(store: SessionStoreReader, session: SessionView): ChatSessionData {
  const toolCalls: Record<string, ToolCallRecord> = {};
  for (const id in session.toolCalls) toolCalls[id] = viewSafeToolCall(session.toolCalls[id]!);
  return { header: sessionHeader(store, session), entries: session.entries, toolCalls };
}

/** Whether `sessionId` is `ancestorId` or below it (cycles are cut). */
export function isSameOrDescendant(store: SessionStoreReader, sessionId: string, ancestorId: string): boolean {
  const seen = new Set<string>();
  for (let id: string | null | undefined = sessionId; id && !seen.has(id); id = store.getSession(id)?.parentId) {
    if (id === ancestorId) return true;
    seen.add(id);
  }
  return false;
}

export function ancestorsOf(store: SessionStoreReader, sessionId: string): ChatAncestor[] {
  const chain: ChatAncestor[] = [];
  const seen = new Set<string>([sessionId]);
  let parentId = store.getSession(sessionId)?.parentId ?? null;
  while (parentId !== null && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = store.getSession(parentId);
    if (!parent) break;
    chain.unshift({ id: parent.id, label: parent.label, state: parent.state.state });
    parentId = parent.parentId;
  }
  return chain;
}

export function terminalsOf(sessions: readonly SessionView[]): ChatTerminalOutput[] {
  return sessions.flatMap((session) => Object.values(session.terminals ?? {}));
}

export function buildSnapshot(store: SessionStoreReader, requestedId: string): SnapshotMessage {
  // A session can take over an id it was known by before (opencode's loaded child replaces its virtual row).
  const rootSessionId = store.getSession(requestedId)?.id ?? requestedId;
  const sessions = subtreeSessions(store, rootSessionId);
  return {
    type: 'snapshot',
    protocolVersion: WEBVIEW_PROTOCOL_VERSION,
    rootSessionId,
    rev: store.revision,
    sessions: sessions.map((session) => sessionData(store, session)),
    ancestors: ancestorsOf(store, rootSessionId),
    terminals: terminalsOf(sessions),
    ...(sessions.length === 0 ? { unavailableReason: t('This session is not known to the agent connection.') } : {}),
  };
}

/** A snapshot that shows only why the chat cannot be shown (no connection, another protocol version). */
export function unavailableSnapshot(rootSessionId: string, reason: string): SnapshotMessage {
  return { type: 'snapshot', protocolVersion: WEBVIEW_PROTOCOL_VERSION, rootSessionId, rev: 0, sessions: [], ancestors: [], terminals: [], unavailableReason: reason };
}
