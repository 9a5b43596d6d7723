// The prompt box's pieces that only render: the completion list, attachment chips and the queue.
// Agent-provided command names and descriptions are text bindings only (never markup).
import { html, nothing, type TemplateResult } from 'lit';
import { attachmentLabel, attachmentRefusal, clockTime, editingNotice, t } from '../../src/presentation';
import type { AvailableCommand, PromptCapabilities, QueuedMessage } from '../../src/protocol/transcript';
import type { FileSuggestion, PathAttachment, PromptAttachment } from '../../src/protocol/webviewMessages';
import type { EditedMessage } from '../events';
import { codicon } from './base';
import './subchats-path';

export type CompletionItem = { readonly kind: 'command'; readonly command: AvailableCommand } | { readonly kind: 'file'; readonly file: FileSuggestion };

export const COMPLETION_LIST_ID = 'sc-completion';

export function completionOptionId(index: number): string {
  return `sc-completion-${index}`;
}

export function renderCompletion(items: readonly CompletionItem[], active: number, choose: (index: number) => void, emptyText: string): TemplateResult {
  const label = items[0]?.kind === 'file' ? t('Workspace files') : t('Agent commands');
  if (items.length === 0) return html`<div class="sc-completion sc-muted" role="status">${emptyText}</div>`;
  return html`<ul class="sc-completion" id=${COMPLETION_LIST_ID} role="listbox" aria-label=${label}>
    ${items.map(
      (item, index) => html`<li
        id=${completionOptionId(index)}
        role="option"
        class="sc-completion-item"
        aria-selected=${index === active ? 'true' : 'false'}
        @mousedown=${(event: Event) => {
          event.preventDefault(); // keep the focus in the box
          choose(index);
        }}
      >
        ${item.kind === 'command'
          ? html`<span class="sc-completion-name">/${item.command.name}</span>
              ${item.command.hint ? html`<span class="sc-muted">${item.command.hint}</span>` : nothing}
              <span class="sc-muted sc-completion-description">${item.command.description}</span>`
          : html`${codicon(item.file.kind === 'folder' ? 'folder' : 'file')}<span class="sc-completion-name">${item.file.path}</span>
              ${item.file.open ? html`<span class="sc-muted">${t('open')}</span>` : nothing}`}
      </li>`,
    )}
  </ul>`;
}

const CHIP_ICONS: Record<PromptAttachment['kind'], string> = { file: 'file', folder: 'folder', selection: 'selection', image: 'file-media', audio: 'unmute' };

/** Chips for the attachments; one the agent cannot take says why, and keeps its remove button. */
export function renderChips(attachments: readonly PromptAttachment[], capabilities: PromptCapabilities, remove: (index: number) => void): TemplateResult | typeof nothing {
  if (attachments.length === 0) return nothing;
  return html`<ul class="sc-chips" aria-label=${t('Attachments')}>
    ${attachments.map((attachment, index) => {
      const label = attachmentLabel(attachment);
      const refusal = attachmentRefusal(attachment.kind, capabilities);
      return html`<li class="sc-chip ${refusal ? 'sc-chip-refused' : ''}" title=${refusal ?? ('path' in attachment ? nothing : label)}>
        ${codicon(refusal ? 'warning' : CHIP_ICONS[attachment.kind])}${'path' in attachment ? chipPath(attachment) : html`<span>${label}</span>`}
        ${refusal ? html`<span class="sc-visually-hidden">${refusal}</span>` : nothing}
        <button type="button" class="sc-icon-button" aria-label=${t('Remove {0}', label)} @click=${() => remove(index)}>${codicon('close')}</button>
      </li>`;
    })}
  </ul>`;
}

/** A file, folder or selection chip's words: its workspace-relative path (and lines), opening the file on click. */
function chipPath(attachment: PathAttachment): TemplateResult {
  const selection = attachment.kind === 'selection' ? attachment : undefined;
  return html`<subchats-path .path=${attachment.path} workspaceRelative .line=${selection?.startLine} .endLine=${selection?.endLine}></subchats-path>`;
}

/** The session's queue as the host keeps it: each message with its words (or what it carries) and a remove button. */
export function renderQueue(queue: readonly QueuedMessage[], remove: (id: string) => void): TemplateResult | typeof nothing {
  if (queue.length === 0) return nothing;
  return html`<ul class="sc-queue" aria-label=${t('Queued messages')}>
    ${queue.map(
      (item) => html`<li class="sc-queued">
        ${codicon('clock')}<span class="sc-grow">${item.text || (item.attachments === 1 ? t('1 attachment') : t('{0} attachments', item.attachments))}</span>
        <span class="sc-muted">${item.relayFor ? t('for {0}, queued, sent when the turn ends', item.relayFor.label) : t('queued, sent when the turn ends')}</span>
        <button type="button" class="sc-icon-button" aria-label=${t('Remove queued message')} @click=${() => remove(item.id)}>${codicon('close')}</button>
      </li>`,
    )}
  </ul>`;
}

/** Above the box while the words are an edit of an earlier message; ✕ sends them as a plain new message instead. */
export function renderEditing(editing: EditedMessage, drop: () => void): TemplateResult {
  return html`<div class="sc-editing sc-muted" role="status">
    ${codicon('edit')}<span class="sc-grow">${editingNotice(editing.at, clockTime)}</span>
    <button type="button" class="sc-icon-button" aria-label=${t('Send as a new message, not marked as an edit')} title=${t('Send as a new message, not marked as an edit')} @click=${drop}>
      ${codicon('close')}
    </button>
  </div>`;
}
