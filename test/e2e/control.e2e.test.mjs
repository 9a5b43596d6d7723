// Steering a running session from VS Code: cancel one child from the tree's context menu, answer a child's
// permission from a notification while no chat is open, and survive the agent process being killed.
// Each test gets its own code-server, workspace and demo agent, so a failure shows in its own screenshot.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import {
  openActivity,
  chatFrame,
  chooseContextMenuEntry,
  closeContextMenu,
  contextMenuLabels,
  launchWorkbench,
  notificationToast,
  openContextMenu,
  pickQuickItem,
  runCommand,
  runContextMenuEntry,
  recordFailure,
  screenshot,
  sidebarTreeRow,
} from './harness/index.mjs';
import { waitForTree } from './harness/sessionTree.mjs';
import { DEMO_AGENT, SLOW_MS, newDemoSession, pickSubagent, promptInChat } from './harness/subchats.mjs';

const TEST_TIMEOUT_MS = 240_000;
// Generous: other e2e runs may share the two cores; every wait still ends as soon as its condition holds.

/** @type {Awaited<ReturnType<typeof launchWorkbench>> | undefined} */
let workbench;

/** A fresh workbench with the Subchats view open. */
async function openSubchats(settings) {
  workbench = await launchWorkbench({
    files: { 'README.md': '# Control workspace\n', 'src/app.ts': 'export const answer = 42; // TODO: ask\n' },
    settings: { 'subchats.demoAgent.pace': 30, ...settings },
  });
  await openActivity(workbench.page, 'Subchats');
  return workbench;
}

afterEach(async (t) => {
  // Leave a picture of the failure for review, then take the whole server down.
  if (t.passed === false) await recordFailure(workbench, `failed-control-${t.name}`);
  await workbench?.close();
  workbench = undefined;
});



const description = (row) => row.locator('.label-description');
const inlineCancel = (row) => row.locator('.actions .action-label[aria-label^="Cancel Session"]');

/** A demo tour whose Explorer branch keeps working for a minute unless cancelled (time to right-click it). */
async function startLongDemoTour() {
  const { page } = await openSubchats({ 'subchats.demoAgent.childDuration': 60_000 });
  const chat = await newDemoSession(page);
  await promptInChat(chat, 'Show me what subagents can do');
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).getByRole('button', { name: 'Allow', exact: true }).click();
  return { page, chat };
}

test('cancel one child from the session tree: only that branch stops, its sibling and the parent finish', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page, chat } = await startLongDemoTour();

  const explorer = sidebarTreeRow(page, 'Explorer');
  const reviewer = sidebarTreeRow(page, 'Reviewer');
  const scout = sidebarTreeRow(page, 'Scout');
  await scout.waitFor({ timeout: SLOW_MS });
  // Reviewer waits for its permission, so both siblings are live when the cancel goes out.
  await chat.locator('subchats-permission', { hasText: 'review.md' }).waitFor({ timeout: SLOW_MS });
  await description(explorer).filter({ hasText: /^Running/ }).waitFor();
  const root = page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"]');
  assert.equal(await root.count(), 1, 'one root session');
  assert.match(await description(root).innerText(), /^Running/);

  // Reviewer has capabilities {}: no cancel inline and none in its context menu; Explorer offers both.
  assert.equal(await inlineCancel(explorer).count(), 1, 'Explorer has an inline cancel button');
  assert.equal(await inlineCancel(reviewer).count(), 0, 'Reviewer has no inline cancel button');
  const reviewerMenu = await openContextMenu(page, reviewer);
  const reviewerEntries = await contextMenuLabels(reviewerMenu);
  assert.ok(reviewerEntries.includes('Open Chat'), `Reviewer's menu is the session menu: ${reviewerEntries.join(', ')}`);
  assert.ok(!reviewerEntries.includes('Cancel Session'), `Reviewer's menu offers no cancel: ${reviewerEntries.join(', ')}`);
  await screenshot(page, 'e2e-control-reviewer-menu-without-cancel');
  await closeContextMenu(page);

  const explorerMenu = await openContextMenu(page, explorer);
  await screenshot(page, 'e2e-control-explorer-menu-with-cancel');
  await chooseContextMenuEntry(page, explorerMenu, 'Cancel Session');
  await explorer.locator('.codicon-circle-slash').waitFor({ timeout: SLOW_MS });
  assert.match(await description(explorer).innerText(), /^Cancelled/);
  // The cancel reaches the Explorer's own subagent too, and nothing else.
  await description(scout).filter({ hasText: /^Cancelled/ }).waitFor({ timeout: SLOW_MS });
  assert.match(await description(reviewer).innerText(), /^Needs you/);
  assert.match(await description(root).innerText(), /^Running/);

  // The sibling goes on: once allowed, it writes its review and finishes; then the parent ends its turn.
  await chat.locator('subchats-permission', { hasText: 'review.md' }).getByRole('button', { name: 'Allow', exact: true }).click();
  await reviewer.locator('.codicon-pass').waitFor({ timeout: SLOW_MS });
  assert.match(await description(reviewer).innerText(), /^Done/);
  await description(root).filter({ hasText: /^Done/ }).waitFor({ timeout: SLOW_MS });
  assert.match(await description(explorer).innerText(), /^Cancelled/, 'the cancelled child stays cancelled');
  assert.ok(existsSync(join(workbench.workspace, 'subchats-demo/review.md')), 'the Reviewer wrote its review');
  await chat.getByText('Explorer: stopped (cancelled)').first().waitFor();
  await screenshot(page, 'e2e-control-cancel-one-child');
});

