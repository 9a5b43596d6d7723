// Turns the agent starts by itself (opencode after a background task ends, qwen's background notification):
// the session runs again and its history says the agent started it; silence ends nothing, the presentation
// alone calls a long-quiet one idle; the next prompt or the agent's own end (qwen) ends it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_STARTED_QUIET_MS, presentState, stateExplanation } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import { SessionStore as SessionStoreClass, type SessionStore } from '../../src/store/sessionStore';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { fixtureText, replayStepwise, type FixtureFolder } from './support/storeFixtures';

const rootOf = (store: SessionStore): SessionView => store.listSessions().find((session) => session.parentId === null)!;
const childOf = (store: SessionStore): SessionView => store.listSessions().find((session) => session.parentId !== null)!;

function lineOf(folder: FixtureFolder, name: string, matches: (text: string) => boolean, from = 0): number {
  const index = fixtureText(folder, name).split('\n').findIndex((text, i) => i >= from && matches(text));
  assert.ok(index >= 0);
  return index + 1;
}

/** The root as it was after each of the given lines. */
function rootAfter(folder: FixtureFolder, name: string, lines: readonly number[]): { store: SessionStore; at: Map<number, SessionView> } {
  const at = new Map<number, SessionView>();
  const store = replayStepwise(folder, name, (s, line) => {
    if (lines.includes(line)) at.set(line, structuredClone(rootOf(s)));
  });
  return { store, at };
}

test('opencode: text after the prompt response runs the root again, started by the agent; quiet is only a label; the next prompt ends it', () => {
  const file = 'opencode-agent-started-turn.jsonl';
  const firstEnd = lineOf('written', file, (t) => t.includes('"id":2,"result"'));
  const agentText = firstEnd + 1;
  const beforePrompt = lineOf('written', file, (t) => t.includes('"id":3,"method":"session/prompt"')) - 1;
  const { store, at } = rootAfter('written', file, [firstEnd, agentText, beforePrompt]);

  assert.deepEqual(at.get(firstEnd)!.state, { state: 'idle', stopReason: 'end_turn' });
  const started = at.get(agentText)!;
  assert.equal(started.state.state, 'running', 'the session works again');
  assert.deepEqual(started.stateHistory.at(-1), { state: 'running', at: started.stateHistory.at(-1)!.at, source: 'agent-started' });
  assert.equal(started.activePromptId, null, 'no prompt is in flight');
  assert.equal(presentState(started.state, started).label, 'Running (agent started)');
  assert.match(stateExplanation(started.stateHistory, { formatTime: () => 't' }), /done t, then started by the agent t \(no prompt was in flight\)$/i);

  const quiet = at.get(beforePrompt)!;
  assert.equal(quiet.state.state, 'running', 'silence ends nothing');
  assert.equal(quiet.stateHistory.length, started.stateHistory.length, 'and writes no history');
  assert.equal(presentState(quiet.state, quiet, quiet.updatedAt + AGENT_STARTED_QUIET_MS - 1).label, 'Running (agent started)');
  assert.equal(presentState(quiet.state, quiet, quiet.updatedAt + AGENT_STARTED_QUIET_MS).label, 'Idle (quiet)');
  assert.ok(!presentState(quiet.state, quiet, quiet.updatedAt + 3_600_000).label.includes('Done'), 'quiet is not completion');

  const root = rootOf(store);
  assert.deepEqual(root.state, { state: 'idle', stopReason: 'end_turn' });
  assert.deepEqual(root.stateHistory.slice(-3).map((h) => `${h.state}/${h.source}`), ['running/agent-started', 'running/client', 'idle/agent']);
  // opencode starts a turn by itself when a background job ended: its one background child ended then (#21 item 3).
  assert.deepEqual([childOf(store).state.state, childOf(store).state.stopReason], ['idle', 'ended']);
  assert.equal(childOf(store).background, false);
});

test('the tree says the same as the chat: its label reads the same presentation at its own clock', () => {
  const file = 'opencode-agent-started-turn.jsonl';
  const beforePrompt = lineOf('written', file, (t) => t.includes('"id":3,"method":"session/prompt"')) - 1;
  const store = new SessionStoreClass({ now: () => 0 });
  fixtureText('written', file).split('\n').slice(0, beforePrompt).forEach((text, i) => store.ingestLine(text, i + 1));
  const root = rootOf(store);
  const runtime = { id: 'c1', agent: { id: 'opencode', name: 'opencode', command: 'opencode' }, live: true, status: 'ready' as const, store };
  const item = (now: number) => sessionItemOf(runtime, root.id, now)!;
  assert.match(item(root.updatedAt + 1000).description, /^Running \(agent started\) · /);
  assert.equal(item(root.updatedAt + 1000).icon, 'loading~spin');
  assert.match(item(root.updatedAt + AGENT_STARTED_QUIET_MS).description, /^Idle \(quiet\) · /);
  assert.equal(item(root.updatedAt + AGENT_STARTED_QUIET_MS).icon, 'circle-large-outline');
  assert.match(item(root.updatedAt + AGENT_STARTED_QUIET_MS).tooltip, /started by the agent/);
});

test('qwen: the background notification runs the root as agent-started, and _qwencode/end_turn ends it', () => {
  const file = 'qwen-background-notify-only.jsonl';
  const notification = lineOf('written', file, (t) => t.includes('background_notification'));
  const { store, at } = rootAfter('written', file, [notification]);
  assert.equal(at.get(notification)!.stateHistory.at(-1)?.source, 'agent-started');
  assert.equal(at.get(notification)!.state.state, 'running');
  const root = rootOf(store);
  assert.deepEqual(root.state, { state: 'idle', stopReason: 'end_turn' });
  assert.equal(root.stateHistory.at(-1)?.source, 'agent', 'the agent said the turn ended');
});

test('session/load replays old turns with no prompt in flight: that is history, not an agent-started turn', () => {
  const store = replayStepwise('recorded-new', 'opencode-load-child.jsonl');
  for (const session of store.listSessions()) assert.ok(!session.stateHistory.some((h) => h.source === 'agent-started'), session.label);
});

test('bookkeeping with no prompt in flight (commands, usage, an empty chunk) does not start anything', () => {
  for (const [folder, file] of [['recorded-new', 'opencode-single.jsonl'], ['recorded-new', 'gemini-single.jsonl'], ['traces', 'claude2-single.jsonl'], ['traces', 'codex-single.jsonl']] as const) {
    const store = replayStepwise(folder, file);
    for (const session of store.listSessions()) assert.ok(!session.stateHistory.some((h) => h.source === 'agent-started'), `${file}: ${session.label}`);
  }
});
