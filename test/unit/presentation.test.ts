// The presentation both the tree and the chat use: state icons and labels, tool statuses, durations and the
// state explanation. Agent-supplied strings (including names of Object.prototype members) are just values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageEntry } from '../../src/protocol/transcript';
import {
  clockTime,
  elapsedMs,
  formatDuration,
  ownEntry,
  presentDeliveries,
  presentState,
  presentToolStatus,
  stateExplanation,
  themeColorVar,
  toolKindIcon,
  toolProgress,
  type Activity,
  type PresentableState,
  type StateExtras,
} from '../../src/presentation';

const HOSTILE = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '', '   ', '<img src=x onerror=alert(1)>', 'x'.repeat(500), 'line\nbreak'];

test('every state has one icon, colour and label', () => {
  const table: [PresentableState, StateExtras, string, boolean, Activity, string | undefined, string][] = [
    [{ state: 'running' }, {}, 'loading', true, 'working', undefined, 'Running'],
    [{ state: 'running' }, { background: true }, 'loading', true, 'working', undefined, 'Running in background'],
    [{ state: 'running' }, { cancelRequestedAt: 5 }, 'loading', true, 'working', undefined, 'Cancelling…'],
    [{ state: 'running' }, { cancelRequestedAt: 0 }, 'loading', true, 'working', undefined, 'Cancelling…'],
    [{ state: 'requires_action' }, { cancelRequestedAt: 5 }, 'loading', true, 'working', undefined, 'Cancelling…'],
    [{ state: 'requires_action' }, {}, 'bell-dot', false, 'waiting', 'notificationsWarningIcon.foreground', 'Needs you'],
    [{ state: 'requires_action' }, { cancelRequestedAt: null }, 'bell-dot', false, 'waiting', 'notificationsWarningIcon.foreground', 'Needs you'],
    // An open question needs the user whatever state was reported (phase awaiting-user), unless a cancel is on its way.
    [{ state: 'running' }, { awaitingUser: 1 }, 'bell-dot', false, 'waiting', 'notificationsWarningIcon.foreground', 'Needs you'],
    [{ state: 'idle', stopReason: 'end_turn' }, { awaitingUser: 2 }, 'bell-dot', false, 'waiting', 'notificationsWarningIcon.foreground', 'Needs you'],
    [{ state: 'running' }, { awaitingUser: 1, cancelRequestedAt: 5 }, 'loading', true, 'working', undefined, 'Cancelling…'],
    [{ state: 'disconnected' }, { awaitingUser: 1 }, 'debug-disconnect', false, 'idle', 'disabledForeground', 'Disconnected'],
    [{ state: 'idle', stopReason: 'end_turn' }, {}, 'pass', false, 'idle', 'testing.iconPassed', 'Done'],
    [{ state: 'idle', stopReason: 'end_turn' }, { cancelRequestedAt: 5, background: true }, 'pass', false, 'idle', 'testing.iconPassed', 'Done'],
    [{ state: 'idle', stopReason: 'cancelled' }, {}, 'circle-slash', false, 'idle', 'disabledForeground', 'Cancelled'],
    [{ state: 'idle', stopReason: 'error' }, {}, 'error', false, 'idle', 'errorForeground', 'Failed'],
    [{ state: 'idle', stopReason: 'refusal' }, {}, 'error', false, 'idle', 'errorForeground', 'Refused'],
    [{ state: 'idle', stopReason: 'max_tokens' }, {}, 'warning', false, 'idle', 'editorWarning.foreground', 'Stopped: max tokens'],
    [{ state: 'idle', stopReason: 'max_turn_requests' }, {}, 'warning', false, 'idle', 'editorWarning.foreground', 'Stopped: turn limit'],
    [{ state: 'idle' }, {}, 'circle-large-outline', false, 'idle', undefined, 'Idle'],
    [{ state: 'idle', stopReason: 'paused_by_user' }, {}, 'circle-large-outline', false, 'idle', undefined, 'Idle (paused by user)'],
    [{ state: 'unknown' }, {}, 'question', false, 'idle', undefined, 'Unknown'],
    [{ state: 'unconfirmed' }, {}, 'question', false, 'idle', undefined, 'Not reported'],
    [{ state: 'disconnected' }, {}, 'debug-disconnect', false, 'idle', 'disabledForeground', 'Disconnected'],
    [{ state: 'disconnected', lastKnown: { state: 'running' } }, {}, 'debug-disconnect', false, 'idle', 'disabledForeground', 'Disconnected (last: Running)'],
    [{ state: 'disconnected', lastKnown: { state: 'idle', stopReason: 'cancelled' } }, {}, 'debug-disconnect', false, 'idle', 'disabledForeground', 'Disconnected (last: Cancelled)'],
    [{ state: 'disconnected', lastKnown: { state: 'disconnected' } }, {}, 'debug-disconnect', false, 'idle', 'disabledForeground', 'Disconnected'],
    [{ state: 'thinking_hard' }, {}, 'circle-large-outline', false, 'idle', undefined, 'thinking_hard'],
    [{ state: 'thinking_hard' }, { cancelRequestedAt: 5 }, 'circle-large-outline', false, 'idle', undefined, 'thinking_hard'],
  ];
  for (const [state, extras, icon, spin, activity, color, label] of table) {
    assert.deepEqual(presentState(state, extras), { icon, spin, activity, ...(color ? { color } : {}), label }, JSON.stringify([state, extras]));
  }
});

