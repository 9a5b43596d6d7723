// GitHub Copilot CLI 1.0.102 (recorded): subagents on the parent session, tagged with an agentId, linked to
// their `task` call and given their text by Copilot's opt-in events; never guessed when it is not certain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildClientCapabilities } from '../../src/acp/capabilities';
import type { SessionView } from '../../src/store/model';
import { SessionStore } from '../../src/store/sessionStore';
import { toReplaySnapshot } from '../../src/store/replayReport';
import { fixtureText, replayStepwise, replayUntil, Wire } from './support/storeFixtures';

function childrenOf(store: SessionStore, parentId: string): SessionView[] {
  return store.listSessions().filter((s) => s.parentId === parentId);
}

function agentText(session: SessionView): string {
  return session.entries.map((e) => (e.kind === 'message' && e.role === 'agent' ? e.text : '')).join('');
}

test('without events: the tagged calls go to the only open task; its streamed text stays on the parent, its task result is its report', () => {
  const store = replayStepwise('recorded-new', 'copilot-single.jsonl');
  const [root, child, ...rest] = store.listSessions();
  assert.equal(rest.length, 0);
  assert.equal(child!.parentId, root!.id);
  assert.equal(child!.link, 'copilot-meta');
  assert.equal(child!.label, 'Read notes file');
  assert.deepEqual(child!.toolCallOrder, ['call_A_004']);
  assert.deepEqual(root!.toolCallOrder, ['call_main_002'], 'the child\'s call is not on the parent');
  assert.equal(agentText(child!), 'Child A finished: hello from notes.txt second line', 'the task call\'s result');
  assert.match(agentText(root!), /^Child A finished/, 'the unmarked chunks cannot be attributed without events');
  assert.deepEqual(toReplaySnapshot(store).diagnostics, []);
});

test('with events: subagent.started links the agent, message deltas attribute its unmarked text, subagent.completed ends it', () => {
  const store = replayStepwise('recorded-new', 'copilot-single-events.jsonl');
  const [root, child] = store.listSessions();
  assert.equal(agentText(child!), 'Child A finished: hello from notes.txt second line ');
  assert.match(agentText(root!), /^Parent done \(single\)/);
  assert.deepEqual([child!.state.state, child!.state.stopReason], ['idle', 'end_turn']);
  assert.ok(child!.stateHistory.some((h) => h.source === 'agent' && h.stopReason === 'end_turn'), 'ended by its own completion event');
  assert.deepEqual(toReplaySnapshot(store).diagnostics, [], 'the event stream is understood, not reported as unknown');
});

test('two children at once: interleaved calls and text each go to their own child', () => {
  const store = replayStepwise('recorded-new', 'copilot-parallel-events.jsonl');
  const root = store.listSessions()[0]!;
  const [a, b, ...rest] = childrenOf(store, root.id);
  assert.equal(rest.length, 0);
  assert.deepEqual([a!.label, b!.label], ['Read notes file', 'Find text files']);
  assert.deepEqual(a!.toolCallOrder, ['call_A_005', 'call_A_009']);
  assert.deepEqual(b!.toolCallOrder, ['call_B_007', 'call_B_011']);
  assert.match(agentText(a!), /^Child A finished: hello from notes\.txt second line {2}\| another text file $/);
  assert.match(agentText(b!), /^Child B finished: \.\/notes\.txt \.\/other\.txt \| another text file $/);
  assert.match(agentText(root), /^Parent done \(parallel\)/);
  assert.doesNotMatch(agentText(root), /^Child/);
});

test('a child\'s permission on the parent session goes to the child that owns the tool call', () => {
  const store = replayStepwise('recorded-new', 'copilot-permission.jsonl');
  const [root, child] = store.listSessions();
  assert.equal(child!.entries.filter((e) => e.kind === 'permission').length, 1);
  assert.equal(root!.entries.filter((e) => e.kind === 'permission').length, 0);
});

test('parallel tasks without events: tagged calls gather under their agent and are never guessed onto a task', () => {
  const text = fixtureText('recorded-new', 'copilot-parallel-events.jsonl')
    .split('\n')
    .filter((line) => !line.includes('github.com/copilot/sessionEvent'))
    .join('\n');
  const store = new SessionStore({ now: () => 0 });
  text.split('\n').forEach((line, i) => store.ingestLine(line, i + 1));
  const root = store.listSessions()[0]!;
  const children = childrenOf(store, root.id);
  const tasks = children.filter((c) => c.parentToolCallId?.startsWith('call_main_'));
  assert.deepEqual(tasks.map((t) => t.toolCallOrder.length), [0, 0], 'no call was put on a task it may not belong to');
  const gathered = children.filter((c) => c.parentToolCallId?.startsWith('agent:'));
  assert.equal(gathered.length, 2);
  assert.deepEqual(gathered.map((g) => g.toolCallOrder.length), [2, 2]);
  for (const g of gathered) assert.doesNotMatch(g.label, /[0-9a-f]{8}-[0-9a-f]{4}/, 'named, never by its agentId');
});

