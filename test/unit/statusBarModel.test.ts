// The status bar counts working sessions and waiting questions across live agent connections.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusSummary } from '../../src/views/statusBarModel';
import { SessionTreeWatch, type WatchedRuntime } from '../../src/views/sessionTreeWatch';
import { announce, Wire } from './support/storeFixtures';

function watched(w: Wire, id: string, live = true): { runtime: WatchedRuntime; watch: SessionTreeWatch } {
  const runtime = { id, live, store: w.store };
  const watch = new SessionTreeWatch();
  w.store.onDidChange((changes) => {
    for (const change of changes) watch.note(runtime, change.sessionId);
  });
  return { runtime, watch };
}

const permission = (sessionId: string, toolCallId: string) => ({
  sessionId,
  toolCall: { toolCallId, title: 'write' },
  options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
});

test('a pending permission counts as waiting; its session no longer counts as working', () => {
  const w = new Wire();
  const { runtime, watch } = watched(w, 'c1');
  w.newSession('R');
  assert.deepEqual(statusSummary([runtime], watch), { working: 0, waiting: 0, text: '', tooltip: 'Subchats' });
  const end = w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  assert.equal(statusSummary([runtime], watch).text, '$(sync~spin) 2 working');
  const ask = w.agentRequest('session/request_permission', permission('A', 't1'));
  const asked = statusSummary([runtime], watch);
  assert.equal(asked.waiting, 1);
  assert.equal(asked.working, 1);
  assert.equal(asked.text, '$(bell-dot) 1 waiting  $(sync~spin) 1 working');
  assert.match(asked.tooltip, /1 question waiting for you/);
  const second = w.agentRequest('session/request_permission', permission('A', 't2'));
  assert.equal(statusSummary([runtime], watch).waiting, 2, 'two questions of one session count twice');
  w.clientResult(ask, { outcome: { outcome: 'selected', optionId: 'ok' } });
  w.clientResult(second, { outcome: { outcome: 'cancelled' } });
  assert.equal(statusSummary([runtime], watch).waiting, 0);
  w.update('R', announce('A', { state: { state: 'idle', stopReason: 'end_turn' } }));
  end('end_turn');
  assert.equal(statusSummary([runtime], watch).text, '');
});

test('only live connections count, and every live one does', () => {
  const live = new Wire();
  const old = new Wire();
  const a = watched(live, 'live');
  const watch = a.watch;
  const oldRuntime = { id: 'old', live: false, store: old.store };
  old.store.onDidChange((changes) => {
    for (const change of changes) watch.note(oldRuntime, change.sessionId);
  });
  live.newSession('R1');
  live.prompt('R1', 'go');
  old.newSession('R2');
  old.prompt('R2', 'go');
  old.agentRequest('session/request_permission', permission('R2', 't1'));
  assert.deepEqual(statusSummary([a.runtime, oldRuntime], watch), { working: 1, waiting: 0, text: '$(sync~spin) 1 working', tooltip: 'Subchats: 1 session working' });
});
