// The chat webview in real Chromium: rendering of every entry type, child cards, controls, screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { repoRoot, useHarness } from './harness';
import { CHILD_A, CHILD_B, GRANDCHILD, PERMISSION_REQUEST_ID, ROOT, ROOT_PLAN_ID, parentWithChildren, withPendingPermission } from './scenes';

const screenshots = join(repoRoot, 'test-results', 'screenshots');
const harness = useHarness();

before(() => mkdirSync(screenshots, { recursive: true }));

describe('chat webview', () => {
  test('renders messages, thoughts, plan, tool calls, notices and child cards from a snapshot', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;

    await page.getByText('Please fix the failing tests').waitFor();
    assert.equal(await page.locator('subchats-message[role-kind="user"] code').first().textContent(), 'src/parser');
    assert.equal(await page.locator('subchats-message strong').first().textContent(), 'tokenizer');
    // Thoughts are collapsed: their text is not rendered until opened.
    assert.equal(await page.getByText('The parser tests fail').count(), 0);
    await page.locator('details.sc-thought > summary').click();
    await page.getByText('The parser tests fail').waitFor();
    // Code blocks get a copy button that asks the host to copy the block's text.
    await page.locator('subchats-message').getByRole('button', { name: 'Copy code' }).first().click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'copy'), {
      type: 'copy',
      text: 'export function tokenize(s: string) {}',
    });
    // Links go through the host.
    await page.getByRole('link', { name: 'the docs' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openLink'), { type: 'openLink', url: 'https://example.com/docs' });

    assert.equal(await page.locator('subchats-plan li').count(), 3);
    assert.match((await page.locator('subchats-plan .sc-role').textContent()) ?? '', /1\/3 done/);

    // Tool call: kind icon, title, status, location opening file:line.
    const read = page.locator('[data-tool-call-id="read1"]');
    await read.locator('.codicon-file').waitFor();
    assert.match((await read.textContent()) ?? '', /Read src\/parser\/tokenizer\.ts[\s\S]*completed/);
    await read.getByRole('button', { name: /tokenizer\.ts:42/ }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openFile'), {
      type: 'openFile',
      path: '/repo/src/parser/tokenizer.ts',
      line: 42,
    });
    // Raw input on demand.
    await read.getByRole('button', { name: /Expand tool call/ }).click();
    await read.getByRole('button', { name: /Show raw input/ }).click();
    assert.match((await read.locator('pre').textContent()) ?? '', /"path": "\/repo\/src\/parser\/tokenizer.ts"/);

    // Diff: +/- summary and open-diff action.
    const diff = page.locator('[data-tool-call-id="edit1"] subchats-diff');
    assert.equal(await diff.locator('.sc-added').textContent(), '+2');
    assert.equal(await diff.locator('.sc-removed').textContent(), '−1');
    await diff.getByRole('button', { name: 'Open diff' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openDiff'), {
      type: 'openDiff',
      sessionId: ROOT,
      toolCallId: 'edit1',
      index: 0,
    });
    await diff.getByRole('button', { name: /Show changes/ }).click();
    assert.deepEqual(await diff.locator('.sc-diff-line').allTextContents(), ['  a', '- b', '+ B', '  c', '+ d']);

    // Terminal output with ANSI colours as styled text.
    const exec = page.locator('[data-tool-call-id="exec1"]');
    await exec.getByRole('button', { name: /Expand tool call/ }).click();
    const terminal = exec.locator('pre.sc-terminal');
    assert.equal(
      await terminal.textContent(),
      'PASS src/lexer.test.ts\nFAIL src/parser.test.ts\nwarn 2 snapshots obsolete\n',
    );
    const fail = terminal.locator('span.sc-ansi-bold');
    assert.equal(await fail.textContent(), 'FAIL');
    assert.equal(await fail.evaluate((el) => (el as HTMLElement).style.color), 'var(--vscode-terminal-ansiRed)');
    assert.equal(await terminal.locator('span').nth(2).evaluate((el) => (el as HTMLElement).style.color), 'rgb(255, 135, 0)');

    // Notice and message between sessions, linked to the other side.
    await page.getByText('Context is 80% full').waitFor();
    const sessionMessage = page.locator('subchats-session-message');
    assert.match((await sessionMessage.textContent()) ?? '', /this session[\s\S]*Test investigator/);

    // Child cards where they were spawned: a ChildEntry and a subagent tool call; parallel = separate cards.
    const cardA = page.locator(`subchats-child-card[data-session-id="${CHILD_A}"]`);
    const cardB = page.locator(`subchats-child-card[data-session-id="${CHILD_B}"]`);
    assert.equal(await cardA.locator('.sc-card-title').first().textContent(), 'Test investigator');
    // Title falls back to the description.
    assert.equal(await cardB.locator('.sc-card-title').first().textContent(), 'Updates the snapshots');
    // B talks on its own session, so the store anchors its card where that traffic began: right after its launch call.
    assert.equal(await page.locator(`[data-entry-id="tool:task2"] + [data-entry-id="child:${CHILD_B}"] subchats-child-card`).count(), 1);
    assert.match((await cardA.locator('.sc-child-meta').first().textContent()) ?? '', /1 tool call[\s\S]*1 subagent[\s\S]*Started a subagent/);
    // What the subagent reported it spent, in the one wording the tree uses too (src/presentation/usage.ts).
    assert.equal((await cardB.locator('.sc-child-meta .sc-usage').textContent())?.trim(), '1,234 tokens · 0.02 USD · gpt-5.4');
    assert.match((await cardA.locator('.sc-state').first().textContent()) ?? '', /Running/);

    // Expanding shows the child's chat inline, nested at every depth.
    await cardA.getByRole('button', { name: 'Expand subagent Test investigator' }).click();
    await cardA.getByText('Looking at the tokenizer tests.').waitFor();
    const grandCard = cardA.locator(`subchats-child-card[data-session-id="${GRANDCHILD}"]`);
    await grandCard.getByRole('button', { name: 'Expand subagent Edge case checker' }).click();
    await grandCard.getByText('Checking empty input.', { exact: true }).waitFor();
    await page.screenshot({ path: join(screenshots, 'parent-with-child-cards.png'), fullPage: true });

    // Open a child in its own tab or beside.
    await cardB.getByRole('button', { name: /to the side/ }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openChat'), { type: 'openChat', sessionId: CHILD_B, where: 'beside' });

    assert.deepEqual(chat.pageErrors, []);
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });

  test('a child panel shows the breadcrumb, its state, and why it cannot be prompted (offering a relay instead)', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    const link = await FeedLink.showing(chat, scene.store, CHILD_A);
    const { page } = chat;
    const crumbs = page.locator('.sc-breadcrumb li');
    await crumbs.nth(1).waitFor();
    assert.deepEqual(await crumbs.allTextContents().then((t) => t.map((s) => s.trim())), ['Fix the failing tests', 'Test investigator']);
    assert.match((await page.locator('subchats-session-bar .sc-state').textContent()) ?? '', /Running/);
    assert.match((await page.locator('.sc-prompt-reason').textContent())?.trim() ?? '', /^Sent to "Fix the failing tests" for "Test investigator": /);
    await page.getByRole('button', { name: /Send to parent/ }).waitFor();
    // The ancestor opens in its own tab.
    await crumbs.nth(0).getByRole('button').click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openChat'), { type: 'openChat', sessionId: ROOT, where: 'tab' });
    await page.screenshot({ path: join(screenshots, 'child-chat-breadcrumb.png'), fullPage: true });
    await chat.close();
  });

  test('the prompt box and cancel post typed requests when allowed', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    // An idle root (a working one queues the prompt until its turn ends).
    scene.endTurn(ROOT);
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    await page.locator('#sc-prompt-input').fill('Also update the changelog');
    await page.locator('#sc-prompt-input').press('Enter');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), {
      type: 'prompt',
      sessionId: ROOT,
      text: 'Also update the changelog',
    });
    assert.equal(await page.locator('#sc-prompt-input').inputValue(), '');
    await page.locator(`subchats-child-card[data-session-id="${CHILD_B}"]`).getByRole('button', { name: /^Cancel subagent/ }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: CHILD_B });
    // When the store says no (the agent withdrew its cancel grant), the control disappears.
    scene.child(ROOT, CHILD_B, { capabilities: {} });
    await link.flush();
    await page
      .locator(`subchats-child-card[data-session-id="${CHILD_B}"]`)
      .getByRole('button', { name: /^Cancel subagent/ })
      .waitFor({ state: 'detached' });
    await chat.close();
  });

  test('permission buttons post the chosen option, and the answer replaces them', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    withPendingPermission(scene, ROOT);
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    const permission = page.locator('subchats-permission');
    await permission.getByRole('button', { name: 'Always allow' }).waitFor();
    assert.equal(await permission.locator('.sc-permission-command').textContent(), 'Command: sh -c "rm -rf build"', 'the command an allow covers is shown');
    await page.screenshot({ path: join(screenshots, 'permission-request.png'), fullPage: true });
    await permission.getByRole('button', { name: 'Always allow' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'answerPermission'), {
      type: 'answerPermission',
      sessionId: ROOT,
      requestId: '7',
      optionId: 'always',
    });
    scene.answerPermission(PERMISSION_REQUEST_ID, 'always');
    await link.flush();
    await permission.getByText('Allowed: Always allow').waitFor();
    assert.equal(await permission.getByRole('button').count(), 0);
    await chat.close();
  });

  test('ACP v2: a tool call that grants cancel has its own cancel button; a v2 diff shows its files and patch; a permission its description', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    scene.toolCall(ROOT, 'slow1', { title: 'Run the slow checks', kind: 'execute', status: 'in_progress', capabilities: { cancel: {} }, content: [{ type: 'terminal', terminalId: 'T1' }] });
    scene.terminal(ROOT, 'T1', { command: 'npm test', output: 'checking…\n', capabilities: { cancel: {} } });
    scene.toolCall(ROOT, 'fixed1', { title: 'Run the fixed checks', kind: 'execute', status: 'in_progress', capabilities: {} });
    scene.toolCall(ROOT, 'edit2', {
      title: 'Edit notes',
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/work/notes.md' }], patch: { format: 'git_patch', text: '--- a/work/notes.md\n+++ b/work/notes.md\n@@ -1,1 +1,1 @@\n-old line\n+new line\n' } }],
    });
    scene.askPermission(ROOT, 8, { toolCallId: 'hosts1', title: 'Read /etc/hosts?' }, [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }], { description: 'It reads outside the sandbox.' });
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    await page.getByRole('button', { name: 'Cancel tool call Run the slow checks' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancelToolCall'), { type: 'cancelToolCall', sessionId: ROOT, toolCallId: 'slow1' });
    // Its agent terminal grants cancel too: a Stop button in the terminal.
    await page.getByRole('button', { name: 'Expand tool call Run the slow checks' }).click();
    await page.getByRole('button', { name: 'Stop the command npm test' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancelTerminal'), { type: 'cancelTerminal', sessionId: ROOT, terminalId: 'T1' });
    assert.equal(await page.getByRole('button', { name: 'Cancel tool call Run the fixed checks' }).count(), 0, 'no grant, no button');
    const patch = page.locator('subchats-patch');
    await patch.getByText('/work/notes.md').waitFor();
    await patch.getByRole('button', { name: 'Show the patch' }).click();
    await patch.locator('.sc-diff-line[data-op="+"]', { hasText: '+new line' }).waitFor();
    await page.locator('subchats-permission').getByText('It reads outside the sandbox.').waitFor();
    await page.screenshot({ path: join(screenshots, 'v2-tool-call-cancel.png'), fullPage: true });
    // Once the call ends, its grant no longer counts: the button goes.
    scene.toolCall(ROOT, 'slow1', { status: 'cancelled' });
    await link.flush();
    await page.getByRole('button', { name: 'Cancel tool call Run the slow checks' }).waitFor({ state: 'detached' });
    await chat.close();
  });

  test('ACP v2: a plan the agent removed shows as removed, without its steps; the child card says so too', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    scene.plan(CHILD_A, [{ content: 'Read the lexer', status: 'pending' }], 'pa');
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    const plan = page.locator('subchats-transcript').first().locator('subchats-plan');
    assert.equal(await plan.locator('li').count(), 3);
    scene.removePlan(ROOT, ROOT_PLAN_ID);
    scene.removePlan(CHILD_A, 'pa');
    await link.flush();
    await plan.getByText('Plan removed').waitFor();
    assert.equal(await plan.locator('li').count(), 0, 'the removed plan\'s steps are gone');
    assert.equal(await plan.getByText('Find the failing test').count(), 0);
    await page.locator(`subchats-child-card[data-session-id="${CHILD_A}"]`).getByText('Plan removed').waitFor();
    await chat.close();
  });

  test('dismissing a permission answers it with a null option', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    withPendingPermission(scene, CHILD_A);
    const link = await FeedLink.showing(chat, scene.store, CHILD_A);
    await chat.page.locator('subchats-permission').getByRole('button', { name: 'Dismiss' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'answerPermission'), {
      type: 'answerPermission',
      sessionId: CHILD_A,
      requestId: '7',
      optionId: null,
    });
    await chat.close();
  });

  test('user messages with attachments show images only from safe data URIs', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    scene.endTurn(ROOT);
    scene.prompt(ROOT, 'Screenshot attached', [
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' },
      { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' },
      { type: 'resource_link', name: 'notes.md', uri: 'file:///repo/notes.md' },
    ]);
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    await page.getByText('Screenshot attached').waitFor();
    assert.equal(await page.locator('img.sc-image').count(), 1);
    await page.getByText('Image (image/svg+xml)').waitFor();
    await page.getByRole('button', { name: 'notes.md' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openFile'), { type: 'openFile', path: '/repo/notes.md' });
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });
});

describe('themes', () => {
  test('high contrast: cards and entries draw their borders with the contrast colour', async () => {
    const chat = await harness().openChat({ theme: 'high-contrast' });
    const link = await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    const card = chat.page.locator('subchats-child-card .sc-card').first();
    await card.waitFor();
    assert.equal(await card.evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(111, 195, 223)');
    await chat.page.screenshot({ path: join(screenshots, 'chat-high-contrast.png'), fullPage: true });
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });
});
