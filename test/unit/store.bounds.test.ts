// Per-connection memory bounds: over a bound the oldest finished detail goes, what runs or waits for the user
// stays, the user is told once, and what is kept still renders (no dangling child ids or entries).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SnapshotMessage, HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import { SessionStore, type SessionStoreOptions } from '../../src/store/sessionStore';
import { ChatFeed } from '../../src/webviews/chatFeed';
import { ChatMirror } from '../../webview/state/mirror';
import { FakeTimers } from '../component/fakeTimers';
import { announce, text, Wire } from './support/storeFixtures';

class BoundedWire extends Wire {
  override readonly store: SessionStore;
  constructor(limits: SessionStoreOptions['limits']) {
    super();
    this.store = new SessionStore({ now: () => 1000, limits });
  }
}

const IDLE = { state: 'idle', stopReason: 'end_turn' };
const RUNNING = { state: 'running' };
const boundedCodes = (w: Wire) => w.codes().filter((code) => code === 'bounded');

/** Every kept session's children exist, and every child card in a chat names a kept session. */
function assertNoDangling(store: SessionStore): void {
  for (const session of store.listSessions()) {
    for (const childId of session.childIds) assert.ok(store.getSession(childId), `${session.id} lists a dropped child ${childId}`);
    for (const entry of session.entries) {
      if (entry.kind === 'child') assert.ok(store.getSession(entry.childSessionId), `${session.id} shows a card of a dropped child ${entry.childSessionId}`);
      if (entry.kind === 'toolCall') assert.ok(session.toolCalls[entry.toolCallId], `${session.id} shows a dropped tool call ${entry.toolCallId}`);
    }
    assert.equal(session.toolCallOrder.length, Object.keys(session.toolCalls).length, `${session.id}: tool call order and records agree`);
    for (const id of session.toolCallOrder) assert.ok(session.toolCalls[id], `${session.id} orders a dropped tool call ${id}`);
  }
}

test('over the session bound the oldest finished children go first; running ones, roots and the user are kept; told once', () => {
  const w = new BoundedWire({ maxSessions: 10 }).newSession('R');
  for (let i = 0; i < 6; i++) w.update('R', announce(`done${i}`, { state: IDLE }));
  for (let i = 0; i < 6; i++) w.update('R', announce(`run${i}`, { state: RUNNING }));
  assert.ok(w.store.sessionCount <= 10, `${w.store.sessionCount} sessions kept`);
  assert.ok(w.store.getSession('R'), 'the root the user opened stays');
  for (let i = 0; i < 6; i++) assert.ok(w.store.getSession(`run${i}`), `running run${i} stays`);
  assert.equal(w.store.getSession('done0'), undefined, 'the oldest finished child went first');
  assert.ok(w.store.getSession('done5'), 'the newest finished child stays while the bound allows');
  assert.deepEqual(
    w.store.listSessions().map((s) => s.id),
    ['R', ...w.session('R').childIds],
    'the tree lists exactly what is kept',
  );
  assertNoDangling(w.store);
  assert.deepEqual(boundedCodes(w), ['bounded']);
  assert.match(w.store.boundsNotice ?? '', /5,000|10 sessions|history/);
  // More overflow: still one notice.
  for (let i = 6; i < 20; i++) w.update('R', announce(`done${i}`, { state: IDLE }));
  assert.ok(w.store.sessionCount <= 10);
  assertNoDangling(w.store);
  assert.deepEqual(boundedCodes(w), ['bounded'], 'the user is told once per connection');
});

test('a finished parent whose child still runs is kept, and a finished child that waits for the user is kept', () => {
  const w = new BoundedWire({ maxSessions: 6 }).newSession('R');
  w.update('R', announce('P', { state: IDLE }));
  w.update('P', announce('P1', { state: RUNNING }));
  w.update('R', announce('Q', { state: IDLE }));
  w.agentRequest('session/request_permission', { sessionId: 'Q', toolCall: { toolCallId: 'q1', title: 'Write' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] });
  w.update('R', announce('Q', { state: IDLE }));
  for (let i = 0; i < 6; i++) w.update('R', announce(`done${i}`, { state: IDLE }));
  assert.ok(w.store.getSession('P'), 'a parent of a running child stays');
  assert.ok(w.store.getSession('P1'), 'the running child stays');
  assert.ok(w.store.getSession('Q'), 'a session with a question for the user stays');
  assert.ok(w.store.sessionCount <= 6, `${w.store.sessionCount} sessions kept`);
  assertNoDangling(w.store);
});

