// One ACP connection to one agent process: initialize, session methods (only what the agent advertised
// and the store allows), and agent->client requests served through the injected ClientHost.
import type {
  ContentBlock,
  Implementation,
  InitializeResponse,
  ListSessionsResponse,
  LoadSessionResponse,
  McpServer,
  NewSessionResponse,
  PromptResponse,
  RequestPermissionOutcome,
  ResumeSessionResponse,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk/unstable';
import * as path from 'node:path';
import {
  CancellationTokenSource,
  ConnectionError,
  createMessageConnection,
  Emitter,
  ErrorCodes,
  ResponseError,
  type CancellationToken,
  type Event,
  type Logger,
  type Message,
  type MessageConnection,
  type RequestMessage,
} from 'vscode-jsonrpc/node';
import { version } from '../../package.json';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';
import type { SessionAction, SessionActions } from '../store/model';
import { SessionStore } from '../store/sessionStore';
import { STEER_METHOD } from '../store/reducers/steering';
import { advertisedConfigOptionType, advertisedModeIds } from '../store/sessionSettings';
import { AgentProcess, type AgentConfig } from './agentProcess';
import { buildClientCapabilities, buildV2ClientCapabilities, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './capabilities';
import { readAgentFeatures, type AgentFeatures, type AuthMethodInfo, type PromptContentCapability, type ProtocolVersion, type SessionMethod } from './agentFeatures';
import type { ClientHost } from './clientHost';
import { delegationSupport, parseSubagentCatalog, validateDelegation, type DelegationSupport, type PromptDelegation, type SubagentInfo } from './delegation';
import {
  ActionRefusedError,
  AgentExitedError,
  AgentRequestError,
  AgentTimeoutError,
  ClientRequestError,
  ConnectionClosedError,
  InvalidAgentResponseError,
  InvalidArgumentError,
  InvalidDelegationError,
  NotAdvertisedError,
  NotInitializedError,
  UnsupportedContentError,
  UnsupportedProtocolVersionError,
  type AgentExit,
} from './errors';
import { asRecord, isAdvertised } from './json';
import { PendingAgentRequestIds } from './agentRequestIds';
import { NdjsonMessageReader, NdjsonMessageWriter, type WireTap } from './ndjson';
import { PendingHostRequests } from './pendingHostRequests';
import { TerminalManager, type TerminalCreateParams } from './terminals';
import { sliceLines } from './textSlice';
import { readConfined, writeConfined } from './confinedFs';
import { ReadGate } from './readGate';
import { TerminalGate, type TerminalPolicy } from './terminalGate';
import { resolveWorkspacePath, WorkspacePathError } from './workspacePaths';

export interface AgentConnectionOptions {
  readonly agent: AgentConfig;
  /** Working directory of the agent process (unless the agent names its own `processCwd`). */
  readonly cwd: string;
  readonly host: ClientHost;
  /** Absolute paths of the open workspace folders (writes and terminal cwds must stay inside). */
  readonly workspaceFolders: () => readonly string[];
  readonly clientInfo?: Implementation;
  /** Sees every message in both directions, in wire order, before it is dispatched or written. */
  readonly tap?: WireTap;
  /** A received line that is not JSON / not JSON-RPC (skipped; the connection lives on). */
  readonly onInvalidLine?: (raw: string, reason: string) => void;
  readonly log?: (text: string) => void;
  /** Default 30 000 ms. */
  readonly initializeTimeoutMs?: number;
  /** Longest line read from the agent, in bytes (default 16 MiB); a longer one is skipped with a diagnostic. */
  readonly maxLineBytes?: number;
  /** The session store's verdict; nothing is sent for a refused cancel/prompt/close. */
  readonly actionsFor?: (sessionId: string) => SessionActions;
  /**
   * The session store this connection's traffic feeds (every message, both directions, in wire order, before
   * `tap`). The connection reads what it may send from it: modes, config options, the catalog, cwds, actions.
   * Default: a store of its own.
   */
  readonly store?: SessionStore;
  /** Known descendants (children, grandchildren, ...) of a session, for cascading cancellation. */
  readonly descendantsOf?: (sessionId: string) => Iterable<string>;
  /** Default terminal cwd for a session (e.g. a child's announced cwd); falls back to the session's own cwd. */
  readonly sessionCwd?: (sessionId: string) => string | undefined;
  readonly terminalOutputByteLimit?: number;
  /** Setting subchats.terminals: whether terminal/create asks (default), runs, or is refused. */
  readonly terminalPolicy?: () => TerminalPolicy;
  /** Environment the agent and its terminals inherit (default process.env). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL when stopping the agent. Default 2000 ms. */
  readonly stopGraceMs?: number;
  /** The ACP version `initialize` offers (default 1); the connection then speaks the one the agent answers. */
  readonly protocolVersion?: ProtocolVersion;
  /** Runs before an fs request reads or writes a file (Open Changes keeps the text from before the agent's work). */
  readonly beforeFileAccess?: (sessionId: string, path: string) => Promise<void>;
  /** Runs before a permission request is put to the user (the copies of files its tool call named are taken first). */
  readonly beforePermission?: (sessionId: string) => Promise<void>;
}

export interface SessionSetupOptions {
  readonly mcpServers?: McpServer[];
  readonly additionalDirectories?: string[];
}

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;

/** Outstanding request we sent; rejected with a readable error when the agent goes away. */
interface OutgoingRequest {
  readonly method: string;
  readonly reject: (error: Error) => void;
}

type GuardedAction = SessionAction;

/** What `_session/steering` answered (`unknown`: an outcome this client does not know; the message was taken). */
export type SteerOutcome = 'injected' | 'promptRequired' | 'startedNewTurn' | 'unknown';

/** Client methods v2 removed (agents own files and terminals): a v2 agent asking for them is refused. */
const V1_ONLY_CLIENT_METHODS = new Set(['fs/read_text_file', 'fs/write_text_file', 'terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release']);

const PROMPT_CONTENT_CAPABILITY: Record<string, PromptContentCapability | null> = {
  text: null,
  resource_link: null,
  image: 'image',
  audio: 'audio',
  resource: 'embeddedContext',
};

export class AgentConnection {
  readonly process: AgentProcess;
  readonly terminals: TerminalManager;
  private readonly reads: ReadGate;
  private readonly connection: MessageConnection;
  private readonly writer: NdjsonMessageWriter;
  /** The only reducer of this connection's wire; the connection reads facts from it. */
  readonly store: SessionStore;
  private readonly pendingHost = new PendingHostRequests();
  private readonly outgoing = new Set<OutgoingRequest>();
  private readonly incomingTokens = new Map<string | number, CancellationTokenSource>();
  private readonly tokenRequestIds = new WeakMap<CancellationToken, string | number>();
  private readonly agentRequestIds = new PendingAgentRequestIds();
  private readonly exitEmitter = new Emitter<AgentExit>();
  private initializeResponse: InitializeResponse | undefined;
  private features: AgentFeatures | undefined;
  private closedError: ((method: string) => Error) | undefined;

  /** The agent process is gone (crash, exit, failed start, or after dispose). Fires once. */
  readonly onDidExit: Event<AgentExit> = this.exitEmitter.event;
  /** Agent stderr text as it arrives. */
  readonly onStderr: Event<string>;

  private constructor(private readonly options: AgentConnectionOptions) {
    this.store = options.store ?? new SessionStore();
    this.process = AgentProcess.spawn(options.agent, { cwd: options.agent.processCwd ?? options.cwd, baseEnv: options.baseEnv });
    this.onStderr = this.process.onStderr;
    const { host } = options;
    const sessionLabel = (sessionId: string) => this.store.getSession(sessionId)?.label;
    this.reads = new ReadGate({ workspaceFolders: options.workspaceFolders, agentName: options.agent.name, sessionLabel, ask: host.confirmOutsideRead?.bind(host) });
    const setting = options.terminalPolicy ?? (() => 'ask');
    const policy = (): TerminalPolicy => (setting() === 'ask' && options.agent.builtIn ? 'allow' : setting());
    const terminalGate = new TerminalGate({ policy, store: this.store, agentName: options.agent.name, ask: host.confirmTerminal?.bind(host) });
    this.terminals = new TerminalManager({
      workspaceFolders: options.workspaceFolders,
      authorize: (request) => terminalGate.authorize(request),
      defaultCwd: (sessionId) => options.sessionCwd?.(sessionId) ?? this.store.effectiveCwd(sessionId) ?? undefined,
      defaultOutputByteLimit: options.terminalOutputByteLimit,
      baseEnv: options.baseEnv,
    });

    const hooks = {
      tap: (message: object, direction: 'client->agent' | 'agent->client') => {
        if (direction === 'client->agent') this.agentRequestIds.answered(message);
        // Recorded before the store reacts: a reaction that sends at once (a queued message going out when an
        // agent message ends the turn) must follow that message in the transcript, as it does on the wire.
        try {
          options.tap?.(message, direction);
        } catch (error) {
          this.log(`Recording a message failed: ${(error as Error).message}`); // the store still gets it
        }
        this.store.ingest(message, direction);
      },
      onInvalidLine: (raw: string, reason: string) => {
        this.log(`Skipped a line from the agent (${reason}): ${raw.slice(0, 200)}`);
        options.onInvalidLine?.(raw, reason);
      },
      onBatch: () => {
        void writer.write({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.InvalidRequest, message: 'ACP does not use JSON-RPC batches' } } as never).catch(() => undefined);
      },
      // vscode-jsonrpc queues requests by id, so a second request with a pending id would replace the first:
      // the duplicate is answered with an error here and never reaches it.
      intercept: (message: Message) => this.agentRequestIds.refuseDuplicate(message, (answer) => void writer.write(answer as never).catch(() => undefined)),
      log: (text: string) => this.log(text),
    };
    const reader = new NdjsonMessageReader(this.process.stdout, hooks, options.maxLineBytes);
    const writer = new NdjsonMessageWriter(this.process.stdin, hooks);
    this.writer = writer;
    this.connection = createMessageConnection(reader, writer, this.jsonRpcLogger(), {
      cancellationStrategy: {
        receiver: { kind: 'request', createCancellationTokenSource: (request: RequestMessage) => this.trackIncomingRequest(request) },
        sender: {
          sendCancellation: (connection, id) => connection.sendNotification('$/cancel_request', { requestId: id }),
          cleanup: () => undefined,
        },
      },
      // With a finite limit vscode-jsonrpc settles responses as they are read instead of queueing them
      // behind notifications; the limit itself is never reached.
      maxParallelism: Number.MAX_SAFE_INTEGER,
    });
    this.registerHandlers();
    this.connection.onError(([error]) => this.log(`Connection error: ${error.message}`));
    this.connection.onClose(() => {
      // The agent closed stdout: it can no longer answer, so make sure the process goes away too.
      if (this.process.running) this.process.stop(this.options.stopGraceMs);
    });
    this.process.onDidExit((exit) => this.handleExit(exit));
    this.connection.listen();
  }

  /** Spawns the agent; call `initialize()` next. Attach listeners in between. */
  static spawn(options: AgentConnectionOptions): AgentConnection {
    return new AgentConnection(options);
  }

  /** Spawns and initializes; stops the agent again if initialization fails. */
  static async start(options: AgentConnectionOptions): Promise<AgentConnection> {
    const connection = AgentConnection.spawn(options);
    try {
      await connection.initialize();
      return connection;
    } catch (error) {
      connection.dispose();
      throw error;
    }
  }

  get agentName(): string {
    return this.options.agent.name;
  }

  get initialized(): InitializeResponse | undefined {
    return this.initializeResponse;
  }

  /** What the agent advertised (v1 `agentCapabilities`, v2 `capabilities`). */
  get agentCapabilities(): Record<string, unknown> {
    return this.features?.capabilities ?? {};
  }

  /** The ACP version this connection speaks: the agent's answer (the offered one until it answers). */
  get protocolVersion(): ProtocolVersion {
    return this.features?.version ?? this.options.protocolVersion ?? PROTOCOL_VERSION;
  }

  /** Whether the agent offers a session method beyond new/prompt/cancel (v2: baseline with sessions). */
  offers(method: SessionMethod): boolean {
    return this.features?.offers(method) ?? false;
  }

  get agentInfo(): Implementation | null {
    const response = asRecord(this.initializeResponse);
    const info = asRecord(response?.[this.protocolVersion === 2 ? 'info' : 'agentInfo']);
    return info ? (info as unknown as Implementation) : null;
  }

  /** Auth methods with their id as `id` (v2 calls it `methodId`). */
  get authMethods(): readonly AuthMethodInfo[] {
    return this.features?.authMethods ?? [];
  }

  get delegationSupport(): DelegationSupport {
    return delegationSupport(this.agentCapabilities);
  }

  get stderrTail(): string {
    return this.process.stderrTail;
  }

  get isClosed(): boolean {
    return this.closedError !== undefined;
  }

  availableSubagents(sessionId: string): readonly SubagentInfo[] {
    return this.catalogOf(sessionId) ?? [];
  }

  /** Pending permission/elicitation requests (e.g. to show a badge). */
  pendingHostRequests() {
    return this.pendingHost.list();
  }

  // ---- initialize & auth -------------------------------------------------------------------------

  async initialize(): Promise<InitializeResponse> {
    const timeoutMs = this.options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
    const offered = this.options.protocolVersion ?? PROTOCOL_VERSION;
    const info = this.options.clientInfo ?? { name: 'subchats', title: 'Subchats', version };
    const params =
      offered === 2
        ? { protocolVersion: 2, info, capabilities: buildV2ClientCapabilities(this.options.host) }
        : { protocolVersion: 1, clientCapabilities: buildClientCapabilities(this.options.host), clientInfo: info };
    let response: InitializeResponse;
    try {
      response = await this.withTimeout(this.request<InitializeResponse>('initialize', params), timeoutMs, () => {
        const error = new AgentTimeoutError(this.agentName, 'initialize', timeoutMs, this.stderrTail);
        this.shutDown(this.closedAfter(error));
        return error;
      });
    } catch (error) {
      if (error instanceof AgentRequestError && error.code === AcpErrorCodes.UnsupportedProtocolVersion) {
        const supported = asRecord(error.data)?.supported;
        const versionError = UnsupportedProtocolVersionError.refused(this.agentName, offered, Array.isArray(supported) ? supported : undefined, SUPPORTED_PROTOCOL_VERSIONS);
        this.shutDown(this.closedAfter(versionError));
        throw versionError;
      }
      throw error;
    }
    const result = asRecord(response);
    // One connection speaks exactly the answered version: one Subchats speaks, and not above the offer (the
    // client capabilities went out in the offered version's shape).
    const speakable = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v <= offered);
    if (!result || typeof result.protocolVersion !== 'number' || !speakable.includes(result.protocolVersion)) {
      const answered = result?.protocolVersion;
      const hint = typeof answered === 'number' && SUPPORTED_PROTOCOL_VERSIONS.includes(answered) ? `Set subchats.protocolVersion to "${answered}" or "auto" to speak version ${answered} with it.` : undefined;
      const error = new UnsupportedProtocolVersionError(this.agentName, answered, speakable, hint);
      this.shutDown(this.closedAfter(error));
      throw error;
    }
    this.initializeResponse = response;
    this.features = readAgentFeatures(response, result.protocolVersion === 2 ? 2 : 1);
    return response;
  }

  /** Signs in with one of the offered auth methods (v1 `authenticate`, v2 `auth/login`). */
  async authenticate(methodId: string): Promise<void> {
    const method = this.protocolVersion === 2 ? 'auth/login' : 'authenticate';
    this.requireInitialized(method);
    if (!this.authMethods.some((offered) => offered.id === methodId)) {
      const offered = this.authMethods.map((m) => m.id).join(', ') || 'none';
      throw new NotAdvertisedError(this.agentName, method, `auth method "${methodId}" was not offered (offered: ${offered})`);
    }
    await this.request(method, { methodId });
  }

  /** v1 `logout` (when `auth.logout` is advertised), v2 `auth/logout` (required with auth methods). */
  async logout(): Promise<void> {
    const method = this.protocolVersion === 2 ? 'auth/logout' : 'logout';
    this.requireInitialized(method);
    if (!this.features?.logout) {
      const why = this.protocolVersion === 2 ? 'the agent offers no auth methods' : 'agentCapabilities.auth.logout is not advertised';
      throw new NotAdvertisedError(this.agentName, method, why);
    }
    await this.request(method, {});
  }

  // ---- sessions ----------------------------------------------------------------------------------

  async newSession(cwd: string, options: SessionSetupOptions = {}): Promise<NewSessionResponse> {
    this.requireInitialized('session/new');
    const params = { cwd: this.absolute(cwd, 'cwd'), ...this.setupParams('session/new', options) };
    const response = await this.request<NewSessionResponse>('session/new', params);
    const sessionId = asRecord(response)?.sessionId;
    if (typeof sessionId !== 'string' || !sessionId) throw new InvalidAgentResponseError(this.agentName, 'session/new', 'no sessionId');
    return response;
  }

  async loadSession(sessionId: string, cwd: string, options: SessionSetupOptions = {}): Promise<LoadSessionResponse> {
    this.requireInitialized('session/load');
    if (this.protocolVersion === 2) throw new NotAdvertisedError(this.agentName, 'session/load', 'ACP v2 has no session/load; reconnect with session/resume');
    if (!this.offers('load')) throw new NotAdvertisedError(this.agentName, 'session/load', 'agentCapabilities.loadSession is not true');
    const params = { sessionId, cwd: this.absolute(cwd, 'cwd'), ...this.setupParams('session/load', options) };
    const response = await this.request<LoadSessionResponse>('session/load', params);
    return response;
  }

  async resumeSession(sessionId: string, cwd: string, options: SessionSetupOptions = {}): Promise<ResumeSessionResponse> {
    this.requireSessionCapability('session/resume', 'resume');
    // v2 replays the session's history when asked (it took the place of session/load).
    const replay = this.protocolVersion === 2 ? { replayFrom: { type: 'start' } } : {};
    const params = { sessionId, cwd: this.absolute(cwd, 'cwd'), ...this.setupParams('session/resume', options), ...replay };
    const response = await this.request<ResumeSessionResponse>('session/resume', params);
    return response;
  }

  async listSessions(filter: { cwd?: string; cursor?: string } = {}): Promise<ListSessionsResponse> {
    this.requireSessionCapability('session/list', 'list');
    const params: Record<string, string> = {};
    if (filter.cwd !== undefined) params.cwd = this.absolute(filter.cwd, 'cwd');
    if (filter.cursor !== undefined) params.cursor = filter.cursor;
    return this.request<ListSessionsResponse>('session/list', params);
  }

  /** Closes a session; its (and its descendants') pending permission requests are answered cancelled. */
  async closeSession(sessionId: string): Promise<void> {
    this.requireSessionCapability('session/close', 'close');
    this.checkAllowed(sessionId, 'close');
    const request = this.request('session/close', { sessionId });
    this.cancelPendingHostRequests(sessionId);
    await request;
  }

  /**
   * Sends a prompt and resolves when its turn ends, with the stop reason. v1: the response ends the turn. v2:
   * the response only acknowledges the prompt (`onSent` gets its messageId); the session's idle state ends it.
   */
  async prompt(sessionId: string, prompt: readonly ContentBlock[], delegation?: PromptDelegation, onSent?: (messageId: string | undefined) => void): Promise<PromptResponse> {
    this.requireInitialized('session/prompt');
    this.checkAllowed(sessionId, 'prompt');
    this.checkPromptContent(prompt);
    const params: Record<string, unknown> = { sessionId, prompt };
    if (delegation !== undefined) {
      const problems = validateDelegation(delegation, this.delegationSupport, this.catalogOf(sessionId));
      if (problems.length) throw new InvalidDelegationError(problems);
      params.delegation = delegation;
    }
    if (this.protocolVersion === 1) {
      const response = await this.request<PromptResponse>('session/prompt', params);
      onSent?.(undefined);
      return response;
    }
    const turnEnd = this.turnEnd(sessionId);
    try {
      const ack = asRecord(await this.request<unknown>('session/prompt', params));
      onSent?.(typeof ack?.messageId === 'string' ? ack.messageId : undefined);
    } catch (error) {
      turnEnd.abandon();
      throw error;
    }
    return turnEnd.promise;
  }

  /**
   * `_session/steering` (claude-agent-acp, codex-acp): the message joins the session's running turn. Sent with
   * `idleBehavior: "promptRequired"`, so an agent whose turn ended meanwhile says so instead of starting a turn
   * of its own; the caller then sends the words as a prompt. Only where the agent advertises steering and the
   * store's verdict for the session allows a steer now.
   */
  async steer(sessionId: string, prompt: readonly ContentBlock[]): Promise<SteerOutcome> {
    this.requireInitialized(STEER_METHOD);
    if (!this.store.steering) throw new NotAdvertisedError(this.agentName, STEER_METHOD, 'the agent does not advertise steering (_meta.steering.supported)');
    this.checkAllowed(sessionId, 'steer');
    this.checkPromptContent(prompt);
    const result = asRecord(await this.request<unknown>(STEER_METHOD, { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } }));
    const outcome = result?.outcome;
    return outcome === 'injected' || outcome === 'promptRequired' || outcome === 'startedNewTurn' ? outcome : 'unknown';
  }

  /**
   * v2: resolves when the store says the session's prompt is no longer in flight (its idle state_update), with
   * the stop reason the agent reported; rejects when the connection closes first.
   */
  private turnEnd(sessionId: string): { promise: Promise<PromptResponse>; abandon: () => void } {
    let abandon = () => undefined as void;
    const promise = new Promise<PromptResponse>((resolve, reject) => {
      const entry: OutgoingRequest = { method: 'session/prompt', reject: (error) => finish(() => reject(error)) };
      // In flight from when the store sees the prompt go out; over when the agent's idle clears it.
      let sent = false;
      const subscription = this.store.onDidChange(() => {
        const session = this.store.getSession(sessionId);
        if (session?.activePromptId) sent = true;
        else if (session && sent) finish(() => resolve({ stopReason: (session.state.stopReason ?? 'end_turn') as PromptResponse['stopReason'] }));
      });
      const finish = (settle: () => void) => {
        subscription.dispose();
        this.outgoing.delete(entry);
        settle();
      };
      abandon = () => finish(() => undefined);
      this.outgoing.add(entry);
    });
    return { promise, abandon };
  }

  /** v2 `tool_call/cancel`: cancels one tool call, when the call grants `capabilities.cancel` (the store decides). */
  async cancelToolCall(sessionId: string, toolCallId: string): Promise<void> {
    this.requireV2('tool_call/cancel');
    const verdict = this.store.itemActionsFor(sessionId, { toolCallId }).cancel;
    if (!verdict.allowed) throw new ActionRefusedError(sessionId, 'cancel', verdict.reason ?? 'not allowed');
    await this.request('tool_call/cancel', { sessionId, toolCallId });
  }

  /** v2 `terminal/cancel`: cancels an agent terminal's command, when the terminal grants `capabilities.cancel`. */
  async cancelTerminal(sessionId: string, terminalId: string): Promise<void> {
    this.requireV2('terminal/cancel');
    const verdict = this.store.itemActionsFor(sessionId, { terminalId }).cancel;
    if (!verdict.allowed) throw new ActionRefusedError(sessionId, 'cancel', verdict.reason ?? 'not allowed');
    await this.request('terminal/cancel', { sessionId, terminalId });
  }

  /**
   * Sends `session/cancel` (if the store allows it) and answers pending permission requests of the session
   * and all its descendants with `cancelled` (elicitations with `cancel`).
   */
  async cancel(sessionId: string): Promise<void> {
    this.requireInitialized('session/cancel');
    this.checkAllowed(sessionId, 'cancel');
    await this.notify('session/cancel', { sessionId });
    this.cancelPendingHostRequests(sessionId);
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    this.requireInitialized('session/set_mode');
    if (this.protocolVersion === 2) throw new NotAdvertisedError(this.agentName, 'session/set_mode', 'ACP v2 has no modes; change the mode config option instead');
    const modes = advertisedModeIds(this.store.getSession(sessionId));
    if (!modes) throw new NotAdvertisedError(this.agentName, 'session/set_mode', `no modes were advertised for session ${sessionId}`);
    if (!modes.has(modeId)) throw new NotAdvertisedError(this.agentName, 'session/set_mode', `mode "${modeId}" is not one of ${[...modes].join(', ')}`);
    await this.request('session/set_mode', { sessionId, modeId });
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SetSessionConfigOptionResponse> {
    this.requireInitialized('session/set_config_option');
    const type = advertisedConfigOptionType(this.store.getSession(sessionId), configId);
    if (type === undefined) throw new NotAdvertisedError(this.agentName, 'session/set_config_option', `config option "${configId}" was not advertised for session ${sessionId}`);
    if ((type === 'boolean') !== (typeof value === 'boolean')) {
      throw new InvalidArgumentError(`Config option "${configId}" is of type ${type}; got a ${typeof value} value`);
    }
    // v2 names the value's type for every value (`id` for a select's choice).
    const params = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : this.protocolVersion === 2 ? { sessionId, configId, type: 'id', value } : { sessionId, configId, value };
    return this.request<SetSessionConfigOptionResponse>('session/set_config_option', params);
  }

  /** Stops the agent. Pending requests reject with ConnectionClosedError; onDidExit fires when it is gone. */
  dispose(): void {
    this.shutDown((method) => new ConnectionClosedError(this.agentName, method));
  }

  // ---- agent -> client ---------------------------------------------------------------------------

  private registerHandlers(): void {
    const { host } = this.options;
    this.serve('session/request_permission', async (params, token) => {
      const sessionId = requireString(params, 'sessionId');
      const options = Array.isArray(params.options) ? params.options : [];
      await this.options.beforePermission?.(sessionId);
      const outcome = await this.pendingHost.track<RequestPermissionOutcome>(
        sessionId,
        'permission',
        (signal) => host.requestPermission(params as never, signal, { requestId: this.tokenRequestIds.get(token) }),
        { outcome: 'cancelled' },
        this.withdrawOn(token),
      );
      return { outcome: this.checkedOutcome(outcome, options) };
    });
    this.serve('fs/read_text_file', async (params) => {
      const sessionId = requireString(params, 'sessionId');
      const filePath = requireAbsolutePath(params);
      const allow = await this.reads.authorize(sessionId, filePath);
      await this.options.beforeFileAccess?.(sessionId, filePath);
      const content = await host.readTextFile(filePath, sessionId, () => readConfined(filePath, allow));
      return { content: sliceLines(content, params.line as number | null | undefined, params.limit as number | null | undefined) };
    });
    this.serve('fs/write_text_file', async (params) => {
      const sessionId = requireString(params, 'sessionId');
      if (typeof params.content !== 'string') throw new ClientRequestError(ErrorCodes.InvalidParams, 'fs/write_text_file needs string content.');
      const target = await resolveWorkspacePath(params.path, this.options.workspaceFolders());
      const content = params.content;
      await this.options.beforeFileAccess?.(sessionId, target.path);
      await host.writeTextFile(target.path, content, sessionId, () => writeConfined(target.path, content, this.options.workspaceFolders()));
      return {};
    });
    this.serve('terminal/create', async (params) => {
      requireString(params, 'sessionId');
      return { terminalId: await this.terminals.create(params as unknown as TerminalCreateParams) };
    });
    this.serve('terminal/output', async (params) => {
      const snapshot = this.terminals.output(requireString(params, 'terminalId'));
      return snapshot.exitStatus ? snapshot : { output: snapshot.output, truncated: snapshot.truncated };
    });
    this.serve('terminal/wait_for_exit', async (params) => this.terminals.waitForExit(requireString(params, 'terminalId')));
    this.serve('terminal/kill', async (params) => {
      this.terminals.kill(requireString(params, 'terminalId'));
      return {};
    });
    this.serve('terminal/release', async (params) => {
      this.terminals.release(requireString(params, 'terminalId'));
      return {};
    });
    this.serve('elicitation/create', async (params, token) => {
      const elicit = host.elicit?.bind(host);
      if (!elicit) throw new ClientRequestError(ErrorCodes.MethodNotFound, 'Method not found: elicitation/create (not advertised by this client)');
      const sessionId = typeof params.sessionId === 'string' ? params.sessionId : undefined;
      return this.pendingHost.track(sessionId, 'elicitation', (signal) => elicit(params as never, signal), { action: 'cancel' }, this.withdrawOn(token));
    });
    this.connection.onRequest((method, _params, token) => {
      this.forgetToken(token);
      this.log(`Answered unknown request ${method} with "method not found"`);
      throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
    });

    this.connection.onNotification('session/update', () => undefined); // observed in wire order by the tap hook
    this.connection.onNotification('$/cancel_request', (params: unknown) => {
      const requestId = asRecord(params)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.incomingTokens.get(requestId)?.cancel();
    });
    this.connection.onNotification('elicitation/complete', (params: unknown) => {
      const elicitationId = asRecord(params)?.elicitationId;
      if (typeof elicitationId === 'string') host.elicitationComplete?.({ elicitationId });
    });
    this.connection.onUnhandledNotification((message) => this.log(`Ignored notification ${message.method}`));
  }

  /** Registers an agent->client request handler that turns failures into JSON-RPC errors. */
  private serve(method: string, handler: (params: Record<string, unknown>, token: CancellationToken) => Promise<unknown>): void {
    this.connection.onRequest(method, async (...args: unknown[]) => {
      const token = args[args.length - 1] as CancellationToken;
      const params = args.length > 1 ? (asRecord(args[0]) ?? {}) : {};
      try {
        if (this.protocolVersion === 2 && V1_ONLY_CLIENT_METHODS.has(method)) throw new ClientRequestError(ErrorCodes.MethodNotFound, `Method not found: ${method} (not part of ACP v2)`);
        return await handler(params, token);
      } catch (error) {
        throw toResponseError(method, error);
      } finally {
        this.forgetToken(token);
      }
    });
  }

  private forgetToken(token: CancellationToken): void {
    const requestId = this.tokenRequestIds.get(token);
    if (requestId !== undefined) this.incomingTokens.delete(requestId);
  }

  private trackIncomingRequest(request: RequestMessage): CancellationTokenSource {
    const source = new CancellationTokenSource();
    if (request.id !== null) {
      this.incomingTokens.set(request.id, source);
      this.tokenRequestIds.set(source.token, request.id);
    }
    return source;
  }

  /** `$/cancel_request` from the agent ends a waiting host request with "request cancelled". */
  private withdrawOn(token: CancellationToken) {
    return (abandon: (error: Error) => void) => {
      token.onCancellationRequested(() => abandon(new ClientRequestError(AcpErrorCodes.RequestCancelled, 'Request cancelled by the agent')));
    };
  }

  private checkedOutcome(outcome: RequestPermissionOutcome, options: unknown[]): RequestPermissionOutcome {
    const chosen = asRecord(outcome);
    if (chosen?.outcome === 'selected' && typeof chosen.optionId === 'string' && options.some((option) => asRecord(option)?.optionId === chosen.optionId)) {
      return { outcome: 'selected', optionId: chosen.optionId };
    }
    if (chosen?.outcome !== 'cancelled') this.log(`Permission answer ${JSON.stringify(outcome)} is not one of the offered options; sent as cancelled`);
    return { outcome: 'cancelled' };
  }

  private cancelPendingHostRequests(sessionId: string): void {
    const sessions = new Set<string>([sessionId]);
    const descendants = this.options.descendantsOf?.(sessionId) ?? this.store.subtree(sessionId).slice(1).map((session) => session.id);
    for (const descendant of descendants) sessions.add(descendant);
    this.pendingHost.cancelSessions(sessions);
  }

  // ---- sending -----------------------------------------------------------------------------------

  private request<R>(method: string, params: object): Promise<R> {
    if (this.closedError) return Promise.reject(this.closedError(method));
    return new Promise<R>((resolve, reject) => {
      const entry: OutgoingRequest = { method, reject };
      this.outgoing.add(entry);
      const settle = () => this.outgoing.delete(entry);
      let sent: Promise<R>;
      try {
        sent = this.connection.sendRequest<R>(method, params);
      } catch (error) {
        settle();
        reject(this.sendFailure(method, error));
        return;
      }
      sent.then(
        (result) => {
          settle();
          resolve(result);
        },
        (error: unknown) => {
          settle();
          reject(this.sendFailure(method, error));
        },
      );
    });
  }

  private async notify(method: string, params: object): Promise<void> {
    if (this.closedError) throw this.closedError(method);
    try {
      await this.connection.sendNotification(method, params);
    } catch (error) {
      throw this.sendFailure(method, error);
    }
  }

  private sendFailure(method: string, error: unknown): Error {
    if (this.closedError) return this.closedError(method);
    if (error instanceof ResponseError && !isLocalConnectionFailure(error.code)) {
      return new AgentRequestError(this.agentName, method, error.code, error.message, error.data);
    }
    if (error instanceof ConnectionError || error instanceof ResponseError) return new ConnectionClosedError(this.agentName, method);
    return error instanceof Error ? error : new Error(String(error));
  }

  private withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(onTimeout()), timeoutMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  // ---- lifecycle ---------------------------------------------------------------------------------

  private handleExit(exit: AgentExit): void {
    const startError = this.process.startError;
    this.shutDown((method) => startError ?? new AgentExitedError(this.agentName, exit, method));
    this.exitEmitter.fire(exit);
  }

  /** `error` for the request that failed, "connection closed" for anything sent later. */
  private closedAfter(error: Error): (method: string) => Error {
    return (method) => (method === 'initialize' ? error : new ConnectionClosedError(this.agentName, method));
  }

  /** Idempotent: rejects what is pending, stops host UIs and terminals, stops the process. */
  private shutDown(errorFor: (method: string) => Error): void {
    if (!this.closedError) {
      this.closedError = errorFor;
      for (const entry of [...this.outgoing]) entry.reject(errorFor(entry.method));
      this.outgoing.clear();
      this.pendingHost.abandonAll(new ClientRequestError(ErrorCodes.InternalError, 'The connection is closing'));
      this.terminals.releaseAll();
      this.writer.end(); // nothing may be written (or tapped) after this point
      try {
        this.connection.dispose();
      } catch (error) {
        this.log(`Disposing the connection failed: ${(error as Error).message}`);
      }
    }
    this.process.stop(this.options.stopGraceMs);
  }

  // ---- checks ------------------------------------------------------------------------------------

  private requireInitialized(method: string): void {
    if (this.closedError) throw this.closedError(method);
    if (!this.initializeResponse) throw new NotInitializedError(this.agentName, method);
  }

  private requireSessionCapability(method: string, capability: SessionMethod): void {
    this.requireInitialized(method);
    if (!this.offers(capability)) {
      const where = this.protocolVersion === 2 ? 'capabilities.session' : `agentCapabilities.sessionCapabilities.${capability}`;
      throw new NotAdvertisedError(this.agentName, method, `${where} is not advertised`);
    }
  }

  private requireV2(method: string): void {
    this.requireInitialized(method);
    if (this.protocolVersion !== 2) throw new NotAdvertisedError(this.agentName, method, `${method} is part of ACP v2; this agent speaks v1`);
  }

  private checkAllowed(sessionId: string, action: GuardedAction): void {
    const verdict = (this.options.actionsFor ?? ((id: string) => this.store.actionsFor(id)))(sessionId)[action];
    if (verdict && !verdict.allowed) throw new ActionRefusedError(sessionId, action, verdict.reason ?? 'not allowed');
  }

  private checkPromptContent(prompt: readonly ContentBlock[]): void {
    if (!Array.isArray(prompt)) throw new InvalidArgumentError('The prompt must be an array of content blocks');
    for (const block of prompt) {
      const type = String(asRecord(block)?.type);
      const capability = Object.hasOwn(PROMPT_CONTENT_CAPABILITY, type) ? PROMPT_CONTENT_CAPABILITY[type] : undefined;
      if (capability === undefined) throw new InvalidArgumentError(`Unknown prompt content type "${type}"`);
      if (capability !== null && !this.features?.acceptsPrompt(capability)) throw new UnsupportedContentError(this.agentName, type, capability);
    }
  }

  private setupParams(method: string, options: SessionSetupOptions): { mcpServers: McpServer[]; additionalDirectories?: string[] } {
    const params: { mcpServers: McpServer[]; additionalDirectories?: string[] } = { mcpServers: options.mcpServers ?? [] };
    if (options.additionalDirectories?.length) {
      if (!this.features?.additionalDirectories) {
        throw new NotAdvertisedError(this.agentName, method, 'additionalDirectories needs agentCapabilities.sessionCapabilities.additionalDirectories');
      }
      params.additionalDirectories = options.additionalDirectories.map((directory) => this.absolute(directory, 'additionalDirectories'));
    }
    return params;
  }

  private absolute(candidate: string, field: string): string {
    if (typeof candidate !== 'string' || !path.isAbsolute(candidate)) throw new InvalidArgumentError(`${field} must be an absolute path (got ${JSON.stringify(candidate)})`);
    return candidate;
  }

  /** The subagent catalog the agent advertised for the session, when it sent one. */
  private catalogOf(sessionId: string): readonly SubagentInfo[] | undefined {
    const catalog = this.store.getSession(sessionId)?.availableSubagents;
    return catalog ? parseSubagentCatalog(catalog) : undefined;
  }

  private log(text: string): void {
    this.options.log?.(`[${this.agentName}] ${text}`);
  }

  private jsonRpcLogger(): Logger {
    const log = (message: string) => this.log(message);
    return { error: log, warn: log, info: log, log };
  }
}

