// The client session store: takes every JSON-RPC message on one agent connection, in wire order and in both
// directions, and maintains sessions, their parent/child tree and their transcripts. It never throws on input:
// anything it cannot use becomes a diagnostic with the line it came from.
import type {
  ChildEntry,
  ContentBlock,
  Diagnostic,
  DiagnosticCode,
  Direction,
  ElicitationEntry,
  Entry,
  MessageEntry,
  PermissionEntry,
  PermissionOption,
  PlanEntry,
  PlanEntryItem,
  SessionActions,
  SessionLink,
  SessionMessageEntry,
  SessionRecord,
  SessionStateInfo,
  StateSource,
  StoreChange,
  ToolCallEntry,
  ToolCallRecord,
} from './model';
import type { Disposable, SessionStoreReader, SessionStoreWriter } from './storeApi';
import {
  agentPoolParentOf,
  detectSubagentToolCall,
  isProgressCopy,
  parentMarkerOf,
  remoteChildSessionId,
  type SubagentSpawn,
} from './subagentDialects';
import { reattachMethod } from './agentCapabilities';
import { newSessionRecord } from './sessionRecord';
import { actionsOf, isToolCallOpen, readReportedState, sameState, stateFromToolStatus, UNCONFIRMED } from './sessionState';
import { asString, classifyMessage, directionOfMethod, isObject, parseTranscriptLine, type JsonObject } from './wireMessage';

export interface SessionStoreOptions {
  readonly now?: () => number;
  readonly maxDiagnostics?: number;
  readonly maxStateHistory?: number;
}

interface SessionIndex {
  readonly messages: Map<string, MessageEntry>;
  readonly sessionMessages: Map<string, SessionMessageEntry>;
  readonly toolEntries: Map<string, ToolCallEntry>;
  plan?: PlanEntryItem;
  last?: Entry;
}

interface PendingRequest {
  readonly method: string;
  readonly params: JsonObject;
  readonly line: number;
  /** The session the request was attributed to (after dialect routing). */
  sessionId?: string;
  entry?: PermissionEntry | ElicitationEntry;
}

const KNOWN_AGENT_METHODS = new Set([
  'session/update',
  'session/request_permission',
  'fs/read_text_file',
  'fs/write_text_file',
  'terminal/create',
  'terminal/output',
  'terminal/wait_for_exit',
  'terminal/kill',
  'terminal/release',
  'elicitation/create',
  'elicitation/complete',
  '$/cancel_request',
]);

// Updates that are part of ACP but carry nothing the store shows.
const QUIET_UPDATES = new Set(['compaction_summary_chunk', 'plan_removed', 'tool_call_content_chunk', 'terminal_update', 'terminal_output_chunk']);

export class SessionStore implements SessionStoreReader, SessionStoreWriter {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly indexes = new Map<string, SessionIndex>();
  private readonly rootIds: string[] = [];
  private readonly loading = new Set<string>();
  private readonly pending = new Map<string, PendingRequest>();
  /** (wire session id, toolCallId) → the session that owns the tool call (a virtual child may own it). */
  private readonly toolOwners = new Map<string, string>();
  /** toolCallId → owning session, for dialects that name a parent tool call from another session id. */
  private readonly toolOwnerById = new Map<string, string[]>();
  private readonly reportedAmbiguous = new Set<string>();
  private readonly listeners = new Set<(changes: readonly StoreChange[]) => void>();
  private readonly reportedUnknownUpdates = new Set<string>();
  private readonly diagnosticList: Diagnostic[] = [];
  private changes: StoreChange[] = [];
  private entryCounter = 0;
  private connected = true;
  /** From the agent's initialize response (live or replayed). */
  agentCapabilities: JsonObject = {};
  private rev = 0;
  private sequence = 0;
  private line = 0;
  private at = 0;
  private readonly now: () => number;
  private readonly maxDiagnostics: number;
  private readonly maxStateHistory: number;

  constructor(options: SessionStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxDiagnostics = options.maxDiagnostics ?? 1000;
    this.maxStateHistory = options.maxStateHistory ?? 50;
  }

  // ---- reader -------------------------------------------------------------------------------------------

