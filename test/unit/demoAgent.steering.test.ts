// The demo agent's `_session/steering` (as claude-agent-acp and codex-acp ship it) and the relays for a subagent
// that reach its root as a steer or a prompt (src/protocol/relayText).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { relayPromptText } from '../../src/protocol/relayText';
import type { DemoClient, Msg } from '../fixtures/demo/demoClient';
import { checkV2Messages } from './support/acpSchemaV2';
import { CWD, childByTitle, messageText, newSession, prompt, start, statesOf } from './support/demoAgentRun';

const STEER = '_session/steering';
const workspaces: string[] = [];

after(() => {
  for (const dir of workspaces) rmSync(dir, { recursive: true, force: true });
});

function steer(client: DemoClient, sessionId: string, text: string, meta?: Msg): Promise<Msg> {
  return client.request(STEER, { sessionId, prompt: [{ type: 'text', text }], ...(meta ? { _meta: meta } : {}) });
}

const PROMPT_REQUIRED = { steering: { idleBehavior: 'promptRequired' } };

function initializeV2(client: DemoClient): Promise<Msg> {
  return client.call('initialize', { protocolVersion: 2, info: { name: 'demo-test', version: '0' }, capabilities: {} });
}

/** A v2 root session in a fresh folder (at v2 the agent writes its files itself). */
async function newV2Session(client: DemoClient): Promise<string> {
  await initializeV2(client);
  const cwd = mkdtempSync(join(tmpdir(), 'subchats-steer-'));
  workspaces.push(cwd);
  return (await client.call('session/new', { cwd })).sessionId as string;
}

/** Resolves with the next update of this session that matches, after everything received so far. */
function nextUpdate(client: DemoClient, sessionId: string, match: (update: Msg) => boolean): Promise<Msg> {
  const mark = client.received.length;
  return client.waitFor((message) => client.received.indexOf(message) >= mark && isUpdate(message, sessionId, match));
}

/** The end of the next turn: v2 reports idle. */
const nextIdle = (client: DemoClient, sessionId: string) => nextUpdate(client, sessionId, (update) => update.sessionUpdate === 'state_update' && update.state === 'idle');
/** The end of the next turn at v1 (with no prompt to answer): its usage_update. */
const nextUsage = (client: DemoClient, sessionId: string) => nextUpdate(client, sessionId, (update) => update.sessionUpdate === 'usage_update');

function isUpdate(message: Msg, sessionId: string, match: (update: Msg) => boolean): boolean {
  return message.method === 'session/update' && message.params.sessionId === sessionId && match(message.params.update);
}

/** Index in the wire of the first update of `sessionId` that matches. */
function indexOfUpdate(client: DemoClient, sessionId: string, match: (update: Msg) => boolean): number {
  return client.indexOf((message) => isUpdate(message, sessionId, match));
}

const startsWith = (prefix: string) => (update: Msg) => update.sessionUpdate === 'agent_message_chunk' && String(update.content.text).startsWith(prefix);

/**
 * Steers (or sends any request) from inside the root's own permission request, so that a turn surely runs and
 * its prompt is pending; resolves with that request's answer and whether the prompt had an answer by then.
 */
function steerWhileRootAsks(client: DemoClient, root: string, send: () => Promise<Msg>): Promise<{ response: Msg; promptAnswered: boolean }> {
  return new Promise((resolve) => {
    let sent = false;
    client.handlers.set('session/request_permission', async (params) => {
      if (params.sessionId === root && !sent) {
        sent = true;
        const response = await send();
        resolve({ response, promptAnswered: client.received.some((message) => message.result?.stopReason !== undefined) });
      }
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    });
  });
}