test('hostile state and stop-reason strings are plain, bounded, one-line labels', () => {
  for (const name of HOSTILE) {
    const custom = presentState({ state: name });
    assert.equal(typeof custom.label, 'string');
    assert.ok(custom.label.length > 0 && custom.label.length <= 60, JSON.stringify(custom));
    assert.ok(!custom.label.includes('\n'));
    assert.equal(typeof custom.icon, 'string');
    const idle = presentState({ state: 'idle', stopReason: name });
    assert.ok(['Idle', 'circle-large-outline'].includes(idle.label) || idle.label.startsWith('Idle ('), idle.label);
    assert.equal(idle.icon, 'circle-large-outline');
    assert.equal(ownEntry({ a: 1 }, name), undefined);
    assert.equal(toolKindIcon(name), 'tools');
    const tool = presentToolStatus({ status: name });
    assert.equal(typeof tool.label, 'string');
    assert.equal(tool.spin, false);
  }
  assert.equal(presentState({ state: 'constructor' }).label, 'constructor');
  assert.equal(presentState({ state: '' }).label, 'Unknown');
  assert.equal(presentState({ state: 'idle', stopReason: 'toString' }).label, 'Idle (toString)');
});

test('tool statuses; a call left open by its turn shows as stopped, not spinning, without a result', () => {
  assert.deepEqual(presentToolStatus({ status: 'pending' }), { icon: 'circle-outline', spin: false, label: 'pending' });
  assert.deepEqual(presentToolStatus({ status: 'in_progress' }), { icon: 'loading', spin: true, label: 'running' });
  assert.deepEqual(presentToolStatus({ status: 'completed' }), { icon: 'check', spin: false, label: 'completed' });
  assert.deepEqual(presentToolStatus({ status: 'failed' }), { icon: 'error', spin: false, label: 'failed' });
  assert.deepEqual(presentToolStatus({ status: 'cancelled' }), { icon: 'circle-slash', spin: false, label: 'cancelled' });
  assert.deepEqual(presentToolStatus({ status: 'paused' }), { icon: 'debug-pause', spin: false, label: 'paused' });
  assert.deepEqual(presentToolStatus({ status: 'waiting_for_io' }), { icon: 'circle-outline', spin: false, label: 'waiting for io' });
  const stopped = (stopReason: string, status = 'in_progress') => presentToolStatus({ status, stoppedByTurn: { stopReason, at: 1 } });
  assert.deepEqual(stopped('cancelled'), { icon: 'debug-stop', spin: false, label: 'stopped · turn cancelled' });
  assert.deepEqual(stopped('end_turn', 'pending'), { icon: 'debug-stop', spin: false, label: 'stopped · turn ended' });
  assert.equal(stopped('max_tokens').label, 'stopped · turn max tokens');
  assert.equal(stopped('').label, 'stopped · turn ended');
  // An end the agent did report wins over the turn's.
  assert.equal(stopped('cancelled', 'completed').label, 'completed');
});

test('progress belongs to a running call: it goes when the call ends or stops with its turn', () => {
  assert.equal(toolProgress({ status: 'in_progress', progress: 'Reading 3 files' }), 'Reading 3 files');
  assert.equal(toolProgress({ status: 'pending', progress: '  ' }), undefined);
  assert.equal(toolProgress({ status: 'completed', progress: 'Reading 3 files' }), undefined);
  assert.equal(toolProgress({ status: 'failed', progress: 'x' }), undefined);
  assert.equal(toolProgress({ status: 'in_progress', progress: 'x', stoppedByTurn: { stopReason: 'cancelled', at: 1 } }), undefined);
});

test('one duration format and one elapsed-time rule', () => {
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(-5), '0s');
  assert.equal(formatDuration(Number.NaN), '0s');
  assert.equal(formatDuration(12_999), '12s');
  assert.equal(formatDuration(65_000), '1m 5s');
  assert.equal(formatDuration(2 * 3_600_000 + 3 * 60_000), '2h 3m');
  const history = [{ at: 1_000 }, { at: 4_000 }];
  const base = { createdAt: 1_000, updatedAt: 9_000, stateHistory: history };
  assert.equal(elapsedMs({ ...base, state: { state: 'running' } }, 20_000, true), 19_000, 'working and live: until now');
  assert.equal(elapsedMs({ ...base, state: { state: 'requires_action' } }, 20_000, true), 19_000);
  assert.equal(elapsedMs({ ...base, state: { state: 'running' } }, 20_000, false), 3_000, 'a finished connection: until the last state change');
  assert.equal(elapsedMs({ ...base, state: { state: 'idle', stopReason: 'end_turn' } }, 20_000, true), 3_000);
  assert.equal(elapsedMs({ createdAt: 1_000, updatedAt: 9_000, state: { state: 'idle' } }, 20_000, true), 8_000, 'no history: the update time');
  assert.equal(elapsedMs({ createdAt: 10_000, updatedAt: 9_000, stateHistory: [], state: { state: 'idle' } }, 0, true), 0);
});

