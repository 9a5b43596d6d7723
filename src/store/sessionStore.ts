// The client session store: takes every JSON-RPC message on one agent connection, in wire order and in both
// directions, and maintains sessions, their parent/child tree and their transcripts. It is the only reducer
// of the wire: views and the connection read facts from it. It never throws on input: anything it cannot use
// becomes a diagnostic with the line it came from.
//
// This file is the facade: it classifies messages and hands them to the parts that own each job —
// the request ledger (requestLedger.ts), the owner resolver (updateOwner.ts), the tree rules (sessionTree.ts),
// one reducer per kind of update (reducers/) and the plug-ins of the agent dialects this connection speaks
// (dialects/, switched on by what the agent shows it is).
import { advertisesSteering, promptCapabilitiesOf, reattachMethod } from './agentCapabilities';
import type { ActionPermission, Diagnostic, Direction, Entry, MessageEntry, PromptCapabilities, QueuedPrompt, SessionActions, SessionRecord, SessionView, StoreChange } from './model';
import { RequestLedger, requestKey, type PendingRequest } from './requestLedger';
import { appendChunk, upsertMessage } from './reducers/messages';
import { acknowledgePrompt, forgetPrompt } from './reducers/promptEchoes';
import { applyTerminalOutputChunk, applyTerminalUpdate } from './reducers/agentTerminals';
import {
  addNotice,
  applyAvailableCommands,
  applyCompaction,
  applyConfigOptions,
  applyCurrentMode,
  applyPlan,
  applyPlanUpdate,
  removePlan,
  applySessionInfo,
  applySessionSetup,
  applySubagentCatalog,
  applyUsage,
} from './reducers/sessionDetails';
import { applySessionMessage } from './reducers/sessionMessages';
import { applyStateUpdate, applySubagentUpdate } from './reducers/subagents';
import { adoptAgentPoolChild, noteChildActivity } from './reducers/childActivity';
import { appendToolCallContent, applyToolCall, ensureVirtualChild } from './reducers/toolCalls';
import { endAgentStartedTurn, endPrompt, noteAgentStartedWork, noteCancelRequested, startPrompt } from './reducers/turns';
import { applyClientResult, failAllUserRequests, failUserRequest, openElicitation, openPermission } from './reducers/userRequests';
import { controlsAffectedBy, controlsOf, itemCancelGate, itemCancelOf, refusedActions, type SessionItem } from './sessionControls';
import { STEER_METHOD, abandonSteers, noteMovedToBackground, settleSteer, startSteer } from './reducers/steering';
import { notePassedOn } from './reducers/relays';
import { t } from '../presentation/l10n';
import { SessionTree } from './sessionTree';
import { DEFAULT_MEMORY_LIMITS, MemoryBounds, type MemoryLimits } from './memoryBounds';
import { RecordKeeper } from './recordKeeper';
import { TextSpill, type EarlierPage, type TextVault } from './textSpill';
import type { Disposable, SessionStoreReader, SessionStoreWriter } from './storeAccess';
import type { ReducerContext } from './reducerContext';
import { claudeAsyncLaunchSender, isCodexThreadIdle } from './subagentDialects';
import { resolveUpdateOwner, type OwnerLookup, type UpdateOwner } from './updateOwner';
import { AgentMethod, CANCEL_REQUEST_METHOD, ClientMethod } from '../protocol/acpMethods';
import { noteUsage } from './reducers/usage';
import { readTurnUsage } from './usage';
import type { OwnedUpdateSink, UpdateSink } from './dialects/dialect';
import { DialectSet } from './dialects/dialectSet';
import { DIALECTS } from './dialects/index';
import { asString, classifyMessage, directionOfMethod, isObject, parseTranscriptLine, type JsonObject } from './wireMessage';

export interface SessionStoreOptions {
  readonly now?: () => number;
  readonly maxDiagnostics?: number;
  readonly maxStateHistory?: number;
  /** Per-connection memory bounds (memoryBounds.ts); the defaults are in README "Security". */
  readonly limits?: Partial<MemoryLimits>;
  /** Where the heads of long agent texts go past the held-text bound (textSpill.ts); without one they stay in memory. */
  readonly textVault?: TextVault;
}

