// Flow control for one feed: posts are batched (at most one per interval), at most a few wait unacknowledged,
// a lost ack does not stall the stream, and nothing is posted while the panel is hidden.
import type { HostTimers } from '../host/hostTimers';

export interface FeedFlowOptions {
  /** Minimum time between two posts; the default keeps a panel at <= 60 posts per second. */
  readonly minIntervalMs?: number;
  /** Posts the webview has not acknowledged yet beyond which changes wait (merged into one pending delta). */
  readonly maxInFlight?: number;
  /** After this long without an ack, the posts in flight count as lost and the feed posts again. */
  readonly ackTimeoutMs?: number;
}

const DEFAULT_MIN_INTERVAL_MS = 1000 / 60;
const DEFAULT_MAX_IN_FLIGHT = 2;
const DEFAULT_ACK_TIMEOUT_MS = 1000;
/** Forced flushes (tests, shutdown) do not wait for acks; only the newest few matter for the window. */
const KEPT_IN_FLIGHT = 8;

export class FeedFlow {
  private readonly minIntervalMs: number;
  private readonly maxInFlight: number;
  private readonly ackTimeoutMs: number;
  /** Revisions posted and not acknowledged yet, with when they were posted. */
  private inFlight: { readonly rev: number; readonly at: number }[] = [];
  private timer: unknown;
  private ackTimer: unknown;
  private lastPostAt = Number.NEGATIVE_INFINITY;
  private shown = true;

  /**
   * @param flush posts what is pending (called when the batching interval is over).
   * @param hasPending whether changes wait to be posted.
   */
  constructor(
    private readonly timers: HostTimers,
    private readonly flush: () => void,
    private readonly hasPending: () => boolean,
    options: FeedFlowOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
  }

  get visible(): boolean {
    return this.shown;
  }

  /** Hidden webviews drop messages: no posts until shown again. False when nothing changed. */
  setVisible(visible: boolean): boolean {
    if (this.shown === visible) return false;
    this.shown = visible;
    if (!visible) this.stop();
    return true;
  }

  /** Flushes after the batching interval, unless too many posts wait for their ack. */
  schedule(): void {
    if (this.timer !== undefined || !this.shown) return;
    if (this.inFlight.length >= this.maxInFlight) {
      this.armAckTimer();
      return;
    }
    const delay = Math.max(0, this.lastPostAt + this.minIntervalMs - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, delay);
  }

  /** A post of revision `rev` goes out now. */
  posted(rev: number): void {
    this.lastPostAt = this.timers.now();
    this.inFlight.push({ rev, at: this.lastPostAt });
    if (this.inFlight.length > KEPT_IN_FLIGHT) this.inFlight.shift();
  }

  /** A snapshot starts the stream over: nothing earlier is waited for. */
  restart(): void {
    this.cancelTimer();
    this.inFlight = [];
  }

  /**
   * The webview painted everything up to `rev`: posts up to it no longer count as in flight, and changes
   * that waited for room go out (merged into one delta).
   */
  ack(rev: number): void {
    const before = this.inFlight.length;
    this.inFlight = this.inFlight.filter((post) => post.rev > rev);
    if (this.inFlight.length === before) return;
    this.cancelAckTimer();
    if (this.hasPending()) this.schedule();
  }

  cancelTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Stops both timers (hidden, disposed). */
  stop(): void {
    this.cancelTimer();
    this.cancelAckTimer();
  }

  /** A lost ack (or a webview that never acks) must not stall the stream: after the timeout, post again. */
  private armAckTimer(): void {
    const oldest = this.inFlight[0];
    if (this.ackTimer !== undefined || !oldest) return;
    const delay = Math.max(0, oldest.at + this.ackTimeoutMs - this.timers.now());
    this.ackTimer = this.timers.setTimeout(() => {
      this.ackTimer = undefined;
      // Deltas chain by revision: if a post was lost rather than its ack, the webview sees a gap and resyncs.
      this.inFlight = [];
      if (this.hasPending()) this.schedule();
    }, delay);
  }

  private cancelAckTimer(): void {
    if (this.ackTimer !== undefined) {
      this.timers.clearTimeout(this.ackTimer);
      this.ackTimer = undefined;
    }
  }
}
