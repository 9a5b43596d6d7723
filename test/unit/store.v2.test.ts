// ACP v2 transcripts recorded from the real agents: every message validates against the SDK's v2 schemas,
// and each replays into the same tree, states and attributions as the v1 recording of the same scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureText, replayFixture, replayStepwise, Wire } from './support/storeFixtures';
import { checkV2Message, checkV2Transcript } from './support/acpSchemaV2';
import { CheckedV2Wire } from './support/checkedV2Wire';
import { AGENT_TERMINAL_OUTPUT_CHARS } from '../../src/store/reducers/agentTerminals';
import type { ReplaySession, ReplaySnapshot } from '../../src/store/replayReport';
import type { SessionStore } from '../../src/store/sessionStore';

const PAIRS = [
  { v2: 'claude2-v2-single.jsonl', v1: 'claude2-single.jsonl' },
  { v2: 'claude2-v2-cancel-child.jsonl', v1: 'claude2-cancel-child.jsonl' },
  { v2: 'codex-v2-single.jsonl', v1: 'codex-single.jsonl' },
  { v2: 'codex-v2-permission.jsonl', v1: 'codex-permission.jsonl' },
] as const;

/**
 * Where the recordings themselves differ, not the reading: Codex v1 streamed its model warning as agent text
 * (v2 sends a `notice`), and its reply quotes the child's thread id, new in each recording.
 */
function comparableText(text: string): string {
  return text.replace(/^Warning: Model metadata[^\n]*\n\n/, '').replace(/\b[0-9a-f]{6}=/g, '<thread>=');
}

/**
 * codex-permission: in v1 the permission request's toolCall said `execute` and the client took it; in v2 the
 * stream says `read` and the request's `subject` (kind execute, status pending) lags behind it, so it does not
 * overwrite the stored call.
 */
const KIND_FROM_LAGGING_SUBJECT: Record<string, { session: number; v1: string[]; v2: string[] }> = {
  'codex-v2-permission.jsonl': { session: 1, v1: ['execute'], v2: ['read'] },
};

function shape(snapshot: ReplaySnapshot, store: SessionStore) {
  return snapshot.sessions.map((s: ReplaySession) => ({
    depth: s.depth,
    link: s.link,
    origin: s.origin,
    label: s.label,
    title: s.title,
    description: s.description,
    state: s.state,
    stopReason: s.stopReason,
    canCancel: s.canCancel,
    tools: s.toolCalls.map((t) => ({ kind: t.kind, status: t.status, title: t.title, stoppedWithTurn: t.stoppedWithTurn })),
    text: comparableText(s.text),
    userText: store.getSession(s.id)!.entries.flatMap((e) => (e.kind === 'message' && e.role === 'user' ? [e.text] : [])),
    states: store.getSession(s.id)!.stateHistory.map((h) => `${h.state}/${h.stopReason ?? ''}/${h.source}`),
  }));
}

for (const { v2 } of PAIRS) {
  test(`${v2}: every message validates against the SDK's v2 schemas`, () => {
    const { failures, checked } = checkV2Transcript(fixtureText('traces', v2));
    assert.deepEqual(failures, []);
    assert.ok(checked > 30, `${checked} messages checked`);
  });
}

test('the v2 schema check rejects v1 shapes (it can fail)', () => {
  // (Unknown update kinds, v1's `tool_call` among them, are valid v2: every v2 enum admits new variants.)
  const v1Chunk = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } };
  assert.equal(checkV2Message(v1Chunk, 'agent->client').ok, false, 'v2 chunks need a messageId');
  const v1Permission = { jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }] } };
  assert.equal(checkV2Message(v1Permission, 'agent->client').ok, false, 'v2 permissions need a title');
  assert.equal(checkV2Message({ jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } }, 'agent->client', 'session/prompt').ok, false, 'v1 prompt response');
  assert.equal(checkV2Message({ jsonrpc: '2.0', id: 1, method: 'session/load', params: { sessionId: 's', cwd: '/w', mcpServers: [] } }, 'client->agent').ok, false);
  assert.equal(checkV2Message({ jsonrpc: '2.0', id: 1, result: { messageId: 'm' } }, 'agent->client', 'session/prompt').ok, true);
});

