// An in-memory SessionStoreReader for feed and webview tests: plain records, a revision counter and
// change events shaped like the real store's.
import type {
  Entry,
  PromptCapabilities,
  SessionActions,
  SessionRecord,
  StateSource,
  StoreChange,
  TerminalRecord,
  ToolCallRecord,
} from '../../src/store/model';
import type { Disposable, SessionStoreReader } from '../../src/store/storeAccess';
import { newSessionRecord } from '../../src/store/sessionRecord';
import { controlsOf, itemCancelGate, itemCancelOf, type SessionItem } from '../../src/store/sessionControls';

export class FakeStore implements SessionStoreReader {
  revision = 0;
  readonly diagnostics = [];
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly listeners = new Set<(changes: readonly StoreChange[]) => void>();
  /** Verdicts a test forces over the controller's (e.g. a refusal the scene does not reach by its own facts). */
  private readonly actions = new Map<string, Partial<SessionActions>>();
  /** The agent advertises steering (`_session/steering`). */
  steering = false;
  /** Starts a minute ago and advances a second per change, so elapsed times look realistic. */
  private clock = Date.now() - 60_000;

  /** What the agent accepts beyond text and links (tests set it). */
  capabilities: PromptCapabilities = { image: false, audio: false, embeddedContext: false };

  promptCapabilities(): PromptCapabilities {
    return this.capabilities;
  }

  effectiveCwd(sessionId: string): string | null {
    for (let session = this.getSession(sessionId); session; session = session.parentId ? this.getSession(session.parentId) : undefined) {
      if (session.cwd) return session.cwd;
    }
    return null;
  }

  getSession(sessionId: string): SessionRecord | undefined {
    return this.sessions.get(sessionId);
  }

  /** Tree pre-order like SessionStore.listSessions: parents before children, siblings in order of first appearance. */
  listSessions(): SessionRecord[] {
    const out: SessionRecord[] = [];
    const seen = new Set<string>();
    const visit = (session: SessionRecord | undefined): void => {
      if (!session || seen.has(session.id)) return;
      seen.add(session.id);
      out.push(session);
      for (const childId of session.childIds) visit(this.sessions.get(childId));
    };
    for (const session of this.sessions.values()) {
      if (!session.parentId || !this.sessions.has(session.parentId)) visit(session);
    }
    return out;
  }

  /** The real controller's verdicts over these records (sessionControls.ts), with any a test forced on top. */
  actionsFor(sessionId: string): SessionActions {
    const session = this.sessions.get(sessionId);
    const forced = this.actions.get(sessionId) ?? {};
    if (!session) return { ...controlsOf(newSessionRecord({ id: sessionId, ordinal: 0, parentId: null, parentToolCallId: null, link: 'root', origin: 'root', state: { state: 'idle' } }, 0, 0), this.facts()), ...forced };
    return { ...controlsOf(session, this.facts()), ...forced };
  }

  private facts() {
    return { connected: true, loadSession: false, steering: this.steering, lookup: (id: string) => this.sessions.get(id) };
  }

  /** The store's own rule, as on a live v2 connection. */
  itemActionsFor(sessionId: string, item?: SessionItem) {
    const session = this.sessions.get(sessionId);
    return { cancel: item ? itemCancelOf(session, item, true, 2) : itemCancelGate(session, true, 2) };
  }

