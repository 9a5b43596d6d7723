// The sidebar tree: agent connections, their root sessions, and children nested at any depth.
// Items update in place: a store change refreshes only the sessions it touched, coalesced per frame.
import * as vscode from 'vscode';
import type { AgentRuntime, SubchatsService } from '../host/subchatsService';
import { needsUser, parseSessionNodeId, sessionItemOf, sessionNodeId, type TreeItemModel } from './sessionTreeModel';
import { recentHistoryIds, runtimeTreeItem } from './runtimeTreeModel';
import { SessionTreeWatch } from './sessionTreeWatch';
import { TreeRefreshQueue } from './treeRefreshQueue';
import { TreeArrangement, type ArrangementRuntime } from './treeArrangement';
import { isFiltered, readTreeOptions, type TreeViewOptions } from './treeFilter';
import { inertUiText } from '../host/uiText';
import { t } from '../presentation/l10n';

/** Where the tree's sort and filter are kept per workspace. */
const TREE_OPTIONS_KEY = 'subchats.sessionTree.options';

/** What the view says while stored sessions load (instead of "No agent sessions yet", which they would contradict). */
export const restoringMessage = (): string => t('Restoring sessions…');

/**
 * Context key: the stored sessions have loaded and there are none (set once showRestoring, which activation calls,
 * has seen them load). The view's welcome (package.json viewsWelcome) says "No agent sessions yet" only then, and
 * that it is restoring otherwise: before this extension runs, and while restored rows are still on their way to
 * the view (it shows its welcome whenever it has no rows and no message).
 */
export const EMPTY_KEY = 'subchats.sessions.empty';

export type SessionTreeNode =
  | { readonly kind: 'runtime'; readonly connectionId: string }
  | { readonly kind: 'session'; readonly connectionId: string; readonly sessionId: string };

/** What the tree sets and reads on its view. */
export type SessionTreeViewPart = Pick<vscode.TreeView<SessionTreeNode>, 'message' | 'badge' | 'visible' | 'selection' | 'reveal'>;

