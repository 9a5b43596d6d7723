// Around the chat and what each subagent changed, in real VS Code: the status bar counts what waits; the demo
// tour edits notes.md in the root and review.md in its Reviewer child; the tree says how many files each
// subtree changed, the chat lists them (parent and child card), and Open Changes shows them in VS Code's
// multi-file diff editor.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { openActivity, launchWorkbench, repoRoot, runCommand, runContextMenuEntry, recordFailure, screenshot, notificationToast, sidebarTreeRow, speaksV2 } from './harness/index.mjs';
import { SLOW_MS, newDemoSession, promptInChat, showChatDetails } from './harness/subchats.mjs';

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
/** @type {import('playwright-core').FrameLocator} */
let chat;

before(async () => {
  workbench = await launchWorkbench({
    files: { 'README.md': '# Changes workspace\n' },
    settings: { 'subchats.demoAgent.pace': 30 },
  });
  await openActivity(workbench.page, 'Subchats');
});
after(async () => {
  await workbench?.close();
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-changes-${t.name}`);
});

const description = (row) => row.locator('.label-description');
const multiDiffEditor = (page) => page.locator('.editor-instance .multiDiffEditor');

test('the status bar counts a pending permission; clicking it reveals the session that waits', { timeout: 240_000 }, async () => {
  const { page } = workbench;
  chat = await newDemoSession(page);
  await promptInChat(chat, 'Show me what subagents can do');
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).waitFor({ timeout: SLOW_MS });
  const status = page.locator('.statusbar-item', { hasText: /1 waiting/ });
  await status.waitFor({ timeout: SLOW_MS });
  assert.doesNotMatch(await status.innerText(), /working/, 'the only working session is the one that waits');
  await screenshot(page, 'e2e-status-bar-pending-permission');
  await page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"]').click();
  await status.click();
  await page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"][aria-selected="true"]').waitFor();
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).getByRole('button', { name: 'Allow', exact: true }).click();
  await page.locator('.statusbar-item', { hasText: /working/ }).waitFor({ timeout: SLOW_MS });
});

test('the tour\'s edits show as Changes in the tree and the chat, per session and per subtree', { timeout: 240_000 }, async () => {
  const { page } = workbench;
  await chat.locator('subchats-permission', { hasText: 'review.md' }).getByRole('button', { name: 'Allow', exact: true }).first().click({ timeout: SLOW_MS });
  const reviewer = sidebarTreeRow(page, 'Reviewer');
  await description(reviewer).filter({ hasText: /1 file changed/ }).waitFor({ timeout: SLOW_MS });
  const root = page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"]');
  await description(root).filter({ hasText: /2 files changed/ }).waitFor({ timeout: SLOW_MS });
  assert.doesNotMatch(await description(sidebarTreeRow(page, 'Explorer')).innerText(), /changed/, 'Explorer edited nothing');

  // The parent's section covers the whole tree; the Reviewer's card only its own file. Both are the header's details.
  await showChatDetails(chat);
  const parentChanges = chat.locator('subchats-app > header subchats-changes');
  await parentChanges.getByText('2 files changed').waitFor();
  await parentChanges.locator('.sc-changes-toggle').click();
  await parentChanges.locator('li[data-path$="notes.md"]').getByText('subchats-demo/notes.md').waitFor();
  await parentChanges.locator('li[data-path$="review.md"]').getByText(/^\+4 −0$/).waitFor();
  const reviewerCard = chat.locator('subchats-child-card', { hasText: 'Reviewer' }).first();
  await reviewerCard.locator('subchats-changes').getByText('1 file changed').waitFor();
  assert.equal(await chat.locator('subchats-child-card', { hasText: 'Explorer' }).first().locator('subchats-changes .sc-changes').count(), 0);
  // The children's timeline: both subagents, and the Reviewer waited on the user for its permission.
  const timeline = chat.locator('subchats-app > header subchats-timeline');
  await timeline.locator('.sc-timeline-row[aria-label^="Reviewer: started"][aria-label*="waited on you once, Done"]').waitFor();
  await timeline.locator('.sc-timeline-row[aria-label^="Explorer: started"][aria-label*="Done"]').waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-changes-in-chat-and-tree');
  // The README's picture is this moment of this run: SUBCHATS_UPDATE_DOCS=1 refreshes the committed copy.
  if (process.env.SUBCHATS_UPDATE_DOCS === '1') {
    mkdirSync(join(repoRoot, 'docs/images'), { recursive: true });
    await page.screenshot({ path: join(repoRoot, 'docs/images/overview.png') });
  }
});

test('Open Changes in the chat opens the multi-file diff editor with both files of the tree', { timeout: 120_000 }, async () => {
  const { page } = workbench;
  await showChatDetails(chat);
  await chat.locator('subchats-app > header subchats-changes').getByRole('button', { name: 'Open Changes' }).click();
  const editor = multiDiffEditor(page);
  await editor.waitFor({ timeout: SLOW_MS });
  await page.locator('.tabs-container .tab', { hasText: /^Changes: .*and its subagents/ }).waitFor();
  await editor.getByText('notes.md', { exact: false }).first().waitFor();
  await editor.getByText('review.md', { exact: false }).first().waitFor();
  // The agent's reported text is what the editor shows after (served virtually, nothing written).
  await editor.getByText('The notes change looks good.').first().waitFor();
  await screenshot(page, 'e2e-open-changes-multi-diff');
});

test('Open Changes from a child\'s tree context menu shows only that child\'s files', { timeout: 120_000 }, async () => {
  const { page } = workbench;
  await runContextMenuEntry(page, sidebarTreeRow(page, 'Reviewer'), 'Open Changes');
  await page.locator('.tabs-container .tab', { hasText: /^Changes: Reviewer( \(1 file\))?$/ }).waitFor({ timeout: SLOW_MS });
  const editor = multiDiffEditor(page);
  await editor.getByText('review.md', { exact: false }).first().waitFor();
  assert.equal(await editor.getByText('notes.md', { exact: false }).count(), 0, 'the parent\'s file is not the child\'s change');
});

test('a v2 change shows the file as the agent first touched it against the disk; once the file changed by hand it says the disk differs from the agent\'s report', { skip: !speaksV2 && 'v2 diffs only', timeout: 120_000 }, async () => {
  const { page } = workbench;
  // Before: the Reviewer's file did not exist, so the diff editor shows it as added with the agent's text.
  await runContextMenuEntry(page, sidebarTreeRow(page, 'Reviewer'), 'Open Changes');
  await multiDiffEditor(page).getByText('The notes change looks good.').first().waitFor({ timeout: SLOW_MS });
  writeFileSync(join(workbench.workspace, 'subchats-demo/review.md'), 'Rewritten by hand.\n');
  await runContextMenuEntry(page, sidebarTreeRow(page, 'Reviewer'), 'Open Changes');
  await page.locator('.tabs-container .tab', { hasText: /^Changes: Reviewer — The file on disk differs from what the agent reported/ }).waitFor({ timeout: SLOW_MS });
  await multiDiffEditor(page).getByText('Rewritten by hand.').first().waitFor({ timeout: SLOW_MS });
  await notificationToast(page, /The file on disk differs from what the agent reported \(subchats-demo\/review\.md\)/).waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-v2-open-changes-file-changed-since');
});

// ACP v1 sets a mode with session/set_mode; v2 has no modes, only the `mode` config option.
const setModeRequest = speaksV2 ? /"method":"session\/set_config_option".*"configId":"mode".*"value":"plan"/ : /"method":"session\/set_mode".*"modeId":"plan"/;

test(`the mode picker in the chat header sends ${speaksV2 ? 'session/set_config_option' : 'session/set_mode'}, and the agent works in that mode`, { timeout: 180_000 }, async () => {
  const { page } = workbench;
  await page.locator('.tabs-container .tab', { hasText: 'Show me what subagents can do' }).click();
  const mode = chat.getByRole('group', { name: 'Session settings' }).getByRole('combobox', { name: 'Mode', exact: true });
  assert.equal(await mode.inputValue(), 'ask');
  await mode.selectOption('plan');
  // The store takes the mode from the agent's answer; the picker shows it.
  await chat.locator('select[aria-label="Mode"]').evaluate((select) =>
    new Promise((resolve) => {
      const check = () => (select.value === 'plan' ? resolve(undefined) : requestAnimationFrame(check));
      check();
    }),
  );
  await screenshot(page, 'e2e-header-mode-picker');
  await runCommand(page, 'Subchats: Show Protocol Log');
  await page.locator('.part.panel .monaco-editor .view-lines').getByText(setModeRequest).first().waitFor({ timeout: SLOW_MS });
  await promptInChat(chat, 'Once more, in plan mode');
  await chat.getByText('Plan mode is on, so I will not edit files or run commands.').waitFor({ timeout: SLOW_MS });
});

test('the Ctrl+Alt+M keybinding puts the cursor in the chat\'s prompt box from elsewhere in the workbench', { timeout: 120_000 }, async () => {
  const { page } = workbench;
  // Elsewhere: the Output panel's filter box (the Protocol Log shows there). Not the side bar: new subagent rows
  // are revealed in the Sessions tree, and a reveal that races the side bar's switch to another view brings the
  // Sessions view back. Not the log's text either: the chat's webview lies over the part of it scrolled away.
  await runCommand(page, 'Subchats: Show Protocol Log');
  const filter = page.locator('.part.panel .monaco-inputbox input').first();
  await filter.click();
  await page.locator('.part.panel .monaco-inputbox input:focus').waitFor();
  assert.equal(await chat.locator('textarea:focus').count(), 0);
  await page.keyboard.press('Control+Alt+KeyM');
  await chat.locator('textarea:focus').waitFor({ timeout: SLOW_MS });
});
