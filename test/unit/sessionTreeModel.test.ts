// Tree mapping: labels, state icons, descriptions, and gating encoded in contextValue (what menus offer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineCode, parseSessionNodeId, sessionItemOf, sessionNodeId, sessionTreeItem } from '../../src/views/sessionTreeModel';
import type { SessionStore } from '../../src/store/sessionStore';
import { itemMenusOnDisk, offeredBy } from './support/contextMenus';
import { isReconnectable } from '../../src/host/reconnect';
import { recentHistoryIds, runtimeTreeItem } from '../../src/views/runtimeTreeModel';
import type { SessionStateInfo } from '../../src/store/model';
import { announce, replayFixture, Wire } from './support/storeFixtures';
import { clockTime } from '../../src/presentation';

function itemFor(w: Wire, id: string, live = true) {
  return sessionTreeItem(w.session(id), { agentName: 'Demo', connectionId: 'c1', actions: w.store.actionsFor(id), now: 61_000, live, reconnectable: false, ancestry: [] });
}

/** The `viewItem =~ /\bflag\b/` test VS Code applies to the menus in package.json. */
function offers(contextValue: string, flag: string): boolean {
  return new RegExp(`\\b${flag}\\b`).test(contextValue);
}

test('gating: a root offers cancel and prompt; a child with cancel offers cancel only; without it, nothing', () => {
  const w = new Wire().newSession('R');
  assert.ok(!offers(itemFor(w, 'R').contextValue, 'canCancel'), 'an idle root has nothing to cancel');
  w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', capabilities: { cancel: {} }, state: { state: 'running' } }));
  w.update('R', announce('B', { title: 'Reviewer', capabilities: {}, state: { state: 'running' } }));
  const root = itemFor(w, 'R');
  const a = itemFor(w, 'A');
  const b = itemFor(w, 'B');
  assert.ok(offers(root.contextValue, 'canCancel') && offers(root.contextValue, 'canPrompt') && offers(root.contextValue, 'hasChildren'));
  assert.ok(offers(a.contextValue, 'canCancel') && offers(a.contextValue, 'child') && !offers(a.contextValue, 'canPrompt'));
  assert.ok(!offers(b.contextValue, 'canCancel') && offers(b.contextValue, 'noCancel'));
  assert.match(b.tooltip, /Cancel: This subagent does not accept cancel/);
  const offline = itemFor(w, 'A', false);
  assert.ok(offers(offline.contextValue, 'history') && !offers(offline.contextValue, 'live'));
});

test('virtual children never offer cancel and say why', () => {
  const { store, snapshot } = replayFixture('traces', 'claude-single.jsonl');
  const child = store.getSession(snapshot.sessions[1]!.id)!;
  const item = sessionTreeItem(child, { agentName: 'Claude', connectionId: 'c1', actions: store.actionsFor(child.id), now: 0, live: true, reconnectable: false, ancestry: ['root'] });
  assert.ok(!offers(item.contextValue, 'canCancel'));
  assert.ok(offers(item.contextValue, 'virtual'));
  assert.match(item.tooltip, /only visible through its parent/);
  assert.match(item.tooltip, /Parent: root/);
});

test('the label is the store\'s; descriptions show state, time and counts', () => {
  const w = new Wire().newSession('R');
  w.update('R', announce('A', { description: 'Finds things', state: { state: 'running' } }));
  w.record('A').label = 'Finds things';
  assert.equal(itemFor(w, 'A').label, 'Finds things');
  w.record('A').label = 'Explore';
  assert.equal(itemFor(w, 'A').label, 'Explore', 'whatever the store computed, never a name of its own');
  w.update('A', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'grep' });
  // At work: when it started, a text that stays the same from one second to the next (no refresh every second).
  const started = clockTime(w.session('A').createdAt);
  assert.equal(itemFor(w, 'A').description, `Running · since ${started} · 1 tool`);
  assert.equal(sessionTreeItem(w.session('A'), { agentName: 'Demo', connectionId: 'c1', actions: w.store.actionsFor('A'), now: 125_000, live: true, reconnectable: false, ancestry: [] }).description, `Running · since ${started} · 1 tool`);
  // Done: how long it took.
  w.record('A').state = { state: 'idle', stopReason: 'end_turn' };
  assert.match(itemFor(w, 'A').description, /^Done · \d+(s|m \d+s) · 1 tool$/);
});