for (const { v2, v1 } of PAIRS) {
  test(`${v2} replays into the same tree, states and attributions as ${v1}`, () => {
    const a = replayFixture('traces', v2);
    const b = replayFixture('traces', v1);
    assert.equal(a.store.protocolVersion, 2);
    assert.equal(b.store.protocolVersion, 1);
    assert.deepEqual(a.snapshot.diagnostics, [], 'no diagnostics in v2');
    const got = shape(a.snapshot, a.store);
    const want = shape(b.snapshot, b.store);
    const lag = KIND_FROM_LAGGING_SUBJECT[v2];
    if (lag) {
      assert.deepEqual(got[lag.session]!.tools.map((t) => t.kind), lag.v2);
      assert.deepEqual(want[lag.session]!.tools.map((t) => t.kind), lag.v1);
      got[lag.session]!.tools.forEach((t) => (t.kind = '*'));
      want[lag.session]!.tools.forEach((t) => (t.kind = '*'));
    }
    assert.deepEqual(got, want);
    assert.ok(got.length >= 2, 'the scenario has children');
    const ids = a.snapshot.sessions.flatMap((s) => s.toolCalls.map((t) => t.id));
    assert.equal(new Set(ids).size, ids.length, 'tool calls attributed once');
  });
}

test('v2: the prompt response only acknowledges; the turn ends with the idle state_update', () => {
  for (const { v2 } of PAIRS) {
    const lines = fixtureText('traces', v2).split('\n');
    const ackLine = lines.findIndex((l) => l.includes('"result":{"messageId"')) + 1;
    const idleLines = lines.flatMap((l, i) => (l.includes('"state_update"') && l.includes('"idle"') ? [i + 1] : []));
    const idleLine = idleLines.at(-1) ?? 0;
    assert.ok(ackLine > 0 && idleLine > ackLine, `${v2}: ack before the last idle`);
    replayStepwise('traces', v2, (store, line) => {
      const root = store.listSessions()[0];
      if (line === ackLine) {
        assert.notEqual(root!.state.state, 'idle', `${v2}: the ack does not end the turn`);
        assert.notEqual(root!.activePromptId, null, `${v2}: the prompt is still in flight after its ack`);
      }
      if (line === idleLine - 1) assert.notEqual(root!.activePromptId, null, `${v2}: in flight until idle`);
      if (line === idleLine) {
        assert.equal(root!.state.state, 'idle');
        assert.equal(root!.activePromptId, null, `${v2}: idle ends the prompt`);
      }
    });
  }
});

test('v2: the echoed user message is the prompt the client sent, shown once with its messageId', () => {
  for (const { v2 } of PAIRS) {
    const { store, snapshot } = replayFixture('traces', v2);
    const root = store.getSession(snapshot.sessions[0]!.id)!;
    const users = root.entries.filter((e) => e.kind === 'message' && e.role === 'user');
    assert.equal(users.length, 1, `${v2}: one user message`);
    assert.ok(users[0]!.kind === 'message' && users[0]!.messageId, `${v2}: keyed by the agent's messageId`);
  }
});

test('v2 codex: the model warning is a notice; `_auth/status_update` is ignored', () => {
  const { store, snapshot } = replayFixture('traces', 'codex-v2-single.jsonl');
  const root = store.getSession(snapshot.sessions[0]!.id)!;
  assert.ok(root.entries.some((e) => e.kind === 'notice' && e.severity === 'warning' && e.title.startsWith('Model metadata')));
});

