// Issue 22 item 1: `npm start` lands the user in the product. Its demo workspace carries `.vscode/subchats-welcome`,
// and such a workspace opens on the Sessions view and the Get Started walkthrough, whose button starts a demo
// session with the cursor in the new chat's prompt box.
import assert from 'node:assert/strict';
import { after, afterEach, test } from 'node:test';
import { chatFrame, launchWorkbench, recordFailure, screenshot } from './harness/index.mjs';
import { SLOW_MS } from './harness/subchats.mjs';

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
after(async () => {
  await workbench?.close();
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-${t.name}`);
});

test('a workspace with .vscode/subchats-welcome opens on the Sessions view and the walkthrough, whose button starts a demo session', { timeout: 180_000 }, async () => {
  workbench = await launchWorkbench({ files: { 'README.md': '# demo\n', '.vscode/subchats-welcome': 'welcome\n' } });
  const { page } = workbench;
  // Nothing is clicked: the sidebar shows Subchats and the editor the walkthrough.
  await page.locator('.part.sidebar .composite.title', { hasText: /subchats/i }).waitFor({ timeout: SLOW_MS });
  const walkthrough = page.locator('.gettingStartedContainer .getting-started-category', { hasText: 'Get Started with Subchats' });
  await walkthrough.first().waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-welcome-walkthrough');
  await page.locator('.gettingStartedContainer a.button-link, .gettingStartedContainer .button-container .monaco-button', { hasText: 'Start a Demo Session' }).first().click();
  const chat = chatFrame(page);
  await chat.locator('#sc-prompt-input:focus').waitFor({ timeout: SLOW_MS });
  assert.equal(await page.locator('.quick-input-widget .quick-input-list .label-name', { hasText: /^Demo Agent/ }).count(), 0, 'the demo agent starts without a picker');
});
