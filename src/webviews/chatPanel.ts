// VS Code glue for chat panels: one WebviewPanel per (connection, session), restored after a reload by a
// serializer, fed by a ChatFeed, and answering the webview's requests through the handler table (chatRequests).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseWebviewMessage } from '../protocol/messageGuards';
import type { AddAttachmentMessage, ChatPanelState, CodeTokenStyles, PathAttachment } from '../protocol/webviewMessages';
import { WorkspaceFiles, chatWorkspace } from './workspaceFiles';
import type { SessionView } from '../store/model';
import type { SessionStoreReader } from '../store/storeAccess';
import { ChatFeed } from './chatFeed';
import { buildChatHtml, buildChatLoadFailedHtml, createNonce } from './chatHtml';
import { PAGE_RELOAD_DELAYS_MS, PageReloads, StalledPages } from './pageReloads';
import { handleRequest, type ChatSessionsHost, type ChatWorkbench, type PermissionAnswers, type RequestContext } from './chatRequests';
import { FeedSync } from './feedSync';
import { isSameOrDescendant } from './chatProjection';
import { vscodeWorkbench } from './chatWorkbench';
import { toastError } from '../host/uiText';
import { EditorTokenColors } from '../host/editorTokenColors';

const CHAT_VIEW_TYPE = 'subchats.chat';
const DIFF_SCHEME = 'subchats-diff';

export interface ChatPanelOptions {
  /** Called when a panel becomes active, e.g. to reveal its session in the tree. */
  readonly reveal?: (connectionId: string, sessionId: string) => void;
  readonly log?: (text: string) => void;
}

/** Tab and message title: the session's label (never its id). */
function sessionTitle(session: SessionView | undefined): string {
  return session?.label ?? 'Subchats';
}

export class ChatPanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, ChatPanelController>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly diffDocuments = new Map<string, string>();
  private diffCounter = 0;
  /** The chat the user was in last: where "Add Selection/File to Subchats Chat" and the focus-prompt keybinding go. */
  private lastActive: ChatPanelController | undefined;
  /** The text editor the user was in last: where a code block's Insert at Cursor goes. */
  lastTextEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  readonly files = new WorkspaceFiles();
  /** The editor theme's code colours, sent to every chat. */
  readonly tokenColors: EditorTokenColors;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly host: ChatSessionsHost,
    readonly permissions: PermissionAnswers,
    readonly options: ChatPanelOptions = {},
  ) {
    this.tokenColors = new EditorTokenColors(options.log);
    this.disposables.push(
      this.tokenColors,
      this.tokenColors.onDidChange((tokens) => {
        for (const controller of this.panels.values()) controller.sendTokenColors(tokens);
      }),
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
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.lastTextEditor = editor;
      }),
    );
  }

  get distUri(): vscode.Uri {
    return vscode.Uri.joinPath(this.context.extensionUri, 'dist');
  }

  /**
   * Opens the session's chat, or reveals it when a panel already shows it; `focusPrompt` then puts the
   * cursor in its prompt box (a new page takes the cursor once its prompt box shows).
   */
  open(connectionId: string, sessionId: string, beside = true, { focusPrompt = false } = {}): void {
    const existing = this.panels.get(this.key(connectionId, sessionId));
    existing?.panel.reveal(beside ? undefined : this.column(beside));
    const controller = existing ?? this.create(connectionId, sessionId, beside);
    if (focusPrompt) controller.focusPrompt();
  }

  /** Adds a file or selection chip to the chat used last (and shows it); false when no chat is open. */
  addAttachment(attachment: PathAttachment): boolean {
    const target = this.lastActive ?? [...this.panels.values()].find((c) => c.panel.visible);
    if (!target) return false;
    target.panel.reveal(undefined, false);
    target.addAttachment({ type: 'addAttachment', attachment });
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
  async openDiff(filePath: string, oldText: string, newText: string, title: string): Promise<void> {
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
      title,
      { preview: true },
    );
  }

  dispose(): void {
    for (const controller of [...this.panels.values()]) controller.panel.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables.length = 0;
  }

  private create(connectionId: string, sessionId: string, beside: boolean): ChatPanelController {
    return this.adopt(this.newPanel(vscode.l10n.t('Subchats'), this.column(beside)), connectionId, sessionId);
  }

  private newPanel(title: string, show: vscode.ViewColumn | { readonly viewColumn: vscode.ViewColumn; readonly preserveFocus: boolean }): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, title, show, {
      enableScripts: true,
      localResourceRoots: [this.distUri],
      enableFindWidget: true,
    });
  }

  /**
   * Gives a chat whose page never started a new panel where its panel is (see StalledPages): the new one opens
   * beside the old one in its group, and takes the focus only if the old one had it.
   */
  replace(controller: ChatPanelController, replacements: number): void {
    const { panel } = controller;
    const fresh = this.newPanel(panel.title, { viewColumn: panel.viewColumn ?? vscode.ViewColumn.Active, preserveFocus: !panel.active });
    const replacement = this.adopt(fresh, controller.connectionId, controller.sessionId, replacements);
    if (controller.wantsFocus) replacement.focusPrompt();
    panel.dispose();
  }

  private column(beside: boolean): vscode.ViewColumn {
    return beside ? vscode.ViewColumn.Beside : (vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.Active);
  }

  private adopt(panel: vscode.WebviewPanel, connectionId: string, sessionId: string, replacements = 0): ChatPanelController {
    const key = this.key(connectionId, sessionId);
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.distUri] };
    const controller = new ChatPanelController(this, panel, connectionId, sessionId, replacements);
    this.panels.set(key, controller);
    this.lastActive = controller;
    panel.onDidDispose(() => {
      if (this.panels.get(key) === controller) this.panels.delete(key);
      if (this.lastActive === controller) this.lastActive = undefined;
      controller.dispose();
    });
    return controller;
  }

  private key(connectionId: string, sessionId: string): string {
    return `${connectionId}\0${sessionId}`;
  }
}