const KNOWN_AGENT_METHODS = new Set<string>([...Object.values(ClientMethod), CANCEL_REQUEST_METHOD]);

type UpdateReducer = (parts: ReducerContext, target: SessionRecord, update: JsonObject, wire: SessionRecord) => void;

/** One reducer per `sessionUpdate` kind (subagent announcements are handled before routing). */
const UPDATE_REDUCERS: Readonly<Record<string, UpdateReducer>> = {
  agent_message_chunk: (parts, target, update) => appendChunk(parts, target, 'agent', update),
  agent_thought_chunk: (parts, target, update) => appendChunk(parts, target, 'thought', update),
  user_message_chunk: (parts, target, update) => appendChunk(parts, target, 'user', update),
  // v2 whole messages (upserts by messageId).
  agent_message: (parts, target, update) => upsertMessage(parts, target, 'agent', update),
  agent_thought: (parts, target, update) => upsertMessage(parts, target, 'thought', update),
  user_message: (parts, target, update) => upsertMessage(parts, target, 'user', update),
  tool_call: (parts, target, update, wire) => applyToolCall(parts, wire, target, update, 'tool_call'),
  tool_call_update: (parts, target, update, wire) => applyToolCall(parts, wire, target, update, 'tool_call_update'),
  plan: (parts, target, update) => applyPlan(parts, target, Array.isArray(update['entries']) ? update['entries'] : []),
  plan_update: (parts, target, update) => applyPlanUpdate(parts, target, update['plan']),
  plan_removed: (parts, target, update) => removePlan(parts, target, update['planId']),
  tool_call_content_chunk: (parts, target, update, wire) => appendToolCallContent(parts, wire, target, update),
  terminal_update: (parts, target, update) => applyTerminalUpdate(parts, target, update),
  terminal_output_chunk: (parts, target, update) => applyTerminalOutputChunk(parts, target, update),
  session_message: (parts, target, update) => {
    applySessionMessage(parts, target, update, false);
    const launched = parts.core.session(claudeAsyncLaunchSender(update) ?? '');
    if (launched) noteMovedToBackground(parts, launched, target);
  },
  session_message_chunk: (parts, target, update) => applySessionMessage(parts, target, update, true),
  session_info_update: (parts, target, update) => {
    applySessionInfo(parts, target, update);
    // codex-acp closes a turn it started itself (a steer answered startedNewTurn) only with its thread going idle.
    if (isCodexThreadIdle(update)) endAgentStartedTurn(parts, target);
  },
  state_update: (parts, target, update) => applyStateUpdate(parts, target, update),
  usage_update: (parts, target, update) => applyUsage(parts, target, update),
  current_mode_update: (parts, target, update) => applyCurrentMode(parts, target, update['currentModeId']),
  config_option_update: (parts, target, update) => applyConfigOptions(parts, target, update['configOptions']),
  available_commands_update: (parts, target, update) => applyAvailableCommands(parts, target, update['availableCommands']),
  available_subagents_update: (parts, target, update) => applySubagentCatalog(parts, target, update['availableSubagents']),
  notice: (parts, target, update) =>
    addNotice(parts, target, asString(update['severity']) ?? 'info', asString(update['title']) ?? '', typeof update['description'] === 'string' ? update['description'] : undefined),
  compaction_update: (parts, target, update) => applyCompaction(parts, target, update),
  // Part of ACP but nothing the store shows.
  compaction_summary_chunk: () => undefined,
};

const SUBAGENT_ANNOUNCEMENTS: Readonly<Record<string, 'subagent_update' | 'subagent_spawned'>> = {
  subagent_update: 'subagent_update',
  subagent_spawned: 'subagent_spawned',
  subagent_state_update: 'subagent_spawned',
};

