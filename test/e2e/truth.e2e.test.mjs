// Truth with real agents (issue #21 items 1–4) in real VS Code: each agent is a scripted agent that replays a
// transcript in that agent's wire shapes (test/fixtures, see their READMEs), and the chat must show what the wire
// says: a cancelled Copilot subagent is Cancelled, a gemini child failed by the user's cancel is Cancelled with
// gemini's words, opencode's background job ends with the turn opencode starts for it, and a loaded opencode child
// takes its card's place with the task's duration.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openActivity, chatFrame, launchWorkbench, repoRoot, runCommand, screenshot } from './harness/index.mjs';
import { newSessionWith, promptInChat, SLOW_MS } from './harness/subchats.mjs';

const TEST_TIMEOUT_MS = 240_000;
const REPLAY_AGENT = join(repoRoot, 'test/fixtures/fake-agents/replayAgent.mjs');
const replaying = (id, name, fixture) => ({ id, name, command: process.execPath, args: [REPLAY_AGENT, join(repoRoot, 'test/fixtures', fixture)] });
const AGENTS = [
  replaying('copilot-cancel', 'Copilot (cancel)', 'written/copilot-cancel-events.jsonl'),
  replaying('gemini-cancel', 'Gemini (cancel)', 'recorded-new/gemini-cancel.jsonl'),
  replaying('opencode-background', 'opencode (background)', 'written/opencode-background-task.jsonl'),
  replaying('opencode-load', 'opencode (load child)', 'recorded-new/opencode-load-child.jsonl'),
];

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;

before(async () => {
  workbench = await launchWorkbench({ settings: { 'subchats.agents': AGENTS } });
  // The Subchats view's entry shows once the workbench has read the extension's contributions: before that,
  // the palette has no Subchats commands (CI: "Subchats: New Session" was not listed).
  await openActivity(workbench.page, 'Subchats');
});

after(async () => {
  await workbench?.close();
});

/** A fresh session with that agent, its chat ready for a prompt (earlier chats closed). */
async function sessionWith(t, agentName) {
  const { page } = workbench;
  t.after(async () => {
    if (t.passed === false) await screenshot(page, `failed-truth-${t.name}`).catch(() => undefined);
  });
  await runCommand(page, 'View: Close All Editors');
  await newSessionWith(page, agentName);
  const chat = chatFrame(page);
  await chat.locator('textarea').waitFor({ timeout: SLOW_MS });
  return chat;
}

/** The card of the subagent titled `title` in the chat. */
const card = (chat, title) => chat.locator('subchats-child-card', { has: chat.locator('.sc-card-title', { hasText: title }) }).first();

/** The state label a card's header shows. */
const cardState = (childCard) => childCard.locator('.sc-card-head .sc-state');

test('1. Copilot: a subagent its event reports cancelled reads Cancelled, and the next answer is a message of its own', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const chat = await sessionWith(t, 'Copilot (cancel)');
  await promptInChat(chat, 'Delegate the notes to a subagent');
  const child = card(chat, 'Read notes file');
  await cardState(child).filter({ hasText: 'Running' }).waitFor({ timeout: SLOW_MS });
  await chat.locator('.sc-stop').click();
  await cardState(child).filter({ hasText: /^\s*Cancelled\s*$/ }).waitFor({ timeout: SLOW_MS });
  assert.equal(await cardState(child).filter({ hasText: 'Done' }).count(), 0);

  await chat.locator('.sc-stop').waitFor({ state: 'detached', timeout: SLOW_MS });
  await promptInChat(chat, 'Just say hello.');
  const hello = chat.locator('subchats-message', { hasText: 'Hello!' });
  await hello.waitFor({ timeout: SLOW_MS });
  const info = chat.locator('subchats-message', { hasText: 'Info: Operation cancelled by user' });
  assert.equal(await info.count(), 1);
  assert.doesNotMatch(await info.innerText(), /Hello!/, 'the notice and the answer are not run together');
});

