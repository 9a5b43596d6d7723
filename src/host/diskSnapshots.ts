// What Open Changes compares: the file as it was when the agent first touched it against the file on disk now,
// not the agent's own account (its patches undone), so a line it wrote but left out of its report shows. The
// client keeps each file's text from the first touch per session (its fs reads and writes through the client,
// a tool call naming the file, a file attached to the prompt), bounded; where the agent's report and the disk
// disagree, the review says so. No I/O here: the host reads files through the reader it gives.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileChange } from '../store/sessionChanges';
import { isObject } from '../store/wireMessage';
import { textsAlongPatches } from './patchedTexts';
import { AgentMethod, ClientMethod } from '../protocol/acpMethods';
import { t } from '../presentation/l10n';

export interface SnapshotLimits {
  /** A file larger than this gets no copy. */
  readonly perFileBytes: number;
  /** Copies of one agent connection together; past it, later files get none. */
  readonly totalBytes: number;
  /** Files one agent connection has copies (or a reason for none) of; past it, later files are not read. */
  readonly files: number;
  /** How long an empty read waits before the read that confirms it (an empty file is also a write half done). */
  readonly emptyConfirmMs: number;
}

/** Reads of one file for its copy, at most (two that agree end it). */
const MAX_SNAPSHOT_READS = 4;

const SNAPSHOT_LIMITS: SnapshotLimits = { perFileBytes: 1024 * 1024, totalBytes: 32 * 1024 * 1024, files: 2000, emptyConfirmMs: 150 };

/** The file's text at the first touch (null: it did not exist), or why there is no copy; `order` is when it was touched. */
export type Snapshot = { readonly order: number; readonly text: string | null } | { readonly order: number; readonly missing: string };

/** Reads a file for a copy: its text, null when it does not exist; throws (with the reason) otherwise. */
export type ReadForSnapshot = (absolute: string, maxBytes: number) => Promise<string | null>;

const diskDiffers = () => t('The file on disk differs from what the agent reported');

/** The copies of one agent connection, per file and session. */
export class DiskSnapshots {
  private readonly byPath = new Map<string, Map<string, Snapshot>>();
  private readonly reading = new Map<string, Promise<void>>();
  private count = 0;
  private order = 0;
  /** UTF-8 bytes of the copies kept. */
  bytes = 0;

  constructor(
    private readonly read: ReadForSnapshot,
    private readonly limits: SnapshotLimits = SNAPSHOT_LIMITS,
  ) {}

