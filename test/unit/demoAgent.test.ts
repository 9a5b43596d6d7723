import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fullCapabilities, startChildProcess } from '../fixtures/demo/demoClient';
import type { Msg } from '../fixtures/demo/demoClient';
import { UsageError, parseOptions } from '../../src/demoAgent/options';
import { CWD, announcedChildren, childByTitle, lastState, messageText, newSession, prompt, requests, start, statesOf, stopAfterTests, toolStatuses } from './support/demoAgentRun';

describe('demo agent, ACP subagents', () => {
  test('a prompt runs the whole scripted tour and ends end_turn', async () => {
    const client = start();
    const init = client.initialize(fullCapabilities());
    const agent = await init;
    assert.equal(agent.protocolVersion, 1);
    assert.equal(agent.agentInfo.name, 'subchats-demo-agent');
    assert.deepEqual(agent.agentCapabilities.sessionCapabilities, { list: {}, resume: {}, close: {} });
    assert.equal(agent.agentCapabilities.loadSession, true);
    assert.deepEqual(agent.authMethods, []);
    const created = await client.call('session/new', { cwd: CWD, mcpServers: [] });
    const root = created.sessionId as string;
    assert.ok(created.modes.availableModes.length > 0);
    assert.ok(created.configOptions.some((option: Msg) => option.id === 'mode'));

    const response = await prompt(client, root);
    assert.equal(response.result.stopReason, 'end_turn');

    // Root: thoughts and text with message ids, a code block, plan, title, usage.
    const rootKinds = new Set(client.updates().filter((params) => params.sessionId === root).map((params) => params.update.sessionUpdate));
    for (const kind of ['agent_thought_chunk', 'agent_message_chunk', 'plan', 'tool_call', 'tool_call_update', 'usage_update', 'session_info_update', 'subagent_update', 'session_message']) {
      assert.ok(rootKinds.has(kind), `root got ${kind}`);
    }
    assert.match(messageText(client, root), /```ts\n[\s\S]*\n```/);
    assert.ok(client.updates().every((params) => !params.update.sessionUpdate.endsWith('_chunk') || typeof params.update.messageId === 'string'));
    const rootTools = client.updates().filter((params) => params.sessionId === root && params.update.sessionUpdate === 'tool_call');
    assert.deepEqual(rootTools.map((params) => params.update.kind), ['read', 'edit', 'execute']);
    assert.equal(rootTools[1]?.update.content[0].type, 'diff');

    // Terminal lifecycle, in order, and the real command output.
    const terminalMethods = client.received.filter((message) => typeof message.method === 'string' && message.method.startsWith('terminal/')).map((message) => message.method);
    assert.deepEqual(terminalMethods, ['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    const executeDone = client.updates().find((params) => params.update.toolCallId === rootTools[2]?.update.toolCallId && params.update.status === 'completed');
    assert.match(executeDone?.update.rawOutput.output, /3 checks passed/);

    // Writes only inside the cwd, each after an allowed permission on the same session.
    const writes = requests(client, 'fs/write_text_file');
    assert.equal(writes.length, 2);
    for (const write of writes) {
      assert.ok((write.params.path as string).startsWith(`${CWD}/subchats-demo/`));
      const permission = client.received.findIndex((message) => message.method === 'session/request_permission' && message.params.sessionId === write.params.sessionId);
      assert.ok(permission >= 0 && permission < client.received.indexOf(write));
    }
    assert.ok(client.files.get(`${CWD}/subchats-demo/notes.md`)?.includes('visited by the demo agent'));

    // Two children on the root, a grandchild on the Explorer.
    const children = announcedChildren(client);
    const explorer = childByTitle(client, 'Explorer');
    const reviewer = childByTitle(client, 'Reviewer');
    const scout = childByTitle(client, 'Scout');
    assert.equal(children.get(explorer), root);
    assert.equal(children.get(reviewer), root);
    assert.equal(children.get(scout), explorer);
    const announcementOf = (id: string) => client.updates().find((params) => params.update.sessionUpdate === 'subagent_update' && params.update.sessionId === id)?.update;
    assert.deepEqual(announcementOf(explorer)?.capabilities, { cancel: {} });
    assert.deepEqual(announcementOf(reviewer)?.capabilities, {});
    assert.deepEqual(announcementOf(explorer)?.state, { state: 'running' });

    // Announcement precedes any traffic for or about a child.
    for (const child of children.keys()) {
      const announced = client.indexOf((message) => message.method === 'session/update' && message.params.update.sessionUpdate === 'subagent_update' && message.params.update.sessionId === child);
      const firstTraffic = client.indexOf(
        (message) => message.params?.sessionId === child || (message.params?.update?.sessionUpdate === 'session_message' && JSON.stringify(message.params.update).includes(child)),
      );
      assert.ok(announced >= 0 && announced < firstTraffic, `announcement of ${child} comes first`);
    }

    // Delegation as linked session_message views, and the reply back.
    const outgoing = client.updates().find((params) => params.sessionId === root && params.update.sessionUpdate === 'session_message' && params.update.recipientSessionId === explorer);
    const incoming = client.updates().find((params) => params.sessionId === explorer && params.update.sessionUpdate === 'session_message');
    assert.equal(outgoing?.update.recipientMessageId, incoming?.update.messageId);
    assert.equal(incoming?.update.senderMessageId, outgoing?.update.messageId);
    const reply = client.updates().find((params) => params.sessionId === root && params.update.messageId === `${outgoing?.update.messageId}:reply`);
    assert.equal(reply?.update.senderSessionId, explorer);

    // Children stream their own text and tools, then go idle end_turn.
    for (const child of [explorer, reviewer, scout]) {
      assert.ok(messageText(client, child).length > 0);
      assert.ok(client.updates().some((params) => params.sessionId === child && params.update.sessionUpdate === 'tool_call'));
      assert.equal(lastState(client, child), 'idle/end_turn');
    }

    // The Reviewer asks under its own id and shows requires_action while waiting.
    const reviewerPermission = client.indexOf((message) => message.method === 'session/request_permission' && message.params.sessionId === reviewer);
    assert.ok(reviewerPermission > 0);
    assert.deepEqual(
      statesOf(client, reviewer).map((state) => state.state),
      ['running', 'requires_action', 'running', 'idle'],
    );
    assert.ok([...toolStatuses(client).values()].every((status) => status === 'completed'));
  });

  test('rejected permissions write nothing and fail the edits', async () => {
    const client = start();
    client.handlers.set('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'reject' } }));
    const root = await newSession(client);
    const response = await prompt(client, root);
    assert.equal(response.result.stopReason, 'end_turn');
    assert.equal(requests(client, 'session/request_permission').length, 2);
    assert.equal(requests(client, 'fs/write_text_file').length, 0);
    const edits = client.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && params.update.kind === 'edit');
    assert.equal(edits.length, 2);
    for (const edit of edits) assert.equal(toolStatuses(client).get(edit.update.toolCallId), 'failed');
  });

  test('cancelling the Explorer stops only its branch; the Reviewer cannot be cancelled', async () => {
    const client = start('--child-duration', '60000');
    const root = await newSession(client);
    let explorer = '';
    let scout = '';
    // Both cancels arrive while the Scout scans and the Reviewer still waits for its permission.
    client.handlers.set('session/request_permission', async (params) => {
      if (params.sessionId !== root) {
        const scoutAnnounced = await client.waitFor((message) => message.params?.update?.sessionUpdate === 'subagent_update' && message.params.update.title === 'Scout');
        explorer = scoutAnnounced.params.sessionId as string;
        scout = scoutAnnounced.params.update.sessionId as string;
        await client.waitFor((message) => message.params?.sessionId === scout && message.params.update.sessionUpdate === 'tool_call_update');
        client.notify('session/cancel', { sessionId: params.sessionId });
        client.notify('session/cancel', { sessionId: explorer });
      }
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    });
    const response = await prompt(client, root);
    const reviewer = childByTitle(client, 'Reviewer');
    assert.equal(response.result.stopReason, 'end_turn');
    assert.equal(lastState(client, explorer), 'idle/cancelled');
    assert.equal(lastState(client, scout), 'idle/cancelled');
    assert.equal(lastState(client, reviewer), 'idle/end_turn');
    assert.ok(requests(client, 'fs/write_text_file').some((write) => write.params.sessionId === reviewer));
    assert.ok(client.updates().some((params) => params.update.sessionId === explorer && params.update.capabilities?.cancel === null));

    // Nothing more from the Explorer branch after its cancelled state.
    const explorerStopped = client.indexOf((message) => message.params?.update?.sessionId === explorer && message.params.update.state?.stopReason === 'cancelled');
    const laterBranchTraffic = client.received.slice(explorerStopped + 1).filter((message) => message.params?.sessionId === explorer || message.params?.sessionId === scout);
    assert.deepEqual(laterBranchTraffic, []);
    // The scout's open scan was closed, and the parent still answered.
    const scan = client.updates().find((params) => params.sessionId === scout && params.update.sessionUpdate === 'tool_call');
    assert.equal(toolStatuses(client).get(scan?.update.toolCallId), 'failed');
    assert.match(messageText(client, root), /stopped \(cancelled\)/);
  });

  test('cancelling the root while the Reviewer waits for permission returns cancelled', async () => {
    const client = start('--child-duration', '60000');
    const root = await newSession(client);
    client.handlers.set('session/request_permission', async (params) => {
      if (params.sessionId === root) return { outcome: { outcome: 'selected', optionId: 'allow' } };
      // The whole tree is busy: the Scout scans (long child duration) while the Reviewer waits for us.
      await client.waitFor((message) => message.params?.update?.sessionUpdate === 'subagent_update' && message.params.update.title === 'Scout');
      client.notify('session/cancel', { sessionId: root });
      return { outcome: { outcome: 'cancelled' } };
    });
    const response = await prompt(client, root);
    assert.equal(response.result.stopReason, 'cancelled');
    for (const title of ['Explorer', 'Reviewer', 'Scout']) {
      const child = childByTitle(client, title);
      assert.equal(lastState(client, child), 'idle/cancelled', title);
    }
    assert.equal(requests(client, 'fs/write_text_file').filter((write) => write.params.path.endsWith('review.md')).length, 0);
    assert.ok([...toolStatuses(client).values()].every((status) => status === 'completed' || status === 'failed'));
  });

  test('without clientCapabilities.subagents the children fall back to Claude-style stamps', async () => {
    const client = start();
    const root = await newSession(client, { fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    const response = await prompt(client, root);
    assert.equal(response.result.stopReason, 'end_turn');
    assert.equal(announcedChildren(client).size, 0);
    assert.ok(client.updates().every((params) => params.sessionId === root));
    assert.ok(client.updates().some((params) => params.update._meta?.claudeCode?.toolName === 'Agent'));
  });
});

describe('demo agent dialects', () => {
  test('copilot: task calls, child calls tagged with an agentId, unmarked text; events only when the client asks', async () => {
    const plain = start('--dialect', 'copilot');
    const root = await newSession(plain);
    assert.equal((await prompt(plain, root)).result.stopReason, 'end_turn');
    const tasks = plain.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && typeof params.update.rawInput?.agent_type === 'string');
    assert.equal(tasks.length, 3, 'Explorer, its Scout and the Reviewer');
    assert.ok(plain.updates().every((params) => params.sessionId === root), 'everything on the parent session');
    const tagged = plain.updates().filter((params) => params.update._meta?.['github.com/copilot']?.agentId);
    assert.ok(tagged.length > 0 && tagged.every((params) => params.update.sessionUpdate.startsWith('tool_call')), 'only tool calls carry the agentId');
    assert.equal(plain.indexOf((message) => message.method === 'github.com/copilot/sessionEvent'), -1, 'no events unasked');

    const withEvents = start('--dialect', 'copilot');
    const capabilities = { ...fullCapabilities(), _meta: { 'github.com/copilot': { events: ['subagent.started', 'subagent.completed', 'assistant.message_delta'] } } };
    const root2 = await newSession(withEvents, capabilities);
    assert.equal((await prompt(withEvents, root2)).result.stopReason, 'end_turn');
    const events = withEvents.received.filter((message) => message.method === 'github.com/copilot/sessionEvent').map((message) => message.params as Msg);
    assert.deepEqual([...new Set(events.map((event) => event.type))].sort(), ['assistant.message_delta', 'subagent.completed', 'subagent.started']);
    const delta = withEvents.indexOf((message) => message.method === 'github.com/copilot/sessionEvent' && (message.params as Msg).type === 'assistant.message_delta');
    const chunk = withEvents.received[delta + 1]?.params as Msg | undefined;
    assert.equal(chunk?.update.sessionUpdate, 'agent_message_chunk', 'the chunk follows the delta that names its agent');
    assert.equal(chunk?.update.content.text, (withEvents.received[delta]!.params as Msg).data.deltaContent);
  });

  test('claude: Agent tool calls, child updates stamped with parentToolUseId on the parent session', async () => {
    const client = start('--dialect', 'claude');
    const root = await newSession(client);
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const agentCalls = client.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && params.update._meta?.claudeCode?.toolName === 'Agent');
    assert.equal(agentCalls.length, 3);
    assert.ok(client.updates().every((params) => params.sessionId === root));
    const [explorerCall] = agentCalls;
    const stamped = client.updates().filter((params) => params.update._meta?.claudeCode?.parentToolUseId === explorerCall?.update.toolCallId);
    assert.ok(stamped.some((params) => params.update.sessionUpdate === 'agent_message_chunk'));
    // The grandchild's Agent call is itself stamped with the Explorer's call.
    assert.ok(stamped.some((params) => params.update.sessionUpdate === 'tool_call' && params.update._meta.claudeCode.toolName === 'Agent'));
    const firstStamp = client.indexOf((message) => message.params?.update?._meta?.claudeCode?.parentToolUseId === explorerCall?.update.toolCallId);
    assert.ok(client.indexOf((message) => message.params?.update?.toolCallId === explorerCall?.update.toolCallId) < firstStamp);
    assert.ok(client.updates().some((params) => params.update.toolCallId === explorerCall?.update.toolCallId && params.update._meta?.claudeCode?.toolResponse?.status === 'completed'));
  });

  test('qwen: agent tool call, update _meta.parentToolCallId, progress copies', async () => {
    const client = start('--dialect', 'qwen');
    const root = await newSession(client);
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const agentCalls = client.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && params.update._meta?.toolName === 'agent');
    assert.equal(agentCalls.length, 3);
    assert.ok(agentCalls.every((params) => params.update.kind === 'other' && params.update.title.startsWith('Agent: ')));
    const explorerCall = agentCalls[0]?.update.toolCallId;
    const childTool = client.updates().find((params) => params.update.sessionUpdate === 'tool_call' && params.update._meta?.parentToolCallId === explorerCall && params.update._meta.toolName !== 'agent');
    assert.equal(childTool?.update._meta.provenance, 'subagent');
    assert.equal(childTool?.update._meta.subagentType, 'explorer');
    assert.ok(client.updates().some((params) => params.update.sessionUpdate === 'agent_message_chunk' && params.update._meta?.parentToolCallId === explorerCall));
    assert.ok(client.updates().some((params) => params.update.toolCallId === explorerCall && params.update._meta?.subagentProgress === true));
    assert.ok(client.updates().some((params) => params.update.toolCallId === explorerCall && params.update.rawOutput?.type === 'task_execution'));
  });

  test('zed: tool call _meta.subagent_session_info, child traffic with params _meta, child loadable', async () => {
    const client = start('--dialect', 'zed');
    const root = await newSession(client);
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const spawns = client.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && params.update._meta?.tool_name === 'task');
    assert.equal(spawns.length, 3);
    for (const spawn of spawns) {
      const child = spawn.update._meta.subagent_session_info.session_id as string;
      const traffic = client.updates().filter((params) => params.sessionId === child);
      assert.ok(traffic.length > 0);
      assert.ok(traffic.every((params) => params._meta?.parentToolCallId === spawn.update.toolCallId && params._meta.provenance === 'subagent'));
      assert.ok(client.indexOf((message) => message.params?.update?.toolCallId === spawn.update.toolCallId) < client.indexOf((message) => message.params?.sessionId === child));
    }
    const explorer = spawns[0]?.update._meta.subagent_session_info.session_id as string;
    const before = client.updates().length;
    await client.call('session/load', { sessionId: explorer, cwd: CWD, mcpServers: [] });
    const replayed = client.updates().slice(before);
    assert.ok(replayed.length > 0 && replayed.every((params) => params.sessionId === explorer));
  });

  test('kind-subagent: catalog, delegation, kind "subagent" with childSessionId', async () => {
    const client = start('--dialect', 'kind-subagent');
    const init = await client.initialize();
    assert.deepEqual(init.agentCapabilities.sessionCapabilities.subagents, { promptDelegation: {}, background: {} });
    const created = await client.call('session/new', { cwd: CWD, mcpServers: [] });
    assert.deepEqual(created.availableSubagents.map((entry: Msg) => entry.id), ['explorer', 'reviewer']);
    const root = created.sessionId as string;
    await client.waitFor((message) => message.params?.update?.sessionUpdate === 'available_subagents_update');
    const response = await prompt(client, root, 'review please', { delegation: { policy: 'require', subagentId: 'reviewer' } });
    assert.equal(response.result.stopReason, 'end_turn');
    const spawns = client.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && params.update.kind === 'subagent');
    assert.equal(spawns.length, 1);
    assert.equal(spawns[0]?.update.subagent.subagentId, 'reviewer');
    const child = spawns[0]?.update.subagent.childSessionId as string;
    assert.ok(requests(client, 'session/request_permission').some((request) => request.params.sessionId === child));
    assert.equal(toolStatuses(client).get(spawns[0]?.update.toolCallId), 'completed');
  });

  test('kind-subagent: a background delegation returns before the children, and a root cancel still stops them', async () => {
    const client = start('--dialect', 'kind-subagent', '--child-duration', '60000');
    const root = await newSession(client);
    const response = await prompt(client, root, 'explore in the background', { delegation: { policy: 'require', subagentId: 'explorer', runMode: 'background' } });
    assert.equal(response.result.stopReason, 'end_turn');
    const spawn = client.updates().find((params) => params.update.kind === 'subagent');
    assert.equal(spawn?.update.subagent.runMode, 'background');
    assert.equal(toolStatuses(client).get(spawn?.update.toolCallId), 'pending');
    client.notify('session/cancel', { sessionId: root });
    await client.waitFor((message) => message.params?.update?.toolCallId === spawn?.update.toolCallId && message.params.update.status === 'failed');
  });

  test('air: subagent_spawned and subagent_state_update', async () => {
    const client = start('--dialect', 'air');
    const root = await newSession(client);
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const spawned = client.updates().filter((params) => params.update.sessionUpdate === 'subagent_spawned');
    assert.deepEqual(spawned.map((params) => params.update.name), ['Explorer', 'Reviewer', 'Scout']);
    assert.ok(spawned.every((params) => typeof params.update.subagentSessionId === 'string' && typeof params.update.task === 'string'));
    const ended = client.updates().filter((params) => params.update.sessionUpdate === 'subagent_state_update');
    assert.deepEqual(new Set(ended.map((params) => params.update.state)), new Set(['completed']));
    assert.equal(ended.length, 3);
    assert.equal(announcedChildren(client).size, 0);
  });
});

