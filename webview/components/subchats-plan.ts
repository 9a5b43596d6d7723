// The agent's plan: entries with status and priority.
import { html, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { PlanEntryItem } from '../../src/protocol/transcript';
import { ownEntry } from '../../src/presentation';
import { SubchatsElement, codicon } from './base';

const STATUS_ICONS: Record<string, string> = {
  completed: 'pass-filled',
  in_progress: 'circle-large-filled',
  pending: 'circle-large-outline',
};

export class SubchatsPlan extends SubchatsElement {
  @property({ attribute: false }) entry!: PlanEntryItem;

  protected override render(): TemplateResult {
    const done = this.entry.entries.filter((item) => item.status === 'completed').length;
    return html`<div class="sc-entry sc-plan" role="group" aria-label="Plan">
      <div class="sc-role">${codicon('checklist')} Plan · ${done}/${this.entry.entries.length} done</div>
      <ol>
        ${this.entry.entries.map(
          (item) => html`<li data-status=${item.status ?? 'pending'}>
            ${codicon(ownEntry(STATUS_ICONS, item.status ?? 'pending') ?? 'circle-large-outline', item.status ?? 'pending')}
            <span class="sc-plan-text">${item.content}</span>
            ${item.priority === 'high' ? html`<span class="sc-muted">(high priority)</span>` : ''}
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
