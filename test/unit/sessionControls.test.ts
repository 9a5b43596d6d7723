// The session controller's rules (src/store/sessionControls.ts) on a real store fed wire messages: the phase of a
// turn, what a message becomes in each phase, relays through the parent, and Copilot's question before a prompt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Wire, announce, replayFixture, text } from './support/storeFixtures';

function steeringWire(steering: boolean): Wire {
  const w = new Wire();
  w.store.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {}, ...(steering ? { _meta: { steering: { supported: true } } } : {}) } }, 'agent->client');
  w.newSession('R');
  return w;
}

const verdict = (w: Wire, id: string) => {
  const a = w.store.actionsFor(id);
  return { phase: a.phase, busy: a.busy, route: a.send.route, cancel: a.cancel.allowed };
};

test('a root through a turn: idle → starting → running → awaiting-user → cancelling → idle, and what a message becomes in each', () => {
  for (const steering of [false, true]) {
    const w = steeringWire(steering);
    const during = steering ? 'steer' : 'queue';
    assert.deepEqual(verdict(w, 'R'), { phase: 'idle', busy: false, route: 'prompt', cancel: false });
    const end = w.prompt('R', 'go');
    assert.deepEqual(verdict(w, 'R'), { phase: 'starting', busy: true, route: during, cancel: true });
    w.update('R', text('agent_message_chunk', 'working'));
    assert.deepEqual(verdict(w, 'R'), { phase: 'running', busy: true, route: during, cancel: true });
    const ask = w.agentRequest('session/request_permission', { sessionId: 'R', toolCall: { toolCallId: 't' }, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }] });
    assert.deepEqual(verdict(w, 'R'), { phase: 'awaiting-user', busy: true, route: during, cancel: true });
    w.clientResult(ask, { outcome: { outcome: 'selected', optionId: 'y' } });
    w.store.ingest({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'R' } }, 'client->agent');
    // A message into a turn being cancelled would be lost: it waits, even where the agent steers.
    assert.deepEqual(verdict(w, 'R'), { phase: 'cancelling', busy: true, route: 'queue', cancel: false });
    end('cancelled');
    assert.deepEqual(verdict(w, 'R'), { phase: 'idle', busy: false, route: 'prompt', cancel: false });
  }
});

test('a turn the agent started itself never holds a message back: sent at once, or steered where the agent steers', () => {
  for (const steering of [false, true]) {
    const w = steeringWire(steering);
    w.prompt('R', 'go')('end_turn');
    w.update('R', text('agent_message_chunk', 'Background task result received'));
    const controls = w.store.actionsFor('R');
    assert.equal(controls.phase, 'agent-started');
    assert.equal(controls.send.route, steering ? 'steer' : 'prompt');
    assert.equal(controls.queue.allowed, false, 'nothing to wait for');
    assert.equal(controls.cancel.allowed, true, 'the agent may still be working: stopping it is allowed');
  }
});

test('a queue that is not empty keeps the order: an idle session\'s next message goes behind it', () => {
  const w = steeringWire(false);
  w.store.enqueue('R', { id: 'q1', text: 'first', attachments: 0, at: 0, content: [{ type: 'text', text: 'first' }] });
  assert.equal(w.store.actionsFor('R').send.route, 'queue');
  assert.equal(w.store.unqueue('R', 'q1')?.text, 'first');
  assert.equal(w.store.actionsFor('R').send.route, 'prompt');
});

test('a subagent\'s message is a relay through the parent, by the parent\'s route; none where the parent cannot take it', () => {
  const w = steeringWire(true);
  w.prompt('R', 'go');
  w.update('R', announce('E', { title: 'Explorer', capabilities: { cancel: {} }, state: { state: 'requires_action' } }));
  const child = w.store.actionsFor('E');
  assert.deepEqual([child.phase, child.cancel.allowed, child.prompt.allowed, child.relay.allowed], ['awaiting-user', true, false, true]);
  assert.equal(child.send.route, 'relay');
  assert.deepEqual(child.send.via, { sessionId: 'R', label: 'go' });
  assert.match(child.send.reason, /joins the parent's running turn/);
  w.store.markDisconnected();
  const gone = w.store.actionsFor('E');
  assert.equal(gone.send.route, 'refuse');
  assert.match(gone.send.reason, /not connected/);
});

test('an ended subagent seen only through its parent\'s tool call cannot be reached; a running one can', () => {
  const w = steeringWire(false);
  w.prompt('R', 'go');
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'task1', title: 'Read notes', kind: 'think', status: 'in_progress', _meta: { claudeCode: { toolName: 'Agent' } } });
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', kind: 'read', status: 'in_progress', _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'task1' } } });
  const child = w.store.listSessions().find((s) => s.parentId === 'R')!;
  assert.equal(child.origin, 'virtual');
  assert.equal(w.store.actionsFor(child.id).send.route, 'relay');
  w.update('R', { sessionUpdate: 'tool_call_update', toolCallId: 'task1', status: 'completed' });
  const ended = w.store.actionsFor(child.id);
  assert.equal(ended.send.route, 'refuse');
  assert.match(ended.send.reason, /has ended/);
});

