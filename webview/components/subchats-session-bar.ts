// The panel's header: breadcrumb (ancestors > this session), state, usage and session controls.
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { requestHost } from '../events';
import { sessionName, stateIcon, stateLabel } from '../lib/format';
import { ROOT_TOPIC, type ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { SubchatsElement, codicon } from './base';

export class SubchatsSessionBar extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, ROOT_TOPIC] }));
  }

  protected override render(): TemplateResult | typeof nothing {
    const header = this.store?.session(this.sessionId)?.header;
    if (!this.store || !header) return nothing;
    const busy = header.activePromptId !== null || header.state.state === 'running';
    return html`<div class="sc-row">
      <nav class="sc-grow" aria-label="Breadcrumb">
        <ol class="sc-breadcrumb">
          ${this.store.ancestors.map(
            (ancestor) => html`<li>
              <button type="button" class="sc-link" title="Open this session" @click=${() => requestHost(this, { type: 'openChat', sessionId: ancestor.id, where: 'tab' })}>
                ${sessionName(ancestor)}
              </button>
            </li>`,
          )}
          <li><span aria-current="page">${sessionName(header)}</span></li>
        </ol>
      </nav>
      <span class="sc-state" data-state=${header.state.state} role="status">${codicon(stateIcon(header.state.state))} ${stateLabel(header)}</span>
      ${usageText(header.usage) ? html`<span class="sc-muted" title="Context usage">${usageText(header.usage)}</span>` : nothing}
      ${header.actions.cancel.allowed && busy
        ? html`<button type="button" class="sc-icon-button" title="Cancel" aria-label="Cancel this session" @click=${() => requestHost(this, { type: 'cancel', sessionId: this.sessionId })}>
            ${codicon('debug-stop')}
          </button>`
        : nothing}
    </div>
    ${header.state.error?.message ? html`<div class="sc-muted" role="alert">${codicon('error')} ${header.state.error.message}</div>` : nothing}`;
  }
}

function usageText(usage: Readonly<Record<string, unknown>> | null): string {
  if (!usage) return '';
  const parts: string[] = [];
  if (typeof usage.used === 'number' && typeof usage.size === 'number') {
    parts.push(`${usage.used.toLocaleString()} / ${usage.size.toLocaleString()} tokens`);
  }
  const cost = usage.cost as { amount?: unknown; currency?: unknown } | null | undefined;
  if (cost && typeof cost.amount === 'number') parts.push(`${cost.amount.toFixed(2)} ${typeof cost.currency === 'string' ? cost.currency : ''}`.trim());
  return parts.join(' · ');
}

customElements.define('subchats-session-bar', SubchatsSessionBar);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-session-bar': SubchatsSessionBar;
  }
}
