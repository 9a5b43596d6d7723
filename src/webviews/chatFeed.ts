// Feeds one chat panel: a full snapshot of a session and its descendants, then batched revisioned deltas.
// Pure (no 'vscode'): the panel glue passes `post` and tells the feed when the webview is ready or hidden.
// The parts: PendingChanges (what changed), WebviewHoldings (what the webview has), DeltaBuilder (the delta
// between them) and FeedFlow (when to post).
import type { StoreChange } from '../store/model';
import type { Disposable, SessionStoreReader } from '../store/storeAccess';
import { realTimers, type HostTimers } from '../host/hostTimers';
import type { FeedMessage } from '../protocol/webviewMessages';
import { buildSnapshot } from './chatProjection';
import { DeltaBuilder } from './feedDelta';
import { FeedFlow, type FeedFlowOptions } from './feedFlow';
import { PendingChanges } from './pendingChanges';
import { WebviewHoldings } from './webviewHoldings';

export type FeedTimers = HostTimers;

export interface ChatFeedOptions extends FeedFlowOptions {
  readonly timers?: FeedTimers;
}

/**
 * Keeps one webview in sync with one session subtree. Call `sendSnapshot()` when the webview says `ready` or
 * `resync`, and `setVisible()` as the panel is hidden and shown (hidden webviews drop messages).
 */
export class ChatFeed implements Disposable {
  private readonly subscriptions: Disposable[] = [];
  private readonly pending = new PendingChanges();
  private readonly held = new WebviewHoldings();
  private readonly deltas: DeltaBuilder;
  private readonly flow: FeedFlow;
  private sentRev: number | undefined;
  private rootMissing = false;
  private disposed = false;

  constructor(
    private readonly store: SessionStoreReader,
    readonly rootSessionId: string,
    private readonly post: (message: FeedMessage) => void,
    options: ChatFeedOptions = {},
  ) {
    this.deltas = new DeltaBuilder(store, rootSessionId);
    this.flow = new FeedFlow(options.timers ?? realTimers, () => this.flush(), () => this.pending.any, options);
    this.subscriptions.push(store.onDidChange((changes) => this.onStoreChange(changes)));
  }

  /** The revision the webview was last brought to, or undefined before the first snapshot. */
  get revision(): number | undefined {
    return this.sentRev;
  }

  sendSnapshot(): void {
    if (this.disposed) return;
    this.flow.restart();
    this.pending.clear();
    const snapshot = buildSnapshot(this.store, this.rootSessionId);
    this.held.tookSnapshot(snapshot);
    this.rootMissing = snapshot.sessions.length === 0;
    this.sentRev = snapshot.rev;
    this.postNow(snapshot);
  }

  /** The webview painted everything up to `rev` (flow control: see FeedFlow.ack). */
  ack(rev: number): void {
    if (!this.disposed) this.flow.ack(rev);
  }

  /** Hidden: stop posting. Shown again: a fresh snapshot, since messages to a hidden webview may be lost. */
  setVisible(visible: boolean): void {
    if (this.flow.setVisible(visible) && visible && this.sentRev !== undefined) this.sendSnapshot();
  }

  /** Posts pending changes now, waiting neither for the batching interval nor for acks (tests, shutdown). */
  flush(): void {
    this.flow.cancelTimer();
    if (this.disposed || !this.flow.visible || this.sentRev === undefined) return;
    if (this.rootMissing) {
      if (this.store.getSession(this.rootSessionId)) this.sendSnapshot();
      else this.pending.clear();
      return;
    }
    const message = this.deltas.build(this.sentRev, this.pending, this.held);
    this.pending.clear();
    if (!message) return;
    this.sentRev = message.toRev;
    this.postNow(message);
  }

  dispose(): void {
    this.disposed = true;
    this.flow.stop();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.subscriptions.length = 0;
  }

  private onStoreChange(changes: readonly StoreChange[]): void {
    if (this.disposed || this.sentRev === undefined) return;
    this.pending.note(changes, (id) => this.store.getSession(id)?.parentId);
    this.flow.schedule();
  }

  private postNow(message: FeedMessage): void {
    this.flow.posted(message.type === 'snapshot' ? message.rev : message.toRev);
    this.post(message);
  }
}
