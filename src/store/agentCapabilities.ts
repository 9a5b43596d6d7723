// Reading what an agent advertised, one rule for the store and the connection alike.
import { AgentMethod } from '../protocol/acpMethods';
import type { PromptCapabilities } from '../protocol/transcript';
import { isObject, type JsonObject } from './wireMessage';

/**
 * ACP capability grants: the final spec grants only by a non-null, non-array object (`{}`); `true` (older
 * drafts), arrays, `null` and anything else mean no, so a grant cannot be faked by a loose value.
 * (`loadSession` is a real boolean in v1 and is read as such, not through this.)
 */
export function isAdvertised(marker: unknown): boolean {
  return typeof marker === 'object' && marker !== null && !Array.isArray(marker);
}

/** How a session comes back: v1's load, or resume. */
type ReattachMethod = typeof AgentMethod.sessionLoad | typeof AgentMethod.sessionResume;

/**
 * How a stored root session can be reattached: `session/load` (replays history) first, else `session/resume`.
 * In v2 `session/load` is gone and `session/resume` (with `replayFrom`) is baseline wherever sessions are.
 */
export function reattachMethod(agentCapabilities: JsonObject, protocolVersion: number = 1): ReattachMethod | undefined {
  if (protocolVersion === 2) return isAdvertised(agentCapabilities['session']) ? AgentMethod.sessionResume : undefined;
  if (agentCapabilities['loadSession'] === true) return AgentMethod.sessionLoad;
  const sessionCapabilities = isObject(agentCapabilities['sessionCapabilities']) ? agentCapabilities['sessionCapabilities'] : {};
  return isAdvertised(sessionCapabilities['resume']) ? AgentMethod.sessionResume : undefined;
}

/**
 * Prompt content the agent opted in to. ACP v1: `agentCapabilities.promptCapabilities`, plain booleans where
 * only `true` grants. ACP v2: `capabilities.session.prompt`, support markers where only an object grants.
 */
export function promptCapabilitiesOf(agentCapabilities: JsonObject, protocolVersion: number = 1): PromptCapabilities {
  if (protocolVersion === 2) {
    const session = isObject(agentCapabilities['session']) ? agentCapabilities['session'] : {};
    const markers = isObject(session['prompt']) ? session['prompt'] : {};
    return { image: isAdvertised(markers['image']), audio: isAdvertised(markers['audio']), embeddedContext: isAdvertised(markers['embeddedContext']) };
  }
  const granted = isObject(agentCapabilities['promptCapabilities']) ? agentCapabilities['promptCapabilities'] : {};
  return { image: granted['image'] === true, audio: granted['audio'] === true, embeddedContext: granted['embeddedContext'] === true };
}

/**
 * Steering (`_session/steering`): claude-agent-acp and codex-acp advertise it as a top-level `_meta.steering`
 * of the initialize result (`{supported: true}`); a v2 agent may grant `capabilities.session.steering` instead.
 */
export function advertisesSteering(initializeResult: JsonObject, agentCapabilities: JsonObject, protocolVersion: number): boolean {
  const meta = isObject(initializeResult['_meta']) ? initializeResult['_meta'] : {};
  const steering = isObject(meta['steering']) ? meta['steering'] : {};
  if (steering['supported'] === true) return true;
  if (protocolVersion !== 2) return false;
  const session = isObject(agentCapabilities['session']) ? agentCapabilities['session'] : {};
  return isAdvertised(session['steering']);
}
