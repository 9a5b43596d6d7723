// Runs agent connections and keeps one session store per connection (live, history or an opened transcript).
// No `vscode` import: the editor UI is injected, so this whole layer is tested in Node against real agents.
import type { ContentBlock, PromptResponse } from '@agentclientprotocol/sdk/unstable';
import { AgentConnection, type AgentConnectionOptions } from '../acp/agentConnection';
import type { AgentConfig } from '../acp/agentProcess';
import type { ClientHost } from '../acp/clientHost';
import type { TerminalPolicy } from '../acp/terminalGate';
import { versionsToOffer, type ProtocolSetting } from '../acp/capabilities';
import { restartAfter, type Restart } from '../acp/protocolFallback';
import type { PromptDelegation } from '../acp/delegation';
import { ActionRefusedError, NotAdvertisedError } from '../acp/errors';
import { MemoryTranscript, type TranscriptRecorder } from '../acp/transcriptRecorder';
import { readWorkspaceText } from '../acp/confinedFs';
import { DiskSnapshots, pathsTouchedBy } from './diskSnapshots';
import type { HistoryConnectionMeta, SessionHistory } from '../history/sessionHistory';
import { isAgentAnswer, type ProtocolMemory } from './protocolMemory';
import { reattachMethod } from '../store/agentCapabilities';
import type { SessionAction, SessionView, StoreChange } from '../store/model';
import { SessionController, type SendOptions, type SendResult } from './sessionController';
import type { SessionItem } from '../store/sessionControls';
import { toReplaySnapshot, type ReplaySession } from '../store/replayReport';
import { SessionStore } from '../store/sessionStore';
import { eachLineInSlices, type SliceOptions } from '../store/linesInSlices';
import type { MemoryLimits } from '../store/memoryBounds';
import type { TextVault } from '../store/textSpill';
import { Emitter } from 'vscode-jsonrpc/node';
import { historyCut } from '../presentation';
import { AgentMethod } from '../protocol/acpMethods';
import { t } from '../presentation/l10n';

/** `history`: restored from storage after a reload; `transcript`: a file the user opened (read-only). */
export type RuntimeStatus = 'starting' | 'ready' | 'exited' | 'failed' | 'history' | 'transcript';

export interface ServiceDeps {
  readonly clientHost: (runtime: AgentRuntime) => ClientHost;
  readonly workspaceFolders: () => readonly string[];
  /** Every protocol message in both directions (the "Subchats Protocol" log). */
  readonly protocolLog?: (runtime: AgentRuntime, direction: 'client->agent' | 'agent->client', message: object) => void;
  readonly log?: (text: string) => void;
  readonly history?: SessionHistory;
  readonly initializeTimeoutMs?: () => number;
  /** Setting subchats.terminals (default `ask`). */
  readonly terminalPolicy?: () => TerminalPolicy;
  readonly maxLineBytes?: () => number;
  /** Setting subchats.protocolVersion: the ACP version to offer (`auto`: 2, then 1 when 2 fails). Default 1. */
  readonly protocolSetting?: () => ProtocolSetting;
  /** Under `auto`: which agents answered v1 before, so they are not started twice every time. */
  readonly protocolMemory?: ProtocolMemory;
  readonly now?: () => number;
  /** How long the agent may take to act on session/cancel before the user is told it has not (default 10 s). */
  readonly cancelConfirmMs?: number;
  /** Asks the user before a message is sent that the verdict says needs it (Copilot's background subagents). */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** The agent has not acted on a cancel the user sent: nothing changed since. */
  readonly onCancelUnconfirmed?: (runtime: AgentRuntime, session: SessionView) => void;
  /** A connection's store first dropped detail to stay in its memory bounds (once per connection). */
  readonly onMemoryBounded?: (runtime: AgentRuntime, notice: string) => void;
  /** Memory bounds for every connection's store (tests); the store's defaults otherwise. */
  readonly memoryLimits?: Partial<MemoryLimits>;
  /** Where a connection's store keeps the heads of long texts (store/textSpill.ts); without it all text stays in memory. */
  readonly textVault?: (connectionId: string) => ConnectionVault;
  /** Characters of message text a new connection's store keeps in memory (setting subchats.history.textInMemoryMegabytes). */
  readonly heldTextChars?: () => number;
}

