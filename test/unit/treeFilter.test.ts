// The session tree's sort and filter (issue #24 item 6) on real stores: recorded agent traces and hand-fed wires.
// A row is shown or hidden by the verdict it reads; ancestors stay for what they lead to; siblings sort stably.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activityShown, arrangeRuntime, DEFAULT_TREE_OPTIONS, filterMessage, orderRuntimes, readTreeOptions, type ArrangeableRuntime, type TreeViewOptions } from '../../src/views/treeFilter';
import { TreeArrangement, type ArrangementRuntime } from '../../src/views/treeArrangement';
import { presentRow, sessionItemOf } from '../../src/views/sessionTreeModel';
import { usageRank } from '../../src/views/usageRank';
import type { SessionStore } from '../../src/store/sessionStore';
import { announce, replayFixture, replayUntil, Wire } from './support/storeFixtures';
import { menusOnDisk, VIEW_ID, whenHolds } from './support/contextMenus';
import { needsUser } from '../../src/views/sessionTreeModel';

const opts = (o: Partial<TreeViewOptions>): TreeViewOptions => ({ ...DEFAULT_TREE_OPTIONS, ...o });
const runtime = (id: string, agentName: string, store: SessionStore): ArrangementRuntime => ({ id, agentName, store });
const rootOf = (store: SessionStore) => store.listSessions().find((s) => s.parentId === null)!;

/** Claude with its subagent asking for permission (the parent runs): the moment "Needs me" is for. */
function claudeAsking(): SessionStore {
  return replayUntil('traces', 'claude2-permission.jsonl', (s) => s.listSessions().some((x) => x.parentId !== null && needsUser(x)));
}

test('Needs me keeps the subagent that asks and the parent that leads to it; a connection with nothing for you goes', () => {
  const claude = claudeAsking();
  const codex = replayFixture('traces', 'codex-single.jsonl').store;
  const root = rootOf(claude);
  const child = root.childIds[0]!;
  const needsMe = opts({ show: 'needsMe' });

  const asked = arrangeRuntime(runtime('c', 'Claude', claude), needsMe, 0);
  assert.equal(asked.shown, true);
  assert.deepEqual(asked.children.get(null), [root.id], 'the running parent stays: it is the path to the question');
  assert.deepEqual(asked.children.get(root.id), [child]);
  assert.equal(asked.hidden, 0);

  const done = arrangeRuntime(runtime('x', 'Codex', codex), needsMe, 0);
  assert.equal(done.shown, false, 'a connection where nothing needs you is hidden under Needs me');
  assert.deepEqual(done.children.get(null), []);
  assert.equal(done.hidden, codex.listSessions().length);

  // Everything shows all of it; Working keeps the running parent for itself and its asking child.
  assert.equal(arrangeRuntime(runtime('x', 'Codex', codex), DEFAULT_TREE_OPTIONS, 0).hidden, 0);
  const working = arrangeRuntime(runtime('c', 'Claude', claude), opts({ show: 'working' }), 0);
  assert.deepEqual([working.children.get(null), working.children.get(root.id)], [[root.id], [child]]);
});

test('Needs me hides a parent whose subagents are all done, and keeps a row only for its own verdict or a kept descendant', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'Done one', state: { state: 'idle', stopReason: 'end_turn' } }));
  w.update('R', announce('B', { title: 'Asks', state: { state: 'running' } }));
  w.update('B', announce('B1', { title: 'Grandchild, running', state: { state: 'running' } }));
  const arranged = arrangeRuntime(runtime('c', 'Demo', w.store), opts({ show: 'needsMe' }), 0);
  assert.equal(arranged.shown, false, 'nothing waits yet');
  w.record('B').state = { state: 'requires_action' };
  const asked = arrangeRuntime(runtime('c', 'Demo', w.store), opts({ show: 'needsMe' }), 0);
  assert.deepEqual(asked.children.get(null), ['R']);
  assert.deepEqual(asked.children.get('R'), ['B'], 'the done sibling is hidden');
  assert.deepEqual(asked.children.get('B'), [], 'a running descendant of the asking row is hidden: Needs me is not Working');
  assert.equal(asked.hidden, 2);
  assert.equal(asked.visible, 2);
});

