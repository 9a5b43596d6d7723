// One diff from a tool call: "+N −M path", an action to open VS Code's diff editor, and inline hunks on demand.
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { requestHost } from '../events';
import { diffLines, hunks, type LineDiff } from '../lib/lineDiff';
import { visibleBidi } from '../../src/presentation';
import { SubchatsElement, codicon } from './base';

export interface DiffContent {
  readonly path: string;
  readonly oldText?: string | null;
  readonly newText: string;
}

/** A diff as the agent sent it, checked: without a string path and newText there is nothing to show (a
 *  non-string oldText shows as a new file), so one malformed diff never breaks the tool call. */
export function validDiff(item: unknown): DiffContent | undefined {
  const raw = item as { path?: unknown; oldText?: unknown; newText?: unknown } | null;
  if (!raw || typeof raw.path !== 'string' || typeof raw.newText !== 'string') return undefined;
  // The same object when it is valid as it is: the diff element caches its line diff by identity.
  if (raw.oldText === undefined || raw.oldText === null || typeof raw.oldText === 'string') return raw as DiffContent;
  return { path: raw.path, newText: raw.newText, oldText: null };
}

export class SubchatsDiff extends SubchatsElement {
  @property({ attribute: false }) diff!: DiffContent;
  @property({ attribute: false }) sessionId = '';
  @property({ attribute: false }) toolCallId = '';
  @property({ type: Number }) index = 0;
  @state() private open = false;
  private computed: { diff: DiffContent; result: LineDiff } | undefined;

  private get lineDiff(): LineDiff {
    if (this.computed?.diff !== this.diff) {
      this.computed = { diff: this.diff, result: diffLines(this.diff.oldText, this.diff.newText) };
    }
    return this.computed.result;
  }

  protected override render(): TemplateResult {
    const { added, removed } = this.lineDiff;
    const isNew = this.diff.oldText === null || this.diff.oldText === undefined;
    return html`<div class="sc-diff">
      <div class="sc-row sc-diff-summary">
        <button
          type="button"
          class="sc-icon-button"
          aria-expanded=${this.open ? 'true' : 'false'}
          aria-label=${`${this.open ? 'Hide' : 'Show'} changes in ${this.diff.path}`}
          @click=${() => (this.open = !this.open)}
        >
          ${codicon(this.open ? 'chevron-down' : 'chevron-right')}
        </button>
        ${codicon(isNew ? 'new-file' : 'diff')}
        <span class="sc-grow sc-ellipsis" title=${visibleBidi(this.diff.path)}>${visibleBidi(this.diff.path)}</span>
        <span class="sc-added" aria-label=${`${added} lines added`}>+${added}</span>
        <span class="sc-removed" aria-label=${`${removed} lines removed`}>−${removed}</span>
        <button type="button" class="sc-button secondary" @click=${this.openDiff}>${codicon('diff')} Open diff</button>
      </div>
      ${this.open ? this.renderHunks() : nothing}
    </div>`;
  }

  private renderHunks(): TemplateResult {
    return html`<pre class="sc-diff-lines" aria-label="Changes">${hunks(this.lineDiff.lines).map(
      (hunk) => html`${hunk.skippedBefore > 0
        ? html`<span class="sc-diff-line sc-muted">⋯ ${hunk.skippedBefore} unchanged lines</span>`
        : nothing}${hunk.lines.map(
        (line) => html`<span class="sc-diff-line" data-op=${line.op}>${line.op} ${line.text}</span>`,
      )}`,
    )}</pre>`;
  }

  private openDiff(): void {
    requestHost(this, { type: 'openDiff', sessionId: this.sessionId, toolCallId: this.toolCallId, index: this.index });
  }
}

customElements.define('subchats-diff', SubchatsDiff);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-diff': SubchatsDiff;
  }
}
