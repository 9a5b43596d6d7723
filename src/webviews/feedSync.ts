// The panel's end of the pipe to one webview, kept in step across what VS Code does to the page: posts it drops
// (postMessage resolves false), a reload (the page says `ready` again, with no visibility change), the panel
// hidden and shown, a page of another protocol version, and attachments waiting for a live page. Pure (no
// 'vscode'): the panel passes `postMessage` and `isVisible`.
import { protocolMismatchReason } from '../presentation';
import {
  WEBVIEW_PROTOCOL_VERSION,
  type AddAttachmentMessage,
  type ChatPanelState,
  type FeedMessage,
  type FileSearchResultsMessage,
  type HostToWebviewMessage,
  type RequestOutcomeMessage,
  type TokenColorsMessage,
  type WorkspaceRoots,
} from '../protocol/webviewMessages';
import type { ChatFeed } from './chatFeed';
import { unavailableSnapshot } from './chatProjection';
import type { ChatPipe } from './chatRequests';
import { t } from '../presentation/l10n';

const noConnection = () => t('The agent connection for this chat is not available. Reconnect or reopen the session.');

export interface FeedSyncOptions {
  readonly panelState: ChatPanelState;
  /** The workspace folders and home folder the chat shows paths relative to (sent with every snapshot). */
  readonly workspace?: () => WorkspaceRoots;
  /** Resolves false when VS Code dropped the message (no live webview to take it). */
  readonly postMessage: (message: HostToWebviewMessage) => PromiseLike<boolean>;
  readonly isVisible: () => boolean;
  /** Called after each feed post (the panel's title follows the session's label). */
  readonly onFeedPost?: () => void;
  /** The page's bundle or stylesheet did not load (see PageReloads). */
  readonly onPageLoadFailed?: (asset: string) => void;
  /** A page said `ready` or `resync`: it runs. */
  readonly onPageLive?: () => void;
  readonly log?: (text: string) => void;
}

export class FeedSync implements ChatPipe {
  private feed: ChatFeed | undefined;
  /** The webview speaks another protocol version (an old page after an update): it gets nothing until it reloads. */
  private incompatible = false;
  /** A post since the last snapshot resolved false (VS Code dropped it): the next chance sends a snapshot. */
  private undelivered = false;
  private posts = 0;
  private lastSnapshotPost = 0;
  private disposed = false;
  /** Attachments from the editor not yet delivered to a live webview. */
  private pendingAttachments: AddAttachmentMessage[] = [];
  /** The editor theme's code colours as last sent: a reloaded page gets them again. */
  private tokenColorsMessage: TokenColorsMessage | undefined;
  /** A page of this version has said `ready` or `resync` and has not failed to load since. */
  private pageLive = false;
  /** The prompt box should take the cursor once a page is live (asked before one was). */
  private focusWanted = false;

  constructor(private readonly options: FeedSyncOptions) {}

  /** The feed to post from (a new store, or none while the connection is missing); the webview gets a snapshot. */
  setFeed(feed: ChatFeed | undefined): void {
    this.feed?.dispose();
    this.feed = feed;
    this.feed?.setVisible(this.options.isVisible());
    this.sendSnapshot();
  }

  /** What the feed posts goes through here (see ChatFeed's `post`). */
  readonly postFeed = (message: FeedMessage): void => {
    if (!this.incompatible) this.deliver(message);
  };

  /** The panel was hidden or shown: a shown panel that missed posts gets a snapshot. */
  visibilityChanged(visible: boolean): void {
    // A hidden panel's page is gone (no retainContextWhenHidden): the one shown next says `ready`.
    if (!visible) this.pageLive = false;
    const before = this.lastSnapshotPost;
    this.feed?.setVisible(visible);
    if (visible && this.undelivered && this.lastSnapshotPost === before) this.sendSnapshot();
  }

  ready(protocolVersion: number): void {
    if (protocolVersion !== WEBVIEW_PROTOCOL_VERSION) {
      this.options.log?.(`Chat panel: the webview speaks protocol ${protocolVersion}, this extension ${WEBVIEW_PROTOCOL_VERSION}; asked it to reopen`);
      this.incompatible = true;
      this.deliver(unavailableSnapshot(this.options.panelState.sessionId, protocolMismatchReason()));
      return;
    }
    this.incompatible = false;
    this.resync();
  }

