// The store's mutable core: the session records, the clock of the message being applied (revision, line,
// time), change notifications and diagnostics. Every reducer changes records only through these methods,
// so revisions, `updatedAt`, state history and labels stay consistent.
import type { Diagnostic, DiagnosticCode, Entry, MessageEntry, SessionRecord, SessionStateInfo, StateSource, StoreChange, ToolCallEntry, ToolCallRecord } from './model';
import { emptyIndex, type SentWords, type SessionIndex } from './sessionIndex';
import { sessionLabel, TwinLabels } from './sessionLabel';
import { isSessionFinished, isToolCallOpen, sameState } from './stateRules';
import { spellOf } from '../presentation/time';

export interface RecordKeeperOptions {
  readonly now: () => number;
  readonly maxDiagnostics: number;
  readonly maxStateHistory: number;
}

export class RecordKeeper {
  readonly sessions = new Map<string, SessionRecord>();
  private readonly indexes = new Map<string, SessionIndex>();
  private readonly listeners = new Set<(changes: readonly StoreChange[]) => void>();
  private readonly diagnosticList: Diagnostic[] = [];
  readonly twins = new TwinLabels();
  /** Messages the client sent, with their words as sent: an agent's echo never rewrites them (agentAccounts.ts). */
  readonly sentWords = new WeakMap<MessageEntry, SentWords>();
  private changes: StoreChange[] = [];
  private entryCounter = 0;
  /**
   * What the memory bounds may drop (memoryBounds.ts), oldest finish first: insertion-ordered, so moving an
   * item to the end or taking it out costs O(1) per message. Finished sessions by id; finished tool calls with
   * the id of the session that owns them.
   */
  readonly finishedSessions = new Set<string>();
  readonly finishedToolCalls = new Map<ToolCallRecord, string>();
  /** Tool calls held, and characters of message text added (recounted exactly when a bound is checked). */
  toolCallCount = 0;
  textChars = 0;
  rev = 0;
  sequence = 0;
  line = 0;
  at = 0;

  constructor(readonly options: RecordKeeperOptions) {}

  get diagnostics(): readonly Diagnostic[] {
    return this.diagnosticList;
  }

  /** Starts applying one message: a new revision, its line and its time. */
  begin(line: number | undefined, at: number | undefined): void {
    this.rev++;
    this.sequence++;
    this.line = line ?? this.sequence;
    this.at = at ?? this.options.now();
  }

  session(id: string): SessionRecord | undefined {
    return this.sessions.get(id);
  }

  indexOf(session: SessionRecord): SessionIndex {
    let index = this.indexes.get(session.id);
    if (!index) {
      index = emptyIndex();
      this.indexes.set(session.id, index);
    }
    return index;
  }

  /** Rebuilds a session's lookups from its entries (after entries moved in from another record). */
  reindex(session: SessionRecord): void {
    const previous = this.indexes.get(session.id);
    const index = emptyIndex();
    // v2 prompts still in flight keep waiting for their acknowledgement and echo (entries are not in the index).
    if (previous) {
      const entries = new Set<unknown>(session.entries);
      index.promptCopies.push(...previous.promptCopies.filter((copy) => entries.has(copy.entry)));
      for (const [messageId, held] of previous.heldEchoes) index.heldEchoes.set(messageId, held);
      index.unnamedCopies.push(...previous.unnamedCopies.filter((entry) => entries.has(entry)));
      index.openSteers.push(...previous.openSteers.filter((copy) => entries.has(copy.entry)));
      index.relaysAwaitingPassOn.push(...previous.relaysAwaitingPassOn.filter((entry) => entries.has(entry)));
    }
    for (const entry of session.entries) {
      if (entry.kind === 'message') {
        if (entry.messageId) index.messages.set(`${entry.role}\0${entry.messageId}`, entry);
        if (entry.role === 'user' && !entry.addedByAgent && !index.firstUserMessage && entry.text.trim() !== '') index.firstUserMessage = entry;
      } else if (entry.kind === 'sessionMessage') index.sessionMessages.set(entry.messageId, entry);
      else if (entry.kind === 'toolCall') index.toolEntries.set(entry.toolCallId, entry);
      else if (entry.kind === 'plan' && !entry.removed) index.plans.set(entry.planId ?? '', entry);
    }
    index.last = session.entries.at(-1);
    this.indexes.set(session.id, index);
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.indexes.delete(sessionId);
    this.twins.forget(sessionId);
  }

  /** Entry ids are unique per store (a revision can add several entries, even to one session). */
  nextEntryId(prefix: string): string {
    return `${prefix}:${++this.entryCounter}`;
  }

