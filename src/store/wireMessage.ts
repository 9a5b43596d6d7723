// Classifies raw JSON-RPC values and reads transcript lines (bare messages or {dir, msg} wrappers).
import { AgentMethod, ClientMethod } from '../protocol/acpMethods';

/** Which way a message went on the wire (model.ts re-exports it for readers of the store). */
export type Direction = 'client->agent' | 'agent->client';

export type JsonObject = Record<string, unknown>;

export type WireMessage =
  | { readonly type: 'request'; readonly id: string | number; readonly method: string; readonly params: JsonObject }
  | { readonly type: 'notification'; readonly method: string; readonly params: JsonObject }
  | { readonly type: 'response'; readonly id: string | number; readonly result?: unknown; readonly error?: JsonObject };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Returns a classified message, or a reason why the value is not JSON-RPC we can use. */
export function classifyMessage(value: unknown): WireMessage | { readonly invalid: string } {
  if (!isObject(value)) return { invalid: Array.isArray(value) ? 'JSON-RPC batches are not used by ACP' : 'not a JSON object' };
  const method = value['method'];
  const params = isObject(value['params']) ? value['params'] : {};
  if (typeof method === 'string') {
    if ('id' in value && value['id'] !== undefined && value['id'] !== null) {
      if (!isId(value['id'])) return { invalid: 'request id must be a string or number' };
      return { type: 'request', id: value['id'], method, params };
    }
    return { type: 'notification', method, params };
  }
  if (isId(value['id']) && ('result' in value || 'error' in value)) {
    const error = isObject(value['error']) ? value['error'] : undefined;
    return { type: 'response', id: value['id'], result: value['result'], ...(error ? { error } : {}) };
  }
  return { invalid: 'neither a request, a notification nor a response' };
}

const CLIENT_METHODS = new Set<string>(Object.values(ClientMethod));
/** Families of the client's methods, for ones a later ACP adds (`terminal/resize`…). */
const AGENT_TO_CLIENT_PREFIXES = ['fs/', 'terminal/', 'elicitation/'];
/** The client's methods first: v2's `terminal/cancel` goes to the agent although it shares the agent's `terminal/` prefix. */
const CLIENT_TO_AGENT_METHODS = new Set<string>(Object.values(AgentMethod));

/** Which side sends a method, for transcripts that carry bare lines without a direction. */
export function directionOfMethod(method: string): Direction {
  if (CLIENT_TO_AGENT_METHODS.has(method)) return 'client->agent';
  if (CLIENT_METHODS.has(method)) return 'agent->client';
  return AGENT_TO_CLIENT_PREFIXES.some((p) => method.startsWith(p)) ? 'agent->client' : 'client->agent';
}

function parseDirection(value: unknown): Direction | undefined {
  if (value === 'client->agent' || value === 'agent->client') return value;
  if (value === 'send' || value === 'out' || value === 'outgoing') return 'client->agent';
  if (value === 'recv' || value === 'in' || value === 'incoming') return 'agent->client';
  return undefined;
}

export interface TranscriptLine {
  readonly message: unknown;
  /** Undefined for bare lines: the reader infers it. */
  readonly direction?: Direction;
  /** Milliseconds since the epoch, when the wrapper carries a timestamp. */
  readonly at?: number;
  /** Set for a line that stands for a message the recorder could not write: why, and its size. */
  readonly unrecordable?: { readonly reason: string; readonly bytes: number };
}

/** Parses one transcript line. Throws a readable Error for lines that are not JSON. */
export function parseTranscriptLine(text: string): TranscriptLine | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
  if (isObject(value) && isObject(value['unrecordable']) && !('msg' in value) && !('jsonrpc' in value)) {
    const record = value['unrecordable'];
    return {
      message: undefined,
      ...(parseDirection(value['dir']) ? { direction: parseDirection(value['dir']) } : {}),
      unrecordable: { reason: typeof record['reason'] === 'string' ? record['reason'] : 'unknown', bytes: typeof record['bytes'] === 'number' ? record['bytes'] : 0 },
    };
  }
  if (isObject(value) && 'msg' in value && !('jsonrpc' in value)) {
    const stamp = value['ts'] ?? value['t'];
    const at = typeof stamp === 'string' ? Date.parse(stamp) : typeof stamp === 'number' ? stamp : undefined;
    return {
      message: value['msg'],
      ...(parseDirection(value['dir']) ? { direction: parseDirection(value['dir']) } : {}),
      ...(at !== undefined && Number.isFinite(at) ? { at } : {}),
    };
  }
  return { message: value };
}
