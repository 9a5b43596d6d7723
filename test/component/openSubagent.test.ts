// The child card offers "Open subagent session" exactly when the store allows it (a finished opencode task
// child whose agent advertises loadSession), and the button asks the host, which checks again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import { SessionStore } from '../../src/store/sessionStore';
import { ChatFeed } from '../../src/webviews/chatFeed';
import { repoRoot, useHarness, type ChatPage } from './harness';

const harness = useHarness();

function opencode(keep: (line: string) => boolean = () => true): SessionStore {
  const store = new SessionStore({ now: () => 0 });
  const lines = readFileSync(join(repoRoot, 'test/fixtures/recorded-new/opencode-single.jsonl'), 'utf8').split('\n').filter(Boolean);
  lines.forEach((line, i) => keep(line) && store.ingestLine(line, i + 1));
  return store;
}

async function show(chat: ChatPage, store: SessionStore): Promise<string> {
  const root = store.listSessions().find((session) => session.parentId === null)!;
  const sent: HostToWebviewMessage[] = [];
  new ChatFeed(store, root.id, (message) => sent.push(message), { timers: { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined } }).sendSnapshot();
  for (const message of sent) await chat.send(message);
  return store.listSessions().find((session) => session.parentId !== null)!.id;
}

describe('open subagent session', () => {
  test('a finished opencode child offers it and the button posts openSubagentSession; a running one does not', async () => {
    const chat = await harness().openChat();
    const childId = await show(chat, opencode());
    const card = chat.page.locator(`subchats-child-card[data-session-id="${childId}"]`);
    const button = card.getByRole('button', { name: /^Open the session of / });
    await button.click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openSubagentSession'), { type: 'openSubagentSession', sessionId: childId });

    const running = await harness().openChat();
    const runningId = await show(running, opencode((line) => !line.includes('"status":"completed"') && !line.includes('"result":{"stopReason"')));
    const runningCard = running.page.locator(`subchats-child-card[data-session-id="${runningId}"]`);
    await runningCard.getByRole('button', { name: /^Open .* in a new tab$/ }).waitFor();
    assert.equal(await runningCard.getByRole('button', { name: /^Open the session of / }).count(), 0);
  });
});