test('2. gemini: the child the user\'s cancel stopped reads Cancelled with gemini\'s own words, never Failed', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const chat = await sessionWith(t, 'Gemini (cancel)');
  await promptInChat(chat, 'Delegate to a subagent');
  const child = chat.locator('subchats-child-card').first();
  await cardState(child).filter({ hasText: 'Running' }).waitFor({ timeout: SLOW_MS });
  await chat.locator('.sc-stop').click();
  await cardState(child).filter({ hasText: /^\s*Cancelled\s*$/ }).waitFor({ timeout: SLOW_MS });
  await child.locator('.sc-reported', { hasText: 'reported: This operation was aborted' }).waitFor({ timeout: SLOW_MS });
  assert.equal(await cardState(child).filter({ hasText: 'Failed' }).count(), 0);
});

test('3. opencode: the background job ends when opencode starts its own turn for the result; it never spins for ever', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const chat = await sessionWith(t, 'opencode (background)');
  await promptInChat(chat, 'Launch a background task');
  await chat.locator('subchats-message', { hasText: 'Background task result received' }).waitFor({ timeout: SLOW_MS });
  const child = card(chat, 'Read notes file');
  await cardState(child).filter({ hasText: /^\s*Ended\s*$/ }).waitFor({ timeout: SLOW_MS });
  assert.equal(await child.locator('.sc-quiet-notice').count(), 0, 'no hint that it may wait on a permission');
  await chat.locator('subchats-session-bar .sc-state', { hasText: 'Running (agent started)' }).waitFor({ timeout: SLOW_MS });
});

test('4. opencode: the loaded child takes its card\'s place, keeps the task\'s duration, and leaves no dead card', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const chat = await sessionWith(t, 'opencode (load child)');
  await promptInChat(chat, 'Delegate to a subagent');
  const answer = chat.locator('subchats-message', { hasText: 'Parent' }).last();
  await answer.waitFor({ timeout: SLOW_MS });
  const child = card(chat, 'Read notes file');
  await cardState(child).filter({ hasText: 'Done' }).waitFor({ timeout: SLOW_MS });
  await child.getByRole('button', { name: 'Open the session of Read notes file' }).click();
  // The loaded session opens in a chat of its own beside the parent's; the parent's is the one not named after it.
  const parentChat = await chatNotShowing(workbench.page, 'Read notes file');
  const loadedCard = card(parentChat, 'Read notes file');
  // The load replays the child's own transcript: its read of notes.txt shows in the card once expanded.
  await loadedCard.getByRole('button', { name: 'Expand subagent Read notes file' }).click();
  await loadedCard.locator('subchats-tool-call').first().waitFor({ timeout: SLOW_MS });
  await checkLoadedCard(parentChat, loadedCard);
});

/** The visible chat (of two) whose header does not name `label`. */
async function chatNotShowing(page, label) {
  const frames = page.locator('iframe.webview.ready[src*="extensionId=subchats.subchats&"] >> visible=true');
  await frames.nth(1).waitFor({ timeout: SLOW_MS });
  const chats = [0, 1].map((i) => frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame());
  const labels = [];
  for (const chat of chats) {
    const current = chat.locator('subchats-session-bar [aria-current="page"]');
    await current.waitFor({ timeout: SLOW_MS });
    labels.push((await current.innerText()).trim());
  }
  assert.equal(labels.filter((text) => text === label).length, 1, `one chat shows the loaded session: ${labels.join(' | ')}`);
  return chats[labels.findIndex((text) => text !== label)];
}

async function checkLoadedCard(chat, child) {
  assert.equal(await chat.locator('subchats-child-card').count(), 1, 'one card for the subagent');
  assert.equal(await chat.getByText('Subagent (not available)').count(), 0, 'no dead card where the task was');
  // The parent's own entries, in order (not what the expanded card holds).
  const order = await chat
    .locator('subchats-child-card, subchats-message')
    .evaluateAll((nodes) => nodes.filter((node) => !node.parentElement?.closest('subchats-child-card')).map((node) => node.tagName.toLowerCase()));
  assert.ok(order.indexOf('subchats-child-card') < order.lastIndexOf('subchats-message'), `the card stays before the parent's answer: ${order.join(', ')}`);
  // The task ran 256 ms; loading its session is no work.
  assert.equal((await child.locator('[title^="Time working"]').innerText()).trim(), '0s');
}
