// A message between sessions, shown on the side it was sent on, with links to the other session.
import { html, type nothing, type TemplateResult } from 'lit';
import { t } from '../../src/presentation';
import { property } from 'lit/decorators.js';
import type { SessionMessageEntry } from '../../src/protocol/transcript';
import { requestHost, revealSession } from '../events';
import type { ChatStore } from '../state/chatStore';
import { renderAttachment } from './attachments';
import { SubchatsElement, codicon } from './base';
import './subchats-markdown';
import { growthOf } from '../state/textGrowth';

export class SubchatsSessionMessage extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) entry!: SessionMessageEntry;
  @property({ attribute: false }) sessionId = '';

  protected override render(): TemplateResult {
    const entry = this.entry;
    const sender = entry.senderSessionId ?? (entry.direction === 'outgoing' ? this.sessionId : undefined);
    const recipient = entry.recipientSessionId ?? (entry.direction === 'incoming' ? this.sessionId : undefined);
    const icon = entry.direction === 'incoming' ? 'arrow-down' : entry.direction === 'outgoing' ? 'arrow-up' : 'arrow-swap';
    return html`<div class="sc-entry sc-session-message">
      <div class="sc-role sc-row">
        ${codicon(icon)} ${this.sessionLink(sender, 'sender')} ${codicon('arrow-right')} ${this.sessionLink(recipient, 'recipient')}
      </div>
      <subchats-markdown .growth=${growthOf(entry)} .text=${entry.text}></subchats-markdown>
      ${entry.attachments.map(renderAttachment)}
    </div>`;
  }

  private sessionLink(sessionId: string | undefined, role: 'sender' | 'recipient'): TemplateResult | typeof nothing {
    if (sessionId === undefined) return html`<span>${role === 'sender' ? t('unknown sender') : t('unknown recipient')}</span>`;
    if (sessionId === this.sessionId) return html`<span>${t('this session')}</span>`;
    const header = this.store?.mirror.session(sessionId)?.header;
    // Outside this panel's tree only the ancestors are known by name (the breadcrumb has them).
    const ancestor = this.store?.mirror.ancestors.find((a) => a.id === sessionId);
    const name = header?.label ?? ancestor?.label ?? t('another session');
    // Sessions in this panel are revealed in place; others open in their own tab.
    const go = header
      ? () => revealSession(this, sessionId)
      : () => requestHost(this, { type: 'openChat', sessionId, where: 'tab' });
    return html`<button type="button" class="sc-link" data-session-link=${sessionId} @click=${go}>${name}</button>`;
  }
}

customElements.define('subchats-session-message', SubchatsSessionMessage);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-session-message': SubchatsSessionMessage;
  }
}