test('gathered calls join their task once an event links the agent; nested agents nest', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  const task = (id: string, agentId?: string) => ({
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: `Task ${id}`,
    kind: 'other',
    status: 'pending',
    rawInput: { description: `Task ${id}`, prompt: 'do it', agent_type: 'general-purpose' },
    ...(agentId ? { _meta: { 'github.com/copilot': { agentId } } } : {}),
  });
  const tagged = (id: string, agentId: string) => ({ sessionUpdate: 'tool_call', toolCallId: id, title: id, kind: 'read', status: 'pending', _meta: { 'github.com/copilot': { agentId } } });
  const event = (type: string, agentId: string, data: Record<string, unknown>) =>
    w.store.ingest({ jsonrpc: '2.0', method: 'github.com/copilot/sessionEvent', params: { sessionId: 'R', type, data, agentId } }, 'agent->client');
  w.update('R', task('T1')).update('R', task('T2'));
  w.update('R', tagged('x1', 'A1'));
  assert.equal(w.store.getSession('R#agent:A1')?.toolCallOrder.length, 1, 'two tasks open: gathered, not guessed');
  event('subagent.started', 'A1', { toolCallId: 'T1' });
  assert.equal(w.store.getSession('R#agent:A1')?.id, 'R#T1', 'the gathered row is now the task\'s child');
  assert.deepEqual(w.session('R#T1').toolCallOrder, ['x1']);
  assert.equal(childrenOf(w.store, 'R').length, 2);
  // A1 starts its own task; its agent A2 is a grandchild.
  w.update('R', task('T3', 'A1'));
  event('subagent.started', 'A2', { toolCallId: 'T3', parentId: 'A1' });
  w.update('R', tagged('y1', 'A2'));
  assert.equal(w.session('R#T1#T3').parentId, 'R#T1');
  assert.deepEqual(w.session('R#T1#T3').toolCallOrder, ['y1']);
  event('subagent.failed', 'A2', { toolCallId: 'T3', error: 'tool denied' });
  assert.deepEqual([w.session('R#T1#T3').state.state, w.session('R#T1#T3').state.stopReason, w.session('R#T1#T3').state.error?.message], ['idle', 'error', 'tool denied']);
});

test('text no event announced stays on the parent (events may be dropped)', () => {
  const w = new Wire().newSession('R');
  w.store.ingest({ jsonrpc: '2.0', method: 'github.com/copilot/sessionEvent', params: { sessionId: 'R', type: 'assistant.message_delta', data: { deltaContent: 'other text' }, agentId: 'A' } }, 'agent->client');
  w.update('R', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello' } });
  assert.equal(agentText(w.session('R')), 'hello');
});

test('initialize asks Copilot for the events it needs (and nothing else changes for other agents)', () => {
  const capabilities = buildClientCapabilities({}) as { _meta?: Record<string, { events?: string[] }> };
  assert.deepEqual(capabilities._meta?.['github.com/copilot']?.events, ['subagent.started', 'subagent.completed', 'subagent.failed', 'assistant.message_start', 'assistant.message_delta', 'assistant.usage']);
});

test('a subagent Copilot reports cancelled (subagent.completed {cancelled: true}) is Cancelled, not Done', () => {
  const store = replayStepwise('written', 'copilot-cancel-events.jsonl');
  const [root, child] = store.listSessions();
  assert.deepEqual([child!.state.state, child!.state.stopReason], ['idle', 'cancelled']);
  assert.ok(child!.stateHistory.some((h) => h.source === 'agent' && h.stopReason === 'cancelled'), 'its own event said so');
  assert.ok(root!.stateHistory.some((h) => h.source === 'agent' && h.stopReason === 'cancelled'), 'the turn was cancelled');
});

test('Copilot\'s cancel notice and the next turn\'s answer carry no messageId: they stay two messages', () => {
  const store = replayStepwise('written', 'copilot-cancel-events.jsonl');
  const root = store.listSessions()[0]!;
  const texts = root.entries.flatMap((e) => (e.kind === 'message' && e.role === 'agent' ? [e.text] : []));
  assert.deepEqual(texts.slice(-2), ['Info: Operation cancelled by user', 'Hello!']);
});

test('a session Copilot names in an update before its session/new answer is Idle once created, not "Not reported"', () => {
  const store = replayUntil('recorded-new', 'copilot-single-events.jsonl', (s) => s.listSessions()[0]?.openedByClient === true);
  const root = store.listSessions()[0]!;
  assert.ok(root.availableCommands, 'the early update was kept');
  assert.deepEqual(root.state, { state: 'idle' });
  assert.equal(root.stateHistory.at(-1)?.source, 'client');
});