/** A connection's text vault, removed with the connection. */
export type ConnectionVault = TextVault & { dispose(): Promise<void> };

/** How each connection's store is made: its memory bounds and its text vault. */
interface StoreSetup {
  readonly limits?: Partial<MemoryLimits>;
  readonly vault?: (connectionId: string) => ConnectionVault;
}

const DEFAULT_CANCEL_CONFIRM_MS = 10_000;

export class AgentRuntime {
  readonly store: SessionStore;
  readonly transcript = new MemoryTranscript(32 * 1024 * 1024);
  connection: AgentConnection | undefined;
  status: RuntimeStatus;
  error: string | undefined;
  /** Bytes of this connection's oldest history dropped to stay within subchats.history.maxMegabytes. */
  historyDroppedBytes = 0;
  persisted: (TranscriptRecorder & { close(): Promise<void> }) | undefined;
  /** Files as the agent first touched them (what Open Changes compares the disk with); none for history. */
  snapshots: DiskSnapshots | undefined;
  private readonly vault: ConnectionVault | undefined;

  constructor(
    readonly id: string,
    readonly agent: AgentConfig,
    readonly cwd: string,
    readonly startedAt: number,
    status: RuntimeStatus,
    now: () => number,
    setup: StoreSetup = {},
  ) {
    this.status = status;
    this.vault = setup.vault?.(id);
    this.store = new SessionStore({ now, ...(setup.limits ? { limits: setup.limits } : {}), ...(this.vault ? { textVault: this.vault } : {}) });
  }

  /** The connection is gone from the service: what its store kept on disk goes too. */
  dropStorage(): void {
    void this.vault?.dispose();
  }

  get live(): boolean {
    return this.status === 'ready' && this.connection !== undefined && !this.connection.isClosed;
  }

  get label(): string {
    return this.agent.name;
  }
}

export interface RuntimeChange {
  readonly runtime: AgentRuntime;
  readonly changes: readonly StoreChange[];
}

export interface ConnectionSnapshot {
  readonly id: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly status: RuntimeStatus;
  readonly error: string | null;
  readonly sessions: ReplaySession[];
  readonly diagnostics: ReturnType<typeof toReplaySnapshot>['diagnostics'];
}

export class SubchatsService {
  /** In the order the connections started (the tree's "appearance" order; see add). */
  private runtimes = new Map<string, AgentRuntime>();
  private disposed = false;
  private readonly runtimesEmitter = new Emitter<void>();
  private readonly sessionsEmitter = new Emitter<RuntimeChange>();
  private counter = 0;
  private readonly now: () => number;
  private readonly cancelWatches = new Set<ReturnType<typeof setTimeout>>();

  /** A connection was added, removed, or changed status. */
  readonly onDidChangeRuntimes = this.runtimesEmitter.event;
  /** Sessions of a connection changed (fired synchronously per ingested message). */
  readonly onDidChangeSessions = this.sessionsEmitter.event;

  /** Carries out the controller's verdicts: where each message goes, and each session's queue. */
  private readonly controller: SessionController;

  private get storeSetup(): StoreSetup {
    const held = this.deps.heldTextChars?.();
    const limits = { ...this.deps.memoryLimits, ...(held !== undefined ? { maxHeldTextChars: held } : {}) };
    return { limits, ...(this.deps.textVault ? { vault: this.deps.textVault } : {}) };
  }

  constructor(private readonly deps: ServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.controller = new SessionController({
      connection: (runtime) => this.liveConnection(this.require(runtime.id)),
      ...(deps.confirm ? { confirm: deps.confirm } : {}),
      ...(deps.log ? { log: deps.log } : {}),
      now: this.now,
    });
  }

  /** The connections in the order they started. */
  list(): AgentRuntime[] {
    return [...this.runtimes.values()];
  }

  get(connectionId: string): AgentRuntime | undefined {
    return this.runtimes.get(connectionId);
  }

  require(connectionId: string): AgentRuntime {
    const runtime = this.runtimes.get(connectionId);
    if (!runtime) throw new Error(`Unknown agent connection ${connectionId}`);
    return runtime;
  }

