// The wrong states found with real agents ("one truth" issue), each from a transcript that reproduces it:
// recorded ones (fixtures/traces, fixtures/recorded-new) and ones written from the agents' own shapes
// (fixtures/written, see its README).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presentState, presentToolStatus, stateExplanation, toolProgress } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { buildSnapshot } from '../../src/webviews/chatProjection';
import { announce, fixtureNames, replayStepwise, Wire, type FixtureFolder } from './support/storeFixtures';

function only<T>(items: readonly T[], what: string): T {
  assert.equal(items.length, 1, `exactly one ${what}`);
  return items[0]!;
}

function childOf(store: SessionStore): SessionView {
  return only(store.listSessions().filter((s) => s.parentId !== null), 'child');
}

function rootOf(store: SessionStore): SessionView {
  return only(store.listSessions().filter((s) => s.parentId === null), 'root');
}

function callTitled(session: SessionView, title: string) {
  const call = Object.values(session.toolCalls).find((c) => c.title === title);
  assert.ok(call, `a "${title}" call on ${session.label}`);
  return call;
}

function lineOf(folder: FixtureFolder, name: string, predicate: (text: string) => boolean): number {
  let found = -1;
  replayStepwise(folder, name, (_store, line, text) => {
    if (found < 0 && predicate(text)) found = line;
  });
  assert.ok(found > 0, 'the transcript has that line');
  return found;
}

test('1. a child closed by a cancelled turn keeps that stop reason after a later turn (claude-agent-acp 0.23.1)', () => {
  const secondPrompt = lineOf('written', 'claude-cancel-then-prompt.jsonl', (t) => t.includes('"session/prompt"') && t.includes('"id":3'));
  let afterCancel: string | undefined;
  const store = replayStepwise('written', 'claude-cancel-then-prompt.jsonl', (s, line) => {
    if (line === secondPrompt - 1) afterCancel = `${childOf(s).state.state}/${childOf(s).state.stopReason}`;
  });
  assert.equal(afterCancel, 'idle/cancelled', 'the cancelled turn ended the child');
  const child = childOf(store);
  assert.deepEqual([rootOf(store).state.state, rootOf(store).state.stopReason], ['idle', 'end_turn'], 'the second turn ended normally');
  assert.deepEqual([child.state.state, child.state.stopReason], ['idle', 'cancelled'], 'and the child still shows the cancelled turn');
  assert.equal(child.stateHistory.at(-1)?.source, 'turn', 'it ended with its parent\'s turn, not by its own report');
  assert.equal(presentState(child.state).label, 'Cancelled');
});

test('2. calls left open by a cancelled turn show stopped with that turn and stop spinning (claude Agent, codex wait)', () => {
  const claude = replayStepwise('written', 'claude-cancel-then-prompt.jsonl');
  const agentCall = Object.values(rootOf(claude).toolCalls)[0]!;
  const childCall = Object.values(childOf(claude).toolCalls)[0]!;
  for (const call of [agentCall, childCall]) {
    assert.ok(call.status === 'pending' || call.status === 'in_progress', 'the agent never closed it');
    assert.deepEqual(call.stoppedByTurn?.stopReason, 'cancelled');
    const shown = presentToolStatus(call);
    assert.equal(shown.spin, false);
    assert.equal(shown.label, 'stopped · turn cancelled');
  }
  const codex = replayStepwise('written', 'codex-legacy-cancel-wait.jsonl');
  const wait = callTitled(rootOf(codex), 'wait');
  assert.equal(wait.status, 'in_progress');
  assert.equal(wait.stoppedByTurn?.stopReason, 'cancelled');
  assert.equal(presentToolStatus(wait).label, 'stopped · turn cancelled');
  // Completed calls are the agent's report and stay as reported.
  assert.equal(callTitled(rootOf(codex), 'spawnAgent').stoppedByTurn, undefined);
});

test('2b. a call the agent reports on after the turn ended follows the report again', () => {
  const w = new Wire().newSession('R');
  const end = w.prompt('R', 'go');
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'in_progress' });
  end('cancelled');
  assert.equal(w.session('R').toolCalls['t1']?.stoppedByTurn?.stopReason, 'cancelled');
  w.update('R', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
  assert.equal(w.session('R').toolCalls['t1']?.stoppedByTurn, undefined);
  assert.equal(presentToolStatus(w.session('R').toolCalls['t1']!).label, 'completed');
});