/** A chat's state badge (`.sc-state`: icon + label) as data: its label text and codicon id. */
async function chatState(badge) {
  return badge.evaluate((element) => {
    const icon = [...(element.querySelector('.codicon')?.classList ?? [])].find((c) => c.startsWith('codicon-') && !c.startsWith('codicon-modifier-'));
    return { label: (element.textContent ?? '').replace(/\s+/g, ' ').trim(), icon: icon ? icon.slice('codicon-'.length) : null };
  });
}

/** The visible chat (of several side by side) in which `find(chat)` matches something; polls. */
async function visibleChatWith(page, find, timeoutMs = SLOW_MS) {
  const frames = page.locator('iframe.webview.ready[src*="extensionId=subchats.subchats&"] >> visible=true');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = await frames.count();
    for (let i = 0; i < count; i++) {
      const chat = frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
      if ((await find(chat).count().catch(() => 0)) > 0) return chat;
    }
    if (Date.now() >= deadline) throw new Error(`no visible chat matched within ${timeoutMs} ms (${count} visible)`);
    await page.waitForTimeout(200);
  }
}

/** The state part of a tree row's description ("Cancelled · 12s · 3 tools" -> "Cancelled"). */
const treeStateLabel = (row) => row.description.split(' · ')[0].trim();

test('a cancelled child shows the same state, label and icon, in the tree and in the chats', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page, chat } = await startLongDemoTour();
  const explorer = sidebarTreeRow(page, 'Explorer');
  await description(explorer).filter({ hasText: /^Running/ }).waitFor({ timeout: SLOW_MS });
  // From the palette's session picker, not the row's context menu: VS Code drops a context menu's row when a row
  // above it refreshes meanwhile (its extension host forgets the rows below until it fetches them again), which a
  // loaded machine made happen in 2 of about 10 runs; the menu has its own test above, and this one is about how
  // the cancel shows.
  await runCommand(page, 'Subchats: Cancel Session');
  // VS Code hands the focus back to the chat (the editor the palette came from) by a message into its frame, which a
  // loaded machine delivers after the session picker opened (microsoft/vscode#93950): the picker must stay open.
  await page.locator('.quick-input-widget input[aria-label="Cancel which session?"]').waitFor();
  await page.locator('iframe.webview.ready').focus();
  await pickSubagent(page, 'Explorer');

  // The cancel is confirmed once the child reports itself idle/cancelled ("Cancelled") in the tree...
  const treeRow = await waitForTree(page, (rows) => {
    const row = rows.find((r) => r.label === 'Explorer');
    assert.ok(row, 'the Explorer row is shown');
    assert.match(row.description, /^Cancelled/);
    return row;
  }, { timeoutMs: SLOW_MS });
  // ...and its card in the parent's chat says idle too.
  const card = chat.locator('subchats-child-card', { has: chat.locator('.sc-card-title', { hasText: /^Explorer$/ }) }).first();
  const cardBadge = card.locator('.sc-card-head .sc-state[data-state="idle"]');
  await cardBadge.waitFor({ timeout: SLOW_MS });
  const tree = { label: treeStateLabel(treeRow), icon: treeRow.icon };
  const inCard = await chatState(cardBadge);

  // The child's own chat, to the side: its header says how it stands.
  await card.getByRole('button', { name: 'Open Explorer to the side' }).click();
  const childChat = await visibleChatWith(page, (c) => c.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Explorer'));
  const headerBadge = childChat.locator('subchats-session-bar .sc-state[data-state="idle"]');
  await headerBadge.waitFor({ timeout: SLOW_MS });

  const inHeader = await chatState(headerBadge);
  await screenshot(page, 'cancelled-child-tree-and-chat');
  // One presentation of a session's state everywhere: the same words and the same icon.
  assert.deepEqual(inCard, tree, `parent chat's card ${JSON.stringify(inCard)} vs tree row ${JSON.stringify(tree)}`);
  assert.deepEqual(inHeader, tree, `child chat's header ${JSON.stringify(inHeader)} vs tree row ${JSON.stringify(tree)}`);
});

