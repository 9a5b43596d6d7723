// A user's first session: start the demo agent from the palette, prompt it in the chat, watch the tree
// grow (grandchild under its child), answer permissions in the chat, open a child's sub-chat.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { openActivity, chatFrame, launchWorkbench, pickQuickItem, runCommand, recordFailure, screenshot, treeItem } from './harness/index.mjs';
import { SLOW_MS } from './harness/subchats.mjs';

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
before(async () => {
  workbench = await launchWorkbench({
    files: { 'README.md': '# Demo workspace\n', 'src/app.ts': 'export const answer = 42;\n' },
    settings: { 'subchats.demoAgent.pace': 40 },
  });
});
after(async () => {
  await workbench?.close();
});

afterEach(async (t) => {
  // Leave a picture of the failure for review.
  if (t.passed === false) await recordFailure(workbench, `failed-${t.name}`);
});

/** Tree rows of the Subchats view by the start of their accessible name. */
function sessionRow(page, label) {
  return page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });
}

test('new session from the palette, prompt in the chat, nested tree with live states', async () => {
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  await runCommand(page, 'Subchats: New Session');
  await pickQuickItem(page, 'Demo Agent (built in)');
  const chat = chatFrame(page);
  const promptBox = chat.locator('textarea');
  await promptBox.waitFor();
  await promptBox.fill('Show me what subagents can do');
  await promptBox.press('Enter');

  // The root's edit asks first; the chat shows it (it is open), so no notification is needed.
  await chat.locator('subchats-permission').getByRole('button', { name: 'Allow', exact: true }).first().click();
  await sessionRow(page, 'Explorer').waitFor();
  await sessionRow(page, 'Reviewer').waitFor();
  await sessionRow(page, 'Scout').waitFor({ timeout: 30_000 });
  const level = async (label) => Number(await sessionRow(page, label).getAttribute('aria-level'));
  assert.equal(await level('Scout'), (await level('Explorer')) + 1, 'grandchild nested under its child');
  assert.equal(await level('Reviewer'), await level('Explorer'), 'siblings at the same depth');
  await chat.locator('subchats-child-card', { hasText: 'Explorer' }).first().waitFor();
  await chat.locator('subchats-child-card', { hasText: 'Reviewer' }).first().waitFor();
  await screenshot(page, 'e2e-session-tree-and-chat');
});

test('a child asks permission under its own session and is answered in the chat', async () => {
  const { page } = workbench;
  const chat = chatFrame(page);
  const reviewerAsk = chat.locator('subchats-permission', { hasText: 'review' }).first();
  await reviewerAsk.waitFor({ timeout: 30_000 });
  await screenshot(page, 'e2e-child-permission-in-chat');
  await reviewerAsk.getByRole('button', { name: 'Allow', exact: true }).click();
  await sessionRow(page, 'Reviewer').locator('.codicon-pass').waitFor({ timeout: 30_000 });
});

test('opening a child shows its own sub-chat with a breadcrumb, and its prompt box takes a message for it, sent to the parent', async () => {
  const { page } = workbench;
  const parentChat = chatFrame(page);
  await parentChat.getByRole('button', { name: 'Open Explorer in a new tab' }).click();
  await page.locator('.tabs-container .tab', { hasText: 'Explorer' }).waitFor();
  const childChat = chatFrame(page);
  const breadcrumb = childChat.getByRole('navigation', { name: 'Breadcrumb' });
  // In code-server a new webview's host can wait for good on a service worker before it loads the chat (2 of
  // ~25 runs here, the page blank, its content frame empty): the chat then gets a new panel after 10 s, at most
  // twice (StalledPages), so the first page of the new tab may take that long.
  await breadcrumb.getByText('Show me what subagents can do').waitFor({ timeout: SLOW_MS });
  await breadcrumb.getByText('Explorer').waitFor();
  // The instruction from the parent is shown as a message between sessions, naming the parent.
  await childChat.locator('subchats-session-message').getByRole('button', { name: 'Show me what subagents can do' }).first().waitFor();
  // The grandchild's card sits inside the child's chat.
  await childChat.locator('subchats-child-card', { hasText: 'Scout' }).first().waitFor();
  const promptBox = childChat.locator('textarea');
  // ACP lets a client prompt only a root: the box takes a message for this subagent and says it goes to the parent.
  await childChat.locator('.sc-prompt-reason', { hasText: 'Sent to "Show me what subagents can do" for "Explorer": ' }).waitFor();
  await childChat.locator('subchats-prompt-box button[type="submit"]', { hasText: 'Send to parent' }).waitFor();
  await childChat.getByLabel('Message for this subagent, sent to Show me what subagents can do').waitFor();
  assert.equal(await promptBox.isDisabled(), false, 'the box takes a message for the parent to relay');
  await screenshot(page, 'e2e-child-sub-chat');
});
