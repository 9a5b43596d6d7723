// The store's text vault on disk (store/textSpill.ts): one append-only file per agent connection, in the
// extension's storage, removed when the connection goes. Writes run one after another off the ingest path; a page
// is kept in memory until its write is done, and for good after a write failed (disk full, folder gone), so
// nothing the chat was shown is lost, and reads of it never touch the disk.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { TextVault, VaultRef } from '../store/textSpill';

export class FileTextVault implements TextVault {
  private size = 0;
  private written: Promise<void> = Promise.resolve();
  /** Pages not on disk (yet, or ever after a failure), by offset. */
  private readonly unwritten = new Map<number, string>();
  private file: Promise<FileHandle> | undefined;
  private failure: Error | undefined;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  put(text: string): VaultRef {
    const ref = { offset: this.size, bytes: Buffer.byteLength(text) };
    this.size += ref.bytes;
    this.unwritten.set(ref.offset, text);
    if (!this.failure && !this.closed) this.written = this.written.then(() => this.write(ref, text));
    return ref;
  }

  /** Resolves when the writes asked for so far are done (or failed). */
  settled(): Promise<void> {
    return this.written;
  }

  /** Reads after the writes asked for so far are done (or failed). */
  async read(ref: VaultRef): Promise<string> {
    await this.written;
    const held = this.unwritten.get(ref.offset);
    if (held !== undefined) return held;
    const buffer = Buffer.alloc(ref.bytes);
    const { bytesRead } = await (await this.open()).read(buffer, 0, ref.bytes, ref.offset);
    if (bytesRead !== ref.bytes) throw new Error(`the file ${this.path} is shorter than what was written to it`);
    return buffer.toString('utf8');
  }

  /** Waits for the writes under way, then closes and deletes the file. */
  async dispose(): Promise<void> {
    this.closed = true;
    await this.written;
    const file = this.file;
    this.file = undefined;
    await file?.then((handle) => handle.close()).catch(() => undefined);
    await fs.rm(this.path, { force: true }).catch(() => undefined);
  }

  private async write(ref: VaultRef, text: string): Promise<void> {
    if (this.failure || this.closed) return;
    try {
      await (await this.open()).write(text, ref.offset, 'utf8');
      this.unwritten.delete(ref.offset);
    } catch (error) {
      this.failure = error as Error;
      this.onError(this.failure);
    }
  }

  private open(): Promise<FileHandle> {
    this.file ??= fs.mkdir(join(this.path, '..'), { recursive: true }).then(() => fs.open(this.path, 'w+'));
    return this.file;
  }
}

/**
 * A folder for this extension host's vaults under `root` (named `<pid>-<start time>`), and the removal of those of
 * extension hosts that are gone: a window that crashed or was killed never deleted its files.
 */
export function vaultFolder(root: string, isRunning: (pid: number) => boolean = processRuns): { readonly folder: string; readonly swept: Promise<void> } {
  const swept = fs.readdir(root).then(
    (names) =>
      Promise.all(
        names.map(async (name) => {
          const pid = Number(/^(\d+)-/.exec(name)?.[1]);
          if (Number.isSafeInteger(pid) && (pid === process.pid || isRunning(pid))) return;
          await fs.rm(join(root, name), { recursive: true, force: true }).catch(() => undefined);
        }),
      ).then(() => undefined),
    () => undefined,
  );
  return { folder: join(root, `${process.pid}-${Date.now()}`), swept };
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