test('a child asks permission while no chat is open: answered from a VS Code notification', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = await openSubchats({});
  await newDemoSession(page);
  await runCommand(page, 'View: Close All Editors');
  await page.locator('iframe.webview').first().waitFor({ state: 'detached' });

  await runCommand(page, 'Subchats: Send Prompt');
  const sessions = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await sessions.first().waitFor();
  assert.equal(await sessions.count(), 1, 'the new root is the only session that takes prompts');
  await sessions.first().click();
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-widget', { hasText: 'Prompt for' }).waitFor();
  await input.fill('Show me what subagents can do');
  await input.press('Enter');

  // With no chat showing the session, the root's own edit asks through a notification first...
  const rootAsk = notificationToast(page, 'notes.md');
  await rootAsk.waitFor({ timeout: SLOW_MS });
  await rootAsk.getByRole('button', { name: 'Allow', exact: true }).click();
  // ...then the Reviewer's, named as a subagent of its parent.
  const reviewerAsk = notificationToast(page, 'Subagent "Reviewer"');
  await reviewerAsk.waitFor({ timeout: SLOW_MS });
  assert.match(await reviewerAsk.innerText(), /review\.md/);
  await screenshot(page, 'e2e-control-child-permission-notification');
  await reviewerAsk.getByRole('button', { name: 'Allow', exact: true }).click();

  const reviewer = sidebarTreeRow(page, 'Reviewer');
  await reviewer.locator('.codicon-pass').waitFor({ timeout: SLOW_MS });
  assert.match(await description(reviewer).innerText(), /^Done/);
  const review = join(workbench.workspace, 'subchats-demo/review.md');
  assert.ok(existsSync(review), 'the Reviewer wrote subchats-demo/review.md after the notification allowed it');
  assert.match(readFileSync(review, 'utf8'), /^# Review/);
  assert.equal(await page.locator('iframe.webview').count(), 0, 'no chat was opened on the way');
  await screenshot(page, 'e2e-control-child-permission-answered');
});

/**
 * The demo agent processes of this test only: the agent runs in the session folder, and each test's
 * workspace is a fresh temp folder, so other runs' agents (same dist/cli.js) never match.
 */
function demoAgentPids(workspace) {
  const folder = realpathSync(workspace);
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv.includes('demo-agent') && argv.some((a) => a.endsWith('cli.js')) && readlinkSync(`/proc/${entry}/cwd`) === folder) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** The highest 'Sentence N' the /long answer shows in the chat so far. */
async function lastSentenceShown(chat) {
  const text = await chat.locator('body').innerText();
  return Math.max(0, ...[...text.matchAll(/Sentence (\d+) of a very long answer/g)].map((m) => Number(m[1])));
}