describe('demo agent session methods', () => {
  test('list, modes, config options, load replay, resume, close', async () => {
    const client = start();
    await client.initialize({ ...fullCapabilities(), session: { configOptions: { boolean: {} } } });
    const created = await client.call('session/new', { cwd: CWD, mcpServers: [] });
    const root = created.sessionId as string;
    assert.ok(created.configOptions.some((option: Msg) => option.type === 'boolean'));

    await client.call('session/set_mode', { sessionId: root, modeId: 'plan' });
    await client.waitFor((message) => message.params?.update?.sessionUpdate === 'current_mode_update');
    const config = await client.call('session/set_config_option', { sessionId: root, configId: 'thoughts', type: 'boolean', value: false });
    assert.equal(config.configOptions.find((option: Msg) => option.id === 'thoughts').currentValue, false);
    assert.equal((await client.request('session/set_mode', { sessionId: root, modeId: 'nope' })).error.code, -32602);

    assert.equal((await prompt(client, root, 'plan only')).result.stopReason, 'end_turn');
    const kinds = client.updates().filter((params) => params.update.sessionUpdate === 'tool_call' && params.sessionId === root).map((params) => params.update.kind);
    assert.deepEqual(kinds, ['read']);
    assert.equal(messageText(client, root, 'agent_thought_chunk'), '');

    const list = await client.call('session/list', { cwd: CWD });
    assert.deepEqual(list.sessions.map((info: Msg) => info.sessionId), [root]);
    assert.equal(list.sessions[0].title, 'plan only');

    const explorer = childByTitle(client, 'Explorer');
    assert.equal((await client.request('session/prompt', { sessionId: explorer, prompt: [] })).error.code, -32602);
    assert.equal((await client.request('session/load', { sessionId: explorer, cwd: CWD, mcpServers: [] })).error.code, -32602);

    const live = client.updates();
    await client.call('session/load', { sessionId: root, cwd: CWD, mcpServers: [] });
    const replay = client.updates().slice(live.length);
    // The replay is the live history plus the user's own message.
    assert.deepEqual(
      replay.filter((params) => params.update.sessionUpdate !== 'user_message_chunk'),
      live,
    );
    assert.ok(replay.some((params) => params.update.sessionUpdate === 'user_message_chunk' && params.update.content.text === 'plan only'));

    const afterLoad = client.updates().length;
    await client.call('session/resume', { sessionId: root, cwd: CWD, mcpServers: [] });
    assert.equal(client.updates().length, afterLoad);

    await client.call('session/close', { sessionId: root });
    assert.equal((await client.request('session/prompt', { sessionId: root, prompt: [] })).error.code, -32002);
    assert.deepEqual((await client.call('session/list', {})).sessions, []);
  });

  test('/hang never answers but the agent keeps serving; $/cancel_request stops a prompt', async () => {
    const client = start();
    const hanging = await newSession(client);
    const other = (await client.call('session/new', { cwd: CWD, mcpServers: [] })).sessionId as string;
    client.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 'hang-1', method: 'session/prompt', params: { sessionId: hanging, prompt: [{ type: 'text', text: '/hang' }] } }));
    assert.equal((await prompt(client, other, '/quick')).result.stopReason, 'end_turn');
    assert.equal(client.indexOf((message) => message.id === 'hang-1'), -1);

    client.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 'long-1', method: 'session/prompt', params: { sessionId: other, prompt: [{ type: 'text', text: '/long' }] } }));
    await client.waitFor((message) => message.params?.sessionId === other && message.params.update.sessionUpdate === 'agent_message_chunk' && /Sentence/.test(message.params.update.content.text));
    client.notify('$/cancel_request', { requestId: 'long-1' });
    const stopped = await client.waitFor((message) => message.id === 'long-1');
    assert.equal(stopped.result.stopReason, 'cancelled');
  });

  test('/long streams until the root is cancelled', async () => {
    const client = start();
    const root = await newSession(client);
    const result = prompt(client, root, '/long');
    await client.waitFor((message) => message.params?.update?.sessionUpdate === 'agent_message_chunk');
    client.notify('session/cancel', { sessionId: root });
    assert.equal((await result).result.stopReason, 'cancelled');
  });
});

