// "The turn is done" never alone while a background subagent runs (#24 item 4): the root's chat header says
// "Done; 1 subagent still running in the background" until the agent reports the child's end (qwen's background
// notification), then plain Done. The count comes from the host (the header's backgroundRunning).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureText, replayFirst, replayFixture } from '../unit/support/storeFixtures';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';

const harness = useHarness();
const FILE = 'qwen-background.jsonl';

test('qwen background subagent: the root\'s header says the subagent still runs after the turn, and Done once its end is reported', async () => {
  const promptEnd = fixtureText('written', FILE).split('\n').findIndex((t) => t.includes('"id":2,"result"')) + 1;
  for (const [store, said] of [
    [replayFirst('written', FILE, promptEnd), 'Done; 1 subagent still running in the background'],
    [replayFixture('written', FILE).store, 'Done'],
  ] as const) {
    const root = store.listSessions().find((session) => session.parentId === null)!;
    const chat = await harness().openChat();
    await FeedLink.showing(chat, store, root.id);
    const status = chat.page.locator('subchats-session-bar [role="status"]').first();
    await status.filter({ hasText: 'Done' }).waitFor();
    assert.equal((await status.textContent())?.replace(/\s+/g, ' ').trim(), said);
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  }
});
