// AgentConnection over real stdio against the scripted fake agent (test/fixtures/fake-agents/scriptedAgent.mjs).
import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it, test } from 'node:test';
import {
  ActionRefusedError,
  AgentExitedError,
  AgentRequestError,
  AgentStartError,
  AgentTimeoutError,
  ConnectionClosedError,
  InvalidDelegationError,
  NotAdvertisedError,
  UnsupportedContentError,
  UnsupportedProtocolVersionError,
  type AgentExit,
} from '../../src/acp/errors';
import { AgentConnection } from '../../src/acp/agentConnection';
import type { SessionActions } from '../../src/store/model';
import { fakeSessionsOfEachTest, makeWorkspace, RecordingHost, resultsOf, SCRIPTED_AGENT, script, waitFor } from '../fixtures/fake-agents/harness';

const { spawn, start } = fakeSessionsOfEachTest();

const PERMISSION_OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const permissionStep = (sessionId: string) => ({
  request: 'session/request_permission',
  params: { sessionId, toolCall: { toolCallId: `tc-${sessionId}`, title: 'Write file' }, options: PERMISSION_OPTIONS },
});

describe('initialize', { timeout: 20_000 }, () => {
  it('sends protocol version 1 with the client capabilities and exposes what the agent advertised', async () => {
    const { connection, tapped } = await start();
    const sent = tapped[0]!;
    assert.equal(sent.direction, 'client->agent');
    assert.equal(sent.message.method, 'initialize');
    const params = sent.message.params as Record<string, unknown>;
    assert.equal(params.protocolVersion, 1);
    assert.deepEqual(params.clientCapabilities, {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      session: { notices: {} },
      subagents: {},
      _meta: { 'github.com/copilot': { events: ['subagent.started', 'subagent.completed', 'subagent.failed', 'assistant.message_start', 'assistant.message_delta', 'assistant.usage'] }, 'opencode/child-session-updates': true, 'cognition.ai/subagentSupport': true },
      elicitation: { form: {} },
    });
    assert.equal(connection.agentInfo?.name, 'scripted-fake-agent');
    assert.deepEqual(
      connection.authMethods.map((method) => method.id),
      ['token'],
    );
    assert.deepEqual(connection.delegationSupport, { promptDelegation: true, background: true });
    assert.equal(tapped[1]!.direction, 'agent->client');
  });

  it('times out with a clear message when the agent never answers, and stops the agent', async () => {
    const session = spawn('silent', { initializeTimeoutMs: 300 });
    const exited = new Promise<AgentExit>((resolve) => session.connection.onDidExit(resolve));
    await assert.rejects(session.connection.initialize(), (error: Error) => {
      assert.ok(error instanceof AgentTimeoutError);
      assert.match(error.message, /did not answer initialize within 300 ms/);
      return true;
    });
    await exited;
    await assert.rejects(session.connection.newSession(session.workspace), ConnectionClosedError);
  });

  it('disconnects from an agent that answers a protocol version we cannot speak', async () => {
    const session = spawn('version2');
    const exited = new Promise<AgentExit>((resolve) => session.connection.onDidExit(resolve));
    await assert.rejects(session.connection.initialize(), (error: Error) => {
      assert.ok(error instanceof UnsupportedProtocolVersionError);
      assert.match(error.message, /speaks ACP protocol version 2.*supports only version 1/);
      return true;
    });
    await exited;
    assert.equal(session.connection.isClosed, true);
  });

  it('turns an initialize error into a readable AgentRequestError', async () => {
    const session = spawn('init-error');
    await assert.rejects(session.connection.initialize(), (error: Error) => {
      assert.ok(error instanceof AgentRequestError);
      assert.equal(error.code, -32603);
      assert.match(error.message, /Agent "Fake" failed initialize: model provider unreachable \(internal error, code -32603\)/);
      return true;
    });
  });

  it('reports a command that cannot be started', async () => {
    const workspace = makeWorkspace();
    const connection = AgentConnection.spawn({
      agent: { id: 'missing', name: 'Missing', command: path.join(workspace, 'no-such-agent') },
      cwd: workspace,
      host: spawnHostless(),
      workspaceFolders: () => [workspace],
    });
    const exit = new Promise<AgentExit>((resolve) => connection.onDidExit(resolve));
    await assert.rejects(connection.initialize(), (error: Error) => {
      assert.ok(error instanceof AgentStartError);
      assert.match(error.message, /Could not start agent "Missing".*ENOENT/);
      return true;
    });
    assert.match((await exit).description, /Could not start agent/);
    await fs.rm(workspace, { recursive: true, force: true });
  });
});

