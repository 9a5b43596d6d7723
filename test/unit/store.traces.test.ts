// Real transcripts from real agents: the rebuilt tree, attribution of tool calls and text, states and capabilities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureNames, replayFixture, replayStepwise } from './support/storeFixtures';
import type { ReplaySession } from '../../src/store/replayReport';

interface Expected {
  readonly link: string;
  readonly title?: string | null;
  readonly state: string;
  readonly stopReason?: string | null;
  readonly canCancel: boolean;
  readonly toolKinds: string[];
  readonly textIncludes?: string;
  readonly textEmpty?: boolean;
}

/**
 * Expected root + children for each trace (children in order of first appearance). Cancel is offered only while a
 * session works: every trace but claude2-steer-cancel ends with all sessions idle. `todo` marks a trace whose
 * expectation (what a careful reader of the wire says) the store does not meet yet.
 */
const EXPECTED: Record<string, { root: Expected; children: Expected[]; todo?: string }> = {
  'claude2-single.jsonl': {
    root: { link: 'root', title: 'Fake session', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [], textIncludes: "I'll delegate this" },
    children: [{ link: 'subagent_update', title: 'Read notes file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A finished' }],
  },
  'claude2-parallel.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [] },
    children: [
      { link: 'subagent_update', title: 'Read notes file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'] },
      { link: 'subagent_update', title: 'Glob text files', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'] },
    ],
  },
  'claude2-cancel-child.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [] },
    children: [
      { link: 'subagent_update', title: 'Hanging subagent X', state: 'idle', stopReason: 'cancelled', canCancel: false, toolKinds: ['read'] },
      { link: 'subagent_update', title: 'Slow subagent K', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'] },
    ],
  },
  'claude2-permission.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [] },
    children: [{ link: 'subagent_update', title: 'Write a file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['edit'] }],
  },
  'claude2-single-nocap.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['think'] },
    // The child's own text never arrives; the Agent call's result is its report (wrappers removed).
    children: [{ link: 'claude-meta', title: 'Read notes file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A finished. Tool said' }],
  },
  'claude-single.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['think'], textIncludes: 'Main agent done' },
    children: [{ link: 'claude-meta', title: 'Read notes file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A finished' }],
  },
  'claude-permission.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['think'] },
    children: [{ link: 'claude-meta', title: 'Write a file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['edit'] }],
  },
  'qwen-single.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other'], textIncludes: 'Parent final answer' },
    children: [{ link: 'qwen-meta', title: 'Subtask A', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read', 'edit', 'execute'], textIncludes: 'Subagent A report' }],
  },
  'qwen-cancel.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'cancelled', canCancel: false, toolKinds: ['other'] },
    // The agent failed the Agent call right after the user's cancel: the child was cancelled (qwen's words kept).
    children: [{ link: 'qwen-meta', title: 'Subtask A', state: 'idle', stopReason: 'cancelled', canCancel: false, toolKinds: ['read'] }],
  },
  'codex-single.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other'] },
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A result' }],
  },
  'codex-cancel.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other', 'other'] },
    // idle/cancelled, then cancel:null, then the agent said `unknown`: the last report wins.
    children: [{ link: 'subagent_update', title: null, state: 'unknown', stopReason: null, canCancel: false, toolKinds: ['read'] }],
  },
  'codex-permission.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other'] },
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['execute'] }],
  },
  // ACP v2 (protocolVersion 2): the same scenarios as their v1 recordings; store.v2.test.ts compares them in full.
  'claude2-v2-single.jsonl': {
    root: { link: 'root', title: 'Fake session', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [], textIncludes: "I'll delegate this" },
    children: [{ link: 'subagent_update', title: 'Read notes file', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A finished' }],
  },
  'claude2-v2-cancel-child.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [] },
    children: [
      { link: 'subagent_update', title: 'Hanging subagent X', state: 'idle', stopReason: 'cancelled', canCancel: false, toolKinds: ['read'] },
      { link: 'subagent_update', title: 'Slow subagent K', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'] },
    ],
  },
  'codex-v2-single.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other'], textIncludes: 'Parent done (single)' },
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A result' }],
  },
  'codex-v2-permission.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other'] },
    // The stream says read; the permission's lagging subject (execute, pending) does not overwrite it.
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'] }],
  },
  'codex-legacy.jsonl': {
    root: { link: 'root', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other', 'other'] },
    children: [{ link: 'opaque-tool', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [] }],
  },
  // _session/steering (README of the shared traces). Root calls: wait, sendInput (the relayed steer), wait again.
  'codex-steer-child.jsonl': {
    root: { link: 'root', title: 'SCENARIO:steer WORKSPACE=/home/user/project Please delegate this to sub-agents: spawn one sub-agent.', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other', 'other', 'other'], textIncludes: 'steers seen: "STEER: tell the subagent to also count lines"' },
    // The child runs twice (its first end_turn, then sendInput runs it again) and ends end_turn with cancel: null.
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read', 'execute'], textIncludes: 'Subagent A result: 2 notes.txt' }],
  },
  'codex-steer-v2-child.jsonl': {
    root: { link: 'root', title: 'SCENARIO:steer WORKSPACE=/home/user/project Please delegate this to sub-agents: spawn one sub-agent.', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['other', 'other', 'other'], textIncludes: 'steers seen: "STEER: tell the subagent to also count lines"' },
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read', 'execute'], textIncludes: 'Subagent A result: 2 notes.txt' }],
  },
  'codex-steer-idle.jsonl': {
    // The last steer (no idleBehavior) answers startedNewTurn: a turn with no request pending, which codex closes with
    // `session_info_update _meta.codex.threadStatus {type: "idle"}` (as it does before each prompt response). No stop
    // reason is reported for that turn, so only the state is checked.
    root: { link: 'root', title: 'SCENARIO:single WORKSPACE=/home/user/project Please delegate this to sub-agents: spawn one sub-agent.', state: 'idle', canCancel: false, toolKinds: ['other', 'other', 'other'], textIncludes: 'steers seen: "STEER: tell the subagent to also count lines", "STEER' },
    children: [{ link: 'subagent_update', title: null, state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read', 'execute'], textIncludes: 'Subagent A result: 2 notes.txt' }],
  },
  'claude2-steer-child.jsonl': {
    root: { link: 'root', title: 'Fake session', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: [], textIncludes: 'Main agent got task notification(s)' },
    // The steer moved the Agent call to the background; the child is never told and finishes on its own.
    children: [{ link: 'subagent_update', title: 'Read notes file slowly', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A finished' }],
  },
  'claude2-steer-cancel.jsonl': {
    // Prompt 2 cancelled, prompt 4 end_turn, then Claude's own turn for the background child's notification: text
    // with no prompt in flight and no end reported (the root runs, started by the agent; it can be cancelled).
    root: { link: 'root', title: 'Fake session', state: 'running', stopReason: null, canCancel: true, toolKinds: [], textIncludes: 'Main agent got task notification(s)' },
    // The root's cancel did not stop the backgrounded child: it finished ~5 s later and reported end_turn.
    children: [{ link: 'subagent_update', title: 'Read notes file slowly', state: 'idle', stopReason: 'end_turn', canCancel: false, toolKinds: ['read'], textIncludes: 'Subagent A finished' }],
  },
};

function check(actual: ReplaySession, expected: Expected, label: string): void {
  assert.equal(actual.link, expected.link, `${label} link`);
  if (expected.title !== undefined) assert.equal(actual.title, expected.title, `${label} title`);
  assert.equal(actual.state, expected.state, `${label} state`);
  if (expected.stopReason !== undefined) assert.equal(actual.stopReason, expected.stopReason, `${label} stopReason`);
  assert.equal(actual.canCancel, expected.canCancel, `${label} canCancel`);
  assert.deepEqual(actual.toolCalls.map((t) => t.kind), expected.toolKinds, `${label} tool calls`);
  if (expected.textIncludes) assert.ok(actual.text.includes(expected.textIncludes), `${label} text has "${expected.textIncludes}": ${actual.text}`);
  if (expected.textEmpty) assert.equal(actual.text, '', `${label} text`);
}

test('every trace fixture has an expectation', () => {
  assert.deepEqual(fixtureNames('traces'), Object.keys(EXPECTED).sort());
});

for (const [name, expected] of Object.entries(EXPECTED)) {
  test(`trace ${name}: tree, attribution, states and capabilities`, expected.todo ? { todo: expected.todo } : {}, () => {
    const { snapshot } = replayFixture('traces', name);
    assert.deepEqual(snapshot.diagnostics.filter((d) => d.code !== 'unknown-method'), [], 'no protocol diagnostics');
    const [root, ...children] = snapshot.sessions;
    assert.ok(root);
    assert.equal(root.parentId, null);
    check(root, expected.root, 'root');
    assert.equal(children.length, expected.children.length, 'child count');
    children.forEach((child, i) => {
      assert.equal(child.parentId, root.id, `child ${i} parent`);
      check(child, expected.children[i]!, `child ${i}`);
    });
    // A tool call is listed on exactly one session.
    const ids = snapshot.sessions.flatMap((s) => s.toolCalls.map((t) => t.id));
    assert.equal(new Set(ids).size, ids.length, 'tool calls attributed once');
  });
}

test('qwen: unknown agent methods become diagnostics with their line', () => {
  const { snapshot } = replayFixture('traces', 'qwen-single.jsonl');
  const unknown = snapshot.diagnostics.filter((d) => d.code === 'unknown-method');
  assert.ok(unknown.some((d) => d.message.includes('craft/drainMidTurnQueue') && d.line > 0));
  assert.equal(new Set(unknown.map((d) => d.message)).size, unknown.length, 'each unknown method is reported once');
});

test('claude (old adapter): the hook echo without parentToolUseId stays on the child', () => {
  const { snapshot } = replayFixture('traces', 'claude-single.jsonl');
  const child = snapshot.sessions[1]!;
  assert.deepEqual(child.toolCalls.map((t) => t.status), ['completed']);
  assert.equal(snapshot.sessions[0]!.toolCalls.length, 1, 'only the Agent call on the parent');
});

test('permission requests are attributed to the child that asked', () => {
  for (const name of ['claude2-permission.jsonl', 'claude-permission.jsonl', 'codex-permission.jsonl', 'codex-v2-permission.jsonl']) {
    const { store, snapshot } = replayFixture('traces', name);
    const child = store.getSession(snapshot.sessions[1]!.id)!;
    const root = store.getSession(snapshot.sessions[0]!.id)!;
    const asked = child.entries.filter((e) => e.kind === 'permission');
    assert.equal(asked.length, 1, `${name}: child has the permission entry`);
    assert.equal(asked[0]!.kind === 'permission' && asked[0]!.outcome, 'selected', `${name}: answered`);
    assert.equal(root.entries.filter((e) => e.kind === 'permission').length, 0, `${name}: not on the root`);
  }
});

test('claude2: session_message views are linked on both sides', () => {
  const { store, snapshot } = replayFixture('traces', 'claude2-single.jsonl');
  const root = store.getSession(snapshot.sessions[0]!.id)!;
  const child = store.getSession(snapshot.sessions[1]!.id)!;
  const outgoing = root.entries.find((e) => e.kind === 'sessionMessage' && e.direction === 'outgoing');
  const incoming = child.entries.find((e) => e.kind === 'sessionMessage' && e.direction === 'incoming');
  assert.ok(outgoing && outgoing.kind === 'sessionMessage' && outgoing.recipientSessionId === child.id);
  assert.ok(incoming && incoming.kind === 'sessionMessage' && incoming.senderSessionId === root.id);
  assert.equal(outgoing.recipientMessageId, incoming.messageId);
  const reply = root.entries.find((e) => e.kind === 'sessionMessage' && e.senderSessionId === child.id);
  assert.ok(reply, 'reply from the child is shown on the parent');
});

test('steered traces: the states along the way', () => {
  const history = (s: { stateHistory: readonly { state: string; stopReason?: string; source: string }[] }) =>
    s.stateHistory.map((h) => `${h.state}${h.stopReason ? `/${h.stopReason}` : ''}@${h.source}`);
  // codex: the steer reaches the child through sendInput after its first end: the child runs twice, by its reports.
  for (const name of ['codex-steer-child.jsonl', 'codex-steer-v2-child.jsonl']) {
    const { store, snapshot } = replayFixture('traces', name);
    const child = store.getSession(snapshot.sessions[1]!.id)!;
    assert.deepEqual(history(child).slice(1), ['running@agent', 'idle/end_turn@agent', 'running@agent', 'idle/end_turn@agent'], name);
  }
  // codex v2: the steer shows on the root where it landed (after the first wait), as the user's message.
  const { store: v2, snapshot: v2Snapshot } = replayFixture('traces', 'codex-steer-v2-child.jsonl');
  const order = v2.getSession(v2Snapshot.sessions[0]!.id)!.entries.map((e) =>
    e.kind === 'toolCall' ? e.toolCallId : e.kind === 'message' && e.role === 'user' ? `user:${e.text}` : e.kind,
  );
  assert.deepEqual(order.slice(order.indexOf('call_wait_1'), order.indexOf('call_send_steer_1') + 1), [
    'call_wait_1',
    'user:STEER: tell the subagent to also count lines',
    'call_send_steer_1',
  ]);
  // claude: the root's cancel does not stop the child the steer moved to the background; it runs through the
  // cancelled turn and the next prompt, and ends by its own report; the notification turn is the agent's.
  const states: Record<string, string> = {};
  const store = replayStepwise('traces', 'claude2-steer-cancel.jsonl', (s, _line, text) => {
    const [root, child] = s.listSessions();
    if (text.includes('"stopReason":"cancelled"')) states['cancelled'] = `${root!.state.state}/${root!.state.stopReason} ${child!.state.state}`;
    if (text.includes('"id":4,"result"')) states['prompt 4 ended'] = `${root!.state.state}/${root!.state.stopReason} ${child!.state.state}`;
  });
  assert.deepEqual(states, { cancelled: 'idle/cancelled running', 'prompt 4 ended': 'idle/end_turn running' });
  const [root, child] = store.listSessions();
  assert.deepEqual(history(child!).slice(1), ['running@agent', 'idle/end_turn@agent']);
  assert.equal(root!.stateHistory.at(-1)?.source, 'agent-started');
  assert.equal(root!.activePromptId, null);
});
