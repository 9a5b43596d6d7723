// A user or agent message (markdown), or a thought (collapsed until opened).
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { MessageEntry } from '../../src/protocol/transcript';
import { clockTime, earlierTextNote, isResendable, presentDeliveries, t } from '../../src/presentation';
import { requestHost, restoreDraft } from '../events';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { OUTCOME_TOPIC } from '../state/topics';
import { refusalNote } from './refusal';
import { renderAttachment } from './attachments';
import { SubchatsElement, codicon } from './base';
import './subchats-markdown';
import { growthOf } from '../state/textGrowth';
import { scrollKeyOf } from '../lib/scrollKeys';

export class SubchatsMessage extends SubchatsElement {
  @property({ attribute: false }) entry!: MessageEntry;
  /** The session the message is in (what Retry and Edit name), and the chat's store for the host's answers. */
  @property({ attribute: false }) sessionId = '';
  @property({ attribute: false }) store: ChatStore | undefined;
  @state() private thoughtOpen = false;
  /** The `earlier.chars` last asked for: one request per page, until the host answers. */
  private askedEnd: number | undefined;
  /**
   * The note of the text kept on disk, while shown. It asks for the page before the text when it scrolls into view
   * in a chat that no longer follows its end (the user scrolled up to it: a chat laid out from its top as it opens
   * asks for nothing), and when the user scrolls up (wheel or keys) while it is in view: a page read back goes
   * below the note, which stays where it was, so the next one takes another gesture.
   */
  private watchedNote: Element | undefined;
  private noteWatch: IntersectionObserver | undefined;
  private readonly onScrollUp = (event: WheelEvent | KeyboardEvent): void => {
    const up = event instanceof WheelEvent ? event.deltaY < 0 : scrollKeyOf(event) === 'up';
    if (up && this.watchedNote && isInView(this.watchedNote)) this.loadEarlier();
  };
  /** A scroll that leaves the note in view of a chat that does not follow its end (the layout may move it after the intersection was seen). */
  private readonly onScroll = (): void => {
    const note = this.watchedNote;
    if (note && !followsEnd(note) && isInView(note)) this.loadEarlier();
  };

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [OUTCOME_TOPIC] }));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('entry')) this.setAttribute('role-kind', this.entry.role);
  }

  protected override updated(): void {
    this.watchNote();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The list may take a message out and put it back: it listens again for the note it shows.
    if (this.hasUpdated) this.watchNote();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopWatching();
    this.watchedNote = undefined;
  }

  private watchNote(): void {
    const note = this.renderRoot.querySelector('.sc-earlier') ?? undefined;
    if (note === this.watchedNote) return;
    this.stopWatching();
    this.watchedNote = note;
    if (!note) return;
    this.noteWatch ??= new IntersectionObserver((seen) => {
      const note = this.watchedNote;
      if (note && seen.at(-1)?.isIntersecting && !followsEnd(note)) this.loadEarlier();
    });
    this.noteWatch.observe(note);
    document.addEventListener('wheel', this.onScrollUp, { passive: true });
    document.addEventListener('keydown', this.onScrollUp);
    document.addEventListener('scroll', this.onScroll, { passive: true, capture: true });
  }

  private stopWatching(): void {
    this.noteWatch?.disconnect();
    document.removeEventListener('wheel', this.onScrollUp);
    document.removeEventListener('keydown', this.onScrollUp);
    document.removeEventListener('scroll', this.onScroll, { capture: true });
  }

  private loadEarlier(): void {
    const end = this.entry.earlier?.chars;
    if (end === undefined || end === this.askedEnd) return;
    this.askedEnd = end;
    this.store?.ui.setEarlierProblem(this.entry.id, undefined);
    requestHost(this, { type: 'loadEarlier', sessionId: this.sessionId, entryId: this.entry.id, end });
  }

  /** The head of the text the host keeps on disk: what it is, and the way to read it (also on scrolling to it). */
  private renderEarlier(entry: MessageEntry): TemplateResult | typeof nothing {
    if (!entry.earlier) return nothing;
    const problem = this.store?.ui.earlierProblem(entry.id);
    const asked = this.askedEnd === entry.earlier.chars && problem === undefined;
    return html`<div class="sc-earlier sc-muted" data-earlier-chars=${entry.earlier.chars}>
      ${codicon('history')} ${earlierTextNote(entry.earlier)}
      ${asked
        ? html`<span>${t('Loading earlier text…')}</span>`
        : html`<button type="button" class="sc-link" @click=${() => ((this.askedEnd = undefined), this.loadEarlier())}>${t('Show earlier text')}</button>`}
      ${problem !== undefined ? html`<div role="alert">${problem}</div>` : nothing}
    </div>`;
  }

  protected override render(): TemplateResult {
    const { entry } = this;
    const attachments = entry.attachments.length > 0 ? entry.attachments.map(renderAttachment) : nothing;
    if (entry.role === 'thought') {
      return html`<details class="sc-entry sc-thought" @toggle=${this.onToggle}>
        <summary>${codicon('lightbulb')} ${t('Thinking')}</summary>
        ${this.thoughtOpen ? html`${this.renderEarlier(entry)}<subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}` : nothing}
      </details>`;
    }
    const label = entry.role === 'user' ? t('You') : t('Agent');
    return html`<div class="sc-entry">
      <div class="sc-role sc-message-head">${label}${this.renderActions(entry, label)}</div>
      <div class="sc-bubble">${this.renderEarlier(entry)}<subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}</div>
      ${this.renderDelivery(entry)}
      ${entry.role === 'user' ? refusalNote(this.store, { request: 'retry', sessionId: this.sessionId, target: entry.id }, this.localName) : nothing}
    </div>`;
  }

  /**
   * Copy the message as its Markdown source; for the user's own words, send them again as they were (Retry) or
   * put them back in the prompt box to edit first. ACP cannot rewind a conversation: either is a new turn after
   * the last one, marked as sent again, and the turns after the original stay.
   */
  private renderActions(entry: MessageEntry, label: string): TemplateResult {
    return html`<span class="sc-message-actions" role="toolbar" aria-label=${t('{0} message actions', label)}>
      <button type="button" class="sc-icon-button" title=${t('Copy message (Markdown)')} aria-label=${t('Copy message')} @click=${() => this.copy(entry)}>
        ${codicon('copy')}
      </button>
      ${isResendable(entry)
        ? html`<button
              type="button"
              class="sc-icon-button"
              title=${t('Retry: sends this message again as it was, as a new turn after the last one; the turns after it stay')}
              aria-label=${t('Retry this message')}
              @click=${() => requestHost(this, { type: 'retry', sessionId: this.sessionId, entryId: entry.id })}
            >
              ${codicon('refresh')}
            </button>
            <button
              type="button"
              class="sc-icon-button"
              title=${t('Edit and send again: puts this message in the prompt box; it is sent as a new turn after the last one, and the turns after it stay')}
              aria-label=${t('Edit and send again')}
              @click=${() => restoreDraft(this, { text: entry.text, editOf: { ref: { sessionId: this.sessionId, entryId: entry.id }, at: entry.at } })}
            >
              ${codicon('edit')}
            </button>`
        : nothing}
    </span>`;
  }

  /** The whole message: the host reads back a head it keeps on disk. */
  private copy(entry: MessageEntry): void {
    if (entry.earlier) requestHost(this, { type: 'copyMessage', sessionId: this.sessionId, entryId: entry.id });
    else requestHost(this, { type: 'copy', text: entry.text });
  }

  /** Who a relay is for, how far a steer got, who added the message and what the agent recorded (the store's facts, the presentation's words). */
  private renderDelivery(entry: MessageEntry): TemplateResult | typeof nothing {
    const lines = presentDeliveries(entry, (at) => clockTime(at));
    if (lines.length === 0) return nothing;
    return html`${lines.map(
      (line) => html`<div class="sc-muted sc-delivery" data-delivery=${line.kind}>
        ${codicon(line.icon)} ${line.text}
        ${line.resend ? html`<button type="button" class="sc-link" @click=${() => restoreDraft(this, { text: entry.text })}>${t('Put back in the prompt box')}</button>` : nothing}
      </div>`,
    )}`;
  }

  private onToggle(event: Event): void {
    this.thoughtOpen = (event.currentTarget as HTMLDetailsElement).open;
  }
}

/** Whether the chat the element is in follows its end (the user has not scrolled away from it). */
function followsEnd(element: Element): boolean {
  return (element.closest('subchats-transcript[data-following]') as HTMLElement | null)?.dataset['following'] === 'true';
}

/** Whether any of the element shows in its scroller (the chat's transcript) and in the page. */
function isInView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const port = element.closest('subchats-transcript')?.getBoundingClientRect() ?? { top: 0, bottom: window.innerHeight };
  return box.bottom > Math.max(port.top, 0) && box.top < Math.min(port.bottom, window.innerHeight);
}

customElements.define('subchats-message', SubchatsMessage);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-message': SubchatsMessage;
  }
}