test('over the tool call bound the oldest finished calls go; running calls stay; counts are right', () => {
  const w = new BoundedWire({ maxToolCalls: 10 }).newSession('R');
  for (let i = 0; i < 4; i++) w.update('R', { sessionUpdate: 'tool_call', toolCallId: `open${i}`, title: `open ${i}`, status: 'in_progress' });
  for (let i = 0; i < 20; i++) {
    w.update('R', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `call ${i}`, status: 'pending' });
    w.update('R', { sessionUpdate: 'tool_call_update', toolCallId: `t${i}`, status: 'completed' });
  }
  const root = w.session('R');
  assert.ok(root.toolCallOrder.length <= 10, `${root.toolCallOrder.length} tool calls kept`);
  for (let i = 0; i < 4; i++) assert.ok(root.toolCalls[`open${i}`], `running open${i} stays`);
  assert.equal(root.toolCalls['t0'], undefined, 'the oldest finished call went first');
  assert.ok(root.toolCalls['t19'], 'the newest finished call stays');
  assert.equal(root.entries.filter((e) => e.kind === 'toolCall').length, root.toolCallOrder.length);
  assertNoDangling(w.store);
  assert.deepEqual(boundedCodes(w), ['bounded']);
});

test('over the text bound the text of finished sessions goes; the running session keeps its text', () => {
  const w = new BoundedWire({ maxTextChars: 1000 }).newSession('R');
  w.update('R', announce('old', { state: RUNNING }));
  w.update('old', text('agent_message_chunk', 'o'.repeat(600)));
  w.update('R', announce('old', { state: IDLE }));
  w.update('R', announce('live', { state: RUNNING }));
  w.update('live', text('agent_message_chunk', 'l'.repeat(600)));
  const live = w.session('live').entries.find((e) => e.kind === 'message');
  assert.equal(live?.kind === 'message' && live.text.length, 600, 'the running session keeps its text');
  assert.equal(w.store.getSession('old'), undefined, 'the finished session with the oldest text went');
  assertNoDangling(w.store);
  assert.deepEqual(boundedCodes(w), ['bounded']);
});

test('a chat open over the trimmed tree shows what is kept (no dangling cards or tool calls)', () => {
  const w = new BoundedWire({ maxSessions: 5, maxToolCalls: 5 }).newSession('R');
  const timers = new FakeTimers();
  const mirror = new ChatMirror();
  const results: string[] = [];
  const feed = new ChatFeed(w.store, 'R', (message: HostToWebviewMessage) => {
    const copy = structuredClone(message);
    if (copy.type === 'snapshot') mirror.applySnapshot(copy as SnapshotMessage);
    else if (copy.type === 'delta') results.push(mirror.applyDelta(copy));
  }, { timers });
  w.update('R', announce('a', { state: IDLE }));
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'x', status: 'completed' });
  feed.sendSnapshot();
  for (let i = 0; i < 8; i++) {
    w.update('R', announce(`c${i}`, { state: IDLE }));
    w.update('R', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `t${i}`, status: 'completed' });
    feed.flush();
  }
  assert.ok(w.store.sessionCount <= 5 && w.session('R').toolCallOrder.length <= 5, 'the bounds dropped something');
  assert.ok(results.every((r) => r === 'applied'), results.join());
  const shown = mirror.sessionTree();
  assert.deepEqual(shown.map((s) => s.header.id), w.store.listSessions().map((s) => s.id));
  const rootView = mirror.session('R')!;
  assert.deepEqual(rootView.entries.map((e) => e.id), w.session('R').entries.map((e) => e.id), 'the chat shows the kept entries in order');
  feed.dispose();
});

