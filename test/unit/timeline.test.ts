// The children's timeline: spans between reported states, how each child ended, and a new turn reopening it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { childTimeline } from '../../src/presentation';

const at = (state: string, time: number, stopReason?: string) => ({ state, at: time, source: 'agent' as const, ...(stopReason ? { stopReason } : {}) });

test('a child that worked, waited on the user, worked again and was cancelled', () => {
  const [row] = childTimeline([{ id: 'c', label: 'Explorer', createdAt: 100, stateHistory: [at('unconfirmed', 100), at('running', 110), at('requires_action', 200), at('running', 260), at('idle', 300, 'cancelled')] }]);
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
  });
});

test('a running child has an open span; done and failed are ends; a new turn reopens the row', () => {
  const rows = childTimeline([
    { id: 'a', label: 'A', createdAt: 0, stateHistory: [at('running', 5)] },
    { id: 'b', label: 'B', createdAt: 0, stateHistory: [at('running', 5), at('idle', 9, 'end_turn')] },
    { id: 'c', label: 'C', createdAt: 0, stateHistory: [at('running', 5), at('idle', 9, 'error')] },
    { id: 'd', label: 'D', createdAt: 0, stateHistory: [at('running', 5), at('idle', 9, 'end_turn'), at('running', 20)] },
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
    { id: 'a', label: 'A', createdAt: 50, stateHistory: [at('idle', 30, 'end_turn'), at('running', 10)] },
    { id: 'b', label: 'B', createdAt: 7, stateHistory: [] },
  ]);
  assert.equal(sorted?.start, 10);
  assert.deepEqual(sorted?.segments.map((s) => s.phase), ['working']);
  assert.deepEqual(empty, { sessionId: 'b', label: 'B', start: 7, segments: [], end: null });
});
