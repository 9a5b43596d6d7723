// Reading what an agent advertised, one rule for the store and the connection alike.
import { isObject, type JsonObject } from './wireMessage';

/** ACP support markers: `{}` (or `true` in older agents) means yes; absent, `null` and `false` mean no. */
export function isAdvertised(marker: unknown): boolean {
  return marker === true || (typeof marker === 'object' && marker !== null);
}

/** How a stored root session can be reattached: `session/load` (replays history) first, else `session/resume`. */
export function reattachMethod(agentCapabilities: JsonObject): 'session/load' | 'session/resume' | undefined {
  if (agentCapabilities['loadSession'] === true) return 'session/load';
  const sessionCapabilities = isObject(agentCapabilities['sessionCapabilities']) ? agentCapabilities['sessionCapabilities'] : {};
  return isAdvertised(sessionCapabilities['resume']) ? 'session/resume' : undefined;
}