  get revision(): number {
    return this.rev;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.diagnosticList;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** Number of sessions known, reachable or not (the tree invariants say they all are). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Whether the agent can reattach to a root session later (session/load or session/resume). */
  get canReconnect(): boolean {
    return reattachMethod(this.agentCapabilities) !== undefined;
  }

  getSession(sessionId: string): SessionRecord | undefined {
    return this.sessions.get(sessionId);
  }

  listSessions(): SessionRecord[] {
    return this.preOrder(this.rootIds);
  }

  /** The session and all its descendants, pre-order. */
  subtree(sessionId: string): SessionRecord[] {
    return this.preOrder([sessionId]);
  }

  private preOrder(startIds: readonly string[]): SessionRecord[] {
    const out: SessionRecord[] = [];
    const visit = (id: string): void => {
      const session = this.sessions.get(id);
      if (!session) return;
      out.push(session);
      for (const child of session.childIds) visit(child);
    };
    for (const id of startIds) visit(id);
    return out;
  }

  /** The session's own cwd, or (while unset) the nearest ancestor's: what its terminals and relative paths use. */
  effectiveCwd(sessionId: string): string | null {
    const seen = new Set<string>();
    for (let session = this.sessions.get(sessionId); session && !seen.has(session.id); session = session.parentId ? this.sessions.get(session.parentId) : undefined) {
      if (session.cwd) return session.cwd;
      seen.add(session.id);
    }
    return null;
  }

  /** The session an agent's open request (by JSON-RPC id) was attributed to, after dialect routing. */
  sessionOfAgentRequest(requestId: string | number): SessionRecord | undefined {
    const sessionId = this.pending.get(pendingKey('agent->client', requestId))?.sessionId;
    return sessionId ? this.sessions.get(sessionId) : undefined;
  }

  rootOf(sessionId: string): SessionRecord | undefined {
    let session = this.sessions.get(sessionId);
    while (session?.parentId) session = this.sessions.get(session.parentId);
    return session;
  }

  actionsFor(sessionId: string): SessionActions {
    const session = this.sessions.get(sessionId);
    if (!session) {
      const reason = 'Unknown session.';
      return { cancel: { allowed: false, reason }, prompt: { allowed: false, reason }, close: { allowed: false, reason } };
    }
    return actionsOf(session, this.connected);
  }

  onDidChange(listener: (changes: readonly StoreChange[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  // ---- writer -------------------------------------------------------------------------------------------

  ingest(message: unknown, direction: Direction, line?: number, at?: number): void {
    this.rev++;
    this.sequence++;
    this.line = line ?? this.sequence;
    this.at = at ?? this.now();
    try {
      this.dispatch(message, direction);
    } catch (error) {
      this.diagnose('invalid-message', `could not apply message: ${(error as Error).message}`);
    }
    this.flush();
  }

  /** Reads one transcript line (bare JSON-RPC or a {dir, msg} wrapper); bad lines become diagnostics. */
  ingestLine(text: string, line: number): void {
    let parsed;
    try {
      parsed = parseTranscriptLine(text);
    } catch (error) {
      this.line = line;
      this.diagnose('malformed-line', (error as Error).message);
      return;
    }
    if (!parsed) return;
    const direction = parsed.direction ?? this.inferDirection(parsed.message);
    this.ingest(parsed.message, direction, line, parsed.at);
  }

  markDisconnected(): void {
    if (!this.connected) return;
    this.rev++;
    this.connected = false;
    for (const session of this.sessions.values()) {
      if (session.state.state !== 'idle' && session.state.state !== 'disconnected') {
        this.setState(session, { state: 'disconnected', lastKnown: session.state });
      } else {
        this.touch(session);
      }
      if (session.awaitingUser > 0) {
        for (const entry of session.entries) {
          if ((entry.kind === 'permission' || entry.kind === 'elicitation') && entry.outcome === 'pending') {
            entry.outcome = 'failed';
            this.touchEntry(session, entry);
          }
        }
        session.awaitingUser = 0;
      }
    }
    this.pending.clear();
    this.flush();
  }

  // ---- dispatch -----------------------------------------------------------------------------------------

  private dispatch(message: unknown, direction: Direction): void {
    const wire = classifyMessage(message);
    if ('invalid' in wire) {
      this.diagnose('invalid-message', wire.invalid);
      return;
    }
    switch (wire.type) {
      case 'request': {
        const key = pendingKey(direction, wire.id);
        if (this.pending.has(key)) {
          this.diagnose('invalid-message', `${wire.method} reuses request id ${JSON.stringify(wire.id)} while that request is still open; ignored`);
          return;
        }
        this.pending.set(key, { method: wire.method, params: wire.params, line: this.line });
        if (direction === 'client->agent') this.onClientRequest(wire.id, wire.method, wire.params);
        else this.onAgentRequest(wire.id, wire.method, wire.params);
        return;
      }
      case 'notification':
        if (direction === 'agent->client') this.onAgentNotification(wire.method, wire.params);
        return;
      case 'response': {
        const requester: Direction = direction === 'agent->client' ? 'client->agent' : 'agent->client';
        const key = pendingKey(requester, wire.id);
        const request = this.pending.get(key);
        if (!request) {
          this.diagnose('unmatched-response', `response to unknown request id ${JSON.stringify(wire.id)}`);
          return;
        }
        this.pending.delete(key);
        if (wire.error) this.onErrorResponse(key, request, wire.error, direction);
        else if (requester === 'client->agent') this.onAgentResult(key, request, wire.result);
        else this.onClientResult(request, wire.result);
        return;
      }
    }
  }

  private inferDirection(message: unknown): Direction {
    const wire = classifyMessage(message);
    if ('invalid' in wire) return 'agent->client';
    if (wire.type !== 'response') return directionOfMethod(wire.method);
    const toClient = this.pending.get(pendingKey('client->agent', wire.id));
    const toAgent = this.pending.get(pendingKey('agent->client', wire.id));
    if (toClient && toAgent) return toClient.line >= toAgent.line ? 'agent->client' : 'client->agent';
    return toAgent ? 'client->agent' : 'agent->client';
  }

  private onClientRequest(id: string | number, method: string, params: JsonObject): void {
    const sessionId = asString(params['sessionId']);
    switch (method) {
      case 'session/prompt': {
        if (!sessionId) return;
        const session = this.ensureSession(sessionId);
        this.addUserPrompt(session, Array.isArray(params['prompt']) ? params['prompt'] : []);
        session.activePromptId = pendingKey('client->agent', id);
        if (session.origin !== 'announced') this.setState(session, { state: 'running' });
        return;
      }
      case 'session/load':
      case 'session/resume': {
        if (!sessionId) return;
        const placeholder = this.sessionByRemoteId(sessionId);
        if (placeholder && !this.sessions.has(sessionId)) {
          // opencode: the subagent's own session, named at completion, loaded to read its transcript.
          this.adoptChild(placeholder.id, this.ensureSession(sessionId).id, placeholder.link);
        }
        const session = this.ensureRoot(sessionId, asString(params['cwd']) ?? null);
        if (method === 'session/load') this.loading.add(session.id);
        return;
      }
      default:
        return;
    }
  }

  private onAgentRequest(id: string | number, method: string, params: JsonObject): void {
    const request = this.pending.get(pendingKey('agent->client', id));
    const sessionId = asString(params['sessionId']);
    if (!KNOWN_AGENT_METHODS.has(method)) {
      if (!method.startsWith('_')) this.diagnose('unknown-method', `agent sent unknown request ${method}`);
      return;
    }
    if (!sessionId || !request) return;
    const wire = this.ensureSession(sessionId);
    wire.hadTraffic = true;
    if (method === 'session/request_permission') {
      const toolCall = isObject(params['toolCall']) ? params['toolCall'] : {};
      const target = this.routeRequest(wire, toolCall);
      const toolCallId = asString(toolCall['toolCallId']);
      if (toolCallId && target.toolCalls[toolCallId]) this.applyToolCall(wire, target, toolCall, 'tool_call_update');
      const entry: PermissionEntry = {
        kind: 'permission',
        id: this.nextEntryId('perm'),
        rev: this.rev,
        at: this.at,
        requestId: String(id),
        ...(toolCallId ? { toolCallId } : {}),
        title: asString(toolCall['title']) ?? (toolCallId ? target.toolCalls[toolCallId]?.title : undefined) ?? 'Permission requested',
        options: readOptions(params['options']),
        outcome: 'pending',
      };
      this.trackUserRequest(target, request, entry);
      if (target.origin !== 'announced') this.setState(target, { state: 'requires_action' });
    } else if (method === 'elicitation/create') {
      const entry: ElicitationEntry = {
        kind: 'elicitation',
        id: this.nextEntryId('elicit'),
        rev: this.rev,
        at: this.at,
        requestId: String(id),
        message: asString(params['message']) ?? '',
        mode: asString(params['mode']) ?? 'form',
        outcome: 'pending',
      };
      this.trackUserRequest(wire, request, entry);
    } else {
      request.sessionId = wire.id;
    }
  }

  private onAgentNotification(method: string, params: JsonObject): void {
    if (method === 'session/update') {
      this.applySessionUpdate(params);
      return;
    }
    if (!KNOWN_AGENT_METHODS.has(method) && !method.startsWith('_')) {
      this.diagnose('unknown-method', `agent sent unknown notification ${method}`);
    }
  }

  private onErrorResponse(key: string, request: PendingRequest, error: JsonObject, responder: Direction): void {
    const message = asString(error['message']) ?? 'unknown error';
    if (responder === 'agent->client') this.diagnose('agent-error', `${request.method} failed: ${message}`);
    if (request.method === 'session/prompt') {
      const session = this.sessions.get(asString(request.params['sessionId']) ?? '');
      if (session) this.endTurn(session, key, 'error', message);
    }
    if (request.entry && request.entry.outcome === 'pending') {
      request.entry.outcome = 'failed';
      this.settleUserRequest(request.sessionId);
      this.touchEntryById(request.sessionId, request.entry);
      const session = request.sessionId ? this.sessions.get(request.sessionId) : undefined;
      if (session) this.leaveRequiresAction(session);
    }
    if (request.method === 'session/load') this.loading.delete(asString(request.params['sessionId']) ?? '');
  }

  /** Results of requests the client sent. */
  private onAgentResult(key: string, request: PendingRequest, result: unknown): void {
    const body = isObject(result) ? result : {};
    const params = request.params;
    switch (request.method) {
      case 'initialize':
        this.agentCapabilities = isObject(body['agentCapabilities']) ? body['agentCapabilities'] : {};
        return;
      case 'session/new': {
        const sessionId = asString(body['sessionId']);
        if (!sessionId) return;
        const session = this.ensureRoot(sessionId, asString(params['cwd']) ?? null);
        this.applySessionSetup(session, body);
        return;
      }
      case 'session/load':
      case 'session/resume': {
        const session = this.sessions.get(asString(params['sessionId']) ?? '');
        if (!session) return;
        this.loading.delete(session.id);
        this.applySessionSetup(session, body);
        return;
      }
      case 'session/prompt': {
        const session = this.sessions.get(asString(params['sessionId']) ?? '');
        if (session) this.endTurn(session, key, asString(body['stopReason']) ?? 'end_turn');
        return;
      }
      default:
        return;
    }
  }

  /** Results of requests the agent sent (answered by the client). */
  private onClientResult(request: PendingRequest, result: unknown): void {
    const body = isObject(result) ? result : {};
    const session = request.sessionId ? this.sessions.get(request.sessionId) : undefined;
    if (!session) return;
    const entry = request.entry;
    if (entry && entry.outcome === 'pending') this.settleUserRequest(session.id);
    if (entry?.kind === 'permission') {
      const outcome = isObject(body['outcome']) ? body['outcome'] : {};
      if (outcome['outcome'] === 'selected') {
        entry.outcome = 'selected';
        const optionId = asString(outcome['optionId']);
        if (optionId) entry.optionId = optionId;
      } else entry.outcome = 'cancelled';
      this.touchEntry(session, entry);
      this.leaveRequiresAction(session);
      return;
    }
    if (entry?.kind === 'elicitation') {
      const action = asString(body['action']);
      entry.outcome = action === 'accept' || action === 'decline' ? action : 'cancel';
      this.touchEntry(session, entry);
      return;
    }
    this.applyTerminalResult(session, request, body);
  }

  private applyTerminalResult(session: SessionRecord, request: PendingRequest, body: JsonObject): void {
    const terminalId = asString(body['terminalId']) ?? asString(request.params['terminalId']);
    if (!terminalId) return;
    if (request.method === 'terminal/create') {
      session.terminals[terminalId] = {
        terminalId,
        command: asString(request.params['command']) ?? '',
        args: Array.isArray(request.params['args']) ? request.params['args'].filter((a): a is string => typeof a === 'string') : [],
        output: '',
        truncated: false,
        exitStatus: null,
      };
    } else {
      const terminal = session.terminals[terminalId];
      if (!terminal) return;
      if (request.method === 'terminal/output') {
        if (typeof body['output'] === 'string') terminal.output = body['output'];
        terminal.truncated = body['truncated'] === true;
        if (isObject(body['exitStatus'])) terminal.exitStatus = body['exitStatus'];
      } else if (request.method === 'terminal/wait_for_exit') {
        terminal.exitStatus = body;
      } else return;
    }
    this.touch(session);
  }

  // ---- session/update -----------------------------------------------------------------------------------

  private applySessionUpdate(params: JsonObject): void {
    const sessionId = asString(params['sessionId']);
    const update = params['update'];
    if (!sessionId) {
      this.diagnose('missing-session', 'session/update without a sessionId');
      return;
    }
    if (!isObject(update) || typeof update['sessionUpdate'] !== 'string') {
      this.diagnose('invalid-message', 'session/update without an update.sessionUpdate');
      return;
    }
    const kind = update['sessionUpdate'];
    const wire = this.ensureSession(sessionId);
    const agentPool = agentPoolParentOf(params);
    if (agentPool && wire.parentId === null) {
      const owner = this.parentOwnerFor(wire.id, agentPool.parentToolCallId);
      if (owner) {
        const child = this.adoptChild(owner, wire.id, 'agentpool-meta', agentPool.parentToolCallId);
        const call = this.sessions.get(owner)?.toolCalls[agentPool.parentToolCallId];
        if (child && call && !call.childSessionId) {
          call.childSessionId = child.id;
          child.title ??= subagentTitle(call);
        }
        if (child && agentPool.subagentType && !child.subagentType) child.subagentType = agentPool.subagentType;
      }
    }
    switch (kind) {
      case 'subagent_update':
      case 'subagent_spawned':
        this.applySubagentUpdate(wire, update, kind === 'subagent_update' ? 'subagent_update' : 'subagent_spawned');
        return;
      case 'subagent_state_update':
        this.applySubagentUpdate(wire, update, 'subagent_spawned');
        return;
      default:
        break;
    }
    const target = this.routeUpdate(wire, update);
    target.hadTraffic = true;
    wire.hadTraffic = true;
    switch (kind) {
      case 'agent_message_chunk':
        this.appendChunk(target, 'agent', update);
        return;
      case 'agent_thought_chunk':
        this.appendChunk(target, 'thought', update);
        return;
      case 'user_message_chunk':
        this.appendChunk(target, 'user', update);
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.applyToolCall(wire, target, update, kind);
        return;
      case 'plan':
        this.applyPlan(target, Array.isArray(update['entries']) ? update['entries'] : []);
        return;
      case 'session_message':
      case 'session_message_chunk':
        this.applySessionMessage(target, update, kind === 'session_message_chunk');
        return;
      case 'session_info_update':
        this.applySessionInfo(target, update);
        return;
      case 'state_update': {
        const state = readReportedState(update);
        if (state) {
          target.stateReported = true;
          this.setState(target, state);
        }
        return;
      }
      case 'usage_update':
        target.usage = { used: update['used'], size: update['size'], ...(update['cost'] !== undefined ? { cost: update['cost'] } : {}) };
        this.touch(target);
        return;
      case 'current_mode_update':
        target.currentModeId = asString(update['currentModeId']) ?? target.currentModeId;
        this.touch(target);
        return;
      case 'config_option_update':
        target.configOptions = update['configOptions'];
        this.touch(target);
        return;
      case 'available_commands_update':
        target.availableCommands = update['availableCommands'];
        this.touch(target);
        return;
      case 'available_subagents_update':
        target.availableSubagents = Array.isArray(update['availableSubagents']) ? update['availableSubagents'] : [];
        this.touch(target);
        return;
      case 'notice':
        this.addEntry(target, {
          kind: 'notice',
          id: this.nextEntryId('notice'),
          rev: this.rev,
          at: this.at,
          severity: asString(update['severity']) ?? 'info',
          title: asString(update['title']) ?? '',
          ...(typeof update['description'] === 'string' ? { description: update['description'] } : {}),
        });
        return;
      case 'compaction_update':
        if (update['status'] === 'completed' || update['status'] === 'failed') {
          this.addEntry(target, {
            kind: 'notice',
            id: this.nextEntryId('notice'),
            rev: this.rev,
            at: this.at,
            severity: update['status'] === 'failed' ? 'warning' : 'info',
            title: update['status'] === 'failed' ? 'Context compaction failed' : 'Context compacted',
          });
        }
        return;
      default:
        if (QUIET_UPDATES.has(kind)) return;
        if (!this.reportedUnknownUpdates.has(kind)) {
          this.reportedUnknownUpdates.add(kind);
          this.diagnose('unknown-update', `unknown session update "${kind}" (kept in the transcript, not shown)`);
        }
    }
  }

  /** Finds the session an update belongs to when a dialect keeps child events on the parent's session id. */
  private routeUpdate(wire: SessionRecord, update: JsonObject): SessionRecord {
    const marker = parentMarkerOf(update);
    if (marker) {
      const owner = this.toolOwners.get(toolKey(wire.id, marker.parentToolCallId));
      if (owner) return this.ensureVirtualChild(owner, marker.parentToolCallId, marker.link, marker.subagentType);
      // On an announced child the marker only echoes the parent's tool id (Claude's RFD form).
      if (wire.origin === 'announced') return wire;
      this.diagnose('unknown-tool-call', `update names parent tool call ${marker.parentToolCallId}, which was never announced on ${wire.id}`);
      return this.ensureVirtualChild(wire.id, marker.parentToolCallId, marker.link, marker.subagentType);
    }
    // Updates without the marker (Claude's hook echo) stay with the session that already owns the tool call.
    const toolCallId = asString(update['toolCallId']);
    if (toolCallId) {
      const owner = this.toolOwners.get(toolKey(wire.id, toolCallId));
      if (owner) return this.sessions.get(owner) ?? wire;
    }
    return wire;
  }

  private routeRequest(wire: SessionRecord, toolCall: JsonObject): SessionRecord {
    const toolCallId = asString(toolCall['toolCallId']);
    if (toolCallId && parentMarkerOf(toolCall) === undefined) {
      const owner = this.toolOwners.get(toolKey(wire.id, toolCallId));
      if (owner) return this.sessions.get(owner) ?? wire;
    }
    return this.routeUpdate(wire, toolCall);
  }

  private appendChunk(session: SessionRecord, role: MessageEntry['role'], update: JsonObject): void {
    const block = isObject(update['content']) ? (update['content'] as ContentBlock) : undefined;
    const text = block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
    const attachment = block && block.type !== 'text' ? block : undefined;
    const messageId = asString(update['messageId']);
    const index = this.indexOf(session);
    let entry: MessageEntry | undefined;
    if (messageId) entry = index.messages.get(`${role}\0${messageId}`);
    else if (index.last?.kind === 'message' && index.last.role === role) entry = index.last;
    if (!entry) {
      if (text === '' && !attachment) return;
      entry = { kind: 'message', id: this.nextEntryId('msg'), rev: this.rev, at: this.at, role, text: '', attachments: [], ...(messageId ? { messageId } : {}) };
      if (messageId) index.messages.set(`${role}\0${messageId}`, entry);
      this.addEntry(session, entry);
    }
    entry.text += text;
    if (attachment) entry.attachments.push(attachment);
    this.touchEntry(session, entry);
  }

  private addUserPrompt(session: SessionRecord, blocks: unknown[]): void {
    const entry: MessageEntry = { kind: 'message', id: this.nextEntryId('msg'), rev: this.rev, at: this.at, role: 'user', text: '', attachments: [] };
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block['type'] === 'text' && typeof block['text'] === 'string') entry.text += block['text'];
      else entry.attachments.push(block as ContentBlock);
    }
    this.addEntry(session, entry);
  }

  private applyToolCall(wire: SessionRecord, session: SessionRecord, update: JsonObject, kind: 'tool_call' | 'tool_call_update'): void {
    const toolCallId = asString(update['toolCallId']);
    if (!toolCallId) {
      this.diagnose('invalid-message', `${kind} without a toolCallId`);
      return;
    }
    let record = session.toolCalls[toolCallId];
    if (!record) {
      if (kind === 'tool_call_update') this.diagnose('unknown-tool-call', `tool_call_update for unknown tool call ${toolCallId} (created)`);
      record = { toolCallId, title: toolCallId, kind: 'other', status: 'pending', content: [], locations: [] };
      session.toolCalls[toolCallId] = record;
      session.toolCallOrder.push(toolCallId);
      const entry: ToolCallEntry = { kind: 'toolCall', id: `tool:${toolCallId}`, rev: this.rev, at: this.at, toolCallId };
      this.indexOf(session).toolEntries.set(toolCallId, entry);
      this.addEntry(session, entry);
      this.toolOwners.set(toolKey(wire.id, toolCallId), session.id);
      const owners = this.toolOwnerById.get(toolCallId);
      if (owners) owners.push(session.id);
      else this.toolOwnerById.set(toolCallId, [session.id]);
    }
    if (typeof update['title'] === 'string') record.title = update['title'];
    if (typeof update['kind'] === 'string') record.kind = update['kind'];
    if (typeof update['status'] === 'string') record.status = update['status'];
    if (typeof update['name'] === 'string') record.name = update['name'];
    if (isProgressCopy(update)) {
      record.progress = textOfToolContent(update['content']) ?? record.progress;
    } else {
      if (Array.isArray(update['content'])) record.content = update['content'].filter(isObject) as unknown as ToolCallRecord['content'];
      if (Array.isArray(update['locations'])) record.locations = update['locations'].filter(isObject) as unknown as ToolCallRecord['locations'];
    }
    if ('rawInput' in update && !(isObject(update['rawInput']) && Object.keys(update['rawInput']).length === 0 && record.rawInput)) {
      record.rawInput = update['rawInput'];
    }
    if ('rawOutput' in update) record.rawOutput = update['rawOutput'];
    if (isObject(update['_meta'])) record.meta = { ...record.meta, ...update['_meta'] };
    const entry = this.indexOf(session).toolEntries.get(toolCallId);
    if (entry) this.touchEntry(session, entry);

    if (!record.childSessionId) {
      const spawn = detectSubagentToolCall({ ...update, rawInput: record.rawInput, title: record.title, kind: record.kind });
      if (spawn) this.spawnFromToolCall(session, record, spawn);
    }
    this.syncChildWithToolCall(record, update);
  }

  private spawnFromToolCall(session: SessionRecord, record: ToolCallRecord, spawn: SubagentSpawn): void {
    if (spawn.childSessionId) {
      const child = this.adoptChild(session.id, spawn.childSessionId, spawn.link, record.toolCallId);
      if (child) {
        record.childSessionId = child.id;
        if (spawn.subagentType && !child.subagentType) child.subagentType = spawn.subagentType;
        if (child.title === null) child.title = subagentTitle(record);
      }
      return;
    }
    this.ensureVirtualChild(session.id, record.toolCallId, spawn.link, spawn.subagentType);
  }

  /** Keeps a child reconstructed from a tool call in step with that call (title, state, remote id). */
  private syncChildWithToolCall(record: ToolCallRecord, update: JsonObject): void {
    const child = record.childSessionId ? this.sessions.get(record.childSessionId) : undefined;
    if (!child) return;
    const remote = remoteChildSessionId(update);
    if (remote && child.remoteSessionId !== remote) {
      child.remoteSessionId = remote;
      this.touch(child);
    }
    // Children known only through a tool call (virtual, or a real id named by zed/draft/AgentPool metadata that
    // never report a state of their own) follow that call's status: it is the agent's only report on them.
    const followsToolCall = child.origin === 'virtual' || (TOOL_LINKS.has(child.link) && !child.stateReported);
    if (!followsToolCall) return;
    if (child.origin !== 'virtual') {
      if (child.state.state === 'requires_action' && isToolCallOpen(record.status)) return;
      this.setState(child, stateFromToolStatus(record.status));
      return;
    }
    const title = subagentTitle(record);
    if (title && title !== child.title) {
      child.title = title;
      this.touch(child);
    }
    if (child.state.state === 'requires_action' && isToolCallOpen(record.status)) return;
    this.setState(child, stateFromToolStatus(record.status));
  }

  private ensureVirtualChild(parentId: string, toolCallId: string, link: SessionLink, subagentType?: string): SessionRecord {
    const id = `${parentId}#${toolCallId}`;
    const existing = this.sessions.get(id);
    if (existing) return existing;
    const parent = this.sessions.get(parentId);
    const record = parent?.toolCalls[toolCallId];
    const child = this.createSession(id, {
      parentId,
      parentToolCallId: toolCallId,
      link,
      origin: 'virtual',
      state: record ? stateFromToolStatus(record.status) : { state: 'running' },
    });
    child.subagentType = subagentType ?? null;
    if (record) {
      record.childSessionId = id;
      child.title = subagentTitle(record);
      const prompt = isObject(record.rawInput) ? asString(record.rawInput['prompt']) : undefined;
      if (prompt) {
        child.description = firstLine(prompt);
        this.addUserPrompt(child, [{ type: 'text', text: prompt }]);
      }
    }
    if (parent) {
      parent.childIds.push(id);
      this.touch(parent);
    }
    return child;
  }

  // ---- subagent announcements -------------------------------------------------------------------------

  private applySubagentUpdate(parent: SessionRecord, update: JsonObject, link: 'subagent_update' | 'subagent_spawned'): void {
    const childId = asString(update['sessionId']) ?? asString(update['subagentSessionId']);
    if (!childId) {
      this.diagnose('invalid-message', `${String(update['sessionUpdate'])} without a child sessionId`);
      return;
    }
    const child = this.adoptChild(parent.id, childId, link);
    if (!child) return;
    // Three-state patch: omitted keeps, null clears, a value replaces (objects and lists replace whole).
    const title = 'title' in update ? update['title'] : update['name'];
    if (title !== undefined) child.title = typeof title === 'string' ? title : null;
    const description = 'description' in update ? update['description'] : update['task'];
    if (description !== undefined) child.description = typeof description === 'string' ? description : null;
    if ('capabilities' in update) child.capabilities = isObject(update['capabilities']) ? update['capabilities'] : null;
    if ('cwd' in update) child.cwd = asString(update['cwd']) ?? null;
    if ('additionalDirectories' in update) {
      const dirs = update['additionalDirectories'];
      child.additionalDirectories = Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : null;
    }
    if ('_meta' in update) child.meta = isObject(update['_meta']) ? update['_meta'] : null;
    if (typeof update['prompt'] === 'string' && child.entries.length === 0) this.addUserPrompt(child, [{ type: 'text', text: update['prompt'] }]);
    const replaying = this.loading.has(this.rootOf(parent.id)?.id ?? '');
    if (replaying) child.controlsStale = true;
    else if (child.controlsStale && ('capabilities' in update || 'state' in update)) child.controlsStale = false;
    const state = readReportedState(update['state']);
    if (state) {
      child.stateReported = true;
      this.setState(child, state);
    }
    this.touch(child);
  }

  /**
   * Links `childId` under `parentId`, creating it if new. Refuses self-parenting, cycles and re-parenting
   * (diagnostics); adopts a session whose traffic arrived before its announcement.
   */
  private adoptChild(parentId: string, childId: string, link: SessionLink, parentToolCallId?: string): SessionRecord | undefined {
    if (childId === parentId) {
      this.diagnose('self-parent', `session ${childId} announced as its own child`);
      return undefined;
    }
    const parent = this.sessions.get(parentId);
    if (!parent) return undefined;
    const existing = this.sessions.get(childId);
    if (!existing) {
      const child = this.createSession(childId, {
        parentId,
        parentToolCallId: parentToolCallId ?? null,
        link,
        origin: 'announced',
        state: UNCONFIRMED,
      });
      this.linkUnderParent(parent, child, parentToolCallId);
      return child;
    }
    if (existing.parentId === parentId) {
      if (parentToolCallId && !existing.parentToolCallId) existing.parentToolCallId = parentToolCallId;
      return existing;
    }
    if (existing.parentId !== null || existing.openedByClient) {
      this.diagnose('reparent', `session ${childId} already belongs to ${existing.parentId ?? 'the client as a root'}; not moved under ${parentId}`);
      return undefined;
    }
    if (this.isAncestor(childId, parentId)) {
      this.diagnose('cycle', `announcing ${childId} under ${parentId} would make a cycle`);
      return undefined;
    }
    if (existing.hadTraffic) {
      this.diagnose('child-before-announcement', `traffic for ${childId} arrived before ${parentId} announced it; attached now`);
    }
    const rootIndex = this.rootIds.indexOf(childId);
    if (rootIndex >= 0) this.rootIds.splice(rootIndex, 1);
    existing.parentId = parentId;
    existing.parentToolCallId = parentToolCallId ?? null;
    existing.link = link;
    existing.origin = 'announced';
    if (!existing.stateReported) {
      // Its state as an implicit root was a placeholder; as a child it is unconfirmed or follows its tool call.
      const call = parentToolCallId ? parent.toolCalls[parentToolCallId] : undefined;
      this.setState(existing, call && TOOL_LINKS.has(link) ? stateFromToolStatus(call.status) : UNCONFIRMED);
    }
    this.linkUnderParent(parent, existing, parentToolCallId);
    return existing;
  }

  private linkUnderParent(parent: SessionRecord, child: SessionRecord, parentToolCallId: string | undefined): void {
    parent.childIds.push(child.id);
    if (!parentToolCallId) {
      const entry: ChildEntry = { kind: 'child', id: `child:${child.id}`, rev: this.rev, at: this.at, childSessionId: child.id };
      this.addEntry(parent, entry);
    }
    this.touch(parent);
    this.changed({ sessionId: child.id, kind: 'tree' });
  }

  private isAncestor(candidate: string, of: string): boolean {
    let current = this.sessions.get(of);
    const seen = new Set<string>();
    while (current && !seen.has(current.id)) {
      if (current.id === candidate) return true;
      seen.add(current.id);
      current = current.parentId ? this.sessions.get(current.parentId) : undefined;
    }
    return false;
  }

  // ---- other update kinds ----------------------------------------------------------------------------

  private applyPlan(session: SessionRecord, raw: unknown[]): void {
    const entries: PlanEntry[] = raw.filter(isObject).map((e) => ({
      content: asString(e['content']) ?? '',
      ...(typeof e['priority'] === 'string' ? { priority: e['priority'] } : {}),
      ...(typeof e['status'] === 'string' ? { status: e['status'] } : {}),
    }));
    session.plan = entries;
    const index = this.indexOf(session);
    if (index.plan) {
      index.plan.entries = entries;
      this.touchEntry(session, index.plan);
    } else {
      index.plan = { kind: 'plan', id: `plan:${session.id}`, rev: this.rev, at: this.at, entries };
      this.addEntry(session, index.plan);
    }
    this.touch(session);
  }

  private applySessionMessage(session: SessionRecord, update: JsonObject, isChunk: boolean): void {
    const messageId = asString(update['messageId']);
    if (!messageId) {
      this.diagnose('invalid-message', `${String(update['sessionUpdate'])} without a messageId`);
      return;
    }
    const index = this.indexOf(session);
    let entry = index.sessionMessages.get(messageId);
    if (!entry) {
      entry = { kind: 'sessionMessage', id: `smsg:${messageId}`, rev: this.rev, at: this.at, messageId, direction: 'unknown', text: '', attachments: [] };
      index.sessionMessages.set(messageId, entry);
      this.addEntry(session, entry);
    }
    if (isChunk) {
      const block = isObject(update['content']) ? (update['content'] as ContentBlock) : undefined;
      if (block?.type === 'text' && typeof block.text === 'string') entry.text += block.text;
      else if (block) entry.attachments.push(block);
    } else {
      for (const field of ['senderSessionId', 'recipientSessionId', 'senderMessageId', 'recipientMessageId'] as const) {
        if (!(field in update)) continue;
        const value = asString(update[field]);
        if (value) entry[field] = value;
        else delete entry[field];
      }
      if ('content' in update) {
        const blocks = Array.isArray(update['content']) ? update['content'].filter(isObject) : [];
        entry.text = blocks.map((b) => (b['type'] === 'text' && typeof b['text'] === 'string' ? b['text'] : '')).join('');
        entry.attachments = blocks.filter((b) => b['type'] !== 'text') as ContentBlock[];
      }
      entry.direction =
        entry.senderSessionId === session.id ? 'outgoing' : entry.recipientSessionId === session.id ? 'incoming' : 'unknown';
    }
    this.touchEntry(session, entry);
  }

  private applySessionInfo(session: SessionRecord, update: JsonObject): void {
    if ('title' in update) session.title = asString(update['title']) ?? null;
    const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
    const parentId = asString(update['parentSessionId']) ?? asString(meta?.['parentSessionId']);
    if (parentId && session.parentId === null && this.sessions.has(parentId)) {
      this.adoptChild(parentId, session.id, 'session-info', asString(update['parentToolCallId']) ?? asString(meta?.['parentToolCallId']));
    }
    this.touch(session);
  }

  private applySessionSetup(session: SessionRecord, body: JsonObject): void {
    if (body['modes'] !== undefined) {
      session.modes = body['modes'];
      const modes = isObject(body['modes']) ? body['modes'] : undefined;
      session.currentModeId = asString(modes?.['currentModeId']) ?? session.currentModeId;
    }
    if (body['configOptions'] !== undefined) session.configOptions = body['configOptions'];
    if (Array.isArray(body['availableSubagents'])) session.availableSubagents = body['availableSubagents'];
    this.touch(session);
  }

  /** The parent's prompt turn ended: root goes idle, and virtual children whose tool call is still open end with it. */
  private endTurn(session: SessionRecord, promptKey: string, stopReason: string, errorMessage?: string): void {
    if (session.activePromptId === promptKey) session.activePromptId = null;
    if (session.origin !== 'announced') {
      this.setState(session, { state: 'idle', stopReason, ...(errorMessage ? { error: { message: errorMessage } } : {}) });
    }
    const closeVirtual = (parent: SessionRecord): void => {
      for (const childId of parent.childIds) {
        const child = this.sessions.get(childId);
        if (!child || child.origin !== 'virtual') continue;
        const call = child.parentToolCallId ? parent.toolCalls[child.parentToolCallId] : undefined;
        if (!call || isToolCallOpen(call.status)) this.setState(child, { state: 'idle', stopReason });
        closeVirtual(child);
      }
    };
    closeVirtual(session);
  }

  /** The client set requires_action itself (roots, virtual children): it ends when nothing waits any more. */
  private leaveRequiresAction(session: SessionRecord): void {
    if (session.origin !== 'announced' && session.state.state === 'requires_action' && session.awaitingUser === 0) {
      this.setState(session, { state: 'running' });
    }
  }

  /** A permission or elicitation now waits for the user in this session's transcript. */
  private trackUserRequest(session: SessionRecord, request: PendingRequest, entry: PermissionEntry | ElicitationEntry): void {
    this.addEntry(session, entry);
    request.sessionId = session.id;
    request.entry = entry;
    session.awaitingUser++;
    this.touch(session);
  }

  private settleUserRequest(sessionId: string | undefined): void {
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (session && session.awaitingUser > 0) {
      session.awaitingUser--;
      this.touch(session);
    }
  }

  // ---- records ------------------------------------------------------------------------------------------

  /**
   * The session owning the parent tool call a child names by bare id (AgentPool). Tool call ids are only
   * unique per session: with several owners, the one whose call is still open wins; otherwise none does.
   */
  private parentOwnerFor(childId: string, toolCallId: string): string | undefined {
    const owners = (this.toolOwnerById.get(toolCallId) ?? []).filter((id) => id !== childId);
    if (owners.length <= 1) return owners[0];
    const open = owners.filter((id) => {
      const call = this.sessions.get(id)?.toolCalls[toolCallId];
      return call !== undefined && isToolCallOpen(call.status);
    });
    if (open.length === 1) return open[0];
    if (!this.reportedAmbiguous.has(childId)) {
      this.reportedAmbiguous.add(childId);
      this.diagnose('ambiguous-parent', `${childId} names parent tool call ${toolCallId}, which ${owners.length} sessions have; not attached`);
    }
    return undefined;
  }

  private sessionByRemoteId(remoteId: string): SessionRecord | undefined {
    for (const session of this.sessions.values()) if (session.remoteSessionId === remoteId) return session;
    return undefined;
  }

  private ensureSession(sessionId: string): SessionRecord {
    // First seen through traffic: nobody told us its state yet.
    return this.sessions.get(sessionId) ?? this.createSession(sessionId, { parentId: null, parentToolCallId: null, link: 'root', origin: 'root', state: UNCONFIRMED });
  }

  private ensureRoot(sessionId: string, cwd: string | null): SessionRecord {
    const known = this.sessions.has(sessionId);
    const session = this.ensureSession(sessionId);
    // A session the client created or attached to is idle until a prompt runs (ACP: new sessions are idle).
    if (!known) this.setState(session, { state: 'idle' });
    if (session.parentId === null && !session.openedByClient) {
      session.openedByClient = true;
      this.touch(session);
    }
    if (cwd && !session.cwd) session.cwd = cwd;
    return session;
  }

  private createSession(
    id: string,
    init: Pick<SessionRecord, 'parentId' | 'parentToolCallId' | 'link' | 'origin' | 'state'>,
  ): SessionRecord {
    const session = newSessionRecord({ id, ordinal: this.sessions.size + 1, ...init }, this.at, this.rev);
    this.sessions.set(id, session);
    this.indexes.set(id, { messages: new Map(), sessionMessages: new Map(), toolEntries: new Map() });
    if (init.parentId === null) this.rootIds.push(id);
    this.changed({ sessionId: id, kind: 'tree' });
    return session;
  }

  /** Entry ids are unique per store (a revision can add several entries, even to one session). */
  private nextEntryId(prefix: string): string {
    return `${prefix}:${++this.entryCounter}`;
  }

  private indexOf(session: SessionRecord): SessionIndex {
    let index = this.indexes.get(session.id);
    if (!index) {
      index = { messages: new Map(), sessionMessages: new Map(), toolEntries: new Map() };
      this.indexes.set(session.id, index);
    }
    return index;
  }

  private setState(session: SessionRecord, state: SessionStateInfo, source: StateSource = 'agent'): void {
    if (sameState(session.state, state)) return;
    session.state = state;
    session.stateHistory.push({ state: state.state, ...(state.stopReason ? { stopReason: state.stopReason } : {}), at: this.at, source });
    if (session.stateHistory.length > this.maxStateHistory) session.stateHistory.splice(0, session.stateHistory.length - this.maxStateHistory);
    this.touch(session);
  }

  private addEntry(session: SessionRecord, entry: Entry): void {
    session.entries.push(entry);
    this.indexOf(session).last = entry;
    this.touchEntry(session, entry);
  }

  private touch(session: SessionRecord): void {
    session.rev = this.rev;
    session.updatedAt = this.at;
    this.changed({ sessionId: session.id, kind: 'session' });
  }

  private touchEntry(session: SessionRecord, entry: Entry): void {
    entry.rev = this.rev;
    session.rev = this.rev;
    session.updatedAt = this.at;
    this.changed({ sessionId: session.id, kind: 'entry', entryId: entry.id });
  }

  private touchEntryById(sessionId: string | undefined, entry: Entry): void {
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (session) this.touchEntry(session, entry);
  }

  private changed(change: StoreChange): void {
    if (this.listeners.size > 0) this.changes.push(change);
  }

  private flush(): void {
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

  private diagnose(code: DiagnosticCode, message: string): void {
    if (this.diagnosticList.length > this.maxDiagnostics) return;
    if (this.diagnosticList.length === this.maxDiagnostics) {
      this.diagnosticList.push({ code: 'limit', message: `more than ${this.maxDiagnostics} diagnostics; the rest are not kept`, line: this.line });
      return;
    }
    this.diagnosticList.push({ code, message, line: this.line });
  }
}

function pendingKey(direction: Direction, id: string | number): string {
  return `${direction === 'client->agent' ? 'c' : 'a'}:${typeof id}:${String(id)}`;
}

function toolKey(sessionId: string, toolCallId: string): string {
  return `${sessionId}\0${toolCallId}`;
}

function readOptions(raw: unknown): PermissionOption[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((o) => ({
    optionId: asString(o['optionId']) ?? '',
    name: asString(o['name']) ?? asString(o['optionId']) ?? '',
    kind: asString(o['kind']) ?? 'allow_once',
  }));
}

function firstLine(text: string, max = 120): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function textOfToolContent(raw: unknown): string | undefined {
  if (!Array.isArray(raw)) return undefined;
  for (const item of raw) {
    if (isObject(item) && isObject(item['content']) && typeof item['content']['text'] === 'string') return item['content']['text'];
  }
  return undefined;
}

const TOOL_LINKS = new Set<SessionLink>(['zed-meta', 'tool-kind', 'agentpool-meta']);

const GENERIC_TOOL_TITLES = new Set(['task', 'Task', 'Agent', 'agent', 'spawnAgent']);

/** A subagent's display title from its tool call: the task description beats a generic tool name. */
function subagentTitle(record: ToolCallRecord): string | null {
  const input = isObject(record.rawInput) ? record.rawInput : undefined;
  const description = asString(input?.['description']) ?? asString(input?.['agent_name']);
  if (description) return description;
  if (record.title && !GENERIC_TOOL_TITLES.has(record.title)) return record.title;
  return asString(input?.['subagent_type']) ?? null;
}