  /** How long a starting agent gets to answer `initialize` (setting subchats.initializeTimeoutSeconds). */
  get initializeTimeoutMs(): number | undefined {
    return this.deps.initializeTimeoutMs?.();
  }

  /** The ACP version(s) a start offers (setting `subchats.protocolVersion`). */
  get protocolSetting(): ProtocolSetting {
    return this.deps.protocolSetting?.() ?? 1;
  }

  /** A ready connection to this agent, if one is running. */
  liveRuntimeFor(agentId: string): AgentRuntime | undefined {
    return this.list().find((r) => r.agent.id === agentId && r.live);
  }

  /** Spawns and initializes the agent. The runtime is listed (as `starting`, then `ready` or `failed`) at once. */
  async start(agent: AgentConfig, cwd: string): Promise<AgentRuntime> {
    const runtime = this.add(new AgentRuntime(this.nextId(), agent, cwd, this.now(), 'starting', this.now, this.storeSetup));
    try {
      runtime.persisted = await this.deps.history?.startConnection(
        { id: runtime.id, agentId: agent.id, agentName: agent.name, startedAt: runtime.startedAt, cwd },
        (error) => this.deps.log?.(`History for ${agent.name} stopped: ${error.message}`),
        this.list().filter((r) => r.live || r.status === 'starting').map((r) => r.id),
      );
    } catch (error) {
      this.deps.log?.(`History is unavailable: ${(error as Error).message}`);
    }
    const snapshots = (runtime.snapshots = new DiskSnapshots((absolute, maxBytes) => readWorkspaceText(absolute, this.deps.workspaceFolders(), maxBytes)));
    const options: AgentConnectionOptions = {
      agent,
      beforeFileAccess: (sessionId, path) => snapshots.touch(sessionId, path),
      // A v2 agent writes its files itself once allowed: copy what its call named before the user can allow it.
      beforePermission: () => snapshots.settled(),
      cwd,
      host: this.deps.clientHost(runtime),
      workspaceFolders: this.deps.workspaceFolders,
      tap: (message, direction) => this.record(runtime, message, direction),
      onInvalidLine: (raw, reason) => this.deps.log?.(`[${agent.name}] skipped a line that is not JSON-RPC (${reason}): ${raw.slice(0, 200)}`),
      log: (text) => this.deps.log?.(`[${agent.name}] ${text}`),
      store: runtime.store,
      ...(this.deps.initializeTimeoutMs ? { initializeTimeoutMs: this.deps.initializeTimeoutMs() } : {}),
      ...(this.deps.terminalPolicy ? { terminalPolicy: this.deps.terminalPolicy } : {}),
      ...(this.deps.maxLineBytes ? { maxLineBytes: this.deps.maxLineBytes() } : {}),
    };
    const setting = this.protocolSetting;
    const preferred = setting === 'auto' && agent.prefersV1 !== undefined;
    const versions = preferred ? ([1, 2] as const) : (this.deps.protocolMemory?.versionsFor(agent, setting) ?? versionsToOffer(setting));
    if (preferred) this.deps.log?.(`[${agent.name}] offering ACP v1 first: ${agent.prefersV1} (subchats.protocolVersion "2" speaks v2)`);
    else if (versions[0] !== versionsToOffer(setting)[0]) {
      this.deps.log?.(`[${agent.name}] answered ACP v1 to an offer of v2 before; offering v1 first (a new version of it is offered v2 again)`);
    }
    let answeredOfferOf2 = false;
    try {
      for (let attempt = 0; ; attempt++) {
        const offered = versions[attempt]!;
        const connection = this.spawnConnection(runtime, { ...options, protocolVersion: offered });
        let restart: Restart | undefined;
        try {
          await connection.initialize();
          answeredOfferOf2 ||= offered === 2;
          restart = restartAfter(versions, attempt, { answered: connection.protocolVersion });
        } catch (error) {
          answeredOfferOf2 ||= offered === 2 && isAgentAnswer(error);
          restart = restartAfter(versions, attempt, { error });
          if (!restart) throw error;
        }
        if (restart) {
          this.deps.log?.(`[${agent.name}] ${restart.why}`);
          connection.dispose();
          continue;
        }
        // Remembering is a convenience: a failed write must not fail an agent that started.
        const outcome = { offered: versions, answered: connection.protocolVersion, agentVersion: connection.agentInfo?.version ?? null, answeredOfferOf2 };
        this.deps.protocolMemory?.noteStart(agent, setting, outcome).catch((error: unknown) => this.deps.log?.(`Could not remember the ACP version of ${agent.name}: ${String(error)}`));
        break;
      }
      runtime.status = 'ready';
    } catch (error) {
      runtime.status = 'failed';
      runtime.error = (error as Error).message;
      runtime.connection?.dispose();
      runtime.store.markDisconnected();
      this.runtimesEmitter.fire();
      throw error;
    }
    this.runtimesEmitter.fire();
    return runtime;
  }

