// The panel's end of the pipe (src/webviews/feedSync.ts), without VS Code: a dropped post makes the next show
// send a snapshot, every ready gets exactly one snapshot, a page of another protocol version gets only the
// reason, and an attachment waits for a page that takes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { protocolMismatchReason } from '../../src/presentation';
import { WEBVIEW_PROTOCOL_VERSION, type HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import { FeedSync } from '../../src/webviews/feedSync';

function pipe(): { sync: FeedSync; posted: HostToWebviewMessage[]; take: (taken: boolean) => void; show: (visible: boolean) => void } {
  const posted: HostToWebviewMessage[] = [];
  let taken = true;
  let visible = true;
  const sync = new FeedSync({
    panelState: { connectionId: 'c', sessionId: 's' },
    postMessage: (message) => {
      posted.push(message);
      return Promise.resolve(taken);
    },
    isVisible: () => visible,
  });
  return { sync, posted, take: (value) => (taken = value), show: (value) => (visible = value) };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const types = (posted: readonly HostToWebviewMessage[]): string[] => posted.map((m) => (m.type === 'snapshot' ? `snapshot:${m.unavailableReason ?? ''}` : m.type));

test('without a connection, each ready gets one snapshot saying so, with the panel state to restore', () => {
  const { sync, posted } = pipe();
  sync.setFeed(undefined);
  sync.ready(WEBVIEW_PROTOCOL_VERSION);
  assert.equal(posted.length, 2);
  const last = posted[1];
  assert.ok(last?.type === 'snapshot');
  assert.match(last.unavailableReason ?? '', /not available/);
  assert.deepEqual(last.panelState, { connectionId: 'c', sessionId: 's' });
});

test('a dropped snapshot is sent again when the panel is shown, not before', async () => {
  const { sync, posted, take } = pipe();
  take(false);
  sync.setFeed(undefined);
  await settle();
  take(true);
  sync.visibilityChanged(false);
  assert.equal(posted.length, 1, 'hidden: nothing more');
  sync.visibilityChanged(true);
  assert.equal(posted.length, 2, 'shown: the snapshot again');
  sync.visibilityChanged(true);
  assert.equal(posted.length, 2, 'delivered since: no more');
});

test('a page of another protocol version gets only the reason; nothing else until it reloads', async () => {
  const { sync, posted } = pipe();
  sync.ready(WEBVIEW_PROTOCOL_VERSION - 1);
  sync.focusPrompt();
  sync.addAttachment({ type: 'addAttachment', attachment: { kind: 'file', path: 'a.ts' } });
  assert.equal(await sync.post({ type: 'requestOutcome', request: 'cancel', sessionId: 's' }), false);
  assert.deepEqual(types(posted), [`snapshot:${protocolMismatchReason()}`]);
});

test('an attachment waits for a page that takes it, then goes once', async () => {
  const { sync, posted, take } = pipe();
  take(false);
  sync.addAttachment({ type: 'addAttachment', attachment: { kind: 'file', path: 'a.ts' } });
  await settle();
  take(true);
  sync.resync();
  await settle();
  sync.resync();
  assert.deepEqual(types(posted), ['addAttachment', 'snapshot:The agent connection for this chat is not available. Reconnect or reopen the session.', 'addAttachment', 'snapshot:The agent connection for this chat is not available. Reconnect or reopen the session.']);
});

test("the theme's code colours go to the page, the latest again after each ready (a reload), none to a page of another version", () => {
  const { sync, posted } = pipe();
  sync.setFeed(undefined);
  sync.tokenColors({ type: 'tokenColors', tokens: { keyword: { color: '#111111' } } });
  sync.tokenColors({ type: 'tokenColors', tokens: null });
  sync.ready(WEBVIEW_PROTOCOL_VERSION);
  assert.deepEqual(posted.map((m) => m.type), ['snapshot', 'tokenColors', 'tokenColors', 'snapshot', 'tokenColors']);
  assert.deepEqual(posted.at(-1), { type: 'tokenColors', tokens: null }, 'the latest, not every one sent');
  sync.ready(WEBVIEW_PROTOCOL_VERSION - 1);
  const before = posted.length;
  sync.tokenColors({ type: 'tokenColors', tokens: null });
  assert.equal(posted.length, before);
});

test('every snapshot carries the workspace the chat words paths by; a change of folders sends a new one', () => {
  const posted: HostToWebviewMessage[] = [];
  let folders = [{ name: 'repo', path: '/repo' }];
  const sync = new FeedSync({
    panelState: { connectionId: 'c', sessionId: 's' },
    workspace: () => ({ folders, home: '/home/ann' }),
    postMessage: (message) => {
      posted.push(message);
      return Promise.resolve(true);
    },
    isVisible: () => true,
  });
  sync.setFeed(undefined);
  folders = [...folders, { name: 'docs', path: '/docs' }];
  sync.workspaceChanged();
  const workspaces = posted.map((m) => (m.type === 'snapshot' ? m.workspace : undefined));
  assert.deepEqual(workspaces, [
    { folders: [{ name: 'repo', path: '/repo' }], home: '/home/ann' },
    { folders: [{ name: 'repo', path: '/repo' }, { name: 'docs', path: '/docs' }], home: '/home/ann' },
  ]);
});

test('the prompt box takes the cursor once a page is live: a new page gets the ask after its ready, a live page at once', () => {
  const { sync, posted } = pipe();
  sync.focusPrompt();
  assert.deepEqual(types(posted), [], 'no page yet: the ask waits');
  sync.ready(WEBVIEW_PROTOCOL_VERSION);
  assert.deepEqual(types(posted), ['snapshot:The agent connection for this chat is not available. Reconnect or reopen the session.', 'focusPrompt']);
  sync.resync();
  assert.equal(types(posted).filter((type) => type === 'focusPrompt').length, 1, 'asked once, answered once');
  sync.focusPrompt();
  assert.equal(types(posted).at(-1), 'focusPrompt', 'a live page gets it at once');
});

test('a page that failed to load, or was hidden, gets no ask: the next page does once it says ready', () => {
  const failed: string[] = [];
  const posted: HostToWebviewMessage[] = [];
  const sync = new FeedSync({
    panelState: { connectionId: 'c', sessionId: 's' },
    postMessage: (message) => (posted.push(message), Promise.resolve(true)),
    isVisible: () => true,
    onPageLoadFailed: (asset) => failed.push(asset),
  });
  sync.ready(WEBVIEW_PROTOCOL_VERSION);
  sync.pageLoadFailed('codicon.css');
  assert.deepEqual(failed, ['codicon.css']);
  sync.focusPrompt();
  assert.equal(posted.filter((m) => m.type === 'focusPrompt').length, 0);
  sync.ready(WEBVIEW_PROTOCOL_VERSION);
  assert.equal(posted.filter((m) => m.type === 'focusPrompt').length, 1);
  sync.visibilityChanged(false);
  sync.focusPrompt();
  assert.equal(posted.filter((m) => m.type === 'focusPrompt').length, 1, 'hidden: its page is gone');
  sync.ready(WEBVIEW_PROTOCOL_VERSION);
  assert.equal(posted.filter((m) => m.type === 'focusPrompt').length, 2);
});
