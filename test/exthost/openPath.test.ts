// A path the chat shows opens in real VS Code the way the chat words it: the display rule
// (src/presentation/displayPath.ts), fed the workspace the chat panel sends, turns a file URI from a message
// into the workspace-relative words and the real path; the host's Open File takes that path inside the workspace
// without a question and asks first outside it.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { displayPath } from '../../src/presentation';
import { vscodeWorkbench } from '../../src/webviews/chatWorkbench';
import { WorkspaceFiles, chatWorkspace } from '../../src/webviews/workspaceFiles';
import { stubWindow, type WindowStub } from './support/windowStubs';

describe('paths the chat shows', function () {
  this.timeout(60_000);
  const workbench = vscodeWorkbench({ files: new WorkspaceFiles(), openChat: () => undefined, lastTextEditor: () => undefined, openDiff: async () => undefined });
  let stub: WindowStub | undefined;
  let probeDir = '';
  let outsideDir = '';

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error('the extension-host tests run with a workspace folder');
    probeDir = join(folder, 'paths probe');
    mkdirSync(probeDir, { recursive: true });
    writeFileSync(join(probeDir, 'a b.ts'), 'one\ntwo\nthree\n');
    outsideDir = mkdtempSync(join(tmpdir(), 'subchats-paths-'));
    writeFileSync(join(outsideDir, 'notes.md'), '# notes\n');
  });
  afterEach(async () => {
    stub?.restore();
    stub = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(() => {
    rmSync(probeDir, { recursive: true, force: true });
    rmSync(outsideDir, { recursive: true, force: true });
  });

  it('a file URI from a message reads workspace-relative and opens at its line without a question', async () => {
    const uri = `${pathToFileURL(join(probeDir, 'a b.ts')).href}#L2`;
    const shown = displayPath(uri, chatWorkspace());
    const single = (vscode.workspace.workspaceFolders?.length ?? 0) === 1;
    assert.equal(shown.text, single ? 'paths probe/a b.ts:2' : `${vscode.workspace.workspaceFolders![0]!.name}/paths probe/a b.ts:2`);
    assert.ok(shown.target !== undefined);
    stub = stubWindow({ showWarningMessage: () => undefined });
    await workbench.openFile(shown.target, shown.line, undefined);
    assert.deepEqual(stub.asked, [], 'inside the workspace: no question');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, join(probeDir, 'a b.ts'));
    assert.equal(editor?.selection.active.line, 1, 'line 2');
  });

  it('a path outside the workspace reads as such and asks before it opens', async () => {
    const outside = join(outsideDir, 'notes.md');
    const shown = displayPath(outside, chatWorkspace());
    assert.equal(shown.tooltip, outside);
    assert.ok(shown.target !== undefined);
    stub = stubWindow({ showWarningMessage: () => undefined });
    await workbench.openFile(shown.target, undefined, undefined);
    assert.equal(stub.asked.length, 1);
    assert.equal(stub.asked[0]?.modal, true);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath === outside, false, 'dismissed: not opened');
  });
});
