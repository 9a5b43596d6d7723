// ACP v2 in real VS Code: with subchats.protocolVersion = 2 the demo agent's tour shows the same tree and chat
// as in v1 (children nested, permissions answered in the chat), and one tool call is cancelled on its own
// from its card while the turn goes on.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { openActivity, launchWorkbench, recordFailure, screenshot, sidebarTreeRow as sessionRow } from './harness/index.mjs';
import { newDemoSession, promptInChat, SLOW_MS } from './harness/subchats.mjs';

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
before(async () => {
  workbench = await launchWorkbench({
    files: { 'README.md': '# Demo workspace\n' },
    settings: { 'subchats.demoAgent.pace': 40, 'subchats.protocolVersion': '2' },
  });
});
after(async () => {
  await workbench?.close();
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-${t.name}`);
});

test('v2 tour: cancel the running command from its card; the tree and chat are those of the v1 tour', async () => {
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  const chat = await newDemoSession(page);
  await promptInChat(chat, 'Show me what subagents can do /slow');

  // The edit asks first, in the chat, with the v2 permission's title and description.
  const editAsk = chat.locator('subchats-permission').first();
  await editAsk.getByText('The demo agent waits for your answer').waitFor({ timeout: SLOW_MS });
  await editAsk.getByRole('button', { name: 'Allow', exact: true }).click();

  // The slow command runs in the agent's own terminal and grants cancel: its card has a cancel button.
  const cancel = chat.getByRole('button', { name: 'Cancel tool call Run the demo checks' });
  await cancel.waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-v2-tool-call-cancellable');
  await cancel.click();
  const card = chat.locator('.sc-card', { hasText: 'Run the demo checks' });
  await card.locator('.sc-status[data-status="cancelled"]').waitFor({ timeout: SLOW_MS });
  await cancel.waitFor({ state: 'detached' });

  // The turn goes on: the same subagent tree as in v1, grandchild nested under its child.
  await sessionRow(page, 'Explorer').waitFor({ timeout: SLOW_MS });
  await sessionRow(page, 'Reviewer').waitFor({ timeout: SLOW_MS });
  await sessionRow(page, 'Scout').waitFor({ timeout: SLOW_MS });
  const level = async (label) => Number(await sessionRow(page, label).getAttribute('aria-level'));
  assert.equal(await level('Scout'), (await level('Explorer')) + 1, 'grandchild nested under its child');
  assert.equal(await level('Reviewer'), await level('Explorer'), 'siblings at the same depth');
  await chat.locator('subchats-child-card', { hasText: 'Explorer' }).first().waitFor();

  // The Reviewer asks under its own session; answered in the chat, it finishes.
  const reviewerAsk = chat.locator('subchats-permission', { hasText: 'review' }).first();
  await reviewerAsk.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: SLOW_MS });
  await sessionRow(page, 'Reviewer').locator('.codicon-pass').waitFor({ timeout: SLOW_MS });
  await chat.getByText('You stopped the command').first().waitFor();
  await screenshot(page, 'e2e-v2-tour-after-tool-call-cancel');
});
