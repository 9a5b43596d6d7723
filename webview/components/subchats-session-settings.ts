// The root session's modes and config options as pickers (the same choices as "Change Mode or Option…"),
// beside the prompt box's buttons as in VS Code's chat. Whether they take changes now is the host's verdict.
import { html, nothing, type TemplateResult } from 'lit';
import { t } from '../../src/presentation';
import { property } from 'lit/decorators.js';
import type { ChatSessionSetting } from '../../src/protocol/webviewMessages';
import { requestHost } from '../events';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { OUTCOME_TOPIC } from '../state/topics';
import { SubchatsElement } from './base';
import { refusalNote } from './refusal';

export class SubchatsSessionSettings extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, OUTCOME_TOPIC] }));
  }

  protected override render(): TemplateResult | typeof nothing {
    const header = this.store?.mirror.session(this.sessionId)?.header;
    if (!header || header.settings.length === 0) return nothing;
    const disabled = !header.actions.changeSetting.allowed;
    const why = disabled ? (header.actions.changeSetting.reason ?? t('The session does not take changes now.')) : undefined;
    return html`<div class="sc-row sc-settings" role="group" aria-label=${t('Session settings')}>
        ${header.settings.map((setting) => this.renderSetting(setting, disabled, why))}
      </div>
      ${refusalNote(this.store, { request: 'changeSetting', sessionId: this.sessionId }, this.localName)}`;
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
        ${known ? nothing : html`<option value="" selected disabled>${t('(not reported)')}</option>`}
        ${setting.choices.map((choice) => html`<option value=${choice.value} title=${choice.description ?? nothing} ?selected=${choice.value === setting.current}>${choice.name}</option>`)}
      </select>
    </label>`;
  }

  private change(setting: ChatSessionSetting, value: string | boolean): void {
    const change = setting.kind === 'mode' ? { kind: 'mode' as const, modeId: String(value) } : { kind: 'option' as const, configId: setting.id, value };
    requestHost(this, { type: 'changeSetting', sessionId: this.sessionId, change });
  }
}

customElements.define('subchats-session-settings', SubchatsSessionSettings);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-session-settings': SubchatsSessionSettings;
  }
}
