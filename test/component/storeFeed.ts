// Shows a real SessionStore's session in a component-test chat: one snapshot through the real ChatFeed, with
// timers that never fire (a test that needs deltas drives the feed itself).
import type { HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import type { SessionStore } from '../../src/store/sessionStore';
import { ChatFeed } from '../../src/webviews/chatFeed';
import type { ChatPage } from './harness';

export async function showStoreSession(chat: ChatPage, store: SessionStore, sessionId: string): Promise<void> {
  const sent: HostToWebviewMessage[] = [];
  const feed = new ChatFeed(store, sessionId, (message) => sent.push(message), { timers: { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined } });
  feed.sendSnapshot();
  for (const message of sent) await chat.send(message);
}
