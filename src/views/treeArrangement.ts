// The tree's sort and filter kept per connection between refreshes (no vscode, unit-tested). A connection is
// arranged once, then again only at a refresh after its store changed or its clock ticked, in one walk of its
// sessions; what changed is told as the parents whose shown children differ, so only those are fetched again.
import { arrangeRuntime, DEFAULT_TREE_OPTIONS, filterMessage, isPlain, orderRuntimes, type ArrangeableRuntime, type ArrangedRuntime, type TreeViewOptions } from './treeFilter';

export interface ArrangementRuntime extends ArrangeableRuntime {
  readonly id: string;
}

/** A parent whose shown children changed: a session, or the connection itself (`sessionId` null) for its roots. */
export interface RestructuredParent {
  readonly connectionId: string;
  readonly sessionId: string | null;
}

export class TreeArrangement {
  private current: TreeViewOptions = DEFAULT_TREE_OPTIONS;
  private readonly arranged = new Map<string, ArrangedRuntime>();
  private readonly touched = new Set<string>();
  /** The connections shown, in order, as last given out. */
  private given: readonly string[] | undefined;

  constructor(
    private readonly runtimes: () => readonly ArrangementRuntime[],
    private readonly clock: () => number = Date.now,
  ) {}

  get options(): TreeViewOptions {
    return this.current;
  }

  /** Whether the tree shows anything but its plain order (otherwise nothing here is computed). */
  get active(): boolean {
    return !isPlain(this.current);
  }

  /** New options: everything is arranged anew (the caller refreshes the whole tree). */
  set(options: TreeViewOptions): void {
    this.current = options;
    this.reset();
  }

  /** The connections changed (the whole tree refreshes): forget what was arranged. */
  reset(): void {
    this.arranged.clear();
    this.touched.clear();
    this.given = undefined;
  }

  /** The connection's sessions changed, or its clock moved: it is arranged again at the next refresh. */
  touch(connectionId: string): void {
    if (this.arranged.has(connectionId)) this.touched.add(connectionId);
  }

  /**
   * Arranges the touched connections again (once each, at one `now`) and tells which parents show other
   * children now; `'all'` when the connections shown changed.
   */
  rearrange(): RestructuredParent[] | 'all' {
    if (this.touched.size === 0) return [];
    const now = this.clock();
    const changed: RestructuredParent[] = [];
    const byId = new Map(this.runtimes().map((r) => [r.id, r]));
    for (const connectionId of this.touched) {
      const runtime = byId.get(connectionId);
      const before = this.arranged.get(connectionId);
      if (!runtime || !before) continue;
      const after = arrangeRuntime(runtime, this.current, now);
      this.arranged.set(connectionId, after);
      for (const [parentId, ids] of after.children) {
        const old = before.children.get(parentId);
        if (old && !sameIds(old, ids)) changed.push({ connectionId, sessionId: parentId });
      }
    }
    this.touched.clear();
    if (this.given === undefined) return changed;
    const shown = this.shownConnectionIds();
    if (sameIds(this.given, shown)) return changed;
    this.given = shown;
    return 'all';
  }

  /** The connections shown, in order. */
  connectionIds(): string[] {
    const ids = this.shownConnectionIds();
    this.given = ids;
    return ids;
  }

  /** The shown children of a session, or the shown roots of a connection (`parentId` null). */
  children(runtime: ArrangementRuntime, parentId: string | null): readonly string[] {
    return this.of(runtime).children.get(parentId) ?? [];
  }

  /** The `now` the connection's rows were judged at, so a row reads the verdict that shows or hides it. */
  now(connectionId: string): number | undefined {
    return this.arranged.get(connectionId)?.now;
  }

  /** Whether the session's row is in the tree as arranged (its parent lists it). */
  isShown(runtime: ArrangementRuntime, sessionId: string): boolean {
    const arranged = this.of(runtime);
    if (!arranged.shown) return false;
    const parentId = runtime.store.getSession(sessionId)?.parentId ?? null;
    return arranged.children.get(parentId)?.includes(sessionId) ?? false;
  }

  /** What the tree says above its rows while a filter hides some. */
  message(): string | undefined {
    let shown = 0;
    let hidden = 0;
    for (const runtime of this.runtimes()) {
      const arranged = this.of(runtime);
      shown += arranged.visible;
      hidden += arranged.hidden;
    }
    return filterMessage(this.current, { shown, hidden });
  }

  private shownConnectionIds(): string[] {
    const shown = this.runtimes().filter((r) => this.of(r).shown);
    return orderRuntimes(shown, this.current).map((r) => r.id);
  }

  private of(runtime: ArrangementRuntime): ArrangedRuntime {
    let arranged = this.arranged.get(runtime.id);
    if (!arranged) {
      arranged = arrangeRuntime(runtime, this.current, this.clock());
      this.arranged.set(runtime.id, arranged);
    }
    return arranged;
  }
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
