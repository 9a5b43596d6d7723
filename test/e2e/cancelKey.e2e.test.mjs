// The Ctrl+Alt+X keybinding (Subchats: Cancel Focused Session) in real VS Code: in the Subchats tree it
// cancels the selected session, in a chat (cursor in its prompt box) that chat's session, anywhere else in
// the workbench it does nothing, and with nothing to cancel it says why. The demo tour keeps its Explorer
// child working for a minute and its Reviewer waiting on a permission, so both stay live until cancelled.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { openActivity, editorTab, focusMoves, launchWorkbench, notificationToast, runCommand, recordFailure, screenshot, sidebarTreeRow, workbenchLog } from './harness/index.mjs';
import { SLOW_MS, newDemoSession, pickSubagent, promptInChat } from './harness/subchats.mjs';

const CANCEL_KEY = 'KeyX';
const CANCEL_CHORD = `Control+Alt+${CANCEL_KEY}`;
const ROOT_PROMPT = 'Show me what subagents can do';

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
/** @type {import('playwright-core').FrameLocator} */
let chat;

before(async () => {
  workbench = await launchWorkbench({
    files: { 'README.md': '# Keybinding workspace\n' },
    settings: { 'subchats.demoAgent.pace': 30, 'subchats.demoAgent.childDuration': 60_000 },
  });
  await openActivity(workbench.page, 'Subchats');
  // VS Code logs each key's keybinding decision while this is on: a press that does nothing says why.
  await runCommand(workbench.page, 'Developer: Toggle Keyboard Shortcuts Troubleshooting');
  // It opens the Window log in the Output panel without waiting for it, and that panel takes the focus when it
  // shows: a test that focused the Subchats tree before then lost the focus to it (once, on a loaded machine).
  await workbench.page.locator('.part.panel textarea[aria-label="Window - Output"]:focus').waitFor();
});
after(async () => {
  await workbench?.close();
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-keybinding-cancel-${t.name}`);
});

const description = (row) => row.locator('.label-description');
const rootRow = (page) => page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"]');

/** Puts the keyboard focus in the Subchats tree (its view, not just any side bar view) without changing its selection. */
async function focusSessionsTree(page) {
  await runCommand(page, 'Subchats: Focus on Sessions View');
  const focused = page.locator('[id="workbench.view.extension.subchats"] .pane-body:focus-within');
  await focused.waitFor().catch(async (error) => {
    throw new Error(`the Subchats tree did not keep the focus; the last focus moves:\n${await focusMoves(page)}`, { cause: error });
  });
}

/** Presses Ctrl+Alt+X once and asserts VS Code dispatched it to Cancel Focused Session (its decision is the reason if not). */
async function pressCancelKey(page) {
  const decision = await keybindingDecisionFor(page, CANCEL_CHORD, CANCEL_KEY);
  assert.match(decision, /subchats\.cancelFocused/, `VS Code's keybinding decision: ${decision}`);
}

/**
 * Selects a session's row with a click, which also opens its chat, and puts the keyboard focus back in
 * the tree once that chat shows (a palette opened while the new chat still takes the focus closes again).
 */
/**
 * Brings a chat's tab to the front and waits for its page to show the chat. The page of a chat shown again loads
 * anew, and VS Code gives the focus to a webview as it loads: a palette opened before that closes again.
 */
async function showChatTab(page, title) {
  await editorTab(page, title).click();
  await activeEditorTab(page, title).waitFor();
  await chat.getByRole('navigation', { name: 'Breadcrumb' }).getByText(title, { exact: true }).waitFor({ timeout: SLOW_MS });
}

async function selectRow(page, row, label) {
  await row.click();
  await chat.getByRole('navigation', { name: 'Breadcrumb' }).getByText(label, { exact: true }).waitFor({ timeout: SLOW_MS });
  await focusSessionsTree(page);
  await row.and(page.locator('[aria-selected="true"]')).waitFor();
}

test('with nothing selected in the Subchats tree, Ctrl+Alt+X says how to pick a session', { timeout: 120_000 }, async () => {
  const { page } = workbench;
  await focusSessionsTree(page);
  await pressCancelKey(page);
  await notificationToast(page, 'focus a chat or select a session in the tree to cancel it').waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-keybinding-cancel-nothing-selected');
});

test('Ctrl+Alt+X outside Subchats (the file Explorer) is not the Cancel Focused Session keybinding', { timeout: 240_000 }, async () => {
  const { page } = workbench;
  chat = await newDemoSession(page);
  await promptInChat(chat, ROOT_PROMPT);
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).getByRole('button', { name: 'Allow', exact: true }).click({ timeout: SLOW_MS });
  const explorer = sidebarTreeRow(page, 'Explorer');
  await description(explorer).filter({ hasText: /^Running/ }).waitFor({ timeout: SLOW_MS });
  // The Explorer's Scout shows up as a row below it: wait for it, or the click may land on the Scout.
  await description(sidebarTreeRow(page, 'Scout')).filter({ hasText: /^Running/ }).waitFor({ timeout: SLOW_MS });
  // A session selected in the (now hidden) tree and its chat the active editor: nothing Ctrl+Alt+X may cancel here.
  await selectRow(page, explorer, 'Explorer');
  await runCommand(page, 'File: Focus on Files Explorer');
  await page.locator('.part.sidebar .explorer-folders-view').waitFor();
  const decision = await keybindingDecisionFor(page, CANCEL_CHORD, CANCEL_KEY);
  assert.doesNotMatch(decision, /subchats\.cancelFocused/, `VS Code's decision: ${decision}`);
  await focusSessionsTree(page);
  assert.match(await description(explorer).innerText(), /^Running/);
});

