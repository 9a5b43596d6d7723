// The agent's plan: entries with status and priority (or, once the agent removed it, just that it was).
import { html, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { PlanEntryItem } from '../../src/protocol/transcript';
import { ownEntry, planSummary, t } from '../../src/presentation';
import { SubchatsElement, codicon } from './base';

const STATUS_ICONS: Record<string, string> = {
  completed: 'pass-filled',
  in_progress: 'circle-large-filled',
  pending: 'circle-large-outline',
};

export class SubchatsPlan extends SubchatsElement {
  @property({ attribute: false }) entry!: PlanEntryItem;

  protected override render(): TemplateResult {
    const heading = html`<div class="sc-role">${codicon('checklist')} ${planSummary(this.entry)}</div>`;
    // A removed plan keeps its place in the transcript but no longer shows steps the agent withdrew.
    if (this.entry.removed === true) return html`<div class="sc-entry sc-plan sc-muted" role="group" aria-label=${t('Plan (removed)')}>${heading}</div>`;
    return html`<div class="sc-entry sc-plan" role="group" aria-label=${t('Plan')}>
      ${heading}
      <ol>
        ${this.entry.entries.map(
          (item) => html`<li data-status=${item.status ?? 'pending'}>
            ${codicon(ownEntry(STATUS_ICONS, item.status ?? 'pending') ?? 'circle-large-outline', item.status ?? 'pending')}
            <span class="sc-plan-text">${item.content}</span>
            ${item.priority === 'high' ? html`<span class="sc-muted">${t('(high priority)')}</span>` : ''}
          </li>`,
        )}
      </ol>
    </div>`;
  }
}

customElements.define('subchats-plan', SubchatsPlan);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-plan': SubchatsPlan;
  }
}
