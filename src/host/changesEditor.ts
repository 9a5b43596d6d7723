// "Open Changes": the files a session (or its whole tree) changed, in VS Code's multi-file diff editor, with
// the texts before and after as the agent reported them. The texts are served as read-only virtual documents
// (subchats-changes:); nothing is written to disk. An ACP v2 change reports no texts, only git patches: its
// "after" is the file as it is now (read only inside the workspace folders) and its "before" that text with
// the patches undone.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readConfined, realFolders } from '../acp/confinedFs';
import { isInsideOrEqual, resolveWorkspacePath } from '../acp/workspacePaths';
import type { ChangesScope } from '../protocol/webviewMessages';
import { ownChanges, subtreeChanges, type FileChange } from '../store/sessionChanges';
import type { SessionStoreReader } from '../store/storeApi';
import { textsBeforePatches } from './patchedTexts';
import { inertUiText } from './uiText';

/** What Open Changes showed, and the files it could not show, each with the reason. */
export interface OpenedChanges {
  readonly shown: number;
  readonly notShown: readonly { readonly path: string; readonly reason: string }[];
}

interface Texts {
  readonly before: string | null | undefined;
  readonly after: string;
}

export const CHANGES_SCHEME = 'subchats-changes';

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
  async open(store: SessionStoreReader, sessionId: string, scope: ChangesScope): Promise<OpenedChanges> {
    const session = store.getSession(sessionId);
    if (!session) return { shown: 0, notShown: [] };
    const cwd = store.effectiveCwd(session.id);
    const keys: string[] = [];
    const resources: [vscode.Uri, vscode.Uri | undefined, vscode.Uri][] = [];
    const notShown: { path: string; reason: string }[] = [];
    const readCurrent = currentTextReader();
    for (const change of scope === 'tree' ? subtreeChanges(store, session.id) : ownChanges(session)) {
      const absolute = path.isAbsolute(change.path) ? path.normalize(change.path) : cwd ? path.join(cwd, change.path) : path.resolve('/', change.path);
      const texts = await textsOf(change, absolute, readCurrent);
      if ('reason' in texts) notShown.push({ path: change.path, reason: texts.reason });
      else resources.push(this.resourcesOf(absolute, texts, keys));
    }
    if (resources.length > 0) {
      this.remember(keys);
      const title = scope === 'tree' && session.childIds.length > 0 ? `Changes: ${session.label} and its subagents` : `Changes: ${session.label}`;
      await vscode.commands.executeCommand('vscode.changes', inertUiText(title, 200), resources);
    }
    return { shown: resources.length, notShown };
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

type ReadCurrent = (absolute: string) => Promise<string | null | { reason: string }>;

/** The texts to compare for a change, or why there are none. */
async function textsOf(change: FileChange, absolute: string, readCurrent: ReadCurrent): Promise<Texts | { reason: string }> {
  if (change.after !== undefined) return { before: change.before, after: change.after };
  if (!change.patches?.length) return { reason: 'the agent reported which file it changed, not how' };
  const current = await readCurrent(absolute);
  if (typeof current === 'object' && current !== null) return current;
  const texts = textsBeforePatches(current, change.patches);
  return 'problem' in texts ? { reason: texts.problem } : texts;
}

/** Reads files as they are now, only inside the workspace folders (null: it does not exist). */
function currentTextReader(): ReadCurrent {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  const allowed = realFolders(folders);
  return async (absolute) => {
    if (folders.length === 0) return { reason: 'no folder is open, and Subchats reads files only inside the workspace folders' };
    try {
      const resolved = await resolveWorkspacePath(absolute, folders);
      const real = await allowed;
      return await readConfined(resolved.path, (path) => real.some((folder) => isInsideOrEqual(path, folder)), MAX_CURRENT_BYTES);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return { reason: error instanceof Error ? error.message : String(error) };
    }
  };
}
