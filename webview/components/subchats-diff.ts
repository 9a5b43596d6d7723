// One diff from a tool call: "+N −M path", an action to open VS Code's diff editor, and inline hunks on demand.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { requestHost } from '../events';
import { diffLines, diffSummary, hunks, PairMemo, type DiffSummary, type LineDiff } from '../../src/presentation/lineDiff';
import { displayPath, t } from '../../src/presentation';
import { WorkspaceRootsWatch, workspaceRoots } from '../state/workspaceRoots';
import { keepReadable } from '../lib/readableText';
import { SubchatsElement, codicon } from './base';
import './subchats-path';

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
  // Keyed by the texts, not the content object: a tool call update sends a new object with the same texts.
  private readonly summaryMemo = new PairMemo<DiffSummary>();
  private readonly linesMemo = new PairMemo<LineDiff>();

  constructor() {
    super();
    new WorkspaceRootsWatch(this);
  }

  /** The +/- counts: all a collapsed diff needs (linear space). */
  private get summary(): DiffSummary {
    const { oldText, newText } = this.diff;
    return this.summaryMemo.get(oldText, newText, () => diffSummary(oldText, newText));
  }

  /** The full diff, computed only once the diff is expanded. */
  private get lineDiff(): LineDiff {
    const { oldText, newText } = this.diff;
    return this.linesMemo.get(oldText, newText, () => diffLines(oldText, newText));
  }

  protected override render(): TemplateResult {
    const { added, removed, exact } = this.summary;
    const bound = exact ? '' : '≤';
    const isNew = this.diff.oldText === null || this.diff.oldText === undefined;
    return html`<div class="sc-diff">
      <div class="sc-row sc-diff-summary">
        <button
          type="button"
          class="sc-icon-button"
          aria-expanded=${this.open ? 'true' : 'false'}
          aria-label=${this.open ? t('Hide changes in {0}', displayPath(this.diff.path, workspaceRoots()).text) : t('Show changes in {0}', displayPath(this.diff.path, workspaceRoots()).text)}
          @click=${() => (this.open = !this.open)}
        >
          ${codicon(this.open ? 'chevron-down' : 'chevron-right')}
        </button>
        ${codicon(isNew ? 'new-file' : 'diff')}
        <subchats-path .path=${this.diff.path} .classes=${'sc-grow sc-ellipsis'}></subchats-path>
        <span class="sc-added" aria-hidden="true">+${bound}${added}</span>
        <span class="sc-removed" aria-hidden="true">−${bound}${removed}</span>
        <span class="sc-visually-hidden">${exact ? t('{0} lines added, {1} lines removed', added, removed) : t('up to {0} lines added, up to {1} lines removed', added, removed)}</span>
        <button type="button" class="sc-button secondary" @click=${this.openDiff}>${codicon('diff')} ${t('Open diff')}</button>
      </div>
      ${this.open ? this.renderHunks() : nothing}
    </div>`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    keepReadable(this);
  }

  private renderHunks(): TemplateResult {
    const lines = this.lineDiff.lines;
    if (!lines) {
      return html`<div class="sc-diff-too-large sc-muted" role="note">
        ${t('Diff too large to show inline —')}
        <button type="button" class="sc-link" @click=${this.openDiff}>${t('Open diff')}</button>
      </div>`;
    }
    return html`<pre class="sc-diff-lines" aria-label=${t('Changes')}>${hunks(lines).map(
      (hunk) => html`${hunk.skippedBefore > 0
        ? html`<span class="sc-diff-line sc-muted">⋯ ${t('{0} unchanged lines', hunk.skippedBefore)}</span>`
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
