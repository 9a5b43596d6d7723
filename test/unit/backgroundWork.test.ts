// "The turn is done" is never said alone while a background subagent the agent reported still runs: the root's
// row and its chat header say "Done; 1 subagent still running in the background" until that child's end is
// reported (qwen's background notification), and keep saying it for a child whose end never is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKGROUND_QUIET_MS, presentState, withBackgroundWork } from '../../src/presentation';
import { subtreeSummary } from '../../src/store/subtreeSummary';
import type { SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { sessionHeader } from '../../src/webviews/chatProjection';
import { fixtureText, replayFirst, replayFixture, Wire, announce } from './support/storeFixtures';

const rootOf = (store: SessionStore): SessionView => store.listSessions().find((s) => s.parentId === null)!;
const runtimeOf = (store: SessionStore) => ({ id: 'c1', agent: { id: 'qwen', name: 'Qwen', command: 'qwen' }, live: true, status: 'ready' as const, store });
const rowState = (store: SessionStore, id: string, now = 0) => sessionItemOf(runtimeOf(store), id, now)!.description.split(' · ')[0];

function lineOf(file: string, matches: (text: string) => boolean): number {
  const index = fixtureText('written', file).split('\n').findIndex(matches);
  assert.ok(index >= 0, 'the transcript has that line');
  return index + 1;
}

test('the rule: an ended turn with background work says how many subagents still run; anything else is left as it is', () => {
  const done = presentState({ state: 'idle', stopReason: 'end_turn' });
  assert.equal(withBackgroundWork(done, 0).label, 'Done');
  assert.equal(withBackgroundWork(done, 1).label, 'Done; 1 subagent still running in the background');
  assert.equal(withBackgroundWork(done, 2).label, 'Done; 2 subagents still running in the background');
  assert.equal(withBackgroundWork(presentState({ state: 'idle', stopReason: 'cancelled' }), 1).label, 'Cancelled; 1 subagent still running in the background');
  // A root still at work, or waiting for the user, says that, not the children.
  assert.equal(withBackgroundWork(presentState({ state: 'running' }), 2).label, 'Running');
  assert.equal(withBackgroundWork(presentState({ state: 'requires_action' }), 2).label, 'Needs you');
  assert.equal(withBackgroundWork(done, 1).icon, done.icon);
});

test('the count: descendants at work in the background, grandchildren included; foreground children and ended ones are not', () => {
  const w = new Wire();
  w.newSession('R');
  const end = w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  w.update('A', announce('B', { title: 'Scout', state: { state: 'running' } }));
  w.update('R', announce('C', { title: 'Writer', state: { state: 'running' } }));
  w.record('A').background = true;
  w.record('B').background = true;
  end('end_turn');
  assert.equal(subtreeSummary(w.store, 'R')?.backgroundRunning, 2, 'A and its B; C is a foreground child');
  w.update('A', announce('B', { state: { state: 'idle', stopReason: 'end_turn' } }));
  assert.equal(subtreeSummary(w.store, 'R')?.backgroundRunning, 1);
  assert.equal(subtreeSummary(w.store, 'A')?.backgroundRunning, 0, 'a session does not count itself');
});

test('qwen background subagent: the root reads "Done; 1 subagent still running in the background" until the background notification, then Done', () => {
  const file = 'qwen-background.jsonl';
  const promptEnd = lineOf(file, (t) => t.includes('"id":2,"result"'));
  const mid = replayFirst('written', file, promptEnd);
  const root = rootOf(mid);
  assert.equal(root.state.stopReason, 'end_turn');
  const said = 'Done; 1 subagent still running in the background';
  assert.equal(rowState(mid, root.id), said, 'the tree row');
  assert.match(sessionItemOf(runtimeOf(mid), root.id, 0)!.tooltip, /State: Done\\; 1 subagent still running in the background/);
  const header = sessionHeader(mid, root);
  assert.equal(header.backgroundRunning, 1, 'the chat header carries the count, computed on the host');
  assert.equal(withBackgroundWork(presentState(header.state, header), header.backgroundRunning).label, said, 'the chat header says the same');

  const { store: after } = replayFixture('written', file);
  const ended = rootOf(after);
  assert.equal(sessionHeader(after, ended).backgroundRunning, 0);
  assert.equal(rowState(after, ended.id), 'Done');
});

test('a background child whose end is never reported keeps the root from reading plain Done, however long it is quiet', () => {
  const file = 'opencode-background-task.jsonl';
  const agentText = lineOf(file, (t) => t.includes('Background task result received'));
  const store = replayFirst('written', file, agentText - 1);
  const root = rootOf(store);
  const later = root.updatedAt + 10 * BACKGROUND_QUIET_MS;
  assert.equal(rowState(store, root.id, later), 'Done; 1 subagent still running in the background');
  assert.equal(sessionHeader(store, root).backgroundRunning, 1);
});