test('a row at work or waiting on the user shows the same text, tooltip included, from one second to the next', () => {
  // VS Code refreshes a row whose text changed, and while it does a context-menu command on a row below gets no
  // session (microsoft/vscode#144250): the Cancel Session of a subagent asked "Cancel which session?" instead.
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  w.update('R', announce('B', { title: 'Reviewer', state: { state: 'requires_action' } }));
  const at = (id: string, now: number) => sessionTreeItem(w.session(id), { agentName: 'Demo', connectionId: 'c1', actions: w.store.actionsFor(id), now, live: true, reconnectable: false, ancestry: [] });
  for (const id of ['R', 'A', 'B']) {
    const [before, after] = [at(id, w.session(id).createdAt + 2_000), at(id, w.session(id).createdAt + 65_000)];
    assert.deepEqual(after, before, `${id} reads the same a minute later`);
  }
  const since = clockTime(w.session('A').timeSpent?.since ?? 0);
  assert.match(at('A', 0).tooltip, new RegExp(`Time: working since ${since.replace(/:/g, '\\\\?:')}`), at('A', 0).tooltip);
  assert.match(at('B', 0).tooltip, /Time: waiting on you since \d\d\\?:\d\d\\?:\d\d/, at('B', 0).tooltip);
});

test('state icons and labels come from the shared presentation, with colours and spinning', () => {
  const w = new Wire().newSession('R');
  const cases: [SessionStateInfo, string, string | undefined, RegExp][] = [
    [{ state: 'running' }, 'loading~spin', undefined, /^Running · /],
    [{ state: 'requires_action' }, 'bell-dot', 'notificationsWarningIcon.foreground', /^Needs you · /],
    [{ state: 'idle', stopReason: 'end_turn' }, 'pass', 'testing.iconPassed', /^Done · /],
    [{ state: 'idle', stopReason: 'cancelled' }, 'circle-slash', 'disabledForeground', /^Cancelled · /],
    [{ state: 'idle', stopReason: 'error' }, 'error', 'errorForeground', /^Failed · /],
    [{ state: 'unconfirmed' }, 'question', undefined, /^Not reported · /],
    [{ state: 'unknown' }, 'question', undefined, /^Unknown · /],
    [{ state: 'disconnected', lastKnown: { state: 'running' } }, 'debug-disconnect', 'disabledForeground', /^Disconnected \(last: Running\) · /],
  ];
  for (const [state, icon, color, description] of cases) {
    w.record('R').state = state;
    const item = itemFor(w, 'R');
    assert.equal(item.icon, icon, JSON.stringify(state));
    assert.equal(item.iconColor, color, JSON.stringify(state));
    assert.match(item.description, description);
  }
  w.record('R').state = { state: 'running' };
  w.record('R').cancelRequestedAt = 61_000;
  assert.match(itemFor(w, 'R').description, /^Cancelling… · /);
});

test('the tooltip says what was reported about the state and when', () => {
  const w = new Wire().newSession('R');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  w.update('R', announce('A', { state: { state: 'idle', stopReason: 'cancelled' } }));
  const tooltip = itemFor(w, 'A').tooltip;
  assert.match(tooltip, /State: Cancelled/);
  // Raw markdown: the tooltip escapes punctuation (`\:`), which renders as `:`.
  assert.match(tooltip, /reported cancelled \d\d\\?:\d\d\\?:\d\d/, tooltip);
});

test('node ids are stable and round-trip session ids containing separators', () => {
  const id = sessionNodeId('c7', 'parent:subagent:thread|x#call');
  assert.deepEqual(parseSessionNodeId(id), { connectionId: 'c7', sessionId: 'parent:subagent:thread|x#call' });
});

test('agent connection items say their status and offer restart when it makes sense', () => {
  const w = new Wire().newSession('R');
  const base = { id: 'c1', agent: { id: 'demo', name: 'Demo', command: 'node' }, error: undefined, startedAt: 0, cwd: '/w', store: w.store };
  const ready = runtimeTreeItem({ ...base, status: 'ready' }, 0);
  assert.match(ready.description, /connected · 1 session/);
  assert.ok(offers(ready.contextValue, 'live') && offers(ready.contextValue, 'restartable'));
  const exited = runtimeTreeItem({ ...base, status: 'exited', error: 'Agent "Demo" exited with code 1' }, 0);
  assert.ok(offers(exited.contextValue, 'restartable') && !offers(exited.contextValue, 'live'));
  assert.match(exited.tooltip, /exited with code 1/);
  assert.ok(!offers(runtimeTreeItem({ ...base, status: 'transcript' }, 0).contextValue, 'restartable'));
});

