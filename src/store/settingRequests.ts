// What a session's modes and config options allow the client to send (read from what the agent advertised).
import type { SessionRecord } from './model';
import { isObject } from './wireMessage';
import { configOptionId } from '../presentation/sessionSettings';

/** Mode ids advertised for the session, or undefined when it has none (or was closed). */
export function advertisedModeIds(session: Pick<SessionRecord, 'modes' | 'closed'> | undefined): ReadonlySet<string> | undefined {
  const available = session && !session.closed && isObject(session.modes) ? session.modes['availableModes'] : undefined;
  if (!Array.isArray(available)) return undefined;
  return new Set(available.map((mode) => (isObject(mode) ? mode['id'] : undefined)).filter((id): id is string => typeof id === 'string'));
}

/** The advertised type of a config option (`select`, `boolean`, …), or undefined when not advertised. */
export function advertisedConfigOptionType(session: Pick<SessionRecord, 'configOptions' | 'closed'> | undefined, configId: string): string | undefined {
  if (!session || session.closed || !Array.isArray(session.configOptions)) return undefined;
  for (const option of session.configOptions) {
    if (isObject(option) && configOptionId(option) === configId) return typeof option['type'] === 'string' ? option['type'] : 'select';
  }
  return undefined;
}
