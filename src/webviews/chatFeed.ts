// Feeds one chat panel: a full snapshot of a session and its descendants, then batched revisioned deltas.
// Pure (no 'vscode'): the panel glue passes `post` and tells the feed when the webview is ready or hidden.
import type { Entry, SessionView, SessionStateInfo, StoreChange, ToolCallRecord } from '../store/model';
import { viewSafeToolCall } from './viewSafeToolCall';
import { backgroundRunning, changePath, childTimeline, preOrder, sessionSettings, subtreeUsage, subtreeUsageLines, usageTree } from '../presentation';
import { changeSummary, ownChanges, subtreeChanges, type FileChange } from '../store/sessionChanges';
import type { Disposable, SessionStoreReader } from '../store/storeAccess';
import { realTimers, type HostTimers } from '../host/hostTimers';
import { questionsNotForwardedBy } from '../store/subagentDialects';
import {
  HEADER_STATE_HISTORY,
  WEBVIEW_PROTOCOL_VERSION,
  type ChatAncestor,
  type ChatFileChange,
  type ChatSessionData,
  type ChatSessionDelta,
  type ChatSessionHeader,
  type ChatSessionState,
  type ChatTerminalOutput,
  type ChatUsage,
  type DeltaMessage,
  type EntryTextAppend,
  type FeedMessage,
  type SnapshotMessage,
  type TerminalOutputAppend,
  type ToolCallTextAppend,
} from '../protocol/webviewMessages';

export type FeedTimers = HostTimers;

export interface ChatFeedOptions {
  /** Minimum time between two posts; the default keeps a panel at <= 60 posts per second. */
  readonly minIntervalMs?: number;
  /** Posts the webview has not acknowledged yet beyond which changes wait (merged into one pending delta). */
  readonly maxInFlight?: number;
  /** After this long without an ack, the posts in flight count as lost and the feed posts again. */
  readonly ackTimeoutMs?: number;
  readonly timers?: FeedTimers;
}

const DEFAULT_MIN_INTERVAL_MS = 1000 / 60;
const DEFAULT_MAX_IN_FLIGHT = 2;
const DEFAULT_ACK_TIMEOUT_MS = 1000;


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

function chatChanges(store: SessionStoreReader, changes: readonly FileChange[], sessionId: string): ChatFileChange[] {
  const cwd = store.effectiveCwd(sessionId);
  return changes.map((change) => ({ ...changeSummary(change), label: changePath(change.path, cwd) }));
}

type SessionControls = Pick<ChatSessionHeader, 'actions' | 'toolCallCancel'>;

/**
 * What the chat may offer on a session now, as the store rules: the session's actions and whether its items
 * (v2 tool calls, agent terminals) may be cancelled alone. A disconnect withdraws both at once.
 */
function sessionControls(store: SessionStoreReader, sessionId: string): SessionControls {
  return { actions: store.actionsFor(sessionId), toolCallCancel: store.itemActionsFor(sessionId).cancel };
}

function controlsChanged(now: SessionControls, sent: ChatSessionHeader): boolean {
  return JSON.stringify(now.actions) !== JSON.stringify(sent.actions) || JSON.stringify(now.toolCallCancel) !== JSON.stringify(sent.toolCallCancel);
}