function spawnHostless() {
  return {
    requestPermission: async () => ({ outcome: 'cancelled' as const }),
    readTextFile: async () => '',
    writeTextFile: async () => undefined,
  };
}

describe('session methods', { timeout: 20_000 }, () => {
  it('creates, loads, resumes, lists, sets mode and config, closes, authenticates', async () => {
    const { connection, workspace, tapped } = await start();
    const created = await connection.newSession(workspace);
    assert.equal(created.sessionId, 'sess-1');
    const loaded = await connection.loadSession('sess-1', workspace);
    assert.ok(loaded.modes);
    // The replayed update was tapped before the load response.
    const methods = tapped.map((entry) => entry.message.method ?? `response:${String(entry.message.id)}`);
    assert.ok(methods.indexOf('session/update') > methods.indexOf('session/load'));
    await connection.resumeSession('sess-1', workspace);
    const listed = await connection.listSessions({ cwd: workspace });
    assert.equal(listed.sessions[0]?.sessionId, 'sess-1');
    await connection.setMode('sess-1', 'code');
    // One reducer of the wire: the store the connection feeds holds the new values, which pickers and views read.
    assert.equal(connection.store.getSession('sess-1')?.currentModeId, 'code');
    const config = await connection.setConfigOption('sess-1', 'model', 'b');
    assert.equal(config.configOptions.length, 1);
    assert.deepEqual(connection.store.getSession('sess-1')?.configOptions, config.configOptions);
    await connection.authenticate('token');
    await connection.logout();
    await connection.closeSession('sess-1');
    await assert.rejects(connection.authenticate('oauth'), NotAdvertisedError);
    await assert.rejects(connection.setMode('sess-1', 'code'), NotAdvertisedError); // forgotten after close
  });

  it('refuses methods the agent did not advertise without sending anything', async () => {
    const minimal = JSON.stringify({ agentCapabilities: { promptCapabilities: {} }, authMethods: [] });
    const session = await start('normal', { env: { FAKE_AGENT_INIT: minimal } });
    const { connection, workspace } = session;
    await connection.newSession(workspace);
    await assert.rejects(connection.loadSession('sess-1', workspace), NotAdvertisedError);
    await assert.rejects(connection.resumeSession('sess-1', workspace), NotAdvertisedError);
    await assert.rejects(connection.listSessions(), NotAdvertisedError);
    await assert.rejects(connection.closeSession('sess-1'), NotAdvertisedError);
    await assert.rejects(connection.logout(), NotAdvertisedError);
    await assert.rejects(connection.newSession(workspace, { additionalDirectories: [workspace] }), NotAdvertisedError);
    await assert.rejects(connection.setMode('sess-1', 'nope'), NotAdvertisedError);
    await assert.rejects(connection.setConfigOption('sess-1', 'effort', 'x'), NotAdvertisedError);
    await assert.rejects(connection.prompt('sess-1', [{ type: 'image', data: '', mimeType: 'image/png' }]), UnsupportedContentError);
    await assert.rejects(connection.prompt('sess-1', script([]), { policy: 'auto' }), InvalidDelegationError);
    await connection.prompt('sess-1', script([])); // sync point: everything before it has reached the agent
    const methods = (await session.received()).map((message) => message.method);
    assert.deepEqual(methods, ['initialize', 'session/new', 'session/prompt']);
  });

  it('tracks the subagent catalog and validates delegation before sending', async () => {
    const { connection, workspace } = await start();
    const changes: string[][] = [];
    await connection.newSession(workspace);
    changes.push(connection.availableSubagents('sess-1').map((agent) => agent.id));
    assert.deepEqual(
      connection.availableSubagents('sess-1').map((agent) => agent.id),
      ['explorer', 'tester'],
    );
    const response = await connection.prompt('sess-1', script([]), { policy: 'require', subagentId: 'tester', runMode: 'background' });
    assert.deepEqual((response._meta as Record<string, unknown>).delegation, { policy: 'require', subagentId: 'tester', runMode: 'background' });
    await assert.rejects(connection.prompt('sess-1', script([]), { policy: 'auto', subagentId: 'tester' }), InvalidDelegationError);

    await connection.prompt(
      'sess-1',
      script([{ notify: 'session/update', params: { sessionId: 'sess-1', update: { sessionUpdate: 'available_subagents_update', availableSubagents: [{ id: 'reviewer', title: 'Reviewer' }] } } }]),
    );
    changes.push(connection.availableSubagents('sess-1').map((agent) => agent.id));
    assert.deepEqual(changes, [['explorer', 'tester'], ['reviewer']]);
    await assert.rejects(connection.prompt('sess-1', script([]), { policy: 'prefer', subagentId: 'tester' }), /unknown subagent "tester" \(available: reviewer\)/);
  });
});

