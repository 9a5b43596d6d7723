// Steering and relays in the store, over the real adapters' recordings and hand-written wire: a steer shows where
// it was sent with how far it got; an echo never shows it twice; a cancelled turn says what it lost; a relay
// shows the user's words in both chats and when the parent passed it on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { relayPromptText } from '../../src/protocol/relayText';
import type { MessageEntry, SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { Wire, announce, replayFixture, replayStepwise } from './support/storeFixtures';

const rootOf = (store: SessionStore): SessionView => store.listSessions().find((s) => s.parentId === null)!;
const userMessages = (session: SessionView): MessageEntry[] => session.entries.filter((e): e is MessageEntry => e.kind === 'message' && e.role === 'user');
const STEER = 'STEER: tell the subagent to also count lines';

test('codex v2: the steer shows once, as sent; the agent\'s user_message_chunk marks it landed instead of a second message', () => {
  const statuses: string[] = [];
  const store = replayStepwise('traces', 'codex-steer-v2-child.jsonl', (s) => {
    const root = s.listSessions().find((session) => session.parentId === null);
    const steer = root && userMessages(root).find((m) => m.steer);
    if (steer && statuses.at(-1) !== steer.steer!.status) statuses.push(steer.steer!.status);
  });
  assert.deepEqual(statuses, ['sending', 'accepted', 'landed']);
  const root = rootOf(store);
  assert.deepEqual(userMessages(root).map((m) => m.text.slice(0, 10)), ['SCENARIO:s', 'STEER: tel']);
  assert.equal(userMessages(root)[1]!.text, STEER);
});

test('codex v1: accepted, and landed only when the agent writes again on the root (after its wait returned)', () => {
  const { store } = replayFixture('traces', 'codex-steer-child.jsonl');
  const steer = userMessages(rootOf(store)).find((m) => m.steer)!;
  assert.equal(steer.text, STEER);
  assert.equal(steer.steer!.status, 'landed');
});

test('codex v1: a steer followed by a cancel of the root is shown as not delivered, its words kept', () => {
  const w = new Wire();
  w.store.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {}, _meta: { steering: { supported: true } } } }, 'agent->client');
  w.newSession('R');
  const end = w.prompt('R', 'delegate');
  assert.equal(w.store.actionsFor('R').send.route, 'steer');
  w.store.ingest({ jsonrpc: '2.0', id: 900, method: '_session/steering', params: { sessionId: 'R', prompt: [{ type: 'text', text: 'also count lines' }] } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 900, result: { outcome: 'injected' } }, 'agent->client');
  w.store.ingest({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'R' } }, 'client->agent');
  end('cancelled');
  const steer = userMessages(w.session('R')).find((m) => m.steer)!;
  assert.equal(steer.text, 'also count lines');
  assert.equal(steer.steer!.status, 'not-delivered');
  assert.match(steer.steer!.reason ?? '', /cancelled before the agent showed that it read/);
});

test('codex idle: promptRequired sends the words as a prompt, shown once; startedNewTurn says the agent started a turn for it', () => {
  const { store } = replayFixture('traces', 'codex-steer-idle.jsonl');
  const steered = userMessages(rootOf(store)).filter((m) => m.text === STEER);
  assert.deepEqual(steered.map((m) => m.steer?.status), ['as-prompt', 'new-turn']);
});

test('claude v1: the steer lands (the agent answers it at once), and the later cancel of the root does not undo that', () => {
  const { store } = replayFixture('traces', 'claude2-steer-cancel.jsonl');
  const steer = userMessages(rootOf(store)).find((m) => m.steer)!;
  assert.equal(steer.steer!.status, 'landed');
});

test('a refused steer is shown as not delivered with the agent\'s words, and the session keeps working', () => {
  const w = new Wire();
  w.newSession('R');
  w.prompt('R', 'go');
  w.store.ingest({ jsonrpc: '2.0', id: 901, method: '_session/steering', params: { sessionId: 'R', prompt: [{ type: 'text', text: 'hello' }] } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 901, error: { code: -32601, message: 'Method not found' } }, 'agent->client');
  const steer = userMessages(w.session('R')).find((m) => m.steer)!;
  assert.deepEqual(steer.steer, { status: 'failed', reason: 'The agent refused it: Method not found' });
  assert.equal(w.session('R').state.state, 'running');
});

test('a relay shows the user\'s words on the parent, marked for the subagent, and a copy in the subagent\'s chat that says when it was passed on', () => {
  const w = new Wire();
  w.newSession('R');
  w.prompt('R', 'go');
  w.update('R', { sessionUpdate: 'subagent_update', sessionId: 'E', title: 'Explorer', capabilities: { cancel: {} }, state: { state: 'running' } });
  const text = relayPromptText({ childLabel: 'Explorer', childId: 'E' }, 'check the docs too');
  w.store.ingest({ jsonrpc: '2.0', id: 902, method: '_session/steering', params: { sessionId: 'R', prompt: [{ type: 'text', text }] } }, 'client->agent');
  const onParent = userMessages(w.session('R')).find((m) => m.relay)!;
  assert.equal(onParent.text, 'check the docs too');
  assert.deepEqual({ ...onParent.relay }, { side: 'parent', childId: 'E', childLabel: 'Explorer', parentId: 'R', parentLabel: 'go' });
  const onChild = () => userMessages(w.session('E')).find((m) => m.relay)!;
  assert.equal(onChild().text, 'check the docs too');
  assert.equal(onChild().relay!.passedOn, undefined);
  w.update('E', { sessionUpdate: 'session_message', messageId: 'm1', senderSessionId: 'R', recipientSessionId: 'E', content: [{ type: 'text', text: 'check the docs too' }] });
  assert.deepEqual(onChild().relay!.passedOn, { at: 1000, how: 'message' });
});

test('relay text that names no known session is still the user\'s words on the parent, with nothing added elsewhere', () => {
  const w = new Wire();
  w.newSession('R');
  w.prompt('R', relayPromptText({ childLabel: 'Gone "one"', childId: 'nope' }, 'hello'));
  const message = userMessages(w.session('R'))[0]!;
  assert.equal(message.text, 'hello');
  assert.equal(message.relay?.childLabel, 'Gone "one"');
  assert.equal(w.store.listSessions().length, 1);
});

test('claude v1: the steer moves the running subagent to the background; both chats say that cancelling the root no longer stops it', () => {
  const { store } = replayFixture('traces', 'claude2-steer-child.jsonl');
  const root = rootOf(store);
  const child = store.listSessions().find((s) => s.parentId === root.id)!;
  const said = (session: SessionView) => session.entries.flatMap((e) => (e.kind === 'notice' ? [`${e.title}: ${e.description ?? ''}`] : []));
  assert.match(said(child).join('\n'), /moved to the background after you steered "Fake session"\. It keeps working, and cancelling "Fake session" does not stop it\. To stop it, cancel "Read notes file slowly" itself\./);
  assert.match(said(root).join('\n'), /"Read notes file slowly" moved to the background/);
  assert.deepEqual(child.state, { state: 'idle', stopReason: 'end_turn' });
  assert.equal(child.background, false, 'its reported end ends the background run');
});

test('relay text in a subagent\'s task prompt (the agent\'s words) is not taken for a relay the user sent', () => {
  const w = new Wire();
  w.newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('E', { title: 'Explorer', prompt: relayPromptText({ childLabel: 'Explorer', childId: 'E' }, 'forged') }));
  const message = userMessages(w.session('E'))[0]!;
  assert.equal(message.relay, undefined);
  assert.match(message.text, /^\[Relay for your subagent/);
});
