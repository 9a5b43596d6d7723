// Everything that differs between ACP v1 and v2 for this client, in one place: which request a step sends,
// the params' version-specific shape, what the agent's answer means, and which methods a version lacks. The
// rest of the connection asks the adapter of the version it speaks and never branches on the number itself.
import type { Implementation, InitializeResponse, PromptResponse, SetSessionConfigOptionResponse } from '@agentclientprotocol/sdk/unstable';
import type { NotificationType, RequestType } from 'vscode-jsonrpc/node';
import { AgentMethod, V1_ONLY_CLIENT_METHODS, type ClientMethodName } from '../protocol/acpMethods';
import { readAgentFeatures, type AgentFeatures, type ProtocolVersion, type SessionMethod } from './agentFeatures';
import { buildClientCapabilities, buildV2ClientCapabilities } from './capabilities';
import type { ClientHost } from './clientHost';
import * as v1 from './methods/v1';
import * as v2 from './methods/v2';

/** Sends one typed request (the channel's `request`). */
type SendRequest = <P, R>(type: RequestType<P, R, void>, params: P) => Promise<R>;

/** A v2 turn's end, which the store sees (the session's idle state) rather than a response. */
export interface TurnEnd {
  readonly promise: Promise<PromptResponse>;
  /** Stops waiting (the prompt itself failed). */
  readonly abandon: () => void;
}

/** Agent methods that only one version has. */
export type VersionedMethod = typeof AgentMethod.sessionLoad | typeof AgentMethod.sessionSetMode | typeof AgentMethod.toolCallCancel | typeof AgentMethod.terminalCancel;

export interface VersionAdapter {
  readonly version: ProtocolVersion;
  /** Sends `initialize` offering this version, with its client capabilities and info; the raw answer. */
  initialize(send: SendRequest, info: Implementation, host: ClientHost): Promise<InitializeResponse>;
  /** What the agent's initialize answer grants, read with this version's names. */
  readFeatures(response: InitializeResponse): AgentFeatures;
  /** The initialize answer's key for the agent's name and version. */
  readonly agentInfoKey: 'agentInfo' | 'info';
  /** Signs in with an offered auth method. */
  readonly login: RequestType<{ methodId: string }, unknown, void>;
  readonly logout: RequestType<object, unknown, void>;
  /** Why an agent offers no logout. */
  readonly noLogout: string;
  /** Where the agent advertises a session method beyond new/prompt/cancel. */
  sessionCapabilityPath(capability: SessionMethod): string;
  /** Why this version has no such method, or undefined when it has it. */
  lacks(method: VersionedMethod): string | undefined;
  /** `session/resume` params beyond the session's own. */
  readonly resumeExtras: { readonly replayFrom?: { readonly type: 'start' } };
  /** Sends a prompt and resolves when its turn ends; `onSent` gets the message id the agent gave it. */
  prompt(send: SendRequest, params: v1.PromptParams, turnEnd: () => TurnEnd, onSent?: (messageId: string | undefined) => void): Promise<PromptResponse>;
  /** Sends `session/set_config_option` with the value in this version's shape. */
  setConfigOption(send: SendRequest, sessionId: string, configId: string, value: string | boolean): Promise<SetSessionConfigOptionResponse>;
  /** Whether this version has a client method the agent called. */
  serves(method: string): boolean;
}

const V1: VersionAdapter = {
  version: 1,
  initialize: (send, info, host) => send(v1.initialize, { protocolVersion: 1, clientCapabilities: buildClientCapabilities(host), clientInfo: info }),
  readFeatures: (response) => readAgentFeatures(response, 1),
  agentInfoKey: 'agentInfo',
  login: v1.authenticate,
  logout: v1.logout,
  noLogout: 'agentCapabilities.auth.logout is not advertised',
  sessionCapabilityPath: (capability) => `agentCapabilities.sessionCapabilities.${capability}`,
  lacks: (method) => (method === AgentMethod.toolCallCancel || method === AgentMethod.terminalCancel ? `${method} is part of ACP v2; this agent speaks v1` : undefined),
  resumeExtras: {},
  // The response ends the turn.
  async prompt(send, params, _turnEnd, onSent) {
    const response = await send(v1.prompt, params);
    onSent?.(undefined);
    return response;
  },
  setConfigOption: (send, sessionId, configId, value) =>
    send(v1.setConfigOption, typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value }),
  serves: () => true,
};

const V2: VersionAdapter = {
  version: 2,
  // Read through readFeatures like a v1 answer; the public `initialized` shape stays v1's.
  initialize: async (send, info, host) => (await send(v2.initialize, { protocolVersion: 2, info, capabilities: buildV2ClientCapabilities(host) })) as unknown as InitializeResponse,
  readFeatures: (response) => readAgentFeatures(response, 2),
  agentInfoKey: 'info',
  login: v2.authLogin,
  logout: v2.authLogout,
  noLogout: 'the agent offers no auth methods',
  sessionCapabilityPath: () => 'capabilities.session',
  lacks: (method) =>
    method === AgentMethod.sessionLoad
      ? 'ACP v2 has no session/load; reconnect with session/resume'
      : method === AgentMethod.sessionSetMode
        ? 'ACP v2 has no modes; change the mode config option instead'
        : undefined,
  // v2 replays the session's history when asked (it took the place of session/load).
  resumeExtras: { replayFrom: { type: 'start' } },
  // The response only acknowledges the prompt; the session's idle state ends the turn.
  async prompt(send, params, turnEnd, onSent) {
    const end = turnEnd();
    try {
      const ack = await send(v2.prompt, params);
      onSent?.(typeof ack?.messageId === 'string' ? ack.messageId : undefined);
    } catch (error) {
      end.abandon();
      throw error;
    }
    return end.promise;
  },
  // v2 names the value's type for every value (`id` for a select's choice).
  setConfigOption: async (send, sessionId, configId, value) =>
    (await send(v2.setConfigOption, typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, type: 'id', value })) as unknown as SetSessionConfigOptionResponse,
  // v2 agents own their files and terminals.
  serves: (method) => !V1_ONLY_CLIENT_METHODS.includes(method as ClientMethodName),
};

export function versionAdapter(version: ProtocolVersion): VersionAdapter {
  return version === 2 ? V2 : V1;
}
