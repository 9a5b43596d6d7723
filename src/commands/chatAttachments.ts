// "Add Selection to Subchats Chat" and "Add File to Subchats Chat": a chip in the chat used last. Only
// workspace files qualify (the host later resolves the chip inside the workspace again before reading it).
import * as vscode from 'vscode';
import type { PathAttachment } from '../protocol/webviewMessages';
import { fileAttachment, workspaceRelative } from '../webviews/workspaceFiles';

export interface AttachmentTarget {
  addAttachment(attachment: PathAttachment): boolean;
}


function deliver(chats: AttachmentTarget, attachment: PathAttachment | undefined): void {
  if (!attachment) void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: only files inside the workspace can be added to a chat.'));
  else if (!chats.addAttachment(attachment)) void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: open a Subchats chat first; the selection or file goes to the chat you used last.'));
}

export function registerAttachmentCommands(chats: AttachmentTarget): vscode.Disposable[] {
  const addSelection = (): void => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: select some text in an editor first.'));
      return;
    }
    const relative = workspaceRelative(editor.document.uri);
    const { start, end } = editor.selection;
    // A selection ending at the start of a line does not include that line.
    const endLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
    deliver(chats, relative === undefined ? undefined : { kind: 'selection', path: relative, startLine: start.line + 1, endLine });
  };
  const addFile = async (uri?: unknown, selected?: unknown): Promise<void> => {
    const uris = Array.isArray(selected) && selected.every((u) => u instanceof vscode.Uri) ? selected : [uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri];
    if (!uris[0]) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: open or select a file first.'));
      return;
    }
    for (const target of uris) deliver(chats, target ? await fileAttachment(target) : undefined);
  };
  return [vscode.commands.registerCommand('subchats.addSelectionToChat', addSelection), vscode.commands.registerCommand('subchats.addFileToChat', addFile)];
}
