// Honest ends (#24 item 4): what Subchats announces of subagents, decided from the store's change stream on the
// real store fed with wire messages. A background subagent's reported end is announced once, naming it and its
// parent; silence, quiet and a disconnect are never an end; a subagent that needs the user is announced when no
// visible chat shows it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SubagentEnds, type SubagentNotice } from '../../src/host/subagentEnds';
import { BACKGROUND_QUIET_MS } from '../../src/presentation';
import { SessionStore } from '../../src/store/sessionStore';
import { announce, fixtureText, text, Wire } from './support/storeFixtures';

/** A store fed a fixture's lines with a clock the test moves, and every notice the watch gave, in order. */
function watched(file: string, count?: number, visible: (sessionId: string) => boolean = () => false) {
  let now = 0;
  const store = new SessionStore({ now: () => now });
  const ends = new SubagentEnds(store);
  const notices: (SubagentNotice & { line: number })[] = [];
  let line = 0;
  store.onDidChange((changes) => notices.push(...ends.note(changes, visible).map((notice) => ({ ...notice, line }))));
  const lines = fixtureText('written', file).split('\n');
  for (const text of lines.slice(0, count ?? lines.length)) store.ingestLine(text, ++line);
  return { store, notices, advance: (ms: number) => (now += ms) };
}

const childOf = (store: SessionStore) => store.listSessions().find((s) => s.parentId !== null)!;
const rootOf = (store: SessionStore) => store.listSessions().find((s) => s.parentId === null)!;
const lineOf = (file: string, matches: (text: string) => boolean) => fixtureText('written', file).split('\n').findIndex(matches) + 1;

test('qwen: the background notification ends the background subagent: announced once, naming it and its parent, as Done', () => {
  const file = 'qwen-background.jsonl';
  const { store, notices } = watched(file);
  const child = childOf(store);
  const root = rootOf(store);
  assert.equal(notices.length, 1, 'the root\'s own permission request is not a subagent\'s; the prompt end is not a subagent\'s end');
  assert.deepEqual(notices[0], {
    kind: 'ended',
    sessionId: child.id,
    message: `“Subtask B” (under “${root.label}”) finished: Done`,
    line: lineOf(file, (t) => t.includes('"source":"background_notification"') && t.includes('"status":"completed"')),
  });
  assert.equal(store.getSession(child.id)?.stateHistory.at(-1)?.source, 'agent', 'the agent reported it');
});

test('opencode: the turn opencode starts by itself ends its one background job: announced as Ended', () => {
  const file = 'opencode-background-task.jsonl';
  const { store, notices } = watched(file);
  const child = childOf(store);
  assert.deepEqual(
    notices.map(({ kind, sessionId, message, line }) => ({ kind, sessionId, message, line })),
    [{ kind: 'ended', sessionId: child.id, message: `“Read notes file” (under “${rootOf(store).label}”) finished: Ended`, line: lineOf(file, (t) => t.includes('Background task result received')) }],
  );
});

test('a background subagent whose end is never reported is never announced: not after its parent\'s turn, not after long quiet, not at a disconnect', () => {
  const file = 'opencode-background-task.jsonl';
  const { store, notices, advance } = watched(file, lineOf(file, (t) => t.includes('Background task result received')) - 1);
  const child = childOf(store);
  assert.deepEqual([child.state.state, child.background], ['running', true]);
  advance(10 * BACKGROUND_QUIET_MS);
  const root = rootOf(store);
  store.ingest({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: root.id, update: { sessionUpdate: 'usage_update', used: 200, size: 128000 } } }, 'agent->client');
  assert.deepEqual(notices, []);
  store.markDisconnected();
  assert.equal(store.getSession(child.id)?.state.state, 'disconnected');
  assert.deepEqual(notices, [], 'a disconnect ends nothing the agent reported');
});

test('a background end is not announced while a visible chat shows the subagent', () => {
  // The root's chat is open and visible: it shows the child's card (ChatPanelManager.isSessionVisible says so).
  const { store, notices } = watched('qwen-background.jsonl', undefined, () => true);
  assert.ok(childOf(store));
  assert.deepEqual(notices, []);
});

/** A root with one subagent announced running, watched; `visible` says which sessions a visible chat shows. */
function subagent(visible: (sessionId: string) => boolean = () => false) {
  const w = new Wire();
  w.newSession('R');
  const notices: SubagentNotice[] = [];
  const ends = new SubagentEnds(w.store);
  w.store.onDidChange((changes) => notices.push(...ends.note(changes, visible)));
  const end = w.prompt('R', 'Plan the work');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  return { w, notices, end };
}

test('a foreground subagent\'s end is the turn\'s business: not announced', () => {
  const { w, notices, end } = subagent();
  w.update('R', announce('A', { state: { state: 'idle', stopReason: 'end_turn' } }));
  end('end_turn');
  assert.deepEqual(notices, []);
});

test('a background subagent ended by the agent\'s report (Claude\'s subagent_update) is announced with how it ended', () => {
  const { w, notices, end } = subagent();
  w.record('A').background = true; // as a launch that returned leaves it (markBackground)
  w.update('A', text('agent_message_chunk', 'Still reading…'));
  end('end_turn');
  w.update('R', announce('A', { state: { state: 'idle', stopReason: 'error' } }));
  assert.deepEqual(notices, [{ kind: 'ended', sessionId: 'A', message: `“Explorer” (under “${w.session('R').label}”) finished: Failed` }]);
});

test('a subagent that needs the user while no visible chat shows it is announced once, naming it and its parent', () => {
  const { w, notices } = subagent();
  w.update('R', announce('A', { state: { state: 'requires_action' } }));
  w.update('R', announce('A', { state: { state: 'requires_action' }, title: 'Explorer' }));
  assert.deepEqual(notices, [{ kind: 'needs-you', sessionId: 'A', message: `“Explorer” under “${w.session('R').label}” needs you` }]);
  w.update('R', announce('A', { state: { state: 'running' } }));
  w.update('R', announce('A', { state: { state: 'requires_action' } }));
  assert.equal(notices.length, 2, 'needing the user again is announced again');
});

test('a subagent that needs the user is not announced while a visible chat shows it (its own or an ancestor\'s)', () => {
  const { w, notices } = subagent((sessionId) => sessionId === 'A');
  w.update('R', announce('A', { state: { state: 'requires_action' } }));
  assert.deepEqual(notices, []);
});

test('a subagent\'s permission request is asked by its own notice (naming it and its parent): no second one', () => {
  const { w, notices } = subagent();
  w.agentRequest('session/request_permission', { sessionId: 'A', toolCall: { toolCallId: 't1', title: 'write' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] });
  assert.ok(w.session('A').awaitingUser > 0);
  assert.deepEqual(notices, []);
});

test('the names are agent text: inert in the notice (no command link, no icon)', () => {
  const { w, notices } = subagent();
  w.update('R', announce('A', { title: '[run](command:workbench.action.terminal.new) $(alert)', state: { state: 'requires_action' } }));
  assert.equal(notices.length, 1);
  assert.doesNotMatch(notices[0]!.message, /\]\(command:|\$\(alert\)/);
});
