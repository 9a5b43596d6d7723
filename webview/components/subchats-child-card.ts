// A child session where it was spawned: name, state, elapsed time, tool-call count and latest activity.
// Collapsed it previews the latest entries; expanded it shows the child's whole chat inline (nested cards too).
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { requestHost } from '../events';
import { elapsedMs, formatDuration, isWorking, longQuietNotice, presentState, spentTimes, spentTimesText, stateExplanation, t, usageText } from '../../src/presentation';
import { entrySummary, latestActivity } from '../lib/format';
import type { ChatStore } from '../state/chatStore';
import type { ChatSessionView } from '../state/mirror';
import { StoreWatch } from '../state/storeWatch';
import { OUTCOME_TOPIC } from '../state/topics';
import { SecondTicker } from '../state/ticker';
import { STOP_ICON, SubchatsElement, codicon, presentedIcon } from './base';
import { refusalNote } from './refusal';
import type { PermissionEntry } from '../../src/protocol/transcript';
import './subchats-changes';
import './subchats-permission';
import './subchats-transcript';

const PREVIEW_ENTRIES = 3;

export class SubchatsChildCard extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, OUTCOME_TOPIC] }));
    new SecondTicker(this, () => {
      const state = this.store?.mirror.session(this.sessionId)?.header.state;
      return state !== undefined && isWorking(state);
    });
  }

  protected override willUpdate(_changed: PropertyValues<this>): void {
    this.dataset.sessionId = this.sessionId;
    this.dataset.state = this.store?.mirror.session(this.sessionId)?.header.state.state ?? 'unknown';
  }

  protected override render(): TemplateResult {
    const view = this.store?.mirror.session(this.sessionId);
    if (!view) return html`<div class="sc-entry sc-muted">${codicon('hubot')} ${t('Subagent (not available)')}</div>`;
    const { header } = view;
    const name = header.label;
    const presented = presentState(header.state, header, Date.now());
    const expanded = this.store?.ui.isExpanded(this.sessionId) ?? false;
    // Counted from the tool calls, which deltas keep current (the header only changes with session fields).
    const toolCount = Object.keys(view.toolCalls).length;
    return html`<div class="sc-entry">
      <section class="sc-card" aria-label=${t('Subagent {0}', name)}>
        <div class="sc-card-head sc-row">
          <button
            type="button"
            class="sc-icon-button sc-expand"
            aria-expanded=${expanded ? 'true' : 'false'}
            aria-label=${expanded ? t('Collapse subagent {0}', name) : t('Expand subagent {0}', name)}
            @click=${this.toggle}
          >
            ${codicon(expanded ? 'chevron-down' : 'chevron-right')}
          </button>
          ${codicon('hubot')}
          <strong class="sc-grow sc-ellipsis sc-card-title" title=${name}>${name}</strong>
          <span class="sc-state" data-state=${header.state.state} data-activity=${presented.activity} title=${stateExplanation(header.stateHistory, { cancelRequestedAt: header.cancelRequestedAt }) || nothing}
            >${presentedIcon(presented)} ${presented.label}</span
          >
          ${this.renderControls(view, name)}
        </div>
        <div class="sc-child-meta">
          <span title=${t('Time working: {0}', spentTimesText(spentTimes(header, Date.now(), true)))}>${codicon('watch')} ${formatDuration(elapsedMs(header, Date.now(), true))}</span>
          <span>${codicon('tools')} ${toolCount === 1 ? t('1 tool call') : t('{0} tool calls', toolCount)}</span>
          ${header.childIds.length > 0
            ? html`<span>${codicon('type-hierarchy-sub')} ${header.childIds.length === 1 ? t('1 subagent') : t('{0} subagents', header.childIds.length)}</span>`
            : nothing}
          ${usageText(header.spend) ? html`<span class="sc-usage" title=${header.spendLines.join('\n')}>${codicon('pulse')} ${usageText(header.spend)}</span>` : nothing}
          <span class="sc-grow sc-ellipsis sc-activity" title=${t('Latest activity')}>${latestActivity(view)}</span>
        </div>
        ${this.renderRefusals()}
        ${quietNotice(header)}
        ${reportedNote(header.state)}
        <subchats-changes class="sc-card-changes" .store=${this.store} .sessionId=${this.sessionId} .scope=${'tree'}></subchats-changes>
        ${expanded
          ? html`<div class="sc-nested"><subchats-transcript .store=${this.store} .sessionId=${this.sessionId}></subchats-transcript></div>`
          : html`${this.renderPreview(view)}${this.renderPendingQuestions(view)}`}
      </section>
    </div>`;
  }

  private renderControls(view: ChatSessionView, name: string): TemplateResult {
    const cancel = view.header.actions.cancel;
    return html`${cancel.allowed
        ? html`<button type="button" class="sc-icon-button" title=${t('Cancel')} aria-label=${t('Cancel subagent {0}', name)} @click=${this.cancel}>
            ${codicon(STOP_ICON)}
          </button>`
        : nothing}
      ${view.header.actions.openSubagent.allowed
        ? html`<button type="button" class="sc-icon-button" title=${t('Open subagent session (its whole transcript)')} aria-label=${t('Open the session of {0}', name)} @click=${this.openSubagentSession}>
            ${codicon('history')}
          </button>`
        : nothing}
      <button type="button" class="sc-icon-button" title=${t('Open in new tab')} aria-label=${t('Open {0} in a new tab', name)} @click=${() => this.open('tab')}>
        ${codicon('link-external')}
      </button>
      <button type="button" class="sc-icon-button" title=${t('Open to the side')} aria-label=${t('Open {0} to the side', name)} @click=${() => this.open('beside')}>
        ${codicon('split-horizontal')}
      </button>`;
  }

  private renderPreview(view: ChatSessionView): TemplateResult | typeof nothing {
    const latest = view.entries.slice(-PREVIEW_ENTRIES);
    if (latest.length <= 1) return nothing;
    return html`<ul class="sc-preview" aria-label=${t('Latest entries')}>
      ${latest.slice(0, -1).map((entry) => html`<li class="sc-ellipsis">${entrySummary(entry, view.toolCalls)}</li>`)}
    </ul>`;
  }

  /** A collapsed child that waits for the user still shows its question, answerable right here. */
  private renderPendingQuestions(view: ChatSessionView): TemplateResult | typeof nothing {
    if (view.header.awaitingUser === 0) return nothing;
    const pending = view.entries.filter((entry): entry is PermissionEntry => entry.kind === 'permission' && entry.outcome === 'pending');
    if (pending.length === 0) return nothing;
    return html`${pending.map((entry) => html`<subchats-permission .store=${this.store} .sessionId=${this.sessionId} .entry=${entry}></subchats-permission>`)}`;
  }

  /** Why the host refused a cancel or an open asked from this card. */
  private renderRefusals(): TemplateResult {
    const { sessionId, localName } = this;
    return html`${refusalNote(this.store, { request: 'cancel', sessionId }, localName)}${refusalNote(this.store, { request: 'openSubagentSession', sessionId }, localName)}`;
  }

  private readonly toggle = (): void => {
    this.store?.ui.setExpanded(this.sessionId, !this.store.ui.isExpanded(this.sessionId));
  };

  private readonly cancel = (): void => {
    requestHost(this, { type: 'cancel', sessionId: this.sessionId });
  };

  private readonly openSubagentSession = (): void => {
    requestHost(this, { type: 'openSubagentSession', sessionId: this.sessionId });
  };

  private open(where: 'tab' | 'beside'): void {
    requestHost(this, { type: 'openChat', sessionId: this.sessionId, where });
  }
}

/** The agent's own words on an end the client reads otherwise ("reported: This operation was aborted"). */
export function reportedNote(state: { readonly reported?: string }): TemplateResult | typeof nothing {
  return state.reported ? html`<div class="sc-muted sc-ellipsis sc-reported" role="note" title=${state.reported}>${codicon('comment')} ${t('reported: {0}', state.reported)}</div>` : nothing;
}

/** A long-quiet child whose agent keeps its questions to itself (the same words as the tree's tooltip). */
export function quietNotice(header: Parameters<typeof longQuietNotice>[0]): TemplateResult | typeof nothing {
  const notice = longQuietNotice(header, Date.now());
  return notice ? html`<div class="sc-muted sc-quiet-notice" role="note">${codicon('info')} ${notice}</div>` : nothing;
}

customElements.define('subchats-child-card', SubchatsChildCard);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-child-card': SubchatsChildCard;
  }
}
