// The Sessions view, registered before anything else happens on activation. After a window reload VS Code shows
// the view as it restores the side bar, and until a tree is registered it reads "There is no data provider
// registered that can provide view data": the view's own welcome text only comes once the workbench has restored
// its editors, which waits for restored chat panels, i.e. for this extension. So the tree is registered first,
// and it says the sessions are being restored until the stored ones have loaded.
import * as vscode from 'vscode';
import type { SubchatsService } from '../host/subchatsService';
import { SessionTreeProvider, type SessionTreeNode, type SessionTreeViewPart } from './sessionTreeProvider';

const SESSIONS_VIEW_ID = 'subchats.sessions';

/** What the extension uses of the tree view (`vscode.window.createTreeView` makes it; tests give their own). */
type SessionsTreeView = SessionTreeViewPart & vscode.Disposable;

export interface SessionsViewOptions {
  readonly service: SubchatsService;
  /** Where the tree keeps its sort and filter. */
  readonly workspaceState?: vscode.Memento;
  /** Loads the stored sessions into the service; started only once the view is registered. */
  readonly restore: () => Promise<unknown>;
  readonly createTreeView?: (viewId: string, options: vscode.TreeViewOptions<SessionTreeNode>) => SessionsTreeView;
}

export interface SessionsView {
  readonly tree: SessionTreeProvider;
  readonly view: SessionsTreeView;
  /** Settles when the stored sessions have loaded (or failed to). */
  readonly restored: Promise<unknown>;
}

export function openSessionsView(options: SessionsViewOptions): SessionsView {
  const tree = new SessionTreeProvider(options.service, options.workspaceState);
  const create = options.createTreeView ?? ((viewId, treeOptions) => vscode.window.createTreeView(viewId, treeOptions));
  const view = create(SESSIONS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  tree.attach(view);
  const restored = options.restore();
  tree.showRestoring(restored);
  return { tree, view, restored };
}
