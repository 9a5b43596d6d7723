// Setting subchats.protocolVersion through the service: which version is offered, and `auto`'s fallback to 1
// (a fresh agent process offered 1) when an agent does not start at 2.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { AgentConnection } from '../../src/acp/agentConnection';
import type { ProtocolSetting } from '../../src/acp/capabilities';
import { SubchatsService } from '../../src/host/subchatsService';
import { fakeAgentConfig, RecordingHost, waitFor, type FakeMode } from '../fixtures/fake-agents/harness';

const spawned: AgentConnection[] = [];
const originalSpawn = AgentConnection.spawn.bind(AgentConnection);
AgentConnection.spawn = (options) => {
  const connection = originalSpawn(options);
  spawned.push(connection);
  return connection;
};
afterEach(() => {
  for (const connection of spawned.splice(0)) connection.dispose();
});

async function startWith(mode: FakeMode, setting: ProtocolSetting | undefined) {
  const workspace = mkdtempSync(join(tmpdir(), 'subchats-proto-'));
  const logFile = join(workspace, 'received.jsonl');
  const logs: string[] = [];
  const service = new SubchatsService({
    clientHost: () => new RecordingHost(),
    workspaceFolders: () => [workspace],
    log: (text) => logs.push(text),
    ...(setting !== undefined ? { protocolSetting: () => setting } : {}),
  });
  const runtime = await service.start(fakeAgentConfig(mode, { FAKE_AGENT_LOG: logFile }), workspace);
  const offers = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { method?: string; params?: { protocolVersion?: number } })
      .filter((m) => m.method === 'initialize')
      .map((m) => m.params?.protocolVersion);
  return { runtime, offers, logs };
}

/** The replaced process is gone and its exit changed nothing about the runtime. */
async function firstProcessGone(): Promise<void> {
  const first = spawned[0]!;
  await waitFor(() => !first.process.running, 'the first agent process to exit');
}

test('default: offers 1', async () => {
  const { runtime, offers } = await startWith('v2', undefined);
  assert.deepEqual(offers(), [1]);
  assert.equal(runtime.connection!.protocolVersion, 1);
});

test('2: offers 2 and speaks what a v2 agent answers', async () => {
  const { runtime, offers } = await startWith('v2', 2);
  assert.deepEqual(offers(), [2]);
  assert.equal(runtime.connection!.protocolVersion, 2);
  assert.equal(runtime.store.protocolVersion, 2);
});

test('auto: a v2 agent is spoken to at 2, in one process', async () => {
  const { runtime, offers } = await startWith('v2', 'auto');
  assert.deepEqual(offers(), [2]);
  assert.equal(spawned.length, 1);
  assert.equal(runtime.connection!.protocolVersion, 2);
});

test('auto: an agent that fails to initialize at 2 is restarted and offered 1; the abandoned process changes nothing', async () => {
  const { runtime, offers, logs } = await startWith('v1-only', 'auto');
  assert.deepEqual(offers(), [2, 1]);
  assert.equal(spawned.length, 2);
  assert.equal(runtime.connection, spawned[1]);
  assert.equal(runtime.connection!.protocolVersion, 1);
  assert.ok(logs.some((line) => /did not initialize at ACP v2.*offer v1/.test(line)), logs.join('\n'));
  await firstProcessGone();
  assert.equal(runtime.status, 'ready');
  assert.equal(runtime.live, true);
  assert.equal(runtime.store.isConnected, true);
  assert.equal(runtime.store.protocolVersion, 1);
});

test('auto: an agent that answers 1 to an offer of 2 is restarted with the v1 offer (so it gets the v1 client capabilities)', async () => {
  const { runtime, offers } = await startWith('normal', 'auto');
  assert.deepEqual(offers(), [2, 1]);
  await firstProcessGone();
  assert.equal(runtime.connection!.protocolVersion, 1);
  assert.equal(runtime.live, true);
});
