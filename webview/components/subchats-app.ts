// The chat panel: a column of the header, the root session's transcript (the only part that scrolls) and the
// prompt box. It applies host messages to the store, asks for a resync on a gap, and forwards component
// requests to the host.
import { html, type TemplateResult } from 'lit';
import { t } from '../../src/presentation';
import { property } from 'lit/decorators.js';
import type { ChatPanelState, HostToWebviewMessage, WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { WEBVIEW_PROTOCOL_VERSION, answeredRequestKey } from '../../src/protocol/webviewMessages';
import { HOST_REQUEST_EVENT, RESTORE_DRAFT_EVENT, REVEAL_SESSION_EVENT } from '../events';
import type { HostChannel } from '../host';
import { afterNextPaint } from '../lib/afterPaint';
import { isCancelChord, onMac } from '../lib/cancelChord';
import { applyCodeTokenStyles } from '../lib/codeTokenStyles';
import { cardAnchors } from '../lib/format';
import type { ChatStore } from '../state/chatStore';
import { ROOT_TOPIC, TREE_TOPIC, UI_TOPIC } from '../state/topics';
import { Handshake } from '../state/handshake';
import { StoreWatch } from '../state/storeWatch';
import { setWorkspaceRoots } from '../state/workspaceRoots';
import { SubchatsElement, codicon } from './base';
import type { SubchatsTranscript } from './subchats-transcript';
import './subchats-announcer';
import './subchats-prompt-box';
import './subchats-session-bar';
import './subchats-transcript';

/** Kept by VS Code across reloads: the panel's identity (for the serializer) plus UI state. */
interface PersistedUiState extends Partial<ChatPanelState> {
  readonly expanded?: readonly string[];
  readonly outlineOpen?: boolean;
  readonly detailsOpen?: boolean;
  /** Prompt boxes' drafts, chips and queues by session. */
  readonly composers?: unknown;
}

export class SubchatsApp extends SubchatsElement {
  @property({ attribute: false }) store!: ChatStore;
  @property({ attribute: false }) channel!: HostChannel;
  private resyncRequestedAt: number | undefined;
  private resyncReason = '';
  private ackScheduled = false;
  private panelState: ChatPanelState | undefined;
  /** The host asked for the cursor in the prompt box before the box showed (a new chat's first snapshot was on its way). */
  private promptFocusWanted = false;
  /** Asks for a snapshot (`ready`, or `resync` after a gap) until one arrives. */
  private readonly handshake = new Handshake(
    () => this.askForSnapshot(),
    () => this.requestUpdate(),
  );

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [ROOT_TOPIC, TREE_TOPIC, UI_TOPIC] }));
    this.addEventListener(HOST_REQUEST_EVENT, (event) => {
      event.stopPropagation();
      this.post(event.detail, (event.target as Element | null)?.localName);
      // A prompt sent in the main chat: its answer comes at the end, so the chat follows the end again.
      if (event.detail.type === 'prompt' && event.detail.sessionId === this.store.mirror.rootSessionId) this.rootTranscript()?.followEnd();
    });
    this.addEventListener(REVEAL_SESSION_EVENT, (event) => {
      event.stopPropagation();
      void this.reveal(event.detail.sessionId);
    });
    this.addEventListener(RESTORE_DRAFT_EVENT, (event) => {
      event.stopPropagation();
      const sessionId = this.store.mirror.rootSessionId;
      if (sessionId === undefined) return;
      this.store.ui.restoreDraft(sessionId, event.detail);
      this.promptTextarea()?.focus();
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const saved = (this.channel.getState() ?? {}) as PersistedUiState;
    for (const id of saved.expanded ?? []) this.store.ui.setExpanded(id, true);
    this.store.ui.setOpen('outline', saved.outlineOpen ?? false);
    this.store.ui.setOpen('details', saved.detailsOpen ?? false);
    this.store.ui.restoreComposers(saved.composers);
    if (saved.connectionId !== undefined && saved.sessionId !== undefined) {
      this.panelState = { connectionId: saved.connectionId, sessionId: saved.sessionId };
    }
    this.channel.onMessage((message) => this.receive(message));
    this.handshake.start();
    // Capture on the window: the chord counts wherever the focus is in the chat, and it stops here, before
    // VS Code's own keydown forwarding (a desktop VS Code, which forwards it, would cancel a second time).
    window.addEventListener('keydown', this.onCancelChord, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.handshake.dispose();
    window.removeEventListener('keydown', this.onCancelChord, true);
  }

  /**
   * Ctrl+Alt+X (Ctrl+Cmd+X on macOS) cancels this chat's session, as the Cancel button does (the host checks
   * and says why not). Held down, its repeats stay the chord's but ask no more.
   */
  private readonly onCancelChord = (event: KeyboardEvent): void => {
    const rootId = this.store.mirror.rootSessionId;
    if (rootId === undefined || !isCancelChord(event, onMac())) return;
    event.preventDefault();
    event.stopPropagation();
    // The answer shows where the chat's own Cancel button is.
    if (!event.repeat) this.post({ type: 'cancel', sessionId: rootId }, 'subchats-session-bar');
  };

  /** Posts a request; one the host answers is noted with the place it was asked from (a tag name). */
  private post(message: WebviewToHostMessage, place: string | undefined): void {
    const key = answeredRequestKey(message);
    if (key) this.store.ui.asked(key, place);
    this.channel.post(message);
  }

  private askForSnapshot(): void {
    if (this.store.mirror.rev === undefined) this.channel.post({ type: 'ready', protocolVersion: WEBVIEW_PROTOCOL_VERSION });
    else this.channel.post({ type: 'resync', knownRev: this.store.mirror.rev, reason: this.resyncReason });
  }

  private receive(message: HostToWebviewMessage): void {
    if (message.type === 'focusPrompt') {
      this.promptFocusWanted = true;
      this.focusPromptOnceShown();
      return;
    }
    if (message.type === 'snapshot') {
      this.resyncRequestedAt = undefined;
      this.handshake.answered();
      if (message.panelState) this.panelState = message.panelState;
      if (message.workspace) setWorkspaceRoots(message.workspace);
      this.store.mirror.applySnapshot(message);
      this.scheduleAck();
      return;
    }
    if (message.type === 'tokenColors') {
      applyCodeTokenStyles(document, message.tokens);
      return;
    }
    if (message.type === 'requestOutcome') {
      this.store.ui.applyOutcome(message);
      return;
    }
    if (message.type === 'earlierText') {
      if (message.problem !== undefined) this.store.ui.setEarlierProblem(message.entryId, message.problem);
      else this.store.mirror.prependEarlier(message);
      return;
    }
    if (message.type === 'fileSearchResults' || message.type === 'addAttachment') {
      this.store.ui.applyComposer(message);
      return;
    }
    const result = this.store.mirror.applyDelta(message);
    if (result === 'applied') this.scheduleAck();
    // One resync request per gap: further deltas are dropped until the snapshot arrives.
    if ((result === 'gap' || result === 'mismatch') && this.resyncRequestedAt === undefined) {
      this.resyncRequestedAt = this.store.mirror.rev ?? -1;
      this.resyncReason = result;
      this.handshake.start();
    }
  }

  /**
   * Flow control: tells the host the newest revision on screen, at most once per frame and after that frame is
   * painted. The host holds further deltas until then.
   */
  private scheduleAck(): void {
    if (this.ackScheduled) return;
    this.ackScheduled = true;
    afterNextPaint(() => {
      this.ackScheduled = false;
      const rev = this.store.mirror.rev;
      if (rev !== undefined && !this.store.mirror.incompatible) this.channel.post({ type: 'ack', rev });
    });
  }

  protected override render(): TemplateResult {
    const { store } = this;
    const rootId = store.mirror.rootSessionId;
    if (store.mirror.rev === undefined || rootId === undefined) {
      if (this.handshake.stalled) {
        return html`<p class="sc-muted" role="status">
          ${codicon('loading codicon-modifier-spin')} ${t('Still waiting for Subchats…')}
          <button type="button" class="sc-link" @click=${this.retry}>${codicon('refresh')} ${t('Retry')}</button>
        </p>`;
      }
      return html`<p class="sc-muted" role="status">${codicon('loading codicon-modifier-spin')} ${t('Loading chat…')}</p>`;
    }
    if (!store.mirror.session(rootId)) {
      return html`<p class="sc-muted" role="status">${codicon('warning')} ${store.mirror.unavailableReason ?? t('This session is not available.')}</p>`;
    }
    const root = store.mirror.session(rootId);
    // The chat's title as the page's heading, for screen readers' heading navigation (the breadcrumb shows it).
    return html`<header class="sc-header">
        <h1 class="sc-visually-hidden">${root?.header.label}</h1>
        <subchats-session-bar .store=${store} .sessionId=${rootId}></subchats-session-bar>
      </header>
      <main>
        <subchats-transcript class="sc-root-transcript" follow .store=${store} .sessionId=${rootId}></subchats-transcript>
      </main>
      <subchats-prompt-box .store=${store} .sessionId=${rootId}></subchats-prompt-box>
      <subchats-announcer .store=${store} .sessionId=${rootId}></subchats-announcer>`;
  }

  protected override updated(): void {
    this.persist();
    this.focusPromptOnceShown();
  }

  private rootTranscript(): SubchatsTranscript | null {
    return this.querySelector<SubchatsTranscript>('subchats-transcript.sc-root-transcript');
  }

  private promptTextarea(): HTMLTextAreaElement | null {
    return this.querySelector('subchats-prompt-box textarea');
  }

  /** Answers a wanted focus once the prompt box has rendered; until then each update of the chat tries again. */
  private focusPromptOnceShown(): void {
    const box = this.querySelector<SubchatsElement>('subchats-prompt-box');
    if (!this.promptFocusWanted || !box) return;
    this.promptFocusWanted = false;
    void box.updateComplete.then(() => this.promptTextarea()?.focus());
  }

  private readonly retry = (): void => {
    this.handshake.start();
  };

  private persist(): void {
    const { ui } = this.store;
    const state: PersistedUiState = { ...this.panelState, expanded: ui.expandedSessions(), outlineOpen: ui.isOpen('outline'), detailsOpen: ui.isOpen('details'), composers: ui.composerStates() };
    this.channel.setState(state);
  }

  /** Expands the cards on the way to a session and scrolls its card into view, through virtualized lists. */
  private async reveal(sessionId: string): Promise<void> {
    const rootId = this.store.mirror.rootSessionId;
    const chain: string[] = [];
    for (let id: string | null | undefined = sessionId; id !== rootId; id = this.store.mirror.session(id)?.header.parentId) {
      if (id === null || id === undefined || chain.includes(id)) {
        this.channel.post({ type: 'openChat', sessionId, where: 'tab' });
        return;
      }
      chain.unshift(id);
    }
    for (const id of chain) this.store.ui.setExpanded(id, true);
    this.persist();
    await this.updateComplete;
    let transcript = this.rootTranscript();
    let parentId = rootId;
    let card: Element | null = null;
    for (const id of chain) {
      const parent = parentId === undefined ? undefined : this.store.mirror.session(parentId);
      if (!transcript || !parent) break;
      const anchor = cardAnchors(parent).get(id) ?? `orphan:${id}`;
      const item = await transcript.scrollToEntry(anchor);
      card = item ? await nextFrames(() => item.querySelector(`subchats-child-card[data-session-id="${CSS.escape(id)}"]`)) : null;
      if (!card) break;
      transcript = await nextFrames(() => card?.querySelector<SubchatsTranscript>('subchats-transcript') ?? null);
      parentId = id;
    }
    if (!card) return;
    card.scrollIntoView({ block: 'start' });
    card.querySelector<HTMLElement>('.sc-expand')?.focus({ preventScroll: true });
  }
}

/** Waits up to ~30 animation frames for an element to appear (rendering is asynchronous). */
async function nextFrames<T>(find: () => T | null): Promise<T | null> {
  for (let frame = 0; frame < 30; frame++) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return null;
}

customElements.define('subchats-app', SubchatsApp);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-app': SubchatsApp;
  }
}
