import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AbstractMessageReader, type DataCallback, type Disposable } from 'vscode-jsonrpc/node';
import { parseWireLine, type TransportHooks } from '../../src/acp/ndjson';

const DEFAULT_MAX_LINE_LENGTH = 64 * 1024 * 1024;

// The NDJSON reader before issue 10 (kept only as the benchmark's baseline): it appends to one growing string and
// searches it with indexOf, which flattens the rope on every chunk.
export class NdjsonMessageReaderBefore extends AbstractMessageReader {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private scanFrom = 0;
  private discardingLongLine = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly hooks: TransportHooks = {},
    private readonly maxLineLength = DEFAULT_MAX_LINE_LENGTH,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer | string) => this.accept(typeof chunk === 'string' ? chunk : this.decoder.write(chunk), callback);
    const onEnd = () => {
      this.accept(this.decoder.end(), callback);
      // A last line without a newline is still a message.
      if (!this.discardingLongLine && this.pending.trim()) this.handleLine(this.pending, callback);
      this.pending = '';
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

  private accept(text: string, callback: DataCallback): void {
    if (!text) return;
    this.pending += text;
    for (;;) {
      const newline = this.pending.indexOf('\n', this.scanFrom);
      if (newline < 0) break;
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      this.scanFrom = 0;
      if (this.discardingLongLine) {
        this.discardingLongLine = false;
        continue;
      }
      this.handleLine(line, callback);
    }
    this.scanFrom = this.pending.length;
    if (this.pending.length > this.maxLineLength) {
      if (!this.discardingLongLine) {
        this.hooks.onInvalidLine?.(this.pending.slice(0, 200), `line longer than ${this.maxLineLength} characters; dropped`);
      }
      this.discardingLongLine = true;
      this.pending = '';
      this.scanFrom = 0;
    }
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
    this.hooks.tap?.(parsed.raw, 'agent->client');
    callback(parsed.message);
  }

  private fireCloseOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.fireClose();
  }
}
