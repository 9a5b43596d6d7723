// A user or agent message (markdown), or a thought (collapsed until opened).
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { MessageEntry } from '../../src/protocol/transcript';
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
    return html`<div class="sc-entry" role="article" aria-label=${`${label} message`}>
      <div class="sc-role">${label}</div>
      <div class="sc-bubble"><subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>${attachments}</div>
    </div>`;
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
