// opencode's opt-in child stream (`opencode/session/child_update`): the client asks for it in initialize; each
// subagent becomes a real session under the one that started it, with its reported life and its own updates,
// linked to its `task` call once that names it; no virtual child is made for the call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildClientCapabilities } from '../../src/acp/capabilities';
import type { SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { fixtureText, replayStepwise, text, Wire } from './support/storeFixtures';

const FILE = 'opencode-child-updates.jsonl';
const ROOT = 'ses_dcf2a59e4ffeihgR8Z4F75fiM2';
const CHILD = 'ses_dcf2a54e9ffeUvlJEKFZguU2qh';
const children = (store: SessionStore): SessionView[] => store.listSessions().filter((session) => session.parentId !== null);

test('the client asks opencode for its child stream in initialize (next to Copilot\'s events)', () => {
  const capabilities = buildClientCapabilities({}) as { _meta?: Record<string, unknown> };
  assert.equal(capabilities._meta?.['opencode/child-session-updates'], true);
  assert.ok(capabilities._meta?.['github.com/copilot'], 'the Copilot opt-in stays');
});

test('a streamed child is a real session under its parent, linked to its task call when the call names it', () => {
  const completedAt = fixtureText('written', FILE).split('\n').findIndex((line) => line.includes('"toolCallId":"call_main_003","status":"completed"')) + 1;
  const seen: { line: number; ids: string[]; linkedTo: string | null }[] = [];
  const store = replayStepwise('written', FILE, (s, line) => {
    assert.ok(!s.listSessions().some((session) => session.origin === 'virtual'), `no virtual child for the task call (line ${line})`);
    const child = s.getSession(CHILD);
    seen.push({ line, ids: children(s).map((c) => c.id), linkedTo: child?.parentToolCallId ?? null });
  });
  assert.deepEqual(children(store).map((c) => c.id), [CHILD], 'one child, under its own id');
  assert.equal(seen.find((s) => s.line === completedAt - 1)?.linkedTo, null, 'not linked before the call names it');
  const child = store.getSession(CHILD)!;
  assert.equal(child.parentId, ROOT);
  assert.equal(child.parentToolCallId, 'call_main_003');
  assert.equal(store.getSession(ROOT)!.toolCalls['call_main_003']?.childSessionId, CHILD);
  assert.equal(child.link, 'opencode-child');
  assert.equal(child.label, 'Read notes file');
  assert.deepEqual(child.stateHistory.map((h) => `${h.state}/${h.stopReason ?? ''}/${h.source}`), ['unconfirmed//client', 'running//agent', 'idle/end_turn/agent']);

  // Its own updates are its own: a tool call (without opencode's title prefix), text, and its permission request.
  assert.deepEqual(Object.values(child.toolCalls).map((call) => [call.toolCallId, call.title, call.status]), [[`${CHILD}:call_A_005`, 'notes.txt', 'completed']]);
  assert.ok(child.entries.some((entry) => entry.kind === 'message' && entry.text.startsWith('Child A finished')));
  const permission = child.entries.find((entry) => entry.kind === 'permission');
  assert.equal(permission?.kind === 'permission' && permission.outcome, 'selected');
  assert.ok(!store.getSession(ROOT)!.entries.some((entry) => entry.kind === 'permission'), 'the question is the child\'s, though it came on the root');
  assert.ok(store.getSession(ROOT)!.entries.some((entry) => entry.kind === 'child' && entry.childSessionId === CHILD), 'a card in the parent chat');

  // A session of its own: nothing to load, and ACP gives no prompts to a subagent.
  assert.match(store.actionsFor(CHILD).openSubagent.reason ?? '', /session of its own already/);
  assert.equal(store.actionsFor(CHILD).prompt.allowed, false);
  assert.deepEqual(store.diagnostics, []);
});

function streamed(...events: Record<string, unknown>[]): Wire {
  const wire = new Wire().newSession('R');
  const end = wire.prompt('R', 'go');
  for (const { method = 'opencode/session/child_update', ...params } of events) {
    wire.store.ingest({ jsonrpc: '2.0', method, params: { rootSessionId: 'R', parentSessionId: 'R', depth: 1, ...params } }, 'agent->client');
  }
  end('end_turn');
  return wire;
}

test('status is the child\'s reported life: failed with its error, interrupted as cancelled, created as not reported yet', () => {
  const wire = streamed(
    { childSessionId: 'A', title: 'Fails', type: 'status', status: 'created' },
    { childSessionId: 'B', title: 'Stopped', type: 'status', status: 'running' },
    { childSessionId: 'A', type: 'status', status: 'running' },
    { childSessionId: 'A', type: 'status', status: 'failed', error: { type: 'provider', message: 'model unreachable' } },
    { childSessionId: 'B', type: 'status', status: 'interrupted' },
    { childSessionId: 'C', title: 'Waiting', type: 'status', status: 'created' },
  );
  assert.deepEqual(wire.session('A').state, { state: 'idle', stopReason: 'error', error: { message: 'model unreachable' } });
  assert.deepEqual(wire.session('B').state, { state: 'idle', stopReason: 'cancelled' });
  assert.equal(wire.session('C').state.state, 'unconfirmed', 'announced, never reported: the parent\'s end does not end it');
  assert.deepEqual([wire.session('A').label, wire.session('B').label, wire.session('C').label], ['Fails', 'Stopped', 'Waiting']);
});

test('a grandchild goes under its parent subagent; the `_`-prefixed method works too; bad notifications are said, not fatal', () => {
  const wire = streamed(
    { childSessionId: 'A', title: 'Explore', type: 'status', status: 'running' },
    { method: '_opencode/session/child_update', childSessionId: 'A2', parentSessionId: 'A', depth: 2, title: 'Deeper', type: 'update', update: text('agent_message_chunk', 'found it') },
    { childSessionId: 'A', type: 'mystery' },
    { parentSessionId: 'R', type: 'status', status: 'running' },
  );
  assert.equal(wire.session('A2').parentId, 'A');
  assert.ok(wire.session('A2').entries.some((entry) => entry.kind === 'message' && entry.text === 'found it'));
  assert.ok(!wire.session('R').entries.some((entry) => entry.kind === 'message' && entry.text === 'found it'), 'not on the root');
  assert.deepEqual(wire.codes(), ['invalid-message', 'invalid-message']);
});

test('opencode 1.18.33 ignores the opt-in and never advertises it: its task children stay virtual, as before', () => {
  const store = replayStepwise('recorded-new', 'opencode-single.jsonl');
  assert.deepEqual(children(store).map((c) => c.origin), ['virtual']);
});