test('the agent process is killed mid-answer: sessions show disconnected, the chat keeps its text, Restart Agent works', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = await openSubchats({});
  const chat = await newDemoSession(page);
  await promptInChat(chat, '/long');
  await chat.getByText('Sentence 30 of a very long answer').waitFor({ timeout: SLOW_MS });

  const pids = demoAgentPids(workbench.workspace);
  assert.equal(pids.length, 1, `exactly one demo agent runs in this test's workspace: ${pids.join(', ')}`);
  const shownBeforeKill = await lastSentenceShown(chat);
  process.kill(pids[0], 'SIGKILL');

  const agentRow = (status) => page.getByRole('treeitem', { name: new RegExp(`^${DEMO_AGENT.replace(/[()]/g, '\\$&')}, ${status} `) });
  const deadAgent = agentRow('disconnected');
  await deadAgent.waitFor({ timeout: SLOW_MS });
  const root = page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"]');
  await description(root).filter({ hasText: /^Disconnected \(last: Running\)/ }).waitFor({ timeout: SLOW_MS });
  await root.locator('.codicon-debug-disconnect').waitFor();
  await chat.locator('subchats-session-bar .sc-state[data-state="disconnected"]').waitFor({ timeout: SLOW_MS });
  // The prompt that was running fails visibly, naming what happened.
  await notificationToast(page, 'was stopped by signal SIGKILL').waitFor({ timeout: SLOW_MS });
  // Nothing already shown is lost.
  assert.ok((await lastSentenceShown(chat)) >= shownBeforeKill, `the chat still shows sentence ${shownBeforeKill}`);
  await chat.getByText('Sentence 30 of a very long answer').waitFor();
  await screenshot(page, 'e2e-control-agent-killed');

  await runContextMenuEntry(page, deadAgent, 'Restart Agent');
  const liveAgent = agentRow('connected');
  await liveAgent.waitFor({ timeout: SLOW_MS });
  assert.equal(await deadAgent.count(), 1, 'the killed connection stays listed as history');
  const newPids = demoAgentPids(workbench.workspace);
  assert.equal(newPids.length, 1, 'one new agent process');
  assert.notEqual(newPids[0], pids[0]);

  // A new session on the restarted agent answers.
  await runCommand(page, 'View: Close All Editors');
  await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
  const freshChat = await newDemoSession(page);
  await promptInChat(freshChat, '/quick');
  await freshChat.getByText('Quick answer from the').waitFor({ timeout: SLOW_MS });
  await description(root).filter({ hasText: /^Done/ }).waitFor({ timeout: SLOW_MS });
  assert.equal(await root.count(), 2, 'the old session (history) and the new one');
  await description(root).filter({ hasText: /^Disconnected/ }).waitFor();
  await screenshot(page, 'e2e-control-agent-restarted');
});

test('a GitHub Copilot–style run (tagged tool calls, unmarked text, events) builds the same nested tree', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = await openSubchats({ 'subchats.demoAgent.dialect': 'copilot' });
  const chat = await newDemoSession(page);
  await promptInChat(chat, 'Show me what subagents can do');
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).getByRole('button', { name: 'Allow', exact: true }).click();
  // The Reviewer's permission arrives on the parent session; only its tool call says whose it is.
  const ask = chat.locator('subchats-child-card', { has: chat.locator('.sc-card-title', { hasText: /^Reviewer$/ }) }).locator('subchats-permission');
  await ask.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: SLOW_MS });
  const rows = await waitForTree(page, (tree) => {
    const byLabel = (label) => tree.find((r) => r.label === label);
    for (const label of ['Show me what subagents can do', 'Explorer', 'Scout', 'Reviewer']) assert.match(byLabel(label)?.description ?? '', /^Done/, `${label} done`);
    assert.equal(byLabel('Scout').level, byLabel('Explorer').level + 1, 'Scout nests under Explorer');
    return tree;
  }, { timeoutMs: SLOW_MS });
  assert.ok(rows.every((r) => !/[0-9a-f]{8}/.test(r.label)), `no ids as names: ${rows.map((r) => r.label).join(', ')}`);
  // The child's text reached its own card, told apart from the parent's by Copilot's events.
  const explorerCard = chat.locator('subchats-child-card', { has: chat.locator('.sc-card-title', { hasText: /^Explorer$/ }) });
  await explorerCard.locator('.sc-state', { hasText: 'Done' }).first().waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-copilot-dialect-tree');
});
