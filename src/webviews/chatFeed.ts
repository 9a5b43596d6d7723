// Feeds one chat panel: a full snapshot of a session and its descendants, then batched revisioned deltas.
// Pure (no 'vscode'): the panel glue passes `post` and tells the feed when the webview is ready or hidden.
import type { Entry, SessionView, SessionStateInfo, ToolCallRecord } from '../store/model';
import { preOrder } from '../presentation';
import type { Disposable, SessionStoreReader } from '../store/storeApi';
import {
  HEADER_STATE_HISTORY,
  WEBVIEW_PROTOCOL_VERSION,
  type ChatAncestor,
  type ChatSessionData,
  type ChatSessionDelta,
  type ChatSessionHeader,
  type ChatSessionState,
  type ChatTerminalOutput,
  type ChatUsage,
  type DeltaMessage,
  type HostToWebviewMessage,
  type SnapshotMessage,
} from '../protocol/webviewMessages';

export interface FeedTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ChatFeedOptions {
  /** Minimum time between two posts; the default keeps a panel at <= 60 posts per second. */
  readonly minIntervalMs?: number;
  readonly timers?: FeedTimers;
}

const DEFAULT_MIN_INTERVAL_MS = 1000 / 60;

const realTimers: FeedTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

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

/** What the webview reads of a session (see ChatSessionHeader): built field by field, never spread. */
export function sessionHeader(store: SessionStoreReader, session: SessionView): ChatSessionHeader {
  return {
    id: session.id,
    parentId: session.parentId,
    label: session.label,
    state: chatState(session.state),
    stateHistory: session.stateHistory.slice(-HEADER_STATE_HISTORY),
    childIds: [...session.childIds],
    actions: store.actionsFor(session.id),
    awaitingUser: session.awaitingUser,
    promptRunning: session.activePromptId !== null,
    usage: chatUsage(session.usage),
    cancelRequestedAt: session.cancelRequestedAt ?? null,
    background: session.background === true,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
  };
}

export function sessionData(store: SessionStoreReader, session: SessionView): ChatSessionData {
  return { header: sessionHeader(store, session), entries: session.entries, toolCalls: session.toolCalls };
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

function terminalsOf(sessions: readonly SessionView[]): ChatTerminalOutput[] {
  return sessions.flatMap((session) => Object.values(session.terminals ?? {}));
}

interface SentTerminal {
  readonly output: string;
  readonly status: string;
}

function sentTerminal(terminal: ChatTerminalOutput): SentTerminal {
  return { output: terminal.output, status: `${terminal.truncated}:${JSON.stringify(terminal.exitStatus)}` };
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
    ...(sessions.length === 0 ? { unavailableReason: 'This session is not known to the agent connection.' } : {}),
  };
}

/** A snapshot that shows only why the chat cannot be shown (no connection, another protocol version). */
export function unavailableSnapshot(rootSessionId: string, reason: string): SnapshotMessage {
  return { type: 'snapshot', protocolVersion: WEBVIEW_PROTOCOL_VERSION, rootSessionId, rev: 0, sessions: [], ancestors: [], terminals: [], unavailableReason: reason };
}

/** Entry id -> index, extended as entries are appended and rebuilt when the list changed otherwise. */
class EntryIndex {
  private readonly indexById = new Map<string, number>();
  private indexedLength = 0;

  indexOf(entries: readonly Entry[], entryId: string): number {
    const known = this.indexById.get(entryId);
    if (known !== undefined && entries[known]?.id === entryId) return known;
    if (known !== undefined || this.indexedLength > entries.length) this.reset();
    for (; this.indexedLength < entries.length; this.indexedLength++) {
      const entry = entries[this.indexedLength];
      if (entry) this.indexById.set(entry.id, this.indexedLength);
    }
    const found = this.indexById.get(entryId);
    if (found !== undefined && entries[found]?.id === entryId) return found;
    this.reset();
    return entries.findIndex((entry) => entry.id === entryId);
  }

  private reset(): void {
    this.indexById.clear();
    this.indexedLength = 0;
  }
}

/**
 * Keeps one webview in sync with one session subtree. Call `sendSnapshot()` when the webview says `ready` or
 * `resync`, and `setVisible()` as the panel is hidden and shown (hidden webviews drop messages).
 */
