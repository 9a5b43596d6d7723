// Lenient readers for JSON received from agents (the store's readers, under the names this layer uses).
import { isObject } from '../store/wireMessage';

export { isAdvertised } from '../store/agentCapabilities';

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}
