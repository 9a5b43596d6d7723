// "Subchats: Open Chat as Plain Text" in the real extension host, on a running demo tour: the chat and its
// subagents' chats open as text in a read-only editor beside the chat, and running it again shows it as of now.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import { activateSubchats, sessionOf, startTour, waitFor } from './support/subchats';

describe('open chat as plain text', function () {
  this.timeout(120_000);
  let api: SubchatsApi;
  let connectionId: string;
  let rootId: string;

  before(async () => {
    api = await activateSubchats();
    ({ connectionId, rootId } = await startTour(api));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (api && connectionId && rootId) await api.cancel(connectionId, rootId).catch(() => undefined);
  });

  it('shows the chat and its subagents as text in a read-only document, and again as of now', async () => {
    await vscode.commands.executeCommand('subchats.openChatAsText', { connectionId, sessionId: rootId });
    const document = vscode.window.activeTextEditor?.document;
    assert.ok(document, 'a text editor is open');
    assert.equal(document.uri.scheme, 'subchats-chat');
    assert.equal(document.languageId, 'plaintext');
    const label = sessionOf(api, connectionId, rootId).label;
    const text = document.getText();
    assert.ok(text.startsWith(`Chat: ${label} (`), text.slice(0, 200));
    assert.match(text, /^You:\n {2}Show me the tour$/m);
    assert.match(text, new RegExp(`^Subagent: ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} › Explorer \\(`, 'm'));
    // Not a file nor an untitled buffer: no file system serves its scheme, so VS Code opens it read-only.
    assert.equal(document.isUntitled, false);
    assert.equal(vscode.workspace.fs.isWritableFileSystem('subchats-chat'), undefined);

    // Again later: the same document, with what the chat shows now.
    const before = text.length;
    await waitFor(api, 'more of the tour', () => (sessionOf(api, connectionId, rootId).text.length > 0 ? true : undefined));
    await vscode.commands.executeCommand('subchats.openChatAsText', { connectionId, sessionId: rootId });
    const again = vscode.window.activeTextEditor?.document;
    assert.equal(again?.uri.toString(), document.uri.toString());
    assert.ok((again?.getText().length ?? 0) >= before);
  });
});
