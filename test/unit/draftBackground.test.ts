// ACP draft (PR #855): a `kind: "subagent"` call whose run info says `runMode: "background"` launches a child
// that outlives the parent's turn. The store flags it background from the start (the turn's end neither stops
// its call nor ends it), and its call's end is its end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subtreeSummary } from '../../src/store/subtreeSummary';
import { Wire } from './support/storeFixtures';

const launch = (runMode: 'background' | 'foreground') => ({
  sessionUpdate: 'tool_call',
  toolCallId: 'call_1',
  title: 'explorer: Explorer',
  kind: 'subagent',
  status: 'pending',
  subagent: { childSessionId: 'C', subagentId: 'explorer', runMode, displayName: 'Explorer' },
});

test('a background draft subagent runs on after the turn, flagged background, until its call ends', () => {
  const w = new Wire().newSession('R');
  const end = w.prompt('R', 'explore in the background');
  w.update('R', launch('background'));
  w.update('C', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Looking around.' } });
  end('end_turn');
  const child = w.session('C');
  assert.deepEqual([child.state.state, child.background], ['running', true]);
  assert.equal(w.session('R').toolCalls['call_1']?.stoppedByTurn, undefined, 'its call is not stopped with the turn');
  assert.equal(subtreeSummary(w.store, 'R')?.backgroundRunning, 1);
  w.update('R', { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed' });
  assert.deepEqual([w.session('C').state.state, w.session('C').state.stopReason, w.session('C').background], ['idle', 'end_turn', false]);
});

test('a foreground draft subagent is not background', () => {
  const w = new Wire().newSession('R');
  w.prompt('R', 'explore');
  w.update('R', launch('foreground'));
  assert.equal(w.session('C').background, false);
});
