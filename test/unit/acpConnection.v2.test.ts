// AgentConnection speaking ACP v2 over real stdio: against the recorded v2 agents (replayed) and the scripted
// fake agent's v2 mode. Everything Subchats sends and receives is checked against the SDK's v2 schemas.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ActionRefusedError, NotAdvertisedError, UnsupportedProtocolVersionError } from '../../src/acp/errors';
import { replayFixture } from './support/storeFixtures';
import { checkV2Messages } from './support/acpSchemaV2';
import { fakeSessionsOfEachTest, SCRIPTED_AGENT, script, waitFor, type FakeSession } from '../fixtures/fake-agents/harness';
import type { SessionStore } from '../../src/store/sessionStore';

const RECORDED = path.join(__dirname, '..', 'fixtures', 'traces');
const REPLAY_AGENT = path.join(path.dirname(SCRIPTED_AGENT), 'replayAgent.mjs');

const { spawn } = fakeSessionsOfEachTest();

function replayed(trace: string): FakeSession {
  return spawn('normal', { protocolVersion: 2, agent: { id: 'replay', name: 'Replay', command: process.execPath, args: [REPLAY_AGENT, path.join(RECORDED, trace)] } });
}

function assertSchemaValid(session: FakeSession): void {
  const { failures, checked } = checkV2Messages(session.tapped);
  assert.deepEqual(failures, []);
  assert.ok(checked >= 2);
}

/** The tree as the store shows it: who is whose child, names, states, tool calls. */
function treeOf(store: SessionStore) {
  return store.listSessions().map((s) => ({
    id: s.id,
    parentId: s.parentId,
    label: s.label,
    state: `${s.state.state}/${s.state.stopReason ?? ''}`,
    toolCalls: s.toolCallOrder.map((id) => `${id}:${s.toolCalls[id]!.kind}:${s.toolCalls[id]!.status}`),
  }));
}

describe('recorded v2 agents', { timeout: 30_000 }, () => {
  for (const trace of ['claude2-v2-single.jsonl', 'codex-v2-single.jsonl', 'codex-v2-permission.jsonl', 'claude2-v2-cancel-child.jsonl']) {
    it(`${trace}: offers 2, speaks 2, "sent" on the ack and done on idle; the live tree is the recorded one`, async () => {
      const session = replayed(trace);
      const { connection, host } = session;
      await connection.initialize();
      assert.equal(connection.protocolVersion, 2);
      const { sessionId } = await connection.newSession(session.workspace);
      let acked: string | undefined;
      const done = connection.prompt(sessionId, [{ type: 'text', text: 'go' }], undefined, (messageId) => (acked = messageId));
      if (trace.includes('permission')) {
        await waitFor(() => host.permissions.length === 1, 'the child permission request');
        const ask = host.permissions[0]!;
        assert.equal((ask.request as unknown as { title: string }).title, 'Run command?');
        ask.answer({ outcome: 'selected', optionId: ask.request.options[0]!.optionId });
      }
      if (trace.includes('cancel-child')) {
        const child = 'a038d7af37ecb3f8d';
        await waitFor(() => connection.store.actionsFor(child).cancel.allowed, 'the child to be cancellable');
        await connection.cancel(child);
      }
      const rootIdle = (t: FakeSession['tapped'][number]) => {
        const params = t.message.params as { sessionId?: string; update?: { sessionUpdate?: string; state?: string } } | undefined;
        return params?.sessionId === sessionId && params.update?.sessionUpdate === 'state_update' && params.update.state === 'idle';
      };
      const idleSeenWhenDone = done.then(() => session.tapped.some(rootIdle));
      const response = await done;
      assert.ok(acked, 'sent: the acknowledgement named the message');
      assert.equal(await idleSeenWhenDone, true, 'done only once the root reported idle');
      assert.equal(response.stopReason, 'end_turn');
      assertSchemaValid(session);
      assert.deepEqual(treeOf(connection.store), treeOf(replayFixture('traces', trace).store));
    });
  }
});

describe('v2 negotiation', { timeout: 20_000 }, () => {
  it('offers v2 in the v2 shape (info, capabilities; no v1 client capabilities)', async () => {
    const session = spawn('v2', { protocolVersion: 2 });
    await session.connection.initialize();
    const params = session.tapped[0]!.message.params as Record<string, unknown>;
    assert.equal(params.protocolVersion, 2);
    assert.deepEqual(Object.keys(params).sort(), ['capabilities', 'info', 'protocolVersion']);
    assert.deepEqual(params.capabilities, { elicitation: { form: {} } });
    assert.equal(session.connection.protocolVersion, 2);
    assert.equal(session.connection.agentInfo?.name, 'scripted-fake-agent');
    assert.deepEqual(session.connection.authMethods.map((m) => m.id), ['token']);
    assert.equal(session.connection.offers('resume'), true);
    assert.equal(session.connection.offers('load'), false);
    assertSchemaValid(session);
  });

  it('speaks 1 with an agent that answers 1 to an offer of 2', async () => {
    const session = spawn('normal', { protocolVersion: 2 });
    await session.connection.initialize();
    assert.equal(session.connection.protocolVersion, 1);
    assert.equal(session.connection.store.protocolVersion, 1);
  });

  it('offering 1, disconnects from an agent that answers 2, and says which setting speaks it', async () => {
    const session = spawn('version2');
    await assert.rejects(session.connection.initialize(), (error: Error) => {
      assert.ok(error instanceof UnsupportedProtocolVersionError);
      assert.match(error.message, /subchats\.protocolVersion to "2" or "auto"/);
      return true;
    });
    assert.equal(session.connection.isClosed, true);
  });
});

