// The prompt box in real VS Code with the demo agent: New Session leaves the cursor in it (and its key works
// from there), `/` lists the agent's commands and inserts one, ↑ recalls the last prompt, `@` attaches a
// workspace file that reaches the agent (it says what it received), "Add Selection to Subchats Chat" adds a
// chip that is sent, and a prompt queued during a turn (the Queue button next to Steer) waits in a visible
// queue until the turn ends. Retry sends a message again, attachment included, marked as sent again.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { openActivity, launchWorkbench, notificationToast, pickQuickItem, repoRoot, runCommand, runContextMenuEntry, recordFailure, screenshot, treeItem } from './harness/index.mjs';
import { SLOW_MS, newDemoSession, promptInChat } from './harness/subchats.mjs';

const APP_TS = 'export const answer = 42;\n';

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
/** @type {import('playwright-core').FrameLocator} */
let chat;

/** A local ACP agent registry (the format of cdn.agentclientprotocol.com's), for Add Agent. */
const REGISTRY = {
  version: '1.0.0',
  agents: [
    { id: 'example-npx', name: 'Example Agent', version: '2.1.0', description: 'An agent npx runs', distribution: { npx: { package: '@example/acp-agent', args: ['--acp'] } } },
    { id: 'example-uvx', name: 'Example Python Agent', version: '0.4.2', description: 'An agent uvx runs', distribution: { uvx: { package: 'example-acp-agent' } } },
    { id: 'example-elsewhere', name: 'Example Native Agent', version: '1.0.0', description: 'A download for another platform only', distribution: { binary: { 'plan9-mips': { archive: 'http://127.0.0.1:9/x.tar.gz', cmd: 'x' } } } },
  ],
};
/** @type {import('node:http').Server} */
let registryServer;

