// The contributed commands and menus against what the extension registers and what the session tree
// produces: every `viewItem` when clause is evaluated on tree items of real sessions (a live demo tour, a
// Claude transcript with a virtual child, a finished connection) and agent rows of every status.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import type { RuntimeStatus } from '../../src/host/subchatsService';
import { replayText } from '../../src/store/replayReport';
import { SessionStore } from '../../src/store/sessionStore';
import { runtimeTreeItem } from '../../src/views/runtimeTreeModel';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { activateSubchats, extension, pendingPermissionOf, sessionOf, startTour, waitFor, type TourIds } from './support/subchats';
import { offeredBy, VIEW_ID, whenHolds, type MenuEntry } from '../unit/support/contextMenus';

interface Contributes {
  readonly commands: { command: string; title: string }[];
  readonly menus: Record<string, MenuEntry[]>;
  readonly viewsWelcome: { view: string; contents: string }[];
}

function contributes(): Contributes {
  return (extension().packageJSON as { contributes: Contributes }).contributes;
}

/** The commands the item context menu (and inline actions) offer for a tree item. */
function offered(contextValue: string): string[] {
  return offeredBy(contributes().menus['view/item/context'] ?? [], contextValue);
}

/** What every session row offers: its chat, opened here or beside, or exported as Markdown. */
const open = ['subchats.exportChatMarkdown', 'subchats.openChat', 'subchats.openChatBeside'];

describe('command contributions', function () {
  this.timeout(60_000);

  before(() => activateSubchats());

  it('registers every contributed command and contributes every command it registers', async () => {
    const contributed = contributes().commands.map((c) => c.command).sort();
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('subchats.'));
    // VS Code itself registers focus/visibility commands for the contributed view.
    const own = registered.filter((id) => !id.startsWith(`${VIEW_ID}.`)).sort();
    assert.deepEqual(own, contributed);
    for (const command of contributes().commands) assert.ok(command.title.trim(), `${command.command} has no title`);
  });

  it('menus and welcome links name contributed commands only', () => {
    const contributed = new Set(contributes().commands.map((c) => c.command));
    for (const [menu, entries] of Object.entries(contributes().menus)) {
      for (const entry of entries) assert.ok(contributed.has(entry.command), `${menu} names ${entry.command}, which is not contributed`);
    }
    const links = contributes().viewsWelcome.flatMap((w) => [...w.contents.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!));
    assert.ok(links.length > 0);
    for (const link of links) assert.ok(contributed.has(link), `welcome links ${link}, which is not contributed`);
  });

  it('view title actions show on the session view only (some only while a session filter is on, or off)', () => {
    const states = [false, true].map((filtered) => ({ 'subchats.sessions.filtered': filtered }));
    for (const entry of contributes().menus['view/title'] ?? []) {
      assert.equal(states.some((keys) => whenHolds(entry.when ?? 'true', { view: VIEW_ID, keys })), true, entry.command);
      assert.equal(states.some((keys) => whenHolds(entry.when ?? 'true', { view: 'explorer', keys })), false, entry.command);
    }
  });
});

