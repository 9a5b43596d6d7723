// What each session changed in files, derived once from store facts: the diffs of its completed tool calls,
// the edits it reported only by location, and the files the client wrote for it (fs/write_text_file).
// A tree's changes merge its sessions' per file: the text before the first change, after the last one.
import { diffSummary } from '../presentation/lineDiff';
import { countsForPath, patchFileCounts } from '../presentation/gitPatch';
import type { FileChangeSummary, FileWrite, SessionView, ToolCallRecord } from './model';
import type { SessionStoreReader } from './storeApi';
import { preOrder } from '../presentation/treeOrder';

export interface FileChange extends FileChangeSummary {
  /** The text before: null when the agent reported the file as new, undefined when it never said. */
  readonly before: string | null | undefined;
  /** The text after; undefined for an edit reported only by its location. */
  readonly after: string | undefined;
  /** An ACP v2 change: the git patches that made it, oldest first (Open Changes rebuilds the texts from them). */
  readonly patches?: readonly string[];
}

/** Tool kinds whose completed calls changed the files they name, even without a diff. */
const EDIT_KINDS = new Set(['edit', 'delete', 'move']);

interface Edit {
  readonly path: string;
  readonly before?: string | null | undefined;
  readonly after?: string;
  /** Whether `before` was reported (a diff), as opposed to unknown (a write, a location). */
  readonly reportsBefore: boolean;
  /** An ACP v2 diff: no texts, the lines its git patch adds and removes (when it sent one). */
  readonly patch?: PatchCounts;
}

interface PatchCounts {
  readonly added: number;
  readonly removed: number;
  readonly created: boolean;
  /** The whole git patch the counts came from (shared by every file it names). */
  readonly texts: readonly string[];
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

/** The edits a session reported, each with the object it came from (what the memo compares). */
function editsOf(session: SessionView): { edits: Edit[]; sources: unknown[] } {
  const edits: Edit[] = [];
  const sources: unknown[] = [];
  for (const toolCallId of session.toolCallOrder) {
    const call: ToolCallRecord | undefined = session.toolCalls[toolCallId];
    // Only a completed call changed anything: a pending one is a proposal, a failed one may not have applied.
    if (!call || call.status !== 'completed') continue;
    let diffs = 0;
    for (const item of call.content) {
      const fields = item as Readonly<Record<string, unknown>>;
      if (item.type === 'diff' && Array.isArray(fields['changes'])) {
        const v2 = v2DiffEdits(fields);
        edits.push(...v2);
        sources.push(item);
        diffs += v2.length;
        continue;
      }
      if (item.type !== 'diff' || typeof item['path'] !== 'string' || typeof item['newText'] !== 'string') continue;
      const oldText = item['oldText'];
      edits.push({ path: item['path'], before: typeof oldText === 'string' ? oldText : null, after: item['newText'], reportsBefore: true });
      sources.push(item);
      diffs++;
    }
    if (diffs === 0 && EDIT_KINDS.has(call.kind)) {
      for (const location of call.locations) if (typeof location.path === 'string') edits.push({ path: location.path, reportsBefore: false });
      sources.push(call.locations);
    }
  }
  for (const write of session.fileWrites as readonly FileWrite[]) {
    edits.push({ path: write.path, after: write.content, reportsBefore: false });
    sources.push(write);
  }
  return { edits, sources };
}

/** The files an ACP v2 diff names (`changes`), counted from its git patch when it has one. */
function v2DiffEdits(item: Readonly<Record<string, unknown>>): Edit[] {
  const patch = item['patch'];
  const text = typeof patch === 'object' && patch !== null ? (patch as Record<string, unknown>)['text'] : undefined;
  const counts = typeof text === 'string' ? patchFileCounts(text) : undefined;
  const edits: Edit[] = [];
  for (const change of item['changes'] as unknown[]) {
    if (typeof change !== 'object' || change === null) continue;
    const { path, operation } = change as Record<string, unknown>;
    if (typeof path !== 'string') continue;
    const counted = counts && countsForPath(counts, path);
    edits.push({ path, reportsBefore: false, ...(counted ? { patch: { ...counted, created: operation === 'add', texts: [text as string] } } : {}) });
  }
  return edits;
}

/** Counts and flags of a change from `before` to `after` (bounded: see lineDiff). */
export function summarize(path: string, before: string | null | undefined, after: string | undefined): FileChange {
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
    if (edit.patch) merged.patch = merged.patch ? joinPatches([merged.patch, edit.patch]) : edit.patch;
    if (edit.reportsBefore && !merged.beforeKnown) {
      merged.before = edit.before;
      merged.beforeKnown = true;
    }
    if (edit.after !== undefined) merged.after = edit.after;
  }
  return [...byPath].map(([path, merged]) => (merged.after === undefined && merged.patch ? patchChange(path, merged.patch) : summarize(path, merged.before, merged.after)));
}

/** Successive patches of one file: their counts summed, created if the first created it. */
function joinPatches(patches: readonly PatchCounts[]): PatchCounts {
  return {
    added: patches.reduce((total, patch) => total + patch.added, 0),
    removed: patches.reduce((total, patch) => total + patch.removed, 0),
    created: patches[0]!.created,
    texts: patches.flatMap((patch) => patch.texts),
  };
}

/** A change known only from v2 git patches: counts and the patches, no texts (Open Changes reads the file). */
function patchChange(path: string, patch: PatchCounts): FileChange {
  return { path, before: undefined, after: undefined, added: patch.added, removed: patch.removed, exact: true, created: patch.created, textKnown: false, beforeKnown: false, fromPatch: true, patches: patch.texts };
}

/** The files one session changed, in order of first change. */
export function ownChanges(session: SessionView): readonly FileChange[] {
  const { edits, sources } = editsOf(session);
  const memo = ownMemo.get(session);
  if (memo && sameSources(memo.sources, sources)) return memo.value;
  const value = mergeEdits(edits);
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
      // Known only from v2 patches: each session's patch counts its own lines.
      const patched = changes.filter((change) => change.fromPatch);
      return patchChange(first.path, joinPatches(patched.map((change) => ({ added: change.added, removed: change.removed, created: change.created, texts: change.patches ?? [] }))));
    }
    return summarize(first.path, first.before, last.after);
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
