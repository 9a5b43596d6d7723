// The protocol's guard tables: what a webview may post, what a webview accepts from the host, and how a
// message of another protocol version comes through (stripped to its version).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostToWebviewGuards, parseHostMessage, parseWebviewMessage, webviewToHostGuards, type GuardTable } from '../../src/protocol/messageGuards';
import { WEBVIEW_PROTOCOL_VERSION } from '../../src/protocol/webviewMessages';

test('webview messages: valid ones pass as typed copies, anything else is refused', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready', protocolVersion: 2, extra: 'x' }), { type: 'ready', protocolVersion: 2 });
  assert.deepEqual(parseWebviewMessage({ type: 'prompt', sessionId: 's', text: 'hi' }), { type: 'prompt', sessionId: 's', text: 'hi' });
  assert.deepEqual(parseWebviewMessage({ type: 'openFile', path: '/a', line: -1 }), { type: 'openFile', path: '/a' });
  assert.deepEqual(parseWebviewMessage({ type: 'openChanges', sessionId: 's', scope: 'tree', extra: 1 }), { type: 'openChanges', sessionId: 's', scope: 'tree' });
  assert.deepEqual(parseWebviewMessage({ type: 'changeSetting', sessionId: 's', change: { kind: 'mode', modeId: 'plan', x: 1 } }), { type: 'changeSetting', sessionId: 's', change: { kind: 'mode', modeId: 'plan' } });
  assert.deepEqual(parseWebviewMessage({ type: 'changeSetting', sessionId: 's', change: { kind: 'option', configId: 'thoughts', value: false } }), {
    type: 'changeSetting',
    sessionId: 's',
    change: { kind: 'option', configId: 'thoughts', value: false },
  });
  for (const change of [null, { kind: 'mode' }, { kind: 'option', configId: 'm', value: 3 }, { kind: 'other', modeId: 'x' }]) {
    assert.equal(parseWebviewMessage({ type: 'changeSetting', sessionId: 's', change }), undefined, JSON.stringify(change));
  }
  assert.deepEqual(parseWebviewMessage({ type: 'answerPermission', sessionId: 's', requestId: '1', optionId: null }), {
    type: 'answerPermission',
    sessionId: 's',
    requestId: '1',
    optionId: null,
  });
  assert.deepEqual(parseWebviewMessage({ type: 'cancelToolCall', sessionId: 's', toolCallId: 't', x: 1 }), { type: 'cancelToolCall', sessionId: 's', toolCallId: 't' });
  assert.equal(parseWebviewMessage({ type: 'cancelToolCall', sessionId: 's' }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'resync' }), { type: 'resync', knownRev: -1, reason: 'unknown' });
  assert.deepEqual(parseWebviewMessage({ type: 'openSubagentSession', sessionId: 's', extra: 1 }), { type: 'openSubagentSession', sessionId: 's' });
  assert.equal(parseWebviewMessage({ type: 'openSubagentSession', sessionId: 5 }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'retry', sessionId: 's', entryId: 'm1', x: 1 }), { type: 'retry', sessionId: 's', entryId: 'm1' });
  assert.equal(parseWebviewMessage({ type: 'retry', sessionId: 's' }), undefined);
  const edit = { type: 'prompt', sessionId: 's', text: 'hi', resendOf: { sessionId: 's', entryId: 'm1', x: 1 } };
  assert.deepEqual(parseWebviewMessage(edit), { type: 'prompt', sessionId: 's', text: 'hi', resendOf: { sessionId: 's', entryId: 'm1' } });
  assert.equal(parseWebviewMessage({ ...edit, resendOf: { sessionId: 's' } }), undefined, 'a malformed resendOf refuses the message');
  for (const bad of [null, 'ready', [], {}, { type: 'prompt', sessionId: '', text: 'x' }, { type: 'openChat', sessionId: 's', where: 'window' }, { type: 'openChanges', sessionId: 's', scope: 'all' }, { type: 'ready' }]) {
    assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  }
  for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) assert.equal(parseWebviewMessage({ type }), undefined, type);
});

test('host messages: focusPrompt of this version only', () => {
  assert.deepEqual(parseHostMessage({ type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION, x: 1 }), { type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION });
  assert.equal(parseHostMessage({ type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION - 1 }), undefined);
});

test('host messages: a request outcome names an answered request and a session; target and reason are optional strings', () => {
  const refused = { type: 'requestOutcome', request: 'cancelToolCall', sessionId: 's', target: 't', refused: 'The turn ended.' };
  assert.deepEqual(parseHostMessage({ ...refused, extra: 1 }), refused);
  assert.deepEqual(parseHostMessage({ type: 'requestOutcome', request: 'cancel', sessionId: 's' }), { type: 'requestOutcome', request: 'cancel', sessionId: 's' });
  assert.equal(parseHostMessage({ ...refused, request: 'copy' }), undefined, 'copy is never answered');
  assert.equal(parseHostMessage({ ...refused, sessionId: '' }), undefined);
  assert.equal(parseHostMessage({ ...refused, target: 3 }), undefined);
  assert.equal(parseHostMessage({ ...refused, refused: 'x'.repeat(5_000) }), undefined);
});

