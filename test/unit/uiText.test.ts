// Agent text on its way into VS Code UI (notifications, tooltips, quick picks, input boxes, terminal names):
// every hostile input below must come out as plain text, never as a link, an icon, markup or reordered text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inertUiText, markdownText, mirroredTerminalName, toastError } from '../../src/host/uiText';
import { permissionNotice } from '../../src/host/permissionNotice';
import { visibleBidi } from '../../src/presentation';
import { sessionTreeItem } from '../../src/views/sessionTreeModel';
import { runtimeTreeItem } from '../../src/views/runtimeTreeModel';
import { announce, Wire } from './support/storeFixtures';

/** Links, icons, markup, images, entities, autolinks, control and bidi characters an agent may send. */
export const HOSTILE_UI_TEXT = [
  '[Allow and continue](command:workbench.action.files.newUntitledFile)',
  '[open](command:vscode.open?["file:///etc/hostname"])',
  '[x] (command:a) and [y]\n(command:b)',
  '[x](file:///etc/passwd "t")',
  '[x](https://evil.example/)',
  '![img](https://evil.example/track.png)',
  '<a href="command:workbench.action.terminal.new">click</a>',
  '<img src=x onerror=alert(1)>',
  '&#91;x&#93;&#40;command:a&#41;',
  '<command:workbench.action.quit>',
  'https://evil.example/ www.evil.example',
  '$(alert) $(loading~spin) warning',
  '**bold** _it_ `code` # heading',
  'txt\u202eexe.js',
  '\u2066isolated\u2069 \u202aembedded\u202c \u202bx\u202c \u202dy\u202c \u2067z\u2069 \u2068w\u2069',
  'bell\u0007 osc\u001b]52;c;ZXZpbA==\u0007 csi\u001b[2J nul\u0000 c1\u009b',
];