  /** One agent process for the runtime; an earlier one it replaced (a version fallback) no longer speaks for it. */
  private spawnConnection(runtime: AgentRuntime, options: AgentConnectionOptions): AgentConnection {
    const { agent } = runtime;
    const connection = AgentConnection.spawn(options);
    runtime.connection = connection;
    connection.onStderr((text) => this.deps.log?.(`[${agent.name} stderr] ${text.trimEnd()}`));
    connection.onDidExit((exit) => {
      if (runtime.connection !== connection) return;
      runtime.store.markDisconnected();
      if (runtime.status === 'ready' || runtime.status === 'starting') {
        runtime.status = runtime.status === 'starting' ? 'failed' : 'exited';
        runtime.error =
          runtime.store.memoryOverrun ?? (exit.stderrTail ? `${exit.description}: ${exit.stderrTail.trim().split('\n').slice(-3).join(' ')}` : exit.description);
      }
      void runtime.persisted?.close();
      this.runtimesEmitter.fire();
    });
    return connection;
  }

  async newSession(runtime: AgentRuntime, cwd = runtime.cwd): Promise<string> {
    const connection = this.liveConnection(runtime);
    const response = await connection.newSession(cwd);
    return response.sessionId;
  }

  /**
   * Sends the user's message (text, or content blocks built by promptContent) the way the session's verdict says:
   * a prompt, a steer of its running turn, its queue, or for a subagent a relay through its parent. Refuses (with
   * the reason) what the session cannot take, and content the agent did not opt in to, before anything is sent.
   */
  async send(connectionId: string, sessionId: string, content: string | readonly ContentBlock[], options: SendOptions = {}): Promise<SendResult> {
    return this.controller.send(this.require(connectionId), sessionId, content, options);
  }

  /** Takes a queued message back before it is sent; false when it is no longer queued. */
  unqueue(connectionId: string, sessionId: string, queuedId: string): boolean {
    return this.controller.unqueue(this.require(connectionId), sessionId, queuedId);
  }

  /** Sends a prompt now and resolves with its turn's end; refuses unless the session's verdict is a prompt now. */
  async prompt(connectionId: string, sessionId: string, content: string | readonly ContentBlock[], delegation?: PromptDelegation): Promise<PromptResponse> {
    const runtime = this.require(connectionId);
    const verdict = runtime.store.actionsFor(sessionId);
    // A session that takes no prompts (a subagent) says why, not where a message would go instead.
    if (!verdict.prompt.allowed) throw new ActionRefusedError(sessionId, 'prompt', verdict.prompt.reason ?? 'not allowed');
    if (verdict.send.route !== 'prompt') {
      throw new ActionRefusedError(sessionId, 'prompt', verdict.send.route === 'refuse' ? verdict.send.reason : `a message now would not be a prompt (${verdict.send.reason})`);
    }
    const result = await this.controller.send(runtime, sessionId, content, delegation ? { delegation } : {});
    return result.turn!;
  }

  /** Sends session/cancel; if the agent has not acted on it after a while, says so (a cancel that changes nothing). */
  async cancel(connectionId: string, sessionId: string): Promise<void> {
    const runtime = this.require(connectionId);
    this.check(runtime, sessionId, 'cancel');
    await this.liveConnection(runtime).cancel(sessionId);
    this.watchCancel(runtime, sessionId);
  }

