// The prompt box for the panel's session: disabled with the store's reason when the session cannot be prompted.
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { requestHost } from '../events';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { SubchatsElement, codicon } from './base';

export class SubchatsPromptBox extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  @state() private draft = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId] }));
  }

  protected override render(): TemplateResult | typeof nothing {
    const header = this.store?.session(this.sessionId)?.header;
    if (!header) return nothing;
    const { prompt, cancel } = header.actions;
    const reasonId = 'sc-prompt-reason';
    const busy = header.promptRunning || header.state.state === 'running';
    return html`<form @submit=${this.onSubmit} aria-label="Prompt">
      <label class="sc-visually-hidden" for="sc-prompt-input">Message the agent</label>
      <textarea
        id="sc-prompt-input"
        placeholder=${prompt.allowed ? 'Message the agent (Enter to send, Shift+Enter for a new line)' : ''}
        .value=${this.draft}
        ?disabled=${!prompt.allowed}
        aria-describedby=${prompt.allowed ? nothing : reasonId}
        @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)}
        @keydown=${this.onKeyDown}
      ></textarea>
      <div class="sc-row">
        <span id=${reasonId} class="sc-grow sc-muted sc-prompt-reason">${prompt.allowed ? '' : (prompt.reason ?? 'This session cannot be prompted.')}</span>
        ${cancel.allowed && busy
          ? html`<button type="button" class="sc-button secondary" @click=${this.cancel}>${codicon('debug-stop')} Cancel</button>`
          : nothing}
        <button type="submit" class="sc-button" ?disabled=${!prompt.allowed || this.draft.trim() === ''}>${codicon('send')} Send</button>
      </div>
    </form>`;
  }

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
  };

  private readonly onSubmit = (event: Event): void => {
    event.preventDefault();
    this.send();
  };

  private send(): void {
    const header = this.store?.session(this.sessionId)?.header;
    const text = this.draft.trim();
    if (!header?.actions.prompt.allowed || text === '') return;
    requestHost(this, { type: 'prompt', sessionId: this.sessionId, text });
    this.draft = '';
  }

  private readonly cancel = (): void => {
    requestHost(this, { type: 'cancel', sessionId: this.sessionId });
  };
}

customElements.define('subchats-prompt-box', SubchatsPromptBox);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-prompt-box': SubchatsPromptBox;
  }
}
