// Connects a real SessionStore (fed by wireScenes.ts, or replayed from a recorded transcript) to a ChatPage
// through the real ChatFeed; tests flush explicitly, so no timers run.
import type { FeedMessage } from '../../src/protocol/webviewMessages';
import { ChatFeed, type FeedTimers } from '../../src/webviews/chatFeed';
import type { SessionStoreReader } from '../../src/store/storeAccess';
import type { ChatPage } from './harness';

const manualTimers: FeedTimers = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

export class FeedLink {
  readonly feed: ChatFeed;
  readonly sent: FeedMessage[] = [];
  private pending: FeedMessage[] = [];

  constructor(
    private readonly chat: ChatPage,
    store: SessionStoreReader,
    rootSessionId: string,
  ) {
    this.feed = new ChatFeed(store, rootSessionId, (message) => this.pending.push(message), { timers: manualTimers });
  }

  /** A link whose snapshot the page already shows. */
  static async showing(chat: ChatPage, store: SessionStoreReader, rootSessionId: string): Promise<FeedLink> {
    const link = new FeedLink(chat, store, rootSessionId);
    await link.snapshot();
    return link;
  }

  /** Sends a snapshot (what the host does on `ready`). */
  async snapshot(): Promise<void> {
    this.feed.sendSnapshot();
    await this.deliver();
  }

  /** Flushes the feed's batched changes into one delta and delivers it. */
  async flush(): Promise<void> {
    this.feed.flush();
    await this.deliver();
  }

  private async deliver(): Promise<void> {
    const messages = this.pending;
    this.pending = [];
    for (const message of messages) {
      this.sent.push(message);
      await this.chat.send(message);
    }
  }
}