describe('demo agent options', () => {
  test('flags win over SUBCHATS_DEMO_PACE; bad values are usage errors', () => {
    assert.deepEqual(parseOptions([], {}), { pace: 150, childDuration: 0, dialect: 'acp', protocol: 'auto', steering: true });
    assert.equal(parseOptions(['--protocol', '2'], {}).protocol, 2);
    assert.equal(parseOptions(['--no-steering'], {}).steering, false);
    assert.throws(() => parseOptions(['--no-steering=yes'], {}), { message: '--no-steering takes no value' });
    assert.throws(() => parseOptions(['--protocol', '3'], {}), UsageError);
    assert.equal(parseOptions([], { SUBCHATS_DEMO_PACE: '3' }).pace, 3);
    assert.deepEqual(parseOptions(['--pace=0', '--child-duration', '500', '--dialect', 'qwen'], { SUBCHATS_DEMO_PACE: '3' }), { pace: 0, childDuration: 500, dialect: 'qwen', protocol: 'auto', steering: true });
    assert.throws(() => parseOptions(['--dialect', 'gemini'], {}), UsageError);
    assert.throws(() => parseOptions(['--pace', '-1'], {}), UsageError);
    assert.throws(() => parseOptions(['--pace'], {}), UsageError);
  });

  test('the last of a repeated flag wins; --pace=<value> takes a value that --pace <value> would not', () => {
    assert.equal(parseOptions(['--pace', '5', '--pace', '7'], {}).pace, 7);
    assert.equal(parseOptions(['--child-duration=0'], {}).childDuration, 0);
    assert.throws(() => parseOptions(['--pace='], {}), /--pace must be a number of milliseconds/);
    assert.throws(() => parseOptions(['--pace=-1'], {}), /--pace must be a number of milliseconds/);
    assert.throws(() => parseOptions(['--pace', '-1'], {}), /--pace needs a value \(write --pace=<value>/);
  });

  test('unknown flags and arguments name themselves and the flags allowed', () => {
    const allowed = '--pace, --child-duration, --dialect, --protocol, --no-steering, --help';
    assert.throws(() => parseOptions(['--pase', '3'], {}), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.equal(error.message, `unknown option: --pase (allowed: ${allowed})`);
      return true;
    });
    assert.throws(() => parseOptions(['-p'], {}), { message: `unknown option: -p (allowed: ${allowed})` });
    assert.throws(() => parseOptions(['fast'], {}), { message: `unexpected argument: fast (the demo agent takes only options: ${allowed})` });
    assert.throws(() => parseOptions(['--help=yes'], {}), { message: '--help takes no value' });
    assert.throws(() => parseOptions(['--dialect', 'gemini'], {}), /unknown dialect: gemini \(one of acp, claude, qwen, zed, kind-subagent, air, copilot\)/);
  });
});

describe('demo agent over real stdio', () => {
  test('survives garbage, answers errors, serves /quick and /error, exits 1 on /crash', async () => {
    const agent = startChildProcess(['--pace', '0']);
    stopAfterTests(agent);
    const { client } = agent;
    client.sendRaw('this is not json');
    client.sendRaw('[{"jsonrpc":"2.0","id":1,"method":"initialize"}]');
    client.sendRaw('{"jsonrpc":"2.0","method":"made/up/notification","params":{}}');
    const unknown = await client.request('made/up', {});
    assert.equal(unknown.error.code, -32601);
    const errors = client.received.filter((message) => message.id === null).map((message) => message.error.code);
    assert.deepEqual(errors.sort(), [-32700, -32600].sort());

    const root = await newSession(client);
    assert.equal((await prompt(client, root, '/quick')).result.stopReason, 'end_turn');
    assert.match(messageText(client, root), /```sh/);
    assert.equal((await prompt(client, root, '/error')).error.code, -32603);

    void prompt(client, root, '/crash');
    assert.equal(await agent.exited, 1);
    assert.match(agent.stderr(), /crash/);
  });
});
