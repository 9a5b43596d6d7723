// A session's Changes: the files it (and its subagents) changed with +/− counts, collapsible, with
// "Open Changes" (VS Code's multi-file diff editor). The list is computed by the host's store (header).
// Collapsed, the list is not rendered at all; open, a long list is virtualized in its own scroller, so a
// session that touched thousands of files costs a summary line, not a row per file.
import '@lit-labs/virtualizer';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { requestHost } from '../events';
import { changeCounts, filesChangedLabel, t } from '../../src/presentation';
import type { ChangesScope, ChatFileChange } from '../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { keepReadable } from '../lib/readableText';
import { SubchatsElement, codicon } from './base';
import './subchats-path';

/** Up to this many files render as a plain list; longer lists are virtualized. */
const PLAIN_LIST_MAX = 100;

export class SubchatsChanges extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  /** `tree`: the session and its descendants; `session`: its own edits only. */
  @property({ attribute: false }) scope: ChangesScope = 'tree';
  private open = false;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId] }));
  }

  protected override render(): TemplateResult | typeof nothing {
    const header = this.store?.mirror.session(this.sessionId)?.header;
    const changes = (this.scope === 'tree' ? header?.treeChanges : header?.changes) ?? [];
    if (changes.length === 0) return nothing;
    const totals = totalCounts(changes);
    // A disclosure button beside "Open Changes", not a <summary> around it: no control inside another.
    return html`<div class="sc-changes">
      <div class="sc-row">
        <button type="button" class="sc-changes-toggle sc-row sc-grow" aria-expanded=${this.open ? 'true' : 'false'} @click=${this.toggle}>
          ${codicon(this.open ? 'chevron-down' : 'chevron-right')} ${codicon('diff-multiple')}
          <span class="sc-grow">${filesChangedLabel(changes.length)}</span>
          <span class="sc-diff-summary"><span class="sc-added">+${totals.added}</span> <span class="sc-removed">−${totals.removed}</span></span>
        </button>
        <button type="button" class="sc-link sc-open-changes" title=${t('Open these changes in the multi-file diff editor')} @click=${this.openChanges}>${t('Open Changes')}</button>
      </div>
      ${this.open ? this.renderList(changes) : nothing}
    </div>`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    keepReadable(this);
  }

  private renderList(changes: readonly ChatFileChange[]): TemplateResult {
    if (changes.length <= PLAIN_LIST_MAX) {
      return html`<ul class="sc-changes-list" aria-label=${t('Changed files')}>
        ${changes.map((change) => html`<li class="sc-row" data-path=${change.path}>${this.renderRow(change)}</li>`)}
      </ul>`;
    }
    return html`<lit-virtualizer
      scroller
      class="sc-changes-list sc-changes-scroller"
      role="list"
      aria-label=${t('Changed files')}
      .items=${changes}
      .keyFunction=${(change: ChatFileChange) => change.path}
      .renderItem=${(change: ChatFileChange) => html`<div role="listitem" class="sc-row sc-change-row" data-path=${change.path}>${this.renderRow(change)}</div>`}
    ></lit-virtualizer>`;
  }

  private renderRow(change: ChatFileChange): TemplateResult {
    return html`${codicon(change.created ? 'diff-added' : 'diff-modified')}
      <subchats-path .path=${change.path} .classes=${'sc-grow sc-ellipsis'}></subchats-path>
      <span class="sc-diff-summary sc-change-counts">${changeCounts(change)}</span>`;
  }

  private readonly toggle = (): void => {
    this.open = !this.open;
    this.requestUpdate();
  };

  private readonly openChanges = (): void => {
    requestHost(this, { type: 'openChanges', sessionId: this.sessionId, scope: this.scope });
  };
}

function totalCounts(changes: readonly ChatFileChange[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    added += change.added;
    removed += change.removed;
  }
  return { added, removed };
}

customElements.define('subchats-changes', SubchatsChanges);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-changes': SubchatsChanges;
  }
}