export class SessionStore implements SessionStoreReader, SessionStoreWriter {
  private readonly core: RecordKeeper;
  private readonly tree: SessionTree;
  private readonly ledger = new RequestLedger();
  private readonly parts: ReducerContext;
  private readonly bounds: MemoryBounds;
  /** The agent dialects' plug-ins: dormant until the agent shows it speaks one. */
  private readonly dialects: DialectSet;
  /** What the owner resolver may ask: who owns a tool call, and what the dialects add (which task a Copilot agent belongs to). */
  private readonly owners: OwnerLookup;
  private readonly reportedUnknownUpdates = new Set<string>();
  private readonly reportedUnknownMethods = new Set<string>();
  private connected = true;
  /** From the agent's initialize response (live or replayed). */
  agentCapabilities: JsonObject = {};
  private steeringAdvertised = false;

  constructor(options: SessionStoreOptions = {}) {
    this.core = new RecordKeeper({ now: options.now ?? Date.now, maxDiagnostics: options.maxDiagnostics ?? 1000, maxStateHistory: options.maxStateHistory ?? 50 });
    this.tree = new SessionTree(this.core);
    this.parts = {
      core: this.core,
      tree: this.tree,
      ledger: this.ledger,
      replaying: new Set(),
      backgroundTasks: new Map(),
      spawns: {
        refineSpawn: (spawn, update) => this.dialects.refineSpawn(spawn, update),
        noteSpawn: (wireId, toolCallId, spawn) => this.dialects.noteSpawn(wireId, toolCallId, spawn),
      },
      protocol: { version: 1 },
      terminalDecoders: new Map(),
      spill: options.textVault ? new TextSpill(options.textVault) : undefined,
    };
    this.bounds = new MemoryBounds(this.parts, { ...DEFAULT_MEMORY_LIMITS, ...options.limits });
    this.dialects = new DialectSet({ parts: this.parts, applyOnWire: this.applyOnWire, applyOwned: this.applyDialectOwned }, DIALECTS);
    this.owners = { ...this.dialects.lookups, toolOwner: (wireId, toolCallId) => this.tree.toolOwner(wireId, toolCallId) };
  }

  // ---- reader -------------------------------------------------------------------------------------------

  get revision(): number {
    return this.core.rev;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.core.diagnostics;
  }

  /** Said once per connection when its memory bounds first dropped detail (the host shows it as a warning). */
  get boundsNotice(): string | undefined {
    return this.bounds.notice;
  }

