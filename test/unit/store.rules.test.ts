// Hand-written cases for each store rule: patch semantics, tree integrity, held traffic, states and actions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../src/store/sessionStore';
import { announce, text, Wire } from './support/storeFixtures';

test('subagent_update is a three-state patch; capabilities and state replace whole', () => {
  const w = new Wire().newSession('P');
  w.update('P', announce('C', { title: 'Explorer', description: 'Finds things', capabilities: { cancel: {} }, state: { state: 'running' }, additionalDirectories: ['/a'] }));
  assert.equal(w.store.actionsFor('C').cancel.allowed, true);
  w.update('P', announce('C', { description: null }));
  assert.equal(w.session('C').title, 'Explorer', 'omitted keeps');
  assert.equal(w.session('C').description, null, 'null clears');
  w.update('P', announce('C', { capabilities: { _meta: { x: 1 } } }));
  assert.equal(w.store.actionsFor('C').cancel.allowed, false, 'a new capabilities object replaces the old one');
  assert.match(w.store.actionsFor('C').cancel.reason ?? '', /capabilities\.cancel/);
  w.update('P', announce('C', { state: null }));
  assert.equal(w.session('C').state.state, 'unconfirmed', 'null state is unconfirmed, not idle');
  w.update('P', announce('C', { additionalDirectories: [] }));
  assert.deepEqual(w.session('C').additionalDirectories, []);
  w.update('P', announce('C', { state: { state: 'idle', stopReason: { stopReason: 'error', error: { code: -32603, message: 'boom' } } } }));
  assert.equal(w.session('C').state.stopReason, 'error');
  assert.equal(w.session('C').state.error?.message, 'boom');
});

test('a new announcement is unconfirmed until a state is reported; custom states are kept', () => {
  const w = new Wire().newSession('P');
  w.update('P', announce('C'));
  assert.equal(w.session('C').state.state, 'unconfirmed');
  w.update('P', announce('C', { state: { state: '_paused_for_review' } }));
  assert.equal(w.session('C').state.state, '_paused_for_review');
});

test('nesting at any depth, pre-order listing, siblings in first-appearance order', () => {
  const w = new Wire().newSession('R');
  w.update('R', announce('A')).update('R', announce('B')).update('A', announce('A1')).update('A1', announce('A1x'));
  assert.deepEqual(w.store.listSessions().map((s) => s.id), ['R', 'A', 'A1', 'A1x', 'B']);
  assert.equal(w.session('A1x').parentId, 'A1');
});

test('no re-parenting, no cycles, no self-parenting: each is a diagnostic and changes nothing', () => {
  const w = new Wire().newSession('P1').newSession('P2');
  w.update('P1', announce('C', { title: 'first' }));
  w.update('P2', announce('C', { title: 'hijack' }));
  assert.equal(w.session('C').parentId, 'P1');
  assert.equal(w.session('C').title, 'first');
  w.update('C', announce('C'));
  w.update('C', announce('P2'));
  assert.equal(w.session('P2').parentId, null, 'a root the client created is never moved');
  w.update('X', text('agent_message_chunk', 'x'));
  w.update('X', announce('Y'));
  w.update('Y', announce('X'));
  assert.equal(w.session('X').parentId, null);
  assert.deepEqual(w.codes(), ['reparent', 'self-parent', 'reparent', 'cycle']);
  for (const d of w.store.diagnostics) assert.ok(d.line > 0);
});

test('traffic before the announcement is held and attached when the announcement comes', () => {
  const w = new Wire().newSession('P');
  w.update('C', text('agent_message_chunk', 'early words'));
  assert.equal(w.session('C').parentId, null, 'shown, not dropped, while unannounced');
  w.update('P', announce('C', { title: 'Late' }));
  assert.equal(w.session('C').parentId, 'P');
  const first = w.session('C').entries[0];
  assert.equal(first?.kind === 'message' ? first.text : undefined, 'early words');
  assert.deepEqual(w.codes(), ['child-before-announcement']);
  assert.deepEqual(w.store.listSessions().map((s) => s.id), ['P', 'C']);
});

