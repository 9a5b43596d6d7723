// The demo agent's ACP methods: connection setup, sessions, prompts and cancellation.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { version } from '../../package.json';
import { parseRelayText } from '../protocol/relayText';
import type { CancellableItem, ChildBody, ChildRegistration, ClientFeatures, RunContext, StateReport, SteerReader } from './actor';
import { Actor } from './actor';
import { CancelScope } from './cancelScope';
import type { Channel, ChildLink, ChildMessaging, StampInfo, Update } from './channel';
import { demoCost, textBlock } from './channel';
import type { ActiveTurn, DemoSession } from './demoSession';
import { applyConfigOption, configOptions, createSession, modeState, sessionInfo, setMode, titleFrom } from './demoSession';
import type { Dialect } from './dialects';
import { createDialect } from './dialects';
import type { Json, JsonObject, LineRpc } from './lineRpc';
import { ErrorCodes, RpcError, isObject } from './lineRpc';
import { dialectSpeaksV2, type DemoOptions, type DialectName } from './options';
import type { Delegation, TurnSettings } from './script';
import { SUBAGENT_CATALOG, demoTurn, describeReceived, longTurn, parseDelegation, quickTurn, receivedTurn } from './script';
import { SteerInbox } from './steerInbox';
import { type RelayTarget, STEERING_METHOD, answerAsChild, answerMessage, parseSteerRequest } from './steering';
import { toV2ConfigOptions, toV2Permission, toV2Updates } from './v2Wire';

/** The demo agent ships with the extension and shares its version. */
export const DEMO_AGENT_VERSION = version;

export interface AgentEnvironment {
  readonly options: DemoOptions;
  log(message: string): void;
  /** How `/crash` ends the process. */
  exit(code: number): void;
}

const SPECIAL_COMMANDS = [
  { name: 'quick', description: 'Short answer: no tools, no subagents' },
  { name: 'long', description: 'Stream a very long answer (until cancelled)' },
  { name: 'crash', description: 'Exit the agent process mid-stream (exit code 1)' },
  { name: 'hang', description: 'Never answer this prompt' },
  { name: 'error', description: 'Answer the prompt with a JSON-RPC error' },
  { name: 'slow', description: 'Keep the demo command running until it is cancelled' },
];

/** What a v2 client gets when it calls a method v2 removed. */
const V1_ONLY = (method: string) => new RpcError(ErrorCodes.methodNotFound, `Method not found: ${method} (not part of ACP v2)`);

const NO_CLIENT_FEATURES: ClientFeatures = { readTextFile: false, writeTextFile: false, terminal: false };

export class DemoAgent {
  private client = NO_CLIENT_FEATURES;
  private clientSubagents = false;
  /** Copilot dialect: the sessionEvent types the client asked for. */
  private copilotEvents = new Set<string>();
  private booleanConfig = false;
  private readonly sessions = new Map<string, DemoSession>();
  /** Every child session id seen, with its root session (children are not ordinary sessions). */
  private readonly childRoots = new Map<string, string>();
  /** Children the client may cancel on their own. */
  private readonly cancelTargets = new Map<string, CancelScope>();
  /** Children a relay can reach on the wire (acp: own session ids), by session id. */
  private readonly messageableChildren = new Map<string, { readonly channel: Channel; readonly messaging: ChildMessaging; readonly steers: SteerInbox; ended: boolean }>();
  /** v2 tool calls and agent terminals the client may cancel alone, by `tool:<id>` / `terminal:<id>`. */
  private readonly itemCancels = new Map<string, CancelScope>();
  /** The ACP version answered in initialize. */
  private speaks: 1 | 2 = 1;
  private counter = 0;

