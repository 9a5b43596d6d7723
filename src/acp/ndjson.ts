// Newline-delimited JSON-RPC framing for vscode-jsonrpc (ACP is NDJSON, not LSP's Content-Length).
// Every message is handed to the wire tap before vscode-jsonrpc sees it, so observers get wire order.
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message, type MessageWriter } from 'vscode-jsonrpc/node';

export type WireDirection = 'client->agent' | 'agent->client';
export type WireTap = (message: object, direction: WireDirection) => void;

export interface TransportHooks {
  /** Sees every valid message in both directions before it is dispatched or written. */
  readonly tap?: WireTap;
  /** A received line that is not JSON or not JSON-RPC; it is skipped and the connection lives on. */
  readonly onInvalidLine?: (raw: string, reason: string) => void;
  /** A received JSON array (ACP has no batches); the connection answers it with -32600. */
  readonly onBatch?: (raw: string) => void;
  /** Sees each received message after the tap; returning true keeps it from vscode-jsonrpc (already answered). */
  readonly intercept?: (message: Message) => boolean;
  readonly log?: (text: string) => void;
}

/** Bytes per received line (`subchats.maxLineMegabytes`); ACP messages are far smaller, a runaway line is skipped. */
export const DEFAULT_MAX_LINE_LENGTH = 16 * 1024 * 1024;

export type ParsedLine =
  | { readonly kind: 'message'; readonly message: Message; readonly raw: object }
  | { readonly kind: 'batch' }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Classifies one received line. `message` is what vscode-jsonrpc dispatches; `raw` is what was on the wire
 * (they differ only when a response id was normalised).
 */
export function parseWireLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { kind: 'invalid', reason: `not JSON (${(error as Error).message})` };
  }
  if (Array.isArray(value)) return { kind: 'batch' };
  if (typeof value !== 'object' || value === null) return { kind: 'invalid', reason: 'not a JSON-RPC object' };
  const reason = jsonRpcProblem(value as Record<string, unknown>);
  if (reason) return { kind: 'invalid', reason };
  return { kind: 'message', message: normaliseResponseId(value as Message), raw: value };
}

function jsonRpcProblem(candidate: Record<string, unknown>): string | undefined {
  const hasId = 'id' in candidate;
  const id = candidate.id;
  if ('method' in candidate) {
    if (typeof candidate.method !== 'string') return 'method is not a string';
    if (hasId && typeof id !== 'string' && typeof id !== 'number') return 'request id must be a string or a number';
    return undefined;
  }
  if ('result' in candidate || 'error' in candidate) {
    if (typeof id !== 'string' && typeof id !== 'number' && id !== null) return 'response id must be a string, a number or null';
    if ('error' in candidate && candidate.error !== undefined) {
      const error = candidate.error as Record<string, unknown> | null;
      if (typeof error !== 'object' || error === null || typeof error.code !== 'number') return 'response error is not an object with a numeric code';
    } else if (candidate.result === undefined) {
      return 'response has neither result nor error';
    }
    return undefined;
  }
  return 'neither a request, a notification nor a response';
}

/** Our request ids are numbers; an agent that echoes them as strings ("3") still gets matched. */
function normaliseResponseId(message: Message): Message {
  const candidate = message as Message & { id?: unknown; method?: unknown };
  if (candidate.method === undefined && typeof candidate.id === 'string' && /^\d+$/.test(candidate.id)) {
    return { ...candidate, id: Number(candidate.id) } as Message;
  }
  return message;
}

function safeTap(hooks: TransportHooks, message: object, direction: WireDirection): void {
  if (!hooks.tap) return;
  try {
    hooks.tap(message, direction);
  } catch (error) {
    hooks.log?.(`Wire tap failed: ${(error as Error).message}`);
  }
}

