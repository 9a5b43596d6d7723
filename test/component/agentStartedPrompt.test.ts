// Reported (opencode): "after a background task, the root reads 'Idle (quiet)' but the prompt box still shows
// Cancel/Queue; a follow-up typed there is queued 'until the turn ends' and never sent." opencode never ends a
// turn it starts itself, so nothing may hold the user's message back: the box says Send and Enter sends it.
// (The status bar's half of the report: test/unit/statusBarModel.test.ts.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayStepwise } from '../unit/support/storeFixtures';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';

const harness = useHarness();

test('opencode after a background task: the root\'s prompt box says Send, and Enter sends a prompt at once', async () => {
  const store = replayStepwise('written', 'opencode-background-task.jsonl');
  const root = store.listSessions().find((session) => session.parentId === null)!;
  assert.equal(root.stateHistory.at(-1)?.source, 'agent-started', 'the last thing on the wire is a turn opencode started itself');

  const chat = await harness().openChat();
  await FeedLink.showing(chat, store, root.id);
  // Recorded long ago: the quiet agent-started turn reads idle, as in the report.
  await chat.page.locator('subchats-session-bar [role="status"]', { hasText: 'Idle (quiet)' }).waitFor();
  const box = chat.page.locator('subchats-prompt-box');
  const submit = box.locator('button[type="submit"]');
  assert.equal((await submit.textContent())?.trim(), 'Send');
  assert.equal(await box.getByRole('button', { name: 'Queue' }).count(), 0, 'nothing offers to wait for a turn that never ends');

  await box.locator('textarea').fill('And now?');
  await box.locator('textarea').press('Enter');
  assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), { type: 'prompt', sessionId: root.id, text: 'And now?' });
  assert.equal(store.actionsFor(root.id).send.route, 'prompt', 'and the host sends it as a prompt');
  assert.deepEqual(chat.pageErrors, []);
  await chat.close();
});
