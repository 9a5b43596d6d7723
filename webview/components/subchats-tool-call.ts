// A tool call: kind icon, title, status, file locations, diffs, terminal output, content, raw input/output.
// A subagent tool call also hosts the child's card where it was spawned.
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { grantsCancel, presentToolStatus, stoppedWithTurn, t, toolKindIcon, toolProgress, visibleBidi, workspacePathsInText } from '../../src/presentation';
import type { ToolCallContent, ToolCallRecord } from '../../src/protocol/transcript';
import { requestHost, revealSession } from '../events';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { WorkspaceRootsWatch, workspaceRoots } from '../state/workspaceRoots';
import { OUTCOME_TOPIC } from '../state/topics';
import { refusalNote } from './refusal';
import { renderAttachment } from './attachments';
import { STOP_ICON, SubchatsElement, codicon, presentedIcon } from './base';
import { validDiff, type DiffContent } from './subchats-diff';
import './subchats-diff';
import { validPatchDiff, type PatchDiff } from './subchats-patch';
import './subchats-patch';
import './subchats-path';
import './subchats-markdown';
import { growthOf } from '../state/textGrowth';
import './subchats-terminal';

type RawPart = 'input' | 'output';

export class SubchatsToolCall extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  @property({ attribute: false }) toolCall: ToolCallRecord | undefined;
  /**
   * The session's items may be cancelled alone now (its header's `toolCallCancel`): passed in, not read here,
   * so a change of it alone (a disconnect) re-renders the card.
   */
  @property({ attribute: false }) itemCancelAllowed = false;
  /** True when this call is where its child session's card is shown. */
  @property({ type: Boolean }) showsChildCard = false;
  @state() private open = false;
  @state() private raw: RawPart | undefined;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [OUTCOME_TOPIC] }));
    new WorkspaceRootsWatch(this);
  }

  protected override render(): TemplateResult {
    const call = this.toolCall;
    if (!call) return html`<div class="sc-entry sc-muted">${codicon('tools')} ${t('Unknown tool call')}</div>`;
    // Paths in the title read workspace-relative; the tooltip keeps the title as the agent wrote it.
    const fullTitle = visibleBidi(call.title || call.name || t('Tool call'));
    const title = workspacePathsInText(fullTitle, workspaceRoots());
    const status = presentToolStatus(call);
    const progress = toolProgress(call);
    const stopped = stoppedWithTurn(call);
    const diffs = call.content.flatMap((item, index) => {
      const diff = item.type === 'diff' ? validDiff(item) : undefined;
      return diff ? [{ diff, index }] : [];
    });
    // ACP v2 diffs: changed paths and an optional git patch instead of the texts.
    const patches = call.content.flatMap((item) => {
      const patch = item.type === 'diff' && !validDiff(item) ? validPatchDiff(item) : undefined;
      return patch ? [patch] : [];
    });
    const hasBody = call.content.some((item) => item.type !== 'diff') || call.rawInput !== undefined || call.rawOutput !== undefined;
    return html`<div class="sc-entry">
      <div class="sc-card" data-tool-call-id=${call.toolCallId}>
        <div class="sc-card-head sc-row">
          <button
            type="button"
            class="sc-icon-button"
            ?disabled=${!hasBody}
            aria-expanded=${this.open ? 'true' : 'false'}
            aria-label=${this.open ? t('Collapse tool call {0}', title) : t('Expand tool call {0}', title)}
            @click=${() => (this.open = !this.open)}
          >
            ${codicon(hasBody ? (this.open ? 'chevron-down' : 'chevron-right') : 'blank')}
          </button>
          ${codicon(toolKindIcon(call.kind), call.kind)}
          <span class="sc-grow sc-ellipsis" title=${fullTitle}>${title}</span>
          ${progress ? html`<span class="sc-muted sc-ellipsis sc-progress">${progress}</span>` : nothing}
          <span
            class="sc-status sc-state"
            data-status=${call.status}
            data-stopped=${stopped ? stopped.stopReason : nothing}
            title=${stopped ? t('The turn ended while this call was open; the agent did not report its result.') : nothing}
            >${presentedIcon(status)} ${status.label}</span
          >
          ${this.renderCancel(call, title)}
        </div>
        ${refusalNote(this.store, { request: 'cancelToolCall', sessionId: this.sessionId, target: call.toolCallId }, this.localName)}
        ${this.renderLocations(call)}
        ${diffs.length > 0 || patches.length > 0
          ? html`<div class="sc-card-body">
              ${diffs.map(({ diff, index }) => this.renderDiff(call, diff, index))}
              ${patches.map((patch: PatchDiff) => html`<subchats-patch .diff=${patch}></subchats-patch>`)}
            </div>`
          : nothing}
        ${this.open ? html`<div class="sc-card-body">${this.renderBody(call)}</div>` : nothing}
      </div>
      ${this.showsChildCard && call.childSessionId
        ? html`<subchats-child-card .store=${this.store} .sessionId=${call.childSessionId}></subchats-child-card>`
        : nothing}
    </div>`;
  }

  /**
   * ACP v2: a call that grants `capabilities.cancel` can be stopped alone (the host checks again), while the
   * session allows it (`itemCancelAllowed`). The grant is the call's own, so it goes with the call's updates.
   */
  private renderCancel(call: ToolCallRecord, title: string): TemplateResult | typeof nothing {
    if (!this.itemCancelAllowed || !grantsCancel(call)) return nothing;
    return html`<button
      type="button"
      class="sc-icon-button"
      title=${t('Cancel this tool call')}
      aria-label=${t('Cancel tool call {0}', title)}
      @click=${() => requestHost(this, { type: 'cancelToolCall', sessionId: this.sessionId, toolCallId: call.toolCallId })}
    >
      ${codicon(STOP_ICON)}
    </button>`;
  }

  private renderLocations(call: ToolCallRecord): TemplateResult | typeof nothing {
    if (call.locations.length === 0) return nothing;
    return html`<div class="sc-locations">
      ${call.locations.map(
        (location) =>
          html`<subchats-path .path=${location.path} .line=${typeof location.line === 'number' ? location.line : undefined} .icon=${'go-to-file'}></subchats-path>`,
      )}
    </div>`;
  }

  private renderDiff(call: ToolCallRecord, diff: DiffContent, index: number): TemplateResult {
    return html`<subchats-diff
      .diff=${diff}
      .sessionId=${this.sessionId}
      .toolCallId=${call.toolCallId}
      .index=${index}
    ></subchats-diff>`;
  }

  private renderBody(call: ToolCallRecord): TemplateResult {
    return html`${call.content.map((item) => this.renderContent(item))}
      <div class="sc-row">
        ${call.rawInput !== undefined ? this.renderRawToggle('input') : nothing}
        ${call.rawOutput !== undefined ? this.renderRawToggle('output') : nothing}
      </div>
      ${this.raw ? html`<pre aria-label=${this.raw === 'input' ? t('Raw input') : t('Raw output')}>${stringify(this.raw === 'input' ? call.rawInput : call.rawOutput)}</pre>` : nothing}`;
  }

  private renderRawToggle(part: RawPart): TemplateResult {
    const shown = this.raw === part;
    return html`<button
      type="button"
      class="sc-link"
      aria-pressed=${shown ? 'true' : 'false'}
      @click=${() => (this.raw = shown ? undefined : part)}
    >
      ${codicon('json')} ${rawToggleLabel(shown, part)}
    </button>`;
  }

  private renderContent(item: ToolCallContent): TemplateResult | typeof nothing {
    switch (item.type) {
      case 'diff':
        return nothing;
      case 'content': {
        const block = (item as { content?: { type?: unknown; text?: unknown } }).content;
        if (block?.type === 'text' && typeof block.text === 'string') {
          return html`<subchats-markdown .growth=${growthOf(block)} .text=${block.text}></subchats-markdown>`;
        }
        return block && typeof block.type === 'string' ? renderAttachment(block as { type: string }) : nothing;
      }
      case 'terminal':
        return html`<subchats-terminal
          .store=${this.store}
          .sessionId=${this.sessionId}
          .terminalId=${String(item.terminalId)}
          .itemCancelAllowed=${this.itemCancelAllowed}
        ></subchats-terminal>`;
      case 'session': {
        const sessionId = String(item.sessionId);
        return html`<div>
          ${codicon('hubot')}
          <button type="button" class="sc-link" @click=${() => revealSession(this, sessionId)}>
            ${this.nameOf(sessionId)}
          </button>
        </div>`;
      }
      default:
        return html`<div class="sc-muted">${t('{0} content', item.type)}</div>`;
    }
  }

  private nameOf(sessionId: string): string {
    const header = this.store?.mirror.session(sessionId)?.header;
    return header?.label ?? t('A session outside this chat');
  }
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The raw input/output toggle's words: whole phrases, so a translation can order them its own way. */
function rawToggleLabel(shown: boolean, part: RawPart): string {
  if (part === 'input') return shown ? t('Hide raw input') : t('Show raw input');
  return shown ? t('Hide raw output') : t('Show raw output');
}

customElements.define('subchats-tool-call', SubchatsToolCall);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-tool-call': SubchatsToolCall;
  }
}
