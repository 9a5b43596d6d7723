// One sample per wire dialect (rebuilt from each agent's source): the child is found and linked the right way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureNames, fixtureText, replayFixture } from './support/storeFixtures';
import { SessionStore } from '../../src/store/sessionStore';

const TOKENS_ANSWER = 'Tokens are validated in src/auth/session.ts:42 and src/api/middleware.ts:17.';

const EXPECTED: Record<string, { link: string; title: string; state: string; stopReason?: string; childTools: number; childText?: string; virtual: boolean; canCancel?: boolean }> = {
  'acp-rfd-subagent-update.jsonl': { link: 'subagent_update', title: 'Find token validation', state: 'idle', stopReason: 'error', childTools: 1, childText: 'Checking middleware next.', virtual: false },
  'acp-pr855-kind-subagent.jsonl': { link: 'tool-kind', title: 'explorer: Find token validation', state: 'running', childTools: 0, virtual: false },
  'agentpool-qwen-legacy.jsonl': { link: 'agentpool-meta', title: 'explorer: Find token validation', state: 'running', childTools: 1, childText: 'Searching src/ ...', virtual: false },
  'claude-agent-acp-parentToolUseId.jsonl': { link: 'claude-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, virtual: true },
  'claude-code-acp-0.16.2.jsonl': { link: 'claude-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'codex-acp-2.6.0-legacy-collab.jsonl': { link: 'opaque-tool', title: 'Find where session tokens are validated in src/ and report file:line for each check.', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'gemini-cli-0.61.0.jsonl': { link: 'opaque-tool', title: 'codebase_investigator', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'jetbrains-air-subagent-spawned.jsonl': { link: 'subagent_spawned', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, virtual: false },
  // The sample ends with the client loading the child's own session: that session is the subagent's row.
  'opencode-1.18.33.jsonl': { link: 'opaque-tool', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: false },
  'qwen-code-0.24.4.jsonl': { link: 'qwen-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, virtual: true },
  'zed-subagent-session-info.jsonl': { link: 'zed-meta', title: 'explorer: Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, childText: 'Searching src/ for verifyToken...', virtual: false },
  // Written from published shapes, no recordings (test/unit/dialects.*.test.ts test each further).
  'cursor-agent-task.jsonl': { link: 'cursor-task', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 0, childText: TOKENS_ANSWER, virtual: true },
  'devin-acp-subagents.jsonl': { link: 'devin-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, childText: TOKENS_ANSWER, virtual: true },
  'omp-acp-agents.jsonl': { link: 'omp-agents', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 0, childText: TOKENS_ANSWER, virtual: true },
  'sudocode-subagent-events.jsonl': { link: 'sudocode-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, childText: TOKENS_ANSWER, virtual: true },
};

test('every dialect sample has an expectation', () => {
  assert.deepEqual(fixtureNames('dialects'), Object.keys(EXPECTED).sort());
});

for (const [name, expected] of Object.entries(EXPECTED)) {
  test(`dialect ${name}`, () => {
    const { store, snapshot } = replayFixture('dialects', name);
    assert.deepEqual(snapshot.diagnostics, []);
    const root = snapshot.sessions[0]!;
    const child = snapshot.sessions.find((s) => s.parentId === root.id);
    assert.ok(child, 'child found');
    assert.equal(child.link, expected.link);
    const record = store.getSession(child.id)!;
    assert.equal(record.title ?? record.description, expected.title);
    assert.equal(child.state, expected.state);
    if (expected.stopReason) assert.equal(child.stopReason, expected.stopReason);
    assert.equal(child.toolCalls.length, expected.childTools, 'child tool calls');
    if (expected.childText) assert.equal(child.text, expected.childText);
    assert.equal(record.origin === 'virtual', expected.virtual, 'virtual or real');
    if (expected.virtual) assert.equal(child.id, `${root.id}#${child.parentToolCallId}`);
    // Every sample's child has finished or never confirmed a cancel capability: nothing to cancel at the end.
    assert.equal(child.canCancel, false, 'cancel is offered only while a child works and grants it');
  });
}

test('claude: a subagent plan stays off the root plan', () => {
  const { store, snapshot } = replayFixture('dialects', 'claude-agent-acp-parentToolUseId.jsonl');
  const root = store.getSession(snapshot.sessions[0]!.id)!;
  assert.equal(root.plan, null);
});

test('qwen: subagentProgress copies do not replace the Agent call content, and go when the call ends', () => {
  const lines = fixtureText('dialects', 'qwen-code-0.24.4.jsonl').split('\n');
  const completion = lines.findIndex((l) => l.includes('"tool_call_update"') && l.includes('"completed"') && l.includes('"toolName": "agent"'));
  assert.ok(completion > 0, 'the sample completes the Agent call');
  const store = new SessionStore({ now: () => 0 });
  lines.slice(0, completion).forEach((line, i) => store.ingestLine(line, i + 1));
  const agentCall = () => Object.values(store.listSessions()[0]!.toolCalls)[0]!;
  assert.ok(agentCall().progress, 'progress line kept separately while the call runs');
  assert.ok(agentCall().content.every((c) => !(c.type === 'content' && JSON.stringify(c).includes(agentCall().progress!))), 'not in the content');
  lines.slice(completion).forEach((line, i) => store.ingestLine(line, completion + i + 1));
  assert.equal(agentCall().status, 'completed');
  assert.equal(agentCall().progress, undefined, 'no progress text on a finished call');
});

test('opencode: loading the child id reported at completion makes that session the subagent row', () => {
  const { store, snapshot } = replayFixture('dialects', 'opencode-1.18.33.jsonl');
  assert.deepEqual(snapshot.sessions.map((s) => s.id), ['ses_5f1e2d3c4b5aXyZ1abCDef', 'ses_5f1e2d0a9b8cQwE2rtYUio'], 'one row, not a grandchild');
  const loaded = snapshot.sessions[1]!;
  assert.equal(loaded.parentId, snapshot.sessions[0]!.id);
  assert.equal(loaded.parentToolCallId, 'toolu_01OpnCdTaskAbCdEf123456');
  assert.equal(store.getSession('ses_5f1e2d3c4b5aXyZ1abCDef#toolu_01OpnCdTaskAbCdEf123456')?.id, loaded.id, 'the virtual id finds the loaded row');
  assert.equal(store.listSessions()[0]!.toolCalls['toolu_01OpnCdTaskAbCdEf123456']!.childSessionId, loaded.id);
});
