// The prompt box for the panel's session: `/` commands and `@` files as a keyboard-driven completion list,
// attachment chips, ↑/↓ through earlier prompts, pasted media, and the session's queue. What a message becomes
// is the host's verdict (`actions.send`: Send, Steer, Queue, or for a subagent a relay through its parent),
// rendered here, never computed: the box only names it and posts the words.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { attachmentRefusal, t } from '../../src/presentation';
import type { MessageRoute } from '../../src/protocol/transcript';
import type { PromptAttachment } from '../../src/protocol/webviewMessages';
import { requestHost, type EditedMessage } from '../events';
import { readMedia } from '../lib/mediaFiles';
import { HistoryWalk, completionTrigger, matchingCommands, promptHistory, replaceRange, type CompletionTrigger } from '../lib/promptComposer';
import type { ChatStore } from '../state/chatStore';
import type { ChatSessionView } from '../state/mirror';
import { COMPOSER_TOPIC, OUTCOME_TOPIC } from '../state/topics';
import { StoreWatch } from '../state/storeWatch';
import { STOP_ICON, SubchatsElement, codicon } from './base';
import { refusalNote } from './refusal';
import { COMPLETION_LIST_ID, completionOptionId, renderChips, renderCompletion, renderEditing, renderQueue, type CompletionItem } from './prompt-parts';
import './subchats-session-settings';

const INPUT_ID = 'sc-prompt-input';
/** Kept free between the completion list's top and the panel's top. */
const COMPLETION_TOP_GAP_PX = 6;

function samePath(a: PromptAttachment, b: PromptAttachment): boolean {
  return 'path' in a && 'path' in b && a.kind === b.kind && a.path === b.path && JSON.stringify(a) === JSON.stringify(b);
}

/** What the main button says for each route (made when shown: the words are in the user's language). */
function submitLabel(route: MessageRoute): TemplateResult {
  switch (route) {
    case 'steer':
      return html`${codicon('send')} ${t('Steer')}`;
    case 'queue':
      return html`${codicon('clock')} ${t('Queue')}`;
    case 'relay':
      return html`${codicon('reply')} ${t('Send to parent')}`;
    case 'prompt':
    case 'refuse':
      return html`${codicon('send')} ${t('Send')}`;
  }
}

/** The empty box's hint for each route. */
function placeholder(route: MessageRoute): string {
  switch (route) {
    case 'prompt':
      return t('Message the agent: / for commands, @ for files (Enter to send, Shift+Enter for a new line)');
    case 'steer':
      return t('Steer the running turn: your message joins it at once (Enter), or Queue it for when the turn ends');
    case 'queue':
      return t('Queue a message: it is sent when the turn ends');
    case 'relay':
      return t('Message for this subagent: it goes to its parent, labelled for this subagent');
    case 'refuse':
      return '';
  }
}

