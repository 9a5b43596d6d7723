// Connects a real SessionStore (fed by wireScenes.ts, or replayed from a recorded transcript) to a ChatPage
// through the real ChatFeed; tests flush explicitly, so no timers run. Given a workspace, the feed goes through
// the panel's real FeedSync, which sends the workspace folders with every snapshot (as a chat panel does).
import type { FeedMessage, HostToWebviewMessage, WorkspaceRoots } from '../../src/protocol/webviewMessages';
import { ChatFeed, type FeedTimers } from '../../src/webviews/chatFeed';
import { FeedSync } from '../../src/webviews/feedSync';
import type { SessionStoreReader } from '../../src/store/storeAccess';
import type { ChatPage } from './harness';

const manualTimers: FeedTimers = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

export class FeedLink {
  readonly feed: ChatFeed;
  readonly sent: HostToWebviewMessage[] = [];
  private pending: HostToWebviewMessage[] = [];

  constructor(
    private readonly chat: ChatPage,
    store: SessionStoreReader,
    rootSessionId: string,
    /** The workspace the host says it has (read at every snapshot: a test may change it). */
    public workspace?: WorkspaceRoots,
  ) {
    const queue = (message: HostToWebviewMessage): void => void this.pending.push(message);
    const sync =
      workspace &&
      new FeedSync({
        panelState: { connectionId: 'test', sessionId: rootSessionId },
        workspace: () => this.workspace ?? { folders: [] },
        postMessage: (message) => {
          queue(message);
          return Promise.resolve(true);
        },
        isVisible: () => true,
      });
    this.feed = new ChatFeed(store, rootSessionId, sync ? sync.postFeed : (message: FeedMessage) => queue(message), { timers: manualTimers });
  }

  /** A link whose snapshot the page already shows. */
  static async showing(chat: ChatPage, store: SessionStoreReader, rootSessionId: string, workspace?: WorkspaceRoots): Promise<FeedLink> {
    const link = new FeedLink(chat, store, rootSessionId, workspace);
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