export class NdjsonMessageReader extends AbstractMessageReader {
  // Bytes of the line being read, kept as received: each chunk is scanned once for a newline and the line is
  // joined and decoded once (a growing string would be flattened and rescanned on every chunk: O(n²)).
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  private discardingLongLine = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly hooks: TransportHooks = {},
    /** In bytes; a longer line is skipped with a diagnostic and reading goes on. */
    private readonly maxLineLength = DEFAULT_MAX_LINE_LENGTH,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer | string) => this.accept(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, callback);
    const onEnd = () => {
      // A last line without a newline is still a message.
      if (!this.discardingLongLine && this.pendingBytes > 0) this.handleLine(this.takeLine(undefined), callback);
      this.reset();
      this.fireCloseOnce();
    };
    const onClose = () => this.fireCloseOnce();
    const onError = (error: Error) => this.fireError(error);
    this.input.on('data', onData);
    this.input.on('end', onEnd);
    this.input.on('close', onClose);
    this.input.on('error', onError);
    return {
      dispose: () => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.off('close', onClose);
        this.input.off('error', onError);
      },
    };
  }

  private accept(chunk: Buffer, callback: DataCallback): void {
    // 0x0A never occurs inside a multi-byte UTF-8 sequence, so bytes can be split before decoding.
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, from);
      if (newline < 0) break;
      const part = chunk.subarray(from, newline);
      from = newline + 1;
      if (this.discardingLongLine) {
        this.discardingLongLine = false;
        continue;
      }
      if (this.pendingBytes + part.length > this.maxLineLength) {
        this.dropLongLine(part);
        this.discardingLongLine = false;
        continue;
      }
      this.handleLine(this.takeLine(part), callback);
    }
    if (from >= chunk.length || this.discardingLongLine) return;
    const rest = from === 0 ? chunk : chunk.subarray(from);
    if (this.pendingBytes + rest.length > this.maxLineLength) {
      this.dropLongLine(rest);
      return;
    }
    this.chunks.push(rest);
    this.pendingBytes += rest.length;
  }

  /** The pending bytes plus `last`, decoded once; the buffer is emptied. */
  private takeLine(last: Buffer | undefined): string {
    if (last) this.chunks.push(last);
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.reset();
    return bytes.toString('utf8');
  }

  private dropLongLine(tail: Buffer): void {
    const head = (this.chunks[0] ?? tail).subarray(0, 800).toString('utf8').slice(0, 200);
    this.hooks.onInvalidLine?.(head, `line longer than ${this.maxLineLength} bytes; dropped`);
    this.reset();
    this.discardingLongLine = true;
  }

  private reset(): void {
    this.chunks = [];
    this.pendingBytes = 0;
  }

  private handleLine(rawLine: string, callback: DataCallback): void {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (!line.trim()) return;
    const parsed = parseWireLine(line);
    if (parsed.kind === 'invalid') {
      this.hooks.onInvalidLine?.(line, parsed.reason);
      return;
    }
    if (parsed.kind === 'batch') {
      this.hooks.onInvalidLine?.(line, 'JSON-RPC batches are not part of ACP');
      this.hooks.onBatch?.(line);
      return;
    }
    safeTap(this.hooks, parsed.raw, 'agent->client');
    if (this.hooks.intercept?.(parsed.message)) return;
    callback(parsed.message);
  }

  private fireCloseOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.fireClose();
  }
}

export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private ended = false;

  constructor(
    private readonly output: Writable,
    private readonly hooks: TransportHooks = {},
  ) {
    super();
    // Without a listener an EPIPE after the agent died would be an uncaught 'error' event.
    output.on('error', (error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    if (this.ended || this.output.destroyed || this.output.writableEnded) {
      return Promise.reject(new Error('the agent input stream is closed'));
    }
    safeTap(this.hooks, message, 'client->agent');
    const line = `${JSON.stringify(message)}\n`;
    return new Promise((resolve, reject) => {
      this.output.write(line, (error) => {
        if (error) {
          this.fireError(error, message);
          reject(error);
        } else {
          resolve();
        }
      });
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.output.end();
  }
}
