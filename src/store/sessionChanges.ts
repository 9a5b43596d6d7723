// What each session changed in files, derived once from store facts: the diffs of its completed tool calls,
// the edits it reported only by location, and the files the client wrote for it (fs/write_text_file).
// A tree's changes merge its sessions' per file: the text before the first change, after the last one.
import { diffSummary } from '../presentation/lineDiff';
import { filePatchesOf, patchFor, type FilePatch } from './gitPatches';
import type { FileChangeSummary, FileWrite, SessionView, ToolCallRecord } from './model';
import type { SessionStoreReader } from './storeAccess';
import { preOrder } from '../presentation/treeOrder';

export interface FileChange extends FileChangeSummary {
  /** The text before: null when the agent reported the file as new, undefined when it never said. */
  readonly before: string | null | undefined;
  /** The text after; undefined for an edit reported only by its location. */
  readonly after: string | undefined;
  /**
   * The v2 patch sections reported for it, oldest first: Open Changes rebuilds the texts from them when the
   * agent reported no text, and checks them against the disk when it did (a write through the client).
   */
  readonly patches?: readonly FilePatch[];
}

/** Tool kinds whose completed calls changed the files they name, even without a diff. */
const EDIT_KINDS = new Set(['edit', 'delete', 'move']);

interface Edit {
  readonly path: string;
  readonly before?: string | null | undefined;
  readonly after?: string;
  /** Whether `before` was reported (a diff), as opposed to unknown (a write, a location). */
  readonly reportsBefore: boolean;
  /** An ACP v2 diff: no texts, its file's sections of the git patch (when it sent one). */
  readonly patch?: PatchedFile;
}

/** A file known from v2 patch sections, oldest first: they give its counts and, undone, its text before. */
interface PatchedFile {
  readonly created: boolean;
  readonly sections: readonly FilePatch[];
}

interface Memo<T> {
  readonly sources: readonly unknown[];
  readonly value: T;
}

const ownMemo = new WeakMap<SessionView, Memo<readonly FileChange[]>>();
/** Per subtree root, with the store revision it was computed at: the tree's 1 s tick asks again with nothing changed. */
const treeMemo = new WeakMap<SessionView, Memo<readonly FileChange[]> & { readonly revision: number | undefined }>();

function sameSources(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((source, i) => source === b[i]);
}

/**
 * The objects a session's changes come from, in order: diff items and edit locations of completed tool calls,
 * and client writes. Cheap (no texts read): the memo compares these before anything is computed.
 */
function sourcesOf(session: SessionView): unknown[] {
  const sources: unknown[] = [];
  for (const toolCallId of session.toolCallOrder) {
    const call: ToolCallRecord | undefined = session.toolCalls[toolCallId];
    // Only a completed call changed anything: a pending one is a proposal, a failed one may not have applied.
    if (!call || call.status !== 'completed') continue;
    const before = sources.length;
    for (const item of call.content) if (isV1Diff(item) || isV2Diff(item)) sources.push(item);
    if (sources.length === before && EDIT_KINDS.has(call.kind)) sources.push(call.locations);
  }
  for (const write of session.fileWrites as readonly FileWrite[]) sources.push(write);
  return sources;
}

function isV1Diff(item: ToolCallRecord['content'][number]): boolean {
  return item.type === 'diff' && typeof item['path'] === 'string' && typeof item['newText'] === 'string';
}

/** A v2 diff that names at least one file (one naming none leaves the call's locations to say what it edited). */
function isV2Diff(item: ToolCallRecord['content'][number]): boolean {
  const changes = (item as Readonly<Record<string, unknown>>)['changes'];
  return item.type === 'diff' && Array.isArray(changes) && changes.some((change) => typeof (change as { path?: unknown } | null)?.path === 'string');
}

/** The edits the sources report, in order; the last `writes` sources are the session's client writes. */
function editsFrom(sources: readonly unknown[], writes: number): Edit[] {
  const firstWrite = sources.length - writes;
  return sources.flatMap((source, i): Edit[] => {
    if (i >= firstWrite) return [{ path: (source as FileWrite).path, after: (source as FileWrite).content, reportsBefore: false }];
    if (Array.isArray(source)) return (source as ToolCallRecord['locations']).flatMap((location) => (typeof location.path === 'string' ? [{ path: location.path, reportsBefore: false }] : []));
    const item = source as Readonly<Record<string, unknown>>;
    if (Array.isArray(item['changes'])) return v2DiffEdits(item);
    const oldText = item['oldText'];
    return [{ path: item['path'] as string, before: typeof oldText === 'string' ? oldText : null, after: item['newText'] as string, reportsBefore: true }];
  });
}

/** The files an ACP v2 diff names (`changes`), each counted from its section of the git patch when it has one. */
function v2DiffEdits(item: Readonly<Record<string, unknown>>): Edit[] {
  const patches = filePatchesOf(item);
  const edits: Edit[] = [];
  for (const change of item['changes'] as unknown[]) {
    if (typeof change !== 'object' || change === null) continue;
    const { path, operation } = change as Record<string, unknown>;
    if (typeof path !== 'string') continue;
    const section = patchFor(patches, path);
    edits.push({ path, reportsBefore: false, ...(section ? { patch: { created: operation === 'add', sections: [section] } } : {}) });
  }
  return edits;
}

