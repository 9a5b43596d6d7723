// A session's transcript. Entries are virtualized (only those near the viewport exist in the DOM) and keyed
// by id, and each entry object is replaced only when it changes, so streaming into one entry re-renders only it.
// The panel's main transcript (`follow`) is the panel's scroller; a child's, inline in its card, scrolls with it.
import '@lit-labs/virtualizer';
import { t } from '../../src/presentation';
import type { LitVirtualizer } from '@lit-labs/virtualizer/LitVirtualizer.js';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Entry } from '../../src/protocol/transcript';
import { cardAnchors, entryLabel } from '../lib/format';
import { afterNextPaint } from '../lib/afterPaint';
import { followLayout } from '../lib/followLayout';
import { KeptFocus } from '../lib/keptFocus';
import { ListHeights } from '../lib/listHeights';
import { scrollKeyOf } from '../lib/scrollKeys';
import { correctScrollerOffsets } from '../lib/virtualizerOffset';
import type { ChatStore } from '../state/chatStore';
import type { ChatSessionView } from '../state/mirror';
import { StoreWatch } from '../state/storeWatch';
import { SubchatsElement } from './base';
import './subchats-child-card';
import './subchats-message';
import './subchats-notice';
import './subchats-permission';
import './subchats-plan';
import './subchats-session-message';
import './subchats-tool-call';

/** A child with no entry naming it still gets a card, after the entries. */
interface OrphanCard {
  readonly kind: 'orphanCard';
  readonly id: string;
  readonly childSessionId: string;
}

type Item = Entry | OrphanCard;

const END_PIN = { index: Number.MAX_SAFE_INTEGER, block: 'end' as const };
const FREE_LAYOUT = {};
/** The main chat's layout while it does not follow the end (the same layout type, or the virtualizer is remade). */
const UNPINNED_LAYOUT = followLayout({});
/** Lines of the last screen that stay in view when the chat steps down through a burst of text. */
const STEP_OVERLAP_PX = 32;
/**
 * How close to the end counts as the end, and how far up a scroll must go to count: a pixel or two of rounding.
 * A wider margin (it was 48 px) snapped the chat back under anything that scrolled an entry just above the screen
 * into view (find in page, a screen reader, a test's click), which then landed on nothing.
 */
const AT_END_PX = 2;
/** What a person does to scroll; a scroll soon after one of these is theirs. */
const USER_SCROLL_EVENTS = ['wheel', 'touchmove', 'pointerdown', 'keydown'] as const;
const USER_SCROLL_WINDOW_MS = 1000;