test('the filter and the row read one verdict at one now: an agent-started turn gone quiet leaves Working as its row turns Idle', () => {
  const store = replayUntil('written', 'opencode-agent-started-turn.jsonl', (s) => s.listSessions().some((x) => presentRow(x, x.updatedAt + 1000).label === 'Running (agent started)'));
  const root = rootOf(store);
  const rt = { id: 'o', agent: { id: 'opencode', name: 'opencode' }, live: true, status: 'ready' as const, store } as unknown as Parameters<typeof sessionItemOf>[0];
  for (const [after, shown, label] of [
    [1_000, true, /^Running \(agent started\)/],
    [31_000, false, /^Idle \(quiet\)/],
  ] as const) {
    const arranged = arrangeRuntime(runtime('o', 'opencode', store), opts({ show: 'working' }), root.updatedAt + after);
    const row = sessionItemOf(rt, root.id, arranged.now)!;
    assert.match(row.description, label);
    assert.equal(arranged.children.get(null)!.includes(root.id), shown, `${after} ms after: the row reads ${row.description}`);
    assert.equal(activityShown(arranged.activity.get(root.id)!, 'working'), shown);
  }
});

test('every row the filter keeps for itself reads as the filter says, on every recorded trace moment with a question', () => {
  for (const [folder, name] of [
    ['traces', 'claude2-permission.jsonl'],
    ['traces', 'codex-v2-permission.jsonl'],
    ['traces', 'qwen-single.jsonl'],
    ['recorded-new', 'copilot-permission.jsonl'],
  ] as const) {
    const store = replayUntil(folder, name, (s) => s.listSessions().some(needsUser));
    const arranged = arrangeRuntime(runtime('c', name, store), opts({ show: 'needsMe' }), 0);
    for (const session of store.listSessions()) {
      const reads = presentRow(session, arranged.now).label;
      const kept = [...arranged.children.values()].some((ids) => ids.includes(session.id));
      if (reads === 'Needs you') assert.ok(kept, `${name}: ${session.id} reads Needs you and is hidden`);
      if (kept && reads !== 'Needs you') assert.ok(session.childIds.some((id) => [...arranged.children.values()].some((ids) => ids.includes(id))), `${name}: ${session.id} is kept for nothing`);
    }
  }
});

test('State sort: needs you, then working, then the rest, in order of appearance within each', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  for (const [id, state] of [
    ['done1', { state: 'idle', stopReason: 'end_turn' }],
    ['run1', { state: 'running' }],
    ['ask', { state: 'requires_action' }],
    ['done2', { state: 'idle', stopReason: 'cancelled' }],
    ['run2', { state: 'running' }],
  ] as const) {
    w.update('R', announce(id, { title: id, state }));
  }
  const byState = arrangeRuntime(runtime('c', 'Demo', w.store), opts({ sort: 'state' }), 0);
  assert.deepEqual(byState.children.get('R'), ['ask', 'run1', 'run2', 'done1', 'done2']);
  const asCame = arrangeRuntime(runtime('c', 'Demo', w.store), DEFAULT_TREE_OPTIONS, 0);
  assert.deepEqual(asCame.children.get('R'), ['done1', 'run1', 'ask', 'done2', 'run2']);
});

