// sudocode (`scode acp`, subagentEvents v1): the spawning call's updates carry `_meta.sudocode.agentSpawn`
// {agentId, background, name, model, lifecycle{phase, status}}; the child's own updates on the parent session
// name its stream. Sample written from PR #718 and subagent_events.rs (test/fixtures/dialects/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureText, replayFirst, replayFixture } from './support/storeFixtures';
import { SessionStore } from '../../src/store/sessionStore';
import { replayText } from '../../src/store/replayReport';

const SAMPLE = 'sudocode-subagent-events.jsonl';
const ROOT = 'c3e1a7b9-2d4f-4c6e-8a0b-5f9d1e3c7a24';
const SPAWN = 'toolu_01SpawnTokFind00000001';
const CHILD = `${ROOT}#${SPAWN}`;

test('sudocode: agentSpawn makes the spawning call a child with its name, type and model; its stream is its own', () => {
  const { store, snapshot } = replayFixture('dialects', SAMPLE);
  assert.deepEqual(snapshot.diagnostics, []);
  assert.deepEqual(
    snapshot.sessions.map((s) => [s.id, s.parentId, s.link, s.label, s.model]),
    [
      [ROOT, null, 'root', 'Delegate: where are session tokens validated?', null],
      [CHILD, ROOT, 'sudocode-meta', 'Find token validation', 'claude-sonnet-4-5'],
    ],
  );
  const child = store.getSession(CHILD)!;
  assert.equal(child.subagentType, 'Explore');
  assert.deepEqual(child.toolCallOrder, ['agent-7c1f:toolu_01GrepVerify000000001']);
  assert.equal(snapshot.sessions[1]!.text, 'Tokens are validated in src/auth/session.ts:42 and src/api/middleware.ts:17.');
  assert.equal(snapshot.sessions[0]!.text, 'Started a background agent to find the checks.', 'the child’s words stay off the parent');
});

test('sudocode: a background child runs on after its call and its parent’s turn end, until its lifecycle finishes', () => {
  const started = replayFirst('dialects', SAMPLE, 7).getSession(CHILD)!;
  assert.deepEqual([started.state.state, started.background], ['running', true]);
  const parentDone = replayFirst('dialects', SAMPLE, 13);
  assert.deepEqual([parentDone.getSession(ROOT)!.state.state, parentDone.getSession(ROOT)!.state.stopReason], ['idle', 'end_turn']);
  assert.deepEqual([parentDone.getSession(CHILD)!.state.state, parentDone.getSession(CHILD)!.background], ['running', true], 'no completion from silence');
  const finished = replayFixture('dialects', SAMPLE).store.getSession(CHILD)!;
  assert.deepEqual([finished.state.state, finished.state.stopReason, finished.background], ['idle', 'end_turn', false]);
});

test('sudocode: a finished lifecycle with status failed or cancelled is the child’s end', () => {
  for (const [status, stopReason] of [
    ['failed', 'error'],
    ['cancelled', 'cancelled'],
  ] as const) {
    const store = new SessionStore({ now: () => 0 });
    replayText(store, fixtureText('dialects', SAMPLE).replace('"phase": "finished", "status": "completed"', `"phase": "finished", "status": "${status}"`));
    assert.deepEqual([store.getSession(CHILD)!.state.state, store.getSession(CHILD)!.state.stopReason], ['idle', stopReason], status);
  }
});