describe('v2 client behaviour', { timeout: 20_000 }, () => {
  async function v2(): Promise<FakeSession & { sessionId: string }> {
    const session = spawn('v2', { protocolVersion: 2 });
    await session.connection.initialize();
    const { sessionId } = await session.connection.newSession(session.workspace);
    return Object.assign(session, { sessionId });
  }

  it('never sends v1-only methods: load and set_mode are refused; resume replays from the start; options, login and logout in v2 names', async () => {
    const session = await v2();
    const { connection, sessionId, workspace } = session;
    await assert.rejects(connection.loadSession(sessionId, workspace), NotAdvertisedError);
    await assert.rejects(connection.setMode(sessionId, 'code'), NotAdvertisedError);
    await connection.setConfigOption(sessionId, 'mode', 'code');
    await connection.resumeSession(sessionId, workspace);
    await connection.authenticate('token');
    await connection.logout();
    const methods = session.tapped.filter((t) => t.direction === 'client->agent').map((t) => t.message.method);
    assert.deepEqual(methods, ['initialize', 'session/new', 'session/set_config_option', 'session/resume', 'auth/login', 'auth/logout']);
    const resume = session.tapped.find((t) => t.message.method === 'session/resume')!.message.params as Record<string, unknown>;
    assert.deepEqual(resume.replayFrom, { type: 'start' });
    const option = session.tapped.find((t) => t.message.method === 'session/set_config_option')!.message.params as Record<string, unknown>;
    assert.equal(option.type, 'id');
    assert.ok(connection.store.getSession(sessionId)!.entries.some((e) => e.kind === 'message' && e.text === 'replayed'), 'the replayed history shows');
    assertSchemaValid(session);
  });

  it('a prompt is sent on its ack and done on idle (cancel confirmed by idle/cancelled)', async () => {
    const session = await v2();
    const { connection, sessionId } = session;
    let acked: string | undefined;
    let finished = false;
    const done = connection.prompt(sessionId, script([{ waitForCancel: true }]), undefined, (messageId) => (acked = messageId));
    void done.then(() => (finished = true));
    await waitFor(() => acked !== undefined, 'the acknowledgement');
    assert.equal(finished, false, 'the ack is not the end of the turn');
    assert.equal(connection.store.getSession(sessionId)!.state.state, 'running');
    await connection.cancel(sessionId);
    assert.equal((await done).stopReason, 'cancelled');
    assertSchemaValid(session);
  });

  it('cancels one tool call where it grants cancel, and refuses (sending nothing) where it does not', async () => {
    const session = await v2();
    const { connection, sessionId } = session;
    const call = (toolCallId: string, capabilities: unknown) => ({
      notify: 'session/update',
      params: { sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId, title: toolCallId, kind: 'execute', status: 'in_progress', capabilities } },
    });
    const done = connection.prompt(sessionId, script([call('cancellable', { cancel: {} }), call('fixed', {}), { waitFor: 'tool_call/cancel' }]));
    await waitFor(() => connection.store.getSession(sessionId)?.toolCalls['fixed'] !== undefined, 'both tool calls');
    assert.equal(connection.store.itemActionsFor(sessionId, { toolCallId: 'cancellable' }).cancel.allowed, true);
    await assert.rejects(connection.cancelToolCall(sessionId, 'fixed'), ActionRefusedError);
    await connection.cancelToolCall(sessionId, 'cancellable');
    await done;
    const sent = session.tapped.filter((t) => t.message.method === 'tool_call/cancel').map((t) => t.message.params);
    assert.deepEqual(sent, [{ sessionId, toolCallId: 'cancellable' }]);
    assert.equal(connection.store.itemActionsFor(sessionId, { toolCallId: 'cancellable' }).cancel.allowed, false, 'not once the turn stopped it');
    assertSchemaValid(session);
  });

  it('cancels an agent terminal that grants cancel', async () => {
    const session = await v2();
    const { connection, sessionId } = session;
    const terminal = { notify: 'session/update', params: { sessionId, update: { sessionUpdate: 'terminal_update', terminalId: 'T', command: 'sleep 9', capabilities: { cancel: {} } } } };
    const done = connection.prompt(sessionId, script([terminal, { waitFor: 'terminal/cancel' }]));
    await waitFor(() => connection.store.itemActionsFor(sessionId, { terminalId: 'T' }).cancel.allowed, 'the terminal');
    await connection.cancelTerminal(sessionId, 'T');
    await done;
    assert.deepEqual(session.tapped.filter((t) => t.message.method === 'terminal/cancel').map((t) => t.message.params), [{ sessionId, terminalId: 'T' }]);
    assertSchemaValid(session);
  });

  it('refuses v1 client methods from a v2 agent (method not found)', async () => {
    const session = await v2();
    const { connection, sessionId, workspace } = session;
    const read = { request: 'fs/read_text_file', params: { sessionId, path: path.join(workspace, 'x.txt') } };
    await connection.prompt(sessionId, script([read]));
    const answer = session.tapped.find((t) => t.direction === 'client->agent' && t.message.error !== undefined)!.message.error as { code: number };
    assert.equal(answer.code, -32601);
  });

  it('a v1 connection has no per-item cancel', async () => {
    const session = spawn('normal');
    await session.connection.initialize();
    await assert.rejects(session.connection.cancelToolCall('sess-1', 't'), NotAdvertisedError);
  });
});
