// One ACP connection to one agent process, the facade the host uses: spawns the agent, wires its stdio
// channel, the agent's requests to the client (served through the injected ClientHost) and the session
// API, and ends them all together when the agent goes away or is disposed. The jobs live in their own
// modules: rpcChannel (send/receive), handshake (initialize, auth), sessionRequests (client->agent),
// clientRequestServer (agent->client), versionAdapter (what differs between ACP v1 and v2).
import type {
  ContentBlock,
  Implementation,
  InitializeResponse,
  ListSessionsResponse,
  LoadSessionResponse,
  NewSessionResponse,
  PromptResponse,
  ResumeSessionResponse,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk/unstable';
import { Emitter, ErrorCodes, type Event } from 'vscode-jsonrpc/node';
import { SessionStore } from '../store/sessionStore';
import type { AuthMethodInfo, ProtocolVersion, SessionMethod } from './agentFeatures';
import { AgentProcess } from './agentProcess';
import { PROTOCOL_VERSION } from './capabilities';
import { serveClientRequests } from './clientRequestServer';
import { DEFAULT_INITIALIZE_TIMEOUT_MS, type AgentConnectionOptions, type SessionSetupOptions } from './connectionOptions';
import { delegationSupport, type DelegationSupport, type PromptDelegation, type SubagentInfo } from './delegation';
import { AgentExitedError, ClientRequestError, ConnectionClosedError, type AgentExit } from './errors';
import { Handshake } from './handshake';
import { IncomingCancellation } from './incomingCancellation';
import { asRecord } from './json';
import { PendingHostRequests } from './pendingHostRequests';
import { ReadGate } from './readGate';
import { RpcChannel } from './rpcChannel';
import { SessionRequests, type SteerOutcome } from './sessionRequests';
import { TerminalGate, type TerminalPolicy } from './terminalGate';
import { TerminalManager } from './terminals';

export type { AgentConnectionOptions, SessionSetupOptions } from './connectionOptions';
export type { SteerOutcome } from './sessionRequests';

export class AgentConnection {
  readonly process: AgentProcess;
  readonly terminals: TerminalManager;
  /** The only reducer of this connection's wire; the connection reads facts from it. */
  readonly store: SessionStore;
  private readonly channel: RpcChannel;
  private readonly handshake: Handshake;
  private readonly sessions: SessionRequests;
  private readonly pendingHost = new PendingHostRequests();
  private readonly exitEmitter = new Emitter<AgentExit>();

  /** The agent process is gone (crash, exit, failed start, or after dispose). Fires once. */
  readonly onDidExit: Event<AgentExit> = this.exitEmitter.event;
  /** Agent stderr text as it arrives. */
  readonly onStderr: Event<string>;

  private constructor(private readonly options: AgentConnectionOptions) {
    this.store = options.store ?? new SessionStore();
    this.process = AgentProcess.spawn(options.agent, { cwd: options.agent.processCwd ?? options.cwd, baseEnv: options.baseEnv });
    this.onStderr = this.process.onStderr;
    const { host } = options;
    const log = (text: string) => this.log(text);
    const sessionLabel = (sessionId: string) => this.store.getSession(sessionId)?.label;
    const reads = new ReadGate({ workspaceFolders: options.workspaceFolders, agentName: options.agent.name, sessionLabel, ask: host.confirmOutsideRead?.bind(host) });
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

    const incoming = new IncomingCancellation();
    this.channel = new RpcChannel({
      agentName: this.agentName,
      stdout: this.process.stdout,
      stdin: this.process.stdin,
      observe: (message, direction) => {
        // Recorded before the store reacts: a reaction that sends at once (a queued message going out when an
        // agent message ends the turn) must follow that message in the transcript, as it does on the wire.
        try {
          options.tap?.(message, direction);
        } catch (error) {
          this.log(`Recording a message failed: ${(error as Error).message}`); // the store still gets it
        }
        this.store.ingest(message, direction);
      },
      onInvalidLine: (raw, reason) => {
        this.log(`Skipped a line from the agent (${reason}): ${raw.slice(0, 200)}`);
        options.onInvalidLine?.(raw, reason);
      },
      maxLineBytes: options.maxLineBytes,
      incoming,
      // The agent closed stdout: it can no longer answer, so make sure the process goes away too.
      onClose: () => {
        if (this.process.running) this.process.stop(this.options.stopGraceMs);
      },
      log,
    });
    this.handshake = new Handshake({
      agentName: this.agentName,
      channel: this.channel,
      host,
      clientInfo: options.clientInfo,
      offered: options.protocolVersion ?? PROTOCOL_VERSION,
      timeoutMs: options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
      stderrTail: () => this.stderrTail,
      shutDown: (errorFor) => this.shutDown(errorFor),
    });
    this.sessions = new SessionRequests({
      agentName: this.agentName,
      store: this.store,
      channel: this.channel,
      pendingHost: this.pendingHost,
      require: (method) => this.handshake.require(method),
      actionsFor: options.actionsFor,
      descendantsOf: options.descendantsOf,
    });
    serveClientRequests({
      host,
      workspaceFolders: options.workspaceFolders,
      beforeFileAccess: options.beforeFileAccess,
      beforePermission: options.beforePermission,
      connection: this.channel.connection,
      incoming,
      pendingHost: this.pendingHost,
      reads,
      terminals: this.terminals,
      adapter: () => this.handshake.adapter,
      log,
    });
    this.process.onDidExit((exit) => this.handleExit(exit));
    this.channel.listen();
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
    return this.handshake.result?.response;
  }

  /** What the agent advertised (v1 `agentCapabilities`, v2 `capabilities`). */
  get agentCapabilities(): Record<string, unknown> {
    return this.handshake.result?.features.capabilities ?? {};
  }

  /** The ACP version this connection speaks: the agent's answer (the offered one until it answers). */
  get protocolVersion(): ProtocolVersion {
    return this.handshake.adapter.version;
  }

  /** Whether the agent offers a session method beyond new/prompt/cancel (v2: baseline with sessions). */
  offers(method: SessionMethod): boolean {
    return this.handshake.result?.features.offers(method) ?? false;
  }

  get agentInfo(): Implementation | null {
    const response = asRecord(this.initialized);
    const info = asRecord(response?.[this.handshake.adapter.agentInfoKey]);
    return info ? (info as unknown as Implementation) : null;
  }

  /** Auth methods with their id as `id` (v2 calls it `methodId`). */
  get authMethods(): readonly AuthMethodInfo[] {
    return this.handshake.result?.features.authMethods ?? [];
  }

  get delegationSupport(): DelegationSupport {
    return delegationSupport(this.agentCapabilities);
  }

  get stderrTail(): string {
    return this.process.stderrTail;
  }

  get isClosed(): boolean {
    return this.channel.isClosed;
  }

  availableSubagents(sessionId: string): readonly SubagentInfo[] {
    return this.sessions.subagentCatalog(sessionId) ?? [];
  }

  /** Pending permission/elicitation requests (e.g. to show a badge). */
  pendingHostRequests() {
    return this.pendingHost.list();
  }

  // ---- initialize & auth (handshake.ts) -----------------------------------------------------------

  initialize(): Promise<InitializeResponse> {
    return this.handshake.initialize();
  }

  /** Signs in with one of the offered auth methods (v1 `authenticate`, v2 `auth/login`). */
  authenticate(methodId: string): Promise<void> {
    return this.handshake.authenticate(methodId);
  }

  /** v1 `logout` (when `auth.logout` is advertised), v2 `auth/logout` (required with auth methods). */
  logout(): Promise<void> {
    return this.handshake.logout();
  }

  // ---- sessions (sessionRequests.ts documents each) -----------------------------------------------

  newSession(cwd: string, options?: SessionSetupOptions): Promise<NewSessionResponse> {
    return this.sessions.newSession(cwd, options);
  }

  loadSession(sessionId: string, cwd: string, options?: SessionSetupOptions): Promise<LoadSessionResponse> {
    return this.sessions.loadSession(sessionId, cwd, options);
  }

  resumeSession(sessionId: string, cwd: string, options?: SessionSetupOptions): Promise<ResumeSessionResponse> {
    return this.sessions.resumeSession(sessionId, cwd, options);
  }

  listSessions(filter?: { cwd?: string; cursor?: string }): Promise<ListSessionsResponse> {
    return this.sessions.listSessions(filter);
  }

  closeSession(sessionId: string): Promise<void> {
    return this.sessions.closeSession(sessionId);
  }

  prompt(sessionId: string, prompt: readonly ContentBlock[], delegation?: PromptDelegation, onSent?: (messageId: string | undefined) => void): Promise<PromptResponse> {
    return this.sessions.prompt(sessionId, prompt, delegation, onSent);
  }

  steer(sessionId: string, prompt: readonly ContentBlock[]): Promise<SteerOutcome> {
    return this.sessions.steer(sessionId, prompt);
  }

  cancelToolCall(sessionId: string, toolCallId: string): Promise<void> {
    return this.sessions.cancelToolCall(sessionId, toolCallId);
  }

  cancelTerminal(sessionId: string, terminalId: string): Promise<void> {
    return this.sessions.cancelTerminal(sessionId, terminalId);
  }

  cancel(sessionId: string): Promise<void> {
    return this.sessions.cancel(sessionId);
  }

  setMode(sessionId: string, modeId: string): Promise<void> {
    return this.sessions.setMode(sessionId, modeId);
  }

  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SetSessionConfigOptionResponse> {
    return this.sessions.setConfigOption(sessionId, configId, value);
  }

  // ---- lifecycle ---------------------------------------------------------------------------------

  /** Stops the agent. Pending requests reject with ConnectionClosedError; onDidExit fires when it is gone. */
  dispose(): void {
    this.shutDown((method) => new ConnectionClosedError(this.agentName, method));
  }

  private handleExit(exit: AgentExit): void {
    const startError = this.process.startError;
    this.shutDown((method) => startError ?? new AgentExitedError(this.agentName, exit, method));
    this.exitEmitter.fire(exit);
  }

  /** Idempotent: rejects what is pending, stops host UIs and terminals, stops the process. */
  private shutDown(errorFor: (method: string) => Error): void {
    this.channel.close(errorFor, () => {
      this.pendingHost.abandonAll(new ClientRequestError(ErrorCodes.InternalError, 'The connection is closing'));
      this.terminals.releaseAll();
    });
    this.process.stop(this.options.stopGraceMs);
  }

  private log(text: string): void {
    this.options.log?.(`[${this.agentName}] ${text}`);
  }
}