test('the service tells the host once per connection, and the transcript keeps every message the store dropped', async () => {
  const { SubchatsService } = await import('../../src/host/subchatsService');
  const told: string[] = [];
  const service = new SubchatsService({
    clientHost: () => {
      throw new Error('not used');
    },
    workspaceFolders: () => [],
    memoryLimits: { maxSessions: 10 },
    onMemoryBounded: (runtime, notice) => told.push(`${runtime.agent.name}: ${notice}`),
  });
  const line = (msg: object, dir = 'agent->client') => JSON.stringify({ dir, msg });
  const lines = [
    line({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent'),
    line({ jsonrpc: '2.0', id: 1, result: { sessionId: 'R' } }),
    ...Array.from({ length: 40 }, (_, i) => line({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'R', update: announce(`c${i}`, { state: IDLE }) } })),
  ];
  const runtime = await service.openTranscript('flood.jsonl', `${lines.join('\n')}\n`);
  assert.ok(runtime.store.sessionCount <= 10, `${runtime.store.sessionCount} sessions kept`);
  assert.equal(runtime.transcript.lines().length, lines.length, 'the transcript still has every message');
  assert.equal(told.length, 1);
  assert.match(told[0]!, /^flood\.jsonl: .*history file/);
  service.dispose();
});

test('past twice a bound with nothing left to drop, the store says the agent must stop (once), and keeps what runs', () => {
  const w = new BoundedWire({ maxSessions: 10 }).newSession('R');
  for (let i = 0; i < 19; i++) w.update('R', announce(`run${i}`, { state: RUNNING }));
  assert.equal(w.store.memoryOverrun, undefined, 'within twice the bound: kept, no stop');
  for (let i = 19; i < 40; i++) w.update('R', announce(`run${i}`, { state: RUNNING }));
  assert.match(w.store.memoryOverrun ?? '', /stopped this agent: it sent 2\d sessions .*\(10\)/);
  assert.deepEqual(w.codes().filter((code) => code === 'overrun'), ['overrun']);
  assert.ok(w.store.getSession('run0') && w.store.getSession('run39'), 'running sessions are never dropped');
});

test('an agent that runs past twice a bound is stopped: told once, its sessions stay, shown disconnected', { timeout: 20_000 }, async (t) => {
  const { SubchatsService } = await import('../../src/host/subchatsService');
  const { fakeAgentConfig, RecordingHost, waitFor } = await import('../fixtures/fake-agents/harness');
  const told: string[] = [];
  const service = new SubchatsService({ clientHost: () => new RecordingHost(), workspaceFolders: () => [], memoryLimits: { maxToolCalls: 10 }, onMemoryBounded: (_runtime, notice) => told.push(notice) });
  // Without the stop the turn never ends: the timeout then ends the agent too, so the run can finish.
  t.signal.addEventListener('abort', () => service.dispose());
  try {
    const runtime = await service.start(fakeAgentConfig('normal'), process.cwd());
    const sessionId = await service.newSession(runtime);
    const call = (i: number) => ({ notify: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: `call ${i}`, status: 'in_progress' } } });
    // Calls that never finish, then a question nobody answers: only Subchats can end this turn.
    const steps = [...Array.from({ length: 30 }, (_, i) => call(i)), { request: 'session/request_permission', params: { sessionId, toolCall: { toolCallId: 'c0' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] } }];
    await assert.rejects(service.prompt(runtime.id, sessionId, [{ type: 'text', text: JSON.stringify(steps) }]));
    assert.equal(runtime.live, false);
    await waitFor(() => runtime.status === 'exited', 'the agent process to exit');
    assert.match(runtime.error ?? '', /stopped this agent: it sent \d+ tool calls/);
    assert.equal(told.filter((t) => /stopped this agent/.test(t)).length, 1);
    assert.equal(runtime.store.isConnected, false);
    assert.ok(runtime.store.getSession(sessionId)!.toolCallOrder.length > 20, 'what it sent is still shown');
  } finally {
    service.dispose();
  }
});