export class SubchatsPromptBox extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  @state() private draft = '';
  @state() private attachments: PromptAttachment[] = [];
  @state() private trigger: CompletionTrigger | undefined;
  @state() private active = 0;
  /** The earlier message the words are an edit of (*Edit and send again*): the send is marked as its edit. */
  @state() private editing: EditedMessage | undefined;
  /** Why the last paste or drop was refused. */
  @state() private notice = '';
  private caret = 0;
  private pendingCaret: number | undefined;
  private fileRequestId = 0;
  private readonly history = new HistoryWalk();

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId, COMPOSER_TOPIC, OUTCOME_TOPIC] }));
  }

  private get view(): ChatSessionView | undefined {
    return this.store?.mirror.session(this.sessionId);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('sessionId') || changed.has('store')) && this.store) {
      const saved = this.store.ui.composer(this.sessionId);
      this.draft = saved?.draft ?? '';
      this.attachments = [...(saved?.attachments ?? [])];
    }
    const added = this.store?.ui.takeAttachments() ?? [];
    for (const attachment of added) this.addAttachment(attachment);
    const restored = this.store?.ui.takeDraft(this.sessionId);
    if (restored !== undefined) {
      this.draft = this.draft.trim() === '' ? restored.text : `${this.draft}\n${restored.text}`;
      this.editing = restored.editOf;
      this.pendingCaret = this.draft.length;
    }
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('draft') || changed.has('attachments')) {
      this.store?.ui.saveComposer(this.sessionId, { draft: this.draft, attachments: this.attachments });
    }
    this.fitCompletionAbove();
    const input = this.querySelector<HTMLTextAreaElement>(`#${INPUT_ID}`);
    if (input && this.pendingCaret !== undefined) {
      input.setSelectionRange(this.pendingCaret, this.pendingCaret);
      this.caret = this.pendingCaret;
      this.pendingCaret = undefined;
    }
  }

  protected override render(): TemplateResult | typeof nothing {
    const view = this.view;
    if (!view) return nothing;
    const { header } = view;
    const { send, cancel, queue } = header.actions;
    const relay = send.route === 'relay';
    const writable = send.route !== 'refuse';
    const reasonId = 'sc-prompt-reason';
    const items = this.completionItems();
    const open = this.trigger !== undefined && writable && !relay;
    // A textarea cannot be a combobox (ARIA in HTML): it stays a text box that names the list and its option.
    const listed = open && items.length > 0;
    const refused = relay ? undefined : this.attachments.map((a) => attachmentRefusal(a.kind, header.promptCapabilities)).find((r) => r !== undefined);
    const empty = this.draft.trim() === '' && (relay || this.attachments.length === 0);
    const reason = refused ?? (this.notice || (send.route === 'prompt' ? '' : send.reason));
    return html`<form @submit=${this.onSubmit} aria-label=${t('Prompt')}>
      ${renderQueue(header.queued, (id) => requestHost(this, { type: 'unqueue', sessionId: this.sessionId, queuedId: id }))}
      ${this.editing ? renderEditing(this.editing, () => (this.editing = undefined)) : nothing}
      ${relay ? nothing : renderChips(this.attachments, header.promptCapabilities, (index) => (this.attachments = this.attachments.filter((_, i) => i !== index)))}
      ${open ? renderCompletion(items, this.active, (index) => this.choose(index), this.trigger?.kind === 'file' ? t('No matching workspace files.') : t('The agent advertised no matching commands.')) : nothing}
      <label class="sc-visually-hidden" for=${INPUT_ID}>${relay ? t('Message for this subagent, sent to {0}', send.via?.label ?? t('its parent')) : t('Message the agent')}</label>
      <textarea
        id=${INPUT_ID}
        aria-autocomplete="list"
        aria-controls=${listed ? COMPLETION_LIST_ID : nothing}
        aria-activedescendant=${listed ? completionOptionId(this.active) : nothing}
        placeholder=${placeholder(send.route)}
        .value=${this.draft}
        ?disabled=${!writable}
        aria-describedby=${reason ? reasonId : nothing}
        @input=${this.onInput}
        @keydown=${this.onKeyDown}
        @click=${this.onCaretMove}
        @blur=${() => (this.trigger = undefined)}
        @paste=${this.onPaste}
        @dragover=${(e: DragEvent) => e.dataTransfer?.types.includes('Files') && e.preventDefault()}
        @drop=${this.onDrop}
      ></textarea>
      ${refusalNote(this.store, { request: 'prompt', sessionId: this.sessionId }, this.localName)}
      ${refusalNote(this.store, { request: 'cancel', sessionId: this.sessionId }, this.localName)}
      <div class="sc-row sc-prompt-actions">
        <subchats-session-settings .store=${this.store} .sessionId=${this.sessionId}></subchats-session-settings>
        <span id=${reasonId} class="sc-grow sc-muted sc-prompt-reason">${reason}</span>
        ${cancel.allowed
          ? html`<button type="button" class="sc-button secondary sc-stop" title=${t('Stop the running turn (Escape in an empty prompt box)')} @click=${this.cancel}>${codicon(STOP_ICON)} ${t('Stop')}</button>`
          : nothing}
        ${send.route === 'steer' && queue.allowed
          ? html`<button type="button" class="sc-button secondary" title=${t('Wait for the turn to end instead of joining it')} ?disabled=${empty || refused !== undefined} @click=${() => this.send(true)}>
              ${codicon('clock')} ${t('Queue')}
            </button>`
          : nothing}
        <button type="submit" class="sc-button" title=${send.reason} ?disabled=${!writable || empty || refused !== undefined}>${submitLabel(send.route)}</button>
      </div>
    </form>`;
  }

  // ---- completion --------------------------------------------------------------------------------------

  /**
   * The list opens upward from the box (the panel's bottom row) over the transcript, and may take the room up
   * to the panel's top: an empty chat shows as many rows as a long one (styles.ts caps it).
   */
  private fitCompletionAbove(): void {
    const list = this.querySelector<HTMLElement>('.sc-completion');
    const form = this.querySelector('form');
    if (!list || !form) return;
    const room = Math.floor(form.getBoundingClientRect().top) - COMPLETION_TOP_GAP_PX;
    list.style.setProperty('--sc-completion-room', `${Math.max(0, room)}px`);
  }

  private completionItems(): CompletionItem[] {
    const trigger = this.trigger;
    if (!trigger) return [];
    if (trigger.kind === 'command') {
      return matchingCommands(this.view?.header.commands ?? [], trigger.query).map((command) => ({ kind: 'command', command }));
    }
    const answer = this.store?.ui.fileSuggestions;
    if (!answer || answer.requestId !== this.fileRequestId) return [];
    return answer.items.map((file) => ({ kind: 'file', file }));
  }

  private updateTrigger(): void {
    const trigger = completionTrigger(this.draft, this.caret);
    const changed = trigger?.kind !== this.trigger?.kind || trigger?.query !== this.trigger?.query;
    this.trigger = trigger;
    if (!changed) return;
    this.active = 0;
    if (trigger?.kind === 'file') requestHost(this, { type: 'searchFiles', requestId: ++this.fileRequestId, query: trigger.query });
  }

  private choose(index: number): void {
    const item = this.completionItems()[index];
    const trigger = this.trigger;
    if (!item || !trigger) return;
    const insert = item.kind === 'command' ? `/${item.command.name} ` : '';
    const { text, caret } = replaceRange(this.draft, trigger.start, this.caret, insert);
    if (item.kind === 'file') this.addAttachment({ kind: item.file.kind, path: item.file.path });
    this.draft = text;
    this.pendingCaret = caret;
    this.trigger = undefined;
  }

  // ---- events ------------------------------------------------------------------------------------------

  private readonly onInput = (event: Event): void => {
    const input = event.target as HTMLTextAreaElement;
    this.draft = input.value;
    this.caret = input.selectionStart;
    this.notice = '';
    this.updateTrigger();
  };

  private readonly onCaretMove = (event: Event): void => {
    this.caret = (event.target as HTMLTextAreaElement).selectionStart;
    this.updateTrigger();
  };

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.isComposing) return;
    const items = this.trigger ? this.completionItems() : [];
    if (this.trigger) {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.trigger = undefined;
        return;
      }
      if (items.length > 0 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
        event.preventDefault();
        this.active = (this.active + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
        return;
      }
      const chosen = items[Math.min(this.active, items.length - 1)];
      // Enter on a command typed out in full sends it, as if no list were open; Tab still completes.
      const typedOut = chosen?.kind === 'command' && this.trigger.query === chosen.command.name;
      if (chosen && (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey && !typedOut))) {
        event.preventDefault();
        this.choose(Math.min(this.active, items.length - 1));
        return;
      }
    }
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && !event.shiftKey && !event.altKey) {
      const view = this.view;
      const recalled = view ? this.history.step(promptHistory(view.entries), this.draft, event.key === 'ArrowUp' ? -1 : 1) : undefined;
      if (recalled !== undefined) {
        event.preventDefault();
        this.draft = recalled;
        this.pendingCaret = recalled.length;
      }
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.send();
      return;
    }
    // Escape in an empty box stops the running turn, as in VS Code's chat.
    if (event.key === 'Escape' && this.draft === '' && this.attachments.length === 0 && this.view?.header.actions.cancel.allowed) {
      event.preventDefault();
      event.stopPropagation();
      this.cancel();
    }
  };

  private readonly onPaste = (event: ClipboardEvent): void => {
    const files = [...(event.clipboardData?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void this.addMedia(files);
  };

  private readonly onDrop = (event: DragEvent): void => {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void this.addMedia(files);
  };

  /** Media the agent does not accept is refused here, with the reason, and never becomes a chip. */
  private async addMedia(files: readonly File[]): Promise<void> {
    const capabilities = this.view?.header.promptCapabilities;
    if (!capabilities) return;
    for (const file of files) {
      const result = await readMedia(file);
      if (typeof result === 'string') {
        this.notice = result;
        continue;
      }
      const refusal = attachmentRefusal(result.kind, capabilities);
      if (refusal) this.notice = t('Not attached: {0}', refusal);
      else this.addAttachment(result);
    }
  }

  private addAttachment(attachment: PromptAttachment): void {
    if (this.attachments.some((a) => samePath(a, attachment))) return;
    this.attachments = [...this.attachments, attachment];
  }

  private readonly onSubmit = (event: Event): void => {
    event.preventDefault();
    this.send();
  };

  // ---- sending ------------------------------------------------------------------------------------------

  /** Posts the words; the host sends them the way the session's verdict says (`queue`: the user chose to wait). */
  private send(queue = false): void {
    const view = this.view;
    if (!view) return;
    const { header } = view;
    const relay = header.actions.send.route === 'relay';
    const text = this.draft.trim();
    if (header.actions.send.route === 'refuse' || (text === '' && (relay || this.attachments.length === 0))) return;
    const attachments = relay ? [] : this.attachments;
    if (attachments.some((a) => attachmentRefusal(a.kind, header.promptCapabilities))) return;
    const resendOf = this.editing?.ref;
    requestHost(this, { type: 'prompt', sessionId: this.sessionId, text, ...(attachments.length > 0 ? { attachments } : {}), ...(queue ? { queue: true } : {}), ...(resendOf ? { resendOf } : {}) });
    this.draft = '';
    this.editing = undefined;
    this.attachments = relay ? this.attachments : [];
    this.trigger = undefined;
    this.history.reset();
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