before(async () => {
  registryServer = createServer((request, response) => {
    if (request.url === '/registry.json') response.end(JSON.stringify(REGISTRY));
    else response.writeHead(404).end();
  });
  await new Promise((resolve) => registryServer.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (registryServer.address());
  workbench = await launchWorkbench({
    files: { 'README.md': '# Prompt workspace\n', 'src/app.ts': APP_TS },
    settings: { 'subchats.demoAgent.pace': 30, 'subchats.registryUrl': `http://127.0.0.1:${address.port}/registry.json` },
  });
  await openActivity(workbench.page, 'Subchats');
  chat = await newDemoSession(workbench.page);
});
after(async () => {
  await workbench?.close();
  registryServer?.close();
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-${t.name}`);
});

const box = () => chat.locator('#sc-prompt-input');
const optionNames = () => chat.locator('.sc-completion [role="option"] .sc-completion-name');

// In code-server a new chat's page sometimes failed to load its script (a service worker registered for another
// webview took its requests) and stayed blank, with no cursor: the page now says so and the panel loads it again.
test('New Session leaves the cursor in the new chat\'s prompt box, and its key Ctrl+Alt+S works from there', async () => {
  const { page } = workbench;
  await chat.locator('#sc-prompt-input:focus').waitFor({ timeout: SLOW_MS });
  await page.keyboard.type('typed');
  assert.equal(await box().inputValue(), 'typed', 'typing goes to the prompt box without a click');
  // Ctrl+Alt+N, the key before, is New Untitled Text File in VS Code for the Web.
  await page.keyboard.press('Control+Alt+KeyS');
  const picker = page.locator('.quick-input-widget input[placeholder="Start a session with which agent?"]');
  await picker.waitFor({ timeout: SLOW_MS });
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'hidden' });
  assert.equal(await box().inputValue(), 'typed', 'the key typed nothing');
  await box().fill('');
});

test('/ lists the demo agent\'s commands, filters them, and inserts the chosen one', async () => {
  await box().click();
  await box().pressSequentially('/');
  await optionNames().filter({ hasText: '/crash' }).waitFor({ timeout: SLOW_MS });
  const all = await optionNames().allTextContents();
  for (const name of ['/quick', '/long', '/crash', '/hang', '/error']) assert.ok(all.includes(name), `${name} in ${all.join(', ')}`);
  await box().pressSequentially('qu');
  assert.deepEqual(await optionNames().allTextContents(), ['/quick']);
  await screenshot(workbench.page, 'e2e-prompt-commands');
  await box().press('Enter');
  assert.equal(await box().inputValue(), '/quick ');
  await box().press('Enter');
  await chat.getByText('Quick answer from the').first().waitFor({ timeout: SLOW_MS });
});

test('↑ in the empty box recalls the last prompt', async () => {
  await box().click();
  assert.equal(await box().inputValue(), '');
  await box().press('ArrowUp');
  assert.equal(await box().inputValue(), '/quick');
  await screenshot(workbench.page, 'e2e-prompt-history');
  await box().press('ArrowDown');
  assert.equal(await box().inputValue(), '');
});

test('@ attaches a workspace file, and the session/prompt carries it as an embedded resource', async () => {
  await box().pressSequentially('read @app');
  await optionNames().filter({ hasText: 'src/app.ts' }).waitFor({ timeout: SLOW_MS });
  await box().press('Enter');
  await chat.locator('.sc-chip', { hasText: 'app.ts' }).waitFor();
  assert.equal(await box().inputValue(), 'read ');
  await screenshot(workbench.page, 'e2e-prompt-file-chip');
  await box().press('Enter');
  // The demo agent advertises embeddedContext, so the file goes with its text; it says what arrived.
  await chat.getByText(`Received: file app.ts (resource, ${APP_TS.length} characters)`).waitFor({ timeout: SLOW_MS });
  assert.equal(await chat.locator('.sc-chip').count(), 0);
});

test('Retry sends a message again with its attachment, as a new turn marked as sent again', async () => {
  const received = chat.getByText(`Received: file app.ts (resource, ${APP_TS.length} characters)`);
  const users = chat.locator('subchats-message[role-kind="user"]');
  const before = await users.count();
  const message = users.filter({ hasText: 'read' }).last();
  await message.hover();
  await message.getByRole('button', { name: 'Retry this message' }).click();
  await received.nth(1).waitFor({ timeout: SLOW_MS });
  assert.equal(await users.count(), before + 1);
  const mark = users.last().locator('.sc-delivery[data-delivery="resend"]');
  assert.match(await mark.innerText(), /^Sent again: your message of \d\d:\d\d:\d\d, as a new turn; the turns after it stay$/);
});

test('Add Selection to Subchats Chat adds a chip with the file and lines, and it is sent', async () => {
  const { page } = workbench;
  await openActivity(page, 'Explorer');
  await treeItem(page, 'src').click();
  await treeItem(page, 'app.ts').dblclick();
  const editor = page.locator('.editor-instance .monaco-editor textarea').first();
  await page.locator('.editor-instance .view-lines', { hasText: 'export const answer' }).first().waitFor();
  await editor.focus();
  await page.keyboard.press('Control+A');
  await runCommand(page, 'Subchats: Add Selection to Subchats Chat');
  await chat.locator('.sc-chip', { hasText: 'app.ts:1' }).waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-prompt-selection-chip');
  await box().click();
  await box().pressSequentially('explain this');
  await box().press('Enter');
  await chat.getByText(/Received: file app\.ts lines 1:1 \(resource, 25 characters\)/).waitFor({ timeout: SLOW_MS });
});

test('Add File to Subchats Chat in the Explorer\'s context menu adds the file, and it is sent', async () => {
  const { page } = workbench;
  // Shown through its command: the activity bar entry hides the side bar when it already shows the Explorer.
  await runCommand(page, 'View: Show Explorer');
  await runContextMenuEntry(page, treeItem(page, 'README.md'), 'Add File to Subchats Chat');
  await chat.locator('.sc-chip', { hasText: 'README.md' }).waitFor({ timeout: SLOW_MS });
  await box().click();
  await box().press('Enter');
  await chat.getByText('Received: file README.md (resource, 19 characters)').waitFor({ timeout: SLOW_MS });
});

test('a prompt queued (the Queue button) while the session works waits visibly and is sent when the turn ends', async () => {
  await promptInChat(chat, '/long');
  await chat.getByText('Sentence 10 of a very long answer').waitFor({ timeout: SLOW_MS });
  // The transcript is virtualised: what scrolled away leaves the DOM, so the test looks at the end (the chat follows it).
  const transcript = chat.locator('subchats-transcript.sc-root-transcript');
  const sentPrompt = transcript.locator('subchats-message', { hasText: '/quick from the queue' });
  // The demo agent takes steering, so Enter would join the running turn: the "Queue" button waits for its end.
  await chat.locator('subchats-prompt-box button[type="submit"]', { hasText: 'Steer' }).waitFor();
  await box().fill('/quick from the queue');
  await chat.getByRole('button', { name: 'Queue', exact: true }).click();
  const queued = chat.locator('.sc-queued', { hasText: '/quick from the queue' });
  await queued.waitFor();
  await screenshot(workbench.page, 'e2e-prompt-queued');
  const stop = chat.getByRole('button', { name: 'Stop', exact: true });
  assert.ok(await stop.isVisible(), 'the turn still runs');
  assert.equal(await sentPrompt.count(), 0, 'nothing sent while the turn runs');
  await stop.click();
  await queued.waitFor({ state: 'detached', timeout: SLOW_MS });
  await sentPrompt.waitFor({ timeout: SLOW_MS });
  // Its answer comes after it, once its turn has ended (an earlier /quick answer may still be in the DOM above).
  await stop.waitFor({ state: 'hidden', timeout: SLOW_MS });
  const answers = await transcript.locator('subchats-message', { hasText: 'Quick answer from the' }).all();
  const answerYs = await Promise.all(answers.map(async (answer) => (await answer.boundingBox())?.y ?? Number.NEGATIVE_INFINITY));
  const promptBox = await sentPrompt.boundingBox();
  const lastAnswerY = Math.max(...answerYs);
  assert.ok(promptBox && lastAnswerY > promptBox.y, `the answer (${lastAnswerY}) follows the queued prompt (${promptBox?.y})`);
  await screenshot(workbench.page, 'e2e-prompt-queue-sent');
});

test('a code block that names its file: its toolbar offers Apply, which shows the change and writes the file on Apply', async () => {
  const { page } = workbench;
  const transcript = chat.locator('subchats-transcript.sc-root-transcript');
  // The latest /quick answer, by its place in the transcript (the virtualiser reuses elements, so the DOM's
  // order is not the transcript's; the chat follows the end, so the latest is rendered).
  const articles = transcript.locator('[role="article"]', { has: chat.locator('subchats-message', { hasText: 'Quick answer from the' }) });
  await articles.first().waitFor();
  const latestId = await articles.evaluateAll((found) =>
    found.reduce((latest, article) => (Number(article.getAttribute('aria-posinset')) > Number(latest.getAttribute('aria-posinset')) ? article : latest)).getAttribute('data-entry-id'),
  );
  const answer = transcript.locator(`[data-entry-id="${latestId}"] subchats-message`);
  const block = answer.locator('.sc-code-block', { hasText: '# Quick note' });
  // Highlighted in the editor theme's colours: the highlighter chunk loads in the real webview (its CSP, its
  // resource loader), and the host read the active theme's file and sent its token colours.
  const echo = answer.locator('code.language-sh .sc-token-built-in', { hasText: 'echo' });
  await echo.waitFor({ timeout: SLOW_MS });
  const colours = await echo.evaluate((span) => ({
    themed: getComputedStyle(document.documentElement).getPropertyValue('--sc-token-built-in').trim(),
    span: getComputedStyle(span).color,
    text: getComputedStyle(span.closest('pre')).color,
  }));
  assert.match(colours.themed, /^#[0-9a-f]{3,8}$/, 'the host sent the theme\'s colour for built-ins');
  assert.notEqual(colours.span, colours.text, 'echo is drawn in its own colour');
  await block.hover({ timeout: SLOW_MS });
  const toolbar = block.getByRole('toolbar', { name: 'Code block actions' });
  const apply = toolbar.getByRole('button', { name: 'Apply to subchats-demo/quick.md… (shows the change first)' });
  await apply.waitFor();
  assert.equal(await toolbar.getByRole('button').count(), 4, 'Copy, Insert at cursor, Insert into terminal, Apply');
  await screenshot(page, 'e2e-code-block-actions');
  // The README's picture of a code block's actions: SUBCHATS_UPDATE_DOCS=1 refreshes the committed copy.
  if (process.env.SUBCHATS_UPDATE_DOCS === '1') {
    mkdirSync(join(repoRoot, 'docs/images'), { recursive: true });
    await page.screenshot({ path: join(repoRoot, 'docs/images/code-block-actions.png') });
  }
  await apply.click();
  // The diff of the file (new: empty) against the block comes first; nothing is written until Apply.
  await page.locator('.editor-instance .monaco-diff-editor').getByText("Written by the demo agent's /quick answer.").first().waitFor({ timeout: SLOW_MS });
  const question = notificationToast(page, 'Create subchats-demo/quick.md with the code block?');
  await question.getByRole('button', { name: 'Apply', exact: true }).click();
  // The new file, with the block's text, as the active editor (an edit the user can undo).
  const tab = page.locator('.tabs-container .tab.active', { has: page.locator('.label-name', { hasText: /^quick\.md$/ }) });
  await tab.waitFor({ timeout: SLOW_MS });
  await page.locator('.editor-instance .monaco-editor .view-lines').getByText("Written by the demo agent's /quick answer.").first().waitFor();
  await screenshot(page, 'e2e-code-block-applied');
});

test('Add Agent lists the registry\'s agents with how each runs; the chosen one is added and New Session offers it by name', async () => {
  const { page } = workbench;
  await runCommand(page, 'Subchats: Add Agent…');
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.filter({ hasText: 'Example Native Agent' }).waitFor({ timeout: SLOW_MS });
  assert.match(await rows.filter({ hasText: 'Example Agent' }).first().innerText(), /v2\.1\.0 · runs with npx/);
  assert.match(await rows.filter({ hasText: 'Example Python Agent' }).innerText(), /v0\.4\.2 · runs with uvx/);
  assert.match(await rows.filter({ hasText: 'Example Native Agent' }).innerText(), /not for this platform/);
  await screenshot(page, 'e2e-add-agent');
  // The README's picture of Add Agent: SUBCHATS_UPDATE_DOCS=1 refreshes the committed copy.
  if (process.env.SUBCHATS_UPDATE_DOCS === '1') {
    mkdirSync(join(repoRoot, 'docs/images'), { recursive: true });
    await page.screenshot({ path: join(repoRoot, 'docs/images/add-agent.png') });
  }
  await pickQuickItem(page, 'Example Agent');
  await notificationToast(page, 'Subchats: added Example Agent to subchats.agents.').waitFor({ timeout: SLOW_MS });
  await runCommand(page, 'Subchats: New Session…');
  await rows.filter({ hasText: 'Example Agent' }).first().waitFor({ timeout: SLOW_MS });
  await page.keyboard.press('Escape');
});
