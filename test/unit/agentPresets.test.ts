import assert from 'node:assert/strict';
import { promises as fs, readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseOptions } from '../../src/demoAgent/options';
import { AGENT_PRESETS, demoAgentConfig, mergeAgents, readAgentSettings } from '../../src/host/agentPresets';
import { fakeAgentConfig, makeWorkspace, startFake } from '../fixtures/fake-agents/harness';
import { contributedSettings } from './support/contributedSettings';

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
  assert.deepEqual(demoOptionsOf(config), { pace: 40, childDuration: 8000, dialect: 'qwen', protocol: 'auto', steering: true });
});

test('without a child duration (or with 0) the demo agent keeps its default of no minimum', () => {
  assert.deepEqual(demoOptionsOf(demoAgentConfig(base)), { pace: 40, childDuration: 0, dialect: 'acp', protocol: 'auto', steering: true });
  const zero = demoAgentConfig({ ...base, childDuration: 0 });
  assert.ok(!zero.args?.includes('--child-duration'));
  assert.deepEqual(demoOptionsOf(zero), { pace: 40, childDuration: 0, dialect: 'acp', protocol: 'auto', steering: true });
});

test('the demo agent preset turns steering off only when the setting says so', () => {
  assert.ok(!demoAgentConfig(base).args?.includes('--no-steering'));
  assert.equal(demoOptionsOf(demoAgentConfig({ ...base, steering: true })).steering, true);
  assert.equal(demoOptionsOf(demoAgentConfig({ ...base, steering: false })).steering, false);
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

test('agents Add Agent wrote from the registry keep their registry id and run from the neutral folder too', () => {
  const { agents } = readAgentSettings([{ id: 'reg', name: 'Reg', command: 'npx', args: ['-y', 'reg@1'], registryId: 'reg', registryVersion: '1' }, { id: 'mine', command: 'my-agent', registryId: 3 }]);
  assert.deepEqual(agents.map((agent) => agent.registryId), ['reg', undefined]);
  const merged = mergeAgents(demoAgentConfig(base), agents, '/ext/storage/agent-cwd');
  assert.equal(merged.find((agent) => agent.id === 'reg')?.processCwd, '/ext/storage/agent-cwd');
  assert.equal(merged.find((agent) => agent.id === 'mine')?.processCwd, undefined);
});

test('which agents start, whether terminals run, and how are user (machine) settings a repository cannot change', () => {
  const settings = contributedSettings();
  for (const key of ['subchats.agents', 'subchats.defaultAgent', 'subchats.registryUrl', 'subchats.terminals']) assert.equal(settings.get(key)?.scope, 'machine', key);
  assert.equal(settings.get('subchats.terminals')?.default, 'ask');
  assert.deepEqual(settings.get('subchats.terminals')?.enum, ['ask', 'allow', 'deny']);
  assert.ok(settings.get('subchats.terminals')?.markdownDescription);
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

/** The documented presets: id -> the command line the docs say it runs, and the rest of its entry. */
function documentedPresets(text: string, pattern: RegExp): Map<string, { runs: string; rest: string }> {
  return new Map([...text.matchAll(pattern)].map((match) => [match[1]!, { runs: match[2]!, rest: match[3]! }]));
}

test('the subchats.agents description and the README list exactly the presets, with the command each runs, its install command and sign-in', async () => {
  const { PRESET_SETUP } = await import('../../src/host/agentPresets');
  const setting = contributedSettings().get('subchats.agents')?.markdownDescription ?? '';
  const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const docs = {
    setting: documentedPresets(setting, /^- \*\*.+?\*\* \(`([\w-]+)`\): runs `([^`]+)`(.*)$/gm),
    readme: documentedPresets(readme, /^\| .+? \(`([\w-]+)`\) \| `([^`]+)` \|(.*)$/gm),
  };
  for (const [where, documented] of Object.entries(docs)) {
    assert.deepEqual([...documented.keys()].sort(), AGENT_PRESETS.map((preset) => preset.id).sort(), `${where} lists every preset and no other`);
    for (const preset of AGENT_PRESETS) {
      const entry = documented.get(preset.id)!;
      const setup = PRESET_SETUP[preset.id];
      assert.ok(setup, `${preset.id} has its setup facts`);
      assert.equal(entry.runs, [preset.command, ...(preset.args ?? [])].join(' '), `${where}: what ${preset.id} runs`);
      assert.ok(entry.rest.includes(setup.needs), `${where}: what ${preset.id} needs`);
      if (setup.install) assert.ok(entry.rest.includes(`\`${setup.install}\` (tested with ${setup.testedVersion})`), `${where}: how to install ${preset.id}`);
      else assert.equal(preset.command, 'npx', `${preset.id} without an install command is fetched by npx`);
    }
  }
});

test('installed CLIs name the npm package they come from; npx presets pin the version the setup names', async () => {
  const { PRESET_SETUP, installHint } = await import('../../src/host/agentPresets');
  for (const preset of AGENT_PRESETS) {
    const setup = PRESET_SETUP[preset.id]!;
    if (preset.command === 'npx') assert.ok(preset.args?.some((arg) => arg.endsWith(`@${setup.testedVersion}`)), preset.id);
    else assert.match(setup.install ?? '', /^npm install -g (@[\w-]+\/)?[\w-]+$/, preset.id);
  }
  assert.equal(installHint({ id: 'opencode', command: 'opencode' }), 'Install it with `npm install -g opencode-ai` (tested with 1.18.33).');
  assert.equal(installHint({ id: 'opencode', command: '/opt/my-opencode' }), undefined, 'a user entry replacing a preset is not the preset');
  assert.match(installHint({ id: 'codex', command: 'npx' }) ?? '', /Node\.js/);
});

test('under auto, every preset starts once on a fresh profile: those whose tested version speaks only v1 are offered v1 first (#21 item 11)', () => {
  // Tested versions: codex-acp 2.6.0 answers v2; claude-agent-acp 0.101.0 answers v2 but steers only at v1;
  // gemini-cli 0.61.0, qwen-code 0.24.4, opencode 1.18.33 and Copilot CLI 1.0.102 answer v1 to an offer of v2.
  const answersV2 = new Set(['codex', 'claude-code']);
  for (const preset of AGENT_PRESETS) {
    const offeredFirst = preset.prefersV1 !== undefined ? 1 : 2;
    const answers = answersV2.has(preset.id) ? (preset.prefersV1 !== undefined ? 1 : 2) : 1;
    assert.equal(offeredFirst, answers, `${preset.id}: offered v${offeredFirst} first, would answer v${answers}, so it would start twice`);
  }
});
