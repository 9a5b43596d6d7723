// ChatFeed without a browser: snapshot contents, batching to <= 60 posts/s, revisions, visibility.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DeltaMessage, HostToWebviewMessage, SnapshotMessage } from '../../src/protocol/webviewMessages';
import type { MessageEntry } from '../../src/store/model';
import { ChatFeed } from '../../src/webviews/chatFeed';
import { FakeTimers } from './fakeTimers';
import { FakeStore } from './fakeStore';
import { CHILD_A, CHILD_B, GRANDCHILD, ROOT, message, parentWithChildren } from './scenes';

function setup(rootId = ROOT, store: FakeStore = parentWithChildren()) {
  const timers = new FakeTimers();
  const posts: HostToWebviewMessage[] = [];
  const feed = new ChatFeed(store, rootId, (m) => posts.push(m), { timers });
  return { store, timers, posts, feed };
}

const deltas = (posts: HostToWebviewMessage[]): DeltaMessage[] => posts.filter((m): m is DeltaMessage => m.type === 'delta');

describe('ChatFeed', () => {
  test('a snapshot holds the session and all its descendants, ancestors, actions and terminals', () => {
    const { feed, posts, store } = setup(CHILD_A);
    feed.sendSnapshot();
    const snapshot = posts[0] as SnapshotMessage;
    assert.equal(snapshot.type, 'snapshot');
    assert.equal(snapshot.rev, store.revision);
    assert.deepEqual(snapshot.sessions.map((s) => s.header.id), [CHILD_A, GRANDCHILD]);
    assert.deepEqual(snapshot.ancestors.map((a) => a.id), [ROOT]);
    assert.equal(snapshot.sessions[0]!.header.actions.prompt.allowed, false);
    assert.equal('entries' in snapshot.sessions[0]!.header, false);
    assert.deepEqual(snapshot.terminals, []);
    const root = setup(ROOT, store);
    root.feed.sendSnapshot();
    assert.deepEqual((root.posts[0] as SnapshotMessage).terminals.map((t) => t.terminalId), ['term1']);
  });

  test('nothing is posted before the first snapshot', () => {
    const { store, timers, posts } = setup();
    store.addEntry<MessageEntry>(ROOT, message('x', 'agent', 'x'));
    timers.advance(1000);
    assert.deepEqual(posts, []);
  });

  test('a burst of changes becomes one delta, and posts stay at or under 60 per second', () => {
    const { feed, store, timers, posts } = setup();
    feed.sendSnapshot();
    store.addEntry<MessageEntry>(ROOT, message('s', 'agent', ''));
    // 5,000 updates over one second, spread evenly.
    for (let i = 0; i < 5000; i++) {
      store.updateEntry<MessageEntry>(ROOT, 's', (e) => ({ text: `${e.text}.` }));
      timers.advance(0.2);
    }
    timers.advance(100);
    const sent = deltas(posts);
    assert.ok(sent.length <= 61, `${sent.length} posts`);
    assert.ok(sent.length >= 50, `${sent.length} posts`);
    // Revisions chain without gaps, and the last delta carries the final text.
    let rev = (posts[0] as SnapshotMessage).rev;
    for (const delta of sent) {
      assert.equal(delta.fromRev, rev);
      rev = delta.toRev;
    }
    const last = sent.at(-1)!.sessions[0]!.entries!.at(-1)!.entry as MessageEntry;
    assert.equal(last.text.length, 5000);
  });

  test('deltas carry changed entries with their index, tool calls, headers and new sessions', () => {
    const { feed, store, timers, posts } = setup();
    feed.sendSnapshot();
    const count = store.getSession(ROOT)!.entries.length;
    store.upsertToolCall(ROOT, { toolCallId: 'read1', status: 'failed' });
    store.setState(CHILD_B, { state: 'idle' });
    store.addSession('sess_new', { parentId: CHILD_B, title: 'New' });
    timers.advance(20);
    const [delta] = deltas(posts);
    assert.ok(delta);
    const root = delta.sessions.find((s) => s.sessionId === ROOT)!;
    assert.equal(root.entries?.[0]?.entry.id, 'tc:read1');
    assert.equal(root.entries?.[0]?.index, store.getSession(ROOT)!.entries.findIndex((e) => e.id === 'tc:read1'));
    assert.equal(root.entryCount, count);
    assert.equal(root.toolCalls?.[0]?.status, 'failed');
    assert.equal(delta.sessions.find((s) => s.sessionId === CHILD_B)?.header?.state.state, 'idle');
    assert.equal(delta.sessions.find((s) => s.sessionId === 'sess_new')?.full?.header.label, 'New');
  });

  test('changed actions and terminal output are sent even without an entry change', () => {
    const { feed, store, timers, posts } = setup();
    feed.sendSnapshot();
    store.setActions(CHILD_A, { cancel: { allowed: false, reason: 'no' }, prompt: { allowed: false }, close: { allowed: false } });
    store.setTerminal(ROOT, { terminalId: 'term1', command: 'npm', args: ['test'], output: 'done\n', truncated: false, exitStatus: { exitCode: 0 } });
    timers.advance(20);
    const [delta] = deltas(posts);
    assert.equal(delta?.sessions.find((s) => s.sessionId === CHILD_A)?.header?.actions.cancel.allowed, false);
    assert.deepEqual(delta?.terminals?.map((t) => t.output), ['done\n']);
  });

  test('changes outside the subtree post nothing', () => {
    const { feed, store, timers, posts } = setup(CHILD_B);
    feed.sendSnapshot();
    store.addEntry<MessageEntry>(CHILD_A, message('elsewhere', 'agent', 'x'));
    timers.advance(100);
    assert.equal(deltas(posts).length, 0);
  });

  test('hidden panels get nothing; becoming visible sends a fresh snapshot', () => {
    const { feed, store, timers, posts } = setup();
    feed.sendSnapshot();
    feed.setVisible(false);
    store.addEntry<MessageEntry>(ROOT, message('while-hidden', 'agent', 'x'));
    timers.advance(100);
    assert.equal(posts.length, 1);
    feed.setVisible(true);
    assert.equal(posts.length, 2);
    const snapshot = posts[1] as SnapshotMessage;
    assert.equal(snapshot.type, 'snapshot');
    assert.ok(snapshot.sessions[0]!.entries.some((e) => e.id === 'while-hidden'));
  });

  test('a panel opened before its session exists gets a snapshot once the session appears', () => {
    const store = new FakeStore();
    const { feed, timers, posts } = setup('later', store);
    feed.sendSnapshot();
    assert.equal((posts[0] as SnapshotMessage).sessions.length, 0);
    assert.ok((posts[0] as SnapshotMessage).unavailableReason);
    store.addSession('later', { title: 'Later' });
    timers.advance(20);
    assert.equal(posts[1]?.type, 'snapshot');
    assert.equal((posts[1] as SnapshotMessage).sessions[0]?.header.label, 'Later');
  });

  test('dispose stops the feed', () => {
    const { feed, store, timers, posts } = setup();
    feed.sendSnapshot();
    feed.dispose();
    store.addEntry<MessageEntry>(ROOT, message('after-dispose', 'agent', 'x'));
    timers.advance(100);
    assert.equal(posts.length, 1);
  });
});
