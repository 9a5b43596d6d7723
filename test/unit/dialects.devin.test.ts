// Devin (`devin acp` with cognition.ai/subagentSupport): subagents reported on the parent session as
// `cognition.ai/subagent_started` / `subagent_completed` keyed by agentId, their own updates tagged with
// `subagent_context`. Sample written from captured frames (test/fixtures/dialects/README.md), no recording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFirst, replayFixture } from './support/storeFixtures';

const SAMPLE = 'devin-acp-subagents.jsonl';
const ROOT = '8d0f3c2a-41b7-4e9a-b1d5-6c2e7f9a0b13';
const FIND = `${ROOT}#a0ac9364`;
const AUDIT = `${ROOT}#b71e0d52`;
const at = (lines: number) => replayFirst('dialects', SAMPLE, lines);

test('devin: each subagent is a child named by its title, keyed by its agentId, with its own work', () => {
  const { store, snapshot } = replayFixture('dialects', SAMPLE);
  assert.deepEqual(snapshot.diagnostics, []);
  assert.deepEqual(
    snapshot.sessions.map((s) => [s.id, s.parentId, s.link, s.label]),
    [
      [ROOT, null, 'root', 'Use subagents: where are session tokens validated, and is the middleware audite…'],
      [FIND, ROOT, 'devin-meta', 'Find token validation'],
      [AUDIT, ROOT, 'devin-meta', 'Audit middleware'],
    ],
  );
  const find = store.getSession(FIND)!;
  assert.deepEqual(find.toolCallOrder, ['grep:0#83d6'], 'the tagged tool call is the child’s');
  assert.deepEqual(
    find.entries.filter((e) => e.kind === 'message').map((e) => e.kind === 'message' && [e.role, e.text]),
    [
      ['user', 'Find where session tokens are validated in src/ and report file:line for each check.'],
      ['thought', 'Looking for verifyToken callers.'],
      ['agent', 'Tokens are validated in src/auth/session.ts:42 and src/api/middleware.ts:17.'],
    ],
  );
  assert.equal(find.subagentType, 'Explore');
  assert.equal(snapshot.sessions[1]!.model, 'Subagent Default');
  const root = store.getSession(ROOT)!;
  assert.deepEqual(root.toolCallOrder, ['call_run_1', 'a0ac9364', 'call_run_2', 'b71e0d52'], 'run_subagent calls and the agent cards stay on the parent');
  assert.equal(snapshot.sessions[0]!.text, 'Tokens are checked in two places; the middleware audit could not read its file.');
  assert.ok(root.usage, 'the main agent’s usage (parentAgentId "root") stays on the root');
});

test('devin: running from subagent_started until subagent_completed says so; the spawn call completing says nothing', () => {
  const started = at(8).getSession(FIND)!;
  assert.equal(started.state.state, 'running');
  assert.equal(started.background, true, 'isBackground');
  const spawnReturned = at(12).getSession(FIND)!;
  assert.equal(at(12).getSession(ROOT)!.toolCalls['call_run_1']!.status, 'completed');
  assert.equal(spawnReturned.state.state, 'running', 'not finished by "Background subagent started."');
  const done = replayFixture('dialects', SAMPLE).store;
  assert.deepEqual([done.getSession(FIND)!.state.state, done.getSession(FIND)!.state.stopReason, done.getSession(FIND)!.background], ['idle', 'end_turn', false]);
  const audit = done.getSession(AUDIT)!;
  assert.deepEqual([audit.state.state, audit.state.stopReason, audit.state.error?.message], ['idle', 'error', 'Read was denied.']);
  assert.equal(audit.background, false);
  assert.equal(audit.toolCalls['read:0#c5b8']!.status, 'failed');
});
