// When the sidebar tree tells VS Code what changed (no vscode import, so its timing is unit-tested).
//
// VS Code's extension host debounces tree changes by 200 ms on the leading edge and restarts that wait on
// every change: a change fired within 200 ms of the previous one is held until the tree has been quiet for
// 200 ms, so a busy session would hold back every other row. So fires stay just over 200 ms apart (each one
// then goes out at once), a new row goes out as soon as that allows, item changes are coalesced briefly, and
// a row whose shown text did not change is not fired at all (text streaming into a session marks its row on
// every chunk while nothing the row shows changes).
import { realTimers, type HostTimers } from '../host/hostTimers';

export const ITEM_COALESCE_MS = 50;
export const MIN_FIRE_GAP_MS = 210;

export interface TreeRefreshTarget {
  /** Fires the change: node keys, or undefined for the whole tree. */
  fire(keys: readonly string[] | undefined): void;
  /** Whether what the row of `key` shows differs from what VS Code last got for it. */
  rowChanged(key: string): boolean;
  /** After every flush, fired or not (the badge and reveals follow the rows). */
  flushed(): void;
  /** Before each flush: nodes whose children changed since (the tree's sort and filter), or 'all'. */
  restructured?(): readonly string[] | 'all';
}

export class TreeRefreshQueue {
  private readonly items = new Set<string>();
  private readonly structure = new Set<string>();
  private all = false;
  private timer: unknown;
  private dueAt = 0;
  private lastFireAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly target: TreeRefreshTarget,
    private readonly timers: HostTimers = realTimers,
  ) {}

  /** The row itself may show something new (state, counts, elapsed time). */
  itemChanged(key: string): void {
    this.items.add(key);
    this.schedule(ITEM_COALESCE_MS);
  }

  /** The node's children changed: always fired, as soon as VS Code will show it. */
  childrenChanged(key: string): void {
    this.structure.add(key);
    this.schedule(0);
  }

  everythingChanged(): void {
    this.all = true;
    this.schedule(0);
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(coalesceMs: number): void {
    const now = this.timers.now();
    const due = Math.max(now + coalesceMs, this.lastFireAt + MIN_FIRE_GAP_MS);
    if (this.timer !== undefined) {
      if (due >= this.dueAt) return;
      this.timers.clearTimeout(this.timer);
    }
    this.dueAt = due;
    this.timer = this.timers.setTimeout(() => this.flush(), due - now);
  }

  private flush(): void {
    this.timer = undefined;
    const restructured = this.target.restructured?.() ?? [];
    if (restructured === 'all') this.all = true;
    else for (const key of restructured) this.structure.add(key);
    if (this.all) {
      this.all = false;
      this.items.clear();
      this.structure.clear();
      this.fireNow(undefined);
    } else {
      const keys = new Set(this.structure);
      for (const key of this.items) if (this.target.rowChanged(key)) keys.add(key);
      this.items.clear();
      this.structure.clear();
      if (keys.size > 0) this.fireNow([...keys]);
    }
    this.target.flushed();
  }

  private fireNow(keys: readonly string[] | undefined): void {
    this.lastFireAt = this.timers.now();
    this.target.fire(keys);
  }
}
