// The demo agent speaking ACP v2 to the real AgentConnection and store: the same tour as in v1 (tree, chat
// text, states), every message valid v2, and a tool call cancelled on its own in an agent terminal.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { AgentConfig } from '../../src/acp/agentProcess';
import type { RequestPermissionOutcome, RequestPermissionRequest } from '../../src/acp/clientHost';
import type { SessionStore } from '../../src/store/sessionStore';
import { fakeSessionsOfEachTest, RecordingHost, waitFor, type FakeSession } from '../fixtures/fake-agents/harness';
import { checkV2Messages } from './support/acpSchemaV2';

const REPO = resolve(__dirname, '..', '..');
const { spawn } = fakeSessionsOfEachTest();

function demoAgent(...extra: string[]): AgentConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { id: 'demo', name: 'Demo', command: process.execPath, args: ['--import', tsx, join(REPO, 'src/demoAgent/standalone.ts'), '--pace', '1', ...extra] };
}

/** Allows every permission with its first option. */
class AllowingHost extends RecordingHost {
  override requestPermission(request: RequestPermissionRequest): Promise<RequestPermissionOutcome> {
    return Promise.resolve({ outcome: 'selected', optionId: request.options[0]!.optionId });
  }
}

async function tour(protocolVersion: 1 | 2, text = 'Show me what you can do', ...args: string[]): Promise<{ session: FakeSession; sessionId: string }> {
  const session = spawn('normal', { agent: demoAgent(...args), host: new AllowingHost(), protocolVersion, terminalPolicy: () => 'allow' });
  await session.connection.initialize();
  const { sessionId } = await session.connection.newSession(session.workspace);
  const done = await session.connection.prompt(sessionId, [{ type: 'text', text }]);
  assert.equal(done.stopReason, 'end_turn');
  return { session, sessionId };
}

/** What the tree and the chat show, without ids (they are random per run). */
function shown(store: SessionStore) {
  return store.listSessions().map((s) => ({
    depth: store.subtree(s.id).length > 0 ? ancestors(store, s.id) : 0,
    label: s.label,
    link: s.link,
    state: `${s.state.state}/${s.state.stopReason ?? ''}`,
    tools: s.toolCallOrder.map((id) => `${s.toolCalls[id]!.kind}:${s.toolCalls[id]!.status}:${s.toolCalls[id]!.title}`),
    chat: s.entries.flatMap((e) => (e.kind === 'message' ? [`${e.role}:${e.text}`] : e.kind === 'permission' ? [`permission:${e.outcome}`] : e.kind === 'plan' ? [`plan:${e.entries.map((p) => p.status).join(',')}`] : [])),
  }));
}

function ancestors(store: SessionStore, id: string): number {
  let depth = 0;
  for (let p = store.getSession(id)?.parentId; p; p = store.getSession(p)?.parentId) depth++;
  return depth;
}