test('older drafts: subagentSessionId/name/task, string states, subagent_spawned; cancel:true is not a grant', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'subagent_update', subagentSessionId: 'C', name: 'Old', task: 'Do it', capabilities: { cancel: true }, state: 'running' });
  assert.equal(w.session('C').title, 'Old');
  assert.equal(w.session('C').description, 'Do it');
  assert.equal(w.session('C').state.state, 'running');
  // The final spec grants a capability only by an object: the September draft's `true` is refused.
  assert.equal(w.store.actionsFor('C').cancel.allowed, false);
  assert.match(w.store.actionsFor('C').cancel.reason ?? '', /did not grant capabilities\.cancel/);
  w.update('P', { sessionUpdate: 'subagent_update', subagentSessionId: 'C', state: 'completed' });
  assert.deepEqual([w.session('C').state.state, w.session('C').state.stopReason], ['idle', 'end_turn']);
  w.update('P', { sessionUpdate: 'subagent_spawned', subagentSessionId: 'D', name: 'Air', task: 't', capabilities: {} });
  w.update('P', { sessionUpdate: 'subagent_state_update', subagentSessionId: 'D', state: 'cancelled' });
  assert.deepEqual([w.session('D').link, w.session('D').state.stopReason], ['subagent_spawned', 'cancelled']);
});

test('a capability is granted only by a non-null, non-array object', () => {
  const hostile: unknown[] = [true, [], [{}], null, false, 1, 'yes', {}];
  const w = new Wire().newSession('P');
  hostile.forEach((cancel, i) => {
    w.update('P', { sessionUpdate: 'subagent_update', subagentSessionId: `C${i}`, name: `c${i}`, capabilities: { cancel }, state: 'running' });
  });
  assert.deepEqual(hostile.map((_, i) => w.store.actionsFor(`C${i}`).cancel.allowed), [false, false, false, false, false, false, false, true]);
});

test('virtual children follow their tool call and end with the parent turn while the call is open', () => {
  const w = new Wire().newSession('P');
  const end = w.prompt('P', 'go');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Agent', kind: 'think', status: 'pending', rawInput: { description: 'Look', prompt: 'look around', subagent_type: 'Explore' }, _meta: { claudeCode: { toolName: 'Agent' } } });
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', kind: 'read', status: 'pending', _meta: { claudeCode: { parentToolUseId: 't1' } } });
  const child = w.session('P#t1');
  assert.equal(child.state.state, 'running');
  assert.equal(child.title, 'Look');
  assert.equal(child.subagentType, 'Explore');
  assert.deepEqual(child.toolCallOrder, ['c1']);
  w.update('P', announce('real', { state: { state: 'running' } }));
  end('cancelled');
  assert.deepEqual([child.state.state, child.state.stopReason], ['idle', 'cancelled'], 'open call ends with the turn');
  assert.equal(w.session('real').state.state, 'running', 'announced children are never inferred from silence');
  assert.deepEqual([w.session('P').state.state, w.session('P').state.stopReason], ['idle', 'cancelled']);
  assert.equal(w.store.actionsFor('P#t1').cancel.allowed, false);
  assert.match(w.store.actionsFor('P#t1').cancel.reason ?? '', /Cancel the parent/);
  assert.equal(w.store.actionsFor('real').prompt.allowed, false);
});

test('qwen self-reference guard: a tool call naming itself as parent stays where it is', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Agent: x', kind: 'other', _meta: { toolName: 'agent' } });
  w.update('P', { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'in_progress', _meta: { parentToolCallId: 'a' } });
  assert.deepEqual(w.session('P').toolCallOrder, ['a']);
  assert.equal(w.store.getSession('P#a#a'), undefined);
});

