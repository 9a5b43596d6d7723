// Capability gating through the commands, as a menu or keybinding would run them: a refused action
// sends nothing and says why; a message for a subagent goes to its parent, labelled for the subagent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { relayPromptText } from '../../src/protocol/relayText';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import { activateSubchats, answer, pendingPermissionOf, sent, sessionOf, startTour, waitFor, wire, type TourIds } from './support/subchats';
import { stubWindow, type WindowStub } from './support/windowStubs';

describe('commands respect what a session allows', function () {
  this.timeout(120_000);
  let api: SubchatsApi;
  let connectionId: string;
  let rootId: string;
  let ids: TourIds;
  let turn: Promise<{ stopReason: string }>;
  let stub: WindowStub | undefined;

  before(async () => {
    api = await activateSubchats();
    ({ connectionId, rootId, ids, turn } = await startTour(api));
    await waitFor(api, 'the Reviewer to ask permission', () => pendingPermissionOf(api, connectionId, ids.reviewer));
  });

  afterEach(() => {
    stub?.restore();
    stub = undefined;
  });

  after(async () => {
    if (api && connectionId && rootId) await api.cancel(connectionId, rootId).catch(() => undefined);
  });

  it('Cancel Session on the Reviewer warns why and sends nothing', async () => {
    stub = stubWindow({ showWarningMessage: () => undefined, showErrorMessage: () => undefined });
    const result: unknown = await vscode.commands.executeCommand('subchats.cancel', { connectionId, sessionId: ids.reviewer });
    assert.equal(result, undefined);
    const warnings = stub.asked.filter((a) => a.method === 'showWarningMessage');
    assert.equal(warnings.length, 1, JSON.stringify(stub.asked));
    assert.match(warnings[0]!.message, /cannot cancel "Reviewer"\. This subagent does not accept cancel/);
    assert.deepEqual(stub.asked.filter((a) => a.method === 'showErrorMessage'), []);
    assert.deepEqual(sent(api, connectionId, 'session/cancel', ids.reviewer), []);
  });

  it('Send Prompt on a subagent warns why and sends nothing', async () => {
    stub = stubWindow({ showWarningMessage: () => undefined, showInputBox: () => 'should never be asked' });
    await vscode.commands.executeCommand('subchats.sendPrompt', { connectionId, sessionId: ids.explorer });
    assert.deepEqual(stub.asked.map((a) => a.method), ['showWarningMessage']);
    assert.match(stub.asked[0]!.message, /cannot prompt "Explorer"\. ACP does not let a client send prompts to a subagent/);
    assert.deepEqual(sent(api, connectionId, 'session/prompt', ids.explorer), []);
  });

  it('Cancel All Subagents cancels the cancellable ones and names the rest', async () => {
    stub = stubWindow({ showWarningMessage: () => undefined, showInformationMessage: () => undefined });
    await vscode.commands.executeCommand('subchats.cancelAllChildren', { connectionId, sessionId: rootId });
    assert.equal(sent(api, connectionId, 'session/cancel', ids.explorer).length, 1);
    assert.deepEqual(sent(api, connectionId, 'session/cancel', ids.reviewer), []);
    assert.deepEqual(sent(api, connectionId, 'session/cancel', rootId), [], 'the parent itself is not cancelled');
    assert.equal(stub.asked.length, 1, JSON.stringify(stub.asked));
    // The Scout may already be stopping with its parent, so the count is 1 or 2.
    assert.match(stub.asked[0]!.message, /cancelled [12] subagent\(s\)\. Not cancellable: "Reviewer"\. This subagent does not accept cancel/);
    const explorer = await waitFor(api, 'the Explorer to stop', () => {
      const s = sessionOf(api, connectionId, ids.explorer);
      return s.state === 'idle' ? s : undefined;
    });
    assert.equal(explorer.stopReason, 'cancelled');
  });

  it('the refused Reviewer keeps running and finishes normally, and so does the turn', async () => {
    assert.notEqual(sessionOf(api, connectionId, ids.reviewer).state, 'idle');
    answer(api, pendingPermissionOf(api, connectionId, ids.reviewer)!);
    const reviewer = await waitFor(api, 'the Reviewer to finish', () => {
      const s = sessionOf(api, connectionId, ids.reviewer);
      return s.state === 'idle' ? s : undefined;
    });
    assert.equal(reviewer.stopReason, 'end_turn');
    assert.deepEqual(sent(api, connectionId, 'session/cancel', ids.reviewer), []);
    assert.deepEqual(await turn, { stopReason: 'end_turn' });
  });

  it('Message Subagent asks for the words and sends them to the parent, labelled for the subagent', async () => {
    const words = 'Please double-check the review. /quick';
    stub = stubWindow({ showInputBox: () => words, showErrorMessage: () => undefined });
    const promptsBefore = sent(api, connectionId, 'session/prompt', rootId).length;
    await vscode.commands.executeCommand('subchats.messageChild', { connectionId, sessionId: ids.reviewer });

    // No offer first: the input box itself says where the words go (the parent is idle now, so as a new prompt).
    const [input] = stub.asked;
    assert.ok(input, JSON.stringify(stub.asked));
    assert.equal(input.method, 'showInputBox');
    assert.match(input.message, /no way to message a subagent directly: this goes to "Show me the tour", labelled as a message for "Reviewer"/);
    assert.match(input.message, /the parent gets it as a new prompt/);

    const prompts = await waitFor(api, 'the relayed prompt on the wire', () => {
      const all = sent(api, connectionId, 'session/prompt', rootId);
      return all.length > promptsBefore ? all : undefined;
    });
    assert.equal(prompts.length, promptsBefore + 1);
    const prompt = prompts.at(-1)!.msg.params?.['prompt'];
    assert.deepEqual(prompt, [{ type: 'text', text: relayPromptText({ childLabel: 'Reviewer', childId: ids.reviewer }, words) }]);
    assert.deepEqual(sent(api, connectionId, 'session/prompt', ids.reviewer), []);

    // The parent answers the relayed prompt (a quick turn), and the command reported no failure.
    const requestId = prompts.at(-1)!.msg.id;
    const response = await waitFor(api, 'the answer to the relayed prompt', () => wire(api, connectionId).find((l) => l.dir === 'agent->client' && l.msg.id === requestId && !l.msg.method));
    if (typeof response.msg.result?.['messageId'] === 'string') {
      // ACP v2: the response only acknowledges the prompt; the parent's idle state_update ends the turn.
      const idle = await waitFor(api, 'the end of the relayed turn', () => {
        const lines = wire(api, connectionId);
        const sentAt = lines.findIndex((l) => l.dir === 'client->agent' && l.msg.id === requestId && l.msg.method === 'session/prompt');
        return lines.slice(sentAt + 1).find((l) => {
          const update = l.msg.params?.['update'] as Record<string, unknown> | undefined;
          return l.msg.method === 'session/update' && l.msg.params?.['sessionId'] === rootId && update?.['sessionUpdate'] === 'state_update' && update['state'] === 'idle';
        });
      });
      assert.equal((idle.msg.params?.['update'] as Record<string, unknown>)['stopReason'], 'end_turn');
    } else {
      assert.deepEqual(response.msg.result?.['stopReason'], 'end_turn');
    }
    assert.deepEqual(stub.asked.filter((a) => a.method === 'showErrorMessage'), []);
  });

  it('Message Subagent sends nothing when the user dismisses the input box', async () => {
    stub = stubWindow({ showInputBox: () => undefined, showInformationMessage: () => undefined });
    const before = wire(api, connectionId).filter((l) => l.dir === 'client->agent').length;
    await vscode.commands.executeCommand('subchats.messageChild', { connectionId, sessionId: ids.explorer });
    assert.deepEqual(stub.asked.map((a) => a.method), ['showInputBox']);
    assert.equal(wire(api, connectionId).filter((l) => l.dir === 'client->agent').length, before);
  });
});
