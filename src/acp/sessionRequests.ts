// The client's session API towards the agent: new, load, resume, list, close, prompt, steer, cancel (a
// session, a tool call, a terminal), modes and config options. Each request is checked before it is sent:
// initialized, advertised by the agent (in the version's terms, through the adapter), allowed by the
// store's verdict for the session, and well-formed; a refusal sends nothing.
import type {
  ContentBlock,
  ListSessionsResponse,
  LoadSessionResponse,
  McpServer,
  NewSessionResponse,
  PromptResponse,
  ResumeSessionResponse,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk/unstable';
import * as path from 'node:path';
import { AgentMethod } from '../protocol/acpMethods';
import type { SessionAction } from '../store/model';
import type { SessionStore } from '../store/sessionStore';
import { advertisedConfigOptionType, advertisedModeIds } from '../store/settingRequests';
import type { PromptContentCapability, SessionMethod } from './agentFeatures';
import type { AgentConnectionOptions, SessionSetupOptions } from './connectionOptions';
import { delegationSupport, parseSubagentCatalog, validateDelegation, type PromptDelegation, type SubagentInfo } from './delegation';
import { ActionRefusedError, InvalidAgentResponseError, InvalidArgumentError, InvalidDelegationError, NotAdvertisedError, UnsupportedContentError } from './errors';
import type { Negotiated } from './handshake';
import { asRecord } from './json';
import * as v1 from './methods/v1';
import * as v2 from './methods/v2';
import type { PendingHostRequests } from './pendingHostRequests';
import type { RpcChannel } from './rpcChannel';
import type { TurnEnd, VersionedMethod } from './versionAdapter';

/** What `_session/steering` answered (`unknown`: an outcome this client does not know; the message was taken). */
export type SteerOutcome = 'injected' | 'promptRequired' | 'startedNewTurn' | 'unknown';

export interface SessionRequestsContext extends Pick<AgentConnectionOptions, 'actionsFor' | 'descendantsOf'> {
  readonly agentName: string;
  readonly store: SessionStore;
  readonly channel: RpcChannel;
  readonly pendingHost: PendingHostRequests;
  /** What initialize granted, for sending `method`; throws when closed or not initialized. */
  readonly require: (method: string) => Negotiated;
}

const PROMPT_CONTENT_CAPABILITY: Record<string, PromptContentCapability | null> = {
  text: null,
  resource_link: null,
  image: 'image',
  audio: 'audio',
  resource: 'embeddedContext',
};

export class SessionRequests {
  constructor(private readonly context: SessionRequestsContext) {}

  async newSession(cwd: string, options: SessionSetupOptions = {}): Promise<NewSessionResponse> {
    const negotiated = this.context.require(AgentMethod.sessionNew);
    const params = { cwd: absolute(cwd, 'cwd'), ...this.setupParams(negotiated, AgentMethod.sessionNew, options) };
    const response = await this.context.channel.request(v1.newSession, params);
    const sessionId = asRecord(response)?.sessionId;
    if (typeof sessionId !== 'string' || !sessionId) throw new InvalidAgentResponseError(this.context.agentName, AgentMethod.sessionNew, 'no sessionId');
    return response;
  }

  async loadSession(sessionId: string, cwd: string, options: SessionSetupOptions = {}): Promise<LoadSessionResponse> {
    const negotiated = this.requireVersioned(AgentMethod.sessionLoad);
    if (!negotiated.features.offers('load')) throw new NotAdvertisedError(this.context.agentName, AgentMethod.sessionLoad, 'agentCapabilities.loadSession is not true');
    const params = { sessionId, cwd: absolute(cwd, 'cwd'), ...this.setupParams(negotiated, AgentMethod.sessionLoad, options) };
    return this.context.channel.request(v1.loadSession, params);
  }

  async resumeSession(sessionId: string, cwd: string, options: SessionSetupOptions = {}): Promise<ResumeSessionResponse> {
    const negotiated = this.requireSessionCapability(AgentMethod.sessionResume, 'resume');
    const params = { sessionId, cwd: absolute(cwd, 'cwd'), ...this.setupParams(negotiated, AgentMethod.sessionResume, options), ...negotiated.adapter.resumeExtras };
    return this.context.channel.request(v1.resumeSession, params);
  }

  async listSessions(filter: { cwd?: string; cursor?: string } = {}): Promise<ListSessionsResponse> {
    this.requireSessionCapability(AgentMethod.sessionList, 'list');
    const params: { cwd?: string; cursor?: string } = {};
    if (filter.cwd !== undefined) params.cwd = absolute(filter.cwd, 'cwd');
    if (filter.cursor !== undefined) params.cursor = filter.cursor;
    return this.context.channel.request(v1.listSessions, params);
  }

  /** Closes a session; its (and its descendants') pending permission requests are answered cancelled. */
  async closeSession(sessionId: string): Promise<void> {
    this.requireSessionCapability(AgentMethod.sessionClose, 'close');
    this.checkAllowed(sessionId, 'close');
    const request = this.context.channel.request(v1.closeSession, { sessionId });
    this.cancelPendingHostRequests(sessionId);
    await request;
  }

  /**
   * Sends a prompt and resolves when its turn ends, with the stop reason. v1: the response ends the turn. v2:
   * the response only acknowledges the prompt (`onSent` gets its messageId); the session's idle state ends it.
   */
  async prompt(sessionId: string, prompt: readonly ContentBlock[], delegation?: PromptDelegation, onSent?: (messageId: string | undefined) => void): Promise<PromptResponse> {
    const negotiated = this.context.require(AgentMethod.sessionPrompt);
    this.checkAllowed(sessionId, 'prompt');
    this.checkPromptContent(negotiated, prompt);
    const params: v1.PromptParams = { sessionId, prompt };
    if (delegation !== undefined) {
      const problems = validateDelegation(delegation, delegationSupport(negotiated.features.capabilities), this.subagentCatalog(sessionId));
      if (problems.length) throw new InvalidDelegationError(problems);
      params.delegation = delegation;
    }
    return negotiated.adapter.prompt((type, p) => this.context.channel.request(type, p), params, () => this.turnEnd(sessionId), onSent);
  }

  /**
   * `_session/steering` (claude-agent-acp, codex-acp): the message joins the session's running turn. Sent with
   * `idleBehavior: "promptRequired"`, so an agent whose turn ended meanwhile says so instead of starting a turn
   * of its own; the caller then sends the words as a prompt. Only where the agent advertises steering and the
   * store's verdict for the session allows a steer now.
   */
  async steer(sessionId: string, prompt: readonly ContentBlock[]): Promise<SteerOutcome> {
    const negotiated = this.context.require(AgentMethod.sessionSteering);
    if (!this.context.store.steering) throw new NotAdvertisedError(this.context.agentName, AgentMethod.sessionSteering, 'the agent does not advertise steering (_meta.steering.supported)');
    this.checkAllowed(sessionId, 'steer');
    this.checkPromptContent(negotiated, prompt);
    const result = asRecord(await this.context.channel.request(v1.steer, { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } }));
    const outcome = result?.outcome;
    return outcome === 'injected' || outcome === 'promptRequired' || outcome === 'startedNewTurn' ? outcome : 'unknown';
  }

  /** v2 `tool_call/cancel`: cancels one tool call, when the call grants `capabilities.cancel` (the store decides). */
  async cancelToolCall(sessionId: string, toolCallId: string): Promise<void> {
    this.requireVersioned(AgentMethod.toolCallCancel);
    this.checkItemCancel(sessionId, this.context.store.itemActionsFor(sessionId, { toolCallId }).cancel);
    await this.context.channel.request(v2.cancelToolCall, { sessionId, toolCallId });
  }

  /** v2 `terminal/cancel`: cancels an agent terminal's command, when the terminal grants `capabilities.cancel`. */
  async cancelTerminal(sessionId: string, terminalId: string): Promise<void> {
    this.requireVersioned(AgentMethod.terminalCancel);
    this.checkItemCancel(sessionId, this.context.store.itemActionsFor(sessionId, { terminalId }).cancel);
    await this.context.channel.request(v2.cancelTerminal, { sessionId, terminalId });
  }

  /**
   * Sends `session/cancel` (if the store allows it) and answers pending permission requests of the session
   * and all its descendants with `cancelled` (elicitations with `cancel`).
   */
  async cancel(sessionId: string): Promise<void> {
    this.context.require(AgentMethod.sessionCancel);
    this.checkAllowed(sessionId, 'cancel');
    await this.context.channel.notify(v1.cancel, { sessionId });
    this.cancelPendingHostRequests(sessionId);
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    this.requireVersioned(AgentMethod.sessionSetMode);
    const modes = advertisedModeIds(this.context.store.getSession(sessionId));
    if (!modes) throw new NotAdvertisedError(this.context.agentName, AgentMethod.sessionSetMode, `no modes were advertised for session ${sessionId}`);
    if (!modes.has(modeId)) throw new NotAdvertisedError(this.context.agentName, AgentMethod.sessionSetMode, `mode "${modeId}" is not one of ${[...modes].join(', ')}`);
    await this.context.channel.request(v1.setMode, { sessionId, modeId });
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SetSessionConfigOptionResponse> {
    const { adapter } = this.context.require(AgentMethod.sessionSetConfigOption);
    const type = advertisedConfigOptionType(this.context.store.getSession(sessionId), configId);
    if (type === undefined) throw new NotAdvertisedError(this.context.agentName, AgentMethod.sessionSetConfigOption, `config option "${configId}" was not advertised for session ${sessionId}`);
    if ((type === 'boolean') !== (typeof value === 'boolean')) {
      throw new InvalidArgumentError(`Config option "${configId}" is of type ${type}; got a ${typeof value} value`);
    }
    return adapter.setConfigOption((t, p) => this.context.channel.request(t, p), sessionId, configId, value);
  }

  /** The subagent catalog the agent advertised for the session, when it sent one. */
  subagentCatalog(sessionId: string): readonly SubagentInfo[] | undefined {
    const catalog = this.context.store.getSession(sessionId)?.availableSubagents;
    return catalog ? parseSubagentCatalog(catalog) : undefined;
  }

  /**
   * v2: resolves when the store says the session's prompt is no longer in flight (its idle state_update), with
   * the stop reason the agent reported; rejects when the connection closes first.
   */
  private turnEnd(sessionId: string): TurnEnd {
    const { store, channel } = this.context;
    let abandon = () => undefined as void;
    const promise = new Promise<PromptResponse>((resolve, reject) => {
      // In flight from when the store sees the prompt go out; over when the agent's idle clears it.
      let sent = false;
      const subscription = store.onDidChange(() => {
        const session = store.getSession(sessionId);
        if (session?.activePromptId) sent = true;
        else if (session && sent) finish(() => resolve({ stopReason: (session.state.stopReason ?? 'end_turn') as PromptResponse['stopReason'] }));
      });
      const untrack = channel.track({ method: AgentMethod.sessionPrompt, reject: (error) => finish(() => reject(error)) });
      const finish = (settle: () => void) => {
        subscription.dispose();
        untrack();
        settle();
      };
      abandon = () => finish(() => undefined);
    });
    return { promise, abandon };
  }

  /** Initialized, and a method the version has. */
  private requireVersioned(method: VersionedMethod): Negotiated {
    const negotiated = this.context.require(method);
    const missing = negotiated.adapter.lacks(method);
    if (missing) throw new NotAdvertisedError(this.context.agentName, method, missing);
    return negotiated;
  }

  private requireSessionCapability(method: string, capability: SessionMethod): Negotiated {
    const negotiated = this.context.require(method);
    if (!negotiated.features.offers(capability)) {
      throw new NotAdvertisedError(this.context.agentName, method, `${negotiated.adapter.sessionCapabilityPath(capability)} is not advertised`);
    }
    return negotiated;
  }

  private checkAllowed(sessionId: string, action: SessionAction): void {
    const actionsFor = this.context.actionsFor ?? ((id: string) => this.context.store.actionsFor(id));
    const verdict = actionsFor(sessionId)[action];
    if (verdict && !verdict.allowed) throw new ActionRefusedError(sessionId, action, verdict.reason ?? 'not allowed');
  }

  private checkItemCancel(sessionId: string, verdict: { allowed: boolean; reason?: string }): void {
    if (!verdict.allowed) throw new ActionRefusedError(sessionId, 'cancel', verdict.reason ?? 'not allowed');
  }

  private checkPromptContent({ features }: Negotiated, prompt: readonly ContentBlock[]): void {
    if (!Array.isArray(prompt)) throw new InvalidArgumentError('The prompt must be an array of content blocks');
    for (const block of prompt) {
      const type = String(asRecord(block)?.type);
      const capability = Object.hasOwn(PROMPT_CONTENT_CAPABILITY, type) ? PROMPT_CONTENT_CAPABILITY[type] : undefined;
      if (capability === undefined) throw new InvalidArgumentError(`Unknown prompt content type "${type}"`);
      if (capability !== null && !features.acceptsPrompt(capability)) throw new UnsupportedContentError(this.context.agentName, type, capability);
    }
  }

  private setupParams({ features }: Negotiated, method: string, options: SessionSetupOptions): { mcpServers: McpServer[]; additionalDirectories?: string[] } {
    const params: { mcpServers: McpServer[]; additionalDirectories?: string[] } = { mcpServers: options.mcpServers ?? [] };
    if (options.additionalDirectories?.length) {
      if (!features.additionalDirectories) {
        throw new NotAdvertisedError(this.context.agentName, method, 'additionalDirectories needs agentCapabilities.sessionCapabilities.additionalDirectories');
      }
      params.additionalDirectories = options.additionalDirectories.map((directory) => absolute(directory, 'additionalDirectories'));
    }
    return params;
  }

  private cancelPendingHostRequests(sessionId: string): void {
    const { store, pendingHost, descendantsOf } = this.context;
    const sessions = new Set<string>([sessionId]);
    const descendants = descendantsOf?.(sessionId) ?? store.subtree(sessionId).slice(1).map((session) => session.id);
    for (const descendant of descendants) sessions.add(descendant);
    pendingHost.cancelSessions(sessions);
  }
}

function absolute(candidate: string, field: string): string {
  if (typeof candidate !== 'string' || !path.isAbsolute(candidate)) throw new InvalidArgumentError(`${field} must be an absolute path (got ${JSON.stringify(candidate)})`);
  return candidate;
}
