// "Check Agent": the report of real agents' initialize answers, and the check run against the demo agent, a
// missing command, an agent that never answers and one that dies at once; the process is gone afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { AgentConfig } from '../../src/acp/agentProcess';
import { DEMO_AGENT_VERSION } from '../../src/demoAgent/demoAgent';
import { checkAgent } from '../../src/host/agentCheck';
import { describeCheckFailure, describeInitialize } from '../../src/host/agentCheckReport';
import { AGENT_PRESETS } from '../../src/host/agentPresets';
import { fakeAgentConfig } from '../fixtures/fake-agents/harness';

const REPO = resolve(__dirname, '..', '..');
const initializeOf = (name: string): unknown => JSON.parse(readFileSync(join(REPO, 'test/fixtures/agent-check', `${name}-initialize.json`), 'utf8'));
const preset = (id: string): AgentConfig => AGENT_PRESETS.find((agent) => agent.id === id)!;

function demoAgent(): AgentConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { id: 'demo', name: 'Demo', command: process.execPath, args: ['--import', tsx, join(REPO, 'src/demoAgent/standalone.ts'), '--pace', '1', '--dialect', 'kind-subagent'] };
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('the report of opencode says who it is, what it can do with sessions and how to sign in', () => {
  const report = describeInitialize(preset('opencode'), initializeOf('opencode'));
  assert.equal(report.summary, 'OpenCode 1.18.33 answered (ACP 1). Sessions: load, list, resume, close, fork.');
  assert.deepEqual(report.lines, [
    'Check of "opencode" (runs: opencode acp)',
    'Agent: OpenCode 1.18.33',
    'ACP protocol version: 1',
    'Sessions: load yes, list yes, resume yes, close yes, fork yes, extra folders no',
    'Subagent delegation: not advertised (subagents still show as the agent reports them)',
    'Prompt content: text and links, images yes, audio no, embedded files yes',
    'MCP servers: stdio, HTTP yes, SSE yes',
    'Sign-in methods:',
    '  - Login with opencode: Run `opencode auth login` in the terminal',
  ]);
});

test('the report of Gemini CLI, Copilot and qwen-code: titles, missing session capabilities, log out, extra keys', () => {
  const gemini = describeInitialize(preset('gemini'), initializeOf('gemini'));
  assert.equal(gemini.summary, 'Gemini CLI 0.61.0 answered (ACP 1). Sessions: load.');
  assert.ok(gemini.lines.includes('Sessions: load yes, list no, resume no, close no, fork no, extra folders no'));
  assert.ok(gemini.lines.includes('  - Gemini API key: Use an API key with Gemini Developer API'));
  assert.equal(gemini.lines.filter((line) => line.startsWith('  - ')).length, 4);

  const copilot = describeInitialize(preset('copilot'), initializeOf('copilot'));
  assert.ok(copilot.lines.includes('Sign-in methods (log out supported):'));
  assert.ok(copilot.lines.includes('Prompt content: text and links, images yes, audio no, embedded files yes'));

  const qwen = describeInitialize(preset('qwen-code'), initializeOf('qwen'));
  assert.equal(qwen.summary, 'Qwen Code 0.24.4 answered (ACP 1). Sessions: load, list, resume.');
  assert.ok(qwen.lines.includes('Also advertised (not used by Subchats): _meta'));
});

test('a malformed answer is read leniently and agent strings cannot become links or icons', () => {
  const agent: AgentConfig = { id: 'odd', name: 'Odd', command: 'odd' };
  const report = describeInitialize(agent, { protocolVersion: 1, agentInfo: { name: '[x](command:evil) $(zap)', version: 7 }, agentCapabilities: { loadSession: 'yes', sessionCapabilities: { list: true, close: [] } }, authMethods: 'none' });
  assert.equal(report.lines[1], 'Agent: [x] (command:evil) $ (zap)');
  assert.ok(report.lines.includes('Sessions: load no, list no, resume no, close no, fork no, extra folders no'), 'true/[] are not ACP grants');
  assert.ok(report.lines.includes('Sign-in methods: none offered'));
  assert.equal(describeInitialize(agent, null).lines[2], 'ACP protocol version: not stated');
});

test('checking the demo agent reports its answer and stops its process', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const result = await checkAgent(demoAgent(), { cwd });
  assert.ok(result.ok, result.report.summary);
  assert.equal(result.report.summary, `Subchats demo agent ${DEMO_AGENT_VERSION} answered (ACP 1). Sessions: load, list, resume, close.`);
  assert.ok(result.report.lines.includes('Subagent delegation: choose a subagent in a prompt yes, in the background yes'), result.report.lines.join('\n'));
  assert.ok(result.pid !== undefined);
  assert.equal(isAlive(result.pid), false, 'the agent process is gone after the check');
});

test('a preset whose command is not installed says how to install it', async () => {
  const emptyPath = mkdtempSync(join(tmpdir(), 'subchats-nopath-'));
  for (const [id, install] of [
    ['opencode', 'npm install -g opencode-ai'],
    ['gemini', 'npm install -g @google/gemini-cli'],
    ['copilot', 'npm install -g @github/copilot'],
    ['qwen-code', 'npm install -g @qwen-code/qwen-code'],
  ] as const) {
    const result = await checkAgent(preset(id), { cwd: emptyPath, baseEnv: { PATH: emptyPath } });
    assert.equal(result.ok, false);
    assert.match(result.report.summary, /is not installed: the command ".+" was not found on PATH\./);
    assert.ok(result.report.summary.includes(`\`${install}\``), result.report.summary);
  }
  const own = await checkAgent({ id: 'mine', name: 'Mine', command: 'no-such-agent-here' }, { cwd: emptyPath, baseEnv: { PATH: emptyPath } });
  assert.match(own.report.summary, /"Mine" is not installed: .*change its "command" in the subchats\.agents setting/);
});

test('an agent that never answers initialize times out with a clear message and is stopped', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const result = await checkAgent(fakeAgentConfig('silent'), { cwd, timeoutMs: 300 });
  assert.equal(result.ok, false);
  assert.match(result.report.summary, /^"Fake" started but did not answer initialize within 300 ms, so it was stopped\. Does ".+scriptedAgent\.mjs --mode silent" really start an ACP agent on stdio\?$/);
  assert.equal(isAlive(result.pid), false);
});

test('an agent that exits before initialize, or refuses it, says so with its stderr', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const dying: AgentConfig = { id: 'dying', name: 'Dying', command: process.execPath, args: ['-e', 'process.stderr.write("no model configured\\n"); process.exit(3)'] };
  const died = await checkAgent(dying, { cwd });
  assert.equal(died.report.summary, '"Dying" exited before answering initialize (exit code 3).');
  assert.deepEqual(died.report.lines.slice(-2), ['Last stderr output:', '  no model configured']);
  const refused = await checkAgent(fakeAgentConfig('init-error'), { cwd });
  assert.equal(refused.report.summary, '"Fake" answered initialize with an error: model provider unreachable');
  const unknown = describeCheckFailure(dying, new Error('odd'));
  assert.equal(unknown.summary, 'Checking "Dying" failed: odd');
});
