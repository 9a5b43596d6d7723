// oh-my-pi (`omp acp` with clientCapabilities.extensions.agents): the `_omp/agents/update` roster, the
// `_omp/agents/progress` snapshots, and the client's `_omp/agents/list` / `_omp/agents/messages` requests.
// No message names an ACP session. Sample written from omp's docs/acp-agents.md (test/fixtures/dialects/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFirst, replayFixture, Wire } from './support/storeFixtures';

const SAMPLE = 'omp-acp-agents.jsonl';
const ROOT = '01JEOMP0ACP7SESSION0000001';
const CHILD = `${ROOT}#omp:AuthLoader`;
const TASK = 'Find where session tokens are validated in src/ and report file:line for each check.';

test('omp: a roster subagent is a child of the one root, named by its task, with its model and transcript', () => {
  const { store, snapshot } = replayFixture('dialects', SAMPLE);
  assert.deepEqual(snapshot.diagnostics, []);
  assert.deepEqual(
    snapshot.sessions.map((s) => [s.id, s.parentId, s.link, s.label, s.state, s.stopReason, s.model]),
    [
      [ROOT, null, 'root', 'Delegate: where are session tokens validated?', 'idle', 'end_turn', null],
      [CHILD, ROOT, 'omp-agents', 'Find token validation', 'idle', 'end_turn', 'anthropic/claude-sonnet-4-5'],
    ],
  );
  const child = store.getSession(CHILD)!;
  assert.equal(child.subagentType, 'task');
  assert.deepEqual(
    child.entries.filter((e) => e.kind === 'message').map((e) => e.kind === 'message' && [e.role, e.text]),
    [
      ['user', TASK],
      ['thought', 'Grep for verifyToken, then read the matches.'],
      ['agent', 'Tokens are validated in src/auth/session.ts:42 and src/api/middleware.ts:17.'],
    ],
    'the task once, then the transcript _omp/agents/messages returned',
  );
});

test('omp: the roster names it (running), progress names its task, and it ends when progress says completed', () => {
  const rostered = replayFirst('dialects', SAMPLE, 7).getSession(CHILD)!;
  assert.deepEqual([rostered.label, rostered.state.state], ['AuthLoader', 'running']);
  const progressing = replayFirst('dialects', SAMPLE, 8).getSession(CHILD)!;
  assert.deepEqual([progressing.label, progressing.state.state], ['Find token validation', 'running']);
  const completed = replayFirst('dialects', SAMPLE, 11).getSession(CHILD)!;
  assert.deepEqual([completed.state.state, completed.state.stopReason], ['idle', 'end_turn']);
});

function omp(): Wire {
  const w = new Wire().initialize().newSession('S');
  w.prompt('S', 'Delegate.');
  return w;
}

function progress(w: Wire, agent: Record<string, unknown>): void {
  w.store.ingest({ jsonrpc: '2.0', method: '_omp/agents/progress', params: { agent } }, 'agent->client');
}

test('omp: pending is no state yet, aborted is cancelled, failed is an error; nested subagents nest', () => {
  const w = omp();
  progress(w, { id: 'A', status: 'pending', description: 'read a.ts' });
  assert.equal(w.session('S#omp:A').state.state, 'unconfirmed', 'not running before it says so');
  progress(w, { id: 'A', status: 'aborted' });
  assert.deepEqual([w.session('S#omp:A').state.state, w.session('S#omp:A').state.stopReason], ['idle', 'cancelled']);
  w.store.ingest({ jsonrpc: '2.0', method: '_omp/agents/update', params: { agents: [{ id: 'B', kind: 'sub', status: 'running', displayName: 'B' }, { id: 'C', kind: 'sub', parentId: 'B', status: 'running', displayName: 'Scout' }] } }, 'agent->client');
  assert.equal(w.session('S#omp:B#omp:C').parentId, 'S#omp:B');
  progress(w, { id: 'C', status: 'failed' });
  assert.deepEqual([w.session('S#omp:B#omp:C').state.state, w.session('S#omp:B#omp:C').state.stopReason], ['idle', 'error']);
  assert.deepEqual(w.codes(), []);
});

test('omp: the same transcript page read twice adds nothing; with two roots and no prompt the roster is not attached', () => {
  const w = omp();
  progress(w, { id: 'A', status: 'running', description: 'read a.ts' });
  const page = { fromByte: 0, nextByte: 10, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'a = 1' }] }] };
  w.clientRequest('_omp/agents/messages', { agentId: 'A', fromByte: 0 }, page);
  w.clientRequest('_omp/agents/messages', { agentId: 'A', fromByte: 0 }, page);
  assert.equal(w.session('S#omp:A').entries.filter((e) => e.kind === 'message' && e.role === 'agent').length, 1);

  const two = new Wire().initialize().newSession('S1').newSession('S2');
  two.clientRequest('_omp/agents/list', {}, { agents: [{ id: 'A', kind: 'sub', status: 'running' }] });
  assert.deepEqual(two.store.listSessions().map((s) => s.id), ['S1', 'S2']);
  assert.deepEqual(two.codes(), ['ambiguous-parent']);
});
