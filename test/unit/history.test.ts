// Session history on disk: write and reload, torn lines after a crash, corrupt metadata, size limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, appendFileSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHistory } from '../../src/history/sessionHistory';
import { SubchatsService } from '../../src/host/subchatsService';
import { SessionStore } from '../../src/store/sessionStore';
import { replayText } from '../../src/store/replayReport';

const meta = (id: string, startedAt = 1) => ({ id, agentId: 'demo', agentName: 'Demo', startedAt, cwd: '/w' });

test('a recorded connection reloads into the same tree', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-history-'));
  const history = new SessionHistory(dir, 1_000_000);
  const transcript = await history.startConnection(meta('c1'));
  transcript.record({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
  transcript.record({ jsonrpc: '2.0', id: 1, result: { sessionId: 'S' } }, 'agent->client');
  transcript.record({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'subagent_update', sessionId: 'C', title: 'Kid', state: { state: 'running' } } } }, 'agent->client');
  await transcript.close();
  const { connections, problems } = await new SessionHistory(dir, 1_000_000).load();
  assert.deepEqual(problems, []);
  assert.equal(connections.length, 1);
  assert.deepEqual(connections[0]!.meta, meta('c1'));
  const store = new SessionStore();
  replayText(store, connections[0]!.text);
  store.markDisconnected();
  assert.deepEqual(store.listSessions().map((s) => [s.id, s.state.state]), [['S', 'idle'], ['C', 'disconnected']]);
  assert.equal(store.getSession('C')!.state.lastKnown?.state, 'running');
});

test('a torn last line from a crash is dropped; corrupt metadata is reported and skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-history-'));
  const history = new SessionHistory(dir, 1_000_000);
  const transcript = await history.startConnection(meta('good'));
  transcript.record({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } } }, 'agent->client');
  await transcript.close();
  appendFileSync(join(dir, 'good.jsonl'), '{"ts":"2026-01-01T00:00:00Z","dir":"agent->cli');
  writeFileSync(join(dir, 'bad.meta.json'), '{ not json');
  writeFileSync(join(dir, 'bad.jsonl'), '');
  const { connections, problems } = await history.load();
  assert.equal(connections.length, 1);
  assert.ok(connections[0]!.text.endsWith('\n'));
  const store = new SessionStore();
  replayText(store, connections[0]!.text);
  assert.deepEqual(store.diagnostics, []);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /bad: unreadable metadata/);
});

test('the size limit drops the oldest connections first, never the current one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-history-'));
  const history = new SessionHistory(dir, 3000);
  for (const [id, age] of [['old', 3000], ['mid', 2000]] as const) {
    const t = await history.startConnection(meta(id));
    t.record({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(1200) } }, 'agent->client');
    await t.close();
    const when = new Date(Date.now() - age * 1000);
    for (const f of [`${id}.jsonl`, `${id}.meta.json`]) utimesSync(join(dir, f), when, when);
  }
  const current = await history.startConnection(meta('new'));
  current.record({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(1200) } }, 'agent->client');
  await current.close();
  const dropped = await history.prune(new Set(['new']));
  assert.deepEqual(dropped, ['old']);
  assert.deepEqual(readdirSync(dir).sort(), ['mid.jsonl', 'mid.meta.json', 'new.jsonl', 'new.meta.json']);
  await history.delete();
  assert.deepEqual(readdirSync(dir), []);
});

test('starting a connection never prunes the files of other live connections', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-history-'));
  const history = new SessionHistory(dir, 4000);
  for (const [id, age] of [['live-one', 3000], ['finished', 2000]] as const) {
    const t = await history.startConnection(meta(id), undefined, ['live-one']);
    t.record({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(2400) } }, 'agent->client');
    await t.close();
    const when = new Date(Date.now() - age * 1000);
    for (const f of [`${id}.jsonl`, `${id}.meta.json`]) utimesSync(join(dir, f), when, when);
  }
  const next = await history.startConnection(meta('live-two'), undefined, ['live-one']);
  await next.close();
  const files = readdirSync(dir);
  assert.ok(files.includes('live-one.jsonl'), 'the oldest file belongs to a live connection: kept');
  assert.ok(!files.includes('finished.jsonl'), 'a finished connection is dropped instead');
});

