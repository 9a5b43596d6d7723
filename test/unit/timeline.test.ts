// The children's timeline: spans between reported states, how each child ended, and a new turn reopening it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { childTimeline, clockTime, elapsedMs, spentTimes, spentTimesSinceText, spentTimesText } from '../../src/presentation';
import { SessionStore } from '../../src/store/sessionStore';

const at = (state: string, time: number, stopReason?: string) => ({ state, at: time, source: 'agent' as const, ...(stopReason ? { stopReason } : {}) });
const NO_TIME = { working: 0, waiting: 0, since: null };
/** A child for the timeline: its history; the rest at rest. */
const child = (id: string, label: string, createdAt: number, stateHistory: ReturnType<typeof at>[]) => ({
  id,
  label,
  createdAt,
  updatedAt: createdAt,
  state: { state: stateHistory.at(-1)?.state ?? 'unconfirmed' },
  timeSpent: NO_TIME,
  stateHistory,
});

test('a child that worked, waited on the user, worked again and was cancelled', () => {
  const [row] = childTimeline([child('c', 'Explorer', 100, [at('unconfirmed', 100), at('running', 110), at('requires_action', 200), at('running', 260), at('idle', 300, 'cancelled')])]);
  assert.deepEqual(row, {
    sessionId: 'c',
    label: 'Explorer',
    start: 100,
    segments: [
      { start: 100, end: 110, phase: 'unknown', label: 'Not reported' },
      { start: 110, end: 200, phase: 'working', label: 'Running' },
      { start: 200, end: 260, phase: 'waiting', label: 'Needs you' },
      { start: 260, end: 300, phase: 'working', label: 'Running' },
    ],
    end: { at: 300, phase: 'cancelled', label: 'Cancelled' },
    times: { state: { state: 'idle' }, createdAt: 100, updatedAt: 100, timeSpent: NO_TIME },
  });
});

test('a running child has an open span; done and failed are ends; a new turn reopens the row', () => {
  const rows = childTimeline([
    child('a', 'A', 0, [at('running', 5)]),
    child('b', 'B', 0, [at('running', 5), at('idle', 9, 'end_turn')]),
    child('c', 'C', 0, [at('running', 5), at('idle', 9, 'error')]),
    child('d', 'D', 0, [at('running', 5), at('idle', 9, 'end_turn'), at('running', 20)]),
  ]);
  assert.deepEqual(rows[0]?.segments, [{ start: 5, end: null, phase: 'working', label: 'Running' }]);
  assert.equal(rows[0]?.end, null);
  assert.deepEqual(rows[1]?.end, { at: 9, phase: 'done', label: 'Done' });
  assert.equal(rows[2]?.end?.phase, 'failed');
  assert.equal(rows[3]?.end, null);
  assert.deepEqual(rows[3]?.segments.map((s) => [s.start, s.end]), [[5, 9], [20, null]]);
});

test('history out of order is sorted; no history gives an empty row from its creation', () => {
  const [sorted, empty] = childTimeline([
    child('a', 'A', 50, [at('idle', 30, 'end_turn'), at('running', 10)]),
    child('b', 'B', 7, []),
  ]);
  assert.equal(sorted?.start, 10);
  assert.deepEqual(sorted?.segments.map((s) => s.phase), ['working']);
  const { times: _times, ...rest } = empty!;
  assert.deepEqual(rest, { sessionId: 'b', label: 'B', start: 7, segments: [], end: null });
});

test('time working, waiting on the user and idle, per child, from the store: the card, the tree and the timeline read the same (#24 item 3)', () => {
  let clock = 1_000;
  const store = new SessionStore({ now: () => clock });
  const send = (message: Record<string, unknown>, dir: 'client->agent' | 'agent->client') => store.ingest({ jsonrpc: '2.0', ...message }, dir);
  send({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
  send({ id: 1, result: { sessionId: 'P' } }, 'agent->client');
  const update = (sessionId: string, update: Record<string, unknown>) => send({ method: 'session/update', params: { sessionId, update } }, 'agent->client');
  update('P', { sessionUpdate: 'subagent_update', sessionId: 'C', title: 'Explorer', state: { state: 'running' } });
  clock += 4_000;
  update('P', { sessionUpdate: 'subagent_update', sessionId: 'C', state: { state: 'requires_action' } });
  clock += 3_000;
  update('P', { sessionUpdate: 'subagent_update', sessionId: 'C', state: { state: 'running' } });
  clock += 2_000;
  update('P', { sessionUpdate: 'subagent_update', sessionId: 'C', state: { state: 'idle', stopReason: 'end_turn' } });
  clock += 10_000;
  const child = store.getSession('C')!;
  const times = spentTimes(child, clock, true);
  assert.deepEqual(times, { working: 6_000, waiting: 3_000, idle: 10_000 });
  assert.equal(spentTimesText(times), 'working 6s · waiting on you 3s · idle 10s');
  assert.equal(elapsedMs(child, clock, true), 9_000, 'the card\'s time is time at work, not the idle time after');
  const [row] = childTimeline([child]);
  assert.deepEqual(spentTimes(row!.times, clock, true), times, 'the timeline row reads the same times');
  // While it works, the current spell counts up to now.
  update('P', { sessionUpdate: 'subagent_update', sessionId: 'C', state: { state: 'running' } });
  clock += 1_500;
  assert.deepEqual(spentTimes(store.getSession('C')!, clock, true), { working: 7_500, waiting: 3_000, idle: 10_000 });
  // The tree's text of the same times does not move with the clock: the current spell reads from when it began.
  const since = clockTime(clock - 1_500);
  assert.equal(spentTimesSinceText(store.getSession('C')!, true), `working since ${since} · before: working 6s · waiting on you 3s · idle 10s`);
  update('P', { sessionUpdate: 'subagent_update', sessionId: 'C', state: { state: 'idle', stopReason: 'end_turn' } });
  assert.equal(spentTimesSinceText(store.getSession('C')!, true), `idle since ${clockTime(clock)} · before: working 7s · waiting on you 3s · idle 10s`);
  assert.equal(spentTimesSinceText(store.getSession('C')!, false), 'working 7s · waiting on you 3s · idle 10s', 'a session no longer live: its totals');
});

test('a row is built once per revision of its child: the same row object while the child is unchanged, a new one when it changes or is renamed', () => {
  const explorer = { ...child('c', 'Explorer', 100, [at('running', 110)]), rev: 7 };
  const [first] = childTimeline([explorer]);
  assert.equal(childTimeline([explorer])[0], first, 'unchanged: the row built before (its header field compares at once)');
  // The store renames a child with its parent (it names the parent's call) without a new revision of the child.
  explorer.label = 'Explorer (2)';
  const [renamed] = childTimeline([explorer]);
  assert.notEqual(renamed, first);
  assert.equal(renamed!.label, 'Explorer (2)');
  explorer.stateHistory.push(at('idle', 300, 'end_turn'));
  explorer.rev = 8;
  assert.deepEqual(childTimeline([explorer])[0]!.end, { at: 300, phase: 'done', label: 'Done' });
});
