// Open Changes shows what changed on disk, in real VS Code with a scripted ACP v2 agent that writes its own
// files: an honest edit shows as the agent reported it; an edit whose disk text has a line the agent's patch
// leaves out shows that line, and the diff's title and a warning say the disk differs from the agent's report.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, after, before, test } from 'node:test';
import { openActivity, chatFrame, launchWorkbench, notificationToast, repoRoot, runCommand, recordFailure, screenshot } from './harness/index.mjs';
import { newSessionWith, promptInChat, showChatDetails, SLOW_MS } from './harness/subchats.mjs';

const SCRIPTED_AGENT = join(repoRoot, 'test/fixtures/fake-agents/scriptedAgent.mjs');
const AGENT = { id: 'hostile-v2', name: 'Hostile V2 Agent', command: process.execPath, args: [SCRIPTED_AGENT, '--mode', 'v2'] };

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
before(async () => {
  workbench = await launchWorkbench({
    files: { 'notes.md': 'a\nb\n', 'honest.md': 'one\n' },
    settings: { 'subchats.agents': [AGENT], 'subchats.protocolVersion': '2' },
  });
});
after(async () => {
  await workbench?.close();
});
afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-changes-review-${t.name}`);
});

const update = (update) => ({ notify: 'session/update', params: { sessionId: 'sess-1', update } });
/** A v2 edit of `name`: announced, (asked,) written by the agent itself, then reported with `patch`. */
function editScript(name, written, patchLines, { ask = false } = {}) {
  const file = join(workbench.workspace, name);
  const toolCallId = `edit-${name}`;
  const patch = [`diff --git a/${name} b/${name}`, `--- a/${name}`, `+++ b/${name}`, ...patchLines, ''].join('\n');
  return [
    update({ sessionUpdate: 'tool_call', toolCallId, title: `Edit ${name}`, kind: 'edit', status: 'pending', locations: [{ path: file }] }),
    ...(ask
      ? [{
          request: 'session/request_permission',
          params: {
            sessionId: 'sess-1',
            title: `Allow: Edit ${name}?`,
            description: 'The agent waits for your answer.',
            subject: { type: 'tool_call', toolCall: { toolCallId, title: `Edit ${name}`, kind: 'edit' } },
            options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'deny', name: 'Deny', kind: 'reject_once' }],
          },
        }]
      : []),
    { writeFile: file, text: written },
    update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'diff', changes: [{ operation: 'modify', path: file }], patch: { format: 'git_patch', text: patch } }] }),
  ];
}

const multiDiffEditor = (page) => page.locator('.editor-instance .multiDiffEditor');
const changesTab = (page, text) => page.locator('.tabs-container .tab', { hasText: text });

test('Open Changes compares the disk with the file as the agent first touched it, and flags a patch that leaves out what it wrote', { timeout: 240_000 }, async () => {
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  await newSessionWith(page, AGENT.name);
  const chat = chatFrame(page);
  await chat.locator('textarea').waitFor({ timeout: SLOW_MS });
  await showChatDetails(chat);
  const changes = chat.locator('subchats-app > header subchats-changes');

  // An honest edit: the disk is what the patch says; no flag.
  await promptInChat(chat, JSON.stringify(editScript('honest.md', 'one\ntwo\n', ['@@ -1,1 +1,2 @@', ' one', '+two'])));
  await changes.getByText('1 file changed').waitFor({ timeout: SLOW_MS });
  await changes.getByRole('button', { name: 'Open Changes' }).click();
  await multiDiffEditor(page).getByText('two', { exact: true }).first().waitFor({ timeout: SLOW_MS });
  assert.doesNotMatch(await changesTab(page, 'Changes:').first().innerText(), /differ/, 'the agent\'s report matches the disk');
  // The diff opened over the chat: close it to get back to the chat.
  await runCommand(page, 'View: Close Editor');
  await chat.locator('textarea').waitFor({ timeout: SLOW_MS });
  await showChatDetails(chat);

  // A hostile edit: the agent writes a line its patch does not show. The client copied notes.md when the call was announced.
  await promptInChat(chat, JSON.stringify(editScript('notes.md', 'a\nB\nsent your keys to evil.example\n', ['@@ -1,2 +1,2 @@', ' a', '-b', '+B'], { ask: true })));
  await chat.locator('subchats-permission', { hasText: 'notes.md' }).getByRole('button', { name: 'Allow', exact: true }).click({ timeout: SLOW_MS });
  await changes.getByText('2 files changed').waitFor({ timeout: SLOW_MS });
  await changes.getByRole('button', { name: 'Open Changes' }).click();
  await changesTab(page, /The file on disk differs from what the agent reported/).waitFor({ timeout: SLOW_MS });
  await multiDiffEditor(page).getByText('sent your keys to evil.example').first().waitFor({ timeout: SLOW_MS });
  await notificationToast(page, /The file on disk differs from what the agent reported \(notes\.md\)/).waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-open-changes-disk-differs');
});
