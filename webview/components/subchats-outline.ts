// A compact outline of the session tree; choosing a session reveals it in the transcript.
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { revealSession } from '../events';
import { presentState, t } from '../../src/presentation';
import type { ChatStore } from '../state/chatStore';
import { TREE_TOPIC } from '../state/topics';
import { StoreWatch } from '../state/storeWatch';
import { SubchatsElement, presentedIcon } from './base';

export class SubchatsOutline extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [TREE_TOPIC] }));
  }

  protected override render(): TemplateResult | typeof nothing {
    const rootId = this.store?.mirror.rootSessionId;
    if (!this.store || rootId === undefined) return nothing;
    return html`<nav aria-label=${t('Session outline')}>${this.renderLevel([rootId], 1, new Set())}</nav>`;
  }

  private renderLevel(ids: readonly string[], level: number, seen: Set<string>): TemplateResult {
    return html`<ul role=${level === 1 ? 'tree' : 'group'}>
      ${ids.map((id) => {
        const view = this.store?.mirror.session(id);
        if (!view || seen.has(id)) return nothing;
        seen.add(id);
        const { header } = view;
        const presented = presentState(header.state, header, Date.now());
        const children = header.childIds.filter((childId) => this.store?.mirror.session(childId));
        return html`<li role="treeitem" aria-level=${level} aria-expanded=${children.length > 0 ? 'true' : nothing}>
          <button type="button" class="sc-link sc-row" data-outline-session=${id} @click=${() => revealSession(this, id)}>
            ${presentedIcon(presented, presented.label)}
            <span class="sc-ellipsis">${header.label}</span>
          </button>
          ${children.length > 0 ? this.renderLevel(children, level + 1, seen) : nothing}
        </li>`;
      })}
    </ul>`;
  }
}

customElements.define('subchats-outline', SubchatsOutline);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-outline': SubchatsOutline;
  }
}
