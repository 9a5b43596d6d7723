// The Sessions view as activation opens it: the tree view is registered before the stored sessions start loading,
// says "Restoring sessions…" (not "No agent sessions yet", nor VS Code's "There is no data provider registered…")
// while they load, and shows them once loaded. The stored connection's transcript is a named pipe, so loading
// it waits, for as long as the test likes, until the test writes the recorded transcript into it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SessionHistory } from '../../src/history/sessionHistory';
import { SubchatsService } from '../../src/host/subchatsService';
import { EMPTY_KEY, restoringMessage, type SessionTreeNode } from '../../src/views/sessionTreeProvider';
import { openSessionsView } from '../../src/views/sessionsView';
import { extension } from './support/subchats';
import { whenHolds } from '../unit/support/contextMenus';

/** Stands in for the tree view VS Code makes: what the tree sets on it is what the view shows. */
function fakeTreeView() {
  return {
    message: undefined as string | undefined,
    badge: undefined as vscode.ViewBadge | undefined,
    visible: true,
    selection: [] as readonly SessionTreeNode[],
    reveal: async () => undefined,
    dispose: () => undefined,
  };
}

/**
 * Records what the tree says about there being no sessions (setContext of EMPTY_KEY), and keeps it from the window:
 * the key is the running extension's own. Every other command still runs.
 */
function watchEmptyKey(): { readonly values: boolean[]; restore(): void } {
  const commands = vscode.commands as unknown as { executeCommand: (command: string, ...args: unknown[]) => Thenable<unknown> };
  const original = commands.executeCommand;
  const values: boolean[] = [];
  commands.executeCommand = (command, ...args) => {
    if (command !== 'setContext' || args[0] !== EMPTY_KEY) return original.call(vscode.commands, command, ...args);
    values.push(args[1] as boolean);
    return Promise.resolve(undefined);
  };
  return {
    values,
    restore: () => {
      commands.executeCommand = original;
    },
  };
}

describe('the Sessions view on activation', () => {
  let dir: string;
  const disposables: vscode.Disposable[] = [];
  let emptyKey: ReturnType<typeof watchEmptyKey>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'subchats-restore-'));
    emptyKey = watchEmptyKey();
  });

  afterEach(() => {
    emptyKey.restore();
    for (const d of disposables.splice(0)) d.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function service(): SubchatsService {
    const made = new SubchatsService({
      clientHost: () => {
        throw new Error('this test starts no agent');
      },
      workspaceFolders: () => [dir],
    });
    disposables.push(made);
    return made;
  }

  it('is registered before the stored sessions load, says it is restoring while they do, then shows them', async () => {
    const historyDir = join(dir, 'history');
    mkdirSync(historyDir);
    writeFileSync(join(historyDir, 'h1.meta.json'), JSON.stringify({ id: 'h1', agentId: 'claude-code', agentName: 'Claude Code', startedAt: Date.UTC(2026, 10, 30), cwd: '/home/user/project' }));
    const pipe = join(historyDir, 'h1.jsonl');
    execFileSync('mkfifo', [pipe]);
    const history = new SessionHistory(historyDir, 20 * 1024 * 1024);
    const sessions = service();
    const order: string[] = [];
    const view = fakeTreeView();

    const opened = openSessionsView({
      service: sessions,
      createTreeView: (viewId) => {
        order.push(`view ${viewId}`);
        return view;
      },
      restore: async () => {
        order.push('restore');
        const { connections } = await history.load();
        for (const connection of connections) await sessions.addHistory(connection.meta, connection.text);
      },
    });
    disposables.push(opened.tree);

    assert.deepEqual(order, ['view subchats.sessions', 'restore'], 'the view is there before loading starts');
    assert.equal(view.message, restoringMessage());
    assert.deepEqual(opened.tree.getChildren(), [], 'nothing loaded yet');

    // The stored transcript arrives (a recorded Claude chat): the view lists it and stops saying it is restoring.
    await fs.writeFile(pipe, readFileSync(join(extension().extensionPath, 'test/fixtures/traces/claude-single.jsonl'), 'utf8'));
    await opened.restored;
    assert.equal(view.message, undefined);
    assert.deepEqual(emptyKey.values, [false], 'the welcome never says there are no sessions');
    const rows = opened.tree.getChildren();
    const [connection] = rows;
    assert.ok(connection, 'the stored connection is listed');
    assert.equal(opened.tree.getTreeItem(connection).label, 'Claude Code');
    assert.equal(opened.tree.getChildren(connection).length, 1, 'with its chat');
  });

  it('stops saying it is restoring when loading fails', async () => {
    const view = fakeTreeView();
    const opened = openSessionsView({ service: service(), createTreeView: () => view, restore: () => Promise.reject(new Error('unreadable storage')) });
    disposables.push(opened.tree);
    assert.equal(view.message, restoringMessage());
    await assert.rejects(opened.restored, /unreadable storage/);
    assert.equal(view.message, undefined);
    assert.deepEqual(emptyKey.values, [true], 'nothing came back: the welcome says there are no sessions');
  });

  it("the view's welcome says it is restoring, also before the extension runs, and that there are none once none came back", () => {
    const welcome = (extension().packageJSON as { contributes: { viewsWelcome: { view: string; contents: string; when?: string }[] } }).contributes.viewsWelcome;
    const shown = (keys: Record<string, boolean>) => welcome.filter((w) => whenHolds(w.when ?? 'true', { view: 'subchats.sessions', keys })).map((w) => w.contents.split('\n')[0]);
    assert.deepEqual(shown({}), [restoringMessage()], 'before the extension sets anything');
    assert.deepEqual(shown({ [EMPTY_KEY]: false }), [restoringMessage()]);
    assert.deepEqual(shown({ [EMPTY_KEY]: true }), ['No agent sessions yet.']);
  });
});