describe('context menus follow what each tree item allows', function () {
  this.timeout(120_000);
  let api: SubchatsApi;
  let tour: { connectionId: string; rootId: string; ids: TourIds };
  /** A live-looking copy of the tour's connection, rebuilt from its wire transcript. */
  let liveStore: SessionStore;

  before(async () => {
    api = await activateSubchats();
    const started = await startTour(api);
    tour = started;
    await waitFor(api, 'the Reviewer to ask permission', () => pendingPermissionOf(api, tour.connectionId, tour.ids.reviewer));
    await waitFor(api, 'the Scout to run', () => sessionOf(api, tour.connectionId, tour.ids.scout).state === 'running');
    liveStore = storeFrom(api.transcript(tour.connectionId));
  });

  after(async () => {
    if (api && tour) await api.cancel(tour.connectionId, tour.rootId).catch(() => undefined);
  });

  const runtime = (store: SessionStore, status: RuntimeStatus, live: boolean) => ({ id: 'c1', agent: { id: 'demo', name: 'Demo', command: 'node' }, status, live, store });
  const itemFlags = (store: SessionStore, sessionId: string, status: RuntimeStatus = 'ready', live = true) => {
    const item = sessionItemOf(runtime(store, status, live), sessionId, Date.now());
    assert.ok(item, `no tree item for ${sessionId}`);
    return item.contextValue;
  };

  it('a running root: prompt, mode/options, cancel, cancel its subagents, close, open', () => {
    assert.deepEqual(
      offered(itemFlags(liveStore, tour.rootId)),
      [...open, 'subchats.cancel', 'subchats.cancelAllChildren', 'subchats.changeModeOrOption', 'subchats.closeSession', 'subchats.sendPrompt'].sort(),
    );
  });

  it('a cancellable child (Explorer, Scout): cancel and relay, never prompt or close', () => {
    assert.deepEqual(offered(itemFlags(liveStore, tour.ids.explorer)), [...open, 'subchats.cancel', 'subchats.cancelAllChildren', 'subchats.messageChild'].sort());
    assert.deepEqual(offered(itemFlags(liveStore, tour.ids.scout)), [...open, 'subchats.cancel', 'subchats.messageChild'].sort());
  });

  it('a child without capabilities.cancel (Reviewer): relay only', () => {
    assert.deepEqual(offered(itemFlags(liveStore, tour.ids.reviewer)), [...open, 'subchats.messageChild'].sort());
  });

  it('a finished virtual child (Claude, known only through a tool call): open only (nothing can reach it any more)', () => {
    const store = storeFrom(readFileSync(join(extension().extensionPath, 'test/fixtures/traces/claude-single.jsonl'), 'utf8'));
    const virtual = store.listSessions().find((s) => s.origin === 'virtual');
    assert.ok(virtual, 'the Claude trace has no virtual child');
    assert.equal(store.actionsFor(virtual.id).send.route, 'refuse');
    assert.deepEqual(offered(itemFlags(store, virtual.id)), open);
  });

  it('sessions of a finished connection: open only, plus reconnect for a root the agent can reload', () => {
    const store = storeFrom(api.transcript(tour.connectionId));
    store.markDisconnected();
    assert.ok(store.canReconnect, 'the demo agent advertises session/load');
    assert.deepEqual(offered(itemFlags(store, tour.rootId, 'history', false)), [...open, 'subchats.reconnectSession'].sort());
    assert.deepEqual(offered(itemFlags(store, tour.rootId, 'exited', false)), [...open, 'subchats.reconnectSession'].sort());
    assert.deepEqual(offered(itemFlags(store, tour.rootId, 'transcript', false)), open);
    for (const child of Object.values(tour.ids)) assert.deepEqual(offered(itemFlags(store, child, 'history', false)), open, child);
  });

  it('agent rows: restart where the agent can be started again, new session and browsing only while connected', () => {
    const expected: Record<RuntimeStatus, string[]> = {
      starting: ['subchats.exportTranscript'],
      ready: ['subchats.browseAgentSessions', 'subchats.checkAgent', 'subchats.exportTranscript', 'subchats.newSession', 'subchats.restartAgent'],
      exited: ['subchats.checkAgent', 'subchats.exportTranscript', 'subchats.restartAgent'],
      failed: ['subchats.checkAgent', 'subchats.exportTranscript', 'subchats.restartAgent'],
      history: ['subchats.exportTranscript'],
      transcript: ['subchats.exportTranscript'],
    };
    for (const [status, commands] of Object.entries(expected) as [RuntimeStatus, string[]][]) {
      const item = runtimeTreeItem({ ...runtime(new SessionStore(), status, status === 'ready'), cwd: '/w', startedAt: 0, error: undefined }, 0);
      assert.deepEqual(offered(item.contextValue), commands, status);
    }
  });

  const opencodeStore = () => storeFrom(readFileSync(join(extension().extensionPath, 'test/fixtures/recorded-new/opencode-single.jsonl'), 'utf8'));

  it('a finished opencode task child (its own session named, loadSession advertised): open that session, no relay', () => {
    const store = opencodeStore();
    const child = store.listSessions().find((s) => s.parentId !== null)!;
    assert.deepEqual(offered(itemFlags(store, child.id)), [...open, 'subchats.openSubagentSession'].sort());
    assert.ok(!offered(itemFlags(store, child.parentId!)).includes('subchats.cancelAllChildren'), 'the finished root has no subagent to cancel');
  });

  it('a session that changed files offers Open Changes', () => {
    assert.ok(offered(itemFlags(editedStore(), 'E')).includes('subchats.openChanges'));
    assert.ok(!offered(itemFlags(liveStore, tour.ids.explorer)).includes('subchats.openChanges'), 'the Explorer changed nothing');
  });

  it('every viewItem flag a menu tests for is one the tree produces', () => {
    const produced = new Set<string>();
    const opencode = opencodeStore();
    for (const session of opencode.listSessions()) for (const flag of itemFlags(opencode, session.id).split(' ')) produced.add(flag);
    for (const session of liveStore.listSessions()) for (const flag of itemFlags(liveStore, session.id).split(' ')) produced.add(flag);
    const finished = storeFrom(api.transcript(tour.connectionId));
    finished.markDisconnected();
    for (const flag of itemFlags(finished, tour.rootId, 'history', false).split(' ')) produced.add(flag);
    for (const status of ['starting', 'ready', 'exited', 'failed', 'history', 'transcript'] as RuntimeStatus[]) {
      const item = runtimeTreeItem({ ...runtime(new SessionStore(), status, status === 'ready'), cwd: '', startedAt: 0, error: undefined }, 0);
      for (const flag of item.contextValue.split(' ')) produced.add(flag);
    }
    // The tour's root edit is rejected: a session that edited a file shows what a tree item with changes has.
    for (const flag of itemFlags(editedStore(), 'E').split(' ')) produced.add(flag);
    const tested = (contributes().menus['view/item/context'] ?? []).flatMap((e) => [...(e.when ?? '').matchAll(/viewItem =~ \/\\b(\w+)\\b\//g)].map((m) => m[1]!));
    assert.ok(tested.length > 0, 'no viewItem clause found; the pattern above no longer reads package.json');
    for (const flag of tested) assert.ok(produced.has(flag), `menus test viewItem for "${flag}", which no tree item has (${[...produced].join(' ')})`);
  });
});

function storeFrom(text: string): SessionStore {
  const store = new SessionStore();
  replayText(store, text);
  return store;
}

/** A root session whose completed edit changed one file. */
function editedStore(): SessionStore {
  const store = new SessionStore();
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 'E' } }, 'agent->client');
  const update = { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/w/a.md', oldText: null, newText: 'a\n' }] };
  store.ingest({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'E', update } }, 'agent->client');
  return store;
}
