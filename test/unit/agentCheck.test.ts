// "Check Agent": the report of real agents' initialize answers (ACP 1 and 2), and the check run against the demo
// agent at each protocol setting (with `auto`'s restart at 1), a missing command, an agent that never answers and
// one that dies at once; every process is gone afterwards.
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

/** The demo agent; `kind-subagent` speaks only ACP 1 (it answers 1 to an offer of 2), `acp` speaks 2 too. */
function demoAgent(dialect: 'kind-subagent' | 'acp' = 'kind-subagent'): AgentConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { id: 'demo', name: 'Demo', command: process.execPath, args: ['--import', tsx, join(REPO, 'src/demoAgent/standalone.ts'), '--pace', '1', '--dialect', dialect] };
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
    'Saved sessions reopen with: session/load',
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

test('the ACP 2 answers of Claude Code and Codex are read from info and capabilities, with the versions offered', () => {
  const claude = describeInitialize(preset('claude-code'), initializeOf('claude-v2'), [2]);
  assert.equal(claude.summary, 'Claude Agent 0.101.0 answered (ACP 2). Sessions: list, resume, close, fork.');
  assert.deepEqual(claude.lines, [
    'Check of "Claude Code" (runs: npx -y @agentclientprotocol/claude-agent-acp@0.101.0)',
    'Agent: Claude Agent 0.101.0',
    'ACP protocol version: 2 (offered 2)',
    'Sessions: list yes, resume yes, close yes, fork yes, extra folders yes',
    'Saved sessions reopen with: session/resume',
    'Subagents: part of ACP 2 (shown as the agent reports them)',
    'Prompt content: text and links, images yes, audio no, embedded files yes',
    'MCP servers: stdio yes, HTTP yes, ACP no',
    'Sign-in methods: none offered',
    'Also advertised (not used by Subchats): providers, _meta, session.delete, session.systemPrompt',
  ]);
  // v2 auth methods are named by `methodId`; offering any means auth/logout is there too.
  const codex = describeInitialize(preset('codex'), initializeOf('codex-v2'), [2, 1]);
  assert.equal(codex.lines[1], 'Agent: Codex 2.6.0');
  assert.equal(codex.lines[2], 'ACP protocol version: 2 (offered 2, then restarted and offered 1)');
  assert.deepEqual(codex.lines.slice(-3, -1), ['Sign-in methods (log out supported):', '  - API Key: Use an API key to authenticate']);
});

test('an ACP 2 answer: only object markers grant, no capabilities.session means no sessions, v1 keys are not read', () => {
  const agent: AgentConfig = { id: 'odd', name: 'Odd', command: 'odd' };
  const markers = describeInitialize(agent, {
    protocolVersion: 2,
    info: { name: 'odd-agent', version: '1.0' },
    capabilities: { session: { prompt: { image: true, audio: {} }, mcp: { stdio: {}, acp: [] }, fork: null } },
    authMethods: [{ type: 'terminal', methodId: 'tui', name: 'Log in [here](command:evil)' }, { type: 'agent', name: 'no id' }],
    agentCapabilities: { loadSession: true, promptCapabilities: { image: true } },
  });
  assert.ok(markers.lines.includes('Sessions: list yes, resume yes, close yes, fork no, extra folders no'), markers.lines.join('\n'));
  assert.ok(markers.lines.includes('Prompt content: text and links, images no, audio yes, embedded files no'));
  assert.ok(markers.lines.includes('MCP servers: stdio yes, HTTP no, ACP no'));
  assert.deepEqual(markers.lines.slice(-2), ['Sign-in methods (log out supported):', '  - Log in [here] (command:evil) (in a terminal)']);
  const sessionless = describeInitialize(agent, { protocolVersion: 2, info: { name: 'tool-only' }, capabilities: { session: null } });
  assert.equal(sessionless.summary, 'tool-only answered (ACP 2). Sessions: none.');
  assert.ok(sessionless.lines.includes('Sessions: none (capabilities.session not advertised)'));
  assert.ok(sessionless.lines.includes('Saved sessions reopen with: nothing (they cannot be reopened)'));
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

test('at auto a demo agent that speaks ACP 2 is checked at 2, in one process', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const result = await checkAgent(demoAgent('acp'), { cwd, protocol: 'auto' });
  assert.ok(result.ok, result.report.summary);
  assert.equal(result.report.summary, `Subchats demo agent ${DEMO_AGENT_VERSION} answered (ACP 2). Sessions: list, resume, close.`);
  assert.ok(result.report.lines.includes('ACP protocol version: 2 (offered 2)'), result.report.lines.join('\n'));
  assert.deepEqual(result.offered, [2]);
  assert.equal(result.pids.length, 1);
  assert.equal(isAlive(result.pid), false);
});

test('at auto an agent that answers 1 to an offer of 2 is restarted and offered 1, as a session start does', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const logs: string[] = [];
  const result = await checkAgent(demoAgent('kind-subagent'), { cwd, protocol: 'auto', log: (text) => logs.push(text) });
  assert.ok(result.ok, result.report.summary);
  assert.ok(result.report.lines.includes('ACP protocol version: 1 (offered 2, then restarted and offered 1)'), result.report.lines.join('\n'));
  assert.deepEqual(result.offered, [2, 1]);
  assert.equal(result.pids.length, 2);
  assert.notEqual(result.pids[0], result.pids[1]);
  assert.ok(result.pids.every((pid) => !isAlive(pid)), 'both agent processes are gone');
  assert.ok(logs.some((line) => line === '[Demo] answered ACP v1; restarting it to offer v1 with its client capabilities'), logs.join('\n'));
});

test('at 2 an agent that answers 1 is spoken to at 1 without a restart (as a session at setting 2)', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const result = await checkAgent(demoAgent('kind-subagent'), { cwd, protocol: 2 });
  assert.ok(result.ok, result.report.summary);
  assert.ok(result.report.lines.includes('ACP protocol version: 1 (offered 2)'), result.report.lines.join('\n'));
  assert.deepEqual(result.offered, [2]);
  assert.equal(result.pids.length, 1);
});

test('at auto an agent that fails initialize at 2 is restarted and offered 1; one that fails both says what was offered', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-check-'));
  const logs: string[] = [];
  const v1Only = await checkAgent(fakeAgentConfig('v1-only'), { cwd, protocol: 'auto', log: (text) => logs.push(text) });
  assert.ok(v1Only.ok, v1Only.report.summary);
  assert.ok(v1Only.report.lines.includes('ACP protocol version: 1 (offered 2, then restarted and offered 1)'), v1Only.report.lines.join('\n'));
  assert.ok(logs.some((line) => /^\[Fake\] did not initialize at ACP v2 \(.+\); restarting it to offer v1$/.test(line)), logs.join('\n'));
  assert.ok(v1Only.pids.every((pid) => !isAlive(pid)));
  const refusing = await checkAgent(fakeAgentConfig('init-error'), { cwd, protocol: 'auto' });
  assert.equal(refusing.ok, false);
  assert.equal(refusing.report.summary, '"Fake" answered initialize with an error: model provider unreachable');
  assert.ok(refusing.report.lines.includes('ACP protocol version: none agreed (offered 2, then restarted and offered 1)'), refusing.report.lines.join('\n'));
  assert.deepEqual(refusing.offered, [2, 1]);
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