  /** Copies the file the first time the session touches it (later touches keep the first); resolves once copied. */
  touch(sessionId: string, absolute: string): Promise<void> {
    const key = `${sessionId}\0${absolute}`;
    const pending = this.reading.get(key);
    if (pending) return pending;
    if (this.byPath.get(absolute)?.has(sessionId) || this.count >= this.limits.files) return Promise.resolve();
    this.count++;
    const order = ++this.order;
    const done = this.readSettled(absolute)
      .then(
        (text) => this.keep(sessionId, absolute, order, text),
        (error: unknown) => this.put(sessionId, absolute, { order, missing: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => this.reading.delete(key));
    this.reading.set(key, done);
    return done;
  }

  /** Resolves when the copies being taken are kept (Open Changes waits for them). */
  async settled(): Promise<void> {
    await Promise.all([...this.reading.values()]);
  }

  /** The first copy of the file among these sessions (a tree: its sessions; a subagent: its ancestors too). */
  earliest(sessionIds: Iterable<string>, absolute: string): Snapshot | undefined {
    const copies = this.byPath.get(absolute);
    if (!copies) return undefined;
    let first: Snapshot | undefined;
    for (const id of sessionIds) {
      const copy = copies.get(id);
      if (copy && (!first || copy.order < first.order)) first = copy;
    }
    return first;
  }

  /**
   * The file's text once two reads in a row agree: the agent may be writing it as the client copies it (a tool
   * call is announced, then run), and a read between its truncation and its write would keep a text the file
   * never meant to have. That read sees an empty file, and an agent descheduled on a loaded machine between the
   * two can keep it empty for several reads in a row: an empty read is confirmed only after a pause. A file that
   * keeps changing gets no copy.
   */
  private async readSettled(absolute: string): Promise<string | null> {
    let text = await this.read(absolute, this.limits.perFileBytes);
    for (let reads = 1; reads < MAX_SNAPSHOT_READS; reads++) {
      if (text === '') await new Promise((resolve) => setTimeout(resolve, this.limits.emptyConfirmMs));
      const again = await this.read(absolute, this.limits.perFileBytes);
      if (again === text) return text;
      text = again;
    }
    throw new Error(t('it changed each time Subchats read it'));
  }

  private keep(sessionId: string, absolute: string, order: number, text: string | null): void {
    const size = text === null ? 0 : Buffer.byteLength(text);
    if (size > this.limits.perFileBytes) return this.put(sessionId, absolute, { order, missing: `it is larger than ${sizeLabel(this.limits.perFileBytes)}` });
    if (this.bytes + size > this.limits.totalBytes) return this.put(sessionId, absolute, { order, missing: `Subchats keeps at most ${sizeLabel(this.limits.totalBytes)} of file copies per agent connection` });
    this.bytes += size;
    this.put(sessionId, absolute, { order, text });
  }

  private put(sessionId: string, absolute: string, snapshot: Snapshot): void {
    let copies = this.byPath.get(absolute);
    if (!copies) this.byPath.set(absolute, (copies = new Map()));
    copies.set(sessionId, snapshot);
  }
}

function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}

/** The texts Open Changes shows for a change; `differs`: the disk is not what the agent reported; `note`: why it could not check. */
export interface ReviewTexts {
  readonly before: string | null | undefined;
  readonly after: string;
  readonly differs?: true;
  readonly note?: string;
}

/**
 * What Open Changes shows for a change, given the first copy of the file (if any) and the file now (null: it does
 * not exist; a reason: it could not be read). With a copy: the copy against the disk, unless every report of the
 * agent (texts after and before, patches) fits what the copy and the disk show, in which case the agent's text
 * before (a copy taken after its first edit cannot see earlier). Without one: the agent's account, as before.
 */
export function reviewChange(change: FileChange, snapshot: Snapshot | undefined, current: string | null | { readonly reason: string }): ReviewTexts | { readonly reason: string } {
  if (current !== null && typeof current === 'object') return change.after !== undefined ? { before: change.before, after: change.after } : current;
  const along = change.patches?.length ? textsAlongPatches(current, change.patches) : undefined;
  if (!snapshot || 'missing' in snapshot) {
    const account = agentsAccount(change, along, current);
    if ('reason' in account || !snapshot) return account;
    return { ...account, note: t("Subchats kept no copy of it from before the agent's work ({0}): the text before is the agent's account", snapshot.missing) };
  }
  const alongTexts = along && 'texts' in along ? along.texts : [];
  const reported = [...alongTexts, ...(change.before !== undefined ? [change.before] : []), ...(change.after !== undefined ? [change.after] : [])];
  const claimsBefore = along !== undefined || change.before !== undefined;
  const agrees = (change.after === undefined || change.after === current) && (along === undefined || 'texts' in along) && (!claimsBefore || reported.includes(snapshot.text));
  const after = current ?? '';
  if (!agrees) return { before: snapshot.text, after, differs: true };
  return { before: alongTexts.length > 0 ? alongTexts[0] : change.before !== undefined ? change.before : snapshot.text, after };
}

/** The texts as the agent reported them (v2: its patches undone from the disk), or why there are none. */
function agentsAccount(change: FileChange, along: ReturnType<typeof textsAlongPatches> | undefined, current: string | null): ReviewTexts | { readonly reason: string } {
  if (change.after !== undefined) return { before: change.before, after: change.after };
  if (!along) return { reason: t('the agent reported which file it changed, not how') };
  return 'problem' in along ? { reason: along.problem } : { before: along.texts[0], after: current ?? '' };
}

/** A change's path made absolute against the session's folder; undefined for a relative path without one. */
export function absolutePath(filePath: string, cwd: string | null | undefined): string | undefined {
  if (path.isAbsolute(filePath)) return path.normalize(filePath);
  return cwd ? path.join(cwd, filePath) : undefined;
}

export interface Touch {
  readonly sessionId: string;
  readonly path: string;
}

/**
 * The files a wire message says the agent is about to touch or touched: paths in a session/update's tool call
 * (locations, v1 and v2 diffs), an fs request's path, files attached to a prompt the client sends. Lenient:
 * anything odd is skipped.
 */
export function pathsTouchedBy(message: unknown, direction: 'client->agent' | 'agent->client', cwdOf: (sessionId: string) => string | null | undefined): Touch[] {
  if (!isObject(message) || !isObject(message['params'])) return [];
  const params = message['params'];
  const sessionId = params['sessionId'];
  if (typeof sessionId !== 'string') return [];
  const named: string[] = [];
  const method = message['method'];
  if (direction === 'agent->client' && method === ClientMethod.sessionUpdate && isObject(params['update'])) named.push(...toolCallPaths(params['update']));
  else if (direction === 'agent->client' && (method === ClientMethod.fsReadTextFile || method === ClientMethod.fsWriteTextFile) && typeof params['path'] === 'string') named.push(params['path']);
  else if (direction === 'client->agent' && method === AgentMethod.sessionPrompt && Array.isArray(params['prompt'])) named.push(...attachedPaths(params['prompt']));
  const cwd = cwdOf(sessionId);
  return named.flatMap((name) => {
    const absolute = absolutePath(name, cwd);
    return absolute ? [{ sessionId, path: absolute }] : [];
  });
}

function toolCallPaths(update: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  const locations = update['locations'];
  if (Array.isArray(locations)) for (const location of locations) if (isObject(location) && typeof location['path'] === 'string') paths.push(location['path']);
  const content = update['content'];
  for (const item of Array.isArray(content) ? content : [content]) {
    if (!isObject(item) || item['type'] !== 'diff') continue;
    if (typeof item['path'] === 'string') paths.push(item['path']);
    const changes = item['changes'];
    if (Array.isArray(changes)) for (const change of changes) if (isObject(change) && typeof change['path'] === 'string') paths.push(change['path']);
  }
  return paths;
}

function attachedPaths(blocks: readonly unknown[]): string[] {
  return blocks.flatMap((block) => {
    if (!isObject(block)) return [];
    const uri = block['type'] === 'resource_link' ? block['uri'] : isObject(block['resource']) ? block['resource']['uri'] : undefined;
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return [];
    try {
      return [fileURLToPath(uri)];
    } catch {
      return [];
    }
  });
}

/** The line that says so, for one file or several (a diff title, a notification). */
export function differsLine(files: number): string {
  return files === 1 ? diskDiffers() : t('{0} files on disk differ from what the agent reported', files);
}
