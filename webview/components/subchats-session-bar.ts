// The panel's header: breadcrumb (ancestors > this session), state, usage and session controls.
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { requestHost } from '../events';
import { contextText, isWorking, presentState, stateExplanation, usageText, withBackgroundWork } from '../../src/presentation';
import type { ChatSessionHeader, ChatSessionSetting } from '../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/chatStore';
import { OUTCOME_TOPIC, ROOT_TOPIC } from '../state/topics';
import { refusalNote } from './refusal';
import { StoreWatch } from '../state/storeWatch';
import { SecondTicker } from '../state/ticker';
import { quietNotice, reportedNote } from './subchats-child-card';
import { SubchatsElement, codicon, presentedIcon } from './base';

export class SubchatsSessionBar extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, ROOT_TOPIC, OUTCOME_TOPIC] }));
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
    return html`<div class="sc-row">
      <nav class="sc-grow" aria-label="Breadcrumb">
        <ol class="sc-breadcrumb">
          ${this.store.mirror.ancestors.map(
            (ancestor) => html`<li>
              <button type="button" class="sc-link" title="Open this session" @click=${() => requestHost(this, { type: 'openChat', sessionId: ancestor.id, where: 'tab' })}>
                ${ancestor.label}
              </button>
            </li>`,
          )}
          <li><span aria-current="page">${header.label}</span></li>
        </ol>
      </nav>
      <span class="sc-state" data-state=${header.state.state} data-activity=${presented.activity} role="status" title=${explanation || nothing}>${presentedIcon(presented)} ${presented.label}</span>
      ${usageText(header.spend) ? html`<span class="sc-muted sc-usage" title=${header.spendLines.join('\n')}>${usageText(header.spend)}</span>` : nothing}
      ${contextText(header.spend) ? html`<span class="sc-muted" title="Context usage">${contextText(header.spend)}</span>` : nothing}
      ${header.actions.cancel.allowed
        ? html`<button type="button" class="sc-icon-button" title="Cancel" aria-label="Cancel this session" @click=${() => requestHost(this, { type: 'cancel', sessionId: this.sessionId })}>
            ${codicon('debug-stop')}
          </button>`
        : nothing}
    </div>
    ${refusalNote(this.store, { request: 'cancel', sessionId: this.sessionId }, this.localName)}
    ${this.renderSettings(header)}
    ${refusalNote(this.store, { request: 'changeSetting', sessionId: this.sessionId }, this.localName)}
    ${explanation ? html`<div class="sc-muted sc-ellipsis sc-state-explanation">${explanation}</div>` : nothing}
    ${quietNotice(header)}
    ${header.state.error?.message ? html`<div class="sc-muted" role="alert">${codicon('error')} ${header.state.error.message}</div>` : nothing}
    ${reportedNote(header.state)}`;
  }

  /** The root's modes and options as pickers, the same choices as "Change Mode or Option…". */
  private renderSettings(header: ChatSessionHeader): TemplateResult | typeof nothing {
    if (header.settings.length === 0) return nothing;
    const disabled = !header.actions.changeSetting.allowed;
    const why = disabled ? (header.actions.changeSetting.reason ?? 'The session does not take changes now.') : undefined;
    return html`<div class="sc-row sc-settings" role="group" aria-label="Session settings">
      ${header.settings.map((setting) => this.renderSetting(setting, disabled, why))}
    </div>`;
  }

  private renderSetting(setting: ChatSessionSetting, disabled: boolean, why: string | undefined): TemplateResult {
    if (setting.type === 'boolean') {
      return html`<label class="sc-setting" title=${why ?? setting.name}>
        <input type="checkbox" .checked=${setting.current === true} ?disabled=${disabled} @change=${(event: Event) => this.change(setting, (event.target as HTMLInputElement).checked)} />
        ${setting.name}
      </label>`;
    }
    const known = setting.choices.some((choice) => choice.value === setting.current);
    return html`<label class="sc-setting" title=${why ?? setting.name}>
      <span class="sc-muted">${setting.name}</span>
      <select aria-label=${setting.name} ?disabled=${disabled} @change=${(event: Event) => this.change(setting, (event.target as HTMLSelectElement).value)}>
        ${known ? nothing : html`<option value="" selected disabled>(not reported)</option>`}
        ${setting.choices.map((choice) => html`<option value=${choice.value} title=${choice.description ?? nothing} ?selected=${choice.value === setting.current}>${choice.name}</option>`)}
      </select>
    </label>`;
  }

  private change(setting: ChatSessionSetting, value: string | boolean): void {
    const change = setting.kind === 'mode' ? { kind: 'mode' as const, modeId: String(value) } : { kind: 'option' as const, configId: setting.id, value };
    requestHost(this, { type: 'changeSetting', sessionId: this.sessionId, change });
  }
}

customElements.define('subchats-session-bar', SubchatsSessionBar);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-session-bar': SubchatsSessionBar;
  }
}
