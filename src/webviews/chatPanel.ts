// VS Code glue for chat panels: one WebviewPanel per (connection, session), restored after a reload by a
// serializer, fed by a ChatFeed, and answering the webview's requests after re-checking them against the store.
import * as path from 'node:path';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import * as vscode from 'vscode';
import { isInsideOrEqual } from '../acp/workspacePaths';
import { parseWebviewMessage } from '../protocol/messageGuards';
import {
  PROTOCOL_MISMATCH_REASON,
  WEBVIEW_PROTOCOL_VERSION,
  type ChatPanelState,
  type PathAttachment,
  type AddAttachmentMessage,
  type FeedMessage,
  type HostToWebviewMessage,
  type PromptAttachment,
  type WebviewToHostMessage,
} from '../protocol/webviewMessages';
import { PromptContentError, promptBlocks } from '../host/promptContent';
import { WorkspaceFiles, openDocumentText, workspaceFolderRefs } from './workspaceFiles';
import type { SessionView } from '../store/model';
import type { SessionStoreReader } from '../store/storeAccess';
import type { SessionItem } from '../store/sessionControls';
import { ChatFeed } from './chatFeed';
import { unavailableSnapshot } from './chatProjection';
import { buildChatHtml, createNonce } from './chatHtml';
import { isExternalLink } from '../host/externalLinks';
import { inertUiText, toastError } from '../host/uiText';

export const CHAT_VIEW_TYPE = 'subchats.chat';
const DIFF_SCHEME = 'subchats-diff';

/** The connections the panels show (the extension's SubchatsService fits this shape). */
/** The actions a chat can ask for, as verbs for "cannot … "X"". */
const ACTION_VERBS = { prompt: 'prompt', cancel: 'cancel', openSubagent: 'open the session of' } as const;

export interface ChatSessionsHost {
  get(connectionId: string): { readonly store: SessionStoreReader } | undefined;
  /** Sends the user's message the way the session's verdict says (prompt, steer, queue, or relay for a subagent). */
  send(connectionId: string, sessionId: string, content: string | readonly ContentBlock[], options?: { readonly queue?: boolean }): Promise<{ readonly turn?: Promise<unknown> }>;
  /** Takes a queued message back before it is sent. */
  unqueue(connectionId: string, sessionId: string, queuedId: string): boolean;
  cancel(connectionId: string, sessionId: string): Promise<void>;
  /** ACP v2: cancel one tool call or agent terminal that grants it. */
  cancelItem(connectionId: string, sessionId: string, item: SessionItem): Promise<void>;
  /** Fires when connections come and go (restored panels attach once theirs appears). */
  readonly onDidChangeRuntimes: (listener: () => void) => vscode.Disposable | { dispose(): void };
}

/** Answers pending permission requests; false when the request is no longer pending. */
export interface PermissionAnswers {
  answer(connectionId: string, requestId: string, optionId: string | null): boolean;
}

export interface ChatPanelOptions {
  /** Called when a panel becomes active, e.g. to reveal its session in the tree. */
  readonly reveal?: (connectionId: string, sessionId: string) => void;
  readonly log?: (text: string) => void;
}

/** Tab and message title: the session's label (never its id). */
function sessionTitle(session: SessionView | undefined): string {
  return session?.label ?? 'Subchats';
}

function isSameOrDescendant(store: SessionStoreReader, sessionId: string, ancestorId: string): boolean {
  const seen = new Set<string>();
  for (let id: string | null | undefined = sessionId; id && !seen.has(id); id = store.getSession(id)?.parentId) {
    if (id === ancestorId) return true;
    seen.add(id);
  }
  return false;
}

