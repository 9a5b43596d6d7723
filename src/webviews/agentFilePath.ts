// Where a path from agent output points, for the chat's actions that open or write it: network paths are
// never resolved, a relative path needs the chat's working directory, and the caller learns whether the file
// is inside a workspace folder (outside needs the user's say; each caller asks in its own words).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isInsideOrEqual } from '../acp/workspacePaths';

type AgentFilePath =
  | { readonly kind: 'network' }
  | { readonly kind: 'no-cwd' }
  | { readonly kind: 'inside' | 'outside'; readonly absolute: string };

export function agentFilePath(filePath: string, cwd: string | undefined): AgentFilePath {
  if (/^(\\\\|\/\/)/.test(filePath)) return { kind: 'network' };
  const absolute = path.isAbsolute(filePath) ? path.normalize(filePath) : cwd ? path.join(cwd, filePath) : undefined;
  if (!absolute) return { kind: 'no-cwd' };
  const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
  return { kind: folders.some((folder) => isInsideOrEqual(absolute, folder)) ? 'inside' : 'outside', absolute };
}
