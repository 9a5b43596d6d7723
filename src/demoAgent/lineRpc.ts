// Hand-written JSON-RPC 2.0 over newline-delimited JSON (the ACP stdio framing).
// Deliberately tiny and forgiving: a bad line is answered, never fatal.
import { createInterface } from 'node:readline';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
type RequestId = number | string;

export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  resourceNotFound: -32002,
} as const;

/** Throw from a request handler to answer with this JSON-RPC error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Json,
  ) {
    super(message);
  }
}

export type RequestHandler = (params: JsonObject, id: RequestId) => Promise<Json> | Json;
export type NotificationHandler = (params: JsonObject) => void;

interface PendingRequest {
  resolve(result: Json): void;
  reject(error: RpcError): void;
}

export class LineRpc {
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly pending = new Map<RequestId, PendingRequest>();
  private nextId = 0;
  /** Resolves when the input stream ends. */
  readonly closed: Promise<void>;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly log: (message: string) => void,
  ) {
    const lines = createInterface({ input, crlfDelay: Infinity });
    lines.on('line', (line) => this.receive(line));
    this.closed = new Promise((resolve) => lines.once('close', () => resolve()));
    void this.closed.then(() => this.failPending('connection closed'));
  }

  onRequest(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  notify(method: string, params: JsonObject): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Sends a request to the client; rejects with RpcError when the client answers with an error. */
  request(method: string, params: JsonObject): Promise<Json> {
    const id = this.nextId++;
    return new Promise<Json>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  private write(message: JsonObject): void {
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  private respond(id: RequestId | null, body: { result: Json } | { error: JsonObject }): void {
    this.write({ jsonrpc: '2.0', id, ...body });
  }

  private respondError(id: RequestId | null, code: number, message: string, data?: Json): void {
    const error: JsonObject = { code, message };
    if (data !== undefined) error.data = data;
    this.respond(id, { error });
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.log(`unparseable line ignored: ${line.slice(0, 120)}`);
      this.respondError(null, ErrorCodes.parseError, 'Parse error');
      return;
    }
    if (Array.isArray(message) || typeof message !== 'object' || message === null) {
      // ACP v1 does not use batches.
      this.respondError(null, ErrorCodes.invalidRequest, 'Invalid Request');
      return;
    }
    const record = message as Record<string, unknown>;
    const id = validId(record.id) ? record.id : undefined;
    if (typeof record.method === 'string') {
      const params = isObject(record.params) ? (record.params as JsonObject) : {};
      if (id === undefined && 'id' in record && record.id !== undefined) {
        this.respondError(null, ErrorCodes.invalidRequest, 'Invalid Request: bad id');
      } else if (id === undefined) {
        this.dispatchNotification(record.method, params);
      } else {
        void this.dispatchRequest(record.method, params, id);
      }
      return;
    }
    if (id !== undefined && ('result' in record || 'error' in record)) {
      this.settle(id, record);
      return;
    }
    this.log(`message without method or result ignored: ${line.slice(0, 120)}`);
    if (id !== undefined) this.respondError(id, ErrorCodes.invalidRequest, 'Invalid Request');
  }

  private dispatchNotification(method: string, params: JsonObject): void {
    const handler = this.notificationHandlers.get(method);
    if (!handler) {
      this.log(`notification ignored: ${method}`);
      return;
    }
    try {
      handler(params);
    } catch (error) {
      this.log(`notification ${method} failed: ${describe(error)}`);
    }
  }

  private async dispatchRequest(method: string, params: JsonObject, id: RequestId): Promise<void> {
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      this.respondError(id, ErrorCodes.methodNotFound, `Method not found: ${method}`);
      return;
    }
    try {
      this.respond(id, { result: await handler(params, id) });
    } catch (error) {
      if (error instanceof RpcError) {
        this.respondError(id, error.code, error.message, error.data);
      } else {
        this.log(`request ${method} failed: ${describe(error)}`);
        this.respondError(id, ErrorCodes.internalError, describe(error));
      }
    }
  }

  private settle(id: RequestId, response: Record<string, unknown>): void {
    const pending = this.pending.get(id);
    if (!pending) {
      this.log(`response to unknown request ${String(id)} ignored`);
      return;
    }
    this.pending.delete(id);
    if ('error' in response) {
      const error = isObject(response.error) ? (response.error as Record<string, unknown>) : {};
      const code = typeof error.code === 'number' ? error.code : ErrorCodes.internalError;
      const message = typeof error.message === 'string' ? error.message : 'error';
      pending.reject(new RpcError(code, message));
    } else {
      pending.resolve((response.result ?? null) as Json);
    }
  }

  private failPending(reason: string): void {
    for (const pending of this.pending.values()) pending.reject(new RpcError(ErrorCodes.internalError, reason));
    this.pending.clear();
  }
}

function validId(id: unknown): id is RequestId {
  return typeof id === 'number' || typeof id === 'string';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