test('Cost sort: the highest reported cost first, then tokens used where no cost is reported, then nothing', () => {
  const w = new Wire();
  const usage = (id: string, fields: Record<string, unknown>) => w.update(id, { sessionUpdate: 'usage_update', ...fields });
  for (const id of ['cheap', 'silent', 'dear', 'tokens', 'tokensMore']) w.newSession(id);
  usage('cheap', { used: 9_000, size: 100_000, cost: { amount: 0.002, currency: 'USD' } });
  usage('dear', { used: 10, size: 100_000, cost: { amount: 0.01, currency: 'USD' } });
  usage('tokens', { used: 500, size: 100_000 });
  usage('tokensMore', { used: 700, size: 100_000 });
  const arranged = arrangeRuntime(runtime('c', 'Demo', w.store), opts({ sort: 'cost' }), 0);
  assert.deepEqual(arranged.children.get(null), ['dear', 'cheap', 'tokensMore', 'tokens', 'silent']);
  // One accessor reads usage, from the store's record (a recorded Claude trace reports cost).
  const claude = replayFixture('traces', 'claude2-parallel.jsonl').store;
  assert.deepEqual(usageRank(rootOf(claude)), { unit: 'cost', amount: 0.005600000000000001 });
  assert.equal(usageRank(claude.getSession(rootOf(claude).childIds[0]!)!), undefined, 'its subagents report none');
  assert.deepEqual(usageRank(rootOf(replayFixture('traces', 'codex-v2-single.jsonl').store)), { unit: 'tokens', amount: 360 }, 'Codex reports its turn\'s tokens, no cost');
});

test('Agent sort orders connections by agent name (case aside, stable); other sorts keep their order', () => {
  const names = ['codex', 'Claude', 'opencode', 'claude', 'Amp'].map((agentName, i) => ({ agentName, i }));
  assert.deepEqual(orderRuntimes(names, opts({ sort: 'agent' })).map((r) => r.i), [4, 1, 3, 0, 2]);
  assert.deepEqual(orderRuntimes(names, opts({ sort: 'state' })).map((r) => r.i), [0, 1, 2, 3, 4]);
});

test('the agent filter shows the picked agents only, and with a state filter both hold', () => {
  const claude = claudeAsking();
  const codex = replayUntil('traces', 'codex-v2-permission.jsonl', (s) => s.listSessions().some(needsUser));
  const onlyCodex = opts({ agents: ['Codex'] });
  assert.equal(arrangeRuntime(runtime('c', 'Claude', claude), onlyCodex, 0).shown, false);
  assert.equal(arrangeRuntime(runtime('c', 'Claude', claude), onlyCodex, 0).hidden, claude.listSessions().length);
  assert.equal(arrangeRuntime(runtime('x', 'Codex', codex), onlyCodex, 0).hidden, 0);
  const codexAsking = arrangeRuntime(runtime('x', 'Codex', codex), opts({ agents: ['Codex'], show: 'needsMe' }), 0);
  assert.equal(codexAsking.shown, true);
  assert.equal(codexAsking.visible, 2);
});

test('stored options are read back; anything else falls back to the plain tree', () => {
  const chosen = opts({ sort: 'cost', show: 'needsMe', agents: ['Claude'] });
  assert.deepEqual(readTreeOptions(JSON.parse(JSON.stringify(chosen))), chosen);
  assert.deepEqual(readTreeOptions(undefined), DEFAULT_TREE_OPTIONS);
  assert.deepEqual(readTreeOptions({ sort: 'size', show: 42, agents: ['A', 3, 'A'] }), { ...DEFAULT_TREE_OPTIONS, agents: ['A'] });
});

test('the tree message says what the filter shows and how many sessions it hides', () => {
  assert.equal(filterMessage(DEFAULT_TREE_OPTIONS, { shown: 3, hidden: 0 }), undefined);
  assert.equal(filterMessage(opts({ sort: 'cost' }), { shown: 3, hidden: 0 }), undefined, 'a sort hides nothing');
  assert.equal(filterMessage(opts({ show: 'needsMe' }), { shown: 2, hidden: 3 }), 'Showing only sessions that need you: 3 sessions hidden. Clear the filter to see all.');
  assert.equal(filterMessage(opts({ show: 'needsMe' }), { shown: 0, hidden: 1 }), 'Nothing needs you: 1 session hidden. Clear the filter to see all.');
  assert.equal(filterMessage(opts({ show: 'working', agents: ['Claude', 'Codex'] }), { shown: 1, hidden: 4 }), 'Showing only sessions at work or waiting for you of Claude, Codex: 4 sessions hidden. Clear the filter to see all.');
  assert.equal(filterMessage(opts({ agents: ['Claude'] }), { shown: 0, hidden: 2 }), 'No sessions of Claude: 2 sessions hidden. Clear the filter to see all.');
});

