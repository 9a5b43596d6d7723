// A permission request: the agent's options as buttons while pending, then the answer.
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { PermissionEntry } from '../../src/protocol/transcript';
import { requestHost } from '../events';
import { commandText, ownEntry, permissionAnswer, plainText, t } from '../../src/presentation';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { OUTCOME_TOPIC } from '../state/topics';
import { SubchatsElement, codicon } from './base';
import { refusalNote } from './refusal';

const OPTION_ICONS: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

export class SubchatsPermission extends SubchatsElement {
  @property({ attribute: false }) entry!: PermissionEntry;
  @property({ attribute: false }) sessionId = '';
  @property({ attribute: false }) store: ChatStore | undefined;
  /** Set once the user answered here, until the host reports the outcome. */
  @state() private sentFor: string | undefined;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [OUTCOME_TOPIC] }));
  }

  protected override render(): TemplateResult {
    const entry = this.entry;
    const pending = entry.outcome === 'pending';
    const waiting = pending && this.sentFor === entry.requestId;
    return html`<div class="sc-entry">
      <div class="sc-permission" role="group" aria-label=${t('Permission request: {0}', entry.title)}>
        <div>${codicon('shield')} <strong>${t('Permission requested:')}</strong> ${entry.title}</div>
        ${entry.description ? html`<div class="sc-muted sc-permission-description">${entry.description}</div>` : nothing}
        ${entry.command !== undefined ? html`<div class="sc-permission-command">${t('Command:')} <code>${plainText(commandText(entry.command))}</code></div>` : nothing}
        ${pending ? this.renderOptionButtons(entry, waiting) : html`<div class="sc-muted">${permissionAnswer(entry)}</div>`}
        ${refusalNote(this.store, { request: 'answerPermission', sessionId: this.sessionId, target: entry.requestId }, this.localName)}
      </div>
    </div>`;
  }

  private renderOptionButtons(entry: PermissionEntry, waiting: boolean): TemplateResult {
    return html`<div class="sc-options">
      ${entry.options.map(
        (option) => html`<button
          type="button"
          class="sc-button ${option.kind.startsWith('reject') ? 'secondary' : ''}"
          data-option-id=${option.optionId}
          ?disabled=${waiting}
          @click=${() => this.answer(option.optionId)}
        >
          ${codicon(ownEntry(OPTION_ICONS, option.kind) ?? 'circle-outline')} ${option.name}
        </button>`,
      )}
      <button type="button" class="sc-button secondary" data-option-id="" ?disabled=${waiting} @click=${() => this.answer(null)}>
        ${codicon('close')} ${t('Dismiss')}
      </button>
    </div>`;
  }

  private answer(optionId: string | null): void {
    this.sentFor = this.entry.requestId;
    requestHost(this, { type: 'answerPermission', sessionId: this.sessionId, requestId: this.entry.requestId, optionId });
  }
}

customElements.define('subchats-permission', SubchatsPermission);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-permission': SubchatsPermission;
  }
}
