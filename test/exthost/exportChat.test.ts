// Subchats: Export Chat as Markdown… on a live demo tour, run as the tree's context menu runs it, with the save
// dialog answered by a file in a temporary folder: the file holds the chat with its subagents nested.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import { activateSubchats, sessionOf, startTour, type TourIds } from './support/subchats';
import { stubSaveDialog, stubWindow } from './support/windowStubs';

describe('Export Chat as Markdown', function () {
  this.timeout(120_000);
  let api: SubchatsApi;
  let tour: { connectionId: string; rootId: string; ids: TourIds };
  let folder: string;

  before(async () => {
    api = await activateSubchats();
    tour = await startTour(api);
    folder = mkdtempSync(join(tmpdir(), 'subchats-export-'));
  });

  after(async () => {
    if (api && tour) await api.cancel(tour.connectionId, tour.rootId).catch(() => undefined);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('writes the chosen chat, its subagents nested where they were spawned, to the file the user picks', async () => {
    const target = vscode.Uri.file(join(folder, 'tour.md'));
    const dialog = stubSaveDialog(() => target);
    const toasts = stubWindow({ showInformationMessage: () => undefined, showErrorMessage: () => undefined });
    try {
      const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('subchats.exportChatMarkdown', { connectionId: tour.connectionId, sessionId: tour.rootId });
      assert.deepEqual(toasts.asked.filter((a) => a.method === 'showErrorMessage'), []);
      assert.equal(written?.toString(), target.toString());
    } finally {
      dialog.restore();
      toasts.restore();
    }
    const root = sessionOf(api, tour.connectionId, tour.rootId);
    const suggested = dialog.asked[0]?.defaultUri;
    assert.ok(suggested, 'the dialog suggests a file');
    assert.match(suggested.path, /\.md$/);
    assert.equal(suggested.path.slice(0, suggested.path.lastIndexOf('/')), vscode.workspace.workspaceFolders?.[0]?.uri.path, 'in the workspace folder');
    assert.ok(toasts.asked.some((a) => a.message.includes(target.fsPath) && a.items.includes('Open')));

    const markdown = readFileSync(target.fsPath, 'utf8');
    const headings = [...markdown.matchAll(/^(#+) (.*)$/gm)].map(([, level, text]) => `${level} ${text}`);
    assert.equal(headings[0], `# ${root.label}`);
    assert.ok(headings.includes('## Subagent: Explorer'), headings.join('\n'));
    assert.ok(headings.includes('### Subagent: Scout'), 'a subagent of a subagent is nested one level deeper');
    assert.ok(headings.includes('## Subagent: Reviewer'));
    assert.ok(headings.indexOf('## Subagent: Explorer') < headings.indexOf('### Subagent: Scout'));
    assert.match(markdown, /^\*\*You\*\* \(\d\d:\d\d:\d\d\)\n\nShow me the tour$/m);
    assert.match(markdown, /^\*\*Permission asked\*\* .*Denied: /m, 'the rejected edit and its answer');
  });

  it('writes nothing when the save dialog is cancelled', async () => {
    const dialog = stubSaveDialog(() => undefined);
    try {
      const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('subchats.exportChatMarkdown', { connectionId: tour.connectionId, sessionId: tour.ids.reviewer });
      assert.equal(written, undefined);
      assert.equal(dialog.asked.length, 1);
      assert.match(dialog.asked[0]!.defaultUri!.path, /\/Reviewer\.md$/, 'the name comes from the session title');
    } finally {
      dialog.restore();
    }
  });
});
