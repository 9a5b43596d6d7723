// The fake store keeps the real store's listSessions() contract (SessionStoreReader): tree pre-order,
// parents before children, siblings in order of first appearance, whatever order they were added in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeStore } from './fakeStore';

test('listSessions lists the tree in pre-order', () => {
  const store = new FakeStore();
  store.addSession('a');
  store.addSession('b');
  store.addSession('a1', { parentId: 'a' });
  store.addSession('b1', { parentId: 'b' });
  store.addSession('a2', { parentId: 'a' });
  store.addSession('a1x', { parentId: 'a1' });
  store.addSession('c');
  assert.deepEqual(store.listSessions().map((s) => s.id), ['a', 'a1', 'a1x', 'a2', 'b', 'b1', 'c']);
});