test('v2 codex permission: title and description shown; the lagging subject moves nothing backwards; the root is not put in requires_action', () => {
  const lines = fixtureText('traces', 'codex-v2-permission.jsonl').split('\n');
  const askLine = lines.findIndex((l) => l.includes('session/request_permission')) + 1;
  replayStepwise('traces', 'codex-v2-permission.jsonl', (store, line) => {
    if (line !== askLine) return;
    const [root, child] = store.listSessions();
    const call = child!.toolCalls['call_child_A_exec']!;
    assert.equal(call.status, 'in_progress', 'the subject said pending; the stream already said in_progress');
    assert.equal(call.kind, 'read');
    assert.equal(root!.state.state, 'running');
    assert.equal(child!.state.state, 'requires_action');
    const ask = child!.entries.find((e) => e.kind === 'permission');
    assert.ok(ask?.kind === 'permission');
    assert.equal(ask.title, 'Run command?');
    assert.equal(ask.description, 'Subagent A needs to run cat notes.txt outside the sandbox');
    assert.equal(ask.toolCallId, 'call_child_A_exec');
  });
});

test('v2: a child state reported twice (mirror and own, either order) is applied once', () => {
  for (const order of [['mirror', 'own'], ['own', 'mirror']] as const) {
    const wire = v2Wire();
    wire.update('root', { sessionUpdate: 'subagent_update', sessionId: 'kid', capabilities: { cancel: {} } });
    for (const state of [{ state: 'running' }, { state: 'idle', stopReason: 'end_turn' }]) {
      for (const who of order) {
        if (who === 'mirror') wire.update('root', { sessionUpdate: 'subagent_update', sessionId: 'kid', state });
        else wire.update('kid', { sessionUpdate: 'state_update', ...state });
      }
    }
    assert.deepEqual(
      wire.session('kid').stateHistory.map((h) => `${h.state}/${h.stopReason ?? ''}`),
      ['unconfirmed/', 'running/', 'idle/end_turn'],
      order.join(' then '),
    );
  }
});

/** A store that saw a v2 initialize and one root session. */
function v2Wire(): Wire {
  const wire = new Wire();
  wire.store.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2, info: { name: 't', version: '1' }, capabilities: {} } }, 'client->agent');
  wire.store.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} } } }, 'agent->client');
  wire.newSession('root');
  return wire;
}

test('v2 tool calls: created by tool_call_update, upserts (omitted keeps, null clears), content chunks append, capabilities kept', () => {
  const wire = v2Wire();
  wire.update('root', { sessionUpdate: 'tool_call_update', toolCallId: 't1' });
  let call = wire.session('root').toolCalls['t1']!;
  assert.deepEqual([call.title, call.kind, call.status], ['', 'other', 'pending'], 'protocol defaults');
  wire.update('root', { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'in_progress', capabilities: { cancel: {} } });
  wire.update('root', { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'content', content: { type: 'text', text: 'a' } } });
  wire.update('root', { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'terminal', terminalId: 'term' } });
  call = wire.session('root').toolCalls['t1']!;
  assert.equal(call.content.length, 2);
  assert.deepEqual(call.capabilities, { cancel: {} });
  wire.update('root', { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: null, content: null, capabilities: null });
  call = wire.session('root').toolCalls['t1']!;
  assert.deepEqual([call.title, call.kind, call.status, call.content.length, call.capabilities], ['', 'execute', 'in_progress', 0, null]);
  assert.deepEqual(wire.codes(), [], 'creating by update is v2 baseline, not a diagnostic');
});

