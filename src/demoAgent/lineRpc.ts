// JSON-RPC 2.0 over newline-delimited JSON (the ACP stdio framing), on vscode-jsonrpc: this file is only the
// NDJSON framing and the demo's small API on top (request handlers see their request id, which ACP's
// `$/cancel_request` names). Forgiving like a real agent should be: a bad line is answered, never fatal.
import { createInterface } from 'node:readline';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  CancellationTokenSource,
  ErrorCodes as JsonRpcCodes,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageConnection,
  type RequestMessage,
} from 'vscode-jsonrpc/node';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
type RequestId = number | string;

export const ErrorCodes = {
  parseError: JsonRpcCodes.ParseError,
  invalidRequest: JsonRpcCodes.InvalidRequest,
  methodNotFound: JsonRpcCodes.MethodNotFound,
  invalidParams: JsonRpcCodes.InvalidParams,
  internalError: JsonRpcCodes.InternalError,
  resourceNotFound: AcpErrorCodes.ResourceNotFound,
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

/** Reads one JSON-RPC message per line; lines that are not one are answered here and never reach the connection. */
class LineReader extends AbstractMessageReader {
  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly answer: (code: number, message: string) => void,
    private readonly log: (message: string) => void,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const lines = createInterface({ input: this.input, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (line.trim() === '') return;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.log(`unparseable line ignored: ${line.slice(0, 120)}`);
        this.answer(ErrorCodes.parseError, 'Parse error');
        return;
      }
      // ACP has no batches.
      if (!isObject(message)) this.answer(ErrorCodes.invalidRequest, 'Invalid Request');
      else callback(message as unknown as Message);
    });
    lines.once('close', () => this.fireClose());
    return { dispose: () => lines.close() };
  }
}

class LineWriter extends AbstractMessageWriter {
  constructor(private readonly output: NodeJS.WritableStream) {
    super();
  }

  write(message: Message): Promise<void> {
    this.output.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }

  end(): void {}
}

export class LineRpc {
  private readonly connection: MessageConnection;
  /** Each incoming request's id, found again from the token vscode-jsonrpc hands its handler. */
  private readonly requestIds = new WeakMap<CancellationToken, RequestId>();
  /** Resolves when the input stream ends. */
  readonly closed: Promise<void>;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly log: (message: string) => void,
  ) {
    const reader = new LineReader(input, (code, message) => this.answerUnreadable(code, message), log);
    this.connection = createMessageConnection(reader, new LineWriter(output), undefined, {
      cancellationStrategy: {
        receiver: {
          kind: 'request',
          createCancellationTokenSource: (request: RequestMessage) => {
            const source = new CancellationTokenSource();
            this.requestIds.set(source.token, request.id ?? '');
            return source;
          },
        },
        // ACP cancels with session/cancel and $/cancel_request, never LSP's $/cancelRequest.
        sender: { sendCancellation: () => Promise.resolve(), cleanup: () => {} },
      },
    });
    this.connection.onNotification((method) => log(`notification ignored: ${method}`));
    this.closed = new Promise((resolve) => this.connection.onClose(() => resolve()));
    this.connection.listen();
  }

  onRequest(method: string, handler: RequestHandler): void {
    this.connection.onRequest(method, async (params: unknown, token: CancellationToken) => {
      try {
        return await handler(asParams(params), this.requestIds.get(token) ?? '');
      } catch (error) {
        if (error instanceof RpcError) throw new ResponseError(error.code, error.message, error.data);
        this.log(`request ${method} failed: ${describe(error)}`);
        throw new ResponseError(ErrorCodes.internalError, describe(error));
      }
    });
  }

  onNotification(method: string, handler: NotificationHandler): void {
    this.connection.onNotification(method, (params: unknown) => {
      try {
        handler(asParams(params));
      } catch (error) {
        this.log(`notification ${method} failed: ${describe(error)}`);
      }
    });
  }

  notify(method: string, params: JsonObject): void {
    void this.connection.sendNotification(method, params).catch((error: unknown) => this.log(`notification ${method} not sent: ${describe(error)}`));
  }

  /** Sends a request to the client; rejects with RpcError when the client answers with an error. */
  async request(method: string, params: JsonObject): Promise<Json> {
    try {
      return ((await this.connection.sendRequest(method, params)) ?? null) as Json;
    } catch (error) {
      if (error instanceof ResponseError) throw new RpcError(error.code, error.message);
      throw new RpcError(ErrorCodes.internalError, describe(error));
    }
  }

  /** A line that is not a JSON-RPC object has no id to answer: the error goes out with id null. */
  private answerUnreadable(code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`);
  }
}

function asParams(params: unknown): JsonObject {
  return isObject(params) ? (params as JsonObject) : {};
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