test('the newest connections restored from history start expanded, older ones collapsed', () => {
  const w = new Wire().newSession('R');
  const at = (id: string, startedAt: number, status: 'history' | 'ready' = 'history') => ({ id, agent: { id: 'demo', name: 'Demo', command: 'node' }, error: undefined, startedAt, cwd: '/w', store: w.store, status });
  const runtimes = [at('h1', 1), at('h2', 2), at('live', 3, 'ready'), at('h3', 3), at('h4', 4), at('h0', 0)];
  assert.deepEqual([...recentHistoryIds(runtimes)].sort(), ['h2', 'h3', 'h4']);
  assert.equal(runtimeTreeItem(at('h4', 4), 5, { recentHistory: true }).expanded, true);
  assert.equal(runtimeTreeItem(at('h0', 0), 5).expanded, false);
  assert.equal(runtimeTreeItem(at('live', 3, 'ready'), 5).expanded, true);
});

test('a live root starts expanded before its first prompt, so children spawned later show without a reveal', () => {
  // VS Code keeps the collapsed state it saw first for an id; a root first seen as a leaf would stay collapsed.
  const w = new Wire().newSession('R');
  const fresh = itemFor(w, 'R');
  assert.ok(fresh.collapsible && fresh.expanded);
  const history = itemFor(w, 'R', false);
  assert.ok(!history.collapsible, 'a childless root of a finished connection has no twistie');
});

test('agent-chosen ids cannot break out of their code spans in tooltips', () => {
  const w = new Wire().newSession('R');
  const hostile = 'x` [click](command:subchats.deleteHistory) `';
  w.update('R', announce(hostile, { cwd: '/tmp/`](http://evil)' }));
  const item = sessionTreeItem(w.session(hostile), { agentName: 'A', connectionId: 'c', actions: w.store.actionsFor(hostile), now: 0, live: true, reconnectable: false, ancestry: [] });
  assert.ok(item.tooltip.includes('`` x` [click](command:subchats.deleteHistory) ` ``'), item.tooltip);
  assert.equal(inlineCode('plain'), '` plain `');
});

test('only finished roots this client opened are reconnectable; never children or sessions seen in traffic', () => {
  const { store, snapshot } = replayFixture('traces', 'claude2-single.jsonl');
  const finished = { live: false, status: 'history', store };
  assert.equal(store.canReconnect, true, 'the trace advertises loadSession');
  assert.equal(isReconnectable(finished, store.getSession(snapshot.sessions[0]!.id)!), true);
  assert.equal(isReconnectable(finished, store.getSession(snapshot.sessions[1]!.id)!), false, 'a child');
  assert.equal(isReconnectable({ ...finished, live: true }, store.getSession(snapshot.sessions[0]!.id)!), false, 'still live');
  assert.equal(isReconnectable({ ...finished, status: 'transcript' }, store.getSession(snapshot.sessions[0]!.id)!), false, 'a read-only transcript');
  const stray = new Wire();
  stray.update('S', announce('C'));
  assert.equal(isReconnectable({ live: false, status: 'history', store: { canReconnect: true } }, stray.session('S')), false, 'never opened by the client');
});

/** The context menu package.json offers on a session's row, as the sidebar builds it for a live connection. */
function menuOf(store: SessionStore, sessionId: string): string[] {
  const runtime = { id: 'c1', agent: { id: 'demo', name: 'Demo', command: 'demo' }, live: true, status: 'ready' as const, store };
  return offeredBy(itemMenusOnDisk(), sessionItemOf(runtime, sessionId, 61_000)!.contextValue);
}

test('menus offer only what can act: Cancel All Subagents while a subagent below takes a cancel, Message Subagent while a message reaches it', () => {
  for (const name of ['opencode-single.jsonl', 'gemini-single.jsonl']) {
    const { store } = replayFixture('recorded-new', name);
    const root = store.listSessions().find((s) => s.parentId === null)!;
    const child = store.listSessions().find((s) => s.parentId !== null)!;
    assert.ok(!menuOf(store, root.id).includes('subchats.cancelAllChildren'), `${name}: a finished root has no subagent to cancel`);
    assert.ok(!menuOf(store, child.id).includes('subchats.messageChild'), `${name}: nothing reaches a finished opaque child`);
  }
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('B', { title: 'Reviewer', capabilities: {}, state: { state: 'running' } }));
  assert.ok(!menuOf(w.store, 'R').includes('subchats.cancelAllChildren'), 'its one working subagent does not accept cancel');
  assert.ok(menuOf(w.store, 'B').includes('subchats.messageChild'), 'a relay through the running parent reaches it');
  w.update('R', announce('A', { title: 'Explorer', capabilities: { cancel: {} }, state: { state: 'running' } }));
  assert.ok(menuOf(w.store, 'R').includes('subchats.cancelAllChildren'));
});