  /** ACP v2 `tool_call/cancel` or `terminal/cancel` for one item that grants cancel; refuses (with the reason) otherwise. */
  async cancelItem(connectionId: string, sessionId: string, item: SessionItem): Promise<void> {
    const runtime = this.require(connectionId);
    const connection = this.liveConnection(runtime);
    if ('toolCallId' in item) await connection.cancelToolCall(sessionId, item.toolCallId);
    else await connection.cancelTerminal(sessionId, item.terminalId);
  }

  private watchCancel(runtime: AgentRuntime, sessionId: string): void {
    const requestedAt = runtime.store.getSession(sessionId)?.cancelRequestedAt;
    if (requestedAt === null || requestedAt === undefined || !this.deps.onCancelUnconfirmed) return;
    const timer = setTimeout(() => {
      this.cancelWatches.delete(timer);
      const session = runtime.store.getSession(sessionId);
      // Any state change clears cancelRequestedAt: the agent acted (or a newer cancel is being watched).
      if (!runtime.live || !session || session.cancelRequestedAt !== requestedAt) return;
      const seconds = Math.round((this.deps.cancelConfirmMs ?? DEFAULT_CANCEL_CONFIRM_MS) / 1000);
      runtime.store.noteClientFact(sessionId, 'Cancel not acted on', `The agent has not acted on the cancel sent ${seconds} s ago. You can wait, or stop the agent process.`);
      this.deps.onCancelUnconfirmed?.(runtime, session);
    }, this.deps.cancelConfirmMs ?? DEFAULT_CANCEL_CONFIRM_MS);
    this.cancelWatches.add(timer);
  }

  /** Cancels every descendant that accepts cancel; reports the ones that do not, with why. */
  async cancelChildren(connectionId: string, sessionId: string): Promise<{ cancelled: string[]; refused: { title: string; reason: string }[] }> {
    const runtime = this.require(connectionId);
    const cancelled: string[] = [];
    const refused: { title: string; reason: string }[] = [];
    for (const child of runtime.store.subtree(sessionId).slice(1)) {
      if (child.state.state !== 'running' && child.state.state !== 'requires_action') continue;
      const actions = runtime.store.actionsFor(child.id);
      // Already stopping (a cancel of its parent, sent just now, covers it): neither cancelled again nor refused.
      if (actions.phase === 'cancelling') continue;
      const verdict = actions.cancel;
      if (!verdict.allowed) {
        refused.push({ title: child.label, reason: verdict.reason ?? t('not allowed') });
        continue;
      }
      await this.liveConnection(runtime).cancel(child.id);
      cancelled.push(child.id);
    }
    return { cancelled, refused };
  }

  /** Mode and config changes are session controls: only for sessions that take prompts (never children). */
  async changeSetting(connectionId: string, sessionId: string, change: { kind: 'mode'; modeId: string } | { kind: 'option'; configId: string; value: string | boolean }): Promise<void> {
    const runtime = this.require(connectionId);
    this.check(runtime, sessionId, 'changeSetting');
    const connection = this.liveConnection(runtime);
    if (change.kind === 'mode') await connection.setMode(sessionId, change.modeId);
    else await connection.setConfigOption(sessionId, change.configId, change.value);
  }

  async close(connectionId: string, sessionId: string): Promise<void> {
    const runtime = this.require(connectionId);
    this.check(runtime, sessionId, 'close');
    await this.liveConnection(runtime).closeSession(sessionId);
  }

  /**
   * Loads a subagent's own session (the id its agent named: opencode's task child) to show its whole
   * transcript; the loaded session takes the subagent's row. Returns that session's id.
   */
  async openSubagentSession(connectionId: string, sessionId: string): Promise<string> {
    const runtime = this.require(connectionId);
    this.check(runtime, sessionId, 'openSubagent');
    const ownId = runtime.store.getSession(sessionId)?.remoteSessionId;
    if (!ownId) throw new ActionRefusedError(sessionId, 'open the session of', 'the agent has not named its own session');
    await this.liveConnection(runtime).loadSession(ownId, runtime.store.effectiveCwd(sessionId) ?? runtime.cwd);
    return ownId;
  }

