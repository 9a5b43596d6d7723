// opencode's background task (fixtures/written/opencode-background-task.jsonl, see its README section): the task
// completes at once with a "running" launch, the prompt ends end_turn, then opencode runs a turn of its own on the
// root and reports nothing more. The root shows a run the agent started that never ended; that run is opencode's
// word that the background job ended (#21 item 3), so the child ends then; nothing holds back the next prompt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKGROUND_QUIET_MS, presentState } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { fixtureText, replayStepwise } from './support/storeFixtures';

const FILE = 'opencode-background-task.jsonl';
const ROOT = 'ses_dcf2a59e4ffeihgR8Z4F75fiM2';
const CHILD_OWN_ID = 'ses_dcf2a50c1ffeR7kWm2QpXv9TbN';

const rootOf = (store: SessionStore): SessionView => store.listSessions().find((s) => s.parentId === null)!;
const childOf = (store: SessionStore): SessionView => store.listSessions().find((s) => s.parentId !== null)!;
const history = (session: SessionView): string[] => session.stateHistory.map((h) => `${h.state}${h.stopReason ? `/${h.stopReason}` : ''}@${h.source}`);

function lineOf(matches: (text: string) => boolean): number {
  const index = fixtureText('written', FILE).split('\n').findIndex(matches);
  assert.ok(index >= 0, 'the transcript has that line');
  return index + 1;
}

/** The store after the whole fixture, and copies of the root and child after the given lines. */
function replay(lines: readonly number[]): { store: SessionStore; at: Map<number, { root: SessionView; child: SessionView | undefined }> } {
  const at = new Map<number, { root: SessionView; child: SessionView | undefined }>();
  const store = replayStepwise('written', FILE, (s, line) => {
    if (lines.includes(line)) at.set(line, { root: structuredClone(rootOf(s)), child: s.listSessions().some((x) => x.parentId !== null) ? structuredClone(childOf(s)) : undefined });
  });
  return { store, at };
}

const launched = lineOf((t) => t.includes('"status":"completed"') && t.includes('state=\\"running\\"'));
const promptEnd = lineOf((t) => t.includes('"id":2,"result"'));
const agentText = lineOf((t) => t.includes('Background task result received'));

test('opencode background task: the launch completes the call, not the child; the prompt ends the root', () => {
  const { at } = replay([launched, promptEnd]);
  const afterLaunch = at.get(launched)!;
  assert.equal(afterLaunch.root.toolCalls['call_main_003']?.status, 'completed');
  const child = afterLaunch.child!;
  assert.deepEqual([child.link, child.label, child.state.state, child.background], ['opaque-tool', 'Read notes file', 'running', true]);
  assert.equal(child.remoteSessionId, CHILD_OWN_ID, 'its own session id, from rawOutput.metadata.sessionId');
  assert.equal(presentState(child.state, child).label, 'Running in background');

  const ended = at.get(promptEnd)!;
  assert.deepEqual(ended.root.state, { state: 'idle', stopReason: 'end_turn' });
  assert.equal(ended.root.activePromptId, null);
  assert.deepEqual([ended.child!.state.state, ended.child!.background], ['running', true], 'the background child outlives the turn');
});

test('opencode background task: the text after the prompt response is a run the agent started, which never ends', () => {
  const { store, at } = replay([agentText]);
  const started = at.get(agentText)!.root;
  assert.equal(started.state.state, 'running');
  assert.equal(started.stateHistory.at(-1)?.source, 'agent-started');
  assert.equal(started.activePromptId, null, 'no prompt is in flight');

  const root = rootOf(store);
  assert.equal(root.id, ROOT);
  assert.deepEqual(root.state, { state: 'running' }, 'nothing on the wire ended it');
  assert.deepEqual(history(root), ['unconfirmed@client', 'idle@client', 'running@client', 'idle/end_turn@agent', 'running@agent-started']);
  assert.equal(presentState(root.state, root, root.updatedAt).label, 'Running (agent started)');
  // Its text is a message of its own, not appended to the finished turn's.
  const agentMessages = root.entries.filter((e) => e.kind === 'message' && e.role === 'agent').map((e) => (e.kind === 'message' ? e.text : ''));
  assert.deepEqual(agentMessages, [
    'Parent: launched one background task; I will report when it finishes.',
    'Background task result received: "Read notes file" finished; notes.txt starts with "hello from notes.txt".',
  ]);

  // opencode starts that run only when a background job ends (its inject()): the one background child ended.
  const child = childOf(store);
  assert.deepEqual([child.state.state, child.state.stopReason, child.background], ['idle', 'ended', false]);
  assert.deepEqual(history(child), ['running@tool-call', 'idle/ended@turn']);
  assert.equal(presentState(child.state, child).label, 'Ended', 'neither Done nor Failed: opencode does not say how it went');
  assert.equal(store.diagnostics.length, 0);
});

test('opencode background task: before the agent starts its run the child works in the background; quiet for long, it says no end was reported instead of spinning', () => {
  const { at } = replay([promptEnd]);
  const child = at.get(promptEnd)!.child!;
  assert.equal(presentState(child.state, child, child.updatedAt + 1000).label, 'Running in background');
  const quiet = presentState(child.state, child, child.updatedAt + BACKGROUND_QUIET_MS);
  assert.deepEqual([quiet.label, quiet.spin], ['No end reported', false]);
  assert.equal(child.state.state, 'running', 'only the words change: silence ends nothing');
});

test('two opencode background children and one agent-started run: which one ended is unknown, so both keep running', () => {
  const lines = fixtureText('written', FILE).split('\n');
  const launchLines = lines.filter((t) => t.includes('call_main_003'));
  const store = replayStepwise('written', FILE, (s, line) => {
    // Right after the first launch completed, a second one like it (another call, another job).
    if (line !== launched) return;
    launchLines.forEach((text, i) => s.ingestLine(text.replaceAll('call_main_003', 'call_main_004').replaceAll('ses_dcf2a50c1ffeR7kWm2QpXv9TbN', 'ses_dcf2a50c1ffeSecondJobXXXXXXX'), 10_000 + i));
  });
  const children = store.listSessions().filter((s) => s.parentId !== null);
  assert.equal(children.length, 2);
  for (const child of children) assert.deepEqual([child.state.state, child.background], ['running', true]);
});

test('opencode background task: nothing in the store holds back the next prompt; it runs as the client\'s turn', () => {
  const { store } = replay([]);
  const verdict = store.actionsFor(ROOT);
  assert.equal(verdict.prompt.allowed, true);
  assert.equal(verdict.cancel.allowed, true, 'the agent-started run can be cancelled');
  assert.equal(rootOf(store).activePromptId, null, 'no prompt of ours awaits a response (a relay would not wait)');

  store.ingest({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: ROOT, prompt: [{ type: 'text', text: 'And now?' }] } }, 'client->agent');
  const root = rootOf(store);
  assert.notEqual(root.activePromptId, null, 'the prompt is in flight');
  assert.deepEqual(history(root).slice(-2), ['running@agent-started', 'running@client'], 'the prompt makes the run the client\'s');
  store.ingest({ jsonrpc: '2.0', id: 3, result: { stopReason: 'end_turn' } }, 'agent->client');
  assert.deepEqual(rootOf(store).state, { state: 'idle', stopReason: 'end_turn' });
  assert.deepEqual([childOf(store).state.state, childOf(store).state.stopReason], ['idle', 'ended']);
});
