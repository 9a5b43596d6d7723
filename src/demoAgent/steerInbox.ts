// Where steers wait for an actor that reads them at its next step: the root (the user's steers) and a running
// subagent (a relayed message passed on by the root).
export class SteerInbox {
  private readonly queue: string[] = [];
  private wakers: (() => void)[] = [];

  post(text: string): void {
    this.queue.push(text);
    for (const wake of this.wakers.splice(0)) wake();
  }

  get hasWaiting(): boolean {
    return this.queue.length > 0;
  }

  take(): string | undefined {
    return this.queue.shift();
  }

  /** Resolves once a steer waits (at once when one already does). */
  arrival(): Promise<void> {
    if (this.hasWaiting) return Promise.resolve();
    return new Promise((resolve) => this.wakers.push(resolve));
  }
}
