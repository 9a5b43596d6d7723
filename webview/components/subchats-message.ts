// A user or agent message (markdown), or a thought (collapsed until opened).
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { MessageEntry } from '../../src/protocol/transcript';
import { clockTime, isResendable, presentDeliveries, t } from '../../src/presentation';
import { requestHost, restoreDraft } from '../events';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { OUTCOME_TOPIC } from '../state/topics';
import { refusalNote } from './refusal';
import { renderAttachment } from './attachments';
import { SubchatsElement, codicon } from './base';
import './subchats-markdown';
import { growthOf } from '../state/textGrowth';

export class SubchatsMessage extends SubchatsElement {
  @property({ attribute: false }) entry!: MessageEntry;
  /** The session the message is in (what Retry and Edit name), and the chat's store for the host's answers. */
  @property({ attribute: false }) sessionId = '';
  @property({ attribute: false }) store: ChatStore | undefined;
  @state() private thoughtOpen = false;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [OUTCOME_TOPIC] }));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('entry')) this.setAttribute('role-kind', this.entry.role);
  }

  protected override render(): TemplateResult {
    const { entry } = this;
    const attachments = entry.attachments.length > 0 ? entry.attachments.map(renderAttachment) : nothing;
    if (entry.role === 'thought') {
      return html`<details class="sc-entry sc-thought" @toggle=${this.onToggle}>
        <summary>${codicon('lightbulb')} ${t('Thinking')}</summary>
        ${this.thoughtOpen ? html`<subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}` : nothing}
      </details>`;
    }
    const label = entry.role === 'user' ? t('You') : t('Agent');
    return html`<div class="sc-entry">
      <div class="sc-role sc-message-head">${label}${this.renderActions(entry, label)}</div>
      <div class="sc-bubble"><subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}</div>
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
      <button type="button" class="sc-icon-button" title=${t('Copy message (Markdown)')} aria-label=${t('Copy message')} @click=${() => requestHost(this, { type: 'copy', text: entry.text })}>
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

customElements.define('subchats-message', SubchatsMessage);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-message': SubchatsMessage;
  }
}
