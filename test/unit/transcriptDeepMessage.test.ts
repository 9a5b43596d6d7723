// A message nested deeper than JSON.stringify's stack (issue 20, item 7): every recorder keeps it, replay reads
// it back, and what cannot be JSON at all is recorded as an "unrecordable" line with its size. Nothing throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTranscript, formatProtocolLogLine, formatTranscriptLine, MemoryTranscript } from '../../src/acp/transcriptRecorder';
import { wireJson } from '../../src/acp/wireJson';
import { rotateTranscript } from '../../src/acp/transcriptRotation';
import { SessionHistory } from '../../src/history/sessionHistory';
import { SessionStore } from '../../src/store/sessionStore';
import { replayText, toReplaySnapshot } from '../../src/store/replayReport';
import { SubchatsService } from '../../src/host/subchatsService';
import { buildSnapshot } from '../../src/webviews/chatProjection';
import { nested } from './support/nested';
import { fakeAgentConfig, RecordingHost, script } from '../fixtures/fake-agents/harness';

const DEPTH = 100_000;


function depthOf(value: unknown): number {
  let depth = 0;
  for (let v = value; typeof v === 'object' && v !== null; v = (v as { a: unknown }).a) depth++;
  return depth;
}

/** An agent message chunk whose `_meta` nests 100,000 levels (a 1.1 MB line on the wire). */
function deepChunk(): object {
  return { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'deep hello' } }, _meta: nested(DEPTH) } };
}

const session = [
  { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } },
  { jsonrpc: '2.0', id: 1, result: { sessionId: 'S' } },
];

test('a 100,000-level _meta is written in full: the same JSON as JSON.stringify, read back whole', () => {
  const message = deepChunk();
  assert.throws(() => JSON.stringify(message), RangeError); // why this test exists
  const line = formatTranscriptLine(message, 'agent->client', new Date('2026-01-02T03:04:05.000Z'));
  const parsed = JSON.parse(line) as { ts: string; dir: string; msg: { params: { _meta: unknown; update: unknown } } };
  assert.equal(parsed.ts, '2026-01-02T03:04:05.000Z');
  assert.equal(parsed.dir, 'agent->client');
  assert.equal(depthOf(parsed.msg.params._meta), DEPTH);
  assert.deepEqual(parsed.msg.params.update, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'deep hello' } });
  // The fallback writes what JSON.stringify writes, where JSON.stringify can.
  const shallow = { a: [1, 'two', null, true, undefined, () => 0, { b: undefined, c: NaN, d: -0, e: 'q"\n\u2028\ud800' }], f: new Date(0), g: Infinity };
  assert.equal(wireJson(shallow, { forceIterative: true }).text, JSON.stringify(shallow));
  assert.equal(wireJson(nested(50), { forceIterative: true }).text, JSON.stringify(nested(50)));
});

test('what cannot be JSON at all is an "unrecordable" line with its size; the recorders never throw', () => {
  const cyclic: Record<string, unknown> = { jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { text: 'x'.repeat(1_000) } };
  cyclic['self'] = cyclic;
  const line = JSON.parse(formatTranscriptLine(cyclic, 'client->agent')) as { dir: string; msg?: unknown; unrecordable: { reason: string; bytes: number; method?: string; id?: unknown } };
  assert.equal(line.msg, undefined);
  assert.equal(line.dir, 'client->agent');
  assert.match(line.unrecordable.reason, /circular/i);
  assert.ok(line.unrecordable.bytes >= 1_000, `size ${line.unrecordable.bytes}`);
  assert.equal(line.unrecordable.method, 'session/prompt');
  assert.equal(line.unrecordable.id, 7);
  const memory = new MemoryTranscript();
  memory.record(cyclic, 'client->agent');
  memory.record(deepChunk(), 'agent->client');
  assert.equal(memory.lines().length, 2);
  // A replay says a message is missing where the unrecordable line stands, and invents no message from it.
  const store = new SessionStore();
  replayText(store, memory.text());
  assert.deepEqual(store.diagnostics.map((d) => [d.code, d.line]), [['unrecorded-message', 1]]);
  assert.match(store.diagnostics[0]!.message, /client->agent.*circular.*at least 1,\d{3} bytes/i);
});

