// A child whose end follows the user's cancel of it or of an ancestor is Cancelled, whatever word the agent
// used for it: opencode, gemini and qwen fail the launch call right after the client's session/cancel of the
// parent. The agent's own words stay available ("reported: …"); a failure with no cancel before it stays Failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { presentState } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { replayStepwise, Wire, type FixtureFolder } from './support/storeFixtures';

const childOf = (store: SessionStore): SessionView => store.listSessions().find((s) => s.parentId !== null)!;

function ended(folder: FixtureFolder, name: string): SessionView {
  return childOf(replayStepwise(folder, name));
}

for (const [folder, name, words] of [
  ['recorded-new', 'gemini-cancel.jsonl', 'This operation was aborted'],
  ['traces', 'qwen-cancel.jsonl', 'The tool had already completed; its output was discarded.'],
  ['written', 'opencode-task-failed.jsonl', 'Task cancelled'],
] as const) {
  test(`${name}: the launch call failed after the user's cancel, so the child is Cancelled and keeps the agent's words`, () => {
    const child = ended(folder, name);
    assert.deepEqual([child.state.state, child.state.stopReason], ['idle', 'cancelled']);
    assert.equal(child.state.reported, words);
    assert.equal(child.state.error, undefined, 'not shown as an error');
    assert.equal(presentState(child.state, child).label, 'Cancelled');
  });
}

const launch = (status: string, extra: Record<string, unknown> = {}) => ({
  sessionUpdate: 'tool_call_update',
  toolCallId: 'invoke_agent__1',
  status,
  kind: 'think',
  title: 'Delegating to agent \'codebase_investigator\'',
  ...extra,
});

test('a failure with no cancel before it is Failed, with its error', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'go');
  w.update('R', { ...launch('in_progress'), sessionUpdate: 'tool_call' });
  w.update('R', launch('failed', { content: [{ type: 'content', content: { type: 'text', text: 'quota exceeded' } }] }));
  const child = childOf(w.store);
  assert.deepEqual([child.state.state, child.state.stopReason], ['idle', 'error']);
  assert.equal(child.state.reported, undefined);
});

/** A turn that launched a child, then the user's cancel ended it (the child with it). */
function cancelledTurn(): Wire {
  const w = new Wire().newSession('R');
  const end = w.prompt('R', 'go');
  w.update('R', { ...launch('in_progress'), sessionUpdate: 'tool_call' });
  w.cancel('R');
  end('cancelled');
  return w;
}

test('a failure that comes after the cancelled turn already ended the child keeps it Cancelled, now with the words', () => {
  const w = cancelledTurn();
  assert.deepEqual(childOf(w.store).state, { state: 'idle', stopReason: 'cancelled' });
  w.update('R', launch('failed', { rawOutput: { error: 'Tool execution aborted', metadata: { interrupted: true } } }));
  const child = childOf(w.store);
  assert.deepEqual([child.state.state, child.state.stopReason, child.state.reported], ['idle', 'cancelled', 'Tool execution aborted']);
});

test('after the next turn started, a late failure is a failure again', () => {
  const w = cancelledTurn();
  w.prompt('R', 'again');
  w.update('R', { ...launch('in_progress'), toolCallId: 'invoke_agent__2', sessionUpdate: 'tool_call' });
  w.update('R', launch('failed', { toolCallId: 'invoke_agent__2' }));
  const second = w.store.listSessions().filter((s) => s.parentId !== null).at(-1)!;
  assert.deepEqual([second.state.state, second.state.stopReason], ['idle', 'error']);
});

test('subchats replay --json says the agent\'s words beside the stop reason', async () => {
  const { toReplaySnapshot } = await import('../../src/store/replayReport');
  const snapshot = toReplaySnapshot(replayStepwise('recorded-new', 'gemini-cancel.jsonl'));
  const child = snapshot.sessions.find((s) => s.parentId !== null)!;
  assert.deepEqual([child.state, child.stopReason, child.reported], ['idle', 'cancelled', 'This operation was aborted']);
});