describe('demo agent: advertising _session/steering', () => {
  test('initialize carries _meta.steering.supported beside the capabilities, at v1 and at v2', async () => {
    const v1 = await start().initialize();
    assert.deepEqual(v1._meta, { steering: { supported: true } });
    assert.ok(v1.agentCapabilities);
    const v2 = await initializeV2(start());
    assert.equal(v2.protocolVersion, 2);
    assert.deepEqual(v2._meta, { steering: { supported: true } });
    assert.ok(v2.capabilities);
  });

  test('--no-steering: no _meta.steering, and _session/steering is an unknown method (-32601), at v1 and at v2', async () => {
    const v1 = start('--no-steering');
    assert.equal((await v1.initialize())._meta, undefined);
    const root = (await v1.call('session/new', { cwd: CWD, mcpServers: [] })).sessionId as string;
    assert.equal((await steer(v1, root, 'hello')).error.code, -32601);
    const v2 = start('--no-steering');
    const v2Root = await newV2Session(v2);
    assert.equal(v2.received.find((message) => message.result?.protocolVersion === 2)?.result._meta, undefined);
    assert.equal((await steer(v2, v2Root, 'hello')).error.code, -32601);
  });
});

describe('demo agent: _session/steering', () => {
  test('during a running turn: injected, the prompt stays pending, the root quotes the steer at its next step and finishes its tour', async () => {
    const client = start();
    const root = await newSession(client);
    const steered = steerWhileRootAsks(client, root, () => steer(client, root, 'also count lines'));
    const response = await prompt(client, root);
    const { response: steerResponse, promptAnswered } = await steered;
    assert.deepEqual(steerResponse.result, { outcome: 'injected' });
    assert.equal(promptAnswered, false, 'the prompt was still pending when the steer was answered');
    assert.equal(response.result.stopReason, 'end_turn');

    const text = messageText(client, root);
    const quoted = text.indexOf('Noted your message: "also count lines". ');
    assert.ok(quoted >= 0, text);
    assert.ok(text.indexOf('That is the whole tour.') > quoted, 'the tour went on after the steer');
    assert.ok(indexOfUpdate(client, root, startsWith('Noted your message')) > client.received.indexOf(steerResponse), 'quoted after the steer was accepted');
    assert.equal(indexOfUpdate(client, root, (update) => update.sessionUpdate === 'user_message_chunk'), -1, 'v1 shows nothing of the steer itself');

    // Kept for session/load, like the prompt: the replay shows it as the user's message.
    const beforeLoad = client.received.length;
    await client.call('session/load', { sessionId: root, cwd: CWD, mcpServers: [] });
    const replayed = client.received.slice(beforeLoad).filter((message) => message.params?.update?.sessionUpdate === 'user_message_chunk');
    assert.deepEqual(replayed.map((message) => message.params.update.content.text), ['Show me what you can do', 'also count lines']);
  });

  test('v2: the steer lands as a user_message_chunk with a messageId of its own, just before the quoting text; every message is valid v2', async () => {
    const client = start();
    const root = await newV2Session(client);
    const ended = nextIdle(client, root);
    const steered = steerWhileRootAsks(client, root, () => steer(client, root, 'also count lines'));
    const promptId = (await prompt(client, root)).result.messageId as string;
    const { response: steerResponse } = await steered;
    assert.deepEqual(steerResponse.result, { outcome: 'injected' });
    assert.equal((await ended).params.update.stopReason, 'end_turn');

    const echoAt = indexOfUpdate(client, root, (update) => update.sessionUpdate === 'user_message_chunk');
    const echo = client.received[echoAt]?.params.update;
    assert.deepEqual(echo?.content, { type: 'text', text: 'also count lines' });
    assert.ok(typeof echo?.messageId === 'string' && echo.messageId !== promptId, 'a messageId of its own');
    assert.ok(echoAt > client.received.indexOf(steerResponse), 'shown when it lands, after it was accepted');
    assert.ok(echoAt < indexOfUpdate(client, root, startsWith('Noted your message')), 'just before the quoting text');
    assert.deepEqual(checkV2Messages(client.wire).failures, []);
  });

  test('an idle root asked with idleBehavior "promptRequired": promptRequired/noRunningTurn, and nothing else happens', async () => {
    const client = start();
    const root = await newSession(client);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = client.updates().length;
    const response = await steer(client, root, 'hello', PROMPT_REQUIRED);
    assert.deepEqual(response.result, { outcome: 'promptRequired', reason: 'noRunningTurn' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(client.updates().length, before);
  });

  test('an idle root without idleBehavior starts a short turn of its own that quotes the steer (v1: just its messages)', async () => {
    const client = start();
    const root = await newSession(client);
    const ended = nextUsage(client, root);
    const response = await steer(client, root, 'what is left to do?');
    assert.deepEqual(response.result, { outcome: 'startedNewTurn' });
    await ended;
    assert.equal(messageText(client, root), 'Noted your message: "what is left to do?". ');
    assert.equal(indexOfUpdate(client, root, (update) => update.sessionUpdate === 'state_update'), -1);
    assert.ok(indexOfUpdate(client, root, startsWith('Noted')) > client.received.indexOf(response), 'the turn starts after the answer');
    // The next prompt is an ordinary one: the steered turn is over.
    assert.equal((await prompt(client, root, '/quick')).result.stopReason, 'end_turn');
  });

  test('v2: the turn a steer starts reports running, shows the steer, quotes it, then reports idle (end_turn)', async () => {
    const client = start();
    const root = await newV2Session(client);
    const ended = nextIdle(client, root);
    assert.deepEqual((await steer(client, root, 'what is left to do?')).result, { outcome: 'startedNewTurn' });
    assert.equal((await ended).params.update.stopReason, 'end_turn');
    const kinds = client.updates().filter((params) => params.sessionId === root).map((params) => params.update.sessionUpdate as string);
    const turn = kinds.slice(kinds.indexOf('state_update'));
    assert.deepEqual([...new Set(turn)], ['state_update', 'session_info_update', 'user_message_chunk', 'agent_message_chunk', 'usage_update']);
    assert.equal(messageText(client, root), 'Noted your message: "what is left to do?". ');
    assert.deepEqual(checkV2Messages(client.wire).failures, []);
  });

  test('errors: unknown session -32002; a subagent, an empty, non-array or textless prompt, an unknown idleBehavior -32602', async () => {
    const client = start();
    const root = await newSession(client);
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const explorer = childByTitle(client, 'Explorer');

    assert.equal((await steer(client, 'demo-nope', 'hi')).error.code, -32002);
    const child = (await steer(client, explorer, 'hi')).error;
    assert.equal(child.code, -32602);
    assert.match(child.message, /steer the root session/);
    for (const bad of [[], 'hi', [{ type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' }], [null]]) {
      assert.equal((await client.request(STEER, { sessionId: root, prompt: bad })).error.code, -32602, JSON.stringify(bad));
    }
    assert.equal((await steer(client, root, 'hi', { steering: { idleBehavior: 'queue' } })).error.code, -32602);
    assert.equal((await steer(client, root, 'hi', { steering: { idleBehavior: null } })).error.code, -32602);
  });
});

describe('demo agent: relays for a subagent', () => {
  /** The session_message views of `words` from `sender` to `recipient` (the sender's copy, the recipient's), with the session each came on. */
  function messageViews(client: DemoClient, sender: string, recipient: string, words: string): Msg[] {
    return client
      .updates()
      .filter(({ update }) => update.sessionUpdate === 'session_message' && update.senderSessionId === sender && update.recipientSessionId === recipient && update.content[0]?.text === words)
      .map((params) => ({ on: params.sessionId, ...params.update }));
  }

  function assertRelayed(client: DemoClient, root: string, child: string, words: string): void {
    const views = messageViews(client, root, child, words);
    assert.equal(views.length, 2, 'one message, seen from both sides');
    const [onRoot, onChild] = views;
    assert.deepEqual(onRoot?.content, [{ type: 'text', text: words }]);
    assert.equal(onRoot?.on, root);
    assert.equal(onRoot?.recipientMessageId, onRoot?.messageId);
    assert.equal(onChild?.on, child);
    assert.equal(onChild?.messageId, onRoot?.messageId);
    assert.equal(onChild?.senderMessageId, onRoot?.messageId);
    assert.deepEqual(onChild?.content, onRoot?.content);
    assert.match(messageText(client, child), new RegExp(`Got your message: "${words}"`));
  }

  test('acp: a relay steered while the Reviewer works reaches it as a session_message from the root, and it answers', async () => {
    const client = start();
    const root = await newSession(client);
    const words = 'please also check the spelling';
    let reviewer = '';
    client.handlers.set('session/request_permission', async (params) => {
      if (params.sessionId !== root && !reviewer) {
        reviewer = params.sessionId as string;
        const response = await steer(client, root, relayPromptText({ childLabel: 'Reviewer', childId: reviewer }, words));
        assert.deepEqual(response.result, { outcome: 'injected' });
      }
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    });
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    assert.match(messageText(client, root), new RegExp(`Passing your message on to Reviewer: "${words}"`));
    assertRelayed(client, root, reviewer, words);
    assert.deepEqual(statesOf(client, reviewer).map((state) => state.state), ['running', 'requires_action', 'running', 'idle'], 'a running child is not woken again');
  });

  test('acp: a relay for a child that ended, steered while idle or sent as a prompt, wakes it to answer (running, then idle)', async () => {
    const client = start();
    const root = await newSession(client);
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const explorer = childByTitle(client, 'Explorer');
    const relay = relayPromptText({ childLabel: 'Explorer', childId: explorer }, 'count the lines too');
    const ended = nextUsage(client, root);
    assert.deepEqual((await steer(client, root, relay)).result, { outcome: 'startedNewTurn' });
    await ended;
    assertRelayed(client, root, explorer, 'count the lines too');
    assert.deepEqual(statesOf(client, explorer).slice(-3).map(({ state, stopReason }) => `${state}/${stopReason}`), ['idle/end_turn', 'running/undefined', 'idle/end_turn']);

    const reviewer = childByTitle(client, 'Reviewer');
    const asPrompt = await prompt(client, root, relayPromptText({ childLabel: 'Reviewer', childId: reviewer }, 'thanks'));
    assert.equal(asPrompt.result.stopReason, 'end_turn');
    assertRelayed(client, root, reviewer, 'thanks');
    assert.match(messageText(client, root), /Passing your message on to Reviewer: "thanks"/);
  });

  test('v2: the woken child reports its own state (running, then idle) beside the root\'s mirror; every message is valid v2', async () => {
    const client = start();
    const root = await newV2Session(client);
    const toured = nextIdle(client, root);
    await prompt(client, root);
    await toured;
    const explorer = childByTitle(client, 'Explorer');
    const ended = nextIdle(client, root);
    const relayed = await steer(client, root, relayPromptText({ childLabel: 'Explorer', childId: explorer }, 'count the lines too'));
    assert.deepEqual(relayed.result, { outcome: 'startedNewTurn' });
    await ended;
    assertRelayed(client, root, explorer, 'count the lines too');
    const ownStates = client.updates().filter((params) => params.sessionId === explorer && params.update.sessionUpdate === 'state_update').map((params) => params.update.state as string);
    assert.deepEqual(ownStates.slice(-3), ['idle', 'running', 'idle']);
    assert.deepEqual(checkV2Messages(client.wire).failures, []);
  });

  test('claude dialect (no subagent sessions): a relay for a virtual child is passed on in the root\'s text only; an unknown one is said to be unknown', async () => {
    const client = start();
    const root = await newSession(client, { fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    assert.equal((await prompt(client, root)).result.stopReason, 'end_turn');
    const agentCall = client.updates().find((params) => params.update._meta?.claudeCode?.toolName === 'Agent' && params.update.title === 'Explorer');
    const virtualChild = `${root}#${agentCall?.update.toolCallId as string}`;
    assert.equal((await prompt(client, root, relayPromptText({ childLabel: 'Explorer', childId: virtualChild }, 'stop soon'))).result.stopReason, 'end_turn');
    assert.match(messageText(client, root), /Passing your message on to Explorer: "stop soon"/);
    assert.ok(!client.updates().some((params) => params.update.sessionUpdate === 'session_message'), 'this dialect has no session_message');

    await prompt(client, root, relayPromptText({ childLabel: 'Ghost', childId: 'demo-sub-nobody' }, 'hello?'));
    assert.match(messageText(client, root), /Noted your message for Ghost: "hello\?". I have no such subagent/);
  });
});