test('host messages: token colours carry only colours and font-style words, by scope-like names (they become CSS)', () => {
  const tokens = { keyword: { color: '#569cd6' }, 'title.function': { color: '#DCDCAA', fontStyle: 'italic bold' }, punctuation: { color: null } };
  assert.deepEqual(parseHostMessage({ type: 'tokenColors', tokens, extra: 1 }), { type: 'tokenColors', tokens });
  assert.deepEqual(parseHostMessage({ type: 'tokenColors', tokens: null }), { type: 'tokenColors', tokens: null });
  for (const bad of [
    { keyword: { color: 'red' } },
    { keyword: { color: '#569cd6; background: url(x)' } },
    { keyword: { color: '#569cd6', fontStyle: 'italic; color: red' } },
    { keyword: {} },
    { 'a b': { color: '#fff' } },
    JSON.parse('{"__proto__": {"color": "#fff"}}') as unknown,
    Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${String.fromCharCode(97 + (i % 26))}${'x'.repeat(Math.floor(i / 26))}`, { color: '#fff' }])),
    'keyword',
  ]) {
    assert.equal(parseHostMessage({ type: 'tokenColors', tokens: bad }), undefined, JSON.stringify(bad));
  }
});

test('host messages: snapshots and deltas of this version are checked for the parts the webview indexes by', () => {
  const snapshot = { type: 'snapshot', protocolVersion: WEBVIEW_PROTOCOL_VERSION, rootSessionId: 'r', rev: 3, sessions: [], ancestors: [], terminals: [] };
  assert.equal(parseHostMessage(snapshot), snapshot);
  assert.equal(parseHostMessage({ ...snapshot, sessions: [{ header: {} }] }), undefined);
  assert.equal(parseHostMessage({ ...snapshot, rev: '3' }), undefined);
  const workspace = { folders: [{ name: 'repo', path: '/repo' }], home: '/home/ann' };
  assert.deepEqual(parseHostMessage({ ...snapshot, workspace }), { ...snapshot, workspace });
  assert.equal(parseHostMessage({ ...snapshot, workspace: { folders: [{ name: 'repo' }] } }), undefined, 'a folder without its path');
  assert.equal(parseHostMessage({ ...snapshot, workspace: { folders: [], home: 1 } }), undefined);
  const delta = { type: 'delta', protocolVersion: WEBVIEW_PROTOCOL_VERSION, fromRev: 3, toRev: 4, sessions: [{ sessionId: 'r', entries: [] }] };
  assert.equal(parseHostMessage(delta), delta);
  assert.equal(parseHostMessage({ ...delta, sessions: [{ sessionId: 'r', entries: 'x' }] }), undefined);
  assert.equal(parseHostMessage({ type: 'constructor' }), undefined);
  const appends = { ...delta, sessions: [{ sessionId: 'r', appends: [{ index: 0, entryId: 'm', rev: 5, offset: 3, suffix: 'abc' }], toolCallAppends: [{ toolCallId: 't', contentIndex: 0, offset: 0, suffix: 'x' }] }], terminalAppends: [{ terminalId: 'term', offset: 2, suffix: 'y' }] };
  assert.equal(parseHostMessage(appends), appends);
  for (const bad of [
    { ...delta, sessions: [{ sessionId: 'r', appends: [{ index: 0, entryId: 'm', rev: 5, offset: -1, suffix: 'abc' }] }] },
    { ...delta, sessions: [{ sessionId: 'r', appends: [{ index: 0, offset: 0, suffix: 'abc' }] }] },
    { ...delta, sessions: [{ sessionId: 'r', toolCallAppends: [{ toolCallId: 't', contentIndex: 0, offset: 0, suffix: 5 }] }] },
    { ...delta, sessions: [{ sessionId: 'r', header: { id: 'other' } }] },
    { ...delta, terminalAppends: [{ offset: 0, suffix: 'y' }] },
  ]) {
    assert.equal(parseHostMessage(bad), undefined, JSON.stringify(bad));
  }
});

test('acks carry a revision', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ack', rev: 12, extra: 1 }), { type: 'ack', rev: 12 });
  assert.equal(parseWebviewMessage({ type: 'ack', rev: '12' }), undefined);
  assert.equal(parseWebviewMessage({ type: 'ack' }), undefined);
});

test('host messages of another protocol version keep only their version, so the webview can say so', () => {
  assert.deepEqual(parseHostMessage({ type: 'snapshot', protocolVersion: 1, rootSessionId: 'r', rev: 9, sessions: 'old shape' }), {
    type: 'snapshot',
    protocolVersion: 1,
    rootSessionId: 'r',
    rev: 9,
    sessions: [],
    ancestors: [],
    terminals: [],
  });
  assert.deepEqual(parseHostMessage({ type: 'delta', fromRev: 1, toRev: 2, sessions: [] }), { type: 'delta', protocolVersion: -1, fromRev: 0, toRev: 0, sessions: [] });
});

test('a code block action carries its code; only Apply names a file, and it must', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'codeBlock', action: 'insert', code: 'x', path: 'ignored.ts' }), { type: 'codeBlock', action: 'insert', code: 'x' });
  assert.deepEqual(parseWebviewMessage({ type: 'codeBlock', action: 'apply', code: 'x', path: 'src/a.ts' }), { type: 'codeBlock', action: 'apply', code: 'x', path: 'src/a.ts' });
  assert.equal(parseWebviewMessage({ type: 'codeBlock', action: 'apply', code: 'x' }), undefined, 'Apply without a file');
  assert.equal(parseWebviewMessage({ type: 'codeBlock', action: 'run', code: 'x' }), undefined, 'no such action');
  assert.equal(parseWebviewMessage({ type: 'codeBlock', action: 'terminal', code: 7 }), undefined, 'code that is not text');
});

test('every message type has exactly one guard', () => {
  assert.deepEqual(Object.keys(webviewToHostGuards).sort(), ['ack', 'answerPermission', 'cancel', 'cancelTerminal', 'cancelToolCall', 'changeSetting', 'codeBlock', 'copy', 'copyMessage', 'loadEarlier', 'openChanges', 'openChat', 'openDiff', 'openFile', 'openLink', 'openSubagentSession', 'pageLoadFailed', 'prompt', 'ready', 'resync', 'retry', 'searchFiles', 'unqueue']);
  assert.deepEqual(Object.keys(hostToWebviewGuards).sort(), ['addAttachment', 'delta', 'earlierText', 'fileSearchResults', 'focusPrompt', 'requestOutcome', 'snapshot', 'tokenColors']);
});

test('earlier text: a request names a message and where its text starts; a page must end there, or say why not', () => {
  const ask = { type: 'loadEarlier', sessionId: 's', entryId: 'msg:1', end: 1200 };
  assert.deepEqual(parseWebviewMessage({ ...ask, extra: 1 }), ask);
  for (const end of [-1, 1.5, '12', undefined]) assert.equal(parseWebviewMessage({ ...ask, end }), undefined, `end ${String(end)}`);
  assert.deepEqual(parseWebviewMessage({ type: 'copyMessage', sessionId: 's', entryId: 'msg:1' }), { type: 'copyMessage', sessionId: 's', entryId: 'msg:1' });
  assert.equal(parseWebviewMessage({ type: 'copyMessage', sessionId: 's' }), undefined);
  const page = { type: 'earlierText', sessionId: 's', entryId: 'msg:1', end: 1200, page: { start: 1195, text: 'hello', bytesBefore: 1195 } };
  assert.deepEqual(parseHostMessage({ ...page, extra: 1 }), page);
  assert.equal(parseHostMessage({ ...page, page: { ...page.page, start: 1000 } }), undefined, 'a page that does not end where the text starts');
  assert.equal(parseHostMessage({ ...page, page: { ...page.page, bytesBefore: -1 } }), undefined);
  const problem = { type: 'earlierText', sessionId: 's', entryId: 'msg:1', end: 1200, problem: 'could not read it' };
  assert.deepEqual(parseHostMessage(problem), problem);
  assert.equal(parseHostMessage({ ...problem, problem: 'x'.repeat(5000) }), undefined);
});

test('a message type without a guard does not compile', () => {
  type Messages = { readonly type: 'a' } | { readonly type: 'b'; readonly n: number };
  // @ts-expect-error 'b' has no guard
  const missing: GuardTable<Messages> = { a: () => ({ type: 'a' }) };
  // @ts-expect-error a guard must return its own message type
  const wrong: GuardTable<Messages> = { a: () => ({ type: 'a' }), b: () => ({ type: 'a' }) };
  assert.ok(missing && wrong);
});

test("webview messages: the load guard's pageLoadFailed names a file, nothing else passes", () => {
  assert.deepEqual(parseWebviewMessage({ type: 'pageLoadFailed', asset: 'webview.js', extra: 1 }), { type: 'pageLoadFailed', asset: 'webview.js' });
  assert.equal(parseWebviewMessage({ type: 'pageLoadFailed' }), undefined);
  assert.equal(parseWebviewMessage({ type: 'pageLoadFailed', asset: 'x'.repeat(101) }), undefined);
});
