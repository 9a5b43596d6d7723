// Setting subchats.protocolVersion through the service: which version is offered, and `auto`'s fallback to 1
// (a fresh agent process offered 1) when an agent does not start at 2.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { AgentConnection } from '../../src/acp/agentConnection';
import type { ProtocolSetting } from '../../src/acp/capabilities';
import { ProtocolMemory, PROTOCOL_MEMORY_ENTRY_MAX_CHARS, PROTOCOL_MEMORY_KEY, type KeyValueState } from '../../src/host/protocolMemory';
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

async function startWith(mode: FakeMode, setting: ProtocolSetting | undefined, extra: { memory?: ProtocolMemory; env?: Record<string, string>; initializeTimeoutMs?: number; prefersV1?: string } = {}) {
  const workspace = mkdtempSync(join(tmpdir(), 'subchats-proto-'));
  const logFile = join(workspace, 'received.jsonl');
  const logs: string[] = [];
  const service = new SubchatsService({
    clientHost: () => new RecordingHost(),
    workspaceFolders: () => [workspace],
    log: (text) => logs.push(text),
    ...(setting !== undefined ? { protocolSetting: () => setting } : {}),
    ...(extra.memory ? { protocolMemory: extra.memory } : {}),
    ...(extra.initializeTimeoutMs ? { initializeTimeoutMs: () => extra.initializeTimeoutMs! } : {}),
  });
  const config = fakeAgentConfig(mode, { FAKE_AGENT_LOG: logFile, ...extra.env });
  const runtime = await service.start(extra.prefersV1 ? { ...config, prefersV1: extra.prefersV1 } : config, workspace);
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

test('auto: an agent that prefers v1 (the Claude preset: its v1 steers) is offered 1 first, in one process; `2` still speaks 2', async () => {
  const preferring = await startWith('v2', 'auto', { prefersV1: 'its v1 steers' });
  assert.deepEqual(preferring.offers(), [1]);
  assert.equal(spawned.length, 1);
  assert.equal(preferring.runtime.connection!.protocolVersion, 1);
  assert.ok(preferring.logs.some((line) => line.includes('offering ACP v1 first: its v1 steers')));
  for (const connection of spawned.splice(0)) connection.dispose();
  const asked = await startWith('v2', 2, { prefersV1: 'its v1 steers' });
  assert.deepEqual(asked.offers(), [2]);
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

/** The extension's global state, in memory. */
function memoryState(): KeyValueState & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return { values, get: (key) => values.get(key), update: async (key, value) => void values.set(key, value) };
}

test('auto: an agent that answered 1 is offered 1 directly next time (one process); a new version of it is offered 2 again', async () => {
  const state = memoryState();
  const memory = new ProtocolMemory(state);
  const first = await startWith('normal', 'auto', { memory });
  assert.deepEqual(first.offers(), [2, 1]);
  const second = await startWith('normal', 'auto', { memory });
  assert.deepEqual(second.offers(), [1], 'remembered: offered 1 first, and it answers: no second start');
  assert.equal(second.runtime.connection!.protocolVersion, 1);
  assert.match(second.logs.join('\n'), /answered ACP v1 to an offer of v2 before; offering v1 first/);
  // Upgraded: its v1 answer names another version, so the answer is forgotten and the next start asks 2 again.
  const upgraded = { FAKE_AGENT_INIT: JSON.stringify({ agentInfo: { name: 'scripted-fake-agent', version: '1.1.0' } }) };
  assert.deepEqual((await startWith('normal', 'auto', { memory, env: upgraded })).offers(), [1]);
  assert.deepEqual(Object.keys(state.values.get(PROTOCOL_MEMORY_KEY) as object), []);
  assert.deepEqual((await startWith('normal', 'auto', { memory, env: upgraded })).offers(), [2, 1]);
});

test('auto: an agent that failed at 2 is remembered too; a v2 agent and the settings 1 and 2 leave the memory alone', async () => {
  const state = memoryState();
  const memory = new ProtocolMemory(state);
  await startWith('v1-only', 'auto', { memory });
  assert.deepEqual((await startWith('v1-only', 'auto', { memory })).offers(), [1]);
  // The setting 2 always offers 2; refused, it says what would work.
  await assert.rejects(startWith('v1-only', 2, { memory }), (error: Error) => /^Agent "Fake" does not accept ACP version 2 \(it supports 1\)\. The agent was disconnected\. Set subchats\.protocolVersion to "1" or "auto" to speak version 1 with it\.$/.test(error.message));
  const v2 = await startWith('v2', 'auto', { memory });
  assert.deepEqual(v2.offers(), [2]);
  assert.equal(Object.keys(state.values.get(PROTOCOL_MEMORY_KEY) as object).length, 1, 'only the v1-only agent is remembered');
  // Unreadable stored state counts as nothing remembered.
  state.values.set(PROTOCOL_MEMORY_KEY, { junk: 'yes', other: null });
  assert.deepEqual((await startWith('v1-only', 'auto', { memory })).offers(), [2, 1]);
});

test('auto: an agent that only timed out at 2 is not remembered (a slow first start says nothing about v2)', async () => {
  const state = memoryState();
  const memory = new ProtocolMemory(state);
  // The silent attempt costs the whole timeout; the v1 attempt must start within it even on a loaded machine.
  const first = await startWith('silent-at-2', 'auto', { memory, initializeTimeoutMs: 3000 });
  assert.deepEqual(first.offers(), [2, 1]);
  assert.equal(first.runtime.connection!.protocolVersion, 1);
  assert.equal(state.values.get(PROTOCOL_MEMORY_KEY), undefined);
});

test('a remembered agent that now refuses 1 is offered 2 and forgotten; an answer of 2 under the setting 2 forgets too; a week later 2 is asked again', async () => {
  const state = memoryState();
  let now = 1_000_000;
  const memory = new ProtocolMemory(state, () => now);
  const remember = (mode: FakeMode) => memory.noteStart(fakeAgentConfig(mode), 'auto', { offered: [2, 1], answered: 1, agentVersion: '1.0.0', answeredOfferOf2: true });
  await remember('v2-only');
  const upgraded = await startWith('v2-only', 'auto', { memory });
  assert.deepEqual(upgraded.offers(), [1, 2]);
  assert.equal(upgraded.runtime.connection!.protocolVersion, 2);
  assert.deepEqual(Object.keys(state.values.get(PROTOCOL_MEMORY_KEY) as object), []);
  await remember('v2');
  await startWith('v2', 2, { memory });
  assert.deepEqual(Object.keys(state.values.get(PROTOCOL_MEMORY_KEY) as object), [], 'answered 2: forgotten whatever the setting');
  await remember('normal');
  assert.deepEqual(memory.versionsFor(fakeAgentConfig('normal'), 'auto'), [1, 2]);
  now += 8 * 24 * 60 * 60 * 1000;
  assert.deepEqual(memory.versionsFor(fakeAgentConfig('normal'), 'auto'), [2, 1], 'a week on, the agent is asked 2 again');
});

test('a memory that cannot be written does not fail an agent that started', async () => {
  const memory = new ProtocolMemory({ get: () => undefined, update: () => Promise.reject(new Error('disk full')) });
  const { runtime, logs } = await startWith('normal', 'auto', { memory });
  assert.equal(runtime.status, 'ready');
  await waitFor(() => logs.some((line) => /Could not remember the ACP version of Fake: Error: disk full/.test(line)), 'the log line');
});

test('protocol memory stays small whatever the agent answers: a 15 MB version is kept as a fingerprint, the facts still hold', async () => {
  const state = memoryState();
  let now = 1_000_000;
  const memory = new ProtocolMemory(state, () => now++);
  const stored = () => JSON.stringify(state.values.get(PROTOCOL_MEMORY_KEY) ?? {}).length;
  const huge = 'v'.repeat(15 * 1024 * 1024);
  const agent = fakeAgentConfig('normal');
  const answeredOne = (agentVersion: unknown) => ({ offered: [2, 1] as (1 | 2)[], answered: 1, agentVersion: agentVersion as string | null, answeredOfferOf2: true });
  await memory.noteStart(agent, 'auto', answeredOne(huge));
  assert.ok(stored() <= PROTOCOL_MEMORY_ENTRY_MAX_CHARS, `stored ${stored()} chars`);
  assert.deepEqual(memory.versionsFor(agent, 'auto'), [1, 2], 'remembered');
  await memory.noteStart(agent, 'auto', answeredOne(huge)); // the same version again: still remembered
  assert.deepEqual(memory.versionsFor(agent, 'auto'), [1, 2]);
  await memory.noteStart(agent, 'auto', { ...answeredOne(`${huge}!`), offered: [1] }); // another (huge) version: forgotten
  assert.deepEqual(memory.versionsFor(agent, 'auto'), [2, 1]);
  // A version that is not a string (a 15 MB object) counts as none; a long command line is kept short too.
  const longArgs = { ...agent, id: 'long', args: ['x'.repeat(1_000_000)] };
  await memory.noteStart(longArgs, 'auto', answeredOne({ blob: huge }));
  assert.deepEqual(memory.versionsFor(longArgs, 'auto'), [1, 2]);
  assert.ok(stored() <= PROTOCOL_MEMORY_ENTRY_MAX_CHARS, `stored ${stored()} chars`);
  // State bloated by an earlier version shrinks at the next write, keeping what it knew.
  state.values.set(PROTOCOL_MEMORY_KEY, { ...(state.values.get(PROTOCOL_MEMORY_KEY) as object), ['["old","agent"]']: { agentVersion: huge, at: 999_999 } });
  await memory.noteStart({ ...agent, id: 'next' }, 'auto', answeredOne('1.0.0'));
  assert.ok(stored() <= 3 * PROTOCOL_MEMORY_ENTRY_MAX_CHARS, `stored ${stored()} chars for 3 agents`);
  assert.deepEqual(memory.versionsFor({ id: 'old', name: 'Old', command: 'agent' }, 'auto'), [1, 2], 'the old answer is kept, shortened');
  for (let i = 0; i < 60; i++) await memory.noteStart({ ...agent, id: `a${i}`, args: ['y'.repeat(10_000)] }, 'auto', answeredOne('w'.repeat(1_000)));
  assert.ok(stored() <= 50 * PROTOCOL_MEMORY_ENTRY_MAX_CHARS, `stored ${stored()} chars for 50 agents`);
  assert.deepEqual(memory.versionsFor({ ...agent, id: 'a59', args: ['y'.repeat(10_000)] }, 'auto'), [1, 2]);
});
