// `subchats replay`: both wrapper variants and bare lines, text and --json output, bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runReplay } from '../../src/cli/replayCommand';
import { FIXTURES } from './support/storeFixtures';

function run(args: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runReplay(args, (t) => (out += t + '\n'), (t) => (err += t + '\n'));
  return { code, out, err };
}

test('--json prints the documented shape for both wrapper variants', () => {
  for (const name of ['claude2-single.jsonl', 'qwen-single.jsonl']) {
    const { code, out } = run([join(FIXTURES, 'traces', name), '--json']);
    assert.equal(code, 0);
    const parsed = JSON.parse(out) as { sessions: Record<string, unknown>[]; diagnostics: unknown[] };
    assert.ok(parsed.sessions.length >= 2, `${name}: parent and child`);
    for (const session of parsed.sessions) {
      for (const key of ['id', 'parentId', 'parentToolCallId', 'link', 'title', 'state', 'stopReason', 'canCancel', 'toolCalls', 'text']) {
        assert.ok(key in session, `${name}: ${key}`);
      }
      for (const call of session['toolCalls'] as Record<string, unknown>[]) assert.deepEqual(Object.keys(call).sort(), ['id', 'kind', 'status', 'title']);
    }
    assert.ok(Array.isArray(parsed.diagnostics));
  }
});

test('bare JSON-RPC lines work and responses find their request direction', () => {
  const { code, out } = run([join(FIXTURES, 'dialects', 'acp-rfd-subagent-update.jsonl'), '--json']);
  assert.equal(code, 0);
  const parsed = JSON.parse(out) as { sessions: { parentId: string | null }[] };
  assert.equal(parsed.sessions.filter((s) => s.parentId !== null).length, 1);
});

test('text mode prints an indented tree, then diagnostics with line numbers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-replay-'));
  const file = join(dir, 't.jsonl');
  writeFileSync(
    file,
    [
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'P', update: { sessionUpdate: 'subagent_update', sessionId: 'C', title: 'Kid', state: { state: 'running' } } } }),
      'garbage',
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'C', update: { sessionUpdate: 'subagent_update', sessionId: 'G', title: 'Grandkid' } } }),
    ].join('\n'),
  );
  const { code, out } = run([file]);
  assert.equal(code, 0);
  assert.match(out, /^Session 1 \[unconfirmed\]/m, 'a session without a title is named, never shown by its id');
  assert.match(out, /^  id: P$/m);
  assert.match(out, /^  └─ Kid \[running\].*via subagent_update/m);
  assert.match(out, /^    └─ Grandkid \[unconfirmed\]/m);
  assert.match(out, /line 2: \[malformed-line\]/);
});

test('usage and unreadable files fail with a message', () => {
  assert.equal(run([]).code, 2);
  const missing = run(['/nonexistent/file.jsonl']);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /cannot read/);
});

test('text output carries no escape sequence or bidi control from the agent (OSC 52, OSC 0, CSI 2J, C1, U+202E)', async () => {
  const { Wire } = await import('./support/storeFixtures');
  const { formatReplayText, toReplaySnapshot } = await import('../../src/store/replayReport');
  const hostile = [
    '\u001b]52;c;ZXZpbA==\u0007clipboard',
    '\u001b]0;owned\u0007title',
    '\u001b[2J\u001b[Hclear',
    '\u009b31mC1 CSI',
    'bell\u0007 nul\u0000 del\u007f',
    'txt\u202eexe.js',
    'two\nlines\r\nfake: line 1: [ok]',
  ];
  const w = new Wire().newSession('S');
  hostile.forEach((title, i) => w.update('S', { sessionUpdate: 'subagent_update', sessionId: `C${i}\u001b]0;id\u0007`, title, state: { state: 'running' } }));
  w.agentRequest('x/\u001b]52;c;bWV0aG9k\u0007', {});
  const text = formatReplayText(toReplaySnapshot(w.store));
  assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, 'no control character but the line breaks');
  assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069]/);
  assert.match(text, /txt⟪U\+202E⟫exe\.js/);
  const lines = text.split('\n');
  assert.ok(!lines.some((line) => line.startsWith('fake:') || line.startsWith('lines')), 'agent text cannot start a line of its own');
  assert.ok(hostile.length === 7 && lines.length > hostile.length);
});

test('a v2 transcript prints the same tree as the v1 transcript of the same scenario (ids aside)', () => {
  const tree = (folder: string, name: string) => {
    const { code, out } = run([join(FIXTURES, folder, name)]);
    assert.equal(code, 0);
    // Ids, and the text lengths that quote them, differ between recordings; names, nesting, states and tool counts do not.
    return out
      .split('\n')
      .filter((line) => !line.trim().startsWith('id:'))
      .map((line) => line.replace(/, \d+ chars/, ''));
  };
  const v2 = tree('traces', 'claude2-v2-cancel-child.jsonl');
  assert.deepEqual(v2, tree('traces', 'claude2-cancel-child.jsonl'));
  assert.ok(v2.some((line) => line.includes('Hanging subagent X [idle/cancelled]')));
});