/** vscode-jsonrpc's own codes for write/read failures and disposal (-32099..-32096), not agent errors. */
function isLocalConnectionFailure(code: number): boolean {
  return code >= ErrorCodes.ConnectionInactive && code <= ErrorCodes.MessageWriteError;
}

function requireString(params: Record<string, unknown>, field: string): string {
  const value = params[field];
  if (typeof value !== 'string' || !value) throw new ClientRequestError(ErrorCodes.InvalidParams, `Missing or invalid "${field}".`);
  return value;
}

function requireAbsolutePath(params: Record<string, unknown>): string {
  const value = requireString(params, 'path');
  if (!path.isAbsolute(value)) throw new ClientRequestError(ErrorCodes.InvalidParams, `Path "${value}" is relative; ACP paths must be absolute.`);
  return value;
}

function toResponseError(method: string, error: unknown): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (error instanceof ClientRequestError) return new ResponseError(error.code, error.message, error.data);
  if (error instanceof WorkspacePathError) return new ResponseError(ErrorCodes.InvalidParams, error.message, { reason: error.problem });
  const failure = error as { code?: unknown; message?: unknown } | undefined;
  if (failure?.code === 'ENOENT' || failure?.code === 'FileNotFound') {
    return new ResponseError(AcpErrorCodes.ResourceNotFound, `File not found${typeof failure.message === 'string' ? `: ${failure.message}` : ''}`);
  }
  const message = typeof failure?.message === 'string' ? failure.message : String(error);
  return new ResponseError(ErrorCodes.InternalError, `${method} failed: ${message}`);
}
