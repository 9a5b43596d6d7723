// Paths in the chat, in real Chromium, with the workspace the host sends through the panel's FeedSync: a tool
// call's location and title, a diff, a Changes row, a file the user sent, a chip in the prompt box and paths in
// the agent's Markdown read workspace-relative; the full path is only in the tooltip; a click (or Enter) asks
// the host to open the real path, and no file:// link is ever in the page.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { FeedLink } from './feedLink';
import { showHeaderDetails } from './headerDetails';
import { repoRoot, useHarness, type ChatPage } from './harness';
import { PATHS_WORKSPACE, ROOT, pathsScene } from './scenes';

const harness = useHarness();
const screenshots = join(repoRoot, 'test-results', 'screenshots');
before(() => mkdirSync(screenshots, { recursive: true }));

async function open(): Promise<{ chat: ChatPage; link: FeedLink }> {
  const chat = await harness().openChat();
  const link = await FeedLink.showing(chat, pathsScene().store, ROOT, PATHS_WORKSPACE);
  await chat.page.locator('#sc-prompt-input').waitFor();
  return { chat, link };
}

/** Clicks `button` and returns the openFile the page posted for it. */
async function opened(chat: ChatPage, click: () => Promise<void>): Promise<WebviewToHostMessage> {
  await chat.clearPosted();
  await click();
  return chat.waitForPosted((m) => m.type === 'openFile');
}

describe('paths', () => {
  test('a tool call: its location, title and diff read workspace-relative, the full path is the tooltip, a click opens the real path', async () => {
    const { chat } = await open();
    const card = chat.page.locator('[data-tool-call-id="edit1"]');
    const location = card.locator('.sc-locations').getByRole('button', { name: 'src/app.ts:12', exact: true });
    assert.equal(await location.getAttribute('title'), '/repo/src/app.ts:12');
    assert.deepEqual(await opened(chat, () => location.click()), { type: 'openFile', path: '/repo/src/app.ts', line: 12 });
    // Outside the workspace, under home: `~/…`; it still opens (the host asks first).
    const outside = card.locator('.sc-locations').getByRole('button', { name: '~/notes/todo.md', exact: true });
    assert.equal(await outside.getAttribute('title'), '/home/ann/notes/todo.md');
    // Keyboard: the location is a button in the tab order; Enter opens it.
    assert.deepEqual(await opened(chat, async () => { await outside.focus(); await chat.page.keyboard.press('Enter'); }), { type: 'openFile', path: '/home/ann/notes/todo.md' });
    const title = card.locator('.sc-card-head .sc-grow');
    assert.equal(await title.textContent(), 'Edit src/app.ts');
    assert.equal(await title.getAttribute('title'), 'Edit /repo/src/app.ts');
    const diffPath = card.locator('subchats-diff').getByRole('button', { name: 'src/app.ts', exact: true });
    assert.equal(await diffPath.getAttribute('title'), '/repo/src/app.ts');
    assert.deepEqual(await opened(chat, () => diffPath.click()), { type: 'openFile', path: '/repo/src/app.ts' });
    await chat.close();
  });

  test('a Changes row reads workspace-relative and opens the file', async () => {
    const { chat } = await open();
    await showHeaderDetails(chat.page);
    const changes = chat.page.locator('subchats-app > header subchats-changes');
    await changes.locator('.sc-changes-toggle').click();
    const row = changes.locator('[data-path="/repo/src/app.ts"]').getByRole('button', { name: 'src/app.ts', exact: true });
    assert.equal(await row.getAttribute('title'), '/repo/src/app.ts');
    assert.deepEqual(await opened(chat, () => row.click()), { type: 'openFile', path: '/repo/src/app.ts' });
    await chat.close();
  });

  test('files the user sent show decoded and relative; a selection with its lines; the file:// URI is nowhere in the page', async () => {
    const { chat } = await open();
    const message = chat.page.locator('subchats-message', { hasText: 'Look at these' });
    const link = message.getByRole('button', { name: 'src/a b.ts', exact: true });
    assert.equal(await link.getAttribute('title'), '/repo/src/a b.ts');
    assert.deepEqual(await opened(chat, () => link.click()), { type: 'openFile', path: '/repo/src/a b.ts' });
    const selection = message.getByRole('button', { name: 'src/sel.ts:3-5', exact: true });
    assert.equal(await selection.getAttribute('title'), '/repo/src/sel.ts:3-5');
    assert.deepEqual(await opened(chat, () => selection.click()), { type: 'openFile', path: '/repo/src/sel.ts', line: 3 });
    await message.getByText('Text sent with it').click();
    await message.getByText('selected lines').waitFor();
    assert.doesNotMatch(await chat.page.evaluate(() => document.body.innerText), /file:\/\//);
    assert.equal(await chat.page.locator('[href^="file:"], [href^="/"], [href^="command:"]').count(), 0);
    await chat.close();
  });

  test('a chip in the prompt box shows its workspace-relative path and lines, the absolute path as tooltip, and opens the file', async () => {
    const { chat } = await open();
    await chat.send({ type: 'addAttachment', attachment: { kind: 'selection', path: 'src/b.ts', startLine: 3, endLine: 7 } });
    const chip = chat.page.locator('.sc-chip').getByRole('button', { name: 'src/b.ts:3-7', exact: true });
    await chip.waitFor();
    await showHeaderDetails(chat.page);
    await chat.page.locator('subchats-app > header subchats-changes .sc-changes-toggle').click();
    await chat.page.screenshot({ path: join(screenshots, 'paths.png') });
    assert.equal(await chip.getAttribute('title'), '/repo/src/b.ts:3-7');
    assert.deepEqual(await opened(chat, () => chip.click()), { type: 'openFile', path: '/repo/src/b.ts', line: 3 });
    await chat.close();
  });

  test('paths in agent Markdown: a path in backticks and a file link open through the host; a route stays code', async () => {
    const { chat } = await open();
    const answer = chat.page.locator('subchats-message', { hasText: 'the route' }).locator('subchats-markdown');
    const code = answer.getByRole('button', { name: 'src/app.ts:12', exact: true });
    assert.equal(await code.locator('code').count(), 1, 'still shown as code');
    assert.equal(await code.getAttribute('title'), '/repo/src/app.ts:12');
    assert.deepEqual(await opened(chat, () => code.click()), { type: 'openFile', path: '/repo/src/app.ts', line: 12 });
    const config = answer.getByRole('button', { name: 'the config', exact: true });
    assert.equal(await config.getAttribute('title'), '/repo/config.json');
    assert.deepEqual(await opened(chat, () => config.click()), { type: 'openFile', path: '/repo/config.json' });
    assert.equal(await answer.locator('code', { hasText: '/api/users' }).count(), 1);
    assert.equal(await answer.getByRole('button', { name: '/api/users' }).count(), 0);
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });

  test('a second workspace folder: every path gains its folder name, as VS Code writes multi-root paths', async () => {
    const { chat, link } = await open();
    link.workspace = { folders: [{ name: 'repo', path: '/repo' }, { name: 'docs', path: '/docs' }], home: '/home/ann' };
    await link.snapshot();
    await chat.page.locator('.sc-locations').getByRole('button', { name: 'repo/src/app.ts:12', exact: true }).waitFor();
    await chat.page.locator('subchats-markdown').getByRole('button', { name: 'repo/src/app.ts:12', exact: true }).waitFor();
    await chat.close();
  });
});