test('v1 keeps reporting a tool_call_update for an unknown call', () => {
  const wire = new Wire().newSession('root');
  wire.update('root', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' });
  assert.deepEqual(wire.codes(), ['unknown-tool-call']);
  assert.equal(wire.store.protocolVersion, 1);
});

test('v2 whole messages: agent_message replaces, null clears, chunks with the same messageId append', () => {
  const wire = v2Wire();
  wire.update('root', { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'Hel' } });
  wire.update('root', { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'lo' } });
  const texts = () => wire.session('root').entries.flatMap((e) => (e.kind === 'message' ? [`${e.role}:${e.text}`] : []));
  assert.deepEqual(texts(), ['agent:Hello']);
  wire.update('root', { sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'Hi there' }] });
  wire.update('root', { sessionUpdate: 'agent_thought', messageId: 'th', content: [{ type: 'text', text: 'hmm' }] });
  assert.deepEqual(texts(), ['agent:Hi there', 'thought:hmm']);
  wire.update('root', { sessionUpdate: 'agent_message', messageId: 'm1' });
  assert.deepEqual(texts(), ['agent:Hi there', 'thought:hmm'], 'omitted content keeps');
  wire.update('root', { sessionUpdate: 'agent_message', messageId: 'm1', content: null });
  assert.deepEqual(texts(), ['agent:', 'thought:hmm'], 'null clears');
});

test('v2 prompt echo: the acknowledgement may come first; the echo then replaces the copy instead of adding one', () => {
  const wire = v2Wire();
  wire.store.ingest({ jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { sessionId: 'root', prompt: [{ type: 'text', text: 'do it' }] } }, 'client->agent');
  wire.store.ingest({ jsonrpc: '2.0', id: 7, result: { messageId: 'u1' } }, 'agent->client');
  assert.equal(wire.session('root').state.state, 'running', 'the ack is not the end of the turn');
  wire.update('root', { sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'text', text: 'do ' } });
  wire.update('root', { sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'text', text: 'it' } });
  const users = wire.session('root').entries.filter((e) => e.kind === 'message' && e.role === 'user');
  assert.deepEqual(users.map((e) => e.kind === 'message' && e.text), ['do it']);
  wire.update('root', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
  assert.equal(wire.session('root').activePromptId, null);
  assert.equal(wire.session('root').state.stopReason, 'end_turn');
});

test('v2 plan_update: items, markdown and file plans show as the plan', () => {
  const wire = v2Wire();
  wire.update('root', { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [{ content: 'one', priority: 'high', status: 'pending' }] } });
  assert.deepEqual(wire.session('root').plan, [{ content: 'one', priority: 'high', status: 'pending' }]);
  wire.update('root', { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '1. do' } });
  assert.deepEqual(wire.session('root').plan, [{ content: '1. do' }]);
  assert.equal(wire.session('root').entries.filter((e) => e.kind === 'plan').length, 1, 'one plan entry, updated in place');
});

test('v2 plan_removed: that plan shows as removed, the others stay, and the session\'s plan is the latest one left', () => {
  const wire = new CheckedV2Wire();
  const plans = () => wire.session.entries.flatMap((e) => (e.kind === 'plan' ? [`${e.planId}:${e.removed === true ? 'removed' : e.entries.map((p) => p.content).join('+')}`] : []));
  wire.update({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [{ content: 'a', priority: 'high', status: 'pending' }, { content: 'b', priority: 'low', status: 'pending' }] } });
  wire.update({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: 'md' } });
  assert.deepEqual(plans(), ['p1:a+b', 'p2:md'], 'two plans, one entry each');
  assert.deepEqual(wire.session.plan, [{ content: 'md' }], 'the latest plan');
  wire.update({ sessionUpdate: 'plan_removed', planId: 'p2' });
  assert.deepEqual(plans(), ['p1:a+b', 'p2:removed'], 'marked removed in place (the chat keeps entry positions)');
  assert.deepEqual(wire.session.plan?.map((p) => p.content), ['a', 'b'], 'the plan left');
  wire.update({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p2', uri: 'file:///work/PLAN.md' } });
  assert.deepEqual(plans(), ['p1:a+b', 'p2:removed', 'p2:Plan file: file:///work/PLAN.md'], 'a plan sent again after its removal is a new plan');
  wire.update({ sessionUpdate: 'plan_removed', planId: 'p1' });
  wire.update({ sessionUpdate: 'plan_removed', planId: 'p2' });
  assert.equal(wire.session.plan, null, 'no plan left');
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('v2 plan_removed of a plan never shown (or removed already) is a diagnostic, never fatal', () => {
  const wire = new CheckedV2Wire();
  wire.update({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [{ content: 'a', priority: 'high', status: 'pending' }] } });
  wire.update({ sessionUpdate: 'plan_removed', planId: 'nope' });
  wire.update({ sessionUpdate: 'plan_removed', planId: 'p' });
  wire.update({ sessionUpdate: 'plan_removed', planId: 'p' });
  assert.deepEqual(wire.codes(), ['unknown-plan', 'unknown-plan']);
  wire.assertSchemaValid();
  wire.update({ sessionUpdate: 'plan_removed' });
  assert.deepEqual(wire.codes(), ['unknown-plan', 'unknown-plan', 'invalid-message'], 'without a planId');
  wire.update({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'still here' } });
  assert.ok(wire.session.entries.some((e) => e.kind === 'message' && e.text === 'still here'));
});