test('the state explanation says what was reported, by whom and when', () => {
  const t = (s: number) => Date.UTC(2026, 0, 1, 12, 1, s);
  const formatTime = (at: number) => clockTime(at, true);
  assert.equal(clockTime(t(3), true), '12:01:03');
  assert.equal(clockTime(Number.NaN, true), '--:--:--');
  assert.equal(
    stateExplanation(
      [
        { state: 'running', at: t(0), source: 'client' },
        { state: 'idle', stopReason: 'cancelled', at: t(3), source: 'agent' },
        { state: 'unknown', at: t(9), source: 'agent' },
      ],
      { formatTime },
    ),
    'Started 12:01:00, then reported cancelled 12:01:03, then reported unknown 12:01:09',
  );
  assert.equal(
    stateExplanation(
      [
        { state: 'idle', at: t(0), source: 'client' },
        { state: 'running', at: t(1), source: 'tool-call' },
        { state: 'idle', stopReason: 'cancelled', at: t(3), source: 'turn' },
        { state: 'disconnected', at: t(9), source: 'client' },
      ],
      { formatTime },
    ),
    "Running 12:01:01 (from its tool call), then cancelled 12:01:03 with the parent's turn, then disconnected 12:01:09",
  );
  assert.equal(stateExplanation([{ state: 'idle', at: t(0), source: 'client' }], { formatTime }), 'Opened 12:01:00');
  assert.equal(
    stateExplanation([{ state: 'running', at: t(0), source: 'agent' }], { formatTime, cancelRequestedAt: t(5) }),
    'Reported running 12:01:00, then cancel requested 12:01:05',
  );
  assert.equal(stateExplanation([{ state: 'running', at: t(6), source: 'agent' }], { formatTime, cancelRequestedAt: t(5) }), 'Reported running 12:01:06');
  assert.equal(stateExplanation([{ state: 'idle', stopReason: 'end_turn', at: t(0), source: 'agent' }], { formatTime, last: 1 }), 'Reported done 12:01:00');
  assert.equal(stateExplanation([], { formatTime }), '');
  for (const name of HOSTILE) {
    const text = stateExplanation([{ state: name, stopReason: name, at: t(0), source: 'agent' }], { formatTime });
    assert.ok(text.length < 120 && !text.includes('\n'), text);
  }
});

test('theme colour ids become the CSS variables VS Code defines in webviews', () => {
  assert.equal(themeColorVar('testing.iconPassed'), 'var(--vscode-testing-iconPassed)');
  assert.equal(themeColorVar('notificationsWarningIcon.foreground'), 'var(--vscode-notificationsWarningIcon-foreground)');
});

test('a session that runs again after the user answered it "resumed", not "started" twice', () => {
  const t = () => 't';
  const history = [
    { state: 'running', at: 1, source: 'client' as const },
    { state: 'requires_action', at: 2, source: 'client' as const },
    { state: 'running', at: 3, source: 'client' as const },
  ];
  assert.equal(stateExplanation(history, { formatTime: t }), 'Started t, then needs you t, then resumed t');
});

test('under a user message: who added it, and the agent\'s differing account as plain text (controls and bidi made visible)', () => {
  const base: MessageEntry = { kind: 'message', id: 'm', rev: 1, at: 0, role: 'user', text: 'list the files', attachments: [] };
  assert.deepEqual(presentDeliveries({ ...base }, clockTime), []);
  const lines = presentDeliveries({ ...base, addedByAgent: true, agentEcho: 'list\u001b]52;c;eA==\u0007 the \u202Efiles' }, clockTime);
  assert.deepEqual(lines.map((l) => [l.kind, l.text]), [
    ['added-by-agent', 'Added by the agent: this message was not sent from here'],
    ['agent-echo', 'The agent recorded this message as: list ]52;c;eA==  the ⟪U+202E⟫files'],
  ]);
  assert.equal(presentDeliveries({ ...base, agentEcho: '' }, clockTime)[0]!.text, 'The agent recorded this message as empty');
});

test('a permission answer says what the user chose: a denial never reads like an allow (#21 item 6)', async () => {
  const { entrySummary } = await import('../../webview/lib/format');
  const options = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
  ];
  const entry = { kind: 'permission', id: 'p', rev: 1, at: 0, requestId: '1', title: 'Run tests', options, outcome: 'selected', optionId: 'deny' } as const;
  assert.equal(entrySummary(entry, {}), 'Permission: Run tests (Denied: Deny)');
  assert.equal(entrySummary({ ...entry, optionId: 'allow' }, {}), 'Permission: Run tests (Allowed: Allow)');
  assert.equal(entrySummary({ ...entry, outcome: 'cancelled', optionId: undefined }, {}), 'Permission: Run tests (Cancelled without an answer)');
});