export class SubchatsTranscript extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  /**
   * The panel's main chat: it scrolls itself (styles.ts makes it the one scroller between the header and the
   * prompt box) and keeps the newest entry in view while streaming, until the user scrolls up.
   */
  @property({ type: Boolean }) follow = false;
  @state() private following = true;
  /**
   * Told to show the end at once (the chat opened, a prompt was sent, the user came back to the end): the pin
   * goes straight there. Once there, text that streams in is stepped through a screen per frame (followLimit).
   */
  private jumping = false;
  /** The session this view showed last. */
  private sessionShown: string | undefined;
  /** Where the view was at the last paint while the chat steps through new text; undefined at rest. */
  private paintedTop: number | undefined;
  private afterPaintPending = false;
  /** Set in the constructor: followingLayout() needs followLimit, a field declared further down. */
  private layout: object;
  private items: { view: ChatSessionView; items: Item[] } | undefined;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId] }));
    this.layout = this.followingLayout();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.follow) return;
    this.startJump();
    this.addEventListener('scroll', this.onScroll, { passive: true });
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, this.onUserScrollIntent, { passive: true, capture: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('scroll', this.onScroll);
    this.listHeights.dispose();
    this.keptFocus.stop();
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, this.onUserScrollIntent, { capture: true });
  }

  /** Scrolls the entry into view even when it is virtualized away; resolves once it is in the DOM. */
  async scrollToEntry(entryId: string): Promise<Element | undefined> {
    const index = this.items?.items.findIndex((item) => item.id === entryId) ?? -1;
    const virtualizer = this.querySelector<LitVirtualizer>(':scope > lit-virtualizer');
    if (index < 0 || !virtualizer) return undefined;
    this.stopFollowing();
    virtualizer.element(index)?.scrollIntoView({ block: 'center' });
    await virtualizer.layoutComplete;
    return this.renderedEntry(entryId) ?? undefined;
  }

  protected override render(): TemplateResult {
    const view = this.store?.mirror.session(this.sessionId);
    if (!view) return html`<div class="sc-muted">${t('No transcript.')}</div>`;
    if (this.follow && this.sessionShown !== this.sessionId) {
      // The chat as it is when it opens is no text streaming in: straight to its end. (A snapshot that resyncs a
      // chat that fell behind is: it steps on from where it is.)
      this.sessionShown = this.sessionId;
      this.startJump();
    }
    const items = this.itemsOf(view);
    if (items.length === 0) return html`<div class="sc-muted sc-entry">${t('No messages yet.')}</div>`;
    const anchors = cardAnchors(view);
    return html`<lit-virtualizer
      role="feed"
      aria-label=${t('Transcript')}
      .items=${items}
      .keyFunction=${(item: Item) => item.id}
      .renderItem=${(item: Item, index: number) => this.renderItem(view, anchors, item, index, items.length)}
      .layout=${!this.follow ? FREE_LAYOUT : this.following ? this.layout : UNPINNED_LAYOUT}
      @unpinned=${this.onUnpinned}
    ></lit-virtualizer>`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // Whether the main chat follows its end, for a test or a bench to read (it never styles anything).
    if (this.follow) this.dataset['following'] = String(this.following);
    // The main transcript scrolls itself, and a child's scrolls within it: element scrollers, which the
    // virtualizer needs corrected for.
    const list = this.querySelector<LitVirtualizer>(':scope > lit-virtualizer');
    if (list) void list.updateComplete.then(() => correctScrollerOffsets(list));
    if (this.follow) this.listHeights.watch(list);
    this.keptFocus.watch(list);
  }

  private itemsOf(view: ChatSessionView): Item[] {
    if (this.items?.view === view) return this.items.items;
    const anchors = cardAnchors(view);
    const orphans: OrphanCard[] = view.header.childIds
      .filter((id) => !anchors.has(id))
      .map((childSessionId) => ({ kind: 'orphanCard', id: `orphan:${childSessionId}`, childSessionId }));
    const items: Item[] = orphans.length === 0 ? (view.entries as Entry[]) : [...view.entries, ...orphans];
    this.items = { view, items };
    return items;
  }

  /**
   * Each entry is an article of the feed, numbered in the whole transcript (only those near the viewport exist in
   * the DOM). A child entry whose card is shown elsewhere renders nothing, and is no article.
   */
  private renderItem(view: ChatSessionView, anchors: ReadonlyMap<string, string>, item: Item, index: number, count: number): TemplateResult {
    const entry = this.renderEntry(view, anchors, item);
    if (entry === nothing) return html`<div data-entry-id=${item.id} role="none"></div>`;
    return html`<div data-entry-id=${item.id} role="article" aria-posinset=${index + 1} aria-setsize=${count} aria-label=${this.labelOf(view, item)}>${entry}</div>`;
  }

  private labelOf(view: ChatSessionView, item: Item): string {
    if (item.kind === 'orphanCard' || item.kind === 'child') return `Subagent ${this.store?.mirror.session(item.childSessionId)?.header.label ?? ''}`.trim();
    return entryLabel(item, view.toolCalls);
  }

  private renderEntry(view: ChatSessionView, anchors: ReadonlyMap<string, string>, item: Item): TemplateResult | typeof nothing {
    const { store, sessionId } = this;
    switch (item.kind) {
      case 'message':
        return html`<subchats-message .store=${store} .sessionId=${sessionId} .entry=${item}></subchats-message>`;
      case 'toolCall': {
        const toolCall = view.toolCalls[item.toolCallId];
        const childId = toolCall?.childSessionId;
        return html`<subchats-tool-call
          .store=${store}
          .sessionId=${sessionId}
          .toolCall=${toolCall}
          .itemCancelAllowed=${view.header.toolCallCancel.allowed}
          ?showsChildCard=${childId !== undefined && anchors.get(childId) === item.id}
        ></subchats-tool-call>`;
      }
      case 'plan':
        return html`<subchats-plan .entry=${item}></subchats-plan>`;
      case 'sessionMessage':
        return html`<subchats-session-message .store=${store} .sessionId=${sessionId} .entry=${item}></subchats-session-message>`;
      case 'child':
        return anchors.get(item.childSessionId) === item.id
          ? html`<subchats-child-card .store=${store} .sessionId=${item.childSessionId}></subchats-child-card>`
          : nothing;
      case 'orphanCard':
        return html`<subchats-child-card .store=${store} .sessionId=${item.childSessionId}></subchats-child-card>`;
      case 'permission':
        return html`<subchats-permission .store=${this.store} .sessionId=${sessionId} .entry=${item}></subchats-permission>`;
      case 'notice':
      case 'elicitation':
        return html`<subchats-notice .entry=${item}></subchats-notice>`;
      default:
        return nothing;
    }
  }

  /**
   * The virtualizer unpins on any scroll it did not make itself: also when the browser clamps the scroll after
   * the content shrank, when a child's virtualizer corrects the shared scroller, or when layout lags a stream on a
   * loaded machine. Those move the view up only as the content changes height. The chat stops following only when
   * the user scrolled (wheel, touch, keys, its scrollbar) or something scrolled the view up away from the end while
   * the content kept its height (find in page, a screen reader, a script scrolling an entry into view); otherwise it
   * pins the end again.
   */
  private readonly onUnpinned = (event: Event): void => {
    if (event.target !== event.currentTarget) return;
    const userScrolled = performance.now() - this.userScrollIntentAt < USER_SCROLL_WINDOW_MS;
    const previous = this.previousScroll();
    // A scroll that came with the content changing height is a correction (a re-measure, a clamp), not a look back;
    // so is one that left the view at the end of the list as it was at its shortest since the last scroll (the
    // browser clamped it while the virtualizer re-measured, and the list grew again before the scroll event).
    const clamped = this.scrollTop + this.clientHeight >= this.shortestEndOfThisScroll() - AT_END_PX;
    const lookedBack = this.scrollTop < previous.top - AT_END_PX && this.scrollHeight === previous.height && !this.atEnd() && !clamped;
    if (userScrolled || lookedBack) {
      this.stopFollowing();
      return;
    }
    this.pinEnd();
  };

  /** Follows the end again and shows it at once (the user sent a prompt, or came back to the end). */
  followEnd(): void {
    this.startJump();
    this.pinEnd();
  }

  /** The next layout goes straight to the end; text that comes after it is stepped through. */
  private startJump(): void {
    this.jumping = true;
  }

  /** Pins the end (again): a new layout object makes the virtualizer lay out to it. */
  private pinEnd(): void {
    this.layout = this.followingLayout();
    this.following = true;
    this.requestUpdate();
  }

  private followingLayout(): object {
    return followLayout({ pin: END_PIN, followLimit: this.followLimit });
  }

  /**
   * How far down the view may go in this frame while following: a screen (less a few lines) below where the frame
   * began. A frame that comes late on a loaded machine would otherwise jump over the text that came meanwhile,
   * which then never shows; held back, the chat scrolls through it and catches up when the stream slows.
   */
  private readonly followLimit = (): number => {
    if (!this.following) return Number.POSITIVE_INFINITY;
    if (!this.afterPaintPending) {
      this.afterPaintPending = true;
      afterNextPaint(this.afterPaint);
    }
    if (this.jumping) return Number.POSITIVE_INFINITY;
    // At rest until now, the view is where it was painted.
    this.paintedTop ??= this.scrollTop;
    return this.paintedTop + Math.max(1, this.clientHeight - STEP_OVERLAP_PX);
  };

  private readonly afterPaint = (): void => {
    this.afterPaintPending = false;
    // A jump has been laid out and painted: from here on, new text is stepped through.
    this.jumping = false;
    if (this.following && !this.atEnd()) {
      // Behind the end: the next screen, from what is on screen now, whether or not more text comes.
      this.paintedTop = this.scrollTop;
      this.pinEnd();
    } else {
      this.paintedTop = undefined;
    }
  };

  /** The scroller's top and height at the last two scroll events: the virtualizer's `unpinned` comes in such an event. */
  private lastScroll = { top: 0, height: 0, shortestEnd: 0 };
  private scrollBefore = { top: 0, height: 0, shortestEnd: 0 };

  /** The focus on an entry stays there when the virtualizer moves the entry's element (see keptFocus.ts). */
  private readonly keptFocus = new KeptFocus(this);
  /** The heights the virtualizer gave its list since the last scroll event (see listHeights.ts). */
  private readonly listHeights = new ListHeights();

  /** Where the content ended when the list was at its shortest before this scroll, whichever listener runs first. */
  private shortestEndOfThisScroll(): number {
    return this.scrollRecorded() ? this.lastScroll.shortestEnd : this.listHeights.shortestEnd(this);
  }

  /** Whether this listener already recorded the scroll being handled (the virtualizer's may run before or after). */
  private scrollRecorded(): boolean {
    return this.scrollTop === this.lastScroll.top && this.scrollHeight === this.lastScroll.height;
  }

  /** Where the scroller was before this scroll, whichever of the scroll listeners (this one, the virtualizer's) ran first. */
  private previousScroll(): { top: number; height: number } {
    return this.scrollRecorded() ? this.scrollBefore : this.lastScroll;
  }

  private atEnd(): boolean {
    return this.scrollTop + this.clientHeight >= this.scrollHeight - AT_END_PX;
  }

  private renderedEntry(entryId: string): Element | null {
    return this.querySelector(`:scope > lit-virtualizer > [data-entry-id="${CSS.escape(entryId)}"]`);
  }

  private userScrollIntentAt = Number.NEGATIVE_INFINITY;

  private readonly onUserScrollIntent = (event: Event): void => {
    // A press scrolls only on the scroller's own scrollbar; a click on a button (Stop, Queue, Retry) does not,
    // and the layout shifts such a click brings (the queue emptying, a card opening) must not stop the follow.
    if (event.type === 'pointerdown' && event.target !== this) return;
    if (event instanceof KeyboardEvent && !scrollKeyOf(event)) return;
    this.userScrollIntentAt = performance.now();
  };

  private readonly onScroll = (): void => {
    this.scrollBefore = this.lastScroll;
    this.lastScroll = { top: this.scrollTop, height: this.scrollHeight, shortestEnd: this.listHeights.shortestEnd(this) };
    this.listHeights.restart();
    if (!this.following && this.atEnd()) this.followEnd();
  };

  private stopFollowing(): void {
    this.following = false;
  }
}

customElements.define('subchats-transcript', SubchatsTranscript);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-transcript': SubchatsTranscript;
  }
}
