// What a code block's toolbar does in VS Code. The code is the agent's, so nothing runs and nothing is written
// without the user: Insert at Cursor edits the text editor the user was in last (undoable); Insert into
// Terminal types the code without running it; Apply shows the change as a diff and writes only when the user
// says Apply (an edit of the document, undoable; saved as the user's auto-save says), and a file outside the
// workspace is confirmed first.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentFilePath } from './agentFilePath';
import { inertUiText } from '../host/uiText';

export interface CodeBlockDeps {
  /** The text editor the user was in last (a chat panel's focus leaves none active). */
  lastTextEditor(): vscode.TextEditor | undefined;
  openDiff(filePath: string, oldText: string, newText: string, title: string): Promise<void>;
}

const warn = (text: string): void => void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: {0}', text));

/** The code without the line break that ends a block (an insertion goes where the cursor is, mid-line too). */
function withoutFinalBreak(code: string): string {
  return code.replace(/\r?\n$/, '');
}

/** The last text editor, if it is still shown (the same document in the same column). */
function shownEditor(last: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  if (!last) return undefined;
  const uri = last.document.uri.toString();
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri && e.viewColumn === last.viewColumn);
}

export async function insertAtCursor(deps: CodeBlockDeps, code: string): Promise<void> {
  const editor = shownEditor(deps.lastTextEditor());
  if (!editor) {
    warn(vscode.l10n.t('there is no text editor to insert into. Put the cursor in a file, then insert again.'));
    return;
  }
  const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, selection: editor.selection, preview: false });
  const text = withoutFinalBreak(code);
  const selections = editor.selections;
  const done = await shown.edit((edit) => {
    for (const selection of selections) edit.replace(selection, text);
  });
  if (!done) warn(vscode.l10n.t('could not insert into {0} (is it read-only?).', inertUiText(vscode.workspace.asRelativePath(editor.document.uri), 400)));
}

/**
 * Types the code into the active terminal (a new one when there is none) without running it. More than one
 * line goes as a paste, as a user's would: the shell gets it as a bracketed paste where it asks for that, and
 * VS Code's multi-line paste warning applies. The clipboard is put back afterwards where it could be read.
 */
export async function insertIntoTerminal(code: string): Promise<void> {
  const text = withoutFinalBreak(code);
  const terminal = vscode.window.activeTerminal ?? vscode.window.createTerminal({ name: 'Subchats' });
  terminal.show(false);
  if (!text.includes('\n')) {
    terminal.sendText(text, false);
    return;
  }
  const previous = await Promise.resolve(vscode.env.clipboard.readText()).catch(() => undefined);
  await vscode.env.clipboard.writeText(text);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.paste');
  } finally {
    if (previous !== undefined) await vscode.env.clipboard.writeText(previous);
  }
}

/** Where the block's path points, or undefined when it is refused (said why) or not confirmed. */
async function targetOf(filePath: string, cwd: string | undefined): Promise<string | undefined> {
  const target = agentFilePath(filePath, cwd);
  if (target.kind === 'network') {
    warn(vscode.l10n.t('Apply does not write to network paths: {0}', inertUiText(filePath, 400)));
    return undefined;
  }
  if (target.kind === 'no-cwd') {
    warn(vscode.l10n.t('the chat has no working directory to find {0} in.', inertUiText(filePath, 400)));
    return undefined;
  }
  const { absolute } = target;
  if (target.kind === 'inside') return absolute;
  const outside = vscode.l10n.t('Apply Outside the Workspace');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('The code block names a file outside the workspace.'),
    { modal: true, detail: inertUiText(absolute, 1000) },
    outside,
  );
  return answer === outside ? absolute : undefined;
}

async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return (await vscode.workspace.openTextDocument(uri)).getText();
  } catch {
    return undefined;
  }
}

/** Shows the file against the block as its new content; on Apply, replaces the file's text (or creates it). */
export async function applyToFile(deps: CodeBlockDeps, filePath: string, code: string, cwd: string | undefined): Promise<void> {
  const absolute = await targetOf(filePath, cwd);
  if (!absolute) return;
  const uri = vscode.Uri.file(absolute);
  const relative = inertUiText(vscode.workspace.asRelativePath(uri), 400);
  const newText = code === '' || code.endsWith('\n') ? code : `${code}\n`;
  const oldText = await currentText(uri);
  if (oldText === newText) {
    void vscode.window.showInformationMessage(vscode.l10n.t("Subchats: {0} already has the code block's content.", relative));
    return;
  }
  await deps.openDiff(absolute, oldText ?? '', newText, vscode.l10n.t('{0} ↔ code block', path.basename(absolute)));
  const apply = vscode.l10n.t('Apply');
  const question =
    oldText === undefined
      ? vscode.l10n.t('Create {0} with the code block? The diff shows the change; the edit can be undone.', relative)
      : vscode.l10n.t('Replace the text of {0} with the code block? The diff shows the change; the edit can be undone.', relative);
  const answer = await vscode.window.showInformationMessage(question, apply);
  if (answer !== apply) return;
  const edit = new vscode.WorkspaceEdit();
  if (oldText === undefined) {
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), newText);
  } else {
    const document = await vscode.workspace.openTextDocument(uri);
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), newText);
  }
  if (!(await vscode.workspace.applyEdit(edit))) {
    warn(vscode.l10n.t('could not apply the code block to {0}.', relative));
    return;
  }
  await vscode.window.showTextDocument(uri, { preview: false });
}