describe('demo agent over ACP v2', { timeout: 60_000 }, () => {
  it('answers v2 when offered 2, and every message it sends and receives is valid v2', async () => {
    const { session } = await tour(2);
    assert.equal(session.connection.protocolVersion, 2);
    assert.deepEqual(checkV2Messages(session.tapped).failures, []);
    const kinds = new Set(session.tapped.map((t) => (t.message.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate).filter(Boolean));
    for (const kind of ['tool_call_update', 'plan_update', 'state_update', 'subagent_update', 'terminal_update', 'terminal_output_chunk', 'user_message']) assert.ok(kinds.has(kind), kind);
    for (const v1Only of ['tool_call', 'plan', 'current_mode_update']) assert.ok(!kinds.has(v1Only), v1Only);
  });

  it('shows the same tree and chat as the v1 tour', async () => {
    const v1 = await tour(1);
    const v2 = await tour(2);
    const a = shown(v1.session.connection.store);
    const b = shown(v2.session.connection.store);
    assert.equal(b.length, 4, 'root, Explorer, its Scout, Reviewer');
    assert.deepEqual(b.map((s) => [s.depth, s.label, s.link, s.state]), a.map((s) => [s.depth, s.label, s.link, s.state]));
    assert.deepEqual(b.map((s) => s.tools.map((t) => t.split(':').slice(0, 2).join(':'))), a.map((s) => s.tools.map((t) => t.split(':').slice(0, 2).join(':'))));
    // The agent's words are the same; only what v1's client-side files and terminal added differs.
    const said = (rows: typeof a) => rows.map((s) => s.chat.filter((c) => c.startsWith('agent:') || c.startsWith('permission:') || c.startsWith('user:')));
    assert.deepEqual(said(b), said(a));
    const terminal = Object.values(v2.session.connection.store.getSession(v2.sessionId)!.terminals)[0];
    assert.ok(terminal?.agentOwned, 'the command ran in an agent terminal');
    assert.match(terminal.output, /3 checks passed/);
  });

  it('goes through the same states as the v1 tour: the root reports requires_action while its own permission waits', async () => {
    // v1: the client infers requires_action from the question; v2: the agent reports it (state_update).
    const states = (store: SessionStore) => store.listSessions().map((s) => [s.label, s.stateHistory.map((h) => h.state)]);
    const v1 = states((await tour(1)).session.connection.store);
    const v2 = states((await tour(2)).session.connection.store);
    assert.ok(JSON.stringify(v1[0]).includes('requires_action'), 'the v1 root waited on its permission');
    assert.deepEqual(v2, v1);
  });

  it('writes its files itself (v2 has no client fs): notes.md and the Reviewer\'s review.md, inside the cwd', async () => {
    const { session } = await tour(2);
    const notes = readFileSync(join(session.workspace, 'subchats-demo', 'notes.md'), 'utf8');
    assert.match(notes, /visited by the demo agent/);
    assert.ok(existsSync(join(session.workspace, 'subchats-demo', 'review.md')), 'the Reviewer wrote its review');
    assert.ok(!session.tapped.some((t) => typeof t.message.method === 'string' && t.message.method.startsWith('fs/')), 'no fs/* request at v2');
  });

  it('cancels just the slow command (tool_call/cancel): the call ends cancelled, its terminal stops, the turn goes on', async () => {
    const session = spawn('normal', { agent: demoAgent(), host: new AllowingHost(), protocolVersion: 2 });
    const { connection } = session;
    await connection.initialize();
    const { sessionId } = await connection.newSession(session.workspace);
    const done = connection.prompt(sessionId, [{ type: 'text', text: 'Show me /slow' }]);
    const bash = () => connection.store.getSession(sessionId)!.toolCallOrder.find((id) => connection.store.getSession(sessionId)!.toolCalls[id]!.kind === 'execute');
    await waitFor(() => {
      const id = bash();
      return id !== undefined && connection.store.itemActionsFor(sessionId, { toolCallId: id }).cancel.allowed;
    }, 'the cancellable command', 20_000);
    await connection.cancelToolCall(sessionId, bash()!);
    assert.equal((await done).stopReason, 'end_turn');
    const root = connection.store.getSession(sessionId)!;
    assert.equal(root.toolCalls[bash()!]!.status, 'cancelled');
    const terminal = Object.values(root.terminals)[0]!;
    assert.equal(terminal.exitStatus?.signal, 'SIGTERM');
    assert.equal(connection.store.listSessions().length, 4, 'the subagents still ran');
    assert.deepEqual(checkV2Messages(session.tapped).failures, []);
  });

  it('resumes a session by session/resume with replayFrom (history replayed, the state reported)', async () => {
    const { session, sessionId } = await tour(2, '/quick');
    await session.connection.resumeSession(sessionId, session.workspace);
    const replayedText = session.tapped.filter((t) => t.message.method === 'session/update' && (t.message.params as { update: { sessionUpdate: string } }).update.sessionUpdate === 'agent_message_chunk').length;
    assert.ok(replayedText >= 2, 'the answer streamed twice: live and replayed');
    assert.deepEqual(checkV2Messages(session.tapped).failures, []);
  });

  it('--protocol 1 answers 1 to an offer of 2', async () => {
    const session = spawn('normal', { agent: demoAgent('--protocol', '1'), host: new AllowingHost(), protocolVersion: 2 });
    await session.connection.initialize();
    assert.equal(session.connection.protocolVersion, 1);
  });
});

describe('demo agent dialects and ACP v2', { timeout: 60_000 }, () => {
  // The dialects model v1 agents' own subagent conventions (Copilot, Claude stamps, …); v2 makes subagent_update baseline.
  for (const dialect of ['copilot', 'claude', 'qwen', 'zed', 'kind-subagent', 'air']) {
    it(`--dialect ${dialect} answers 1 to an offer of 2 (a v1 agent's dialect)`, async () => {
      const session = spawn('normal', { agent: demoAgent('--dialect', dialect), host: new AllowingHost(), protocolVersion: 2 });
      await session.connection.initialize();
      assert.equal(session.connection.protocolVersion, 1);
    });
  }

  it('--dialect acp answers 2, and --protocol 2 forces 2 even with a v1 dialect', async () => {
    for (const args of [['--dialect', 'acp'], ['--dialect', 'copilot', '--protocol', '2']]) {
      const session = spawn('normal', { agent: demoAgent(...args), host: new AllowingHost(), protocolVersion: 2 });
      await session.connection.initialize();
      assert.equal(session.connection.protocolVersion, 2, args.join(' '));
    }
  });
});
