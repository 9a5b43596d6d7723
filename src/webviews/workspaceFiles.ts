// Workspace files for `@` completion and attachments: VS Code's file search (files.exclude and
// search.exclude respected), open editors first, and only ever workspace-relative paths.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { rankSuggestions } from '../host/fileRanking';
import type { FileSuggestion, PathAttachment, WorkspaceFolderRef, WorkspaceRoots } from '../protocol/webviewMessages';

const MAX_FILES = 20_000;
const MAX_SUGGESTIONS = 50;
/** A listing is reused while the user types a query (a new `@` after this long lists again). */
const LISTING_TTL_MS = 5_000;

export function workspaceFolderRefs(): WorkspaceFolderRef[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
}

/** What the chat words its paths by (src/presentation/displayPath.ts): the workspace folders and the home folder. */
export function chatWorkspace(): WorkspaceRoots {
  return { folders: workspaceFolderRefs(), home: homedir() };
}

/** The workspace-relative path of a file URI, or undefined when it is not inside the workspace. */
export function workspaceRelative(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** The enabled patterns of files.exclude and search.exclude as one glob (an explicit exclude replaces the default). */
function excludeGlob(): string | undefined {
  const patterns = new Set<string>();
  for (const section of ['files', 'search']) {
    const excludes = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {};
    // Glob groups do not nest: a pattern with its own braces cannot join the group (it is left out).
    for (const [pattern, enabled] of Object.entries(excludes)) if (enabled === true && !/[{}]/.test(pattern)) patterns.add(pattern);
  }
  return patterns.size > 0 ? `{${[...patterns].join(',')}}` : undefined;
}

/** The text of a file open in an editor (unsaved changes included). */
export function openDocumentText(absolutePath: string): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === absolutePath)?.getText();
}

/** A file (or folder) the user named by URI, as an attachment, or undefined when it is outside the workspace. */
export async function fileAttachment(uri: vscode.Uri): Promise<PathAttachment | undefined> {
  const relative = workspaceRelative(uri);
  if (relative === undefined) return undefined;
  const stat = await vscode.workspace.fs.stat(uri).then(undefined, () => undefined);
  return { kind: stat && stat.type & vscode.FileType.Directory ? 'folder' : 'file', path: relative };
}

export class WorkspaceFiles {
  private listing: { at: number; files: Promise<string[]> } | undefined;

  async search(query: string): Promise<FileSuggestion[]> {
    const files = await this.files();
    const open: string[] = [];
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        const relative = input instanceof vscode.TabInputText ? workspaceRelative(input.uri) : undefined;
        if (relative !== undefined) open.push(relative);
      }
    }
    return rankSuggestions(query, files, open, MAX_SUGGESTIONS);
  }

  private files(): Promise<string[]> {
    const now = Date.now();
    if (!this.listing || now - this.listing.at > LISTING_TTL_MS) {
      const files = vscode.workspace.findFiles('**/*', excludeGlob(), MAX_FILES).then((uris) => uris.flatMap((uri) => workspaceRelative(uri) ?? []));
      this.listing = { at: now, files: Promise.resolve(files) };
    }
    return this.listing.files;
  }
}
