// A polite live region for the panel's session: when a turn it saw running ends, screen readers hear the answer
// (src/presentation/turnEnd.ts says what), once, and never the streamed chunks on the way. Visually hidden, and
// in a closed shadow root: screen readers read it, while the page's own text (Find in the chat, text queries)
// holds each answer once.
import { LitElement, html, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { isWorking, turnEndAnnouncement, type PresentableState } from '../../src/presentation';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';

export class SubchatsAnnouncer extends LitElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  /** The state at the last update, to tell a turn that ends from a chat opened after it ended. */
  private seen: { readonly sessionId: string; readonly state: PresentableState } | undefined;
  private said = '';

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId] }));
  }

  protected override willUpdate(_changed: PropertyValues<this>): void {
    const view = this.store?.mirror.session(this.sessionId);
    if (!view) return;
    const state = view.header.state;
    const before = this.seen?.sessionId === this.sessionId ? this.seen.state : undefined;
    if (before?.state !== state.state || before.stopReason !== state.stopReason) {
      const announcement = turnEndAnnouncement(before, state, view.entries);
      // A new turn empties the region, so the next answer is news even when its words are the same.
      if (announcement !== undefined) this.said = announcement;
      else if (isWorking(state)) this.said = '';
    }
    this.seen = { sessionId: this.sessionId, state };
  }

  private root: ShadowRoot | undefined;

  /** The live region (for tests: the shadow root is closed). */
  get region(): HTMLElement | null {
    return this.root?.querySelector<HTMLElement>('[role="status"]') ?? null;
  }

  protected override createRenderRoot(): ShadowRoot {
    this.classList.add('sc-visually-hidden');
    this.root = this.attachShadow({ mode: 'closed' });
    return this.root;
  }

  protected override render(): TemplateResult {
    return html`<div role="status" aria-live="polite" aria-atomic="true">${this.said}</div>`;
  }
}

customElements.define('subchats-announcer', SubchatsAnnouncer);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-announcer': SubchatsAnnouncer;
  }
}