function assertPlain(shown: string, context: string) {
  assert.doesNotMatch(shown, /\]\(/, `${context}: no [label](target)`);
  assert.doesNotMatch(shown, /\$\(/, `${context}: no $(icon)`);
  assert.doesNotMatch(shown, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${context}: no control characters`);
  assert.doesNotMatch(shown, /[\u202a-\u202e\u2066-\u2069]/, `${context}: no bidi controls`);
}

/** What a markdown renderer makes a link, image, HTML or entity from, in text that must stay literal. */
function assertInertMarkdown(markdown: string, context: string) {
  assertPlain(markdown.replace(/\\\]\\\(/g, ''), context);
  // Every punctuation an agent sent is backslash-escaped: no unescaped [ ] ( ) < > ! & : $ ` * _ remain.
  for (const match of markdown.matchAll(/(?<!\\)[[\]()<>!&$`*_]/g)) {
    assert.fail(`${context}: unescaped ${JSON.stringify(match[0])} at ${match.index} in ${JSON.stringify(markdown)}`);
  }
}

test('inertUiText: no link, icon, control or bidi character gets through, and the words stay readable', () => {
  for (const hostile of HOSTILE_UI_TEXT) assertPlain(inertUiText(hostile, 10_000), hostile);
  assert.match(inertUiText(HOSTILE_UI_TEXT[0]!), /Allow and continue/);
  assert.equal(inertUiText('txt\u202eexe.js'), 'txt⟪U+202E⟫exe.js', 'a bidi override is shown, not obeyed');
});

test('visibleBidi marks each embedding, override and isolate control (U+202A–202E, U+2066–2069)', () => {
  const all = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
  assert.equal(visibleBidi(`a${all}b`), 'a⟪U+202A⟫⟪U+202B⟫⟪U+202C⟫⟪U+202D⟫⟪U+202E⟫⟪U+2066⟫⟪U+2067⟫⟪U+2068⟫⟪U+2069⟫b');
  assert.equal(visibleBidi('plain مرحبا'), 'plain مرحبا', 'right-to-left letters themselves are left alone');
});

test('markdownText: literal in a MarkdownString (tooltips): no link, image, HTML, entity or autolink', () => {
  for (const hostile of HOSTILE_UI_TEXT) assertInertMarkdown(markdownText(hostile), hostile);
});

test('the permission notification names the tool call as plain text; its buttons are plain too', () => {
  const w = new Wire().newSession('S');
  w.update('S', { sessionUpdate: 'session_info_update', title: '[Session](command:workbench.action.quit)' });
  for (const hostile of HOSTILE_UI_TEXT) {
    const request = { sessionId: 'S', toolCall: { toolCallId: 't', title: hostile }, options: [{ optionId: 'a', name: `${hostile} allow`, kind: 'allow_once' }] };
    const notice = permissionNotice(w.store, request as never, w.agentRequest('session/request_permission', request));
    assertPlain(notice.message, `message for ${hostile}`);
    for (const button of notice.buttons) assertPlain(button, `button for ${hostile}`);
  }
  const child = new Wire().newSession('P');
  child.update('P', announce('C', { title: '$(zap)[Child](command:x)', state: { state: 'running' } }));
  const childRequest = { sessionId: 'C', toolCall: { toolCallId: 't', title: 'Edit' }, options: [] };
  const notice = permissionNotice(child.store, childRequest as never, child.agentRequest('session/request_permission', childRequest));
  assertPlain(notice.message, 'child label');
  assert.match(notice.message, /^Subagent ".*asks permission: Edit$/);
});

test('the permission notification reads an ACP v2 request (title, subject) through the store', () => {
  const w = new Wire();
  w.store.ingest({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 2 } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 2, capabilities: {} } }, 'agent->client');
  w.newSession('S');
  w.update('S', { sessionUpdate: 'session_info_update', title: 'Root' });
  const request = { sessionId: 'S', title: 'Write review.md', subject: { type: 'tool_call', toolCall: { toolCallId: 't' } }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] };
  const id = w.agentRequest('session/request_permission', request);
  const notice = permissionNotice(w.store, request as never, id);
  assert.equal(notice.message, '"Root" asks permission: Write review.md');
  assert.deepEqual(notice.buttons, ['Allow']);
  assert.equal(notice.optionFor('Allow'), 'a');
});

test('the permission notification shows the command the tool call holds, as plain text', () => {
  const w = new Wire().newSession('S');
  w.update('S', { sessionUpdate: 'session_info_update', title: 'Root' });
  w.update('S', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'List the files', kind: 'execute', rawInput: { command: 'touch x' } });
  const request = { sessionId: 'S', toolCall: { toolCallId: 't' }, options: [] };
  assert.equal(permissionNotice(w.store, request as never, w.agentRequest('session/request_permission', request)).message, '"Root" asks permission: List the files — command: touch x');
  for (const hostile of HOSTILE_UI_TEXT) {
    w.update('S', { sessionUpdate: 'tool_call', toolCallId: 'h', title: 'Run', kind: 'execute', rawInput: { command: ['sh', '-c', hostile] } });
    const asked = { sessionId: 'S', toolCall: { toolCallId: 'h' }, options: [] };
    const notice = permissionNotice(w.store, asked as never, w.agentRequest('session/request_permission', asked));
    assert.match(notice.message, /^"Root" asks permission: Run — command: sh -c /);
    assertPlain(notice.message, `command ${hostile}`);
  }
});

test('two buttons with the same shown text still answer their own option', () => {
  const w = new Wire().newSession('S');
  const request = { sessionId: 'S', toolCall: { toolCallId: 't', title: 'x' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }, { optionId: 'b', name: 'Allow', kind: 'allow_always' }] };
  const notice = permissionNotice(w.store, request as never, w.agentRequest('session/request_permission', request));
  assert.equal(new Set(notice.buttons).size, 2);
  assert.deepEqual(notice.buttons.map((b) => notice.optionFor(b)), ['a', 'b']);
  assert.equal(notice.optionFor(undefined), undefined);
});

test('error toasts carry the agent\'s JSON-RPC error message as plain text', () => {
  for (const hostile of HOSTILE_UI_TEXT) {
    assertPlain(toastError(Object.assign(new Error(hostile), { code: -32603 })), hostile);
    assertPlain(toastError(hostile), hostile);
  }
});

test('a mirrored terminal\'s name is plain text', () => {
  for (const hostile of HOSTILE_UI_TEXT) assertPlain(mirroredTerminalName('Agent', hostile), hostile);
});

test('tree tooltips and labels: every agent string is literal markdown, and the tooltip is a plain label', () => {
  for (const hostile of HOSTILE_UI_TEXT) {
    const w = new Wire().newSession('R');
    w.prompt('R', 'go');
    w.update('R', announce('A', { title: hostile, description: `${hostile} role`, subagentType: hostile, state: { state: 'failed', error: { message: hostile } } }));
    const session = w.session('A');
    const item = sessionTreeItem(session, { agentName: hostile, connectionId: 'c1', actions: w.store.actionsFor('A'), now: 0, live: true, reconnectable: false, ancestry: [hostile] });
    assertPlain(item.label, `label for ${hostile}`);
    for (const line of item.tooltip.split('  \n')) {
      // What is left once our own markup (bold, italics, code spans, "Field: ") is taken off is agent text.
      const value = line.replace(/^\*\*|\*\*$/g, '').replace(/^_|_$/g, '').replace(/(`+) .*? \1/g, '').replace(/^[A-Z][a-z ]+: /, '');
      if (value) assertInertMarkdown(value, `tooltip line ${JSON.stringify(line)}`);
    }
  }
});

test('connection tooltips: the agent\'s error and name are literal markdown', () => {
  for (const hostile of HOSTILE_UI_TEXT) {
    const w = new Wire().newSession('R');
    const item = runtimeTreeItem({ id: 'c1', agent: { id: 'a', name: hostile, command: 'x' }, status: 'failed', error: hostile, startedAt: 0, cwd: '/w', store: w.store } as never, 0);
    assertPlain(item.label, 'runtime label');
    const errorLine = item.tooltip.split('  \n').find((line) => line.startsWith('\n'))!.slice(1);
    assertInertMarkdown(errorLine, 'runtime error');
  }
});