test('Copilot: a prompt to a session whose background subagents still run asks first, naming them', () => {
  const w = steeringWire(false);
  w.prompt('R', 'go')('end_turn');
  // A Copilot subagent launched in the background ("started in background"), still working.
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'task1', title: 'Explore the repo', kind: 'other', status: 'in_progress', rawInput: { agent_type: 'explore', prompt: 'look', description: 'Explore the repo', mode: 'background' } });
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'List files', kind: 'read', status: 'in_progress', _meta: { 'github.com/copilot': { agentId: 'agent-1' } } });
  const sub = w.store.listSessions().find((s) => s.parentId === 'R');
  assert.ok(sub, 'the Copilot subagent is known');
  // Copilot reports the launch as "started in background"; set here as that dialect leaves it (see store.copilot tests).
  w.record(sub.id).background = true;
  const send = w.store.actionsFor('R').send;
  assert.equal(send.route, 'prompt');
  assert.match(send.confirm ?? '', /stops all background subagents.*"Explore the repo"/);
});

test('Cancel All Subagents acts only while some subagent below can be cancelled now; otherwise it says why', () => {
  const w = steeringWire(false);
  const children = () => w.store.actionsFor('R').cancelChildren;
  assert.equal(children().allowed, false);
  assert.match(children().reason ?? '', /has no subagents/);
  w.prompt('R', 'go');
  // A working child without capabilities.cancel, and one known only through the parent's tool call: never cancellable.
  w.update('R', announce('N', { title: 'Reviewer', capabilities: {}, state: { state: 'running' } }));
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'task1', title: 'Read notes', kind: 'think', status: 'in_progress', _meta: { claudeCode: { toolName: 'Agent' } } });
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', kind: 'read', status: 'in_progress', _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'task1' } } });
  assert.equal(children().allowed, false, 'no working subagent takes a cancel');
  assert.match(children().reason ?? '', /None of the working subagents of "go" can be cancelled.*does not accept cancel/);
  // A grandchild that takes a cancel, below the child that does not: a descendant counts.
  w.update('N', announce('G', { title: 'Grandchild', capabilities: { cancel: {} }, state: { state: 'running' } }));
  assert.equal(children().allowed, true);
  assert.equal(w.store.actionsFor('N').cancelChildren.allowed, true);
  // Once that cancel is out, nothing is left to cancel; the reason is the first working subagent's.
  w.cancel('G');
  assert.equal(children().allowed, false);
  assert.match(children().reason ?? '', /"Reviewer": This subagent does not accept cancel/);
  assert.match(w.store.actionsFor('N').cancelChildren.reason ?? '', /Cancelling "Grandchild" already/);
  // Every subagent finished: nothing to cancel.
  w.update('N', announce('G', { state: { state: 'idle', stopReason: 'cancelled' } }));
  w.update('R', announce('N', { state: { state: 'idle', stopReason: 'end_turn' } }));
  w.update('R', { sessionUpdate: 'tool_call_update', toolCallId: 'task1', status: 'completed' });
  assert.equal(children().allowed, false);
  assert.match(children().reason ?? '', /no subagent of "go" is working/);
  w.store.markDisconnected();
  assert.match(children().reason ?? '', /not connected/);
});

test('finished opaque children (opencode task, gemini invoke_agent): their roots offer no Cancel All Subagents, and no message reaches them', () => {
  for (const name of ['opencode-single.jsonl', 'gemini-single.jsonl']) {
    const { store } = replayFixture('recorded-new', name);
    const root = store.listSessions().find((s) => s.parentId === null)!;
    const child = store.listSessions().find((s) => s.parentId !== null)!;
    assert.equal(child.link, 'opaque-tool', name);
    const rootActions = store.actionsFor(root.id);
    assert.equal(rootActions.cancelChildren.allowed, false, name);
    assert.match(rootActions.cancelChildren.reason ?? '', /Nothing to cancel: no subagent of .* is working/, name);
    const childActions = store.actionsFor(child.id);
    assert.equal(childActions.message.allowed, false, name);
    assert.match(childActions.message.reason ?? '', /has ended, and the agent offers no way to reach it again/, name);
    assert.equal(rootActions.message.allowed, false, 'a root is no subagent to message');
  }
});

test('a subagent may be messaged when it takes prompts itself or a relay reaches it', () => {
  const w = steeringWire(false);
  w.prompt('R', 'go');
  w.update('R', announce('E', { title: 'Explorer', state: { state: 'running' } }));
  assert.deepEqual([w.store.actionsFor('E').relay.allowed, w.store.actionsFor('E').message.allowed], [true, true]);
  const loaded = replayFixture('recorded-new', 'opencode-load-child.jsonl').store;
  const child = loaded.listSessions().find((s) => s.parentId !== null)!;
  const actions = loaded.actionsFor(child.id);
  assert.deepEqual([actions.prompt.allowed, actions.relay.allowed, actions.message.allowed], [true, false, true], 'a loaded subagent session takes prompts of its own');
});
