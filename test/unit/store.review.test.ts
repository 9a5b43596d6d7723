// Regressions found in review: each test failed before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { announce, text, Wire } from './support/storeFixtures';

test('agent-chosen ids like __proto__ never touch Object.prototype', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: '__proto__', title: 'pwned', status: 'pending' });
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'x', _meta: { claudeCode: { parentToolUseId: '__proto__' } } });
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'constructor', title: 'ctor' });
  assert.equal(({} as Record<string, unknown>)['title'], undefined);
  assert.equal(({} as Record<string, unknown>)['childSessionId'], undefined);
  assert.deepEqual(w.session('P').toolCallOrder, ['__proto__', 'constructor']);
  assert.equal(w.session('P').toolCalls['__proto__']?.title, 'pwned');
  assert.equal(w.session('P#__proto__').toolCallOrder[0], 'c');
  w.update('P', announce('K', { state: 'toString' }));
  assert.equal(typeof w.session('K').state.state, 'string');
  assert.equal(w.session('K').state.state, 'toString');
});

test('a session the client never opened gets no root actions (it may be an unannounced child)', () => {
  const w = new Wire().newSession('P');
  w.update('stray', text('agent_message_chunk', 'hello'));
  const actions = w.store.actionsFor('stray');
  assert.equal(actions.prompt.allowed, false);
  assert.equal(actions.close.allowed, false);
  assert.equal(actions.cancel.allowed, false);
  assert.match(actions.prompt.reason ?? '', /did not open/);
  assert.equal(w.store.actionsFor('P').prompt.allowed, true);
});

test('a permission request that fails or is withdrawn ends requires_action', () => {
  const w = new Wire().newSession('P');
  w.prompt('P', 'go');
  const id = w.agentRequest('session/request_permission', { sessionId: 'P', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] });
  assert.equal(w.session('P').state.state, 'requires_action');
  w.store.ingest({ jsonrpc: '2.0', id, error: { code: -32800, message: 'cancelled by the agent' } }, 'client->agent');
  assert.equal(w.session('P').state.state, 'running');
  assert.equal(w.session('P').awaitingUser, 0);
});

test('entry ids are unique within a session, also when a virtual child gets its prompt and a chunk in one message', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Task', rawInput: { prompt: 'do it' } });
  w.update('P', text('agent_message_chunk', 'reply', { _meta: { claudeCode: { parentToolUseId: 't' } } }));
  const ids = w.session('P#t').entries.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, ids.join(', '));
});

test('AgentPool: a parent tool call id used by two sessions does not attach a child to the wrong one', () => {
  const w = new Wire().newSession('A').newSession('B');
  w.update('A', { sessionUpdate: 'tool_call', toolCallId: 'call_0', title: 'explorer: look', status: 'pending' });
  w.update('B', { sessionUpdate: 'tool_call', toolCallId: 'call_0', title: 'grep', status: 'completed' });
  w.update('kid', text('agent_message_chunk', 'working'), { parentToolCallId: 'call_0', subagentType: 'explorer' });
  assert.equal(w.session('kid').parentId, 'A', 'the open call wins');
  w.update('C', { sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'x', status: 'pending' });
  w.update('D', { sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'y', status: 'pending' });
  w.update('kid2', text('agent_message_chunk', 'hm'), { parentToolCallId: 'call_1' });
  assert.equal(w.session('kid2').parentId, null, 'ambiguous: not attached');
  assert.ok(w.codes().includes('ambiguous-parent'));
});

test("a child's effective cwd inherits its parent's while unset", () => {
  const w = new Wire().newSession('P', '/work/repo');
  w.update('P', announce('C', { cwd: '/elsewhere' }));
  w.update('C', announce('G'));
  w.update('P', announce('C', { cwd: null }));
  assert.equal(w.store.effectiveCwd('G'), '/work/repo');
  w.update('P', announce('C', { cwd: '/w2' }));
  assert.equal(w.store.effectiveCwd('G'), '/w2');
});