test('v2 agent terminals: terminal_update snapshots, base64 output chunks append (a UTF-8 character split across chunks survives)', () => {
  const wire = v2Wire();
  const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
  wire.update('root', { sessionUpdate: 'terminal_update', terminalId: 'T', command: 'ls', cwd: '/work', capabilities: { cancel: {} } });
  const euro = [...Buffer.from('€')];
  wire.update('root', { sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: b64([0x61, euro[0]!]) });
  wire.update('root', { sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: b64(euro.slice(1)) });
  let terminal = wire.session('root').terminals['T']!;
  assert.equal(terminal.output, 'a€');
  assert.equal(terminal.agentOwned, true);
  assert.deepEqual(terminal.capabilities, { cancel: {} });
  wire.update('root', { sessionUpdate: 'terminal_update', terminalId: 'T', output: { data: b64([...Buffer.from('fresh')]) }, exitStatus: { exitCode: 0 } });
  terminal = wire.session('root').terminals['T']!;
  assert.equal(terminal.output, 'fresh', 'a snapshot replaces');
  assert.deepEqual(terminal.exitStatus, { exitCode: 0 });
  assert.equal(terminal.command, 'ls', 'omitted keeps');
  wire.update('root', { sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: '%%%' });
  assert.deepEqual(wire.codes(), ['invalid-message'], 'bad base64 is a diagnostic, not a crash');
});

test('v2 agent terminal output stays bounded: a flood keeps the last 1 MiB characters, says it was cut, and counts what went', () => {
  const wire = new CheckedV2Wire();
  wire.update({ sessionUpdate: 'terminal_update', terminalId: 'T', command: 'yes' });
  const chunk = (i: number) => `${String(i).padStart(6, '0')} ${'y'.repeat(65_528)}\n`;
  let total = 0;
  for (let i = 0; i < 64; i++) {
    const text = chunk(i);
    total += text.length;
    wire.update({ sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: Buffer.from(text).toString('base64') });
  }
  const terminal = wire.session.terminals['T']!;
  assert.ok(terminal.output.length <= AGENT_TERMINAL_OUTPUT_CHARS * 1.5, `kept ${terminal.output.length} characters of ${total}`);
  assert.ok(terminal.output.length >= AGENT_TERMINAL_OUTPUT_CHARS);
  assert.ok(terminal.output.endsWith(chunk(63)), 'the newest output is kept');
  assert.equal(terminal.truncated, true);
  assert.equal((terminal.droppedChars ?? 0) + terminal.output.length, total);
  // A snapshot starts afresh; a character never loses half of its surrogate pair at the cut.
  wire.update({ sessionUpdate: 'terminal_update', terminalId: 'T', output: { data: Buffer.from(`${'😀'.repeat(AGENT_TERMINAL_OUTPUT_CHARS)}!`).toString('base64') } });
  const emoji = wire.session.terminals['T']!;
  assert.equal(emoji.truncated, true);
  // The bound falls on the second half of a pair here: the cut moves one character on.
  assert.equal(emoji.output.length, AGENT_TERMINAL_OUTPUT_CHARS - 1);
  assert.equal(emoji.output.codePointAt(0), 0x1f600);
  assert.ok(emoji.output.endsWith('😀!'));
  wire.update({ sessionUpdate: 'terminal_update', terminalId: 'T', output: { data: Buffer.from('fresh').toString('base64') } });
  assert.deepEqual([wire.session.terminals['T']!.output, wire.session.terminals['T']!.truncated, wire.session.terminals['T']!.droppedChars], ['fresh', false, undefined]);
  wire.assertSchemaValid();
});

