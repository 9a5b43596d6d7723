// Cancellation for a tree of scripted runs: cancelling a scope cancels its descendants only.

/** Thrown inside a scripted run once its scope is cancelled; the runner turns it into a cancelled stop. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export class CancelScope {
  private cancelledFlag = false;
  private readonly listeners = new Set<() => void>();

  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  cancel(): void {
    if (this.cancelledFlag) return;
    this.cancelledFlag = true;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /** A scope that is cancelled with this one, but can also be cancelled alone. */
  child(): CancelScope {
    const child = new CancelScope();
    if (this.cancelledFlag) child.cancel();
    else this.onCancel(() => child.cancel());
    return child;
  }

  /** Returns a function that removes the listener. */
  onCancel(listener: () => void): () => void {
    if (this.cancelledFlag) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  throwIfCancelled(): void {
    if (this.cancelledFlag) throw new Cancelled();
  }
}

/** Waits `ms` (at least one macrotask, so other sessions interleave); wakes early on cancel. */
export function sleep(ms: number, scope: CancelScope): Promise<void> {
  return new Promise((resolve) => {
    if (scope.cancelled) {
      setImmediate(resolve);
      return;
    }
    const timer = setTimeout(done, Math.max(0, ms));
    const unsubscribe = scope.onCancel(done);
    function done(): void {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}
