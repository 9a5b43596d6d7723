import assert from 'node:assert/strict';
import { promises as fs, readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseOptions } from '../../src/demoAgent/options';
import { AGENT_PRESETS, demoAgentConfig, mergeAgents } from '../../src/host/agentPresets';
import { fakeAgentConfig, makeWorkspace, startFake } from '../fixtures/fake-agents/harness';

const base = { cliPath: '/ext/dist/cli.js', nodePath: '/usr/bin/node', pace: 40, dialect: 'acp' };

/** The demo agent's own option parser is the judge of what the preset passes on its command line. */
function demoOptionsOf(config: ReturnType<typeof demoAgentConfig>) {
  const [cli, command, ...flags] = config.args ?? [];
  assert.equal(cli, base.cliPath);
  assert.equal(command, 'demo-agent');
  return parseOptions(flags, {});
}

test('the demo agent preset passes pace, dialect and a child duration the demo agent understands', () => {
  const config = demoAgentConfig({ ...base, dialect: 'qwen', childDuration: 8000 });
  assert.equal(config.command, base.nodePath);
  assert.deepEqual(demoOptionsOf(config), { pace: 40, childDuration: 8000, dialect: 'qwen', protocol: 'auto' });
});

test('without a child duration (or with 0) the demo agent keeps its default of no minimum', () => {
  assert.deepEqual(demoOptionsOf(demoAgentConfig(base)), { pace: 40, childDuration: 0, dialect: 'acp', protocol: 'auto' });
  const zero = demoAgentConfig({ ...base, childDuration: 0 });
  assert.ok(!zero.args?.includes('--child-duration'));
  assert.deepEqual(demoOptionsOf(zero), { pace: 40, childDuration: 0, dialect: 'acp', protocol: 'auto' });
});

test('npx presets are pinned and run from a neutral folder, never from the workspace (whose node_modules npx would prefer)', () => {
  const demo = demoAgentConfig(base);
  const merged = mergeAgents(demo, [{ id: 'mine', name: 'Mine', command: 'my-agent' }], '/ext/storage/agent-cwd');
  for (const preset of AGENT_PRESETS.filter((agent) => agent.command === 'npx')) {
    const pkg = preset.args?.find((arg) => arg.startsWith('@'));
    assert.match(pkg ?? '', /^@[\w-]+\/[\w-]+@\d+\.\d+\.\d+$/, `${preset.id} names an exact version`);
    assert.equal(merged.find((agent) => agent.id === preset.id)?.processCwd, '/ext/storage/agent-cwd');
  }
  assert.equal(merged.find((agent) => agent.id === 'mine')?.processCwd, undefined, "the user's own agents run where they always did");
});

test('which agents start, whether terminals run, and how are user (machine) settings a repository cannot change', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown; enum?: unknown[]; markdownDescription?: string }> } };
  };
  const properties = manifest.contributes.configuration.properties;
  for (const key of ['subchats.agents', 'subchats.defaultAgent', 'subchats.terminals']) assert.equal(properties[key]?.scope, 'machine', key);
  assert.equal(properties['subchats.terminals']?.default, 'ask');
  assert.deepEqual(properties['subchats.terminals']?.enum, ['ask', 'allow', 'deny']);
  assert.ok(properties['subchats.terminals']?.markdownDescription);
});

test('an agent with a processCwd runs there while its sessions get the workspace folder', async () => {
  const neutral = makeWorkspace();
  const session = await startFake('normal', { agent: { ...fakeAgentConfig('normal'), processCwd: neutral } });
  try {
    const pid = session.connection.process.pid!;
    if (process.platform === 'linux') assert.equal(readlinkSync(`/proc/${pid}/cwd`), neutral);
    const created = await session.connection.newSession(session.workspace);
    assert.ok(created.sessionId);
    const sent = session.tapped.find((entry) => entry.message.method === 'session/new')!;
    assert.equal((sent.message.params as { cwd: string }).cwd, session.workspace);
  } finally {
    await session.dispose();
    await fs.rm(neutral, { recursive: true, force: true });
  }
});

test('presets run each agent in its ACP mode, GitHub Copilot CLI included (gemini without the deprecated alias)', async () => {
  const { AGENT_PRESETS } = await import('../../src/host/agentPresets');
  const byId = Object.fromEntries(AGENT_PRESETS.map((preset) => [preset.id, [preset.command, ...(preset.args ?? [])].join(' ')]));
  assert.equal(byId['copilot'], 'copilot --acp');
  assert.equal(byId['gemini'], 'gemini --acp');
  assert.equal(byId['qwen-code'], 'qwen --acp');
  assert.equal(byId['opencode'], 'opencode acp');
});
