// "Open Changes": the files a session (or its whole tree) changed, in VS Code's multi-file diff editor, with
// the texts before and after as the agent reported them. The texts are served as read-only virtual documents
// (subchats-changes:); nothing is written to disk.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangesScope } from '../protocol/webviewMessages';
import { ownChanges, subtreeChanges, type FileChange } from '../store/sessionChanges';
import type { SessionStoreReader } from '../store/storeApi';
import { inertUiText } from './uiText';

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

  /** Opens the changes; false when there is nothing with text to show. */
  async open(store: SessionStoreReader, sessionId: string, scope: ChangesScope): Promise<boolean> {
    const session = store.getSession(sessionId);
    if (!session) return false;
    const changes = (scope === 'tree' ? subtreeChanges(store, session.id) : ownChanges(session)).filter((change) => change.after !== undefined);
    if (changes.length === 0) return false;
    const cwd = store.effectiveCwd(session.id);
    const keys: string[] = [];
    const resources = changes.map((change) => this.resourcesOf(change, cwd, keys));
    this.remember(keys);
    const title = scope === 'tree' && session.childIds.length > 0 ? `Changes: ${session.label} and its subagents` : `Changes: ${session.label}`;
    await vscode.commands.executeCommand('vscode.changes', inertUiText(title, 200), resources);
    return true;
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }

  /** [file, before, after]; a file the agent reported as new (or whose text before it never said) has no before. */
  private resourcesOf(change: FileChange, cwd: string | null, keys: string[]): [vscode.Uri, vscode.Uri | undefined, vscode.Uri] {
    const absolute = path.isAbsolute(change.path) ? path.normalize(change.path) : cwd ? path.join(cwd, change.path) : path.resolve('/', change.path);
    const file = vscode.Uri.file(absolute);
    const virtual = (side: string, text: string): vscode.Uri => {
      const key = `${++this.counter}-${side}`;
      this.documents.set(key, text);
      keys.push(key);
      return vscode.Uri.from({ scheme: CHANGES_SCHEME, path: file.path, query: key });
    };
    const before = typeof change.before === 'string' ? virtual('before', change.before) : undefined;
    return [file, before, virtual('after', change.after ?? '')];
  }

  private remember(keys: string[]): void {
    this.opens.push(keys);
    while (this.opens.length > KEPT_OPENS) for (const key of this.opens.shift() ?? []) this.documents.delete(key);
  }
}
