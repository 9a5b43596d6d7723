// Requests on the wire that still wait for their response, in both directions, matched by JSON-RPC id.
import type { Direction, ElicitationEntry, PermissionEntry } from './model';
import type { JsonObject } from './wireMessage';

export interface PendingRequest {
  readonly key: string;
  readonly method: string;
  readonly params: JsonObject;
  readonly line: number;
  /** The session the request was attributed to (after dialect routing). */
  sessionId?: string;
  entry?: PermissionEntry | ElicitationEntry;
}

export class RequestLedger {
  private readonly pending = new Map<string, PendingRequest>();

  /** Records a request; false when its id is already in use by an open request from the same side. */
  open(direction: Direction, id: string | number, method: string, params: JsonObject, line: number): PendingRequest | undefined {
    const key = requestKey(direction, id);
    if (this.pending.has(key)) return undefined;
    const request: PendingRequest = { key, method, params, line };
    this.pending.set(key, request);
    return request;
  }

  get(direction: Direction, id: string | number): PendingRequest | undefined {
    return this.pending.get(requestKey(direction, id));
  }

  /** Takes the request a response answers; `responder` is the side that sent the response. */
  settle(responder: Direction, id: string | number): PendingRequest | undefined {
    const key = requestKey(responder === 'agent->client' ? 'client->agent' : 'agent->client', id);
    const request = this.pending.get(key);
    if (request) this.pending.delete(key);
    return request;
  }

  /** For bare transcript lines without a direction: which side a response most likely answers. */
  responderOf(id: string | number): Direction {
    const toAgent = this.pending.get(requestKey('client->agent', id));
    const toClient = this.pending.get(requestKey('agent->client', id));
    if (toAgent && toClient) return toAgent.line >= toClient.line ? 'agent->client' : 'client->agent';
    return toClient ? 'client->agent' : 'agent->client';
  }

  clear(): void {
    this.pending.clear();
  }
}

export function requestKey(direction: Direction, id: string | number): string {
  return `${direction === 'client->agent' ? 'c' : 'a'}:${typeof id}:${String(id)}`;
}
