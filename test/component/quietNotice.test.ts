// The long-quiet notice in the chat, in real Chromium: an opencode task child that has been running for two
// minutes without news shows it on its card in the parent's chat and in its own chat's header.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SessionStore } from '../../src/store/sessionStore';
import { repoRoot, useHarness } from './harness';
import { showStoreSession } from './storeFeed';

const harness = useHarness();
const NOTICE = /No news for 2 min\. opencode does not forward a subagent's questions; if it is waiting on a permission, answer it in opencode itself\./;

/** The recorded opencode run up to its running task, received two minutes ago (the store's clock). */
function quietOpencode(): SessionStore {
  const store = new SessionStore({ now: () => Date.now() - 2 * 60_000 - 5_000 });
  const lines = readFileSync(join(repoRoot, 'test/fixtures/recorded-new/opencode-single.jsonl'), 'utf8').split('\n');
  const last = lines.findIndex((line) => line.includes('"status":"in_progress"'));
  for (const line of lines.slice(0, last + 1)) {
    const { dir, msg } = JSON.parse(line) as { dir: 'client->agent' | 'agent->client'; msg: unknown };
    store.ingest(msg, dir);
  }
  return store;
}

describe('long-quiet notice', () => {
  test('on the child card in the parent chat and in the child chat header, in the same words', async () => {
    const store = quietOpencode();
    const root = store.listSessions().find((session) => session.parentId === null)!;
    const child = store.listSessions().find((session) => session.parentId !== null)!;
    assert.equal(child.state.state, 'running');

    const parentChat = await harness().openChat();
    await showStoreSession(parentChat, store, root.id);
    const card = parentChat.page.locator(`subchats-child-card[data-session-id="${child.id}"] .sc-quiet-notice`);
    await card.waitFor();
    assert.match((await card.textContent()) ?? '', NOTICE);

    const childChat = await harness().openChat();
    await showStoreSession(childChat, store, child.id);
    const header = childChat.page.locator('subchats-session-bar .sc-quiet-notice');
    await header.waitFor();
    assert.match((await header.textContent()) ?? '', NOTICE);
    assert.match((await childChat.page.locator('subchats-session-bar .sc-state').textContent()) ?? '', /Running/, 'the state is still the reported one');
  });
});