test('3. progress text belongs to a running call: a completed qwen Agent call no longer reads "Waiting for permission"', () => {
  const waiting = lineOf('traces', 'qwen-single.jsonl', (t) => t.includes('Waiting for permission: Shell'));
  let during: string | undefined;
  const store = replayStepwise('traces', 'qwen-single.jsonl', (s, line) => {
    if (line === waiting) during = toolProgress(Object.values(rootOf(s).toolCalls)[0]!);
  });
  assert.equal(during, 'Waiting for permission: Shell');
  const agentCall = Object.values(rootOf(store).toolCalls)[0]!;
  assert.equal(agentCall.status, 'completed');
  assert.equal(agentCall.progress, undefined);
});

test('4. every session always has a human label, after every line of every transcript', () => {
  const folders: FixtureFolder[] = ['traces', 'dialects', 'written', 'recorded-new'];
  for (const folder of folders) {
    for (const name of fixtureNames(folder)) {
      replayStepwise(folder, name, (store, line) => {
        const ids = store.listSessions().map((s) => s.id);
        for (const session of store.listSessions()) {
          assert.ok(session.label.trim() !== '', `${name}:${line} ${session.id} has a label`);
          for (const id of ids) assert.ok(!session.label.includes(id), `${name}:${line} label "${session.label}" shows the id ${id}`);
          assert.ok(!/#(call|toolu)_/.test(session.label), `${name}:${line} label "${session.label}" shows a virtual id`);
        }
      });
    }
  }
});

test('4b. roots without an agent title are named by their first prompt (qwen, claude 0.23.1, codex before its title)', () => {
  assert.match(rootOf(replayStepwise('traces', 'qwen-single.jsonl')).label, /^\[\[scenario:single]] .*delegate reading notes/);
  assert.match(rootOf(replayStepwise('traces', 'claude-single.jsonl')).label, /^SCENARIO:single .*delegate/);
  const titled = lineOf('traces', 'codex-single.jsonl', (t) => t.includes('"session_info_update"') && t.includes('"title"'));
  let before: string | undefined;
  replayStepwise('traces', 'codex-single.jsonl', (s, line) => {
    if (line === titled - 1) before = rootOf(s).label;
  });
  assert.match(before ?? '', /^SCENARIO:single /, 'named by the prompt during the first turn');
  const virtual = childOf(replayStepwise('traces', 'claude-single.jsonl'));
  assert.equal(virtual.label, 'Read notes file', 'a virtual child is named by its task');
});

test('6. set_mode and set_config_option results are applied to the store, which is the only reducer of the wire', () => {
  const w = new Wire();
  w.store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }, 'client->agent');
  w.store.ingest(
    {
      jsonrpc: '2.0',
      id: 1,
      result: {
        sessionId: 'S',
        modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
        configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }],
      },
    },
    'agent->client',
  );
  w.store.ingest({ jsonrpc: '2.0', id: 2, method: 'session/set_mode', params: { sessionId: 'S', modeId: 'code' } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 2, result: {} }, 'agent->client');
  assert.equal(w.session('S').currentModeId, 'code', 'the accepted mode is current without a current_mode_update');
  w.store.ingest({ jsonrpc: '2.0', id: 3, method: 'session/set_config_option', params: { sessionId: 'S', configId: 'model', value: 'b' } }, 'client->agent');
  w.store.ingest(
    { jsonrpc: '2.0', id: 3, result: { configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'b', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }] } },
    'agent->client',
  );
  assert.equal((w.session('S').configOptions as { currentValue: string }[])[0]?.currentValue, 'b');
  // A refused change changes nothing.
  w.store.ingest({ jsonrpc: '2.0', id: 4, method: 'session/set_mode', params: { sessionId: 'S', modeId: 'ask' } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'no' } }, 'agent->client');
  assert.equal(w.session('S').currentModeId, 'code');
});

test('7. cancel is offered only while a session works, even when a finished child keeps capabilities.cancel (claude-agent-acp 0.101.0)', () => {
  const idleReport = lineOf('traces', 'claude2-single.jsonl', (t) => t.includes('"subagent_update"') && t.includes('"idle"'));
  let whileRunning: boolean | undefined;
  const store = replayStepwise('traces', 'claude2-single.jsonl', (s, line) => {
    if (line === idleReport - 1) whileRunning = s.actionsFor(childOf(s).id).cancel.allowed;
  });
  assert.equal(whileRunning, true);
  const child = childOf(store);
  assert.deepEqual(child.capabilities?.['cancel'], {}, 'the agent never withdrew the capability');
  const verdict = store.actionsFor(child.id).cancel;
  assert.equal(verdict.allowed, false);
  assert.match(verdict.reason ?? '', /Nothing to cancel: "Read notes file" is not working/);
  assert.equal(store.actionsFor(rootOf(store).id).cancel.allowed, false, 'an idle root has nothing to cancel either');
});