  /** Starts the same agent again in a new connection; the old one stays listed with its sessions. */
  /** `agent`: the agent's current configuration (settings may have changed since it started). */
  async restart(connectionId: string, agent?: AgentConfig): Promise<AgentRuntime> {
    const old = this.require(connectionId);
    if (old.connection && !old.connection.isClosed) old.connection.dispose();
    return this.start(agent ?? old.agent, old.cwd);
  }

  /** Reattaches to a root session of a finished connection via session/load (replay) or session/resume. */
  async reconnect(connectionId: string, sessionId: string, agent: AgentConfig): Promise<AgentRuntime> {
    const old = this.require(connectionId);
    const runtime = this.liveRuntimeFor(agent.id) ?? (await this.start(agent, old.cwd));
    await this.attach(runtime, sessionId, old.store.getSession(sessionId)?.cwd ?? old.cwd);
    return runtime;
  }

  /** Attaches a live connection to a stored root session: session/load (replays history) or session/resume. */
  async attach(runtime: AgentRuntime, sessionId: string, cwd: string): Promise<void> {
    const connection = this.liveConnection(runtime);
    const method = reattachMethod(connection.agentCapabilities, connection.protocolVersion);
    if (method === AgentMethod.sessionLoad) await connection.loadSession(sessionId, cwd);
    else if (method === AgentMethod.sessionResume) await connection.resumeSession(sessionId, cwd);
    else throw new NotAdvertisedError(runtime.agent.name, AgentMethod.sessionLoad, 'the agent supports neither session/load nor session/resume');
  }

  /**
   * Adds a connection restored from history: its sessions show their last state, live ones as disconnected. It
   * replays in slices (see eachLineInSlices), so a long history does not hold up the extension host.
   */
  async addHistory(meta: HistoryConnectionMeta, text: string, slices?: SliceOptions): Promise<AgentRuntime | undefined> {
    // History loads in the background: a connection started meanwhile already owns its id.
    if (this.runtimes.has(meta.id)) return undefined;
    const runtime = new AgentRuntime(meta.id, { id: meta.agentId, name: meta.agentName, command: '' }, meta.cwd, meta.startedAt, 'history', this.now, this.storeSetup);
    await replayInSlices(runtime, text, slices);
    if (this.runtimes.has(meta.id) || this.disposed) {
      runtime.dropStorage();
      return undefined;
    }
    runtime.store.markDisconnected();
    runtime.historyDroppedBytes = meta.droppedBytes ?? 0;
    const cut = historyCut(runtime.historyDroppedBytes);
    if (cut) runtime.store.markHistoryCut(`Earlier messages are missing: ${cut}`, 'The history did not fit subchats.history.maxMegabytes; turn ends and state changes were kept, so the states shown are the final ones.');
    return this.add(runtime);
  }

  /**
   * Opens a transcript file as a read-only connection (`id` keeps a reopened one's id across reloads). It replays
   * in slices, as history does; a connection that took the id meanwhile (or a disposed service) keeps it.
   */
  async openTranscript(name: string, text: string, id = this.nextId(), slices?: SliceOptions): Promise<AgentRuntime> {
    const runtime = new AgentRuntime(id, { id: `transcript:${name}`, name, command: '' }, '', this.now(), 'transcript', this.now, this.storeSetup);
    await replayInSlices(runtime, text, slices);
    const taken = this.runtimes.get(id);
    if (taken) {
      runtime.dropStorage();
      return taken;
    }
    runtime.store.markDisconnected();
    return this.disposed ? runtime : this.add(runtime);
  }

  /** Stops the agent process (e.g. one that ignores session/cancel); its sessions stay, shown disconnected. */
  stop(connectionId: string): void {
    this.require(connectionId).connection?.dispose();
  }

  remove(connectionId: string): void {
    const runtime = this.runtimes.get(connectionId);
    if (!runtime) return;
    runtime.connection?.dispose();
    runtime.dropStorage();
    this.runtimes.delete(connectionId);
    this.runtimesEmitter.fire();
  }

