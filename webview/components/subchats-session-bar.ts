// The panel's header: breadcrumb (ancestors > this session), state, usage and session controls.
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { requestHost } from '../events';
import { isWorking, presentState, stateExplanation } from '../../src/presentation';
import type { ChatUsage } from '../../src/protocol/webviewMessages';
import { ROOT_TOPIC, type ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { SecondTicker } from '../state/ticker';
import { quietNotice } from './subchats-child-card';
import { SubchatsElement, codicon, presentedIcon } from './base';

export class SubchatsSessionBar extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, ROOT_TOPIC] }));
    // What quiet time says (the long-quiet notice, a quiet agent-started turn) changes while the session runs.
    new SecondTicker(this, () => {
      const state = this.store?.session(this.sessionId)?.header.state;
      return state !== undefined && isWorking(state);
    });
  }

  protected override render(): TemplateResult | typeof nothing {
    const header = this.store?.session(this.sessionId)?.header;
    if (!this.store || !header) return nothing;
    const busy = header.promptRunning || header.state.state === 'running';
    const presented = presentState(header.state, header, Date.now());
    const explanation = stateExplanation(header.stateHistory, { cancelRequestedAt: header.cancelRequestedAt });
    return html`<div class="sc-row">
      <nav class="sc-grow" aria-label="Breadcrumb">
        <ol class="sc-breadcrumb">
          ${this.store.ancestors.map(
            (ancestor) => html`<li>
              <button type="button" class="sc-link" title="Open this session" @click=${() => requestHost(this, { type: 'openChat', sessionId: ancestor.id, where: 'tab' })}>
                ${ancestor.label}
              </button>
            </li>`,
          )}
          <li><span aria-current="page">${header.label}</span></li>
        </ol>
      </nav>
      <span class="sc-state" data-state=${header.state.state} role="status" title=${explanation || nothing}>${presentedIcon(presented)} ${presented.label}</span>
      ${usageText(header.usage) ? html`<span class="sc-muted" title="Context usage">${usageText(header.usage)}</span>` : nothing}
      ${header.actions.cancel.allowed && busy
        ? html`<button type="button" class="sc-icon-button" title="Cancel" aria-label="Cancel this session" @click=${() => requestHost(this, { type: 'cancel', sessionId: this.sessionId })}>
            ${codicon('debug-stop')}
          </button>`
        : nothing}
    </div>
    ${explanation ? html`<div class="sc-muted sc-ellipsis sc-state-explanation">${explanation}</div>` : nothing}
    ${quietNotice(header)}
    ${header.state.error?.message ? html`<div class="sc-muted" role="alert">${codicon('error')} ${header.state.error.message}</div>` : nothing}`;
  }
}

function usageText(usage: ChatUsage | null): string {
  if (!usage) return '';
  const parts: string[] = [];
  if (usage.used !== undefined && usage.size !== undefined) parts.push(`${usage.used.toLocaleString()} / ${usage.size.toLocaleString()} tokens`);
  if (usage.cost) parts.push(`${usage.cost.amount.toFixed(2)} ${usage.cost.currency ?? ''}`.trim());
  return parts.join(' · ');
}

customElements.define('subchats-session-bar', SubchatsSessionBar);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-session-bar': SubchatsSessionBar;
  }
}
