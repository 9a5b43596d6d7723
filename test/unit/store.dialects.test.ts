// One sample per wire dialect (rebuilt from each agent's source): the child is found and linked the right way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureNames, replayFixture } from './support/storeFixtures';

const EXPECTED: Record<string, { link: string; title: string; state: string; stopReason?: string; childTools: number; childText?: string; virtual: boolean; canCancel?: boolean }> = {
  'acp-rfd-subagent-update.jsonl': { link: 'subagent_update', title: 'Find token validation', state: 'idle', stopReason: 'error', childTools: 1, childText: 'Checking middleware next.', virtual: false, canCancel: true },
  'acp-pr855-kind-subagent.jsonl': { link: 'tool-kind', title: 'explorer: Find token validation', state: 'running', childTools: 0, virtual: false },
  'agentpool-qwen-legacy.jsonl': { link: 'agentpool-meta', title: 'explorer: Find token validation', state: 'running', childTools: 1, childText: 'Searching src/ ...', virtual: false },
  'claude-agent-acp-parentToolUseId.jsonl': { link: 'claude-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, virtual: true },
  'claude-code-acp-0.16.2.jsonl': { link: 'claude-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'codex-acp-2.6.0-legacy-collab.jsonl': { link: 'opaque-tool', title: 'Find where session tokens are validated in src/ and report file:line for each check.', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'gemini-cli-0.61.0.jsonl': { link: 'opaque-tool', title: 'codebase_investigator', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'jetbrains-air-subagent-spawned.jsonl': { link: 'subagent_spawned', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, virtual: false },
  'opencode-1.18.33.jsonl': { link: 'opaque-tool', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 0, virtual: true },
  'qwen-code-0.24.4.jsonl': { link: 'qwen-meta', title: 'Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, virtual: true },
  'zed-subagent-session-info.jsonl': { link: 'zed-meta', title: 'explorer: Find token validation', state: 'idle', stopReason: 'end_turn', childTools: 1, childText: 'Searching src/ for verifyToken...', virtual: false },
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
    assert.equal(child.canCancel, expected.canCancel ?? false, 'only the RFD form grants child cancel');
  });
}

test('claude: a subagent plan stays off the root plan', () => {
  const { store, snapshot } = replayFixture('dialects', 'claude-agent-acp-parentToolUseId.jsonl');
  const root = store.getSession(snapshot.sessions[0]!.id)!;
  assert.equal(root.plan, null);
});

test('qwen: subagentProgress copies do not replace the Agent call content', () => {
  const { store, snapshot } = replayFixture('dialects', 'qwen-code-0.24.4.jsonl');
  const root = store.getSession(snapshot.sessions[0]!.id)!;
  const agentCall = Object.values(root.toolCalls)[0]!;
  assert.ok(agentCall.progress, 'progress line kept separately');
});

test('opencode: the child id reported at completion nests the loaded child transcript', () => {
  const { snapshot } = replayFixture('dialects', 'opencode-1.18.33.jsonl');
  const loaded = snapshot.sessions.find((s) => s.id === 'ses_5f1e2d0a9b8cQwE2rtYUio');
  assert.ok(loaded);
  assert.equal(loaded.parentId, snapshot.sessions[1]!.id);
});
