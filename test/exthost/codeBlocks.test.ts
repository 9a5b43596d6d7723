// A code block's actions in real VS Code: Insert at Cursor edits the text editor the user was in last,
// Insert into Terminal types the code without running it (several lines arrive as one bracketed paste), and
// Apply writes a file only after the user says so: outside the workspace after a modal, always after the diff.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { applyToFile, insertAtCursor, insertIntoTerminal, type CodeBlockDeps } from '../../src/webviews/codeBlockActions';
import { stubWindow, type WindowStub } from './support/windowStubs';

/** An extension terminal that records what reaches its shell; `bracketed` asks for bracketed paste as shells do. */
function recordingTerminal(bracketed: boolean): { terminal: vscode.Terminal; input: string[]; next(): Promise<string> } {
  const input: string[] = [];
  const waiting: ((data: string) => void)[] = [];
  const write = new vscode.EventEmitter<string>();
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    open: () => write.fire(bracketed ? '$ \x1b[?2004h' : '$ '),
    close: () => undefined,
    handleInput: (data) => {
      input.push(data);
      waiting.shift()?.(data);
    },
  };
  const terminal = vscode.window.createTerminal({ name: 'Code block test', pty });
  return { terminal, input, next: () => new Promise((resolve) => waiting.push(resolve)) };
}

describe('code block actions', function () {
  this.timeout(60_000);
  let stub: WindowStub | undefined;
  let folder = '';
  const diffs: string[] = [];
  let lastEditor: vscode.TextEditor | undefined;
  const deps: CodeBlockDeps = {
    lastTextEditor: () => lastEditor,
    openDiff: async (filePath, oldText, newText, title) => void diffs.push(`${title}: ${JSON.stringify(oldText)} -> ${JSON.stringify(newText)} (${filePath})`),
  };

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'subchats-code-'));
  });
  afterEach(async () => {
    stub?.restore();
    stub = undefined;
    diffs.length = 0;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('Insert at Cursor replaces the selection of the editor the user was in last, without the block\'s final line break', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'const a = ;\n' });
    lastEditor = await vscode.window.showTextDocument(document);
    lastEditor.selection = new vscode.Selection(0, 10, 0, 10);
    await insertAtCursor(deps, '42\n');
    assert.equal(document.getText(), 'const a = 42;\n');
  });

  it('Insert at Cursor with no editor shown says so and edits nothing', async () => {
    lastEditor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'kept\n' }));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    stub = stubWindow({ showWarningMessage: () => undefined });
    await insertAtCursor(deps, 'lost');
    assert.match(stub.asked[0]?.message ?? '', /there is no text editor to insert into/);
    assert.equal(vscode.window.visibleTextEditors.length, 0);
    assert.equal(vscode.workspace.textDocuments.some((d) => d.getText().includes('lost')), false);
  });

  it('Insert into Terminal types one line without running it, and several lines as one bracketed paste', async () => {
    await vscode.workspace.getConfiguration('terminal.integrated').update('enableMultiLinePasteWarning', 'never', vscode.ConfigurationTarget.Global);
    const { terminal, next } = recordingTerminal(true);
    terminal.show();
    const opened = await new Promise<vscode.Terminal>((resolve) => {
      if (vscode.window.activeTerminal === terminal) resolve(terminal);
      const listener = vscode.window.onDidChangeActiveTerminal((t) => t === terminal && (listener.dispose(), resolve(t)));
    });
    assert.equal(opened, terminal);
    let arrived = next();
    await insertIntoTerminal('npm test\n');
    assert.equal(await arrived, 'npm test', 'no line end: the shell does not run it');
    arrived = next();
    await insertIntoTerminal('npm ci\nnpm test\n');
    assert.equal(await arrived, '\x1b[200~npm ci\rnpm test\x1b[201~');
    terminal.dispose();
  });

  it('Apply outside the workspace asks first (modal), then shows the diff and writes only on Apply', async () => {
    const target = join(folder, 'greet.ts');
    stub = stubWindow({ showWarningMessage: () => undefined });
    await applyToFile(deps, target, 'export const greet = 1;', undefined);
    assert.equal(stub.asked.length, 1);
    assert.equal(stub.asked[0]?.modal, true);
    assert.equal(stub.asked[0]?.detail, target);
    assert.deepEqual(diffs, [], 'no diff before the user allowed the file');
    stub.restore();

    stub = stubWindow({ showWarningMessage: (asked) => asked.items[0], showInformationMessage: () => undefined });
    await applyToFile(deps, target, 'export const greet = 1;', undefined);
    assert.equal(diffs.length, 1);
    assert.match(stub.asked.at(-1)?.message ?? '', /^Create .*greet\.ts with the code block\?/);
    assert.equal(vscode.workspace.textDocuments.some((d) => d.uri.fsPath === target), false, 'dismissed: nothing written');
    stub.restore();

    stub = stubWindow({ showWarningMessage: (asked) => asked.items[0], showInformationMessage: (asked) => asked.items[0] });
    await applyToFile(deps, target, 'export const greet = 1;', undefined);
    const written = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === target);
    assert.equal(written?.getText(), 'export const greet = 1;\n');
    assert.equal(written?.isDirty, true, 'an edit of the document (auto-save is off here), for the user to save or undo');
    await vscode.window.showTextDocument(written!);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.equal(written?.isDirty, false, 'reverted');
  });
});