  onDidChange(listener: (changes: readonly StoreChange[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  setActions(sessionId: string, actions: Partial<SessionActions>): void {
    this.actions.set(sessionId, actions);
    this.emit([{ sessionId, kind: 'session' }]);
  }

  /** Label as the store computes it (title, description, subagent type, "Session N"), unless `fields.label` says. */
  addSession(id: string, fields: Partial<SessionRecord> = {}): SessionRecord {
    const rev = ++this.revision;
    const now = this.tick();
    const session: SessionRecord = {
      ...newSessionRecord(
        { id, ordinal: this.sessions.size + 1, parentId: null, parentToolCallId: null, link: fields.parentId ? 'subagent_update' : 'root', origin: fields.parentId ? 'announced' : 'root', state: { state: 'running' } },
        now,
        rev,
      ),
      cwd: '/repo',
      hadTraffic: true,
      stateReported: true,
      // As the real store has them: roots the client opened, subagents that grant cancel.
      ...(fields.parentId ? { capabilities: { cancel: {} } } : { openedByClient: true }),
      ...fields,
    };
    const named = [fields.title, fields.description, fields.subagentType].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (fields.label === undefined && named !== undefined) session.label = named.trim();
    this.sessions.set(id, session);
    const changes: StoreChange[] = [{ sessionId: id, kind: 'tree' }];
    if (session.parentId) {
      const parent = this.mustGet(session.parentId);
      parent.childIds.push(id);
      parent.rev = rev;
      changes.push({ sessionId: parent.id, kind: 'session' });
    }
    this.emit(changes);
    return session;
  }

  /** Appends an entry (rev/at filled in) and returns it. */
  addEntry<E extends Entry>(sessionId: string, entry: Omit<E, 'rev' | 'at'>): E {
    const session = this.mustGet(sessionId);
    const full = { ...entry, rev: ++this.revision, at: this.tick() } as E;
    session.entries.push(full);
    session.rev = this.revision;
    this.emit([{ sessionId, kind: 'entry', entryId: full.id }]);
    return full;
  }

  /** Replaces an entry with an updated copy (the real store bumps `rev` the same way). */
  updateEntry<E extends Entry>(sessionId: string, entryId: string, patch: (entry: E) => Partial<E>): void {
    const session = this.mustGet(sessionId);
    const index = session.entries.findIndex((e) => e.id === entryId);
    const entry = session.entries[index] as E;
    session.entries[index] = { ...entry, ...patch(entry), rev: ++this.revision } as E;
    session.rev = this.revision;
    this.emit([{ sessionId, kind: 'entry', entryId }]);
  }

  /** Adds or patches a tool call and its transcript entry. */
  upsertToolCall(sessionId: string, toolCall: Partial<ToolCallRecord> & { toolCallId: string }): void {
    const session = this.mustGet(sessionId);
    const existing = session.toolCalls[toolCall.toolCallId];
    const rev = ++this.revision;
    session.toolCalls[toolCall.toolCallId] = {
      title: '',
      kind: 'other',
      status: 'pending',
      content: [],
      locations: [],
      ...existing,
      ...toolCall,
    };
    const entryId = `tc:${toolCall.toolCallId}`;
    if (!existing) {
      session.toolCallOrder.push(toolCall.toolCallId);
      session.entries.push({ kind: 'toolCall', id: entryId, toolCallId: toolCall.toolCallId, rev, at: this.tick() });
    } else {
      const index = session.entries.findIndex((e) => e.id === entryId);
      const entry = session.entries[index];
      if (entry) session.entries[index] = { ...entry, rev };
    }
    session.rev = rev;
    this.emit([{ sessionId, kind: 'entry', entryId }]);
  }

  /** Creates or updates a terminal's output (the store does this when it reads terminal/output). */
  setTerminal(sessionId: string, terminal: TerminalRecord): void {
    const session = this.mustGet(sessionId);
    session.terminals[terminal.terminalId] = terminal;
    session.rev = ++this.revision;
    this.emit([{ sessionId, kind: 'session' }]);
  }

  /** A state change as the store records it: into the history (with who said so), clearing a cancel request. */
  setState(sessionId: string, state: SessionRecord['state'], source: StateSource = 'agent'): void {
    const session = this.mustGet(sessionId);
    session.state = state;
    session.cancelRequestedAt = null;
    session.stateHistory.push({ state: state.state, ...(state.stopReason ? { stopReason: state.stopReason } : {}), at: this.tick(), source });
    session.rev = ++this.revision;
    this.emit([{ sessionId, kind: 'session' }]);
  }

  patchSession(sessionId: string, patch: Partial<SessionRecord>): void {
    const session = this.mustGet(sessionId);
    Object.assign(session, patch, { rev: ++this.revision });
    this.emit([{ sessionId, kind: 'session' }]);
  }

  private mustGet(id: string): SessionRecord {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  private emit(changes: StoreChange[]): void {
    for (const listener of this.listeners) listener(changes);
  }
}
