// A chat whose page cannot load its script says so and loads the page again (src/webviews/pageReloads.ts). Seen
// in code-server: a service worker registered for another webview took a new chat's requests, webview.js
// failed, and the chat stayed blank with no cursor. Here a copy of the extension lacks dist/webview.js for a
// while, which fails the same request the same way, at a moment the test chooses.
import assert from 'node:assert/strict';
import { cpSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { openActivity, chatFrame, launchWorkbench, pickQuickItem, repoRoot, runCommand, recordFailure } from './harness/index.mjs';
import { DEMO_AGENT, SLOW_MS } from './harness/subchats.mjs';
import { makeTempDir, removeTempDir } from './harness/tempDirs.mjs';

const RELOADING = 'the page did not load webview.js; loading it again';

/** @type {string} */
let extension;
/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
const bundle = () => join(extension, 'dist', 'webview.js');
const hideBundle = () => renameSync(bundle(), `${bundle()}.away`);
const restoreBundle = () => renameSync(`${bundle()}.away`, bundle());

before(async () => {
  extension = makeTempDir('subchats-e2e-ext-');
  for (const part of ['package.json', 'package.nls.json', 'l10n', 'dist', 'media']) cpSync(join(repoRoot, part), join(extension, part), { recursive: true });
  workbench = await launchWorkbench({ files: { 'README.md': '# page load\n' }, extensionDevelopmentPath: extension });
  await openActivity(workbench.page, 'Subchats');
});
after(async () => {
  await workbench?.close();
  if (extension) removeTempDir(extension);
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-pageLoad-${t.name}`);
});

/** How many times the Subchats log says a chat's page is loaded again. */
const reloadsLogged = () => workbench.server.logText().split(RELOADING).length - 1;

async function waitForReloadsLogged(count) {
  const deadline = Date.now() + SLOW_MS;
  while (reloadsLogged() < count) {
    assert.ok(Date.now() < deadline, `the log did not say "${RELOADING}" ${count} times within ${SLOW_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function newDemoChat() {
  await runCommand(workbench.page, 'Subchats: New Session');
  await pickQuickItem(workbench.page, DEMO_AGENT);
}

test('a new chat whose script did not load is loaded again, and once it loads the cursor is in its prompt box', { timeout: 180_000 }, async () => {
  hideBundle();
  try {
    await newDemoChat();
    await waitForReloadsLogged(1);
  } finally {
    restoreBundle();
  }
  await chatFrame(workbench.page).locator('#sc-prompt-input:focus').waitFor({ timeout: SLOW_MS });
});

test('a chat whose script never loads stops trying and says why it is empty', { timeout: 180_000 }, async () => {
  await runCommand(workbench.page, 'View: Close All Editors');
  const before = reloadsLogged();
  hideBundle();
  try {
    await newDemoChat();
    const alert = chatFrame(workbench.page).getByRole('alert');
    await alert.waitFor({ timeout: SLOW_MS });
    assert.match(await alert.innerText(), /could not load this chat: webview\.js did not load after 4 tries/);
    assert.equal(reloadsLogged() - before, 3, 'three reloads, then the message');
  } finally {
    restoreBundle();
  }
});

const STALLED = 'the page did not start within';
const stallsLogged = () => workbench.server.logText().split(STALLED).length - 1;

// Seen in code-server after Reload Webviews: VS Code's webview host page (pre/index.html) waited for good on a
// service worker that another page controlled, and never loaded the chat's HTML, so the page could not report
// anything. Here the first chat webview host the browser asks for is a page that never starts.
test('a chat whose webview host never starts gets a new panel, which shows the chat with the cursor in its prompt box', { timeout: 180_000 }, async () => {
  await runCommand(workbench.page, 'View: Close All Editors');
  const before = stallsLogged();
  let stalledHosts = 0;
  await workbench.page.context().route(
    (url) => url.pathname.endsWith('/webview/browser/pre/index.html') && url.search.includes('extensionId=subchats.subchats'),
    (route) => {
      stalledHosts++;
      return route.fulfill({ contentType: 'text/html', body: '<!DOCTYPE html><html><body></body></html>' });
    },
    { times: 1 },
  );
  await newDemoChat();
  await chatFrame(workbench.page).locator('#sc-prompt-input:focus').waitFor({ timeout: SLOW_MS });
  assert.equal(stalledHosts, 1, 'the first webview host was the one that never starts');
  assert.equal(stallsLogged() - before, 1, 'one new panel');
  assert.equal(await workbench.page.locator('.tabs-container .tab').count(), 1, 'the stalled panel is gone');
});
