// What a session's row and chat header say about its whole subtree: how many files it and its subagents
// changed, what they spent (the usage rule), and how many subagents still work in the background.
//
// Kept per session and built from its children's summaries: a summary is current while nothing in its subtree
// changed (the store's `subtreeRev`), so a tree refresh costs one pass over the sessions (not a walk of each
// row's subtree), and a change costs the path from the changed session up, each step its children counted.
// A session's own part is recomputed only when the store touched it (its `rev`).
import { runsInBackground, usageWithChildren, type SpentBelow, type SubtreeUsage } from '../presentation';
import type { SessionView } from './model';
import { ownChanges } from './sessionChanges';
import type { SessionStoreReader } from './storeAccess';
import { sameJson } from '../protocol/sameJson';

export interface SubtreeSummary {
  /** Paths the session and its descendants changed (what subtreeChanges merges, one change per path). */
  readonly changedPaths: ReadonlySet<string>;
  /** The usage rule's reading of the session with its subagents. */
  readonly usage: SubtreeUsage;
  /** What this subtree counts as in its parent's usage. */
  readonly spentBelow: SpentBelow;
  /** Descendants (not the session itself) still at work in the background: launched, their end not reported. */
  readonly backgroundRunning: number;
  /** The same count with the session itself: what its parent adds up. */
  readonly backgroundWithSelf: number;
}

interface Memo {
  /** The session's `subtreeRev` this summary is current at. */
  subtreeRev: number;
  readonly ownRev: number;
  readonly childIds: readonly string[];
  readonly children: readonly SubtreeSummary[];
  readonly value: SubtreeSummary;
}

const NO_PATHS: ReadonlySet<string> = new Set();
const memos = new WeakMap<SessionView, Memo>();

/** The summary of `sessionId`'s subtree now (undefined for an unknown session). Cycles in bad input are cut. */
export function subtreeSummary(store: Pick<SessionStoreReader, 'getSession'>, sessionId: string): SubtreeSummary | undefined {
  const root = store.getSession(sessionId);
  if (!root) return undefined;
  if (isCurrent(root)) return memos.get(root)!.value;
  // Post-order without recursion (a chain of subagents may be deeper than the stack); a current subtree is not entered.
  const stack: { session: SessionView; entered: boolean }[] = [{ session: root, entered: false }];
  const onPath = new Set<string>();
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (!top.entered) {
      if (isCurrent(top.session) || onPath.has(top.session.id)) {
        stack.pop();
        continue;
      }
      top.entered = true;
      onPath.add(top.session.id);
      for (const childId of top.session.childIds) {
        const child = store.getSession(childId);
        if (child && !onPath.has(child.id)) stack.push({ session: child, entered: false });
      }
      continue;
    }
    stack.pop();
    onPath.delete(top.session.id);
    settle(top.session, store, onPath);
  }
  return memos.get(root)!.value;
}

function isCurrent(session: SessionView): boolean {
  return memos.get(session)?.subtreeRev === session.subtreeRev;
}

/** Makes one session's memo current, its children's being current (or cut as a cycle). */
function settle(session: SessionView, store: Pick<SessionStoreReader, 'getSession'>, onPath: ReadonlySet<string>): void {
  const children: SubtreeSummary[] = [];
  const counted = new Set<string>([session.id]);
  for (const childId of session.childIds) {
    const child = store.getSession(childId);
    if (!child || counted.has(child.id) || onPath.has(child.id)) continue;
    counted.add(child.id);
    const memo = memos.get(child);
    if (memo?.subtreeRev === child.subtreeRev) children.push(memo.value);
  }
  const previous = memos.get(session);
  if (previous && previous.ownRev === session.rev && sameList(previous.children, children) && sameList(previous.childIds, session.childIds)) {
    previous.subtreeRev = session.subtreeRev;
    return;
  }
  const value = summarize(session, children);
  // A summary that reads the same stays the same object: a chunk of text streamed into a subagent changes its
  // `rev`, not what its ancestors' rows say, and they are not recomputed for it.
  const kept = previous && sameSummary(previous.value, value) ? previous.value : value;
  memos.set(session, { subtreeRev: session.subtreeRev, ownRev: session.rev, childIds: [...session.childIds], children, value: kept });
}

function sameSummary(a: SubtreeSummary, b: SubtreeSummary): boolean {
  return (
    a.backgroundWithSelf === b.backgroundWithSelf &&
    a.backgroundRunning === b.backgroundRunning &&
    a.usage.own === b.usage.own &&
    a.usage.partial === b.usage.partial &&
    sameFigures(a.usage.subagents, b.usage.subagents) &&
    sameFigures(a.usage.total, b.usage.total) &&
    a.spentBelow.partial === b.spentBelow.partial &&
    sameFigures(a.spentBelow.figures, b.spentBelow.figures) &&
    samePaths(a.changedPaths, b.changedPaths)
  );
}

function samePaths(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const path of b) if (!a.has(path)) return false;
  return true;
}

/** Figures are small flat records (numbers and a cost). */
function sameFigures(a: object | null, b: object | null): boolean {
  return sameJson(a, b);
}

function summarize(session: SessionView, children: readonly SubtreeSummary[]): SubtreeSummary {
  const { usage, spentBelow } = usageWithChildren(session.spend, children.map((child) => child.spentBelow));
  const backgroundRunning = children.reduce((sum, child) => sum + child.backgroundWithSelf, 0);
  const backgroundWithSelf = backgroundRunning + (runsInBackground(session) ? 1 : 0);
  return { changedPaths: pathsOf(session, children), usage, spentBelow, backgroundRunning, backgroundWithSelf };
}

/** The own paths with the children's; a child's set is shared when nothing is added to it. */
function pathsOf(session: SessionView, children: readonly SubtreeSummary[]): ReadonlySet<string> {
  const own = ownChanges(session);
  const nonEmpty = children.filter((child) => child.changedPaths.size > 0);
  if (own.length === 0 && nonEmpty.length === 0) return NO_PATHS;
  if (own.length === 0 && nonEmpty.length === 1) return nonEmpty[0]!.changedPaths;
  const paths = new Set(own.map((change) => change.path));
  for (const child of nonEmpty) for (const path of child.changedPaths) paths.add(path);
  return paths;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