/** One panel: its HTML, its pipe (FeedSync) and feed, and the webview's requests (chatRequests). */
class ChatPanelController implements vscode.Disposable {
  private store: SessionStoreReader | undefined;
  private readonly sync: FeedSync;
  private readonly reloads: PageReloads;
  private readonly stalls: StalledPages;
  private readonly workbench: ChatWorkbench;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly manager: ChatPanelManager,
    readonly panel: vscode.WebviewPanel,
    readonly connectionId: string,
    readonly sessionId: string,
    replacements: number,
  ) {
    const webview = panel.webview;
    const log = manager.options.log;
    this.stalls = new StalledPages({ replace: (count) => manager.replace(this, count), replacements, ...(log ? { log } : {}) });
    this.loadPage();
    this.reloads = new PageReloads({ reload: () => this.loadPage(), giveUp: (asset) => this.showLoadFailure(asset), ...(log ? { log } : {}) });
    this.sync = new FeedSync({
      panelState: { connectionId, sessionId },
      workspace: chatWorkspace,
      postMessage: (message) => webview.postMessage(message),
      isVisible: () => panel.visible,
      onFeedPost: () => this.updateTitle(),
      onPageLoadFailed: (asset) => {
        // Its load guard ran: the webview host works, and PageReloads takes it from here.
        this.stalls.ran();
        this.reloads.failed(asset);
      },
      onPageLive: () => this.stalls.ran(),
      ...(log ? { log } : {}),
    });
    this.workbench = vscodeWorkbench({
      files: manager.files,
      openDiff: (filePath, oldText, newText, title) => manager.openDiff(filePath, oldText, newText, title),
      lastTextEditor: () => manager.lastTextEditor,
      openChat: (id, beside) => manager.open(connectionId, id, beside),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseWebviewMessage(raw);
        if (!message) {
          manager.options.log?.(`Chat panel: ignored an invalid message from the webview`);
          return;
        }
        handleRequest(message, this.requestContext()).catch((error: unknown) => {
          void vscode.window.showErrorMessage(vscode.l10n.t('Subchats: {0}', toastError(error)));
        });
      }),
      panel.onDidChangeViewState(({ webviewPanel }) => {
        this.sync.visibilityChanged(webviewPanel.visible);
        if (!webviewPanel.visible) this.stalls.settled();
        else if (!this.sync.isPageLive) this.stalls.expectReady();
        if (webviewPanel.active) {
          manager.markActive(this);
          manager.options.reveal?.(connectionId, sessionId);
        }
      }),
      toDisposable(manager.host.onDidChangeRuntimes(() => this.attach())),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.sync.workspaceChanged()),
    );
    this.attach();
    void manager.tokenColors.styles().then((tokens) => this.sendTokenColors(tokens));
  }

  sendTokenColors(tokens: CodeTokenStyles | null): void {
    this.sync.tokenColors({ type: 'tokenColors', tokens });
  }

  dispose(): void {
    this.reloads.dispose();
    this.stalls.dispose();
    this.sync.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables.length = 0;
  }

  focusPrompt(): void {
    this.sync.focusPrompt();
  }

  /** Its prompt box was asked for the cursor and its page has not run yet. */
  get wantsFocus(): boolean {
    return this.sync.isFocusWanted;
  }

  /** Gives the panel a new page (a new nonce makes the HTML differ, so VS Code loads it even if it was set before). */
  private loadPage(): void {
    const { webview } = this.panel;
    const dist = this.manager.distUri;
    webview.html = buildChatHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
      title: vscode.l10n.t('Subchats'),
      language: vscode.env.language,
      l10nBundle: vscode.l10n.bundle,
    });
    if (this.panel.visible) this.stalls.expectReady();
  }

  private showLoadFailure(asset: string): void {
    this.stalls.settled();
    this.panel.webview.html = buildChatLoadFailedHtml({
      title: vscode.l10n.t('Subchats'),
      language: vscode.env.language,
      message: vscode.l10n.t(
        'Subchats could not load this chat: {0} did not load after {1} tries. Close this tab and open the chat again from the Sessions view.',
        asset,
        PAGE_RELOAD_DELAYS_MS.length + 1,
      ),
    });
  }

  addAttachment(message: AddAttachmentMessage): void {
    this.sync.addAttachment(message);
  }

  /** Connects to the connection's store once it exists (a restored panel may come before its history). */
  private attach(): void {
    const store = this.manager.host.get(this.connectionId)?.store;
    if (store === this.store) return;
    this.store = store;
    this.updateTitle();
    this.sync.setFeed(store ? new ChatFeed(store, this.sessionId, this.sync.postFeed) : undefined);
  }

  private requestContext(): RequestContext {
    const { manager } = this;
    return {
      connectionId: this.connectionId,
      rootSessionId: this.sessionId,
      store: this.store,
      sessions: manager.host,
      permissions: manager.permissions,
      workbench: this.workbench,
      pipe: this.sync,
    };
  }

  private updateTitle(): void {
    const title = sessionTitle(this.store?.getSession(this.sessionId));
    if (this.panel.title !== title) this.panel.title = title;
  }
}

function toDisposable(value: { dispose(): void }): vscode.Disposable {
  return value instanceof vscode.Disposable ? value : new vscode.Disposable(() => value.dispose());
}
