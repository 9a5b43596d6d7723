// A hostile agent in real VS Code (code-server): its words must never become links or commands in the
// workbench's own UI (notifications here; the pure builders behind every other surface are unit-tested).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { openActivity, chatFrame, launchWorkbench, notificationToast, pickQuickItem, repoRoot, runCommand, recordFailure, screenshot } from './harness/index.mjs';
import { newSessionWith, SLOW_MS } from './harness/subchats.mjs';
import { makeTempDir } from './harness/tempDirs.mjs';

const TEST_TIMEOUT_MS = 240_000;
const SCRIPTED_AGENT = join(repoRoot, 'test/fixtures/fake-agents/scriptedAgent.mjs');
const HOSTILE = { id: 'hostile', name: 'Hostile Agent', command: process.execPath, args: [SCRIPTED_AGENT] };

/** @type {Awaited<ReturnType<typeof launchWorkbench>> | undefined} */
let workbench;

/** Picks the hostile agent in New Session. */
const newHostileSession = (page) => newSessionWith(page, 'Hostile Agent');

/**
 * Starts a session with the hostile agent and closes its chat, so its permission questions come as
 * notifications. (Let the chat finish loading first: a webview still loading takes the focus from the palette.)
 */
async function hostileSessionWithoutChat(files) {
  workbench = await launchWorkbench({ files, settings: { 'subchats.agents': [HOSTILE] } });
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  await newHostileSession(page);
  await chatFrame(page).locator('textarea').waitFor({ timeout: SLOW_MS });
  await runCommand(page, 'View: Close All Editors');
  return page;
}

/** Sends the scripted agent its script as a prompt from the palette (with no delegation preference). */
async function sendScript(page, script) {
  await runCommand(page, 'Subchats: Send Prompt');
  await pickQuickItem(page, 'Session 1');
  await page.locator('.quick-input-widget', { hasText: 'Prompt for' }).waitFor({ timeout: SLOW_MS });
  const input = page.locator('.quick-input-widget input');
  await input.fill(JSON.stringify(script));
  await input.press('Enter');
  // The scripted agent advertises delegation, so the prompt asks how to delegate first.
  await pickQuickItem(page, 'Do not delegate');
}

afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-security-${t.name}`);
  await workbench?.close();
  workbench = undefined;
});

test('a hostile permission title and option names show as text in the notification: no link, nothing runs', { timeout: TEST_TIMEOUT_MS }, async () => {
  // With no chat showing the session, the permission is asked in a notification.
  const page = await hostileSessionWithoutChat({ 'README.md': '# hostile\n' });
  const editorsBefore = await page.locator('.editor-group-container .tab').count();

  const link = '[Allow and continue](command:workbench.action.files.newUntitledFile)';
  const script = [{
    request: 'session/request_permission',
    params: {
      sessionId: 'sess-1',
      toolCall: { toolCallId: 'evil', title: `${link} [open](command:vscode.open?["file:///etc/hostname"])` },
      options: [{ optionId: 'allow', name: '[Yes](command:workbench.action.files.newUntitledFile)', kind: 'allow_once' }, { optionId: 'deny', name: 'No', kind: 'reject_once' }],
    },
  }];
  await sendScript(page, script);

  const toast = notificationToast(page, 'asks permission');
  await toast.waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-security-hostile-permission-notification');
  const message = toast.locator('.notification-list-item-message');
  assert.equal(await message.locator('a').count(), 0, 'the agent\'s title made no link in the notification');
  assert.match(await message.innerText(), /\[Allow and continue\] \(command:workbench\.action\.files\.newUntitledFile\)/, 'shown as text');
  const buttons = await toast.locator('.monaco-button').allInnerTexts();
  assert.ok(buttons.some((b) => b.includes('[Yes] (command:')), `buttons are plain text: ${buttons.join(' | ')}`);

  // Clicking the message where a link would be runs nothing: no untitled editor opens. The workbench runs
  // commands in order, so once New Untitled Text File, run after the click, has opened its one editor, a
  // command the click had started would have opened another.
  await message.click();
  await runCommand(page, 'File: New Untitled Text File');
  await page.locator('.editor-group-container .tab').nth(editorsBefore).waitFor();
  assert.equal(await page.locator('.editor-group-container .tab').count(), editorsBefore + 1, 'the click ran no command');
  await runCommand(page, 'View: Revert and Close Editor');
  await toast.locator('.monaco-button', { hasText: 'No' }).click();
  await toast.waitFor({ state: 'detached', timeout: SLOW_MS });
});

// Issue 20 item 1: an allow covers what the prompt showed when the user clicked, not what the call says later.
test('a command hidden behind an allowed "List the files" still asks before it runs', { timeout: TEST_TIMEOUT_MS }, async () => {
  const page = await hostileSessionWithoutChat({ 'README.md': '# approvals\n' });

  const update = (fields) => ({ notify: 'session/update', params: { sessionId: 'sess-1', update: { toolCallId: 'ls', ...fields } } });
  const script = [
    // The prompt shows "List the files"; `touch x` sits in raw input no prompt shows as the command.
    update({ sessionUpdate: 'tool_call', title: 'List the files', kind: 'execute', status: 'pending', rawInput: { script: 'touch x' } }),
    { request: 'session/request_permission', params: { sessionId: 'sess-1', toolCall: { toolCallId: 'ls' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'deny', name: 'Reject', kind: 'reject_once' }] } },
    // After the answer the call names the command (title and raw input), then the agent runs it.
    update({ sessionUpdate: 'tool_call_update', title: 'touch x', rawInput: { command: 'touch x' } }),
    { request: 'terminal/create', params: { sessionId: 'sess-1', command: 'sh', args: ['-c', 'touch x'] } },
  ];
  await sendScript(page, script);

  const toast = notificationToast(page, 'asks permission: List the files');
  await toast.waitFor({ timeout: SLOW_MS });
  assert.doesNotMatch(await toast.locator('.notification-list-item-message').innerText(), /command:/, 'no command was shown, so none is allowed');
  await toast.locator('.monaco-button', { hasText: 'Allow' }).click();

  // The terminal asks its own question, naming the command.
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'wants to run a command' });
  await dialog.waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-security-terminal-asks-after-other-allow');
  assert.match(await dialog.innerText(), /Command: "sh" "-c" "touch x"/);
  await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached', timeout: SLOW_MS });
  assert.equal(existsSync(join(workbench.workspace, 'x')), false, 'the command did not run');
});

test('in an untrusted workspace (restricted mode) no command starts an agent; New Session says why', { timeout: TEST_TIMEOUT_MS }, async () => {
  // The agent would write every line it reads here: the file must never appear.
  const spawned = join(makeTempDir('untrusted'), 'agent-started.log');
  workbench = await launchWorkbench({
    files: { 'README.md': '# untrusted\n' },
    workspaceTrust: true,
    settings: {
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
      'security.workspace.trust.emptyWindow': false,
      'subchats.agents': [{ ...HOSTILE, env: { FAKE_AGENT_LOG: spawned } }],
      'subchats.defaultAgent': 'hostile',
    },
  });
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  // New Session says why before it asks for an agent: none may start here.
  await runCommand(page, 'Subchats: New Session');
  const refusal = notificationToast(page, 'does not start agents in an untrusted workspace');
  await refusal.waitFor({ timeout: SLOW_MS });
  assert.equal(await page.locator('.quick-input-widget .quick-input-list .label-name', { hasText: /^Hostile Agent$/ }).count(), 0, 'no agent picker opened');
  assert.equal(await refusal.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).count(), 1, 'the refusal offers to manage trust');
  await screenshot(page, 'e2e-security-untrusted-new-session');
  // The other ways in have nothing to reach: no connection exists, and none is started for them.
  for (const command of ['Subchats: Send Prompt', 'Subchats: Browse Agent Sessions', 'Subchats: Restart Agent', 'Subchats: Reconnect Session']) {
    await runCommand(page, command);
    await page.keyboard.press('Escape');
  }
  // The extension host runs commands in order: once New Session, run last, has said why again, the others are done.
  // Its answer is looked for in the notification center: the others' answers ("no agent connection fits") can
  // reach the workbench in one burst when the host lags, and VS Code then shows no toast for the fourth within
  // 800 ms (its spam protection), while the center lists every notification.
  await runCommand(page, 'Notifications: Clear All Notifications');
  await refusal.waitFor({ state: 'detached' });
  await runCommand(page, 'Subchats: New Session');
  await runCommand(page, 'Notifications: Show Notifications');
  await page.locator('.notifications-center .notification-list-item', { hasText: 'does not start agents in an untrusted workspace' }).waitFor({ timeout: SLOW_MS });
  assert.equal(await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'Hostile Agent' }).count(), 0, 'no agent connection appeared');
  assert.equal(existsSync(spawned), false, 'the agent process never started');
});

// Issue 20 item 6: a command's output reaches the mirrored VS Code terminal without the escapes that make it act.
test('a command that prints an OSC 8 command: link and an OSC 52 clipboard write shows plain text in the mirrored terminal', { timeout: TEST_TIMEOUT_MS }, async () => {
  // The DOM renderer puts the terminal's cells in the page, where a hyperlink shows as an underlined span.
  workbench = await launchWorkbench({
    files: {
      'README.md': '# escapes\n',
      'escapes.mjs': [
        "const link = (target, text) => `\\x1b]8;;${target}\\x1b\\\\${text}\\x1b]8;;\\x1b\\\\`;",
        "process.stdout.write(`${link('command:workbench.action.files.newUntitledFile', 'RunMeLink')} and ${link('vscode://file/etc/hostname', 'OpenMeLink')}\\r\\n`);",
        "process.stdout.write(`\\x1b]52;c;${Buffer.from('stolen').toString('base64')}\\x07clipboard line\\r\\n`);",
        "process.stdout.write('\\x1b[32mgreen text\\x1b[0m end of output\\r\\n');",
      ].join('\n'),
    },
    settings: { 'subchats.agents': [HOSTILE], 'terminal.integrated.gpuAcceleration': 'off' },
  });
  const { page } = workbench;
  await openActivity(page, 'Subchats');
  await newHostileSession(page);
  await chatFrame(page).locator('textarea').waitFor({ timeout: SLOW_MS });
  await runCommand(page, 'View: Close All Editors');
  await sendScript(page, [{ request: 'terminal/create', params: { sessionId: 'sess-1', command: process.execPath, args: ['escapes.mjs'] } }]);
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'wants to run a command' });
  await dialog.waitFor({ timeout: SLOW_MS });
  await dialog.locator('.monaco-button', { hasText: 'Allow Once' }).click();
  // The turn ends once the command started, so its mirrored terminal exists (the command may be done already).
  await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'terminal/create' }).locator('.codicon-pass').waitFor({ timeout: SLOW_MS });

  await runCommand(page, 'Terminal: Focus Terminal');
  const rows = page.locator('.terminal-wrapper.active .xterm-rows');
  await rows.getByText('end of output', { exact: false }).waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-security-terminal-escapes');
  const text = await rows.innerText();
  for (const shown of ['RunMeLink and OpenMeLink', 'clipboard line', 'green text end of output']) assert.match(text, new RegExp(shown), `"${shown}" is shown`);
  // The visible words of a link stay; the link does not (xterm underlines a hyperlink's cells).
  for (const word of ['RunMeLink', 'OpenMeLink']) {
    const underlined = await rows.locator('span', { hasText: word }).evaluateAll((spans) => spans.filter((s) => /xterm-underline/.test(s.className)).length);
    assert.equal(underlined, 0, `${word} is not a link`);
  }
  // Colours (SGR) pass: the green words keep their colour class.
  assert.ok(await rows.locator('span[class*="xterm-fg-"]', { hasText: 'green text' }).count() > 0, 'colours pass');
  assert.doesNotMatch(text, /stolen|c2tvbGVu|\]52|\]8;/, 'no escape text leaks either');
});
