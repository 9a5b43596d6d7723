// Session history on disk: one append-only transcript per agent connection (`<id>.jsonl`, the format
// `subchats replay` reads) plus a small metadata file written atomically. Bounded by total size (oldest first).
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { FileTranscript } from '../acp/transcriptRecorder';
import { rotateTranscript } from '../acp/transcriptRotation';

export interface HistoryConnectionMeta {
  readonly id: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly startedAt: number;
  readonly cwd: string;
  /** Bytes of the oldest lines rotated out of this connection's transcript so far. */
  readonly droppedBytes?: number;
}

interface HistoryConnection {
  readonly meta: HistoryConnectionMeta;
  /** Complete lines only: a torn last line from a crash is dropped. */
  readonly text: string;
  readonly bytes: number;
  /** How much of the oldest part was dropped to stay within the budget (0 when nothing was). */
  readonly droppedBytes: number;
}

export interface HistoryLoadResult {
  readonly connections: HistoryConnection[];
  /** Files that could not be read, with the reason (shown as warnings, never fatal). */
  readonly problems: string[];
}

const META_SUFFIX = '.meta.json';
const TRANSCRIPT_SUFFIX = '.jsonl';

export class SessionHistory {
  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** Starts recording a connection: writes its metadata and returns the transcript to append to. */
  /** `live`: connections still recording, whose files pruning must not delete. */
  async startConnection(meta: HistoryConnectionMeta, onError?: (error: Error) => void, live: Iterable<string> = []): Promise<FileTranscript> {
    await fs.mkdir(this.dir, { recursive: true });
    await writeAtomically(join(this.dir, meta.id + META_SUFFIX), JSON.stringify(meta));
    await this.prune(new Set([meta.id, ...live]));
    // A live connection may run past the budget (up to twice it, then state lines only); the next load
    // rotates its file back within the budget, keeping the newest part.
    // What a live connection leaves out is written to its metadata, so the cut is known after a reload.
    // Writes go one after another, so the newest count is the one left on disk (and close can wait for it).
    let written: Promise<void> = Promise.resolve();
    const recordDropped = (droppedBytes: number): Promise<void> => {
      const write = () => writeAtomically(join(this.dir, meta.id + META_SUFFIX), JSON.stringify({ ...meta, droppedBytes: (meta.droppedBytes ?? 0) + droppedBytes }));
      written = written.then(write).catch((error: unknown) => onError?.(error as Error));
      return written;
    };
    return new FileTranscript(join(this.dir, meta.id + TRANSCRIPT_SUFFIX), this.maxBytes * 2, onError, recordDropped);
  }

  async load(): Promise<HistoryLoadResult> {
    const problems: string[] = [];
    const entries = await this.entries();
    const connections: HistoryConnection[] = [];
    for (const { id, bytes } of entries) {
      let meta: HistoryConnectionMeta;
      try {
        meta = parseMeta(await fs.readFile(join(this.dir, id + META_SUFFIX), 'utf8'), id);
      } catch (error) {
        problems.push(`history ${id}: unreadable metadata (${(error as Error).message}); skipped`);
        continue;
      }
      let text = '';
      try {
        text = await fs.readFile(join(this.dir, id + TRANSCRIPT_SUFFIX), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`history ${id}: ${(error as Error).message}`);
      }
      const lastNewline = text.lastIndexOf('\n');
      text = lastNewline >= 0 ? text.slice(0, lastNewline + 1) : '';
      if (Buffer.byteLength(text) > this.maxBytes) {
        const rotated = rotateTranscript(text, this.maxBytes);
        text = rotated.text;
        meta = { ...meta, droppedBytes: (meta.droppedBytes ?? 0) + rotated.droppedBytes };
        try {
          await writeAtomically(join(this.dir, id + TRANSCRIPT_SUFFIX), text);
          await writeAtomically(join(this.dir, id + META_SUFFIX), JSON.stringify(meta));
        } catch (error) {
          problems.push(`history ${id}: could not rotate (${(error as Error).message})`);
        }
      }
      connections.push({ meta, text, bytes, droppedBytes: meta.droppedBytes ?? 0 });
    }
    // Newest first: they are replayed in this order, so the sessions the user most likely wants show first.
    connections.sort((a, b) => b.meta.startedAt - a.meta.startedAt);
    return { connections, problems };
  }

  /** Deletes one connection's history, or all of it. */
  async delete(id?: string): Promise<void> {
    const ids = id ? [id] : (await this.entries()).map((e) => e.id);
    await Promise.all(ids.flatMap((i) => [META_SUFFIX, TRANSCRIPT_SUFFIX].map((s) => fs.rm(join(this.dir, i + s), { force: true }))));
  }

  /** Drops the oldest connections until the total size fits, never touching `keep`. */
  async prune(keep: ReadonlySet<string> = new Set()): Promise<string[]> {
    const entries = await this.entries();
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    const dropped: string[] = [];
    for (const entry of entries.sort((a, b) => a.mtime - b.mtime)) {
      if (total <= this.maxBytes) break;
      if (keep.has(entry.id)) continue;
      await this.delete(entry.id);
      total -= entry.bytes;
      dropped.push(entry.id);
    }
    return dropped;
  }

  private async entries(): Promise<{ id: string; bytes: number; mtime: number }[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const out: { id: string; bytes: number; mtime: number }[] = [];
    for (const name of names) {
      if (!name.endsWith(META_SUFFIX)) continue;
      const id = name.slice(0, -META_SUFFIX.length);
      let bytes = 0;
      let mtime = 0;
      for (const suffix of [META_SUFFIX, TRANSCRIPT_SUFFIX]) {
        try {
          const stat = await fs.stat(join(this.dir, id + suffix));
          bytes += stat.size;
          mtime = Math.max(mtime, stat.mtimeMs);
        } catch {
          // A missing transcript just means nothing was recorded yet.
        }
      }
      out.push({ id, bytes, mtime });
    }
    return out;
  }
}

function parseMeta(text: string, id: string): HistoryConnectionMeta {
  const value = JSON.parse(text) as Partial<HistoryConnectionMeta>;
  if (typeof value !== 'object' || value === null || value.id !== id || typeof value.agentId !== 'string') {
    throw new Error('not a history metadata object');
  }
  return {
    id,
    agentId: value.agentId,
    agentName: typeof value.agentName === 'string' ? value.agentName : value.agentId,
    startedAt: typeof value.startedAt === 'number' ? value.startedAt : 0,
    cwd: typeof value.cwd === 'string' ? value.cwd : '',
    ...(typeof value.droppedBytes === 'number' && value.droppedBytes > 0 ? { droppedBytes: value.droppedBytes } : {}),
  };
}

let tempCounter = 0;
// Unique temporary names: two writes of the same file may overlap.
async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  await fs.writeFile(temp, text, 'utf8');
  await fs.rename(temp, file);
}