test('chunks group by messageId, else by adjacency; a tool call breaks adjacency', () => {
  const w = new Wire().newSession('P');
  w.update('P', text('agent_message_chunk', 'a', { messageId: 'm1' }));
  w.update('P', text('agent_thought_chunk', 'think'));
  w.update('P', text('agent_message_chunk', 'b', { messageId: 'm1' }));
  w.update('P', text('agent_message_chunk', 'c'));
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' });
  w.update('P', text('agent_message_chunk', 'd'));
  const messages = w.session('P').entries.filter((e) => e.kind === 'message').map((e) => (e.kind === 'message' ? `${e.role}:${e.text}` : ''));
  assert.deepEqual(messages, ['agent:ab', 'thought:think', 'agent:c', 'agent:d']);
});

test('session_message upserts and chunks append; links are kept', () => {
  const w = new Wire().newSession('P');
  w.update('P', announce('C'));
  w.update('P', { sessionUpdate: 'session_message_chunk', messageId: 'm', content: { type: 'text', text: 'Hel' } });
  w.update('P', { sessionUpdate: 'session_message_chunk', messageId: 'm', content: { type: 'text', text: 'lo' } });
  w.update('P', { sessionUpdate: 'session_message', messageId: 'm', senderSessionId: 'P', recipientSessionId: 'C', recipientMessageId: 'in1' });
  const entry = w.session('P').entries.find((e) => e.kind === 'sessionMessage');
  assert.ok(entry && entry.kind === 'sessionMessage');
  assert.equal(entry.text, 'Hello');
  assert.equal(entry.direction, 'outgoing');
  assert.equal(entry.recipientMessageId, 'in1');
});

test('tool call content of type session is kept as a link', () => {
  const w = new Wire().newSession('P');
  w.update('P', announce('C'));
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'w', title: 'wait', content: [{ type: 'session', sessionId: 'C' }] });
  assert.deepEqual(w.session('P').toolCalls['w']?.content, [{ type: 'session', sessionId: 'C' }]);
});

test('permission from a child: requires_action while pending, outcome recorded', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Agent', _meta: { toolName: 'agent' } });
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'write', title: 'Write f', kind: 'edit', _meta: { parentToolCallId: 'a' } });
  const id = w.agentRequest('session/request_permission', { sessionId: 'P', toolCall: { toolCallId: 'write' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] });
  const child = w.session('P#a');
  assert.equal(w.store.sessionOfAgentRequest(id)?.id, 'P#a', 'the open request is attributed to the child');
  assert.equal(child.state.state, 'requires_action');
  w.clientResult(id, { outcome: { outcome: 'selected', optionId: 'ok' } });
  const entry = child.entries.find((e) => e.kind === 'permission');
  assert.ok(entry?.kind === 'permission' && entry.outcome === 'selected' && entry.optionId === 'ok');
  assert.equal(child.state.state, 'running');
});

test('a permission keeps the kind and command its tool call had when the agent asked; later updates do not change them', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'run', title: 'List the files', kind: 'execute', rawInput: { command: 'ls' } });
  const id = w.agentRequest('session/request_permission', { sessionId: 'P', toolCall: { toolCallId: 'run', rawInput: { command: 'ls -la' } }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] });
  const asked = () => w.session('P').entries.find((e) => e.kind === 'permission');
  const shown = asked();
  assert.ok(shown?.kind === 'permission');
  assert.deepEqual([shown.toolKind, shown.command], ['execute', 'ls -la'], 'the request updated the call before it was shown');
  w.update('P', { sessionUpdate: 'tool_call_update', toolCallId: 'run', title: 'touch x', kind: 'read', rawInput: { command: 'touch x' } });
  w.clientResult(id, { outcome: { outcome: 'selected', optionId: 'ok' } });
  w.update('P', { sessionUpdate: 'tool_call_update', toolCallId: 'run', rawInput: { command: 'rm -rf /' } });
  const entry = asked();
  assert.ok(entry?.kind === 'permission');
  assert.deepEqual([entry.title, entry.toolKind, entry.command], ['List the files', 'execute', 'ls -la']);
});

