// Opening the conversation with an agent: `initialize` offering one ACP version and accepting only an answer
// this client can speak at or below the offer (one connection speaks exactly one version), then signing in
// and out with the auth methods the agent offered. Holds what initialize granted.
import type { Implementation, InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import { version as clientVersion } from '../../package.json';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';
import { AgentMethod } from '../protocol/acpMethods';
import type { AgentFeatures, ProtocolVersion } from './agentFeatures';
import { SUPPORTED_PROTOCOL_VERSIONS } from './capabilities';
import type { ClientHost } from './clientHost';
import { AgentRequestError, AgentTimeoutError, ConnectionClosedError, NotAdvertisedError, NotInitializedError, UnsupportedProtocolVersionError } from './errors';
import { asRecord } from './json';
import type { RpcChannel } from './rpcChannel';
import { versionAdapter, type VersionAdapter } from './versionAdapter';

export interface HandshakeContext {
  readonly agentName: string;
  readonly channel: RpcChannel;
  readonly host: ClientHost;
  readonly clientInfo?: Implementation;
  readonly offered: ProtocolVersion;
  readonly timeoutMs: number;
  readonly stderrTail: () => string;
  /** Closes the connection and stops the agent; `errorFor` names what each pending request failed with. */
  readonly shutDown: (errorFor: (method: string) => Error) => void;
}

/** What a successful initialize settled. */
export interface Negotiated {
  readonly response: InitializeResponse;
  readonly features: AgentFeatures;
  readonly adapter: VersionAdapter;
}

export class Handshake {
  private negotiated: Negotiated | undefined;

  constructor(private readonly context: HandshakeContext) {}

  get result(): Negotiated | undefined {
    return this.negotiated;
  }

  /** The adapter of the version spoken: the agent's answer (the offered one until it answers). */
  get adapter(): VersionAdapter {
    return this.negotiated?.adapter ?? versionAdapter(this.context.offered);
  }

  /** What initialize granted, for sending `method`; throws when the connection is closed or not initialized. */
  require(method: string): Negotiated {
    this.context.channel.throwIfClosed(method);
    if (!this.negotiated) throw new NotInitializedError(this.context.agentName, method);
    return this.negotiated;
  }

  async initialize(): Promise<InitializeResponse> {
    const { agentName, channel, offered, timeoutMs } = this.context;
    const info = this.context.clientInfo ?? { name: 'subchats', title: 'Subchats', version: clientVersion };
    let response: InitializeResponse;
    try {
      response = await withTimeout(versionAdapter(offered).initialize((type, params) => channel.request(type, params), info, this.context.host), timeoutMs, () => {
        const error = new AgentTimeoutError(agentName, AgentMethod.initialize, timeoutMs, this.context.stderrTail());
        this.context.shutDown(this.closedAfter(error));
        return error;
      });
    } catch (error) {
      if (error instanceof AgentRequestError && error.code === AcpErrorCodes.UnsupportedProtocolVersion) {
        const supported = asRecord(error.data)?.supported;
        const versionError = UnsupportedProtocolVersionError.refused(agentName, offered, Array.isArray(supported) ? supported : undefined, SUPPORTED_PROTOCOL_VERSIONS);
        this.context.shutDown(this.closedAfter(versionError));
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
      const error = new UnsupportedProtocolVersionError(agentName, answered, speakable, hint);
      this.context.shutDown(this.closedAfter(error));
      throw error;
    }
    const adapter = versionAdapter(result.protocolVersion === 2 ? 2 : 1);
    this.negotiated = { response, features: adapter.readFeatures(response), adapter };
    return response;
  }

  /** Signs in with one of the offered auth methods (v1 `authenticate`, v2 `auth/login`). */
  async authenticate(methodId: string): Promise<void> {
    const { login } = this.adapter;
    const { features } = this.require(login.method);
    if (!features.authMethods.some((offered) => offered.id === methodId)) {
      const offered = features.authMethods.map((m) => m.id).join(', ') || 'none';
      throw new NotAdvertisedError(this.context.agentName, login.method, `auth method "${methodId}" was not offered (offered: ${offered})`);
    }
    await this.context.channel.request(login, { methodId });
  }

  /** v1 `logout` (when `auth.logout` is advertised), v2 `auth/logout` (required with auth methods). */
  async logout(): Promise<void> {
    const { logout, noLogout } = this.adapter;
    const { features } = this.require(logout.method);
    if (!features.logout) throw new NotAdvertisedError(this.context.agentName, logout.method, noLogout);
    await this.context.channel.request(logout, {});
  }

  /** `error` for the initialize that failed, "connection closed" for anything sent later. */
  private closedAfter(error: Error): (method: string) => Error {
    return (method) => (method === AgentMethod.initialize ? error : new ConnectionClosedError(this.context.agentName, method));
  }
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
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