export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SessionTreeNode | SessionTreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly nodes = new Map<string, SessionTreeNode>();
  private readonly toReveal = new Set<SessionTreeNode>();
  /** What each row showed when VS Code last asked for it, so a row that shows nothing new is not refreshed. */
  private readonly shown = new Map<string, string>();
  private readonly refreshes = new TreeRefreshQueue({
    fire: (keys) => this.changeEmitter.fire(keys && keys.map((key) => this.nodes.get(key)).filter((n): n is SessionTreeNode => !!n)),
    rowChanged: (key) => this.rowChanged(key),
    flushed: () => this.afterFlush(),
    restructured: () => this.restructured(),
  });
  private tickTimer: NodeJS.Timeout | undefined;
  private view: SessionTreeViewPart | undefined;
  /** Stored sessions: still loading, loaded, or not restored by this tree (no showRestoring). */
  private restoring: 'loading' | 'loaded' | undefined;
  private empty: boolean | undefined;
  /** Working and waiting sessions, kept from store changes so the tick and the badge walk only those. */
  private readonly watch = new SessionTreeWatch();
  /** The sort and filter the user chose (see treeFilter.ts); inactive while the tree shows its plain order. */
  private readonly arrangement = new TreeArrangement(() => this.service.list().map(arrangeable));

  constructor(
    private readonly service: SubchatsService,
    private readonly workspaceState?: vscode.Memento,
  ) {
    this.arrangement.set(readTreeOptions(workspaceState?.get(TREE_OPTIONS_KEY)));
    void this.setContextKeys();
    this.watch.sync(service.list());
    this.disposables.push(
      service.onDidChangeRuntimes(() => {
        this.updateEmptyKey();
        this.watch.sync(service.list());
        this.arrangement.reset();
        this.refreshes.everythingChanged();
      }),
      service.onDidChangeSessions(({ runtime, changes }) => {
        for (const change of changes) {
          this.watch.note(runtime, change.sessionId);
          if (change.kind === 'entry' && !this.affectsItem(runtime, change.sessionId)) continue;
          this.arrangement.touch(runtime.id);
          // A new child changes its parent's children; anything else changes the item itself.
          const session = runtime.store.getSession(change.sessionId);
          if (change.kind === 'tree') {
            this.refreshes.childrenChanged(session?.parentId ? this.sessionKey(runtime.id, session.parentId) : this.runtimeKey(runtime.id));
            // A child appears the moment it is announced: expand its ancestors to show it.
            if (session?.parentId && runtime.live) this.toReveal.add(this.sessionNode(runtime.id, session.id));
          } else {
            this.refreshes.itemChanged(this.sessionKey(runtime.id, change.sessionId));
            // Its ancestors count the files it changed ("N files changed" covers the subtree); rows that show
            // nothing new are not fired.
            if (session?.parentId && (change.kind === 'session' || change.appended === undefined)) this.scheduleAncestors(runtime, session.parentId);
          }
        }
      }),
    );
  }

  attach(view: SessionTreeViewPart): void {
    this.view = view;
    this.updateMessage();
    // Elapsed times of running sessions tick once a second while the view is visible.
    this.tickTimer = setInterval(() => {
      if (!view.visible) return;
      for (const { connectionId, sessionId } of this.watch.ticking()) {
        this.refreshes.itemChanged(this.sessionKey(connectionId, sessionId));
        // A quiet turn the agent started reads idle after a while: the filter and the state sort follow.
        this.arrangement.touch(connectionId);
      }
    }, 1000);
  }

  /** Says the sessions are being restored until `restored` settles (however it ends). */
  showRestoring(restored: Promise<unknown>): void {
    this.restoring = 'loading';
    this.updateMessage();
    const loaded = () => {
      this.restoring = 'loaded';
      this.updateMessage();
      this.updateEmptyKey();
    };
    restored.then(loaded, loaded);
  }

  runtimeNode(connectionId: string): SessionTreeNode {
    return this.intern(this.runtimeKey(connectionId), () => ({ kind: 'runtime', connectionId }));
  }

  sessionNode(connectionId: string, sessionId: string): SessionTreeNode {
    return this.intern(this.sessionKey(connectionId, sessionId), () => ({ kind: 'session', connectionId, sessionId }));
  }

  nodeFromId(id: string): SessionTreeNode | undefined {
    const parsed = parseSessionNodeId(id);
    return parsed ? this.sessionNode(parsed.connectionId, parsed.sessionId) : undefined;
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    const model = this.modelOf(node);
    if (!model) return new vscode.TreeItem(vscode.l10n.t('(gone)'));
    this.shown.set(node.kind === 'runtime' ? this.runtimeKey(node.connectionId) : this.sessionKey(node.connectionId, node.sessionId), rowSignature(model));
    const item = new vscode.TreeItem(
      model.label,
      model.collapsible ? (model.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None,
    );
    item.id = model.id;
    item.description = model.description;
    // Agent text is escaped in the model; the tooltip also runs no commands, HTML or icons whatever it holds.
    const tooltip = new vscode.MarkdownString(model.tooltip, false);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(model.icon, model.iconColor ? new vscode.ThemeColor(model.iconColor) : undefined);
    item.contextValue = model.contextValue;
    item.accessibilityInformation = { label: `${model.label}, ${model.description}` };
    if (node.kind === 'session') {
      // No arguments: VS Code keeps a tree command's arguments in a cache that a refresh of the row, or of
      // any row above it, empties before the workbench gets the new row, and a click then runs nothing
      // ("Actual command not found"). Rows above running subagents refresh every second, so the command
      // reads the clicked row from the selection, which VS Code sets (by stable id) before it runs it.
      item.command = { command: 'subchats.openSelectedChat', title: vscode.l10n.t('Open Chat') };
    }
    return item;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    if (this.arrangement.active) return this.arrangedChildren(node);
    if (!node) return this.service.list().map((r) => this.runtimeNode(r.id));
    const runtime = this.service.get(node.connectionId);
    if (!runtime) return [];
    if (node.kind === 'runtime') {
      return runtime.store.listSessions().filter((s) => s.parentId === null).map((s) => this.sessionNode(runtime.id, s.id));
    }
    const session = runtime.store.getSession(node.sessionId);
    return session ? session.childIds.map((id) => this.sessionNode(runtime.id, id)) : [];
  }

  getParent(node: SessionTreeNode): SessionTreeNode | undefined {
    if (node.kind === 'runtime') return undefined;
    const runtime = this.service.get(node.connectionId);
    const parentId = runtime?.store.getSession(node.sessionId)?.parentId;
    return parentId ? this.sessionNode(node.connectionId, parentId) : this.runtimeNode(node.connectionId);
  }

  /** The session selected in the tree, if the tree has focus-worthy selection. */
  selectedSession(): { readonly connectionId: string; readonly sessionId: string } | undefined {
    const node = this.view?.selection[0];
    return node?.kind === 'session' ? { connectionId: node.connectionId, sessionId: node.sessionId } : undefined;
  }

  /** The tree's sort and filter. */
  get options(): TreeViewOptions {
    return this.arrangement.options;
  }

  /** Sorts and filters the tree anew, and keeps the choice for this workspace. */
  async setOptions(options: TreeViewOptions): Promise<void> {
    this.arrangement.set(options);
    this.refreshes.everythingChanged();
    this.updateMessage();
    await Promise.all([this.workspaceState?.update(TREE_OPTIONS_KEY, options), this.setContextKeys()]);
  }

  /** The agents of the connections in the tree, by name, for the agent filter. */
  agentNames(): string[] {
    return [...new Set(this.service.list().map((r) => r.agent.name))];
  }

  /**
   * Selects the session's row (expanding its ancestors). Only *Reveal in Session Tree* moves the keyboard focus
   * there: a reveal that follows a chat or a new session must not take the focus from the chat, or from a
   * picker the user opened meanwhile (VS Code closes a quick pick that loses focus). A reveal that `follow`s the
   * active chat happens only while the Sessions view shows: revealing a row opens its view, which would take the
   * side bar from the Explorer (or whatever the user had there) each time a chat got the focus.
   */
  async reveal(connectionId: string, sessionId: string, { focus = false, follow = false }: { focus?: boolean; follow?: boolean } = {}): Promise<void> {
    if (follow && this.view?.visible !== true) return;
    if (!this.isShown(connectionId, sessionId)) {
      // Only the user's own Reveal says so; a reveal that follows a chat just does not happen.
      if (focus) await this.offerToClearFilter(connectionId, sessionId);
      return;
    }
    await this.view?.reveal(this.sessionNode(connectionId, sessionId), { select: true, focus, expand: true });
  }

  dispose(): void {
    this.refreshes.dispose();
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.changeEmitter.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private modelOf(node: SessionTreeNode): TreeItemModel | undefined {
    const runtime = this.service.get(node.connectionId);
    if (!runtime) return undefined;
    // A sorted or filtered row reads its state at the moment the arrangement judged it.
    const now = (this.arrangement.active ? this.arrangement.now(runtime.id) : undefined) ?? Date.now();
    if (node.kind === 'session') return sessionItemOf(runtime, node.sessionId, now);
    return runtimeTreeItem(runtime, Date.now(), { recentHistory: recentHistoryIds(this.service.list()).has(runtime.id) });
  }

  private arrangedChildren(node: SessionTreeNode | undefined): SessionTreeNode[] {
    if (!node) return this.arrangement.connectionIds().map((id) => this.runtimeNode(id));
    const runtime = this.service.get(node.connectionId);
    if (!runtime) return [];
    const ids = this.arrangement.children(arrangeable(runtime), node.kind === 'runtime' ? null : node.sessionId);
    return ids.map((id) => this.sessionNode(runtime.id, id));
  }

  private restructured(): readonly string[] | 'all' {
    if (!this.arrangement.active) return [];
    const changed = this.arrangement.rearrange();
    if (changed === 'all') return changed;
    return changed.map((p) => (p.sessionId === null ? this.runtimeKey(p.connectionId) : this.sessionKey(p.connectionId, p.sessionId)));
  }

  private isShown(connectionId: string, sessionId: string): boolean {
    const runtime = this.service.get(connectionId);
    return !this.arrangement.active || !runtime || this.arrangement.isShown(arrangeable(runtime), sessionId);
  }

  private async offerToClearFilter(connectionId: string, sessionId: string): Promise<void> {
    const label = this.service.get(connectionId)?.store.getSession(sessionId)?.label ?? sessionId;
    const clear = vscode.l10n.t('Clear Filter');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Subchats: the session filter hides "{0}".', inertUiText(label)), clear);
    if (choice !== clear) return;
    await this.setOptions({ ...this.arrangement.options, show: 'everything', agents: [] });
    await this.view?.reveal(this.sessionNode(connectionId, sessionId), { select: true, focus: true, expand: true });
  }

  /**
   * Whether the view may say there are no sessions: set when the stored ones have loaded, then only to true (all
   * went). A first session's row on its way is no restore: the view keeps saying there are none until it shows.
   */
  private updateEmptyKey(): void {
    if (this.restoring !== 'loaded') return;
    const empty = this.service.list().length === 0;
    if (this.empty !== undefined && (!empty || this.empty)) return;
    this.empty = empty;
    void vscode.commands.executeCommand('setContext', EMPTY_KEY, empty);
  }

  private updateMessage(): void {
    if (!this.view) return;
    const message = this.restoring === 'loading' ? restoringMessage() : this.arrangement.active ? this.arrangement.message() : undefined;
    if (this.view.message !== message) this.view.message = message;
  }

  private setContextKeys(): Thenable<unknown> {
    const options = this.arrangement.options;
    return Promise.all([
      vscode.commands.executeCommand('setContext', 'subchats.sessions.filtered', isFiltered(options)),
      vscode.commands.executeCommand('setContext', 'subchats.sessions.needsMeOnly', options.show === 'needsMe'),
    ]);
  }

  private rowChanged(key: string): boolean {
    const node = this.nodes.get(key);
    const model = node && this.modelOf(node);
    return !model || this.shown.get(key) !== rowSignature(model);
  }

  private runtimeKey(connectionId: string): string {
    return `runtime|${connectionId}`;
  }

  private sessionKey(connectionId: string, sessionId: string): string {
    return sessionNodeId(connectionId, sessionId);
  }

  /** Entry changes matter to the item only for its counts (tool calls) and its needs-you state. */
  private affectsItem(runtime: AgentRuntime, sessionId: string): boolean {
    const session = runtime.store.getSession(sessionId);
    return !!session && (needsUser(session) || session.toolCallOrder.length > 0);
  }

  private scheduleAncestors(runtime: AgentRuntime, parentId: string): void {
    const seen = new Set<string>();
    for (let id: string | null | undefined = parentId; id && !seen.has(id); id = runtime.store.getSession(id)?.parentId) {
      seen.add(id);
      this.refreshes.itemChanged(this.sessionKey(runtime.id, id));
    }
  }

  private intern(key: string, make: () => SessionTreeNode): SessionTreeNode {
    let node = this.nodes.get(key);
    if (!node) {
      node = make();
      this.nodes.set(key, node);
    }
    return node;
  }

  private afterFlush(): void {
    this.updateBadge();
    this.updateMessage();
    if (this.toReveal.size > 0 && this.view?.visible) {
      const nodes = [...this.toReveal].filter((n) => n.kind !== 'session' || this.isShown(n.connectionId, n.sessionId));
      this.toReveal.clear();
      for (const node of nodes) void this.view.reveal(node, { select: false, focus: false, expand: false }).then(undefined, () => undefined);
    } else this.toReveal.clear();
  }

  private updateBadge(): void {
    if (!this.view) return;
    const count = this.watch.badgeCount(this.service.list());
    this.view.badge = count > 0 ? { value: count, tooltip: count === 1 ? vscode.l10n.t('1 session waiting for you') : vscode.l10n.t('{0} sessions waiting for you', count) } : undefined;
  }
}

function arrangeable(runtime: AgentRuntime): ArrangementRuntime {
  return { id: runtime.id, agentName: runtime.agent.name, store: runtime.store };
}

/** Everything a row shows or offers, as one comparable string. */
function rowSignature(model: TreeItemModel): string {
  return JSON.stringify([model.label, model.description, model.tooltip, model.icon, model.iconColor, model.contextValue, model.collapsible, model.expanded]);
}