test('in the Subchats tree Ctrl+Alt+X cancels the selected session, not the active editor\'s chat; its parent and its sibling go on', { timeout: 240_000 }, async () => {
  const { page } = workbench;
  const explorer = sidebarTreeRow(page, 'Explorer');
  await description(explorer).filter({ hasText: /^Running/ }).waitFor({ timeout: SLOW_MS });
  // The root's chat is the active editor (which selects its row); Reveal in Session Tree then selects the
  // Explorer and opens no chat: the active chat and the selection differ.
  await showChatTab(page, ROOT_PROMPT);
  await rootRow(page).and(selected(page)).waitFor();
  await runCommand(page, 'Subchats: Reveal in Session Tree');
  await pickSubagent(page, 'Explorer');
  await explorer.and(selected(page)).waitFor();
  await focusSessionsTree(page);
  await explorer.and(selected(page)).waitFor();
  await activeEditorTab(page, ROOT_PROMPT).waitFor();
  await pressCancelKey(page);
  await description(explorer).filter({ hasText: /^Cancelled/ }).waitFor({ timeout: SLOW_MS });
  // The agent confirmed: the Explorer (and its own Scout) report cancelled; the root and the Reviewer go on.
  await explorer.locator('.codicon-circle-slash').waitFor();
  await description(sidebarTreeRow(page, 'Scout')).filter({ hasText: /^Cancelled/ }).waitFor({ timeout: SLOW_MS });
  assert.match(await description(rootRow(page)).innerText(), /^Running/);
  assert.match(await description(sidebarTreeRow(page, 'Reviewer')).innerText(), /^Needs you/);
  await chat.locator('subchats-session-bar .sc-state[data-state="running"]').waitFor();
  await screenshot(page, 'e2e-keybinding-cancel-tree');
  await editorTab(page, 'Explorer').click();
  await chat.locator('subchats-session-bar .sc-state[data-state="idle"]', { hasText: 'Cancelled' }).waitFor({ timeout: SLOW_MS });
});

test('in a chat (cursor in its prompt box) Ctrl+Alt+X cancels that chat\'s session and leaves the draft alone', { timeout: 240_000 }, async () => {
  const { page } = workbench;
  await editorTab(page, ROOT_PROMPT).click();
  const box = chat.locator('textarea');
  await box.fill('a draft');
  await box.focus();
  await chat.locator('textarea:focus').waitFor();
  await page.keyboard.press(CANCEL_CHORD);
  // The agent ends the turn as cancelled; the tree and the chat's header say so.
  await description(rootRow(page)).filter({ hasText: /^Cancelled/ }).waitFor({ timeout: SLOW_MS });
  await rootRow(page).locator('.codicon-circle-slash').waitFor();
  await chat.locator('subchats-session-bar .sc-state[data-state="idle"]', { hasText: 'Cancelled' }).waitFor({ timeout: SLOW_MS });
  assert.equal(await box.inputValue(), 'a draft');
  await screenshot(page, 'e2e-keybinding-cancel-chat');
});

const selected = (page) => page.locator('[aria-selected="true"]');
const activeEditorTab = (page, title) => editorTab(page, title).and(page.locator('.tab.active'));

/**
 * Presses `chord` and returns what VS Code's keybinding service decided for its `code` key, from the
 * Keyboard Shortcuts Troubleshooting log (written while the key is dispatched, so no waiting on a guess).
 */
async function keybindingDecisionFor(page, chord, code) {
  const from = workbenchLog(page).length;
  await page.keyboard.press(chord);
  const decision = () => {
    const lines = workbenchLog(page).slice(from);
    const received = lines.findIndex((line) => line.includes('[KeybindingService]') && line.includes('Received') && line.includes(`code: ${code},`));
    if (received < 0) return undefined;
    return lines.slice(received + 1).find((line) => line.includes('[KeybindingService]') && /From \d+ keybinding entries|No keybinding entries/.test(line));
  };
  const deadline = Date.now() + SLOW_MS;
  for (let found = decision(); ; found = decision()) {
    if (found !== undefined) return found;
    assert.ok(Date.now() < deadline, `no keybinding decision for ${chord} in the log`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}
