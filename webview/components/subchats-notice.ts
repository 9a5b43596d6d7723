// A notice from the agent (info / warning / error) or a question it asked (elicitation).
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { ElicitationEntry, NoticeEntry } from '../../src/protocol/transcript';
import { ownEntry, t } from '../../src/presentation';
import { SubchatsElement, codicon } from './base';

const SEVERITY_ICONS: Record<string, string> = { info: 'info', warning: 'warning', error: 'error' };

export class SubchatsNotice extends SubchatsElement {
  @property({ attribute: false }) entry!: NoticeEntry | ElicitationEntry;

  protected override render(): TemplateResult {
    const entry = this.entry;
    if (entry.kind === 'elicitation') {
      return html`<div class="sc-entry sc-notice" data-severity="info" role="note">
        ${codicon('comment-discussion')} <strong>${t('The agent asks:')}</strong> ${entry.message}
        <div class="sc-muted">${entry.outcome === 'pending' ? t('Waiting for an answer') : t('Answer: {0}', entry.outcome)}</div>
      </div>`;
    }
    return html`<div class="sc-entry sc-notice" data-severity=${entry.severity} role=${entry.severity === 'error' ? 'alert' : 'note'}>
      ${codicon(ownEntry(SEVERITY_ICONS, entry.severity) ?? 'info', entry.severity)} <strong>${entry.title}</strong>
      ${entry.description ? html`<div>${entry.description}</div>` : nothing}
    </div>`;
  }
}

customElements.define('subchats-notice', SubchatsNotice);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-notice': SubchatsNotice;
  }
}
