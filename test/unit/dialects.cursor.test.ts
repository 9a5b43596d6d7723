// Cursor (`agent acp`): a generic `Task` tool call launches the subagent, and the `cursor/task` extension
// (a request some clients answer, a notification to others) details it by toolCallId. Sample written from
// Cursor's ACP docs and its clients (test/fixtures/dialects/README.md), no recording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFirst, replayFixture, Wire } from './support/storeFixtures';

const SAMPLE = 'cursor-agent-task.jsonl';
const ROOT = 'f5a8b2c4-7e1d-4a3b-9c6f-0d2e8b4a1c57';
const TASK = 'tool_8e2f1a0c-task';
const CHILD = `${ROOT}#${TASK}`;

test('cursor: the Task call is the child; cursor/task adds its type, model and agent id, and is not an unknown method', () => {
  const { store, snapshot } = replayFixture('dialects', SAMPLE);
  assert.deepEqual(snapshot.diagnostics, [], 'cursor/task is read, not reported');
  assert.deepEqual(
    snapshot.sessions.map((s) => [s.id, s.parentId, s.link, s.label, s.state, s.stopReason, s.model]),
    [
      [ROOT, null, 'root', 'Use a subagent to find where session tokens are validated.', 'idle', 'end_turn', null],
      [CHILD, ROOT, 'cursor-task', 'Find token validation', 'idle', 'end_turn', 'composer-2'],
    ],
  );
  const child = store.getSession(CHILD)!;
  assert.equal(child.subagentType, 'explore');
  assert.equal(child.meta?.['agentId'], 'bc-4f7a9e21');
  assert.equal(snapshot.sessions[1]!.text, 'Tokens are validated in src/auth/session.ts:42 and src/api/middleware.ts:17.', 'the Task result');
});

test('cursor: the child runs while its Task call is open; cursor/task alone does not end it', () => {
  const announced = replayFirst('dialects', SAMPLE, 9).getSession(CHILD)!;
  assert.equal(announced.state.state, 'running');
  assert.equal(announced.meta?.['model'], 'composer-2');
});

test('cursor: cursor/task before its tool call announces the call; the call then upserts the same card', () => {
  const w = new Wire().initialize().newSession('S');
  const end = w.prompt('S', 'Audit the middleware with a subagent.');
  w.store.ingest({ jsonrpc: '2.0', method: 'cursor/task', params: { toolCallId: 't1', description: 'Audit middleware', prompt: 'Check the middleware.', subagentType: 'explore' } }, 'agent->client');
  assert.deepEqual(
    w.store.listSessions().map((s) => [s.id, s.link, s.label, s.state.state]),
    [
      ['S', 'root', 'Audit the middleware with a subagent.', 'running'],
      ['S#t1', 'cursor-task', 'Audit middleware', 'running'],
    ],
  );
  w.update('S', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Task', status: 'in_progress', rawInput: { description: 'Audit middleware', prompt: 'Check the middleware.' } });
  w.update('S', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' });
  assert.deepEqual(w.session('S').toolCallOrder, ['t1']);
  assert.deepEqual([w.session('S#t1').state.state, w.session('S#t1').state.stopReason], ['idle', 'error']);
  end('end_turn');
  w.store.ingest({ jsonrpc: '2.0', method: 'cursor/task', params: { description: 'no call id' } }, 'agent->client');
  assert.deepEqual(w.codes(), ['invalid-message'], 'unusable, said once, never fatal');
});