  /** The public snapshot: per connection, sessions in the `subchats replay --json` shape. */
  snapshot(): ConnectionSnapshot[] {
    return this.list().map((runtime) => {
      const replay = toReplaySnapshot(runtime.store);
      return {
        id: runtime.id,
        agentId: runtime.agent.id,
        agentName: runtime.agent.name,
        status: runtime.status,
        error: runtime.error ?? null,
        sessions: replay.sessions,
        diagnostics: replay.diagnostics,
      };
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.cancelWatches) clearTimeout(timer);
    this.cancelWatches.clear();
    for (const runtime of this.runtimes.values()) {
      runtime.connection?.dispose();
      void runtime.persisted?.close();
      runtime.dropStorage();
    }
    this.runtimesEmitter.dispose();
    this.sessionsEmitter.dispose();
  }

  private add(runtime: AgentRuntime): AgentRuntime {
    const last = [...this.runtimes.values()].at(-1);
    this.runtimes.set(runtime.id, runtime);
    // History replays newest first: one restored after a later connection goes back to its place in start order,
    // here once rather than at every list().
    if (last && last.startedAt > runtime.startedAt) this.runtimes = new Map([...this.runtimes].sort(([, a], [, b]) => a.startedAt - b.startedAt));
    // The store's memory notices, each passed on once (a replayed history may have passed a bound already).
    const tell = (notice: string) => {
      this.deps.log?.(`[${runtime.agent.name}] ${notice}`);
      this.deps.onMemoryBounded?.(runtime, notice);
    };
    const tellBounds = once(() => runtime.store.boundsNotice, tell);
    // An agent that passes a bound twice over with nothing left to drop announces without end: stop it.
    const stopOnOverrun = once(
      () => runtime.store.memoryOverrun,
      (overrun) => {
        tell(overrun);
        // Not from inside the store's change event (the connection is reading the message that passed the bound).
        setImmediate(() => runtime.connection?.dispose());
      },
    );
    runtime.store.onDidChange((changes) => {
      this.controller.drain(runtime, new Set(changes.map((change) => change.sessionId)));
      this.sessionsEmitter.fire({ runtime, changes });
      tellBounds();
      stopOnOverrun();
    });
    tellBounds();
    stopOnOverrun();
    this.runtimesEmitter.fire();
    return runtime;
  }

  /** Each wire message as it passes, before the store reacts to it: the transcripts and the protocol log. */
  private record(runtime: AgentRuntime, message: object, direction: 'client->agent' | 'agent->client'): void {
    runtime.transcript.record(message, direction);
    // A file the message names is copied before the agent (most likely) changes it; the copy is taken in the background.
    if (runtime.snapshots) for (const touch of pathsTouchedBy(message, direction, (id) => runtime.store.effectiveCwd(id) ?? runtime.cwd)) void runtime.snapshots.touch(touch.sessionId, touch.path);
    runtime.persisted?.record(message, direction);
    this.deps.protocolLog?.(runtime, direction, message);
  }

  private check(runtime: AgentRuntime, sessionId: string, action: SessionAction): void {
    const verdict = runtime.store.actionsFor(sessionId)[action];
    if (!verdict.allowed) {
      throw new ActionRefusedError(sessionId, action, verdict.reason ?? 'not allowed');
    }
  }

  private liveConnection(runtime: AgentRuntime): AgentConnection {
    if (!runtime.live || !runtime.connection) {
      throw new Error(`${runtime.agent.name} is not connected${runtime.error ? ` (${runtime.error})` : ''}. Restart the agent first.`);
    }
    return runtime.connection;
  }

  private nextId(): string {
    this.counter++;
    return `c${this.now().toString(36)}${this.counter}`;
  }
}

/** A check to run after each change that acts the first time `notice` has something to say, and never again. */
function once(notice: () => string | undefined, act: (text: string) => void): () => void {
  let done = false;
  return () => {
    const text = notice();
    if (done || text === undefined) return;
    done = true;
    act(text);
  };
}

/** Replays recorded lines into a connection's store and transcript, in slices (see eachLineInSlices). */
function replayInSlices(runtime: AgentRuntime, text: string, slices: SliceOptions | undefined): Promise<void> {
  return eachLineInSlices(
    text,
    (line, lineNumber) => {
      runtime.store.ingestLine(line, lineNumber);
      // Blank lines (a trailing newline, a hand-edited file) are not messages.
      if (line.trim()) runtime.transcript.recordLine(line);
    },
    slices,
  );
}