test('8. a background child runs on after its launch call completed, until its end is reported (qwen)', () => {
  const promptEnd = lineOf('written', 'qwen-background-notify-only.jsonl', (t) => t.includes('"stopReason":"end_turn"') || t.includes('"stopReason": "end_turn"'));
  let afterPrompt: SessionView | undefined;
  const store = replayStepwise('written', 'qwen-background-notify-only.jsonl', (s, line) => {
    if (line === promptEnd) afterPrompt = structuredClone(childOf(s));
  });
  assert.equal(afterPrompt?.state.state, 'running', 'still working when the parent turn ended');
  assert.equal(afterPrompt?.background, true);
  assert.equal(presentState(afterPrompt!.state, { background: true }).label, 'Running in background');
  const child = childOf(store);
  assert.deepEqual([child.state.state, child.state.stopReason, child.background], ['idle', 'end_turn', false], 'ended by qwen\'s background notification');
  assert.equal(child.stateHistory.at(-1)?.source, 'agent');
  // The notification and its response are separate messages, as qwen marks them.
  const agentTexts = rootOf(store).entries.filter((e) => e.kind === 'message' && e.role === 'agent').map((e) => (e.kind === 'message' ? e.text : ''));
  assert.ok(agentTexts.includes('Background agent "general-purpose: Subtask B" completed.'), agentTexts.join(' | '));
});

test('8b. later child traffic after the launch call completed keeps the child running (qwen, defensive) and opencode state="running"', () => {
  const late = replayStepwise('written', 'qwen-background.jsonl');
  assert.deepEqual([childOf(late).state.state, childOf(late).state.stopReason], ['idle', 'end_turn']);
  assert.ok(childOf(late).stateHistory.some((h) => h.state === 'running' && h.source === 'tool-call'));
  const opencode = replayStepwise('written', 'opencode-background.jsonl');
  // The text after the prompt response is a turn opencode started itself, and nothing says that turn ended; opencode
  // starts such a turn when a background job ended, so its one background child ended then (#21 item 3).
  assert.deepEqual([rootOf(opencode).state.state, rootOf(opencode).stateHistory.at(-1)?.source], ['running', 'agent-started']);
  assert.deepEqual([childOf(opencode).state.state, childOf(opencode).state.stopReason, childOf(opencode).background], ['idle', 'ended', false]);
});

test('9. chat order is wire order: qwen\'s permission to launch the subagent comes before the child card', () => {
  const root = rootOf(replayStepwise('traces', 'qwen-single.jsonl'));
  const permission = root.entries.findIndex((e) => e.kind === 'permission');
  const card = root.entries.findIndex((e) => e.kind === 'child');
  assert.ok(permission >= 0 && card >= 0);
  assert.ok(permission < card, `permission at ${permission}, card at ${card}`);
  const agentCall = root.entries.findIndex((e) => e.kind === 'toolCall');
  assert.ok(agentCall < permission, 'the launch call itself comes first');
});

test('10. what was reported and when: codex reports a cancelled child as unknown later, and the explanation says both', () => {
  const child = childOf(replayStepwise('traces', 'codex-cancel.jsonl'));
  assert.equal(child.state.state, 'unknown', 'the last report is kept');
  const reported = child.stateHistory.filter((h) => h.source === 'agent').map((h) => (h.stopReason ? `${h.state}/${h.stopReason}` : h.state));
  assert.deepEqual(reported.slice(-2), ['idle/cancelled', 'unknown']);
  const explanation = stateExplanation(child.stateHistory, { formatTime: () => 't' });
  assert.match(explanation, /cancelled t, then reported unknown t$/i);
  const qwen = childOf(replayStepwise('traces', 'qwen-cancel.jsonl'));
  // qwen failed the Agent call right after the user's cancel: Cancelled, with qwen's words kept (cancelledChild.test.ts).
  assert.deepEqual([qwen.state.state, qwen.state.stopReason, qwen.stateHistory.at(-1)?.source], ['idle', 'cancelled', 'tool-call']);
});