  constructor(
    private readonly rpc: LineRpc,
    private readonly env: AgentEnvironment,
  ) {
    rpc.onRequest('initialize', (params) => this.initialize(params));
    rpc.onRequest('authenticate', () => ({}));
    rpc.onRequest('session/new', (params) => this.newSession(params));
    rpc.onRequest('session/load', (params) => {
      if (this.speaks === 2) throw V1_ONLY('session/load');
      return this.loadSession(params);
    });
    rpc.onRequest('session/resume', (params) => this.resumeSession(params));
    rpc.onRequest('session/list', (params) => this.listSessions(params));
    rpc.onRequest('session/close', (params) => this.closeSession(params));
    rpc.onRequest('session/set_mode', (params) => {
      if (this.speaks === 2) throw V1_ONLY('session/set_mode');
      return this.setMode(params);
    });
    rpc.onRequest('tool_call/cancel', (params) => this.cancelItem(`tool:${String(params.toolCallId)}`));
    rpc.onRequest('terminal/cancel', (params) => this.cancelItem(`terminal:${String(params.terminalId)}`));
    rpc.onRequest('session/set_config_option', (params) => this.setConfigOption(params));
    rpc.onRequest('session/prompt', (params, id) => this.prompt(params, id));
    // Off: the method is unknown (-32601), as at claude-agent-acp's v2.
    if (env.options.steering) rpc.onRequest(STEERING_METHOD, (params) => this.steer(params));
    rpc.onNotification('session/cancel', (params) => this.cancel(params.sessionId));
    rpc.onNotification('$/cancel_request', (params) => this.cancelRequest(params.requestId));
  }

  /** Subagent dialect on the wire: plain `acp` falls back to Claude-style stamps when the client has no `subagents`. */
  private get dialectName(): DialectName {
    const chosen = this.env.options.dialect;
    return chosen === 'acp' && !this.clientSubagents ? 'claude' : chosen;
  }

  private initialize(params: JsonObject): JsonObject {
    const protocol = this.env.options.protocol;
    this.speaks = protocol === 'auto' ? (params.protocolVersion === 2 && dialectSpeaksV2(this.env.options.dialect) ? 2 : 1) : protocol;
    const result = this.speaks === 2 ? this.initializeV2(params) : this.initializeV1(params);
    return this.env.options.steering ? withSteeringAdvertised(result) : result;
  }

