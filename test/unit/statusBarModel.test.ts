// The status bar counts working sessions and waiting questions across live agent connections.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_STARTED_QUIET_MS, BACKGROUND_QUIET_MS, type Activity } from '../../src/presentation';
import type { SessionActions } from '../../src/store/model';
import { presentRow, sessionItemOf } from '../../src/views/sessionTreeModel';
import { statusSummary } from '../../src/views/statusBarModel';
import { SessionTreeWatch, type WatchedRuntime } from '../../src/views/sessionTreeWatch';
import { announce, fixtureNames, fixtureText, replayFirst, replayStepwise, Wire } from './support/storeFixtures';

/** The Wire's clock: nothing has been quiet for long. */
const NOW = 1000;

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
  assert.deepEqual(statusSummary([runtime], watch, NOW), { working: 0, waiting: 0, background: 0, text: '', tooltip: 'Subchats' });
  const end = w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  assert.equal(statusSummary([runtime], watch, NOW).text, '$(sync~spin) 2 working');
  const ask = w.agentRequest('session/request_permission', permission('A', 't1'));
  const asked = statusSummary([runtime], watch, NOW);
  assert.equal(asked.waiting, 1);
  assert.equal(asked.working, 1);
  assert.equal(asked.text, '$(bell-dot) 1 waiting  $(sync~spin) 1 working');
  assert.match(asked.tooltip, /1 question waiting for you/);
  const second = w.agentRequest('session/request_permission', permission('A', 't2'));
  assert.equal(statusSummary([runtime], watch, NOW).waiting, 2, 'two questions of one session count twice');
  w.clientResult(ask, { outcome: { outcome: 'selected', optionId: 'ok' } });
  w.clientResult(second, { outcome: { outcome: 'cancelled' } });
  assert.equal(statusSummary([runtime], watch, NOW).waiting, 0);
  w.update('R', announce('A', { state: { state: 'idle', stopReason: 'end_turn' } }));
  end('end_turn');
  assert.equal(statusSummary([runtime], watch, NOW).text, '');
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
  assert.deepEqual(statusSummary([a.runtime, oldRuntime], watch, NOW), { working: 1, waiting: 0, background: 0, text: '$(sync~spin) 1 working', tooltip: 'Subchats: 1 session working' });
});

// Reported (opencode): "after a background task, the root reads 'Idle (quiet)' but the status bar says '2 working'".
// The status bar counts what the rows show: a row that reads idle is not working, whatever the wire last said.
test('the status bar counts the rows: an agent-started turn quiet since long reads Idle (quiet) and no longer counts as working', () => {
  const store = replayStepwise('written', 'opencode-background-task.jsonl');
  const runtime = { id: 'c1', agent: { id: 'opencode', name: 'opencode', command: 'opencode' }, live: true, status: 'ready' as const, store };
  const watch = new SessionTreeWatch();
  watch.sync([runtime]);
  const root = store.listSessions().find((session) => session.parentId === null)!;
  const rows = (now: number) => store.listSessions().map((session) => sessionItemOf(runtime, session.id, now)!.description.split(' · ')[0]);

  // The agent-started turn is opencode's word that its background job ended (#21 item 3): the child reads Ended.
  const soon = root.updatedAt + 1000;
  assert.deepEqual(rows(soon), ['Running (agent started)', 'Ended']);
  assert.equal(statusSummary([runtime], watch, soon).text, '$(sync~spin) 1 working');

  const quiet = root.updatedAt + AGENT_STARTED_QUIET_MS;
  assert.deepEqual(rows(quiet), ['Idle (quiet)', 'Ended']);
  assert.deepEqual(statusSummary([runtime], watch, quiet), { working: 0, waiting: 0, background: 0, text: '', tooltip: 'Subchats' });
});

// Why counting rows is counting the controller's phases: at every step of every recorded and written transcript,
// each row reads waiting exactly in the phase awaiting-user and working exactly in the other busy phases. Time
// alone changes one thing: an agent-started turn, quiet since long, reads idle.
test('rows read what the controller\'s phase says, at every step of every fixture; only a quiet agent-started turn reads idle', () => {
  const expected = (actions: SessionActions): Activity => (actions.phase === 'awaiting-user' ? 'waiting' : actions.busy ? 'working' : 'idle');
  const disagreements = new Set<string>();
  let checked = 0;
  for (const folder of ['traces', 'dialects', 'written', 'recorded-new'] as const) {
    for (const name of fixtureNames(folder)) {
      replayStepwise(folder, name, (store, line) => {
        for (const session of store.listSessions()) {
          const actions = store.actionsFor(session.id);
          const fresh = presentRow(session, session.updatedAt).activity;
          const quiet = presentRow(session, session.updatedAt + AGENT_STARTED_QUIET_MS).activity;
          const quietExpected = actions.phase === 'agent-started' ? 'idle' : expected(actions);
          if (fresh !== expected(actions) || quiet !== quietExpected) disagreements.add(`${folder}/${name}:${line} ${session.label}: ${actions.phase} reads ${fresh}, quiet ${quiet}`);
          checked++;
        }
      });
    }
  }
  assert.ok(checked > 1000);
  assert.deepEqual([...disagreements], []);
});

// #24 item 4: background work is counted apart from foreground turns. A background subagent is not "working"
// in the sense of a turn the user waits on; it is said as work in the background, until its end is reported.
test('a background subagent counts as background work, not as a working session; its reported end takes it off', () => {
  const file = 'qwen-background.jsonl';
  const lines = fixtureText('written', file).split('\n');
  const promptEnd = lines.findIndex((t) => t.includes('"id":2,"result"')) + 1;
  const summaryAfter = (count: number) => {
    const store = count === lines.length ? replayStepwise('written', file) : replayFirst('written', file, count);
    const runtime = { id: 'c1', live: true, store };
    const watch = new SessionTreeWatch();
    watch.sync([runtime]);
    return statusSummary([runtime], watch, NOW);
  };
  // The parent's turn still runs beside its background child.
  const during = summaryAfter(promptEnd - 1);
  assert.deepEqual([during.working, during.background, during.text], [1, 1, '$(sync~spin) 1 working  $(watch) 1 in background']);
  assert.match(during.tooltip, /1 session working\n1 subagent working in the background/);
  // The turn ended; the child goes on.
  const after = summaryAfter(promptEnd);
  assert.deepEqual([after.working, after.background, after.text], [0, 1, '$(watch) 1 in background']);
  assert.equal(after.tooltip, 'Subchats: 1 subagent working in the background');
  // qwen's background notification reports its end.
  assert.deepEqual(summaryAfter(lines.length).background, 0);
});

test('a background subagent whose end is never reported stays background work, however long it is quiet', () => {
  const file = 'opencode-background-task.jsonl';
  const agentText = fixtureText('written', file).split('\n').findIndex((t) => t.includes('Background task result received')) + 1;
  const store = replayFirst('written', file, agentText - 1);
  const runtime = { id: 'c1', live: true, store };
  const watch = new SessionTreeWatch();
  watch.sync([runtime]);
  const child = store.listSessions().find((session) => session.parentId !== null)!;
  const later = child.updatedAt + 10 * BACKGROUND_QUIET_MS;
  assert.equal(presentRow(child, later).label, 'No end reported');
  assert.deepEqual(statusSummary([runtime], watch, later), { working: 0, waiting: 0, background: 1, text: '$(watch) 1 in background', tooltip: 'Subchats: 1 subagent working in the background (no end reported)' });
});