test('11. opencode: the loaded child is the subagent\'s row, and it takes prompts in its own chat', () => {
  const load = lineOf('recorded-new', 'opencode-load-child.jsonl', (t) => t.includes('"session/load"'));
  let virtualId: string | undefined;
  const store = replayStepwise('recorded-new', 'opencode-load-child.jsonl', (s, line) => {
    if (line === load - 1) virtualId = childOf(s).id;
  });
  assert.match(virtualId ?? '', /#call_main_003$/, 'a virtual child until the client loads the reported id');
  const sessions = store.listSessions();
  assert.equal(sessions.length, 2, 'one row for the subagent, not a grandchild');
  const child = childOf(store);
  assert.equal(child.id, 'ses_dcf28a82dffeZVqjJtyAbnJSuJ');
  assert.equal(child.parentToolCallId, 'call_main_003');
  assert.equal(child.label, 'Read notes file');
  assert.equal(store.getSession(virtualId!)?.id, child.id, 'a chat opened on the virtual row finds the loaded session');
  const snapshot = buildSnapshot(store, virtualId!);
  assert.equal(snapshot.rootSessionId, child.id, 'and its panel shows the loaded session');
  assert.equal(snapshot.sessions[0]?.header.id, child.id);
  assert.equal(store.actionsFor(child.id).prompt.allowed, true, 'opencode treats it as a full session: it can be messaged');
  assert.equal(store.actionsFor(child.id).cancel.allowed, false, 'nothing to cancel once its turn ended');
  const followUp = child.entries.filter((e) => e.kind === 'message' && e.role === 'user').at(-1);
  assert.match(followUp?.kind === 'message' ? followUp.text : '', /follow-u/);
  assert.deepEqual([child.state.state, child.state.stopReason], ['idle', 'end_turn']);
});

test('announced children never turn into full sessions because a client could load them', () => {
  const w = new Wire().newSession('P');
  w.update('P', announce('C', { title: 'Kid', state: { state: 'running' } }));
  w.store.ingest({ jsonrpc: '2.0', id: 9, method: 'session/load', params: { sessionId: 'C', cwd: '/w', mcpServers: [] } }, 'client->agent');
  assert.equal(w.store.actionsFor('C').prompt.allowed, false);
});

test('a child seen only through its call gets the call\'s result as its final message; an empty result is said (opencode, gemini)', () => {
  const opencode = childOf(replayStepwise('recorded-new', 'opencode-single.jsonl'));
  const text = opencode.entries.find((e) => e.kind === 'message' && e.role === 'agent');
  assert.match(text?.kind === 'message' ? text.text : '', /^Child A finished: /);
  assert.doesNotMatch(text?.kind === 'message' ? text.text : '', /<task|task_result/, 'opencode\'s envelope is removed');
  const gemini = childOf(replayStepwise('recorded-new', 'gemini-single.jsonl'));
  assert.deepEqual([gemini.state.state, gemini.state.stopReason], ['idle', 'end_turn']);
  const notice = gemini.entries.find((e) => e.kind === 'notice');
  assert.equal(notice?.kind === 'notice' ? notice.title : undefined, 'No report');
  assert.ok(!gemini.entries.some((e) => e.kind === 'message' && e.role === 'agent'));
  const failed = childOf(replayStepwise('written', 'opencode-task-failed.jsonl'));
  // It failed after the user's cancel of its parent: Cancelled, in opencode's words (cancelledChild.test.ts).
  assert.deepEqual([failed.state.state, failed.state.stopReason, failed.state.reported], ['idle', 'cancelled', 'Task cancelled']);
});

test('labels come from the first non-blank line, cut to a label\'s length', async () => {
  const { sessionLabel } = await import('../../src/store/sessionLabel');
  const root = { title: null, description: null, subagentType: null, ordinal: 3, parentId: null };
  assert.equal(sessionLabel(root, undefined, '\n\n   \n  Fix the parser  \nmore'), 'Fix the parser');
  assert.equal(sessionLabel(root, undefined, `${'x'.repeat(5000)}\nrest`).length, 80);
  assert.equal(sessionLabel(root, undefined, '   \n\t\n'), 'Session 3');
  assert.equal(sessionLabel({ ...root, parentId: 'P' }, { title: 'call_1', toolCallId: 'call_1' }), 'Session 3', 'a call titled by its own id is no name');
});