/** The same verdict for every action (a guard the test controls). */
function everyAction(verdict: { allowed: boolean; reason?: string }): SessionActions {
  const route = verdict.allowed ? ('prompt' as const) : ('refuse' as const);
  return { phase: 'idle', busy: false, cancel: verdict, prompt: verdict, steer: verdict, queue: verdict, relay: verdict, close: verdict, changeSetting: verdict, openSubagent: verdict, message: verdict, cancelChildren: verdict, send: { route, reason: verdict.reason ?? '' } };
}

describe('guard from the session store', { timeout: 20_000 }, () => {
  it('sends nothing for a child cancel or prompt the store refuses', async () => {
    const refusedForChild = (sessionId: string): SessionActions => {
      const verdict = sessionId === 'child-1' ? { allowed: false, reason: 'the agent does not allow cancelling this subagent' } : { allowed: true };
      return everyAction(verdict);
    };
    const session = await start('normal', { actionsFor: refusedForChild });
    const { connection, workspace } = session;
    await connection.newSession(workspace);
    await assert.rejects(connection.cancel('child-1'), (error: Error) => {
      assert.ok(error instanceof ActionRefusedError);
      assert.match(error.message, /Cannot cancel session child-1: the agent does not allow cancelling this subagent/);
      return true;
    });
    await assert.rejects(connection.prompt('child-1', script([])), ActionRefusedError);
    await connection.cancel('sess-1');
    await connection.prompt('sess-1', script([])); // sync point
    const received = await session.received();
    const cancels = received.filter((message) => message.method === 'session/cancel');
    assert.deepEqual(
      cancels.map((message) => (message.params as { sessionId: string }).sessionId),
      ['sess-1'],
    );
    assert.equal(received.filter((message) => (message.params as { sessionId?: string } | undefined)?.sessionId === 'child-1').length, 0);
  });
});

