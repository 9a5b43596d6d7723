// The Changes list in real Chromium, fed by the real store from wire messages: collapsed, a session that
// changed 5,000 files renders no row at all (issue: a collapsed list kept every file's row); open, the list is
// virtualized, so only the rows near its scroll position exist.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SessionStore } from '../../src/store/sessionStore';
import { useHarness } from './harness';
import { showHeaderDetails } from './headerDetails';
import { showStoreSession } from './storeFeed';

const harness = useHarness();
const FILES = 5_000;

/** A session whose agent edited FILES files, one completed edit call each, as on the wire. */
function manyEdits(): SessionStore {
  const store = new SessionStore();
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/repo', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 's1' } }, 'agent->client');
  for (let i = 0; i < FILES; i++) {
    const update = { sessionUpdate: 'tool_call', toolCallId: `e${i}`, title: `Edit f${i}.txt`, kind: 'edit', status: 'completed', content: [{ type: 'diff', path: `/repo/f${i}.txt`, oldText: 'a\n', newText: 'a\nb\n' }] };
    store.ingest({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } }, 'agent->client');
  }
  return store;
}

describe('Changes list', () => {
  test('collapsed it renders no file rows; open it renders only the rows near its scroll position', async () => {
    const chat = await harness().openChat();
    await showStoreSession(chat, manyEdits(), 's1');
    await showHeaderDetails(chat.page);
    const changes = chat.page.locator('subchats-app > header subchats-changes');
    await changes.getByText(`${FILES} files changed`).waitFor();
    const rows = changes.locator('[data-path]');
    assert.equal(await rows.count(), 0, 'a collapsed list renders no rows');
    assert.ok((await changes.evaluate((element) => element.querySelectorAll('*').length)) < 30, 'a collapsed list is a summary line');

    await changes.locator('.sc-changes-toggle').click();
    await rows.first().waitFor();
    assert.equal(await rows.first().getAttribute('data-path'), '/repo/f0.txt');
    const rendered = await rows.count();
    assert.ok(rendered > 0 && rendered < 200, `an open list of ${FILES} files renders ${rendered} rows`);

    // Collapsing again drops them.
    await changes.locator('.sc-changes-toggle').click();
    await rows.first().waitFor({ state: 'detached' });
    await chat.close();
  });
});