test('history loading in the background never replaces a connection that already has the id', async () => {
  const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [] });
  const first = await service.addHistory(meta('same'), '');
  assert.ok(first);
  assert.equal(await service.addHistory(meta('same'), ''), undefined);
  assert.equal(service.get('same'), first);
  service.dispose();
});

test('a long session keeps its end: the oldest lines are dropped, turn ends and state changes stay, and the cut is reported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-history-'));
  const budget = 20_000;
  const history = new SessionHistory(dir, budget);
  const transcript = await history.startConnection(meta('c1'));
  const update = (sessionId: string, u: object) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
  transcript.record({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }, 'client->agent');
  transcript.record({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {} } }, 'agent->client');
  transcript.record({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
  transcript.record({ jsonrpc: '2.0', id: 1, result: { sessionId: 'S' } }, 'agent->client');
  transcript.record({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'S', prompt: [{ type: 'text', text: 'go' }] } }, 'client->agent');
  transcript.record(update('S', { sessionUpdate: 'subagent_update', sessionId: 'C', title: 'Kid', state: { state: 'running' } }), 'agent->client');
  const chunk = 'x'.repeat(1_000);
  for (let i = 0; i < 200; i++) transcript.record(update(i % 2 ? 'S' : 'C', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } }), 'agent->client');
  transcript.record(update('S', { sessionUpdate: 'subagent_update', sessionId: 'C', state: { state: 'idle', stopReason: 'end_turn' } }), 'agent->client');
  transcript.record({ jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }, 'agent->client');
  await transcript.close(); // the cut is on record once close resolves

  const { connections } = await new SessionHistory(dir, budget).load();
  const loaded = connections[0]!;
  assert.ok(loaded.text.length <= budget, `within the budget (${loaded.text.length})`);
  // 200 KB of 220 KB did not fit: the live file stopped streaming text at twice the budget (state lines
  // went on), and the load rotated it back within the budget; both cuts are reported.
  assert.ok(loaded.droppedBytes / (loaded.droppedBytes + loaded.text.length) > 0.9, `most of it was dropped (${loaded.droppedBytes})`);
  const store = new SessionStore();
  replayText(store, loaded.text);
  store.markDisconnected();
  // Done, not "last running": the turn end and the child's end survived the cut.
  assert.deepEqual(store.listSessions().map((s) => [s.id, s.state.state, s.state.stopReason]), [['S', 'idle', 'end_turn'], ['C', 'idle', 'end_turn']]);
  assert.equal(store.getSession('C')!.title, 'Kid');
  // The newest chunks are what is left.
  assert.ok(loaded.text.includes(chunk));
  const again = await new SessionHistory(dir, budget).load();
  assert.equal(again.connections[0]!.droppedBytes, loaded.droppedBytes, 'the cut is remembered after the file was rotated');
});

test('the tree says when a connection\'s history was cut', async () => {
  const { runtimeTreeItem } = await import('../../src/views/runtimeTreeModel');
  const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [] });
  const runtime = (await service.addHistory({ ...meta('c9'), droppedBytes: 3 * 1_048_576 }, ''))!;
  const item = runtimeTreeItem(runtime, 0);
  assert.match(item.description, /history cut: oldest 3\.0 MB dropped/);
  assert.match(item.tooltip, /history cut: oldest 3\.0 MB dropped: the oldest part/);
  assert.doesNotMatch(runtimeTreeItem((await service.addHistory(meta('c8'), ''))!, 0).description, /history cut/);
  // The chat of each root session starts with a notice saying so.
  const text = [
    { dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } } },
    { dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 'S' } } },
    { dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } } } },
  ].map((line) => JSON.stringify(line)).join('\n');
  const cut = (await service.addHistory({ ...meta('c7'), droppedBytes: 2 * 1_048_576 }, `${text}\n`))!;
  const first = cut.store.getSession('S')!.entries[0]!;
  assert.equal(first.kind, 'notice');
  assert.match(first.kind === 'notice' ? first.title : '', /history cut: oldest 2\.0 MB dropped/);
  assert.equal(cut.store.getSession('S')!.entries[1]?.kind, 'message');
});

