// The JSON-RPC channel to one agent process: vscode-jsonrpc over NDJSON on its stdio, every message observed
// in wire order, typed requests and notifications out, and every outstanding request rejected with a
// readable error (agent gone, connection closed) once the channel closes. Knows no ACP method but
// `$/cancel_request`.
import type { Readable, Writable } from 'node:stream';
import {
  ConnectionError,
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  type Logger,
  type Message,
  type MessageConnection,
  type NotificationType,
  type RequestParam,
  type RequestType,
} from 'vscode-jsonrpc/node';
import { PendingAgentRequestIds } from './agentRequestIds';
import { AgentRequestError, ConnectionClosedError } from './errors';
import type { IncomingCancellation } from './incomingCancellation';
import * as v1 from './methods/v1';
import { NdjsonMessageReader, NdjsonMessageWriter, type WireTap } from './ndjson';

export interface RpcChannelOptions {
  readonly agentName: string;
  readonly stdout: Readable;
  readonly stdin: Writable;
  /** Sees every message in both directions, in wire order, before it is dispatched or written. */
  readonly observe: WireTap;
  /** A received line that is not JSON / not JSON-RPC (skipped; the channel lives on). */
  readonly onInvalidLine: (raw: string, reason: string) => void;
  readonly maxLineBytes?: number;
  readonly incoming: IncomingCancellation;
  /** The agent closed its stdout. */
  readonly onClose: () => void;
  readonly log: (text: string) => void;
}

/** Outstanding request we sent; rejected with a readable error when the agent goes away. */
export interface OutgoingRequest {
  readonly method: string;
  readonly reject: (error: Error) => void;
}

export class RpcChannel {
  /** For registering the handlers of the agent's requests (before `listen`). */
  readonly connection: MessageConnection;
  private readonly writer: NdjsonMessageWriter;
  private readonly outgoing = new Set<OutgoingRequest>();
  private readonly agentRequestIds = new PendingAgentRequestIds();
  private closedError: ((method: string) => Error) | undefined;

  constructor(private readonly options: RpcChannelOptions) {
    const { log } = options;
    const hooks = {
      tap: (message: object, direction: 'client->agent' | 'agent->client') => {
        if (direction === 'client->agent') this.agentRequestIds.answered(message);
        options.observe(message, direction);
      },
      onInvalidLine: options.onInvalidLine,
      onBatch: () => {
        void writer.write({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.InvalidRequest, message: 'ACP does not use JSON-RPC batches' } } as never).catch(() => undefined);
      },
      // vscode-jsonrpc queues requests by id, so a second request with a pending id would replace the first:
      // the duplicate is answered with an error here and never reaches it.
      intercept: (message: Message) => this.agentRequestIds.refuseDuplicate(message, (answer) => void writer.write(answer as never).catch(() => undefined)),
      log,
    };
    const reader = new NdjsonMessageReader(options.stdout, hooks, options.maxLineBytes);
    const writer = new NdjsonMessageWriter(options.stdin, hooks);
    this.writer = writer;
    this.connection = createMessageConnection(reader, writer, jsonRpcLogger(log), {
      cancellationStrategy: {
        receiver: { kind: 'request', createCancellationTokenSource: (request) => options.incoming.sourceFor(request) },
        sender: {
          sendCancellation: (connection, id) => connection.sendNotification(v1.cancelRequest, { requestId: id }),
          cleanup: () => undefined,
        },
      },
      // With a finite limit vscode-jsonrpc settles responses as they are read instead of queueing them
      // behind notifications; the limit itself is never reached.
      maxParallelism: Number.MAX_SAFE_INTEGER,
    });
    this.connection.onError(([error]) => log(`Connection error: ${error.message}`));
    this.connection.onClose(() => options.onClose());
  }

  /** Starts reading; register the request handlers first. */
  listen(): void {
    this.connection.listen();
  }

  get isClosed(): boolean {
    return this.closedError !== undefined;
  }

  throwIfClosed(method: string): void {
    if (this.closedError) throw this.closedError(method);
  }

  request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    const { method } = type;
    if (this.closedError) return Promise.reject(this.closedError(method));
    return new Promise<R>((resolve, reject) => {
      const untrack = this.track({ method, reject });
      let sent: Promise<R>;
      try {
        sent = this.connection.sendRequest(type, params as RequestParam<P>);
      } catch (error) {
        untrack();
        reject(this.sendFailure(method, error));
        return;
      }
      sent.then(
        (result) => {
          untrack();
          resolve(result);
        },
        (error: unknown) => {
          untrack();
          reject(this.sendFailure(method, error));
        },
      );
    });
  }

  async notify<P>(type: NotificationType<P>, params: P): Promise<void> {
    if (this.closedError) throw this.closedError(type.method);
    try {
      await this.connection.sendNotification(type, params as RequestParam<P>);
    } catch (error) {
      throw this.sendFailure(type.method, error);
    }
  }

  /** Counts `entry` as outstanding (rejected on close) until the returned function is called. */
  track(entry: OutgoingRequest): () => void {
    this.outgoing.add(entry);
    return () => this.outgoing.delete(entry);
  }

  /**
   * Idempotent: rejects what is outstanding with `errorFor(method)` (and anything sent later), runs
   * `cleanUp`, then writes nothing more and disposes the connection.
   */
  close(errorFor: (method: string) => Error, cleanUp: () => void): void {
    if (this.closedError) return;
    this.closedError = errorFor;
    for (const entry of [...this.outgoing]) entry.reject(errorFor(entry.method));
    this.outgoing.clear();
    cleanUp();
    this.writer.end(); // nothing may be written (or tapped) after this point
    try {
      this.connection.dispose();
    } catch (error) {
      this.options.log(`Disposing the connection failed: ${(error as Error).message}`);
    }
  }

  private sendFailure(method: string, error: unknown): Error {
    if (this.closedError) return this.closedError(method);
    if (error instanceof ResponseError && !isLocalConnectionFailure(error.code)) {
      return new AgentRequestError(this.options.agentName, method, error.code, error.message, error.data);
    }
    if (error instanceof ConnectionError || error instanceof ResponseError) return new ConnectionClosedError(this.options.agentName, method);
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** vscode-jsonrpc's own codes for write/read failures and disposal (-32099..-32096), not agent errors. */
function isLocalConnectionFailure(code: number): boolean {
  return code >= ErrorCodes.ConnectionInactive && code <= ErrorCodes.MessageWriteError;
}

function jsonRpcLogger(log: (text: string) => void): Logger {
  return { error: log, warn: log, info: log, log };
}