export class ChatFeed implements Disposable {
  private readonly timers: FeedTimers;
  private readonly minIntervalMs: number;
  private readonly subscriptions: Disposable[] = [];
  private readonly entryIndexes = new Map<string, EntryIndex>();
  private readonly dirtyEntries = new Map<string, Set<string>>();
  private readonly dirtyHeaders = new Set<string>();
  private treeDirty = false;
  /** Sessions the webview has, with the JSON of the actions it was last sent. */
  private sentSessions = new Map<string, string>();
  private sentAncestors = '';
  private sentTerminals = new Map<string, SentTerminal>();
  private sentRev: number | undefined;
  private rootMissing = false;
  private visible = true;
  private timer: unknown;
  private lastPostAt = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly store: SessionStoreReader,
    readonly rootSessionId: string,
    private readonly post: (message: HostToWebviewMessage) => void,
    private readonly options: ChatFeedOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.subscriptions.push(store.onDidChange((changes) => this.onStoreChange(changes)));
  }

  /** The revision the webview was last brought to, or undefined before the first snapshot. */
  get revision(): number | undefined {
    return this.sentRev;
  }

  sendSnapshot(): void {
    if (this.disposed) return;
    this.cancelTimer();
    this.clearDirty();
    const snapshot = buildSnapshot(this.store, this.rootSessionId);
    this.sentSessions = new Map(
      snapshot.sessions.map((data) => [data.header.id, JSON.stringify(data.header.actions)] as const),
    );
    this.sentAncestors = JSON.stringify(snapshot.ancestors);
    this.sentTerminals = new Map(snapshot.terminals.map((t) => [t.terminalId, sentTerminal(t)] as const));
    this.rootMissing = snapshot.sessions.length === 0;
    this.sentRev = snapshot.rev;
    this.postNow(snapshot);
  }

  /** Hidden: stop posting. Shown again: a fresh snapshot, since messages to a hidden webview may be lost. */
  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    if (!visible) this.cancelTimer();
    else if (this.sentRev !== undefined) this.sendSnapshot();
  }

  /** Posts pending changes now instead of waiting for the batching interval (tests, shutdown). */
  flush(): void {
    this.cancelTimer();
    if (this.disposed || !this.visible || this.sentRev === undefined) return;
    if (this.rootMissing) {
      if (this.store.getSession(this.rootSessionId)) this.sendSnapshot();
      else this.clearDirty();
      return;
    }
    const message = this.buildDelta(this.sentRev);
    this.clearDirty();
    if (!message) return;
    this.sentRev = message.toRev;
    this.postNow(message);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.subscriptions.length = 0;
  }

  private onStoreChange(changes: readonly { sessionId: string; kind: string; entryId?: string }[]): void {
    if (this.disposed || this.sentRev === undefined) return;
    for (const change of changes) {
      if (change.kind === 'tree') this.treeDirty = true;
      else if (change.kind === 'session') this.dirtyHeaders.add(change.sessionId);
      else if (change.kind === 'entry' && change.entryId !== undefined) {
        let ids = this.dirtyEntries.get(change.sessionId);
        if (!ids) this.dirtyEntries.set(change.sessionId, (ids = new Set()));
        ids.add(change.entryId);
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || !this.visible) return;
    const delay = Math.max(0, this.lastPostAt + this.minIntervalMs - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, delay);
  }

  private buildDelta(fromRev: number): DeltaMessage | undefined {
    const sessions = subtreeSessions(this.store, this.rootSessionId);
    const deltas: ChatSessionDelta[] = [];
    const nextSent = new Map<string, string>();
    for (const session of sessions) {
      const actions = this.store.actionsFor(session.id);
      const actionsJson = JSON.stringify(actions);
      nextSent.set(session.id, actionsJson);
      const previousActions = this.sentSessions.get(session.id);
      if (previousActions === undefined) {
        deltas.push({ sessionId: session.id, full: sessionData(this.store, session) });
        continue;
      }
      const delta = this.sessionDelta(session, previousActions !== actionsJson);
      if (delta) deltas.push(delta);
    }
    const removedSessionIds = [...this.sentSessions.keys()].filter((id) => !nextSent.has(id));
    this.sentSessions = nextSent;

    const ancestors = ancestorsOf(this.store, this.rootSessionId);
    const ancestorsJson = JSON.stringify(ancestors);
    const ancestorsChanged = ancestorsJson !== this.sentAncestors;
    this.sentAncestors = ancestorsJson;

    const terminals = this.changedTerminals(sessions);

    if (deltas.length === 0 && removedSessionIds.length === 0 && !ancestorsChanged && terminals.length === 0) {
      return undefined;
    }
    return {
      type: 'delta',
      protocolVersion: WEBVIEW_PROTOCOL_VERSION,
      fromRev,
      toRev: Math.max(this.store.revision, fromRev + 1),
      sessions: deltas,
      ...(removedSessionIds.length > 0 ? { removedSessionIds } : {}),
      ...(ancestorsChanged ? { ancestors } : {}),
      ...(terminals.length > 0 ? { terminals } : {}),
    };
  }

  private changedTerminals(sessions: readonly SessionView[]): ChatTerminalOutput[] {
    const changed: ChatTerminalOutput[] = [];
    for (const terminal of terminalsOf(sessions)) {
      const now = sentTerminal(terminal);
      const before = this.sentTerminals.get(terminal.terminalId);
      if (before && before.output === now.output && before.status === now.status) continue;
      this.sentTerminals.set(terminal.terminalId, now);
      changed.push(terminal);
    }
    return changed;
  }

  private sessionDelta(session: SessionView, actionsChanged: boolean): ChatSessionDelta | undefined {
    const headerChanged = actionsChanged || this.treeDirty || this.dirtyHeaders.has(session.id);
    const entryIds = this.dirtyEntries.get(session.id);
    if (!headerChanged && !entryIds) return undefined;
    const entries: { index: number; entry: Entry }[] = [];
    const toolCalls: ToolCallRecord[] = [];
    if (entryIds) {
      let index = this.entryIndexes.get(session.id);
      if (!index) this.entryIndexes.set(session.id, (index = new EntryIndex()));
      for (const entryId of entryIds) {
        const at = index.indexOf(session.entries, entryId);
        const entry = session.entries[at];
        if (at < 0 || !entry) continue;
        entries.push({ index: at, entry });
        if (entry.kind === 'toolCall') {
          const toolCall = session.toolCalls[entry.toolCallId];
          if (toolCall) toolCalls.push(toolCall);
        }
      }
      entries.sort((a, b) => a.index - b.index);
    }
    return {
      sessionId: session.id,
      ...(headerChanged ? { header: sessionHeader(this.store, session) } : {}),
      ...(entries.length > 0 ? { entries } : {}),
      entryCount: session.entries.length,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    };
  }

  private postNow(message: HostToWebviewMessage): void {
    this.lastPostAt = this.timers.now();
    this.post(message);
  }

  private clearDirty(): void {
    this.dirtyEntries.clear();
    this.dirtyHeaders.clear();
    this.treeDirty = false;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