test("a permission's command: a string or an argv array of strings; anything else is no command", () => {
  for (const [command, kept] of [[['bash', '-lc', 'npm test'], ['bash', '-lc', 'npm test']], [['bash', 3], undefined], [{ line: 'x' }, undefined], [[], undefined], ['  ', undefined], [undefined, undefined]] as const) {
    const w = new Wire().newSession('P');
    w.update('P', { sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', kind: 'execute', rawInput: { command } });
    w.agentRequest('session/request_permission', { sessionId: 'P', toolCall: { toolCallId: 'run' }, options: [] });
    const entry = w.session('P').entries.find((e) => e.kind === 'permission');
    assert.ok(entry?.kind === 'permission');
    assert.deepEqual(entry.command, kept, JSON.stringify(command));
  }
});

test('malformed lines, invalid messages and unknown updates are diagnostics; the store goes on', () => {
  const store = new SessionStore();
  store.ingestLine('{not json', 1);
  store.ingestLine('[1,2]', 2);
  store.ingestLine(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'brand_new_kind' } } }), 3);
  store.ingestLine(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'brand_new_kind' } } }), 4);
  store.ingestLine(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { update: {} } }), 5);
  store.ingestLine(JSON.stringify({ jsonrpc: '2.0', id: 77, result: {} }), 6);
  store.ingestLine(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'still here' } } } }), 7);
  assert.deepEqual(store.diagnostics.map((d) => [d.code, d.line]), [
    ['malformed-line', 1],
    ['invalid-message', 2],
    ['unknown-update', 3],
    ['missing-session', 5],
    ['unmatched-response', 6],
  ]);
  assert.equal(store.getSession('S')?.entries.length, 1);
});

test('disconnect: live sessions show disconnected with their last state, finished ones keep theirs, nothing is removed', () => {
  const w = new Wire().newSession('P');
  w.prompt('P', 'go');
  w.update('P', announce('A', { state: { state: 'running' }, capabilities: { cancel: {} } }));
  w.update('P', announce('B', { state: { state: 'idle', stopReason: 'end_turn' } }));
  w.update('A', text('agent_message_chunk', 'partial'));
  w.store.markDisconnected();
  assert.equal(w.session('A').state.state, 'disconnected');
  assert.equal(w.session('A').state.lastKnown?.state, 'running');
  assert.equal(w.session('B').state.state, 'idle');
  assert.equal(w.session('P').state.state, 'disconnected');
  assert.equal(w.session('A').entries.length, 1);
  assert.equal(w.store.actionsFor('A').cancel.allowed, false);
  assert.match(w.store.actionsFor('P').prompt.reason ?? '', /not connected/);
});

test('session/load: replayed child controls stay off until the agent re-announces after the response', () => {
  const w = new Wire();
  w.store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/load', params: { sessionId: 'P', cwd: '/w', mcpServers: [] } }, 'client->agent');
  w.update('P', announce('C', { capabilities: { cancel: {} }, state: { state: 'running' } }));
  assert.equal(w.store.actionsFor('C').cancel.allowed, false);
  assert.match(w.store.actionsFor('C').cancel.reason ?? '', /history/);
  w.store.ingest({ jsonrpc: '2.0', id: 1, result: {} }, 'agent->client');
  w.update('P', announce('C', { capabilities: { cancel: {} } }));
  assert.equal(w.store.actionsFor('C').cancel.allowed, true);
});

test('listeners get change lists; a throwing listener does not break the store', () => {
  const w = new Wire().newSession('P');
  const seen: string[] = [];
  w.store.onDidChange(() => {
    throw new Error('view bug');
  });
  const sub = w.store.onDidChange((changes) => seen.push(...changes.map((c) => `${c.kind}:${c.sessionId}`)));
  w.update('P', announce('C'));
  assert.ok(seen.includes('tree:C'));
  sub.dispose();
  w.update('P', announce('D'));
  assert.ok(!seen.includes('tree:D'));
});