describe('permission requests', { timeout: 20_000 }, () => {
  it('passes the user choice (allow, then reject) back to the agent', async () => {
    const { connection, workspace, host } = await start();
    await connection.newSession(workspace);
    const prompt = connection.prompt('sess-1', script([permissionStep('sess-1'), permissionStep('sess-1')]));
    await waitFor(() => host.permissions.length === 1, 'first permission request');
    host.permissions[0]!.answer({ outcome: 'selected', optionId: 'allow' });
    await waitFor(() => host.permissions.length === 2, 'second permission request');
    host.permissions[1]!.answer({ outcome: 'selected', optionId: 'reject' });
    const results = resultsOf(await prompt);
    assert.deepEqual(results[0]!.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.deepEqual(results[1]!.result, { outcome: { outcome: 'selected', optionId: 'reject' } });
  });

  it('sends an option the agent did not offer as cancelled', async () => {
    const { connection, workspace, host } = await start();
    await connection.newSession(workspace);
    const prompt = connection.prompt('sess-1', script([permissionStep('sess-1')]));
    await waitFor(() => host.permissions.length === 1, 'permission request');
    host.permissions[0]!.answer({ outcome: 'selected', optionId: 'allow_everything' });
    assert.deepEqual(resultsOf(await prompt)[0]!.result, { outcome: { outcome: 'cancelled' } });
  });

  it('answers a pending permission cancelled when its session is cancelled', async () => {
    const { connection, workspace, host, tapped } = await start();
    await connection.newSession(workspace);
    const prompt = connection.prompt('sess-1', script([permissionStep('sess-1')]));
    await waitFor(() => host.permissions.length === 1, 'permission request');
    await connection.cancel('sess-1');
    assert.equal(host.permissions[0]!.signal.aborted, true);
    const response = await prompt;
    assert.equal(response.stopReason, 'cancelled');
    assert.deepEqual(resultsOf(response)[0]!.result, { outcome: { outcome: 'cancelled' } });
    host.permissions[0]!.answer({ outcome: 'selected', optionId: 'allow' }); // too late: ignored
    const cancelIndex = tapped.findIndex((entry) => entry.message.method === 'session/cancel');
    const answerIndex = tapped.findIndex((entry) => entry.message.id === 'agent-req-0' && 'result' in entry.message);
    assert.ok(cancelIndex >= 0 && cancelIndex < answerIndex, 'session/cancel goes out before the cancelled answer');
  });

  it("cancels a child's pending permission when its parent is cancelled, and leaves others alone", async () => {
    const descendants: Record<string, string[]> = { 'sess-1': ['child-1', 'grandchild-1'] };
    // The scripted children are never announced, so the store would refuse to cancel them; this test is about
    // which pending requests a cancel answers (the store's guard is tested in 'guard from the session store').
    const allowAll = { allowed: true } as const;
    const { connection, workspace, host } = await start('normal', {
      descendantsOf: (id) => descendants[id] ?? [],
      actionsFor: () => everyAction(allowAll),
    });
    await connection.newSession(workspace);
    const childSteps = [permissionStep('child-1'), { waitForCancel: true }];
    const prompt = connection.prompt('sess-1', script(childSteps));
    await waitFor(() => host.permissions.length === 1, 'child permission request');
    assert.equal(host.permissions[0]!.request.sessionId, 'child-1');
    await connection.cancel('sess-1');
    const response = await prompt;
    assert.deepEqual(resultsOf(response)[0]!.result, { outcome: { outcome: 'cancelled' } });
    assert.equal(response.stopReason, 'cancelled');

    // A sibling's request survives cancelling an unrelated session.
    const second = connection.prompt('sess-1', script([permissionStep('other-child')]));
    await waitFor(() => host.permissions.length === 2, 'other permission request');
    await connection.cancel('child-1');
    assert.equal(host.permissions[1]!.signal.aborted, false);
    host.permissions[1]!.answer({ outcome: 'selected', optionId: 'allow' });
    assert.deepEqual(resultsOf(await second)[0]!.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
  });
});

describe('file system requests', { timeout: 20_000 }, () => {
  it('reads through the host with line/limit slicing', async () => {
    const { connection, workspace } = await start();
    const file = path.join(workspace, 'notes.txt');
    await fs.writeFile(file, 'one\ntwo\nthree\nfour\n');
    await connection.newSession(workspace);
    const response = await connection.prompt(
      'sess-1',
      script([
        { request: 'fs/read_text_file', params: { sessionId: 'sess-1', path: file, line: 2, limit: 2 } },
        { request: 'fs/read_text_file', params: { sessionId: 'sess-1', path: file } },
        { request: 'fs/read_text_file', params: { sessionId: 'sess-1', path: 'notes.txt' } },
        { request: 'fs/read_text_file', params: { sessionId: 'sess-1', path: path.join(workspace, 'missing.txt') } },
      ]),
    );
    const [sliced, whole, relative, missing] = resultsOf(response);
    assert.deepEqual(sliced!.result, { content: 'two\nthree\n' });
    assert.deepEqual(whole!.result, { content: 'one\ntwo\nthree\nfour\n' });
    assert.equal(relative!.error?.code, -32602);
    assert.match(relative!.error!.message, /relative/);
    assert.equal(missing!.error?.code, -32002);
  });

  it('writes inside the workspace and refuses ../ escapes, outside absolute paths and symlink escapes', async () => {
    const { connection, workspace, host } = await start();
    const outside = makeWorkspace();
    await fs.symlink(outside, path.join(workspace, 'link'));
    await connection.newSession(workspace);
    const write = (target: string) => ({ request: 'fs/write_text_file', params: { sessionId: 'sess-1', path: target, content: 'x' } });
    const response = await connection.prompt(
      'sess-1',
      script([
        write(path.join(workspace, 'src', '..', 'ok.txt')),
        write(`${workspace}/../escaped.txt`),
        write(path.join(outside, 'abs.txt')),
        write(path.join(workspace, 'link', 'via-link.txt')),
        write('relative.txt'),
      ]),
    );
    const [inside, dotDot, absolute, symlink, relative] = resultsOf(response);
    assert.deepEqual(inside!.result, {});
    assert.equal(await fs.readFile(path.join(workspace, 'ok.txt'), 'utf8'), 'x');
    assert.match(dotDot!.error!.message, /escapes the workspace through "\.\."/);
    assert.match(absolute!.error!.message, /is outside the workspace folders/);
    assert.match(symlink!.error!.message, /symbolic link/);
    assert.match(relative!.error!.message, /relative/);
    assert.deepEqual(
      host.writes.map((entry) => entry.path),
      [path.join(workspace, 'ok.txt')],
    );
    assert.deepEqual(await fs.readdir(outside), []);
    await fs.rm(outside, { recursive: true, force: true });
  });
});

describe('terminal requests', { timeout: 20_000 }, () => {
  it('creates a terminal, waits for exit, reads output, kills and releases', async () => {
    const { connection, workspace } = await start('normal', { terminalPolicy: () => 'allow' });
    await connection.newSession(workspace);
    const outputs: string[] = [];
    connection.terminals.onDidOutput((event) => outputs.push(event.data));
    const response = await connection.prompt(
      'sess-1',
      script([
        { request: 'terminal/create', params: { sessionId: 'sess-1', command: process.execPath, args: ['-e', 'console.log("hello " + process.env.GREETING)'], env: [{ name: 'GREETING', value: 'acp' }], cwd: workspace } },
        { request: 'terminal/wait_for_exit', params: { sessionId: 'sess-1', terminalId: '$0.terminalId' } },
        { request: 'terminal/output', params: { sessionId: 'sess-1', terminalId: '$0.terminalId' } },
        { request: 'terminal/release', params: { sessionId: 'sess-1', terminalId: '$0.terminalId' } },
        { request: 'terminal/output', params: { sessionId: 'sess-1', terminalId: '$0.terminalId' } },
        { request: 'terminal/create', params: { sessionId: 'sess-1', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } },
        { request: 'terminal/kill', params: { sessionId: 'sess-1', terminalId: '$5.terminalId' } },
        { request: 'terminal/wait_for_exit', params: { sessionId: 'sess-1', terminalId: '$5.terminalId' } },
        { request: 'terminal/create', params: { sessionId: 'sess-1', command: process.execPath, cwd: path.dirname(workspace) } },
      ]),
    );
    const results = resultsOf(response);
    assert.match(String((results[0]!.result as { terminalId: string }).terminalId), /^terminal-/);
    assert.deepEqual(results[1]!.result, { exitCode: 0, signal: null });
    assert.deepEqual(results[2]!.result, { output: 'hello acp\n', truncated: false, exitStatus: { exitCode: 0, signal: null } });
    assert.deepEqual(results[3]!.result, {});
    assert.equal(results[4]!.error?.code, -32002);
    assert.deepEqual(results[6]!.result, {});
    assert.equal((results[7]!.result as { signal: string }).signal, 'SIGTERM');
    assert.match(results[8]!.error!.message, /Terminal cwd rejected: .*outside the workspace/);
    assert.equal(outputs.join(''), 'hello acp\n');
  });
});

describe('other agent traffic', { timeout: 20_000 }, () => {
  it('answers unknown requests with -32601, logs unknown notifications, serves elicitation, and taps everything', async () => {
    const { connection, workspace, host, tapped, logs } = await start();
    host.elicitAnswer = { action: 'accept', content: { name: 'x' } };
    await connection.newSession(workspace);
    const response = await connection.prompt(
      'sess-1',
      script([
        { request: '_vendor/drainQueue', params: {} },
        { notify: '_vendor/status', params: { busy: true } },
        { request: 'elicitation/create', params: { sessionId: 'sess-1', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } } },
      ]),
    );
    const [unknown, , elicited] = resultsOf(response);
    assert.equal(unknown!.error?.code, -32601);
    assert.deepEqual(elicited!.result, { action: 'accept', content: { name: 'x' } });
    assert.ok(logs.some((line) => line.includes('Ignored notification _vendor/status')));
    assert.ok(tapped.some((entry) => entry.message.method === '_vendor/status' && entry.direction === 'agent->client'));
    const unknownAnswer = tapped.find((entry) => entry.message.id === 'agent-req-0' && entry.direction === 'client->agent');
    assert.equal((unknownAnswer?.message.error as { code: number }).code, -32601);
  });

  it('answers a duplicate request id with an error and keeps serving the first request', async () => {
    const { connection, workspace, host, tapped } = await start();
    await connection.newSession(workspace);
    const ask = (title: string) => JSON.stringify({ jsonrpc: '2.0', id: 'dup', method: 'session/request_permission', params: { sessionId: 'sess-1', toolCall: { toolCallId: title, title }, options: PERMISSION_OPTIONS } });
    const waiting = connection.prompt('sess-1', script([{ raw: ask('first') }, { raw: ask('second') }]));
    const answersToDup = () => tapped.filter((entry) => entry.direction === 'client->agent' && entry.message.id === 'dup');
    await waitFor(() => answersToDup().length === 1, 'the duplicate is answered');
    assert.equal((answersToDup()[0]!.message.error as { code: number; message: string }).code, -32600);
    assert.match((answersToDup()[0]!.message.error as { message: string }).message, /already pending/);
    assert.deepEqual(host.permissions.map((p) => p.request.toolCall.toolCallId), ['first'], 'only the first reaches the user');
    host.permissions[0]!.answer({ outcome: 'selected', optionId: 'allow' });
    await waitFor(() => answersToDup().length === 2, 'the first is answered');
    assert.deepEqual(answersToDup()[1]!.message.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.equal((await waiting).stopReason, 'end_turn');
  });

  it('reports garbage lines and invalid JSON-RPC, answers batches, and keeps going', async () => {
    const { connection, workspace, invalidLines, tapped } = await start();
    await connection.newSession(workspace);
    const response = await connection.prompt(
      'sess-1',
      script([{ raw: 'Loading model...' }, { raw: '{"hello": "world"}' }, { raw: '{"jsonrpc":"2.0","id":null,"method":"x"}' }, { raw: '[{"jsonrpc":"2.0","method":"x"}]' }, { raw: '' }]),
    );
    assert.equal(response.stopReason, 'end_turn');
    assert.deepEqual(
      invalidLines.map((line) => line.raw),
      ['Loading model...', '{"hello": "world"}', '{"jsonrpc":"2.0","id":null,"method":"x"}', '[{"jsonrpc":"2.0","method":"x"}]'],
    );
    assert.match(invalidLines[0]!.reason, /not JSON/);
    assert.match(invalidLines[1]!.reason, /neither a request, a notification nor a response/);
    assert.match(invalidLines[2]!.reason, /request id must be a string or a number/);
    assert.match(invalidLines[3]!.reason, /batches/);
    assert.ok(tapped.some((entry) => entry.direction === 'client->agent' && entry.message.id === null && (entry.message.error as { code: number }).code === -32600));
    assert.ok(!tapped.some((entry) => entry.message.hello !== undefined), 'invalid messages are not tapped');
  });

  it('rejects pending requests with a readable error and fires onDidExit when the agent crashes mid-stream', async () => {
    const { connection, workspace, host } = await start();
    const exit = new Promise<AgentExit>((resolve) => connection.onDidExit(resolve));
    await connection.newSession(workspace);
    const waiting = connection.prompt('sess-1', script([{ stderr: 'fatal: out of tokens' }, { raw: '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"par' }, { exit: 3 }]));
    await assert.rejects(waiting, (error: Error) => {
      assert.ok(error instanceof AgentExitedError);
      assert.match(error.message, /Agent "Fake" exited with code 3 while waiting for session\/prompt/);
      assert.match(error.message, /fatal: out of tokens/);
      return true;
    });
    const exited = await exit;
    assert.equal(exited.code, 3);
    assert.match(exited.stderrTail, /out of tokens/);
    await assert.rejects(connection.prompt('sess-1', script([])), AgentExitedError);
    await assert.rejects(connection.cancel('sess-1'), AgentExitedError);
    assert.equal(host.permissions.length, 0);
  });

  it('abandons a permission UI when the agent dies while asking', async () => {
    const { connection, workspace, host } = await start();
    await connection.newSession(workspace);
    const prompt = connection.prompt('sess-1', script([permissionStep('sess-1')]));
    await waitFor(() => host.permissions.length === 1, 'permission request');
    process.kill(connection.process.pid!, 'SIGKILL');
    await assert.rejects(prompt, /stopped by signal SIGKILL/);
    assert.equal(host.permissions[0]!.signal.aborted, true);
  });

  it('dispose rejects pending requests and stops the agent', async () => {
    const { connection, workspace } = await start();
    await connection.newSession(workspace);
    const exit = new Promise<AgentExit>((resolve) => connection.onDidExit(resolve));
    const prompt = connection.prompt('sess-1', script([{ waitForCancel: true }]));
    connection.dispose();
    await assert.rejects(prompt, ConnectionClosedError);
    assert.equal((await exit).signal, 'SIGTERM');
  });
});

describe('recorded traffic', { timeout: 20_000 }, () => {
  it('replays a real Claude transcript with a child permission request through the host, tapping every message', async () => {
    const trace = path.join(path.dirname(SCRIPTED_AGENT), 'traces', 'claude2-permission.jsonl');
    const recorded = (await fs.readFile(trace, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { dir: string; msg: Record<string, unknown> });
    const session = spawn('normal', { agent: { id: 'replay', name: 'Replay', command: process.execPath, args: [path.join(path.dirname(SCRIPTED_AGENT), 'replayAgent.mjs'), trace] } });
    const { connection, host, tapped, workspace } = session;
    await connection.initialize();
    const created = await connection.newSession(workspace);
    const prompt = connection.prompt(created.sessionId, [{ type: 'text', text: 'write a file via a subagent' }]);
    await waitFor(() => host.permissions.length === 1, 'the child permission request');
    const request = host.permissions[0]!.request;
    assert.equal(request.sessionId, 'a4a8897f1af5c0648');
    host.permissions[0]!.answer({ outcome: 'selected', optionId: request.options[0]!.optionId });
    assert.equal((await prompt).stopReason, 'end_turn');

    const fromAgent = (entries: { dir?: string; direction?: string; msg?: unknown; message?: unknown }[]) =>
      entries.filter((entry) => (entry.dir ?? entry.direction) === 'agent->client').map((entry) => entry.msg ?? entry.message);
    assert.deepEqual(fromAgent(tapped), fromAgent(recorded));
    assert.deepEqual(
      tapped.filter((entry) => entry.direction === 'client->agent').map((entry) => entry.message.method ?? 'response'),
      ['initialize', 'session/new', 'session/prompt', 'response'],
    );
  });
});

test('an agent that dies while something it started keeps its stderr open is still seen as gone', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'subchats-orphan-'));
  const pidFile = path.join(dir, 'pid');
  const connection = AgentConnection.spawn({
    agent: { id: 'orphaning', name: 'Orphaning', command: process.execPath, args: [path.join(__dirname, '../fixtures/fake-agents/orphaningAgent.mjs')], env: { ORPHAN_PID_FILE: pidFile } },
    cwd: dir,
    host: new RecordingHost(),
    workspaceFolders: () => [dir],
  });
  const exited = new Promise((resolve) => connection.onDidExit(resolve));
  try {
    await connection.initialize();
    const { sessionId } = await connection.newSession(dir);
    // Bounded well below the grandchild's 30 s: the client must not wait for it to let go of stderr.
    const bound = new Promise((_, reject) => setTimeout(() => reject(new Error('the exit went unnoticed')), 8000).unref());
    await Promise.race([assert.rejects(connection.prompt(sessionId, [{ type: 'text', text: 'die' }]), /exited with code 3/), bound]);
    await Promise.race([exited, bound]);
  } finally {
    connection.dispose();
    try {
      process.kill(-Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
