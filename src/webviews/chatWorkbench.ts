// What VS Code does for a chat's requests (ChatWorkbench): notifications, commands, the clipboard, and opening
// files, diffs and links. Paths and links come from agent text, so they are checked and confirmed here.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentFilePath } from './agentFilePath';
import { isExternalLink } from '../host/externalLinks';
import { promptBlocks } from '../host/promptContent';
import { inertUiText } from '../host/uiText';
import type { ChatWorkbench } from './chatRequests';
import { applyToFile, insertAtCursor, insertIntoTerminal, type CodeBlockDeps } from './codeBlockActions';
import { openDocumentText, workspaceFolderRefs, type WorkspaceFiles } from './workspaceFiles';

export interface ChatWorkbenchDeps extends CodeBlockDeps {
  readonly files: WorkspaceFiles;
  openChat(sessionId: string, beside: boolean): void;
}

export function vscodeWorkbench(deps: ChatWorkbenchDeps): ChatWorkbench {
  return {
    warn: (text) => void vscode.window.showWarningMessage(text),
    searchFiles: (query) => deps.files.search(query),
    promptContent: (text, attachments, capabilities) => promptBlocks(text, attachments, { capabilities, folders: workspaceFolderRefs(), openDocumentText }),
    runCommand: (command, ...args) => Promise.resolve(vscode.commands.executeCommand(command, ...args)),
    openFile,
    openDiff: (filePath, oldText, newText) => deps.openDiff(filePath, oldText, newText, `${path.basename(filePath)} (agent edit)`),
    openChat: (sessionId, beside) => deps.openChat(sessionId, beside),
    openLink,
    copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
    insertAtCursor: (code) => insertAtCursor(deps, code),
    insertIntoTerminal,
    applyToFile: (filePath, code, cwd) => applyToFile(deps, filePath, code, cwd),
  };
}

/** Network paths are refused, and anything outside the workspace is confirmed. */
async function openFile(filePath: string, line: number | undefined, cwd: string | undefined): Promise<void> {
  const target = agentFilePath(filePath, cwd);
  if (target.kind === 'network') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Subchats does not open network paths from agent output: {0}', inertUiText(filePath, 400)));
    return;
  }
  if (target.kind === 'no-cwd') return;
  const { absolute } = target;
  if (target.kind === 'outside') {
    const openFile = vscode.l10n.t('Open File');
    const open = await vscode.window.showWarningMessage(vscode.l10n.t('The agent refers to a file outside the workspace:\n{0}', inertUiText(absolute, 1000)), { modal: true }, openFile);
    if (open !== openFile) return;
  }
  const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(vscode.Uri.file(absolute), {
    preview: true,
    viewColumn: vscode.ViewColumn.One,
    ...(line !== undefined ? { selection: new vscode.Range(position, position) } : {}),
  });
}

/** Web and mail links only, each confirmed (the chat's text is the agent's). */
async function openLink(url: string): Promise<void> {
  if (!isExternalLink(url)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: not opening "{0}" (only web and mail links are opened).', inertUiText(url, 400)));
    return;
  }
  const open = vscode.l10n.t('Open Link');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t("The agent's chat wants to open an external link."), { modal: true, detail: inertUiText(url, 2000) }, open);
  if (answer === open) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
