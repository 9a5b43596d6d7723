// The chat feed asks the store again only for the actions that may have changed (issue 23 item 7: asking every
// session at every post cost each update the number of sessions in the chat). These check that no change is
// missed: a session's actions follow its own changes, its ancestors' (the relay route) and its descendants'
// (Cancel All Subagents), and a sibling's change leaves them alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatSessionDelta, HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import { controlsAffectedBy } from '../../src/store/sessionControls';
import type { SessionView } from '../../src/store/model';
import { SessionStore } from '../../src/store/sessionStore';
import { ChatFeed } from '../../src/webviews/chatFeed';

const update = (sessionId: string, body: object) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: body } });

/** A root the client opened, with running children A and B (B has a child B1), and the root's chat feed. */
function parentWithChildren() {
  const store = new SessionStore();
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 'root' } }, 'agent->client');
  const child = (parent: string, id: string) =>
    store.ingest(update(parent, { sessionUpdate: 'subagent_update', sessionId: id, title: id, capabilities: { cancel: {} }, state: { state: 'running' } }), 'agent->client');
  child('root', 'A');
  child('root', 'B');
  child('B', 'B1');
  const posted: HostToWebviewMessage[] = [];
  const feed = new ChatFeed(store, 'root', (message) => posted.push(message));
  feed.sendSnapshot();
  feed.ack(store.revision);
  /** The header fields each session's delta carried at the next post. */
  const nextHeaders = (): Map<string, ChatSessionDelta['header']> => {
    posted.length = 0;
    feed.flush();
    feed.ack(store.revision);
    const delta = posted.find((m) => m.type === 'delta');
    return new Map((delta?.type === 'delta' ? delta.sessions : []).map((s) => [s.sessionId, s.header]));
  };
  return { store, feed, nextHeaders };
}

test('the root\'s turn starting changes how its subagents\' messages go (a relay into a running turn): their actions are sent again', () => {
  const { store, feed, nextHeaders } = parentWithChildren();
  assert.equal(store.actionsFor('A').send.route, 'relay');
  const before = store.actionsFor('B1').send.reason;
  store.ingest({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'root', prompt: [{ type: 'text', text: 'go' }] } }, 'client->agent');
  const headers = nextHeaders();
  for (const id of ['A', 'B', 'B1']) {
    assert.deepEqual(headers.get(id)?.actions, store.actionsFor(id), `${id}'s actions follow the root's turn`);
  }
  assert.notEqual(store.actionsFor('B1').send.reason, before);
  feed.dispose();
});

test('a subagent that stops changes its own and its ancestors\' actions, not its sibling\'s', () => {
  const { store, feed, nextHeaders } = parentWithChildren();
  store.ingest(update('B', { sessionUpdate: 'subagent_update', sessionId: 'B1', state: { state: 'idle', stopReason: 'end_turn' } }), 'agent->client');
  const headers = nextHeaders();
  assert.deepEqual(headers.get('B1')?.actions, store.actionsFor('B1'));
  assert.equal(headers.get('A')?.actions, undefined, 'A is not asked: nothing it reads changed');
  // B's Cancel All Subagents has nothing working below it any more.
  assert.deepEqual(headers.get('B')?.actions?.cancelChildren, store.actionsFor('B').cancelChildren);
  assert.equal(store.actionsFor('B').cancelChildren.allowed, false);
  feed.dispose();
});

test('a disconnect withdraws every session\'s actions at the next post', () => {
  const { store, feed, nextHeaders } = parentWithChildren();
  store.markDisconnected();
  const headers = nextHeaders();
  for (const id of ['root', 'A', 'B', 'B1']) assert.equal(headers.get(id)?.actions?.cancel.allowed, false, id);
  feed.dispose();
});

test('the sessions a change may reach: itself, its descendants and ancestors; under a Copilot parent, every session below it', () => {
  const tree: Record<string, { parentId: string | null; childIds: string[] }> = {
    root: { parentId: null, childIds: ['A', 'B'] },
    A: { parentId: 'root', childIds: [] },
    B: { parentId: 'root', childIds: ['B1', 'B2'] },
    B1: { parentId: 'B', childIds: ['B1a'] },
    B1a: { parentId: 'B1', childIds: [] },
    B2: { parentId: 'B', childIds: [] },
  };
  const lookup = (id: string) => (tree[id] ? ({ id, ...tree[id] } as unknown as SessionView) : undefined);
  const sorted = (set: ReadonlySet<string>) => [...set].sort();
  assert.deepEqual(sorted(controlsAffectedBy(['B1'], { lookup })), ['B', 'B1', 'B1a', 'root']);
  assert.deepEqual(sorted(controlsAffectedBy(['root'], { lookup })), ['A', 'B', 'B1', 'B1a', 'B2', 'root']);
  assert.deepEqual(sorted(controlsAffectedBy(['B1'], { lookup, launchedCopilotTasks: (id) => id === 'B' })), ['B', 'B1', 'B1a', 'B2', 'root']);
});

test('sessions a post names come in the panel\'s order whatever order the store named them in, each once', () => {
  const { store, feed } = parentWithChildren();
  const posted: HostToWebviewMessage[] = [];
  const watched = new ChatFeed(store, 'root', (message) => posted.push(message));
  watched.sendSnapshot();
  watched.ack(store.revision);
  const snapshot = posted.find((m) => m.type === 'snapshot');
  const panelOrder = snapshot?.type === 'snapshot' ? snapshot.sessions.map((s) => s.header.id) : [];
  const chunk = (id: string, text: string) => store.ingest(update(id, { sessionUpdate: 'agent_message_chunk', messageId: `m-${id}`, content: { type: 'text', text } }), 'agent->client');
  for (const id of ['root', 'A', 'B', 'B1']) chunk(id, `from ${id}`);
  watched.flush();
  watched.ack(store.revision);
  posted.length = 0;
  // Text added to each message, the deepest child's first, then up to the root: the store names them in that order.
  for (const id of ['B1', 'A', 'B', 'root']) chunk(id, ' and more');
  watched.flush();
  const delta = posted.find((m) => m.type === 'delta');
  const ids = delta?.type === 'delta' ? delta.sessions.map((s) => s.sessionId) : [];
  assert.deepEqual(ids, panelOrder.filter((id) => ids.includes(id)), 'the panel\'s order');
  assert.deepEqual([...ids].sort(), ['A', 'B', 'B1', 'root']);
  watched.dispose();
  feed.dispose();
});