  /** `retell`: record the state even when unchanged, because someone else now says it (see turns.ts). */
  setState(session: SessionRecord, state: SessionStateInfo, source: StateSource, retell = false): void {
    if (!retell && sameState(session.state, state)) return;
    noteWorkingSpell(session, state, this.at);
    session.state = state;
    session.cancelRequestedAt = null;
    this.noteSessionState(session);
    session.stateHistory.push({ state: state.state, ...(state.stopReason ? { stopReason: state.stopReason } : {}), at: this.at, source });
    const max = this.options.maxStateHistory;
    if (session.stateHistory.length > max) session.stateHistory.splice(0, session.stateHistory.length - max);
    this.touch(session);
  }

  /** Keeps the order of finished sessions: a session that finishes (again) is the newest finished. */
  noteSessionState(session: SessionRecord): void {
    this.finishedSessions.delete(session.id);
    if (isSessionFinished(session.state)) this.finishedSessions.add(session.id);
  }

  /** The same for a tool call whose status changed. */
  noteToolCallStatus(ownerId: string, call: ToolCallRecord): void {
    this.finishedToolCalls.delete(call);
    if (!isToolCallOpen(call.status)) this.finishedToolCalls.set(call, ownerId);
  }

  noteText(chars: number): void {
    this.textChars += chars;
  }

  addEntry(session: SessionRecord, entry: Entry): void {
    session.entries.push(entry);
    this.indexOf(session).last = entry;
    this.touchEntry(session, entry);
  }

  touch(session: SessionRecord): void {
    session.rev = this.rev;
    this.markSubtree(session);
    session.updatedAt = this.at;
    this.relabel(session);
    this.changed({ sessionId: session.id, kind: 'session' });
  }

  /** `appended`: the entry's only change was this text added at the end of its text. */
  touchEntry(session: SessionRecord, entry: Entry, appended?: string): void {
    entry.rev = this.rev;
    session.rev = this.rev;
    this.markSubtree(session);
    session.updatedAt = this.at;
    this.changed(appended === undefined ? { sessionId: session.id, kind: 'entry', entryId: entry.id } : { sessionId: session.id, kind: 'entry', entryId: entry.id, appended });
  }

  /** The session and its ancestors learn that their subtree changed now; stops at the first that already knows. */
  private markSubtree(session: SessionRecord): void {
    for (let at: SessionRecord | undefined = session; at && at.subtreeRev !== this.rev; at = at.parentId === null ? undefined : this.sessions.get(at.parentId)) {
      at.subtreeRev = this.rev;
    }
  }

  touchEntryById(sessionId: string | undefined, entry: Entry): void {
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (session) this.touchEntry(session, entry);
  }

  /** Recomputes the label; a label change also changes the children's (they may name their parent's call). */
  relabel(session: SessionRecord): void {
    const name = sessionLabel(session, this.parentToolCallOf(session), session.parentId === null ? this.firstPrompt(session) : undefined);
    const siblings = session.parentId === null ? [] : (this.sessions.get(session.parentId)?.childIds ?? []);
    const label = this.twins.label(session.id, session.parentId, name, siblings);
    if (label !== session.label) session.label = label;
  }

  changed(change: StoreChange): void {
    if (this.listeners.size > 0) this.changes.push(change);
  }

  onDidChange(listener: (changes: readonly StoreChange[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  flush(): void {
    if (this.changes.length === 0) return;
    const changes = this.changes;
    this.changes = [];
    for (const listener of [...this.listeners]) {
      try {
        listener(changes);
      } catch {
        // A failing view must not break the store or the other views.
      }
    }
  }

  diagnose(code: DiagnosticCode, message: string): void {
    const max = this.options.maxDiagnostics;
    if (this.diagnosticList.length > max) return;
    if (this.diagnosticList.length === max) {
      this.diagnosticList.push({ code: 'limit', message: `more than ${max} diagnostics; the rest are not kept`, line: this.line });
      return;
    }
    this.diagnosticList.push({ code, message, line: this.line });
  }

  private parentToolCallOf(session: SessionRecord) {
    if (!session.parentId || !session.parentToolCallId) return undefined;
    return this.sessions.get(session.parentId)?.toolCalls[session.parentToolCallId];
  }

  private firstPrompt(session: SessionRecord): string | undefined {
    return this.indexes.get(session.id)?.firstUserMessage?.text;
  }
}

/** Keeps the session's time spent: the spell that ends (working or waiting) is added up, the next one starts. */
function noteWorkingSpell(session: SessionRecord, next: SessionStateInfo, at: number): void {
  const ending = spellOf(session.state);
  const starting = spellOf(next);
  if (ending === starting) return;
  const spent = session.timeSpent;
  const elapsed = ending && spent.since !== null ? Math.max(0, at - spent.since) : 0;
  session.timeSpent = {
    working: spent.working + (ending === 'working' ? elapsed : 0),
    waiting: spent.waiting + (ending === 'waiting' ? elapsed : 0),
    since: starting ? at : null,
  };
}