test('the history file keeps the deep message: it reloads, rotates and replays into the chat', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-deep-'));
  const history = new SessionHistory(dir, 10_000_000);
  const transcript = await history.startConnection({ id: 'c1', agentId: 'demo', agentName: 'Demo', startedAt: 1, cwd: '/w' });
  transcript.record(session[0]!, 'client->agent');
  transcript.record(session[1]!, 'agent->client');
  transcript.record(deepChunk(), 'agent->client');
  await transcript.close();
  const { connections } = await new SessionHistory(dir, 10_000_000).load();
  const text = connections[0]!.text;
  assert.equal(text.trim().split('\n').length, 3);
  const store = new SessionStore();
  replayText(store, text);
  assert.equal(toReplaySnapshot(store).sessions.find((s) => s.id === 'S')!.text, 'deep hello');
  assert.doesNotThrow(() => rotateTranscript(text, 1_000));
});

test('a file transcript records a deep message without throwing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-deep-'));
  const file = join(dir, 't.jsonl');
  const transcript = new FileTranscript(file);
  assert.doesNotThrow(() => transcript.record(deepChunk(), 'agent->client'));
  await transcript.close();
  assert.equal(depthOf((JSON.parse(readFileSync(file, 'utf8')) as { msg: { params: { _meta: unknown } } }).msg.params._meta), DEPTH);
});

test('through a live agent: the deep message reaches the memory transcript, the history file, the protocol log and the chat', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'subchats-deep-'));
  const protocolLines: string[] = [];
  const logs: string[] = [];
  const service = new SubchatsService({
    clientHost: () => new RecordingHost(),
    workspaceFolders: () => [workspace],
    history: new SessionHistory(join(workspace, 'history'), 10_000_000),
    protocolLog: (runtime, direction, message) => protocolLines.push(formatProtocolLogLine(runtime.agent.name, message, direction)),
    log: (text) => logs.push(text),
  });
  try {
    const runtime = await service.start(fakeAgentConfig('normal'), workspace);
    const sessionId = await service.newSession(runtime);
    const line = JSON.stringify({ ...deepChunk(), params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'deep hello' } }, _meta: '@' } }).replace('"@"', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`);
    await service.prompt(runtime.id, sessionId, script([{ raw: line }]));
    const recorded = (lines: readonly string[]) => lines.filter((l) => l.includes('deep hello') && l.includes('"a":{"a":')).length;
    assert.equal(recorded(runtime.transcript.lines()), 1);
    assert.equal(recorded(protocolLines), 1);
    assert.equal(toReplaySnapshot(runtime.store).sessions.find((s) => s.id === sessionId)!.text, 'deep hello');
    await runtime.persisted!.close();
    assert.equal(recorded(readFileSync(join(workspace, 'history', `${runtime.id}.jsonl`), 'utf8').split('\n')), 1);
    assert.deepEqual(logs.filter((l) => /failed|Maximum call stack/i.test(l)), []);
  } finally {
    service.dispose();
  }
});

test('the chat of a session whose messages and tool calls nest 100,000 deep can be sent to the webview', () => {
  const update = (u: object, extra: object = {}) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: u, ...extra } });
  const memory = new MemoryTranscript();
  for (const m of session) memory.record(m, m.method ? 'client->agent' : 'agent->client');
  memory.record(deepChunk(), 'agent->client');
  memory.record(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' and more', _meta: nested(DEPTH), annotations: nested(DEPTH) } }), 'agent->client');
  memory.record(update({ sessionUpdate: 'tool_call', toolCallId: 'deep', title: 'Deep call', status: 'in_progress', rawInput: nested(DEPTH), _meta: nested(DEPTH), content: [{ type: 'content', content: { type: 'text', text: 'out', _meta: nested(DEPTH) } }] }), 'agent->client');
  memory.record(update({ sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status: 'pending', _meta: nested(DEPTH) }] }), 'agent->client');
  const store = new SessionStore();
  replayText(store, memory.text());
  const snapshot = buildSnapshot(store, 'S');
  assert.doesNotThrow(() => JSON.stringify(snapshot), 'VS Code writes each post to the webview as JSON');
  const chat = snapshot.sessions[0]!;
  assert.equal(chat.toolCalls['deep']!.title, 'Deep call');
  assert.ok(chat.entries.some((e) => e.kind === 'message' && e.text === 'deep hello and more'));
});
