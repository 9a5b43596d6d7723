// A row and a chat header say what a session's whole subtree did (files changed, usage with the subagents',
// subagents still at work in the background). The summary is kept per session and rebuilt from the children's
// only where something below changed: a refresh of every row is one pass over the sessions, and a chunk of text
// streamed into one subagent costs the path up from it. These tests hold it to the store's facts after each
// kind of change (a stale summary would say an old figure) and count the store reads a refresh makes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionView } from '../../src/store/model';
import { subtreeSummary } from '../../src/store/subtreeSummary';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { announce, text, Wire } from './support/storeFixtures';

const edit = (toolCallId: string, path: string) => ({
  sessionUpdate: 'tool_call',
  toolCallId,
  title: `Edit ${path}`,
  kind: 'edit',
  status: 'completed',
  content: [{ type: 'diff', path, oldText: 'a\n', newText: 'b\n' }],
});

const idleWith = (totalTokens: number) => ({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', usage: { totalTokens } });

/** R > A > B, R > C; every session reports its tokens; B edits one file. */
function tree(): Wire {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  w.update('A', announce('B', { title: 'Scout', state: { state: 'running' } }));
  w.update('R', announce('C', { title: 'Writer', state: { state: 'running' } }));
  w.update('B', edit('e1', '/work/one.ts'));
  return w;
}

const paths = (w: Wire, id: string) => [...subtreeSummary(w.store, id)!.changedPaths].sort();

test('a change deep below reaches every ancestor, and only where it is below', () => {
  const w = tree();
  assert.deepEqual(paths(w, 'R'), ['/work/one.ts']);
  assert.deepEqual(paths(w, 'C'), []);
  const before = subtreeSummary(w.store, 'C');
  w.update('B', edit('e2', '/work/two.ts'));
  assert.deepEqual(paths(w, 'R'), ['/work/one.ts', '/work/two.ts'], 'the root counts the grandchild’s new file');
  assert.deepEqual(paths(w, 'A'), ['/work/one.ts', '/work/two.ts']);
  assert.equal(subtreeSummary(w.store, 'C'), before, 'a sibling subtree that did not change keeps its summary');
  w.update('C', edit('e3', '/work/one.ts'));
  assert.deepEqual(paths(w, 'R'), ['/work/one.ts', '/work/two.ts'], 'a path changed twice is one file');
});

test('usage with the subagents’ follows each report; background work below is counted until its end is reported', () => {
  const w = tree();
  w.update('B', idleWith(40));
  w.update('C', idleWith(20));
  assert.deepEqual(subtreeSummary(w.store, 'R')!.usage.subagents, { totalTokens: 60 });
  w.update('A', idleWith(5));
  // A's report does not say whether it includes B's: A's 5 stands, B's 40 stays apart (partial).
  assert.deepEqual([subtreeSummary(w.store, 'R')!.usage.subagents, subtreeSummary(w.store, 'R')!.usage.partial], [{ totalTokens: 25 }, true]);

  const bg = new Wire().newSession('R');
  const end = bg.prompt('R', 'go');
  bg.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  bg.update('A', announce('B', { title: 'Scout', state: { state: 'running' } }));
  bg.record('A').background = true;
  bg.record('B').background = true;
  end('end_turn');
  assert.equal(subtreeSummary(bg.store, 'R')!.backgroundRunning, 2);
  bg.update('A', announce('B', { state: { state: 'idle', stopReason: 'end_turn' } }));
  assert.equal(subtreeSummary(bg.store, 'R')!.backgroundRunning, 1, 'the grandchild’s end lowers the root’s count although nothing else changed');
  assert.equal(subtreeSummary(bg.store, 'A')!.backgroundRunning, 0, 'a session does not count itself');
});

test('a refresh reads each session once, and text streamed into one subagent re-reads only its path up and its siblings', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  for (let i = 0; i < 10; i++) {
    w.update('R', announce(`A${i}`, { title: `Lead ${i}`, state: { state: 'running' } }));
    for (let j = 0; j < 30; j++) w.update(`A${i}`, announce(`A${i}.${j}`, { title: `Helper ${j}`, state: { state: 'running' } }));
  }
  const runtime = { id: 'c1', agent: { id: 'demo', name: 'Demo', command: 'demo' }, live: true, status: 'ready' as const, store: w.store };
  let reads = 0;
  const getSession = w.store.getSession.bind(w.store);
  w.store.getSession = (id: string): SessionView | undefined => {
    reads++;
    return getSession(id);
  };
  const summaries = () => {
    reads = 0;
    for (const session of w.store.listSessions()) subtreeSummary(w.store, session.id);
    return reads;
  };
  const sessions = w.store.listSessions().length;
  assert.equal(sessions, 311);
  // Each session once for itself, once as a child when its parent is entered, once when its parent is settled.
  assert.ok(summaries() <= 3 * sessions + sessions, `a first pass over ${sessions} sessions read ${reads} times`);
  assert.equal(summaries(), sessions, 'nothing changed: one read per row, no walk below it');
  w.update('A3.7', text('agent_message_chunk', 'more'));
  // R's 10 children and A3's 30 are looked at again; nothing under the other nine leads.
  assert.ok(summaries() <= sessions + 2 * (10 + 30), `after one chunk a pass read ${reads} times`);
  assert.ok(sessionItemOf(runtime, 'R', 0)!.description.includes('10 sub'));
});

test('"Cancel all subagents" follows a change below although the walk that found the answer is kept', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Explorer', state: { state: 'running' } }));
  w.update('A', announce('B', { title: 'Scout', state: { state: 'idle', stopReason: 'end_turn' } }));
  const cancelChildren = () => w.store.actionsFor('R').cancelChildren;
  assert.equal(cancelChildren().allowed, false, 'A works but announced no cancel capability');
  assert.match(cancelChildren().reason ?? '', /"Explorer"/);
  w.update('A', announce('B', { capabilities: { cancel: {} }, state: { state: 'running' } }));
  assert.equal(cancelChildren().allowed, true, 'the grandchild now works and takes a cancel');
  w.update('A', announce('B', { state: { state: 'idle', stopReason: 'end_turn' } }));
  assert.equal(cancelChildren().allowed, false, 'and no longer once it ended');
});
