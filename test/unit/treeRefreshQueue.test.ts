// When the sidebar tree fires changes: a new row at once, never within VS Code's 200 ms debounce of the last
// fire (that would hold it back), and rows that show nothing new not at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_FIRE_GAP_MS, ITEM_COALESCE_MS, TreeRefreshQueue } from '../../src/views/treeRefreshQueue';
import { FakeTimers } from '../component/fakeTimers';

function harness(changed: (key: string) => boolean = () => true) {
  const timers = new FakeTimers();
  const fires: { at: number; keys: readonly string[] | undefined }[] = [];
  let flushes = 0;
  const queue = new TreeRefreshQueue({ fire: (keys) => fires.push({ at: timers.time, keys }), rowChanged: changed, flushed: () => flushes++ }, timers);
  return { timers, fires, queue, flushes: () => flushes };
}

test('a new child row fires at once when the tree has been quiet', () => {
  const { timers, fires, queue } = harness();
  timers.advance(1000);
  queue.childrenChanged('parent');
  timers.advance(0);
  assert.deepEqual(fires, [{ at: 1000, keys: ['parent'] }]);
});

test('a change right after a fire waits until the debounce window has passed, then goes out once', () => {
  const { timers, fires, queue } = harness();
  timers.advance(1000);
  queue.childrenChanged('a');
  timers.advance(0);
  timers.advance(30);
  queue.childrenChanged('b');
  queue.itemChanged('c');
  timers.advance(500);
  assert.deepEqual(fires.map((f) => f.at), [1000, 1000 + MIN_FIRE_GAP_MS]);
  assert.deepEqual(fires[1]!.keys, ['b', 'c']);
  assert.ok(MIN_FIRE_GAP_MS > 200, 'VS Code holds any change fired within 200 ms of the previous one');
});

test('item changes are coalesced, and a new row does not wait for them', () => {
  const { timers, fires, queue } = harness();
  timers.advance(1000);
  queue.itemChanged('streaming');
  timers.advance(10);
  queue.itemChanged('streaming');
  queue.childrenChanged('parent');
  timers.advance(0);
  assert.deepEqual(fires, [{ at: 1010, keys: ['parent', 'streaming'] }]);
  timers.advance(ITEM_COALESCE_MS);
  assert.equal(fires.length, 1, 'the pending item change went out with the row');
});

test('a row that shows nothing new is not fired, but the flush still runs (badge, reveals)', () => {
  const { timers, fires, queue, flushes } = harness((key) => key !== 'unchanged');
  timers.advance(1000);
  for (let i = 0; i < 100; i++) queue.itemChanged('unchanged');
  timers.advance(ITEM_COALESCE_MS);
  assert.deepEqual(fires, []);
  assert.equal(flushes(), 1);
  // Nothing was fired, so a new row right after is not held back.
  queue.childrenChanged('parent');
  timers.advance(0);
  assert.deepEqual(fires, [{ at: 1000 + ITEM_COALESCE_MS, keys: ['parent'] }]);
});

test('a whole-tree refresh replaces pending node changes', () => {
  const { timers, fires, queue } = harness();
  timers.advance(1000);
  queue.itemChanged('a');
  queue.everythingChanged();
  timers.advance(ITEM_COALESCE_MS);
  assert.deepEqual(fires, [{ at: 1000, keys: undefined }]);
});

test('dispose stops a pending fire', () => {
  const { timers, fires, queue } = harness();
  queue.childrenChanged('a');
  queue.dispose();
  timers.advance(1000);
  assert.deepEqual(fires, []);
});

test('before each flush the tree says which nodes show other children now (sort and filter); all of them when it says so', () => {
  const timers = new FakeTimers();
  const fires: (readonly string[] | undefined)[] = [];
  let restructured: readonly string[] | 'all' = ['parent'];
  const queue = new TreeRefreshQueue({ fire: (keys) => fires.push(keys), rowChanged: () => false, flushed: () => undefined, restructured: () => restructured }, timers);
  timers.advance(1000);
  queue.itemChanged('row');
  timers.advance(ITEM_COALESCE_MS);
  assert.deepEqual(fires, [['parent']], 'the row shows nothing new, but its parent reorders');
  restructured = 'all';
  queue.itemChanged('row');
  timers.advance(MIN_FIRE_GAP_MS);
  assert.deepEqual(fires, [['parent'], undefined]);
});
