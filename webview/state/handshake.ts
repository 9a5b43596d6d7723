// Asks the host for a snapshot until one arrives. A reloaded or restored webview can post `ready` before the
// host listens, or the host's answer can be dropped on the way (VS Code drops messages to a webview that is
// reloading or hidden), so one `ready` is not enough: it is posted again with backoff, and after a few
// seconds the chat says it is still waiting (and offers Retry) instead of spinning silently.

export interface HandshakeTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export interface HandshakeOptions {
  /** First retry delay; each next one doubles, up to `maxDelayMs`. */
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
  /** After this long without a snapshot, `stalled` turns true. */
  readonly stallAfterMs?: number;
  readonly timers?: HandshakeTimers;
}

const browserTimers: HandshakeTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export class Handshake {
  private readonly timers: HandshakeTimers;
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly stallAfterMs: number;
  private retryTimer: unknown;
  private stallTimer: unknown;
  private delayMs = 0;
  private waiting = false;
  private stalledNow = false;

  /**
   * @param ask posts the request (`ready` or `resync`); called at once and on every retry.
   * @param onStalledChange called when `stalled` changes (the app re-renders).
   */
  constructor(
    private readonly ask: () => void,
    private readonly onStalledChange: (stalled: boolean) => void,
    options: HandshakeOptions = {},
  ) {
    this.timers = options.timers ?? browserTimers;
    this.firstDelayMs = options.firstDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 8_000;
    this.stallAfterMs = options.stallAfterMs ?? 3_000;
  }

  /** True while waiting longer than `stallAfterMs` for a snapshot. */
  get stalled(): boolean {
    return this.stalledNow;
  }

  /** Asks now and keeps asking until `answered()`; asking again (Retry) restarts the backoff. */
  start(): void {
    this.clearTimers();
    this.waiting = true;
    this.delayMs = this.firstDelayMs;
    this.setStalled(false);
    this.stallTimer = this.timers.setTimeout(() => {
      this.stallTimer = undefined;
      if (this.waiting) this.setStalled(true);
    }, this.stallAfterMs);
    this.askAndSchedule();
  }

  /** A snapshot arrived: stop asking. */
  answered(): void {
    this.waiting = false;
    this.clearTimers();
    this.setStalled(false);
  }

  dispose(): void {
    this.waiting = false;
    this.clearTimers();
  }

  private askAndSchedule(): void {
    this.ask();
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.waiting) return;
      this.delayMs = Math.min(this.delayMs * 2, this.maxDelayMs);
      this.askAndSchedule();
    }, this.delayMs);
  }

  private setStalled(stalled: boolean): void {
    if (this.stalledNow === stalled) return;
    this.stalledNow = stalled;
    this.onStalledChange(stalled);
  }

  private clearTimers(): void {
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    if (this.stallTimer !== undefined) this.timers.clearTimeout(this.stallTimer);
    this.retryTimer = undefined;
    this.stallTimer = undefined;
  }
}