  /** Set once when the agent must be stopped: it passed a memory bound twice over with nothing left to drop. */
  get memoryOverrun(): string | undefined {
    return this.bounds.overrun;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** Number of sessions known, reachable or not (the tree invariants say they all are). */
  get sessionCount(): number {
    return this.core.sessions.size;
  }

  promptCapabilities(): PromptCapabilities {
    return promptCapabilitiesOf(this.agentCapabilities, this.protocolVersion);
  }

  /** The ACP major version the agent answered in initialize (live or replayed): 1 until it answers. */
  get protocolVersion(): 1 | 2 {
    return this.parts.protocol.version;
  }

  /** Whether the agent can reattach to a root session later (session/load or session/resume). */
  get canReconnect(): boolean {
    return reattachMethod(this.agentCapabilities, this.protocolVersion) !== undefined;
  }

  /** A session by id; an id the session was known by before (a replaced virtual child) finds it too. */
  /** The page of a message's earlier text that ends at `end` (see textSpill.ts); undefined when it has none there. */
  async earlierPage(sessionId: string, entryId: string, end: number): Promise<EarlierPage | undefined> {
    const entry = this.messageEntry(sessionId, entryId);
    return entry && this.parts.spill ? this.parts.spill.page(entry, end) : undefined;
  }

  /** A message's whole text, its earlier part read back from the vault (as it was when asked). */
  async wholeText(sessionId: string, entryId: string): Promise<string | undefined> {
    const entry = this.messageEntry(sessionId, entryId);
    if (!entry) return undefined;
    return this.parts.spill ? this.parts.spill.wholeText(entry) : entry.text;
  }

  private messageEntry(sessionId: string, entryId: string): MessageEntry | undefined {
    const entry = this.recordOf(sessionId)?.entries.find((e) => e.id === entryId);
    return entry?.kind === 'message' ? entry : undefined;
  }

  getSession(sessionId: string): SessionView | undefined {
    return this.core.session(this.tree.currentId(sessionId));
  }

  listSessions(): readonly SessionView[] {
    return this.tree.preOrder(this.tree.roots);
  }

  /** The session and all its descendants, pre-order. */
  subtree(sessionId: string): readonly SessionView[] {
    return this.tree.preOrder([this.tree.currentId(sessionId)]);
  }

  /** The session's own cwd, or (while unset) the nearest ancestor's: what its terminals and relative paths use. */
  effectiveCwd(sessionId: string): string | null {
    return this.tree.effectiveCwd(this.tree.currentId(sessionId));
  }

  /** The session an agent's open request (by JSON-RPC id) was attributed to, after dialect routing. */
  sessionOfAgentRequest(requestId: string | number): SessionView | undefined {
    const sessionId = this.ledger.get('agent->client', requestId)?.sessionId;
    return sessionId ? this.core.session(sessionId) : undefined;
  }

  rootOf(sessionId: string): SessionView | undefined {
    return this.tree.rootOf(this.tree.currentId(sessionId));
  }

  /** The controller's verdicts for the session now (sessionControls.ts): the one answer every view renders. */
  actionsFor(sessionId: string): SessionActions {
    const session = this.recordOf(sessionId);
    if (!session) return refusedActions(t('Unknown session.'));
    return controlsOf(session, {
      connected: this.connected,
      loadSession: this.agentCapabilities['loadSession'] === true,
      steering: this.steering,
      lookup: (id) => this.core.session(id),
      ...this.dialects.facts,
    });
  }

  controlsAffectedBy(changed: Iterable<string>): ReadonlySet<string> {
    return controlsAffectedBy(changed, { lookup: (id) => this.core.session(id), ...this.dialects.facts });
  }

  controlFactsKey(): string {
    return `${this.connected}|${this.agentCapabilities['loadSession'] === true}|${this.steering}|${this.protocolVersion}`;
  }

  /** The agent takes `_session/steering`: initialize `_meta.steering.supported` (v1 and v2), or v2 `session.steering`. */
  get steering(): boolean {
    return this.steeringAdvertised;
  }

  // ---- the client's queue (not on the wire) ------------------------------------------------------------

  /** Puts a message in the session's queue; it is sent when the session's turn ends (the service drains it). */
  enqueue(sessionId: string, item: QueuedPrompt): void {
    this.clientChange(sessionId, (session) => session.queued.push(item));
  }

  /** Removes a queued message (the user took it back, or it is being sent); false when it is not queued. */
  unqueue(sessionId: string, id: string): QueuedPrompt | undefined {
    let taken: QueuedPrompt | undefined;
    this.clientChange(sessionId, (session) => {
      const at = session.queued.findIndex((item) => item.id === id);
      if (at >= 0) taken = session.queued.splice(at, 1)[0];
    });
    return taken;
  }

  private clientChange(sessionId: string, change: (session: SessionRecord) => void): void {
    const session = this.recordOf(sessionId);
    if (!session) return;
    this.core.begin(undefined, undefined);
    change(session);
    this.core.touch(session);
    this.core.flush();
  }

  /** What a client may do to one tool call or agent terminal of a session (v2 per-item cancel); without an item, to its items at all. */
  itemActionsFor(sessionId: string, item?: SessionItem): { readonly cancel: ActionPermission } {
    const session = this.recordOf(sessionId);
    return { cancel: item ? itemCancelOf(session, item, this.connected, this.protocolVersion) : itemCancelGate(session, this.connected, this.protocolVersion) };
  }

  onDidChange(listener: (changes: readonly StoreChange[]) => void): Disposable {
    return this.core.onDidChange(listener);
  }

  /** Which session a `session/update` with these params would go to now (the resolver's decision; nothing changes). */
  ownerOfUpdate(params: JsonObject): UpdateOwner | undefined {
    const sessionId = asString(params['sessionId']);
    const update = params['update'];
    if (!sessionId || !isObject(update)) return undefined;
    const wire = this.core.session(sessionId) ?? { id: sessionId, origin: 'root' as const };
    return resolveUpdateOwner(wire, update, this.owners);
  }

  /** The record itself, for the store's own reducers (readers get read-only views). */
  private recordOf(sessionId: string): SessionRecord | undefined {
    return this.core.session(this.tree.currentId(sessionId));
  }

  // ---- writer -------------------------------------------------------------------------------------------

  ingest(message: unknown, direction: Direction, line?: number, at?: number): void {
    this.core.begin(line, at);
    try {
      this.dispatch(message, direction);
      this.bounds.enforce();
    } catch (error) {
      this.core.diagnose('invalid-message', `could not apply message: ${(error as Error).message}`);
    }
    this.core.flush();
  }

  /** Reads one transcript line (bare JSON-RPC or a {dir, msg} wrapper); bad lines become diagnostics. */
  ingestLine(text: string, line: number): void {
    let parsed;
    try {
      parsed = parseTranscriptLine(text);
    } catch (error) {
      this.core.line = line;
      this.core.diagnose('malformed-line', (error as Error).message);
      return;
    }
    if (!parsed) return;
    if (parsed.unrecordable) {
      this.core.line = line;
      const { reason, bytes } = parsed.unrecordable;
      this.core.diagnose('unrecorded-message', `a message${parsed.direction ? ` (${parsed.direction})` : ''} could not be recorded: ${reason.slice(0, 200)} (at least ${bytes.toLocaleString('en-US')} bytes)`);
      return;
    }
    const direction = parsed.direction ?? this.inferDirection(parsed.message);
    this.ingest(parsed.message, direction, line, parsed.at);
  }

  /** Something the client knows and the agent did not say (e.g. a cancel it has not acted on), shown in the chat. */
  noteClientFact(sessionId: string, title: string, description: string): void {
    const session = this.recordOf(sessionId);
    if (!session) return;
    this.core.begin(undefined, undefined);
    addNotice(this.parts, session, 'warning', title, description);
    this.core.flush();
  }

  markDisconnected(): void {
    if (!this.connected) return;
    this.core.begin(undefined, undefined);
    this.connected = false;
    for (const session of this.core.sessions.values()) {
      if (session.state.state !== 'idle' && session.state.state !== 'disconnected') {
        this.core.setState(session, { state: 'disconnected', lastKnown: session.state }, 'client');
      } else {
        this.core.touch(session);
      }
      failAllUserRequests(this.parts, session);
      abandonSteers(this.parts, session);
    }
    this.ledger.clear();
    this.core.flush();
  }

  /** History that lost its oldest part: each root's chat starts with a notice that says so (and what stayed). */
  markHistoryCut(title: string, description: string): void {
    this.core.begin(undefined, undefined);
    for (const session of this.core.sessions.values()) {
      if (session.parentId !== null) continue;
      const entry: Entry = { kind: 'notice', id: this.core.nextEntryId('notice'), rev: this.core.rev, at: this.core.at, severity: 'warning', title, description };
      session.entries.unshift(entry);
      this.core.touchEntry(session, entry);
    }
    this.core.flush();
  }

  // ---- dispatch -----------------------------------------------------------------------------------------

  private dispatch(message: unknown, direction: Direction): void {
    const wire = classifyMessage(message);
    if ('invalid' in wire) {
      this.core.diagnose('invalid-message', wire.invalid);
      return;
    }
    switch (wire.type) {
      case 'request': {
        // An initialize starts a new connection on this wire (an agent restarted to offer another version):
        // what the earlier one left open can no longer be answered.
        if (wire.method === AgentMethod.initialize && direction === 'client->agent') this.ledger.clear();
        const request = this.ledger.open(direction, wire.id, wire.method, wire.params, this.core.line);
        if (!request) {
          this.core.diagnose('invalid-message', `${wire.method} reuses request id ${JSON.stringify(wire.id)} while that request is still open; ignored`);
          return;
        }
        if (direction === 'client->agent') this.onClientRequest(request, wire.id);
        else this.onAgentRequest(request, wire.id);
        return;
      }
      case 'notification':
        if (direction === 'agent->client') this.onAgentNotification(wire.method, wire.params);
        else if (wire.method === AgentMethod.sessionCancel) this.onClientCancel(wire.params);
        return;
      case 'response': {
        const request = this.ledger.settle(direction, wire.id);
        if (!request) {
          this.core.diagnose('unmatched-response', `response to unknown request id ${JSON.stringify(wire.id)}`);
          return;
        }
        if (wire.error) this.onErrorResponse(request, wire.error, direction);
        else if (direction === 'agent->client') this.onAgentResult(request, wire.result);
        else applyClientResult(this.parts, request, isObject(wire.result) ? wire.result : {});
        return;
      }
    }
  }

  private inferDirection(message: unknown): Direction {
    const wire = classifyMessage(message);
    if ('invalid' in wire) return 'agent->client';
    return wire.type === 'response' ? this.ledger.responderOf(wire.id) : directionOfMethod(wire.method);
  }

  private onClientRequest(request: PendingRequest, id: string | number): void {
    const sessionId = asString(request.params['sessionId']);
    if (!sessionId) return;
    switch (request.method) {
      case AgentMethod.sessionPrompt:
        startPrompt(this.parts, this.tree.ensureSession(this.tree.currentId(sessionId)), requestKey('client->agent', id), Array.isArray(request.params['prompt']) ? request.params['prompt'] : []);
        return;
      case STEER_METHOD:
        startSteer(this.parts, this.tree.ensureSession(this.tree.currentId(sessionId)), requestKey('client->agent', id), Array.isArray(request.params['prompt']) ? request.params['prompt'] : []);
        return;
      case AgentMethod.sessionLoad:
      case AgentMethod.sessionResume: {
        this.adoptLoadedChild(sessionId);
        const session = this.tree.ensureRoot(sessionId, asString(request.params['cwd']) ?? null);
        // v2 replays history on session/resume when asked to (`replayFrom`).
        if (request.method === AgentMethod.sessionLoad || isObject(request.params['replayFrom'])) this.parts.replaying.add(session.id);
        return;
      }
      default:
        return;
    }
  }

  /**
   * opencode names a subagent's own session only when its task completes; loading that id replays the child
   * under its own id. The loaded session becomes that subagent's row, in the virtual child's place.
   */
  private adoptLoadedChild(sessionId: string): void {
    if (this.core.sessions.has(sessionId)) return;
    const placeholder = this.tree.sessionByRemoteId(sessionId);
    if (!placeholder) return;
    if (placeholder.origin === 'virtual') this.tree.replaceVirtualChild(placeholder, sessionId);
    else this.tree.adoptChild(placeholder.id, this.tree.ensureSession(sessionId).id, placeholder.link);
  }

  private onClientCancel(params: JsonObject): void {
    const sessionId = asString(params['sessionId']);
    const session = sessionId ? this.recordOf(sessionId) : undefined;
    if (session) noteCancelRequested(this.parts, session.id);
  }

  private onAgentRequest(request: PendingRequest, id: string | number): void {
    const sessionId = asString(request.params['sessionId']);
    if (this.dialects.message('requests', request.method, request.params)) return;
    if (!KNOWN_AGENT_METHODS.has(request.method)) {
      this.noteUnknownMethod('request', request.method);
      return;
    }
    if (!sessionId) return;
    const wire = this.tree.ensureSession(sessionId);
    wire.hadTraffic = true;
    if (request.method === ClientMethod.sessionRequestPermission) openPermission(this.parts, wire, request, id, request.params);
    else if (request.method === ClientMethod.elicitationCreate) openElicitation(this.parts, wire, request, id, request.params);
    else request.sessionId = wire.id;
  }

  private onAgentNotification(method: string, params: JsonObject): void {
    if (method === ClientMethod.sessionUpdate) {
      this.applySessionUpdate(params);
      return;
    }
    if (this.dialects.message('notifications', method, params)) return;
    if (!KNOWN_AGENT_METHODS.has(method)) this.noteUnknownMethod('notification', method);
  }

  /** Extension methods (`_…`) are the agent's business; anything else unknown is said once per method. */
  private noteUnknownMethod(kind: 'request' | 'notification', method: string): void {
    if (method.startsWith('_') || this.reportedUnknownMethods.has(method)) return;
    this.reportedUnknownMethods.add(method);
    this.core.diagnose('unknown-method', `agent sent unknown ${kind} ${method} (ignored; further ones are not reported)`);
  }

  private onErrorResponse(request: PendingRequest, error: JsonObject, responder: Direction): void {
    const message = asString(error['message']) ?? t('unknown error');
    if (responder === 'agent->client') this.core.diagnose('agent-error', `${request.method} failed: ${message}`);
    const session = this.core.session(asString(request.params['sessionId']) ?? '');
    if (request.method === AgentMethod.sessionPrompt && session) {
      forgetPrompt(this.core, session, request.key);
      endPrompt(this.parts, session, request.key, 'error', message);
    }
    if (request.method === STEER_METHOD && session) settleSteer(this.parts, session, request.key, { error: message });
    failUserRequest(this.parts, request);
    if ((request.method === AgentMethod.sessionLoad || request.method === AgentMethod.sessionResume) && session) this.parts.replaying.delete(session.id);
  }

  /** Results of requests the client sent. */
  private onAgentResult(request: PendingRequest, result: unknown): void {
    const body = isObject(result) ? result : {};
    const params = request.params;
    if (this.dialects.result(request.method, params, body)) return;
    if (request.method === AgentMethod.initialize) {
      // One connection speaks exactly the version the agent answers; v2 renamed agentCapabilities.
      this.parts.protocol.version = body['protocolVersion'] === 2 ? 2 : 1;
      const capabilities = this.parts.protocol.version === 2 ? body['capabilities'] : body['agentCapabilities'];
      this.agentCapabilities = isObject(capabilities) ? capabilities : {};
      this.steeringAdvertised = advertisesSteering(body, this.agentCapabilities, this.parts.protocol.version);
      this.dialects.initialized(this.agentCapabilities);
      return;
    }
    if (request.method === AgentMethod.sessionNew) {
      const sessionId = asString(body['sessionId']);
      if (sessionId) applySessionSetup(this.parts, this.tree.ensureRoot(sessionId, asString(params['cwd']) ?? null), body);
      return;
    }
    const session = this.recordOf(asString(params['sessionId']) ?? '');
    if (!session) return;
    switch (request.method) {
      case AgentMethod.sessionLoad:
      case AgentMethod.sessionResume:
        this.parts.replaying.delete(session.id);
        applySessionSetup(this.parts, session, body);
        return;
      case AgentMethod.sessionPrompt:
        // v2 answers with an acknowledgement ({messageId}); the turn ends with the session's idle state_update.
        if (session.activePromptId === request.key) session.promptUnanswered = false;
        if (this.parts.protocol.version === 2) acknowledgePrompt(this.core, session, request.key, asString(body['messageId']) ?? '');
        else {
          noteUsage(this.parts, session, readTurnUsage(body, 'prompt-result'));
          endPrompt(this.parts, session, request.key, asString(body['stopReason']) ?? 'end_turn');
        }
        return;
      case AgentMethod.sessionSetMode:
        // The agent accepted the mode: it is the current one now (agents need not echo current_mode_update).
        applyCurrentMode(this.parts, session, params['modeId']);
        return;
      case AgentMethod.sessionSetConfigOption:
        applyConfigOptions(this.parts, session, body['configOptions']);
        return;
      case AgentMethod.sessionClose:
        session.closed = true;
        this.core.touch(session);
        return;
      case STEER_METHOD:
        settleSteer(this.parts, session, request.key, { result: body });
        return;
      default:
        return;
    }
  }

  // ---- session/update -----------------------------------------------------------------------------------

  private applySessionUpdate(params: JsonObject): void {
    const sessionId = asString(params['sessionId']);
    const update = params['update'];
    if (!sessionId) {
      this.core.diagnose('missing-session', 'session/update without a sessionId');
      return;
    }
    if (!isObject(update) || typeof update['sessionUpdate'] !== 'string') {
      this.core.diagnose('invalid-message', 'session/update without an update.sessionUpdate');
      return;
    }
    const kind = update['sessionUpdate'];
    const wire = this.tree.ensureSession(sessionId);
    adoptAgentPoolChild(this.parts, wire, params);
    this.dialects.notice(update);
    if (this.dialects.rewrite(wire, update)) return;
    const announcement = Object.hasOwn(SUBAGENT_ANNOUNCEMENTS, kind) ? SUBAGENT_ANNOUNCEMENTS[kind] : undefined;
    if (announcement) {
      applySubagentUpdate(this.parts, wire, update, announcement);
      return;
    }
    this.applyOwnedUpdate(wire, this.ownerOf(wire, update, kind), kind, update);
  }

  /** An ordinary update that arrived on this wire session id, to whichever session owns it (dialect readers). */
  private readonly applyOnWire: UpdateSink = (wireSessionId, update) => {
    this.dialects.notice(update);
    const wire = this.tree.ensureSession(wireSessionId);
    const kind = String(update['sessionUpdate']);
    this.applyOwnedUpdate(wire, this.ownerOf(wire, update, kind), kind, update);
  };

  /** A dialect's update whose owner it knows (opencode's child stream). */
  private readonly applyDialectOwned: OwnedUpdateSink = (wire, target, update) => {
    this.dialects.notice(update);
    this.applyOwnedUpdate(wire, target, String(update['sessionUpdate']), update);
  };

  /** An update on `wire` that belongs to `target` (the wire session itself, or a child on its wire). */
  private applyOwnedUpdate(wire: SessionRecord, target: SessionRecord, kind: string, update: JsonObject): void {
    target.hadTraffic = true;
    wire.hadTraffic = true;
    target.promptUnanswered = false;
    wire.promptUnanswered = false;
    if (target.parentId !== null) notePassedOn(this.parts, target, kind);
    if (target.parentToolCallId !== null) noteChildActivity(this.parts, target, kind, update);
    noteAgentStartedWork(this.parts, target, kind, update);
    const reducer = Object.hasOwn(UPDATE_REDUCERS, kind) ? UPDATE_REDUCERS[kind] : undefined;
    if (reducer) {
      reducer(this.parts, target, update, wire);
      this.dialects.afterUpdate(target, update);
      return;
    }
    if (!this.reportedUnknownUpdates.has(kind)) {
      this.reportedUnknownUpdates.add(kind);
      this.core.diagnose('unknown-update', `unknown session update "${kind}" (kept in the transcript, not shown)`);
    }
  }

  private ownerOf(wire: SessionRecord, update: JsonObject, kind: string): SessionRecord {
    const owner = resolveUpdateOwner(wire, update, this.owners);
    const known = this.dialects.ownerOf(wire, update, kind, owner);
    if (known) return known;
    if (owner.kind === 'session') return this.core.session(owner.sessionId) ?? wire;
    if (owner.unknownParentCall) {
      this.core.diagnose('unknown-tool-call', `update names parent tool call ${owner.toolCallId}, which was never announced on ${wire.id}`);
    }
    return ensureVirtualChild(this.parts, owner.parentId, owner.toolCallId, owner.link, owner.subagentType);
  }
}
