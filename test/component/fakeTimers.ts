// Virtual time for ChatFeed: tests and the benchmark's precomputed schedules advance it explicitly.
import type { FeedTimers } from '../../src/webviews/chatFeed';

/** Timers under test control: `advance(ms)` runs what is due. */
export class FakeTimers implements FeedTimers {
  time = 0;
  private queue: { at: number; callback: () => void; id: number }[] = [];
  private ids = 0;
  now = (): number => this.time;
  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = ++this.ids;
    this.queue.push({ at: this.time + ms, callback, id });
    return id;
  };
  clearTimeout = (handle: unknown): void => {
    this.queue = this.queue.filter((t) => t.id !== handle);
  };
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.queue.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.queue = this.queue.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = until;
  }
}