  /** Whether a page of this version said `ready` or `resync` and is still there (not hidden, not failed since). */
  get isPageLive(): boolean {
    return this.pageLive;
  }

  /** The prompt box should take the cursor once a page runs (a panel that replaces this one takes the wish over). */
  get isFocusWanted(): boolean {
    return this.focusWanted;
  }

  /** The page failed to load (it will be loaded again): what it was asked waits for the next page. */
  pageLoadFailed(asset: string): void {
    this.pageLive = false;
    this.options.onPageLoadFailed?.(asset);
  }

  /**
   * A webview that posts is alive: the feed posts to it again even if no visibility change said so
   * (a reload fires no onDidChangeViewState). Every ready or resync gets a snapshot, exactly one.
   */
  resync(): void {
    this.pageLive = true;
    this.options.onPageLive?.();
    const before = this.lastSnapshotPost;
    if (this.options.isVisible()) this.feed?.setVisible(true);
    if (this.lastSnapshotPost === before) this.sendSnapshot();
    this.postPendingAttachments();
    if (this.tokenColorsMessage) void this.options.postMessage(this.tokenColorsMessage);
    if (this.focusWanted) this.focusPrompt();
  }

  ack(rev: number): void {
    this.feed?.ack(rev);
  }

  /** Answers outside the revisioned feed (file suggestions, request outcomes); false when not taken. */
  post(message: FileSearchResultsMessage | RequestOutcomeMessage): PromiseLike<boolean> {
    return this.incompatible ? Promise.resolve(false) : this.options.postMessage(message);
  }

  /** An attachment from the editor: a hidden chat's page is gone until shown again, so it waits for one that takes it. */
  addAttachment(message: AddAttachmentMessage): void {
    if (this.incompatible) return;
    this.pendingAttachments.push(message);
    this.postPendingAttachments();
  }

  /** The editor theme's code colours (not a feed message: the latest replaces any before it). */
  tokenColors(message: TokenColorsMessage): void {
    this.tokenColorsMessage = message;
    if (!this.incompatible && !this.disposed) void this.options.postMessage(message);
  }

  /** The workspace folders changed: a snapshot carries the new ones (every path in the chat is worded again). */
  workspaceChanged(): void {
    this.sendSnapshot();
  }

  /**
   * Asks the webview to focus its prompt box (not a feed message: no revision). A page that is not live yet (a
   * new panel's, or one loading again) gets it once it says `ready`: a page that never ran its script cannot.
   */
  focusPrompt(): void {
    if (this.incompatible) return;
    this.focusWanted = !this.pageLive;
    if (this.pageLive) void this.options.postMessage({ type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION });
  }

  dispose(): void {
    this.disposed = true;
    this.feed?.dispose();
    this.feed = undefined;
  }

  private sendSnapshot(): void {
    if (this.incompatible) return;
    if (this.feed) this.feed.sendSnapshot();
    // A snapshot that says why there is nothing to show.
    else this.deliver(unavailableSnapshot(this.options.panelState.sessionId, noConnection()));
  }

  private deliver(message: FeedMessage): void {
    const workspace = this.options.workspace?.();
    const withState = message.type === 'snapshot' ? { ...message, panelState: this.options.panelState, ...(workspace ? { workspace } : {}) } : message;
    const seq = ++this.posts;
    if (message.type === 'snapshot') {
      this.lastSnapshotPost = seq;
      this.undelivered = false;
    }
    // A dropped snapshot or delta leaves the webview behind: the next `ready` or visibility change sends a snapshot.
    const dropped = (): void => {
      if (!this.disposed && seq >= this.lastSnapshotPost) this.undelivered = true;
    };
    this.options.postMessage(withState).then((delivered) => delivered || dropped(), dropped);
    this.options.onFeedPost?.();
  }

  private postPendingAttachments(): void {
    for (const message of this.pendingAttachments) {
      this.options.postMessage(message).then(
        (delivered) => {
          if (delivered) this.pendingAttachments = this.pendingAttachments.filter((m) => m !== message);
        },
        () => undefined,
      );
    }
  }
}
