// Bounded transcripts of the wire: one `{ts, dir, msg}` JSON line per message (what `subchats replay` reads).
import { createWriteStream, type WriteStream } from 'node:fs';
import type { WireDirection } from './ndjson';
import { StateLineFilter } from './transcriptRotation';
import { wireJson } from './wireJson';

export interface TranscriptRecorder {
  record(message: object, direction: WireDirection): void;
}

/**
 * One transcript line; never throws. A message that cannot be written as JSON still leaves a line: an
 * `unrecordable` record with the reason, the bytes written before it failed, and its id and method.
 */
export function formatTranscriptLine(message: object, direction: WireDirection, at: Date = new Date()): string {
  const head = `{"ts":${JSON.stringify(at.toISOString())},"dir":${JSON.stringify(direction)}`;
  const json = wireJson(message);
  if (json.text !== undefined) return `${head},"msg":${json.text}}`;
  return `${head},"unrecordable":${JSON.stringify({ reason: json.unrecordable, bytes: json.bytes, ...identityOf(message) })}}`;
}

/** One "Subchats Protocol" output line; never throws (a message that cannot be JSON is named, with its size). */
export function formatProtocolLogLine(agentName: string, message: object, direction: WireDirection): string {
  const json = wireJson(message);
  const text = json.text ?? `(not recordable: ${json.unrecordable}; at least ${json.bytes} bytes) ${JSON.stringify(identityOf(message))}`;
  return `${agentName} ${direction === 'client->agent' ? '→' : '←'} ${text}`;
}

/** The JSON-RPC id and method of a message that could not be written, for whoever reads the record. */
function identityOf(message: object): { id?: string | number; method?: string } {
  const { id, method } = message as { id?: unknown; method?: unknown };
  return {
    ...(typeof id === 'number' || typeof id === 'string' ? { id: typeof id === 'string' ? id.slice(0, 200) : id } : {}),
    ...(typeof method === 'string' ? { method: method.slice(0, 200) } : {}),
  };
}

/** Keeps the most recent lines within `maxBytes` (UTF-16 length used as the size measure); drops the oldest. */
export class MemoryTranscript implements TranscriptRecorder {
  private readonly buffer: string[] = [];
  private first = 0;
  private size = 0;
  droppedLines = 0;

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  record(message: object, direction: WireDirection): void {
    this.recordLine(formatTranscriptLine(message, direction));
  }

  /** Adds an already formatted transcript line (history and opened files keep their own timestamps). */
  recordLine(line: string): void {
    this.buffer.push(line);
    this.size += line.length + 1;
    while (this.size > this.maxBytes && this.first < this.buffer.length) {
      this.size -= this.buffer[this.first]!.length + 1;
      this.first++;
      this.droppedLines++;
    }
    if (this.first > 1024 && this.first * 2 > this.buffer.length) {
      this.buffer.splice(0, this.first);
      this.first = 0;
    }
  }

  lines(): string[] {
    return this.buffer.slice(this.first);
  }

  /** JSONL text, ready to save as a transcript file. */
  text(): string {
    const lines = this.lines();
    return lines.length ? `${lines.join('\n')}\n` : '';
  }
}

/** Appends to a file until `maxBytes` have been written, then stops (and says so in `truncated`). */
export class FileTranscript implements TranscriptRecorder {
  private readonly stream: WriteStream;
  private written = 0;
  private failed = false;
  private readonly stateLines = new StateLineFilter();
  truncated = false;
  droppedBytes = 0;

  constructor(
    readonly filePath: string,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly onError?: (error: Error) => void,
    /** Told how many bytes were left out so far: on the first line dropped, once per MB, and on close. */
    private readonly onDropped?: (droppedBytes: number) => Promise<void> | void,
  ) {
    this.stream = createWriteStream(filePath, { flags: 'a', encoding: 'utf8' });
    this.stream.on('error', (error) => {
      this.failed = true;
      this.onError?.(error);
    });
  }

  record(message: object, direction: WireDirection): void {
    // Past the limit only turn ends and state changes are written, so the file still ends as the session did.
    const keeps = this.stateLines.keeps(message, direction);
    if (this.failed) return;
    const line = `${formatTranscriptLine(message, direction)}\n`;
    const bytes = Buffer.byteLength(line);
    if ((this.truncated || this.written + bytes > this.maxBytes) && !keeps) {
      this.truncated = true;
      const before = this.droppedBytes;
      this.droppedBytes += bytes;
      if (before === 0 || Math.floor(before / 1_048_576) !== Math.floor(this.droppedBytes / 1_048_576)) void this.onDropped?.(this.droppedBytes);
      return;
    }
    this.written += bytes;
    this.stream.write(line);
  }

  /** Resolves once the file is closed and what was left out is on record. */
  async close(): Promise<void> {
    const recorded = this.droppedBytes > 0 ? this.onDropped?.(this.droppedBytes) : undefined;
    await new Promise<void>((resolve) => {
      if (this.stream.closed || this.stream.destroyed) return resolve();
      this.stream.end(() => resolve());
    });
    await recorded;
  }
}
