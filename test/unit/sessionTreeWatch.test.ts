// The tree's tick and badge bookkeeping, kept from store changes, agrees with a walk over every session.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needsUser } from '../../src/views/sessionTreeModel';
import { SessionTreeWatch, type WatchedRuntime } from '../../src/views/sessionTreeWatch';
import { announce, Wire } from './support/storeFixtures';

function walked(runtime: WatchedRuntime): { ticking: string[]; waiting: number } {
  const sessions = [...runtime.store.listSessions()];
  return {
    ticking: sessions.filter((s) => s.state.state === 'running' || s.state.state === 'requires_action').map((s) => s.id).sort(),
    waiting: runtime.live ? sessions.filter(needsUser).length : 0,
  };
}

test('ticking sessions and the badge count follow store changes, and match a full walk at every step', () => {
  const w = new Wire();
  const runtime = { id: 'c1', live: true, store: w.store };
  const watch = new SessionTreeWatch();
  w.store.onDidChange((changes) => {
    for (const change of changes) watch.note(runtime, change.sessionId);
  });
  const check = (step: string) => {
    const expected = walked(runtime);
    assert.deepEqual([...watch.ticking()].map((t) => t.sessionId).sort(), expected.ticking, `ticking after ${step}`);
    assert.equal(watch.badgeCount([runtime]), expected.waiting, `badge after ${step}`);
  };
  w.newSession('R');
  check('new session');
  const end = w.prompt('R', 'go');
  check('prompt');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  w.update('R', announce('B', { title: 'Reviewer', state: { state: 'running' } }));
  check('children');
  assert.equal([...watch.ticking()].length, 3);
  const permission = w.agentRequest('session/request_permission', {
    sessionId: 'R',
    toolCall: { toolCallId: 't1', title: 'write' },
    options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
  });
  check('permission asked');
  assert.equal(watch.badgeCount([runtime]), 1);
  assert.equal(watch.badgeCount([{ ...runtime, live: false }]), 0, 'history does not count');
  w.clientResult(permission, { outcome: { outcome: 'selected', optionId: 'ok' } });
  check('permission answered');
  w.update('R', announce('A', { state: { state: 'idle', stopReason: 'end_turn' } }));
  check('child done');
  end('end_turn');
  check('turn ended');
});

test('sync rebuilds from the stores and forgets connections that are gone', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  const watch = new SessionTreeWatch();
  watch.sync([{ id: 'c1', live: true, store: w.store }]);
  assert.deepEqual([...watch.ticking()], [{ connectionId: 'c1', sessionId: 'R' }]);
  watch.sync([]);
  assert.deepEqual([...watch.ticking()], []);
});
