// What each subagent cost and an honest word when it ends (issue #24) in real VS Code: the demo agent (draft
// `kind: "subagent"` dialect, which offers background delegation) runs the Explorer in the background. Its usage
// shows on its card and in its tree tooltip, and a notification says when it ended: never before.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { openActivity, chatFrame, launchWorkbench, notificationToast, pickQuickItem, runCommand, recordFailure, sidebarTreeRow } from './harness/index.mjs';
import { DEMO_AGENT, SLOW_MS } from './harness/subchats.mjs';

const TEST_TIMEOUT_MS = 240_000;

/** @type {Awaited<ReturnType<typeof launchWorkbench>> | undefined} */
let workbench;

afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-cost-${t.name}`);
  await workbench?.close();
  workbench = undefined;
});

test('a background subagent: per-child usage on its card and tree tooltip, and a notification when it ends, none before', { timeout: TEST_TIMEOUT_MS }, async () => {
  // The Explorer branch works 10 s, time to hide the chat while it runs.
  workbench = await launchWorkbench({ settings: { 'subchats.demoAgent.dialect': 'kind-subagent', 'subchats.demoAgent.childDuration': 10_000 } });
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  await runCommand(page, 'Subchats: New Session');
  await pickQuickItem(page, DEMO_AGENT);
  const chat = chatFrame(page);
  await chat.locator('textarea').waitFor({ timeout: SLOW_MS });

  await runCommand(page, 'Subchats: Send Prompt');
  await pickQuickItem(page, 'Session 1');
  await page.locator('.quick-input-widget', { hasText: 'Prompt for' }).waitFor({ timeout: SLOW_MS });
  const input = page.locator('.quick-input-widget input');
  await input.fill('Explore the project in the background');
  await input.press('Enter');
  await pickQuickItem(page, 'Require Explorer in the background');
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).getByRole('button', { name: 'Allow', exact: true }).click({ timeout: SLOW_MS });

  // The turn ends while the Explorer works on: the root says so, and nothing announces an end yet.
  const explorerCard = chat.locator('subchats-child-card', { has: chat.locator('.sc-card-title', { hasText: 'Explorer' }) }).first();
  await explorerCard.locator('.sc-card-head .sc-state', { hasText: 'Running in background' }).waitFor({ timeout: SLOW_MS });
  await chat.locator('subchats-session-bar .sc-state', { hasText: /subagents? still running in the background/ }).waitFor({ timeout: SLOW_MS });
  assert.equal(await notificationToast(page, 'finished').count(), 0, 'no end is announced while it runs');

  // With its chat hidden, its end comes as a notification naming it and its parent.
  await runCommand(page, 'View: Close All Editors');
  const ended = notificationToast(page, /Explorer.*\(under .+\) finished: Done/);
  await ended.waitFor({ timeout: SLOW_MS });

  // Open shows the Explorer's own chat, its usage in the header; its parent's chat shows it on its card.
  await ended.getByRole('button', { name: 'Open' }).click();
  const own = chatFrame(page);
  await own.locator('subchats-session-bar [aria-current="page"]', { hasText: 'Explorer' }).waitFor({ timeout: SLOW_MS });
  await own.locator('subchats-session-bar', { hasText: /\d\.\d+ USD/ }).waitFor({ timeout: SLOW_MS });
  await own.locator('subchats-session-bar nav a, subchats-session-bar nav button', { hasText: 'Explore the project in the background' }).first().click();
  const card = own.locator('subchats-child-card', { has: own.locator('.sc-card-title', { hasText: 'Explorer' }) }).first();
  await card.locator('.sc-usage', { hasText: /\d\.\d+ USD/ }).waitFor({ timeout: SLOW_MS });
  await sidebarTreeRow(page, 'explorer: Explorer').hover();
  await page.locator('.monaco-hover', { hasText: /USD/ }).first().waitFor({ timeout: SLOW_MS });
});