test('v2 per-item cancel is withdrawn the moment the agent disconnects, with the reason, as the session cancel is', () => {
  const wire = new CheckedV2Wire();
  const changes: string[] = [];
  wire.store.onDidChange((batch) => changes.push(...batch.filter((c) => c.kind === 'session').map((c) => c.sessionId)));
  wire.prompt('go');
  wire.update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'in_progress', capabilities: { cancel: {} } });
  wire.update({ sessionUpdate: 'terminal_update', terminalId: 'T', command: 'npm test', capabilities: { cancel: {} } });
  wire.assertSchemaValid();
  const verdicts = () => [wire.store.itemActionsFor('root').cancel, wire.store.itemActionsFor('root', { toolCallId: 't1' }).cancel, wire.store.itemActionsFor('root', { terminalId: 'T' }).cancel];
  assert.deepEqual(verdicts().map((v) => v.allowed), [true, true, true]);
  changes.length = 0;
  wire.store.markDisconnected();
  const reason = wire.store.actionsFor('root').cancel.reason;
  assert.match(reason ?? '', /not connected/);
  assert.deepEqual(verdicts(), [{ allowed: false, reason }, { allowed: false, reason }, { allowed: false, reason }], 'the same rule and words as the session cancel');
  assert.ok(changes.includes('root'), 'views are told the session changed');
});

test('v2: unknown update kinds and extension methods are never fatal', () => {
  const wire = v2Wire();
  wire.update('root', { sessionUpdate: '_vendor_thing', x: 1 });
  wire.update('root', { sessionUpdate: 'future_update', x: 1 });
  wire.store.ingest({ jsonrpc: '2.0', method: '_auth/status_update', params: { authStatus: {} } }, 'agent->client');
  wire.update('root', { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'still here' } });
  assert.ok(wire.session('root').entries.some((e) => e.kind === 'message' && e.text === 'still here'));
  assert.ok(wire.codes().every((c) => c === 'unknown-update'));
});

test('v2: session/resume with replayFrom replays history (replayed child controls are stale until re-announced)', () => {
  const wire = v2Wire();
  wire.store.ingest({ jsonrpc: '2.0', id: 9, method: 'session/resume', params: { sessionId: 'old', cwd: '/w', replayFrom: { type: 'start' } } }, 'client->agent');
  wire.update('old', { sessionUpdate: 'subagent_update', sessionId: 'kid', capabilities: { cancel: {} }, state: { state: 'running' } });
  assert.equal(wire.session('kid').controlsStale, true);
  wire.store.ingest({ jsonrpc: '2.0', id: 9, result: {} }, 'agent->client');
  assert.equal(wire.store.canReconnect, true, 'resume is baseline in v2');
});

test('v2 compaction_update: an upsert by compactionId; its end is one notice however often it is repeated', () => {
  const wire = v2Wire();
  const notices = () => wire.session('root').entries.filter((e) => e.kind === 'notice').map((e) => (e.kind === 'notice' ? `${e.title}|${e.description ?? ''}` : ''));
  wire.update('root', { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' });
  wire.update('root', { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' });
  wire.update('root', { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [{ type: 'text', text: 'sum' }] });
  wire.update('root', { sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'failed', error: 'too big' });
  assert.deepEqual(notices(), ['Context compacted|', 'Context compaction failed|too big']);
});