/** What the webview reads of a session (see ChatSessionHeader): built field by field, never spread. */
export function sessionHeader(store: SessionStoreReader, session: SessionView, controls = sessionControls(store, session.id)): ChatSessionHeader {
  const changes = chatChanges(store, ownChanges(session), session.id);
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
    spendLines: subtreeUsageLines(subtreeUsage(usageTree(session.id, (id) => store.getSession(id)))),
    cancelRequestedAt: session.cancelRequestedAt ?? null,
    background: session.background === true,
    backgroundRunning: backgroundRunning(session.id, (id) => store.getSession(id)),
    questionsNotForwardedBy: questionsNotForwardedBy(store, session),
    childTimeline: childTimeline(session.childIds.map((id) => store.getSession(id)).filter((child): child is SessionView => child !== undefined)),
    settings: session.parentId === null && !session.closed ? sessionSettings(session) : [],
    changes,
    treeChanges: session.childIds.length > 0 ? chatChanges(store, subtreeChanges(store, session.id), session.id) : changes,
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

/** What the webview holds of one text: its length and its last characters. */
interface SentText {
  readonly length: number;
  readonly tail: string;
}

const SENT_TAIL = 64;

function sentText(text: string): SentText {
  return { length: text.length, tail: text.slice(-SENT_TAIL) };
}

/**
 * The text added after what the webview holds, when `text` extends it; undefined when it changed otherwise.
 * Checked by length and the sent tail, not the whole prefix: the store only appends to these texts, and a
 * full comparison would make every chunk cost the size of the message again.
 */
function suffixAfter(sent: SentText | undefined, text: string): string | undefined {
  if (!sent || text.length < sent.length) return undefined;
  if (text.slice(sent.length - sent.tail.length, sent.length) !== sent.tail) return undefined;
  return text.slice(sent.length);
}

/** An entry's fields other than its appendable text, as a key (undefined for entries without text). */
function entryShape(entry: Entry): string | undefined {
  if (entry.kind !== 'message' && entry.kind !== 'sessionMessage') return undefined;
  // Attachments only grow; their count stands for them (an image's data would cost its size per chunk).
  return JSON.stringify(entry, (key, value: unknown) =>
    key === 'text' || key === 'rev' ? undefined : key === 'attachments' && Array.isArray(value) ? value.length : value,
  );
}

interface SentEntry {
  readonly shape: string;
  readonly text: SentText;
}

/** The text of each `content` item that holds a text block (undefined for other items). */
function toolCallTexts(toolCall: ToolCallRecord): (string | undefined)[] {
  return toolCall.content.map((item) => {
    const block = item.type === 'content' ? (item as { content?: unknown }).content : undefined;
    const text = typeof block === 'object' && block !== null ? (block as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? text : undefined;
  });
}

/** A tool call without the texts toolCallTexts returns, as a key. */
function toolCallShape(toolCall: ToolCallRecord, texts: readonly (string | undefined)[]): string {
  const content = toolCall.content.map((item, i) =>
    texts[i] === undefined ? item : { ...item, content: { ...(item as { content: object }).content, text: '' } },
  );
  return JSON.stringify({ ...toolCall, content });
}

interface SentToolCall {
  readonly shape: string;
  readonly texts: readonly (SentText | undefined)[];
}

interface SentTerminal {
  readonly output: SentText;
  readonly status: string;
}

function terminalStatus(terminal: ChatTerminalOutput): string {
  // Dropped output moves the text's start: then it goes whole, never as an append at a stale offset.
  return `${terminal.command}\0${terminal.args.join('\0')}:${terminal.truncated}:${terminal.droppedChars ?? 0}:${JSON.stringify(terminal.exitStatus)}`;
}

function sentTerminal(terminal: ChatTerminalOutput): SentTerminal {
  return { output: sentText(terminal.output), status: terminalStatus(terminal) };
}

/** The header fields that differ from what was sent (all of them when nothing was). */
function headerChanges(before: ChatSessionHeader | undefined, after: ChatSessionHeader): Partial<ChatSessionHeader> | undefined {
  if (!before) return after;
  const changes: Record<string, unknown> = {};
  let any = false;
  for (const key of Object.keys(after) as (keyof ChatSessionHeader)[]) {
    const a = before[key];
    const b = after[key];
    if (a === b || (typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b))) continue;
    changes[key] = b;
    any = true;
  }
  return any ? (changes as Partial<ChatSessionHeader>) : undefined;
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
  /** Per entry: the text the store appended since the last post (null: it changed otherwise). */
  private readonly appendedText = new Map<string, string | null>();
  private readonly dirtyHeaders = new Set<string>();
  /** Sessions whose entries the store took out (memory bounds): sent whole, since deltas address entries by index. */
  private readonly wholeSessions = new Set<string>();
  private treeDirty = false;
  /** Sessions the webview has, with the header it was last sent. */
  private sentSessions = new Map<string, ChatSessionHeader>();
  private sentAncestors = '';
  private sentTerminals = new Map<string, SentTerminal>();
  /** Per session: what the webview holds of entry texts and tool calls, recorded when sent whole or appended. */
  private sentEntries = new Map<string, Map<string, SentEntry>>();
  private sentToolCalls = new Map<string, Map<string, SentToolCall>>();
  private sentRev: number | undefined;
  /** Revisions posted and not acknowledged yet, with when they were posted (flow control). */
  private inFlight: { readonly rev: number; readonly at: number }[] = [];
  private readonly maxInFlight: number;
  private readonly ackTimeoutMs: number;
  private rootMissing = false;
  private visible = true;
  private timer: unknown;
  private ackTimer: unknown;
  private lastPostAt = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly store: SessionStoreReader,
    readonly rootSessionId: string,
    private readonly post: (message: FeedMessage) => void,
    private readonly options: ChatFeedOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
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
    this.sentSessions = new Map(snapshot.sessions.map((data) => [data.header.id, data.header] as const));
    this.sentAncestors = JSON.stringify(snapshot.ancestors);
    this.sentTerminals = new Map(snapshot.terminals.map((t) => [t.terminalId, sentTerminal(t)] as const));
    // Texts are recorded lazily: an entry's first change after a snapshot goes whole, later ones as appends.
    this.sentEntries = new Map();
    this.sentToolCalls = new Map();
    this.rootMissing = snapshot.sessions.length === 0;
    this.sentRev = snapshot.rev;
    this.inFlight = [];
    this.postNow(snapshot);
  }

  /**
   * The webview painted everything up to `rev`: posts up to it no longer count as in flight, and changes
   * that waited for room go out (merged into one delta).
   */
  ack(rev: number): void {
    if (this.disposed) return;
    const before = this.inFlight.length;
    this.inFlight = this.inFlight.filter((post) => post.rev > rev);
    if (this.inFlight.length === before) return;
    this.cancelAckTimer();
    if (this.hasDirty()) this.schedule();
  }

  /** Hidden: stop posting. Shown again: a fresh snapshot, since messages to a hidden webview may be lost. */
  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    if (!visible) {
      this.cancelTimer();
      this.cancelAckTimer();
    } else if (this.sentRev !== undefined) this.sendSnapshot();
  }

  /** Posts pending changes now, waiting neither for the batching interval nor for acks (tests, shutdown). */
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
    this.cancelAckTimer();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.subscriptions.length = 0;
  }

  private onStoreChange(changes: readonly StoreChange[]): void {
    if (this.disposed || this.sentRev === undefined) return;
    for (const change of changes) {
      if (change.kind === 'tree') this.treeDirty = true;
      else if (change.kind === 'session') this.markHeadersDirty(change.sessionId);
      else if (change.kind === 'entries') {
        this.wholeSessions.add(change.sessionId);
        this.markHeadersDirty(change.sessionId);
      } else if (change.kind === 'entry' && change.entryId !== undefined) {
        let ids = this.dirtyEntries.get(change.sessionId);
        if (!ids) this.dirtyEntries.set(change.sessionId, (ids = new Set()));
        ids.add(change.entryId);
        this.noteAppended(change.entryId, change.appended);
        // A tool call's diff may change the Changes of its session and (tree Changes) of every ancestor.
        if (change.appended === undefined) this.markHeadersDirty(change.sessionId);
      }
    }
    this.schedule();
  }

  /** The session's header and its ancestors' (their tree Changes include its files). */
  private markHeadersDirty(sessionId: string): void {
    const seen = new Set<string>();
    for (let id: string | null | undefined = sessionId; id && !seen.has(id); id = this.store.getSession(id)?.parentId) {
      seen.add(id);
      this.dirtyHeaders.add(id);
    }
  }

  /** Text the store said it appended to an entry since the last post; null once anything else changed it. */
  private noteAppended(entryId: string, appended: string | undefined): void {
    const before = this.appendedText.get(entryId);
    if (appended === undefined || before === null) this.appendedText.set(entryId, null);
    else this.appendedText.set(entryId, (before ?? '') + appended);
  }

  private schedule(): void {
    if (this.timer !== undefined || !this.visible) return;
    if (this.inFlight.length >= this.maxInFlight) {
      this.armAckTimer();
      return;
    }
    const delay = Math.max(0, this.lastPostAt + this.minIntervalMs - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, delay);
  }

  private buildDelta(fromRev: number): DeltaMessage | undefined {
    const sessions = subtreeSessions(this.store, this.rootSessionId);
    const deltas: ChatSessionDelta[] = [];
    const nextSent = new Map<string, ChatSessionHeader>();
    for (const session of sessions) {
      const sent = this.sentSessions.get(session.id);
      if (sent === undefined || this.wholeSessions.has(session.id)) {
        const full = sessionData(this.store, session);
        nextSent.set(session.id, full.header);
        this.sentEntries.delete(session.id);
        this.sentToolCalls.delete(session.id);
        deltas.push({ sessionId: session.id, full });
        continue;
      }
      const controls = sessionControls(this.store, session.id);
      const { delta, header } = this.sessionDelta(session, sent, controls, controlsChanged(controls, sent));
      nextSent.set(session.id, header);
      if (delta) deltas.push(delta);
    }
    const removedSessionIds = [...this.sentSessions.keys()].filter((id) => !nextSent.has(id));
    for (const id of removedSessionIds) {
      this.sentEntries.delete(id);
      this.sentToolCalls.delete(id);
    }
    this.sentSessions = nextSent;

    const ancestors = ancestorsOf(this.store, this.rootSessionId);
    const ancestorsJson = JSON.stringify(ancestors);
    const ancestorsChanged = ancestorsJson !== this.sentAncestors;
    this.sentAncestors = ancestorsJson;

    const { terminals, terminalAppends } = this.changedTerminals(sessions);

    if (deltas.length === 0 && removedSessionIds.length === 0 && !ancestorsChanged && terminals.length === 0 && terminalAppends.length === 0) {
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
      ...(terminalAppends.length > 0 ? { terminalAppends } : {}),
    };
  }

  private changedTerminals(sessions: readonly SessionView[]): { terminals: ChatTerminalOutput[]; terminalAppends: TerminalOutputAppend[] } {
    const terminals: ChatTerminalOutput[] = [];
    const terminalAppends: TerminalOutputAppend[] = [];
    for (const terminal of terminalsOf(sessions)) {
      const before = this.sentTerminals.get(terminal.terminalId);
      const status = terminalStatus(terminal);
      const suffix = before?.status === status ? suffixAfter(before.output, terminal.output) : undefined;
      if (suffix === '') continue;
      this.sentTerminals.set(terminal.terminalId, { output: sentText(terminal.output), status });
      if (suffix !== undefined && before) terminalAppends.push({ terminalId: terminal.terminalId, offset: before.output.length, suffix });
      else terminals.push(terminal);
    }
    return { terminals, terminalAppends };
  }

  private sessionDelta(
    session: SessionView,
    sentHeader: ChatSessionHeader,
    controls: SessionControls,
    controlsDirty: boolean,
  ): { delta: ChatSessionDelta | undefined; header: ChatSessionHeader } {
    const headerDirty = controlsDirty || this.treeDirty || this.dirtyHeaders.has(session.id);
    const entryIds = this.dirtyEntries.get(session.id);
    if (!headerDirty && !entryIds) return { delta: undefined, header: sentHeader };
    // The controls were just read to see whether they changed: the header takes them rather than asking again.
    const header = headerDirty ? sessionHeader(this.store, session, controls) : sentHeader;
    const changedHeader = headerDirty ? headerChanges(sentHeader, header) : undefined;
    const entries: { index: number; entry: Entry }[] = [];
    const appends: EntryTextAppend[] = [];
    const toolCalls: ToolCallRecord[] = [];
    const toolCallAppends: ToolCallTextAppend[] = [];
    if (entryIds) {
      let index = this.entryIndexes.get(session.id);
      if (!index) this.entryIndexes.set(session.id, (index = new EntryIndex()));
      for (const entryId of entryIds) {
        const at = index.indexOf(session.entries, entryId);
        const entry = session.entries[at];
        if (at < 0 || !entry) continue;
        const append = this.entryAppend(session.id, at, entry);
        if (append) appends.push(append);
        else entries.push({ index: at, entry });
        if (entry.kind === 'toolCall') {
          const toolCall = session.toolCalls[entry.toolCallId];
          if (toolCall) this.toolCallChange(session.id, toolCall, toolCalls, toolCallAppends);
        }
      }
      entries.sort((a, b) => a.index - b.index);
    }
    if (!changedHeader && entries.length === 0 && appends.length === 0 && toolCalls.length === 0 && toolCallAppends.length === 0 && !entryIds) {
      return { delta: undefined, header };
    }
    const delta: ChatSessionDelta = {
      sessionId: session.id,
      ...(changedHeader ? { header: changedHeader } : {}),
      ...(entries.length > 0 ? { entries } : {}),
      ...(appends.length > 0 ? { appends } : {}),
      entryCount: session.entries.length,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(toolCallAppends.length > 0 ? { toolCallAppends } : {}),
    };
    return { delta, header };
  }

  /** An append when the entry's only change since it was sent is text added at the end; records what is sent. */
  private entryAppend(sessionId: string, index: number, entry: Entry): EntryTextAppend | undefined {
    const shape = entryShape(entry);
    let sent = this.sentEntries.get(sessionId);
    if (shape === undefined || (entry.kind !== 'message' && entry.kind !== 'sessionMessage')) {
      sent?.delete(entry.id);
      return undefined;
    }
    if (!sent) this.sentEntries.set(sessionId, (sent = new Map()));
    const before = sent.get(entry.id);
    // The store told us what it appended: no need to read the text (reading a long streamed text costs its length).
    const told = this.appendedText.get(entry.id);
    if (before?.shape === shape && typeof told === 'string' && before.text.length + told.length === entry.text.length) {
      sent.set(entry.id, { shape, text: { length: entry.text.length, tail: (before.text.tail + told).slice(-SENT_TAIL) } });
      return { index, entryId: entry.id, rev: entry.rev, offset: before.text.length, suffix: told };
    }
    sent.set(entry.id, { shape, text: sentText(entry.text) });
    const suffix = before?.shape === shape ? suffixAfter(before.text, entry.text) : undefined;
    if (suffix === undefined || !before) return undefined;
    return { index, entryId: entry.id, rev: entry.rev, offset: before.text.length, suffix };
  }

  /** Adds the tool call whole, or appends to its texts when nothing else changed; records what is sent. */
  private toolCallChange(sessionId: string, stored: ToolCallRecord, whole: ToolCallRecord[], appends: ToolCallTextAppend[]): void {
    const toolCall = viewSafeToolCall(stored);
    let sent = this.sentToolCalls.get(sessionId);
    if (!sent) this.sentToolCalls.set(sessionId, (sent = new Map()));
    const texts = toolCallTexts(toolCall);
    const shape = toolCallShape(toolCall, texts);
    const before = sent.get(toolCall.toolCallId);
    sent.set(toolCall.toolCallId, { shape, texts: texts.map((text) => (text === undefined ? undefined : sentText(text))) });
    if (before?.shape !== shape) {
      whole.push(toolCall);
      return;
    }
    const found: ToolCallTextAppend[] = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      if (text === undefined) continue;
      const suffix = suffixAfter(before.texts[i], text);
      if (suffix === undefined) {
        whole.push(toolCall);
        return;
      }
      if (suffix !== '') found.push({ toolCallId: toolCall.toolCallId, contentIndex: i, offset: before.texts[i]!.length, suffix });
    }
    appends.push(...found);
  }

  private postNow(message: FeedMessage): void {
    this.lastPostAt = this.timers.now();
    const rev = message.type === 'snapshot' ? message.rev : message.toRev;
    this.inFlight.push({ rev, at: this.lastPostAt });
    // Forced flushes (tests, shutdown) do not wait for acks; only the newest few matter for the window.
    if (this.inFlight.length > 8) this.inFlight.shift();
    this.post(message);
  }

  /** A lost ack (or a webview that never acks) must not stall the stream: after the timeout, post again. */
  private armAckTimer(): void {
    const oldest = this.inFlight[0];
    if (this.ackTimer !== undefined || !oldest) return;
    const delay = Math.max(0, oldest.at + this.ackTimeoutMs - this.timers.now());
    this.ackTimer = this.timers.setTimeout(() => {
      this.ackTimer = undefined;
      // Deltas chain by revision: if a post was lost rather than its ack, the webview sees a gap and resyncs.
      this.inFlight = [];
      if (this.hasDirty()) this.schedule();
    }, delay);
  }

  private cancelAckTimer(): void {
    if (this.ackTimer !== undefined) {
      this.timers.clearTimeout(this.ackTimer);
      this.ackTimer = undefined;
    }
  }

  private hasDirty(): boolean {
    return this.treeDirty || this.dirtyEntries.size > 0 || this.dirtyHeaders.size > 0 || this.wholeSessions.size > 0;
  }

  private clearDirty(): void {
    this.dirtyEntries.clear();
    this.appendedText.clear();
    this.dirtyHeaders.clear();
    this.wholeSessions.clear();
    this.treeDirty = false;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