/** A store whose session listings are counted, to see how often the arrangement walks it. */
function counted(store: SessionStore): { store: ArrangeableRuntime['store']; walks: () => number } {
  let walks = 0;
  return {
    store: {
      listSessions: () => {
        walks++;
        return store.listSessions();
      },
      getSession: (id) => store.getSession(id),
    },
    walks: () => walks,
  };
}

test('the arrangement walks a connection once, again only after it was touched, and tells which parent shows other children', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', announce('A', { title: 'A', state: { state: 'running' } }));
  w.update('R', announce('B', { title: 'B', state: { state: 'running' } }));
  const other = claudeAsking();
  const demo = counted(w.store);
  const runtimes: ArrangementRuntime[] = [{ id: 'd', agentName: 'Demo', store: demo.store }, runtime('c', 'Claude', other)];
  const arrangement = new TreeArrangement(() => runtimes, () => 0);
  arrangement.set(opts({ show: 'working', sort: 'state' }));
  assert.deepEqual(arrangement.connectionIds(), ['d', 'c']);
  assert.deepEqual(arrangement.children(runtimes[0]!, 'R'), ['A', 'B']);
  for (let i = 0; i < 5; i++) arrangement.children(runtimes[0]!, 'R');
  arrangement.message();
  assert.equal(demo.walks(), 1, 'asking again reads what was arranged');
  assert.deepEqual(arrangement.rearrange(), [], 'nothing touched, nothing walked');
  assert.equal(demo.walks(), 1);

  // B asks: it moves first among its siblings; only R's children changed.
  w.record('B').state = { state: 'requires_action' };
  arrangement.touch('d');
  arrangement.touch('d');
  assert.deepEqual(arrangement.rearrange(), [{ connectionId: 'd', sessionId: 'R' }]);
  assert.equal(demo.walks(), 2, 'touched twice, walked once');
  assert.deepEqual(arrangement.children(runtimes[0]!, 'R'), ['B', 'A']);
  assert.equal(arrangement.isShown(runtimes[0]!, 'A'), true);

  // A ends: Working hides it.
  w.record('A').state = { state: 'idle', stopReason: 'end_turn' };
  arrangement.touch('d');
  assert.deepEqual(arrangement.rearrange(), [{ connectionId: 'd', sessionId: 'R' }]);
  assert.equal(arrangement.isShown(runtimes[0]!, 'A'), false);
  assert.match(arrangement.message()!, /1 session hidden/);

  // Everything ends: the connection itself goes, and the whole tree is refreshed.
  for (const id of ['R', 'B']) w.record(id).state = { state: 'idle', stopReason: 'end_turn' };
  arrangement.touch('d');
  assert.equal(arrangement.rearrange(), 'all');
  assert.deepEqual(arrangement.connectionIds(), ['c']);
});

test('the title bar shows the bell and the filter while nothing is filtered, the filled filter that clears it while something is', () => {
  const titleBar = menusOnDisk('view/title');
  const shown = (filtered: boolean) =>
    titleBar
      .filter((e) => e.group?.startsWith('navigation') && whenHolds(e.when ?? 'true', { view: VIEW_ID, keys: { 'subchats.sessions.filtered': filtered } }))
      .map((e) => e.command)
      .filter((c) => /Session(s|Filter)|NeedsMe/.test(c));
  assert.deepEqual(shown(false), ['subchats.showOnlyNeedsMe', 'subchats.filterSessions']);
  assert.deepEqual(shown(true), ['subchats.clearSessionFilter']);
  const more = (filtered: boolean) => titleBar.filter((e) => !e.group?.startsWith('navigation') && whenHolds(e.when ?? 'true', { view: VIEW_ID, keys: { 'subchats.sessions.filtered': filtered } })).map((e) => e.command);
  assert.ok(more(false).includes('subchats.sortSessions') && !more(false).includes('subchats.filterSessions'));
  assert.ok(more(true).includes('subchats.sortSessions') && more(true).includes('subchats.filterSessions'), 'the filter can be changed while it is on');
});