/** Counts and flags of a change from `before` to `after` (bounded: see lineDiff). */
function summarize(path: string, before: string | null | undefined, after: string | undefined): FileChange {
  const beforeKnown = before !== undefined;
  if (after === undefined) return { path, before, after, added: 0, removed: 0, exact: false, created: before === null, textKnown: false, beforeKnown };
  const counts = diffSummary(before ?? '', after);
  return { path, before, after, added: counts.added, removed: counts.removed, exact: counts.exact && beforeKnown, created: before === null, textKnown: true, beforeKnown };
}

/** One change per path: the first reported text before, the last text after (writes are what landed). */
function mergeEdits(edits: readonly Edit[]): FileChange[] {
  const byPath = new Map<string, { before: string | null | undefined; beforeKnown: boolean; after: string | undefined; patch?: Edit['patch'] }>();
  for (const edit of edits) {
    let merged = byPath.get(edit.path);
    if (!merged) byPath.set(edit.path, (merged = { before: undefined, beforeKnown: false, after: undefined }));
    if (edit.patch) merged.patch = merged.patch ? { created: merged.patch.created, sections: [...merged.patch.sections, ...edit.patch.sections] } : edit.patch;
    if (edit.reportsBefore && !merged.beforeKnown) {
      merged.before = edit.before;
      merged.beforeKnown = true;
    }
    if (edit.after !== undefined) merged.after = edit.after;
  }
  return [...byPath].map(([path, merged]) => {
    if (merged.after === undefined && merged.patch) return patchChange(path, merged.patch);
    const change = summarize(path, merged.before, merged.after);
    return merged.patch ? { ...change, patches: merged.patch.sections } : change;
  });
}

/** A change known only from v2 git patches: the sections' counts and the sections, no texts (Open Changes reads the file). */
function patchChange(path: string, patch: PatchedFile): FileChange {
  const added = patch.sections.reduce((total, section) => total + section.added, 0);
  const removed = patch.sections.reduce((total, section) => total + section.removed, 0);
  return { path, before: undefined, after: undefined, added, removed, exact: true, created: patch.created, textKnown: false, beforeKnown: false, fromPatch: true, patches: patch.sections };
}

/** The files one session changed, in order of first change. */
export function ownChanges(session: SessionView): readonly FileChange[] {
  const sources = sourcesOf(session);
  const memo = ownMemo.get(session);
  if (memo && sameSources(memo.sources, sources)) return memo.value;
  const value = mergeEdits(editsFrom(sources, session.fileWrites.length));
  ownMemo.set(session, { sources, value });
  return value;
}

/** The files a session and all its descendants changed: per path, from the first session's text before to the last's after. */
export function subtreeChanges(store: Pick<SessionStoreReader, 'getSession'> & { readonly revision?: number }, sessionId: string): readonly FileChange[] {
  const root = store.getSession(sessionId);
  if (!root) return [];
  const memo = treeMemo.get(root);
  // Nothing in the store changed since: skip the walk over the subtree (a parent of 1,000 children).
  if (memo && store.revision !== undefined && memo.revision === store.revision) return memo.value;
  const lists = preOrder([root.id], (id) => store.getSession(id), (session) => session.childIds).map(ownChanges);
  if (lists.length === 1) return lists[0]!;
  if (memo && sameSources(memo.sources, lists)) {
    treeMemo.set(root, { ...memo, revision: store.revision });
    return memo.value;
  }
  const byPath = new Map<string, FileChange[]>();
  for (const change of lists.flat()) {
    const same = byPath.get(change.path);
    if (same) same.push(change);
    else byPath.set(change.path, [change]);
  }
  const value = [...byPath.values()].map((changes) => {
    if (changes.length === 1) return changes[0]!;
    const first = changes.find((change) => change.before !== undefined) ?? changes[0]!;
    const last = [...changes].reverse().find((change) => change.after !== undefined) ?? changes[changes.length - 1]!;
    if (last.after === undefined && changes.some((change) => change.fromPatch)) {
      // Known only from v2 patches: every session's sections, in tree order.
      const patched = changes.filter((change) => change.fromPatch);
      return patchChange(first.path, { created: patched[0]!.created, sections: patched.flatMap((change) => change.patches ?? []) });
    }
    const change = summarize(first.path, first.before, last.after);
    const patches = changes.flatMap((each) => each.patches ?? []);
    return patches.length > 0 ? { ...change, patches } : change;
  });
  treeMemo.set(root, { sources: lists, value, revision: store.revision });
  return value;
}

/** What a Changes list shows of a change (no texts). */
export function changeSummary(change: FileChange): FileChangeSummary {
  return {
    path: change.path,
    added: change.added,
    removed: change.removed,
    exact: change.exact,
    created: change.created,
    textKnown: change.textKnown,
    beforeKnown: change.beforeKnown,
    ...(change.fromPatch ? { fromPatch: true } : {}),
  };
}