/** A history of `turns` prompts, each answered with a few chunks, as the transcript file holds it. */
function longHistoryText(turns: number): string {
  const lines: object[] = [
    { dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } } },
    { dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 'S' } } },
  ];
  for (let i = 0; i < turns; i++) {
    lines.push({ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 100 + i, method: 'session/prompt', params: { sessionId: 'S', prompt: [{ type: 'text', text: `q${i}` }] } } });
    for (let c = 0; c < 5; c++) lines.push({ dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `answer ${i}.${c} ` } } } } });
    lines.push({ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 100 + i, result: { stopReason: 'end_turn' } } });
  }
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

// History after a reload and a transcript file the user opens replay the same way (Open Transcript… replayed in one
// go and held the extension host for as long as the file took).
for (const source of ['history', 'an opened transcript'] as const)
test(`${source === 'history' ? 'a long history' : 'an opened long transcript'} replays in slices: the event loop gets turns meanwhile, and the store ends as a replay in one go does`, async () => {
  const text = longHistoryText(400);
  const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [], now: () => 0 });
  let turns = 0;
  let replaying = true;
  const other = () => {
    turns++;
    if (replaying) setImmediate(other);
  };
  setImmediate(other);
  const runtime = source === 'history' ? (await service.addHistory(meta('long'), text, { sliceMs: 0 }))! : await service.openTranscript('long.jsonl', text, 'long', { sliceMs: 0 });
  replaying = false;
  assert.ok(turns > 100, `other work ran ${turns} times while 2,802 lines replayed`);
  const inOneGo = new SessionStore({ now: () => 0 });
  replayText(inOneGo, text);
  inOneGo.markDisconnected();
  assert.deepEqual(runtime.store.getSession('S')!.entries, inOneGo.getSession('S')!.entries);
  assert.equal(runtime.transcript.lines().length, text.split('\n').filter(Boolean).length, 'every line is in the connection\'s transcript');
  service.dispose();
});

test('two loads of one connection\'s history at once: one adds it, the other stands back', async () => {
  const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [] });
  const text = longHistoryText(50);
  const [a, b] = await Promise.all([service.addHistory(meta('same'), text, { sliceMs: 0 }), service.addHistory(meta('same'), text, { sliceMs: 0 })]);
  assert.equal([a, b].filter(Boolean).length, 1);
  assert.equal(service.get('same'), a ?? b);
  service.dispose();
});

test('a service closed while a history replays adds nothing', async () => {
  const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [] });
  const loading = service.addHistory(meta('late'), longHistoryText(50), { sliceMs: 0 });
  service.dispose();
  assert.equal(await loading, undefined);
  assert.equal(service.get('late'), undefined);
});

test('history loads the newest connection first, so its sessions show before older ones replay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'subchats-history-'));
  const history = new SessionHistory(dir, 1_000_000);
  for (const [id, startedAt] of [['monday', 1_000], ['wednesday', 3_000], ['tuesday', 2_000]] as const) {
    const transcript = await history.startConnection(meta(id, startedAt));
    transcript.record({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
    await transcript.close();
  }
  const { connections } = await new SessionHistory(dir, 1_000_000).load();
  assert.deepEqual(connections.map((c) => c.meta.id), ['wednesday', 'tuesday', 'monday']);
});

test('connections restored newest first are listed in the order they started, before one started since', async () => {
  let clock = 5_000;
  const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [], now: () => clock });
  await service.addHistory(meta('wednesday', 3_000), '');
  await service.openTranscript('opened.jsonl', '', 'opened');
  clock = 6_000;
  await service.addHistory(meta('monday', 1_000), '');
  assert.deepEqual(service.list().map((r) => r.id), ['monday', 'wednesday', 'opened']);
  service.dispose();
});