export class ChatPanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, ChatPanelController>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly diffDocuments = new Map<string, string>();
  private diffCounter = 0;
  /** The chat the user was in last: where "Add Selection/File to Subchats Chat" and the focus-prompt keybinding go. */
  private lastActive: ChatPanelController | undefined;
  readonly files = new WorkspaceFiles();

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly host: ChatSessionsHost,
    readonly permissions: PermissionAnswers,
    readonly options: ChatPanelOptions = {},
  ) {
    this.disposables.push(
      vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          const saved = state as Partial<ChatPanelState> | undefined;
          if (typeof saved?.connectionId !== 'string' || typeof saved.sessionId !== 'string') {
            panel.dispose();
            return;
          }
          this.adopt(panel, saved.connectionId, saved.sessionId);
        },
      }),
      vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, {
        provideTextDocumentContent: (uri) => this.diffDocuments.get(uri.query) ?? '',
      }),
    );
  }

  get distUri(): vscode.Uri {
    return vscode.Uri.joinPath(this.context.extensionUri, 'dist');
  }

  /** Opens the session's chat, or reveals it when a panel already shows it. */
  open(connectionId: string, sessionId: string, beside = true): void {
    const existing = this.panels.get(this.key(connectionId, sessionId));
    const column = beside ? vscode.ViewColumn.Beside : (vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.Active);
    if (existing) {
      existing.panel.reveal(beside ? undefined : column);
      return;
    }
    const panel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'Subchats', column, {
      enableScripts: true,
      localResourceRoots: [this.distUri],
      enableFindWidget: true,
    });
    this.adopt(panel, connectionId, sessionId);
  }

  /** Adds a file or selection chip to the chat used last (and shows it); false when no chat is open. */
  addAttachment(attachment: PathAttachment): boolean {
    const target = this.lastActive ?? [...this.panels.values()].find((c) => c.panel.visible);
    if (!target) return false;
    target.panel.reveal(undefined, false);
    target.postComposer({ type: 'addAttachment', attachment });
    return true;
  }

  markActive(controller: ChatPanelController): void {
    this.lastActive = controller;
  }

  /** Whether a visible panel shows this session, itself or inside its root's tree of chats. */
  isSessionVisible(connectionId: string, sessionId: string): boolean {
    const store = this.host.get(connectionId)?.store;
    if (!store) return false;
    for (const controller of this.panels.values()) {
      if (controller.connectionId !== connectionId || !controller.panel.visible) continue;
      if (isSameOrDescendant(store, sessionId, controller.sessionId)) return true;
    }
    return false;
  }

  /** The session of the chat panel that is active now, if one is. */
  activeChat(): { readonly connectionId: string; readonly sessionId: string } | undefined {
    const active = [...this.panels.values()].find((controller) => controller.panel.active);
    return active ? { connectionId: active.connectionId, sessionId: active.sessionId } : undefined;
  }

  /** Shows the chat panel that was active last and puts the cursor in its prompt box; false without one. */
  focusPrompt(): boolean {
    const controller = this.lastActive && [...this.panels.values()].includes(this.lastActive) ? this.lastActive : [...this.panels.values()].at(-1);
    if (!controller) return false;
    controller.panel.reveal(undefined, false);
    controller.focusPrompt();
    return true;
  }

  /** Keeps a diff's two sides as virtual documents and opens VS Code's diff editor on them. */
  async openDiff(filePath: string, oldText: string, newText: string): Promise<void> {
    const id = ++this.diffCounter;
    const left = `${id}-old`;
    const right = `${id}-new`;
    this.diffDocuments.set(left, oldText);
    this.diffDocuments.set(right, newText);
    const base = vscode.Uri.from({ scheme: DIFF_SCHEME, path: filePath.startsWith('/') ? filePath : `/${filePath}` });
    await vscode.commands.executeCommand(
      'vscode.diff',
      base.with({ query: left }),
      base.with({ query: right }),
      `${path.basename(filePath)} (agent edit)`,
      { preview: true },
    );
  }

  dispose(): void {
    for (const controller of [...this.panels.values()]) controller.panel.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables.length = 0;
  }

  private adopt(panel: vscode.WebviewPanel, connectionId: string, sessionId: string): void {
    const key = this.key(connectionId, sessionId);
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.distUri] };
    const controller = new ChatPanelController(this, panel, connectionId, sessionId);
    this.panels.set(key, controller);
    this.lastActive = controller;
    panel.onDidDispose(() => {
      if (this.panels.get(key) === controller) this.panels.delete(key);
      if (this.lastActive === controller) this.lastActive = undefined;
      controller.dispose();
    });
  }

  private key(connectionId: string, sessionId: string): string {
    return `${connectionId}\0${sessionId}`;
  }
}

