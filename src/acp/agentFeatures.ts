// What an agent's initialize response grants, read the same way whichever ACP version it speaks: v1 names
// (agentCapabilities, loadSession, sessionCapabilities.*, promptCapabilities.* booleans, auth method `id`)
// and v2 names (capabilities, session baseline methods, session.prompt.* markers, auth method `methodId`).
import { promptCapabilitiesOf } from '../store/agentCapabilities';
import { asRecord, isAdvertised } from './json';

export type ProtocolVersion = 1 | 2;

/** The session methods beyond new/prompt/cancel that an agent may or may not offer. */
export type SessionMethod = 'load' | 'resume' | 'list' | 'close';

export type PromptContentCapability = 'image' | 'audio' | 'embeddedContext';

export interface AuthMethodInfo {
  readonly id: string;
  readonly name: string;
  readonly description?: string | null;
  readonly [key: string]: unknown;
}

export interface AgentFeatures {
  readonly version: ProtocolVersion;
  /** The raw capability object (v1 `agentCapabilities`, v2 `capabilities`). */
  readonly capabilities: Record<string, unknown>;
  readonly authMethods: readonly AuthMethodInfo[];
  offers(method: SessionMethod): boolean;
  acceptsPrompt(content: PromptContentCapability): boolean;
  readonly additionalDirectories: boolean;
  readonly logout: boolean;
}

export function readAgentFeatures(response: unknown, version: ProtocolVersion): AgentFeatures {
  const body = asRecord(response) ?? {};
  return version === 2 ? readV2(body) : readV1(body);
}

function readV1(body: Record<string, unknown>): AgentFeatures {
  const capabilities = asRecord(body['agentCapabilities']) ?? {};
  const session = asRecord(capabilities['sessionCapabilities']) ?? {};
  const prompt = promptCapabilitiesOf(capabilities, 1);
  return {
    version: 1,
    capabilities,
    authMethods: authMethodsOf(body, 'id'),
    // `loadSession` is a real boolean in v1.
    offers: (method) => (method === 'load' ? capabilities['loadSession'] === true : isAdvertised(session[method])),
    acceptsPrompt: (content) => prompt[content],
    additionalDirectories: isAdvertised(session['additionalDirectories']),
    logout: isAdvertised(asRecord(capabilities['auth'])?.['logout']),
  };
}

function readV2(body: Record<string, unknown>): AgentFeatures {
  const capabilities = asRecord(body['capabilities']) ?? {};
  const session = asRecord(capabilities['session']);
  const prompt = promptCapabilitiesOf(capabilities, 2);
  const authMethods = authMethodsOf(body, 'methodId');
  return {
    version: 2,
    capabilities,
    authMethods,
    // v2: `capabilities.session` makes resume, list and close baseline; session/load is gone.
    offers: (method) => method !== 'load' && session !== undefined,
    acceptsPrompt: (content) => prompt[content],
    additionalDirectories: isAdvertised(session?.['additionalDirectories']),
    // auth/logout is required of an agent that offers auth methods.
    logout: authMethods.length > 0,
  };
}

/** Auth methods with a string id, named `id` whichever key the version uses. */
function authMethodsOf(body: Record<string, unknown>, idKey: 'id' | 'methodId'): AuthMethodInfo[] {
  const raw = Array.isArray(body['authMethods']) ? body['authMethods'] : [];
  return raw.flatMap((method) => {
    const record = asRecord(method);
    const id = record?.[idKey];
    if (!record || typeof id !== 'string') return [];
    return [{ ...record, id, name: typeof record['name'] === 'string' ? record['name'] : id }];
  });
}
