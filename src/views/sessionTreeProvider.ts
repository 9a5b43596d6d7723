// The sidebar tree: agent connections, their root sessions, and children nested at any depth.
// Items update in place: a store change refreshes only the sessions it touched, coalesced per frame.
import * as vscode from 'vscode';
import type { AgentRuntime, SubchatsService } from '../host/subchatsService';
import { needsUser, parseSessionNodeId, sessionItemOf, sessionNodeId, type TreeItemModel } from './sessionTreeModel';
import { runtimeTreeItem } from './runtimeTreeModel';
import { SessionTreeWatch } from './sessionTreeWatch';

const FLUSH_DELAY_MS = 50;
const MIN_FLUSH_GAP_MS = 300;

export type SessionTreeNode =
  | { readonly kind: 'runtime'; readonly runtimeId: string }
  | { readonly kind: 'session'; readonly runtimeId: string; readonly sessionId: string };

export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SessionTreeNode | SessionTreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly nodes = new Map<string, SessionTreeNode>();
  private readonly dirty = new Set<string>();
  private readonly toReveal = new Set<SessionTreeNode>();
  private refreshAll = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlushAt = 0;
  private tickTimer: NodeJS.Timeout | undefined;
  private view: vscode.TreeView<SessionTreeNode> | undefined;
  /** Working and waiting sessions, kept from store changes so the tick and the badge walk only those. */
  private readonly watch = new SessionTreeWatch();

  constructor(private readonly service: SubchatsService) {
    this.watch.sync(service.list());
    this.disposables.push(
      service.onDidChangeRuntimes(() => {
        this.watch.sync(service.list());
        this.schedule(undefined);
      }),
      service.onDidChangeSessions(({ runtime, changes }) => {
        for (const change of changes) {
          this.watch.note(runtime, change.sessionId);
          if (change.kind === 'entry' && !this.affectsItem(runtime, change.sessionId)) continue;
          // A new child changes its parent's children; anything else changes the item itself.
          const session = runtime.store.getSession(change.sessionId);
          if (change.kind === 'tree') {
            if (session?.parentId) this.schedule(this.sessionNode(runtime.id, session.parentId));
            else this.schedule(this.runtimeNode(runtime.id));
            // A child appears the moment it is announced: expand its ancestors to show it.
            if (session?.parentId && runtime.live) this.toReveal.add(this.sessionNode(runtime.id, session.id));
          } else {
            this.schedule(this.sessionNode(runtime.id, change.sessionId));
            // Its ancestors count the files it changed ("N files changed" covers the subtree).
            if (session?.parentId && (change.kind === 'session' || change.appended === undefined)) this.scheduleAncestors(runtime, session.parentId);
          }
        }
      }),
    );
  }

  attach(view: vscode.TreeView<SessionTreeNode>): void {
    this.view = view;
    // Elapsed times of running sessions tick once a second while the view is visible.
    this.tickTimer = setInterval(() => {
      if (!view.visible) return;
      for (const { runtimeId, sessionId } of this.watch.ticking()) this.schedule(this.sessionNode(runtimeId, sessionId));
    }, 1000);
  }

  runtimeNode(runtimeId: string): SessionTreeNode {
    return this.intern(`runtime|${runtimeId}`, () => ({ kind: 'runtime', runtimeId }));
  }

  sessionNode(runtimeId: string, sessionId: string): SessionTreeNode {
    return this.intern(sessionNodeId(runtimeId, sessionId), () => ({ kind: 'session', runtimeId, sessionId }));
  }

  nodeFromId(id: string): SessionTreeNode | undefined {
    const parsed = parseSessionNodeId(id);
    return parsed ? this.sessionNode(parsed.connectionId, parsed.sessionId) : undefined;
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    const runtime = this.service.get(node.runtimeId);
    if (!runtime) return new vscode.TreeItem('(gone)');
    const model = node.kind === 'runtime' ? runtimeTreeItem(runtime, Date.now()) : this.sessionModel(runtime, node.sessionId);
    if (!model) return new vscode.TreeItem('(gone)');
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
      item.command = { command: 'subchats.openChat', title: 'Open Chat', arguments: [node] };
    }
    return item;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    if (!node) return this.service.list().map((r) => this.runtimeNode(r.id));
    const runtime = this.service.get(node.runtimeId);
    if (!runtime) return [];
    if (node.kind === 'runtime') {
      return runtime.store.listSessions().filter((s) => s.parentId === null).map((s) => this.sessionNode(runtime.id, s.id));
    }
    const session = runtime.store.getSession(node.sessionId);
    return session ? session.childIds.map((id) => this.sessionNode(runtime.id, id)) : [];
  }

  getParent(node: SessionTreeNode): SessionTreeNode | undefined {
    if (node.kind === 'runtime') return undefined;
    const runtime = this.service.get(node.runtimeId);
    const parentId = runtime?.store.getSession(node.sessionId)?.parentId;
    return parentId ? this.sessionNode(node.runtimeId, parentId) : this.runtimeNode(node.runtimeId);
  }

  /** The session selected in the tree, if the tree has focus-worthy selection. */
  selectedSession(): { readonly runtimeId: string; readonly sessionId: string } | undefined {
    const node = this.view?.selection[0];
    return node?.kind === 'session' ? { runtimeId: node.runtimeId, sessionId: node.sessionId } : undefined;
  }

  async reveal(runtimeId: string, sessionId: string): Promise<void> {
    await this.view?.reveal(this.sessionNode(runtimeId, sessionId), { select: true, focus: true, expand: true });
  }

  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.changeEmitter.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private sessionModel(runtime: AgentRuntime, sessionId: string): TreeItemModel | undefined {
    return sessionItemOf(runtime, sessionId, Date.now());
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
      this.schedule(this.sessionNode(runtime.id, id));
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

  private schedule(node: SessionTreeNode | undefined): void {
    if (!node) this.refreshAll = true;
    else this.dirty.add(node.kind === 'runtime' ? `runtime|${node.runtimeId}` : sessionNodeId(node.runtimeId, node.sessionId));
    // VS Code's extension host debounces tree changes by 200 ms and restarts that wait on every change, so a
    // busy session (a tool streaming progress) would freeze the whole tree: fires stay further apart than that.
    this.flushTimer ??= setTimeout(() => this.flush(), Math.max(FLUSH_DELAY_MS, this.lastFlushAt + MIN_FLUSH_GAP_MS - Date.now()));
  }

  private flush(): void {
    this.flushTimer = undefined;
    this.lastFlushAt = Date.now();
    if (this.refreshAll) {
      this.refreshAll = false;
      this.dirty.clear();
      this.changeEmitter.fire(undefined);
    } else if (this.dirty.size > 0) {
      const nodes = [...this.dirty].map((key) => this.nodes.get(key)).filter((n): n is SessionTreeNode => !!n);
      this.dirty.clear();
      this.changeEmitter.fire(nodes);
    }
    this.updateBadge();
    if (this.toReveal.size > 0 && this.view?.visible) {
      const nodes = [...this.toReveal];
      this.toReveal.clear();
      for (const node of nodes) void this.view.reveal(node, { select: false, focus: false, expand: false }).then(undefined, () => undefined);
    } else this.toReveal.clear();
  }

  private updateBadge(): void {
    if (!this.view) return;
    const count = this.watch.badgeCount(this.service.list());
    this.view.badge = count > 0 ? { value: count, tooltip: `${count} session${count === 1 ? '' : 's'} waiting for you` } : undefined;
  }
}
