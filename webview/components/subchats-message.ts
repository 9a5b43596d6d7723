// A user or agent message (markdown), or a thought (collapsed until opened).
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { MessageEntry } from '../../src/protocol/transcript';
import { clockTime, presentDeliveries } from '../../src/presentation';
import { requestHost, restoreDraft } from '../events';
import { renderAttachment } from './attachments';
import { SubchatsElement, codicon } from './base';
import './subchats-markdown';
import { growthOf } from '../state/textGrowth';

export class SubchatsMessage extends SubchatsElement {
  @property({ attribute: false }) entry!: MessageEntry;
  @state() private thoughtOpen = false;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('entry')) this.setAttribute('role-kind', this.entry.role);
  }

  protected override render(): TemplateResult {
    const { entry } = this;
    const attachments = entry.attachments.length > 0 ? entry.attachments.map(renderAttachment) : nothing;
    if (entry.role === 'thought') {
      return html`<details class="sc-entry sc-thought" @toggle=${this.onToggle}>
        <summary>${codicon('lightbulb')} Thinking</summary>
        ${this.thoughtOpen ? html`<subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}` : nothing}
      </details>`;
    }
    const label = entry.role === 'user' ? 'You' : 'Agent';
    return html`<div class="sc-entry">
      <div class="sc-role sc-message-head">${label}${this.renderActions(entry, label)}</div>
      <div class="sc-bubble"><subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}</div>
      ${this.renderDelivery(entry)}
    </div>`;
  }

  /**
   * Copy the message as its Markdown source; for the user's own words, put them back in the prompt box to edit
   * and send again (ACP cannot rewind a conversation: what is sent is a new turn after the last one).
   */
  private renderActions(entry: MessageEntry, label: string): TemplateResult {
    return html`<span class="sc-message-actions" role="toolbar" aria-label=${`${label} message actions`}>
      <button type="button" class="sc-icon-button" title="Copy message (Markdown)" aria-label="Copy message" @click=${() => requestHost(this, { type: 'copy', text: entry.text })}>
        ${codicon('copy')}
      </button>
      ${entry.role === 'user' && entry.addedByAgent !== true
        ? html`<button
            type="button"
            class="sc-icon-button"
            title="Edit and send again: puts this message in the prompt box; it is sent as a new turn after the last one, and the turns after it stay"
            aria-label="Edit and send again"
            @click=${() => this.putBack(entry)}
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
        ${line.resend ? html`<button type="button" class="sc-link" @click=${() => this.putBack(entry)}>Put back in the prompt box</button>` : nothing}
      </div>`,
    )}`;
  }

  private putBack(entry: MessageEntry): void {
    restoreDraft(this, entry.text);
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