/** One panel: its HTML, its feed, and the webview's requests. */
class ChatPanelController implements vscode.Disposable {
  private feed: ChatFeed | undefined;
  private store: SessionStoreReader | undefined;
  /** The webview speaks another protocol version (an old page after an update): it gets nothing until it reloads. */
  private incompatible = false;
  /** A post since the last snapshot resolved false (VS Code dropped it): the next chance sends a snapshot. */
  private undelivered = false;
  private posts = 0;
  private lastSnapshotPost = 0;
  private disposed = false;
  /** Attachments from the editor not yet delivered to a live webview. */
  private pendingAttachments: AddAttachmentMessage[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly manager: ChatPanelManager,
    readonly panel: vscode.WebviewPanel,
    readonly connectionId: string,
    readonly sessionId: string,
  ) {
    const webview = panel.webview;
    webview.html = buildChatHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(manager.distUri, 'webview.js')).toString(),
      codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(manager.distUri, 'codicons', 'codicon.css')).toString(),
      title: 'Subchats',
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseWebviewMessage(raw);
        if (!message) {
          manager.options.log?.(`Chat panel: ignored an invalid message from the webview`);
          return;
        }
        this.handle(message).catch((error: unknown) => {
          void vscode.window.showErrorMessage(`Subchats: ${toastError(error)}`);
        });
      }),
      panel.onDidChangeViewState(({ webviewPanel }) => {
        const before = this.lastSnapshotPost;
        this.feed?.setVisible(webviewPanel.visible);
        if (webviewPanel.visible && this.undelivered && this.lastSnapshotPost === before) this.sendSnapshot();
        if (webviewPanel.active) {
          manager.markActive(this);
          manager.options.reveal?.(connectionId, sessionId);
        }
      }),
      toDisposable(manager.host.onDidChangeRuntimes(() => this.attach())),
    );
    this.attach();
  }

  dispose(): void {
    this.disposed = true;
    this.feed?.dispose();
    this.feed = undefined;
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables.length = 0;
  }

  /** Asks the webview to focus its prompt box (not a feed message: no revision, nothing to resend). */
  focusPrompt(): void {
    if (!this.incompatible) void this.panel.webview.postMessage({ type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION } satisfies HostToWebviewMessage);
  }

  /** Connects to the connection's store once it exists (a restored panel may come before its history). */
  private attach(): void {
    const store = this.manager.host.get(this.connectionId)?.store;
    if (store === this.store) return;
    this.feed?.dispose();
    this.store = store;
    this.feed = store ? new ChatFeed(store, this.sessionId, (message) => this.post(message)) : undefined;
    this.feed?.setVisible(this.panel.visible);
    this.updateTitle();
    this.sendSnapshot();
  }

  private sendSnapshot(): void {
    if (this.incompatible) return;
    if (this.feed) {
      this.feed.sendSnapshot();
      return;
    }
    this.postUnavailable('The agent connection for this chat is not available. Reconnect or reopen the session.');
  }

  /** A snapshot that says why there is nothing to show (sent even to an incompatible webview). */
  private postUnavailable(reason: string): void {
    this.deliver(unavailableSnapshot(this.sessionId, reason));
  }

  private post(message: FeedMessage): void {
    if (!this.incompatible) this.deliver(message);
  }

  private deliver(message: FeedMessage): void {
    const withState =
      message.type === 'snapshot' ? { ...message, panelState: { connectionId: this.connectionId, sessionId: this.sessionId } } : message;
    const seq = ++this.posts;
    if (message.type === 'snapshot') {
      this.lastSnapshotPost = seq;
      this.undelivered = false;
    }
    // postMessage resolves false when VS Code dropped the message (no live webview to take it): the webview
    // then misses this snapshot or delta, so the next `ready` or visibility change sends a snapshot again.
    const dropped = (): void => {
      if (!this.disposed && seq >= this.lastSnapshotPost) this.undelivered = true;
    };
    this.panel.webview.postMessage(withState).then((delivered) => delivered || dropped(), dropped);
    this.updateTitle();
  }

  /** Messages for the prompt box (file suggestions, attachments): outside the revisioned feed. */
  postComposer(message: Extract<HostToWebviewMessage, { readonly type: 'fileSearchResults' | 'addAttachment' }>): void {
    if (this.incompatible) return;
    if (message.type === 'fileSearchResults') {
      void this.panel.webview.postMessage(message);
      return;
    }
    // A hidden chat's page is gone until it is shown again: an attachment waits for a webview that takes it.
    this.pendingAttachments.push(message);
    this.postPendingAttachments();
  }

  private postPendingAttachments(): void {
    for (const message of this.pendingAttachments) {
      this.panel.webview.postMessage(message).then(
        (delivered) => {
          if (delivered) this.pendingAttachments = this.pendingAttachments.filter((m) => m !== message);
        },
        () => undefined,
      );
    }
  }

  /** A webview that posts is alive: the feed posts to it again even if no visibility change said so
   * (a reload fires no onDidChangeViewState). Every ready or resync gets a snapshot, exactly one. */
  private answerReady(): void {
    const before = this.lastSnapshotPost;
    if (this.panel.visible) this.feed?.setVisible(true);
    if (this.lastSnapshotPost === before) this.sendSnapshot();
    this.postPendingAttachments();
  }

  private updateTitle(): void {
    const title = sessionTitle(this.store?.getSession(this.sessionId));
    if (this.panel.title !== title) this.panel.title = title;
  }

  /** Sessions this panel may act on: its session and its descendants. */
  private sessionInPanel(sessionId: string): SessionView | undefined {
    const store = this.store;
    if (!store || !isSameOrDescendant(store, sessionId, this.sessionId)) return undefined;
    return store.getSession(sessionId);
  }

  private async handle(message: WebviewToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== WEBVIEW_PROTOCOL_VERSION) {
          this.manager.options.log?.(
            `Chat panel: the webview speaks protocol ${message.protocolVersion}, this extension ${WEBVIEW_PROTOCOL_VERSION}; asked it to reopen`,
          );
          this.incompatible = true;
          this.postUnavailable(PROTOCOL_MISMATCH_REASON);
          return;
        }
        this.incompatible = false;
        this.answerReady();
        return;
      case 'resync':
        this.answerReady();
        return;
      case 'ack':
        this.feed?.ack(message.rev);
        return;
      case 'prompt':
        return this.sendMessage(message.sessionId, message.text, message.attachments ?? [], message.queue === true);
      case 'unqueue':
        if (this.sessionInPanel(message.sessionId)) this.manager.host.unqueue(this.connectionId, message.sessionId, message.queuedId);
        return;
      case 'searchFiles':
        this.postComposer({ type: 'fileSearchResults', requestId: message.requestId, items: await this.manager.files.search(message.query) });
        return;
      case 'cancel':
        return this.checked(message.sessionId, 'cancel', () => this.manager.host.cancel(this.connectionId, message.sessionId));
      case 'openSubagentSession':
        // The command loads it, opens its chat and reveals its row, as from the tree.
        return this.checked(message.sessionId, 'openSubagent', () =>
          Promise.resolve(vscode.commands.executeCommand('subchats.openSubagentSession', { connectionId: this.connectionId, sessionId: message.sessionId })),
        );
      case 'cancelToolCall':
        return this.cancelItem(message.sessionId, { toolCallId: message.toolCallId }, 'tool call');
      case 'cancelTerminal':
        return this.cancelItem(message.sessionId, { terminalId: message.terminalId }, 'terminal');
      case 'answerPermission': {
        const session = this.sessionInPanel(message.sessionId);
        const entry = session?.entries.find((e) => e.kind === 'permission' && e.requestId === message.requestId);
        const valid =
          entry?.kind === 'permission' &&
          entry.outcome === 'pending' &&
          (message.optionId === null || entry.options.some((o) => o.optionId === message.optionId));
        if (!valid || !this.manager.permissions.answer(this.connectionId, message.requestId, message.optionId)) {
          void vscode.window.showWarningMessage('Subchats: this permission request is no longer pending.');
        }
        return;
      }
      case 'openFile':
        return this.openFile(message.path, message.line);
      case 'openDiff': {
        const item = this.sessionInPanel(message.sessionId)?.toolCalls[message.toolCallId]?.content[message.index];
        if (item?.type !== 'diff' || typeof item.path !== 'string' || typeof item.newText !== 'string') return;
        const oldText = typeof item.oldText === 'string' ? item.oldText : '';
        return this.manager.openDiff(item.path, oldText, item.newText);
      }
      case 'changeSetting': {
        // Roots only (ACP sets modes and options per root session); the command checks the value is advertised.
        const session = this.sessionInPanel(message.sessionId);
        if (!session || session.parentId !== null) return;
        return this.checked(message.sessionId, 'prompt', () =>
          Promise.resolve(vscode.commands.executeCommand('subchats.changeModeOrOption', { connectionId: this.connectionId, sessionId: message.sessionId }, message.change)),
        );
      }
      case 'openChanges':
        if (this.sessionInPanel(message.sessionId)) {
          await vscode.commands.executeCommand('subchats.openChanges', { connectionId: this.connectionId, sessionId: message.sessionId, scope: message.scope });
        }
        return;
      case 'openChat':
        if (this.store?.getSession(message.sessionId)) this.manager.open(this.connectionId, message.sessionId, message.where === 'beside');
        return;
      case 'openLink': {
        if (!isExternalLink(message.url)) {
          void vscode.window.showWarningMessage(`Subchats: not opening "${inertUiText(message.url, 400)}" (only web and mail links are opened).`);
          return;
        }
        const open = 'Open Link';
        const answer = await vscode.window.showWarningMessage(
          'The agent\'s chat wants to open an external link.',
          { modal: true, detail: inertUiText(message.url, 2000) },
          open,
        );
        if (answer === open) await vscode.env.openExternal(vscode.Uri.parse(message.url, true));
        return;
      }
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        return;
    }
  }

  /**
   * The user's message, where the session's verdict says (the controller decides: prompt, steer, queue, relay).
   * Attachments become content blocks the agent opted in to, or nothing is sent; a refusal says why.
   */
  private async sendMessage(sessionId: string, text: string, attachments: readonly PromptAttachment[], queue: boolean): Promise<void> {
    const session = this.sessionInPanel(sessionId);
    const verdict = session && this.store ? this.store.actionsFor(sessionId).send : { route: 'refuse' as const, reason: 'The session is not part of this chat.' };
    if (verdict.route === 'refuse' || !this.store) {
      void vscode.window.showWarningMessage(inertUiText(`Subchats: cannot send to "${session?.label ?? 'this session'}". ${verdict.reason}`, 600));
      return;
    }
    let content: string | ContentBlock[] = text;
    if (attachments.length > 0) {
      try {
        content = await promptBlocks(text, attachments, { capabilities: this.store.promptCapabilities(), folders: workspaceFolderRefs(), openDocumentText });
      } catch (error) {
        if (!(error instanceof PromptContentError)) throw error;
        void vscode.window.showWarningMessage(`Subchats: the message was not sent. ${inertUiText(error.message, 600)}`);
        return;
      }
    }
    const result = await this.manager.host.send(this.connectionId, sessionId, content, { queue });
    await result.turn;
  }

  /** Cancels one item only if the store allows it now; otherwise tells the user why not. */
  private async cancelItem(sessionId: string, item: SessionItem, what: string): Promise<void> {
    const verdict = this.sessionInPanel(sessionId) && this.store ? this.store.itemActionsFor(sessionId, item).cancel : { allowed: false, reason: 'The session is not part of this chat.' };
    if (!verdict.allowed) {
      void vscode.window.showWarningMessage(inertUiText(`Subchats: cannot cancel this ${what}. ${verdict.reason ?? ''}`, 600));
      return;
    }
    await this.manager.host.cancelItem(this.connectionId, sessionId, item);
  }

  /** Runs a session action only if the store allows it now; otherwise tells the user why not. */
  private async checked(sessionId: string, action: keyof typeof ACTION_VERBS, run: () => Promise<unknown>): Promise<void> {
    const session = this.sessionInPanel(sessionId);
    const verdict = session && this.store ? this.store.actionsFor(sessionId)[action] : { allowed: false, reason: 'The session is not part of this chat.' };
    if (!verdict.allowed) {
      void vscode.window.showWarningMessage(inertUiText(`Subchats: cannot ${ACTION_VERBS[action]} "${session?.label ?? 'this session'}". ${verdict.reason ?? ''}`, 600));
      return;
    }
    await run();
  }

  /** Paths come from agent text: network paths are refused, and anything outside the workspace is confirmed. */
  private async openFile(filePath: string, line: number | undefined): Promise<void> {
    if (/^(\\\\|\/\/)/.test(filePath)) {
      void vscode.window.showWarningMessage(`Subchats does not open network paths from agent output: ${inertUiText(filePath, 400)}`);
      return;
    }
    const cwd = this.store?.effectiveCwd(this.sessionId);
    const absolute = path.isAbsolute(filePath) ? path.normalize(filePath) : cwd ? path.join(cwd, filePath) : undefined;
    if (!absolute) return;
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
    if (!folders.some((folder) => isInsideOrEqual(absolute, folder))) {
      const open = await vscode.window.showWarningMessage(`The agent refers to a file outside the workspace:\n${inertUiText(absolute, 1000)}`, { modal: true }, 'Open File');
      if (open !== 'Open File') return;
    }
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(absolute), {
      preview: true,
      viewColumn: vscode.ViewColumn.One,
      ...(line !== undefined ? { selection: new vscode.Range(position, position) } : {}),
    });
  }
}

function toDisposable(value: { dispose(): void }): vscode.Disposable {
  return value instanceof vscode.Disposable ? value : new vscode.Disposable(() => value.dispose());
}