  private initializeV1(params: JsonObject): JsonObject {
    const caps = isObject(params.clientCapabilities) ? params.clientCapabilities : {};
    const fs = isObject(caps.fs) ? caps.fs : {};
    this.client = { readTextFile: fs.readTextFile === true, writeTextFile: fs.writeTextFile === true, terminal: caps.terminal === true };
    this.clientSubagents = isObject(caps.subagents);
    const meta = isObject(caps._meta) ? caps._meta : {};
    const copilot = isObject(meta['github.com/copilot']) ? meta['github.com/copilot'] : {};
    this.copilotEvents = new Set(Array.isArray(copilot.events) ? copilot.events.filter((e): e is string => typeof e === 'string') : []);
    const session = isObject(caps.session) ? caps.session : {};
    this.booleanConfig = isObject(session.configOptions) && isObject(session.configOptions.boolean);
    const sessionCapabilities: JsonObject = { list: {}, resume: {}, close: {} };
    if (this.env.options.dialect === 'kind-subagent') sessionCapabilities.subagents = { promptDelegation: {}, background: {} };
    return {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities,
      },
      authMethods: [],
      agentInfo: { name: 'subchats-demo-agent', title: 'Subchats demo agent', version: DEMO_AGENT_VERSION },
    };
  }

  /** v2: subagents are baseline, the agent owns its terminals and reads and writes its files itself. */
  private initializeV2(params: JsonObject): JsonObject {
    this.client = { ...NO_CLIENT_FEATURES, agentTerminal: true, agentFiles: true };
    this.clientSubagents = true;
    const caps = isObject(params.capabilities) ? params.capabilities : {};
    this.booleanConfig = isObject(caps.session) && isObject(caps.session.configOptions);
    return {
      protocolVersion: 2,
      info: { name: 'subchats-demo-agent', title: 'Subchats demo agent', version: DEMO_AGENT_VERSION },
      capabilities: { session: { prompt: { embeddedContext: {} } } },
      authMethods: [],
    };
  }

  private newSession(params: JsonObject): JsonObject {
    const cwd = typeof params.cwd === 'string' && params.cwd ? params.cwd : process.cwd();
    const session = createSession(this.newId('demo-'), cwd);
    this.sessions.set(session.id, session);
    // After the response, so the client knows the session id first.
    setImmediate(() => this.announceSessionExtras(session));
    const result: JsonObject = { sessionId: session.id, ...this.sessionSetup(session) };
    if (this.env.options.dialect === 'kind-subagent') result.availableSubagents = catalog();
    return result;
  }

  private sessionSetup(session: DemoSession): JsonObject {
    if (this.speaks === 2) return { configOptions: toV2ConfigOptions(configOptions(session, this.booleanConfig)) };
    return { modes: modeState(session), configOptions: configOptions(session, this.booleanConfig) };
  }

  private announceSessionExtras(session: DemoSession): void {
    if (!this.sessions.has(session.id)) return;
    const channel = this.rootChannel(session);
    this.send(channel, { sessionUpdate: 'available_commands_update', availableCommands: SPECIAL_COMMANDS.map((command) => ({ ...command, input: null })) });
    if (this.env.options.dialect === 'kind-subagent') this.send(channel, { sessionUpdate: 'available_subagents_update', availableSubagents: catalog() });
  }

  private loadSession(params: JsonObject): JsonObject {
    const id = params.sessionId;
    const childRoot = typeof id === 'string' ? this.childRoots.get(id) : undefined;
    if (childRoot !== undefined) {
      // Only Zed's convention loads a child to read its transcript; the ACP subagent design forbids it.
      if (this.dialectName !== 'zed') throw new RpcError(ErrorCodes.invalidParams, 'A subagent session cannot be loaded; load its parent');
      const root = this.sessions.get(childRoot);
      for (const entry of root?.history ?? []) if (entry.sessionId === id) this.rpc.notify('session/update', entry);
      return {};
    }
    const session = this.requireSession(id);
    for (const entry of session.history) this.rpc.notify('session/update', entry);
    return this.sessionSetup(session);
  }

  private resumeSession(params: JsonObject): JsonObject {
    const session = this.requireSession(params.sessionId);
    if (this.speaks === 2) {
      // v2 replays on request, then reports the current state before answering.
      if (isObject(params.replayFrom)) for (const entry of session.history) this.rpc.notify('session/update', entry);
      this.rpc.notify('session/update', { sessionId: session.id, update: { sessionUpdate: 'state_update', state: session.activeTurn ? 'running' : 'idle' } });
    }
    return this.sessionSetup(session);
  }

  private listSessions(params: JsonObject): JsonObject {
    const cwd = typeof params.cwd === 'string' ? params.cwd : undefined;
    const sessions = [...this.sessions.values()]
      .filter((session) => cwd === undefined || path.resolve(session.cwd) === path.resolve(cwd))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .map(sessionInfo);
    return { sessions };
  }

  private closeSession(params: JsonObject): JsonObject {
    const session = this.requireSession(params.sessionId);
    for (const scope of session.liveScopes) scope.cancel();
    this.sessions.delete(session.id);
    return {};
  }

  private setMode(params: JsonObject): JsonObject {
    const session = this.requireSession(params.sessionId);
    setMode(session, params.modeId);
    this.announceMode(session, true);
    return {};
  }

  private setConfigOption(params: JsonObject): JsonObject {
    const session = this.requireSession(params.sessionId);
    const modeChanged = applyConfigOption(session, params.configId, params.value, this.booleanConfig);
    if (modeChanged) this.announceMode(session, false);
    const options = configOptions(session, this.booleanConfig);
    return { configOptions: this.speaks === 2 ? toV2ConfigOptions(options) : options };
  }

  /** Keeps the mode and the `mode` config option in step on the client. */
  private announceMode(session: DemoSession, withConfig: boolean): void {
    const channel = this.rootChannel(session);
    this.send(channel, { sessionUpdate: 'current_mode_update', currentModeId: session.modeId });
    if (withConfig) this.send(channel, { sessionUpdate: 'config_option_update', configOptions: configOptions(session, this.booleanConfig) });
  }

  private async prompt(params: JsonObject, requestId: number | string): Promise<Json> {
    const session = this.requireSession(params.sessionId);
    if (session.activeTurn) throw new RpcError(ErrorCodes.invalidParams, 'A prompt is already running in this session');
    const blocks = Array.isArray(params.prompt) ? params.prompt.filter((block): block is JsonObject => isObject(block)) : [];
    const text = blocks.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
    const messageId = this.newId('msg_user_');
    // Recorded (not sent): a session/load replays the user's side too (v2 sends its echo, which is recorded).
    if (this.speaks === 1) for (const block of blocks) this.recordUnsent(session, { sessionUpdate: 'user_message_chunk', messageId, content: block });

    if (/(^|\s)\/hang\b/.test(text)) return new Promise<Json>(() => undefined);
    if (/(^|\s)\/error\b/.test(text)) throw new RpcError(ErrorCodes.internalError, 'Demo agent error (requested by /error)');

    const start: TurnStart = { text, delegation: parseDelegation(params.delegation), body: (turn) => this.promptBody(session, blocks, text, turn) };
    if (this.speaks === 2) {
      // v2: the prompt is acknowledged once inserted (echoed with its messageId); the turn ends with idle.
      this.send(this.rootChannel(session), { sessionUpdate: 'user_message', messageId, content: blocks });
      this.runDetached(session, this.beginTurn(session, requestId), start);
      return { messageId };
    }
    const outcome = await this.runTurn(session, this.beginTurn(session, requestId), start);
    if (outcome.stopReason === 'error') throw new RpcError(ErrorCodes.internalError, outcome.reply);
    return { stopReason: outcome.stopReason, usage: { ...outcome.usage } };
  }

  /** What the root does for a prompt: pass on a relay, describe attachments, a special command, or the tour. */
  private promptBody(session: DemoSession, blocks: readonly JsonObject[], text: string, turn: TurnSettings): ChildBody {
    const received = describeReceived(blocks);
    if (parseRelayText(text)) return (a) => this.answerMessage(session, a, text);
    if (received.length > 0) return (a) => receivedTurn(a, received);
    if (/(^|\s)\/crash\b/.test(text)) return (a) => this.crash(a);
    if (/(^|\s)\/long\b/.test(text)) return longTurn;
    if (/(^|\s)\/quick\b/.test(text)) return quickTurn;
    return (a) => demoTurn(a, turn);
  }

  /**
   * `_session/steering`: joins the running turn (read at its next step), or with none running starts a short
   * turn of its own, unless the client asked to be told to send a prompt instead.
   */
  private steer(params: JsonObject): JsonObject {
    const session = this.requireSession(params.sessionId, 'A subagent cannot be steered: steer the root session (ACP gives clients no way to message a subagent)');
    const request = parseSteerRequest(params);
    if (session.activeTurn) {
      session.activeTurn.steers.post(request.text);
      return { outcome: 'injected' };
    }
    if (request.promptRequired) return { outcome: 'promptRequired', reason: 'noRunningTurn' };
    // The turn counts as running at once (a second steer joins it); it starts after this answer, as the adapters do.
    const active = this.beginTurn(session);
    setImmediate(() => {
      if (this.sessions.has(session.id)) this.runDetached(session, active, { text: request.text, body: () => (a) => this.landSteer(session, a, request.text) });
    });
    return { outcome: 'startedNewTurn' };
  }

  /** A steer as the root reads it: shown as the user's message (v2), then answered or passed on. */
  private landSteer(session: DemoSession, actor: Actor, text: string): Promise<string> {
    const echo: Update = { sessionUpdate: 'user_message_chunk', messageId: this.newId('msg_user_'), content: textBlock(text) };
    // Like codex-acp: v2 shows the steer when it lands, with a messageId of its own; v1 sends nothing of it.
    if (this.speaks === 2) actor.emit(echo);
    else this.recordUnsent(session, echo);
    return this.answerMessage(session, actor, text);
  }

  /** The root's answer to a steer or a relay: quoted, or passed on to the subagent it names. */
  private answerMessage(session: DemoSession, actor: Actor, text: string): Promise<string> {
    return answerMessage(actor, text, (childId) => this.relayTarget(session, childId));
  }

  /** The subagent of this root that a relay names, and whether the root can message it on the wire. */
  private relayTarget(session: DemoSession, childId: string): RelayTarget {
    const child = this.messageableChildren.get(childId);
    if (child?.channel.rootSessionId === session.id) return { kind: 'session', ...child };
    // The client's id for a child that has no session of its own (claude, qwen, copilot): `<parent>#<tool call>`.
    if (this.childRoots.get(childId) === session.id || childId.startsWith(`${session.id}#`)) return { kind: 'named' };
    return { kind: 'unknown' };
  }

  /** A v1 update kept for session/load without being sent (the user's side of the transcript). */
  private recordUnsent(session: DemoSession, update: Update): void {
    session.history.push({ sessionId: session.id, update });
  }

  private beginTurn(session: DemoSession, requestId?: number | string): ActiveTurn {
    const active: ActiveTurn = { scope: new CancelScope(), requestId, steers: new SteerInbox() };
    session.activeTurn = active;
    session.liveScopes.add(active.scope);
    return active;
  }

  /** A turn no request waits for (every v2 prompt, a steer while idle): at v2 an idle state_update ends it. */
  private runDetached(session: DemoSession, active: ActiveTurn, start: TurnStart): void {
    const end = (outcome: TurnOutcome): void => {
      if (this.speaks === 2) this.endV2Turn(session, outcome);
      else if (outcome.stopReason === 'error') this.env.log(`turn failed: ${outcome.reply}`);
    };
    void this.runTurn(session, active, start).then(end, (error: unknown) => end({ stopReason: 'error', reply: error instanceof Error ? error.message : String(error) }));
  }

  private endV2Turn(session: DemoSession, outcome: TurnOutcome): void {
    const state: JsonObject = { sessionUpdate: 'state_update', state: 'idle', stopReason: outcome.stopReason };
    if (outcome.stopReason === 'error') state.error = { code: ErrorCodes.internalError, message: outcome.reply };
    if (outcome.usage) state.usage = outcome.usage;
    this.send(this.rootChannel(session), state as JsonObject & { sessionUpdate: string });
  }

  /** Runs one scripted turn to its outcome (the root's usage counted). */
  private async runTurn(session: DemoSession, active: ActiveTurn, start: TurnStart): Promise<Required<TurnOutcome>> {
    const { scope } = active;
    const channel = this.rootChannel(session);
    if (this.speaks === 2) this.send(channel, { sessionUpdate: 'state_update', state: 'running' });
    session.title ??= titleFrom(start.text);
    session.updatedAt = new Date().toISOString();
    this.send(channel, { sessionUpdate: 'session_info_update', title: session.title, updatedAt: session.updatedAt });

    const turn: TurnSettings = {
      cwd: session.cwd,
      mode: session.modeId,
      showThoughts: session.showThoughts,
      alwaysAllowed: session.alwaysAllowed,
      childDuration: this.env.options.childDuration,
      delegation: start.delegation,
      slowCommand: /(^|\s)\/slow\b/.test(start.text),
    };
    // v2: the agent reports its own work state (waiting on the user, running again); v1 clients infer it.
    const ownState: StateReport | undefined = this.speaks === 2 ? { setState: (state) => this.send(channel, { sessionUpdate: 'state_update', state }), progress: () => undefined } : undefined;
    const steers: SteerReader = { inbox: active.steers, land: (actor, text) => this.landSteer(session, actor, text) };
    const actor = new Actor(this.runContext(session), channel, scope, ownState, steers);
    const background = start.delegation?.runMode === 'background';
    const outcome = await actor.run(start.body(turn), !background);

    session.activeTurn = undefined;
    void actor.settleChildren().then(() => session.liveScopes.delete(scope));
    const usage = outcome.usage ?? actor.usage();
    session.usedTokens += usage.totalTokens;
    this.send(channel, { sessionUpdate: 'usage_update', used: session.usedTokens, size: 200000, cost: demoCost(session.usedTokens) });
    return { stopReason: outcome.stopReason, reply: outcome.reply, usage: { ...usage } };
  }

  private async crash(actor: Actor): Promise<string> {
    await actor.say('Starting to answer, and then the agent process will crash');
    this.env.log('/crash requested: exiting with code 1');
    this.env.exit(1);
    return 'crashed';
  }

  private cancel(sessionId: Json | undefined): void {
    if (typeof sessionId !== 'string') return;
    const session = this.sessions.get(sessionId);
    if (session) {
      for (const scope of session.liveScopes) scope.cancel();
      return;
    }
    const child = this.cancelTargets.get(sessionId);
    if (child) child.cancel();
    else this.env.log(`session/cancel ignored: ${sessionId} is ${this.childRoots.has(sessionId) ? 'a subagent without a running cancellable turn' : 'unknown'}`);
  }

  /** v2 `tool_call/cancel` / `terminal/cancel`: stops that one item (only while it grants cancel). */
  private cancelItem(key: string): JsonObject {
    const scope = this.itemCancels.get(key);
    if (!scope) throw new RpcError(ErrorCodes.invalidParams, `Nothing to cancel: ${key} is not running or cannot be cancelled`);
    scope.cancel();
    return {};
  }

  private cancelRequest(requestId: Json | undefined): void {
    for (const session of this.sessions.values()) {
      // A turn the agent started for a steer has no request to cancel.
      if (requestId !== undefined && session.activeTurn?.requestId === requestId) session.activeTurn.scope.cancel();
    }
  }

  private runContext(session: DemoSession): RunContext {
    const pace = session.model === 'scripted-fast' ? this.env.options.pace / 4 : this.env.options.pace;
    return {
      send: (channel, update, info) => this.send(channel, update, info),
      // v2 asks permission with a title and a subject instead of a bare tool call.
      request: (method, params) => this.rpc.request(method, this.speaks === 2 && method === 'session/request_permission' ? toV2Permission(params) : params),
      dialect: this.dialect(),
      client: this.client,
      pace,
      newId: (prefix) => this.newId(prefix),
      registerCancelTarget: (sessionId, scope) => {
        this.cancelTargets.set(sessionId, scope);
        return () => this.cancelTargets.delete(sessionId);
      },
      registerItemCancel: (item: CancellableItem, scope) => {
        const key = 'toolCallId' in item ? `tool:${item.toolCallId}` : `terminal:${item.terminalId}`;
        this.itemCancels.set(key, scope);
        return () => this.itemCancels.delete(key);
      },
      registerChild: (link) => this.registerChild(link),
      log: (message) => this.env.log(message),
    };
  }

  private registerChild(link: ChildLink): ChildRegistration {
    if (!link.messaging) return { ended: () => undefined };
    const child = { channel: link.channel, messaging: link.messaging, steers: new SteerInbox(), ended: false };
    this.messageableChildren.set(link.channel.wireSessionId, child);
    return {
      steers: { inbox: child.steers, land: answerAsChild },
      ended: () => {
        child.ended = true;
      },
    };
  }

  private dialect(): Dialect {
    return createDialect(this.dialectName, {
      send: (channel, update, info) => this.send(channel, update, info),
      newId: (prefix) => this.newId(prefix),
      newSessionId: () => this.newId('demo-sub-'),
      // Like Copilot: only the events the client named in initialize, and only then.
      copilotEvent: (sessionId, type, data, agentId) => {
        if (!this.copilotEvents.has(type)) return;
        this.rpc.notify('github.com/copilot/sessionEvent', { sessionId, type, timestamp: new Date().toISOString(), data, ...(agentId ? { agentId } : {}) });
      },
    });
  }

  private rootChannel(session: DemoSession): Channel {
    return this.dialect().rootChannel(session.id);
  }

  /** Sends one session/update and records it in the root session's history. */
  private send(channel: Channel, update: Update, info?: StampInfo): void {
    const stamped = channel.stamp(update, info);
    const wire = this.speaks === 2 ? toV2Updates(channel.wireSessionId, stamped) : [{ sessionId: channel.wireSessionId, update: stamped }];
    if (channel.wireSessionId !== channel.rootSessionId) this.childRoots.set(channel.wireSessionId, channel.rootSessionId);
    for (const { sessionId, update: body } of wire) {
      const params: JsonObject = { sessionId, update: body };
      if (channel.paramsMeta) params._meta = channel.paramsMeta;
      this.sessions.get(channel.rootSessionId)?.history.push(params);
      this.rpc.notify('session/update', params);
    }
  }

  /** The root session with this id: -32602 for a subagent's id (`onSubagent` says why), -32002 for an unknown one. */
  private requireSession(sessionId: Json | undefined, onSubagent = 'Not allowed on a subagent session'): DemoSession {
    if (typeof sessionId !== 'string') throw new RpcError(ErrorCodes.invalidParams, 'sessionId must be a string');
    const session = this.sessions.get(sessionId);
    if (session) return session;
    if (this.childRoots.has(sessionId)) throw new RpcError(ErrorCodes.invalidParams, onSubagent);
    throw new RpcError(ErrorCodes.resourceNotFound, `Session not found: ${sessionId}`, { sessionId });
  }

  private newId(prefix: string): string {
    return `${prefix}${(this.counter++).toString(36)}${randomBytes(4).toString('hex')}`;
  }
}

/** Like claude-agent-acp and codex-acp: `_session/steering` is announced by a top-level `_meta` key of the result. */
function withSteeringAdvertised(result: JsonObject): JsonObject {
  const meta = isObject(result._meta) ? result._meta : {};
  return { ...result, _meta: { ...meta, steering: { supported: true } } };
}

/** What a turn runs: its text (title, `/slow`), the prompt's delegation, and the root's script. */
interface TurnStart {
  readonly text: string;
  readonly delegation?: Delegation;
  readonly body: (turn: TurnSettings) => ChildBody;
}

interface TurnOutcome {
  readonly stopReason: string;
  readonly reply: string;
  readonly usage?: JsonObject;
}

function catalog(): JsonObject[] {
  return SUBAGENT_CATALOG.map((entry) => ({ ...entry }));
}
