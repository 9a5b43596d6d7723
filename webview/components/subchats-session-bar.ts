// The panel's header: one line (breadcrumb, state, usage, Cancel) and, on demand, its details (how the state
// came about, the Changes, the children's timeline, the session outline). Notes that need the user now (an
// error, a refusal, a long-quiet agent) show under the line. The header is a row of the panel's column, so it
// never covers the transcript however much it shows.
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { requestHost } from '../events';
import { contextText, isWorking, presentState, stateExplanation, t, usageText, withBackgroundWork } from '../../src/presentation';
import type { ChatSessionHeader } from '../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/chatStore';
import type { HeaderPart } from '../state/viewModel';
import { OUTCOME_TOPIC, ROOT_TOPIC, UI_TOPIC } from '../state/topics';
import { refusalNote } from './refusal';
import { StoreWatch } from '../state/storeWatch';
import { SecondTicker } from '../state/ticker';
import { quietNotice, reportedNote } from './subchats-child-card';
import { STOP_ICON, SubchatsElement, codicon, presentedIcon } from './base';
import './subchats-changes';
import './subchats-outline';
import './subchats-timeline';

const DETAILS_ID = 'sc-header-details';

export class SubchatsSessionBar extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, ROOT_TOPIC, OUTCOME_TOPIC, UI_TOPIC] }));
    // What quiet time says (the long-quiet notice, a quiet agent-started turn) changes while the session runs.
    new SecondTicker(this, () => {
      const state = this.store?.mirror.session(this.sessionId)?.header.state;
      return state !== undefined && isWorking(state);
    });
  }

  protected override render(): TemplateResult | typeof nothing {
    const header = this.store?.mirror.session(this.sessionId)?.header;
    if (!this.store || !header) return nothing;
    const presented = withBackgroundWork(presentState(header.state, header, Date.now()), header.backgroundRunning);
    const explanation = stateExplanation(header.stateHistory, { cancelRequestedAt: header.cancelRequestedAt });
    const usage = usageText(header.spend);
    const context = contextText(header.spend);
    const detailsOpen = this.store.ui.isOpen('details');
    return html`<div class="sc-row sc-header-line">
        <nav class="sc-grow" aria-label=${t('Breadcrumb')}>
          <ol class="sc-breadcrumb">
            ${this.store.mirror.ancestors.map(
              (ancestor) => html`<li>
                <button type="button" class="sc-link sc-ellipsis" title=${t('Open this session: {0}', ancestor.label)} @click=${() => requestHost(this, { type: 'openChat', sessionId: ancestor.id, where: 'tab' })}>
                  ${ancestor.label}
                </button>
              </li>`,
            )}
            <li><span class="sc-ellipsis" aria-current="page" title=${header.label}>${header.label}</span></li>
          </ol>
        </nav>
        <span class="sc-state" data-state=${header.state.state} data-activity=${presented.activity} role="status" title=${explanation || nothing}>${presentedIcon(presented)} ${presented.label}</span>
        ${usage ? html`<span class="sc-muted sc-usage sc-ellipsis" title=${header.spendLines.join('\n')}>${usage}</span>` : nothing}
        ${context ? html`<span class="sc-muted sc-context sc-ellipsis" title=${t('Context usage')}>${context}</span>` : nothing}
        ${header.actions.cancel.allowed
          ? html`<button type="button" class="sc-icon-button" title=${t('Cancel')} aria-label=${t('Cancel this session')} @click=${() => requestHost(this, { type: 'cancel', sessionId: this.sessionId })}>
              ${codicon(STOP_ICON)}
            </button>`
          : nothing}
        <button
          type="button"
          class="sc-icon-button sc-details-toggle"
          aria-label=${t('Session details')}
          title=${detailsOpen ? t('Hide the details') : t('Show the details: how the state came about, changes, timeline, outline')}
          aria-expanded=${detailsOpen ? 'true' : 'false'}
          aria-controls=${DETAILS_ID}
          @click=${() => this.toggle('details')}
        >
          ${codicon(detailsOpen ? 'chevron-up' : 'chevron-down')}
        </button>
      </div>
      ${refusalNote(this.store, { request: 'cancel', sessionId: this.sessionId }, this.localName)}
      ${header.state.error?.message ? html`<div class="sc-muted" role="alert">${codicon('error')} ${header.state.error.message}</div>` : nothing}
      ${quietNotice(header)}
      ${reportedNote(header.state)}
      <div id=${DETAILS_ID} class="sc-header-details" role="region" aria-label=${t('Session details')} ?hidden=${!detailsOpen}>
        ${detailsOpen ? this.renderDetails(header, explanation) : nothing}
      </div>`;
  }

  /**
   * Rendered only while shown: hidden, a parent of 500 subagents would keep 500 timeline rows (and its changed
   * files) in the page, and redraw them each second while a child runs.
   */
  private renderDetails(header: ChatSessionHeader, explanation: string): TemplateResult {
    return html`${explanation ? html`<div class="sc-muted sc-state-explanation">${explanation}</div>` : nothing}
      <subchats-changes .store=${this.store} .sessionId=${this.sessionId} .scope=${'tree'}></subchats-changes>
      <subchats-timeline .store=${this.store} .sessionId=${this.sessionId}></subchats-timeline>
      ${this.renderOutline(header)}`;
  }

  private renderOutline(header: ChatSessionHeader): TemplateResult | typeof nothing {
    if (header.childIds.length === 0) return nothing;
    const open = this.store?.ui.isOpen('outline') ?? false;
    return html`<button type="button" class="sc-link" aria-expanded=${open ? 'true' : 'false'} @click=${() => this.toggle('outline')}>
        ${codicon('list-tree')} ${open ? t('Hide session outline') : t('Show session outline')}
      </button>
      ${open ? html`<subchats-outline .store=${this.store}></subchats-outline>` : nothing}`;
  }

  private toggle(part: HeaderPart): void {
    this.store?.ui.setOpen(part, !this.store.ui.isOpen(part));
  }
}

customElements.define('subchats-session-bar', SubchatsSessionBar);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-session-bar': SubchatsSessionBar;
  }
}
