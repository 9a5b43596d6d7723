// "Open Changes": the files a session (or its whole tree) changed, in VS Code's multi-file diff editor: the text
// from when the agent first touched each file against the file on disk now (diskSnapshots decides, and flags
// where the agent's report and the disk disagree); without such a copy, the texts as the agent reported them
// (an ACP v2 change: the file now with its patches undone). The texts are served as read-only virtual documents
// (subchats-changes:); nothing is written to disk, and files are read only inside the workspace folders.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readWorkspaceText } from '../acp/confinedFs';
import type { ChangesScope } from '../protocol/webviewMessages';
import { preOrder } from '../presentation/treeOrder';
import { ownChanges, subtreeChanges } from '../store/sessionChanges';
import type { SessionStoreReader } from '../store/storeAccess';
import { absolutePath, differsLine, reviewChange, type DiskSnapshots } from './diskSnapshots';
import { inertUiText } from './uiText';
import { t } from '../presentation/l10n';

/** What Open Changes showed, the files it could not show (with the reason), and what it found about the rest. */
export interface OpenedChanges {
  readonly shown: number;
  readonly notShown: readonly { readonly path: string; readonly reason: string }[];
  /** Files whose disk text is not what the agent reported. */
  readonly differs: readonly string[];
  /** Files shown as the agent reported them, with why the disk could not be checked. */
  readonly unchecked: readonly { readonly path: string; readonly reason: string }[];
}

interface Texts {
  readonly before: string | null | undefined;
  readonly after: string;
}

const CHANGES_SCHEME = 'subchats-changes';

/** Texts of the last few opened change sets (older ones are dropped so memory stays bounded). */
const KEPT_OPENS = 20;

export class ChangesEditor implements vscode.Disposable {
  private readonly documents = new Map<string, string>();
  private readonly opens: string[][] = [];
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, {
      provideTextDocumentContent: (uri) => this.documents.get(uri.query) ?? '',
    });
  }

  /** Opens the changes that have texts (or patches that still apply); says which files it could not show. */
  async open(store: SessionStoreReader, sessionId: string, scope: ChangesScope, snapshots?: DiskSnapshots): Promise<OpenedChanges> {
    const session = store.getSession(sessionId);
    if (!session) return { shown: 0, notShown: [], differs: [], unchecked: [] };
    const cwd = store.effectiveCwd(session.id);
    const keys: string[] = [];
    const resources: [vscode.Uri, vscode.Uri | undefined, vscode.Uri][] = [];
    const notShown: { path: string; reason: string }[] = [];
    const differs: string[] = [];
    const unchecked: { path: string; reason: string }[] = [];
    await snapshots?.settled();
    const sessionIds = copiedSessions(store, session.id, scope);
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
    for (const change of scope === 'tree' ? subtreeChanges(store, session.id) : ownChanges(session)) {
      const absolute = absolutePath(change.path, cwd) ?? path.resolve('/', change.path);
      const snapshot = snapshots?.earliest(sessionIds, absolute);
      // The disk is read when there is something to compare it with, or nothing else to show.
      const current = snapshot || change.after === undefined ? await readCurrent(absolute, folders) : { reason: t('not read') };
      const texts = reviewChange(change, snapshot, current);
      if ('reason' in texts) {
        notShown.push({ path: change.path, reason: texts.reason });
        continue;
      }
      if (texts.differs) differs.push(change.path);
      if (texts.note) unchecked.push({ path: change.path, reason: texts.note });
      resources.push(this.resourcesOf(absolute, texts, keys));
    }
    if (resources.length > 0) {
      this.remember(keys);
      const title = scope === 'tree' && session.childIds.length > 0 ? t('Changes: {0} and its subagents', session.label) : t('Changes: {0}', session.label);
      const flag = differs.length > 0 ? ` — ${differsLine(differs.length)}` : '';
      await vscode.commands.executeCommand('vscode.changes', `${inertUiText(title, 200)}${flag}`, resources);
    }
    return { shown: resources.length, notShown, differs, unchecked };
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }

  /** [file, before, after]; a file the agent reported as new (or whose text before it never said) has no before. */
  private resourcesOf(absolute: string, texts: Texts, keys: string[]): [vscode.Uri, vscode.Uri | undefined, vscode.Uri] {
    const file = vscode.Uri.file(absolute);
    const virtual = (side: string, text: string): vscode.Uri => {
      const key = `${++this.counter}-${side}`;
      this.documents.set(key, text);
      keys.push(key);
      return vscode.Uri.from({ scheme: CHANGES_SCHEME, path: file.path, query: key });
    };
    const before = typeof texts.before === 'string' ? virtual('before', texts.before) : undefined;
    return [file, before, virtual('after', texts.after)];
  }

  private remember(keys: string[]): void {
    this.opens.push(keys);
    while (this.opens.length > KEPT_OPENS) for (const key of this.opens.shift() ?? []) this.documents.delete(key);
  }
}

/** Open Changes reads a file as it is now only up to this size. */
const MAX_CURRENT_BYTES = 16 * 1024 * 1024;

/** The file as it is now, only inside the workspace folders (null: it does not exist), or why it cannot be read. */
async function readCurrent(absolute: string, folders: readonly string[]): Promise<string | null | { reason: string }> {
  return readWorkspaceText(absolute, folders, MAX_CURRENT_BYTES).catch((error: unknown) => ({ reason: error instanceof Error ? error.message : String(error) }));
}

/**
 * The sessions whose copies of a file count: the scope's own (its subtree for a tree) and its ancestors (a
 * subagent's calls may arrive on its parent's session, which is where the client copied the file).
 */
function copiedSessions(store: SessionStoreReader, sessionId: string, scope: ChangesScope): string[] {
  const ids = scope === 'tree' ? preOrder([sessionId], (id) => store.getSession(id), (session) => session.childIds).map((session) => session.id) : [sessionId];
  for (let parent = store.getSession(sessionId)?.parentId; parent; parent = store.getSession(parent)?.parentId) {
    if (ids.includes(parent)) break;
    ids.push(parent);
  }
  return ids;
}
