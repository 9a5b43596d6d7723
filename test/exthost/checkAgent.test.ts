// Subchats: Check Agent as the palette or an agent row runs it: the demo agent answers (at the ACP version the
// setting chooses), a command that is not installed says how to install it, an unknown id is named; the details
// land in the protocol log.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentCheckResult } from '../../src/host/agentCheck';
import { activateSubchats } from './support/subchats';
import { stubWindow, type WindowStub } from './support/windowStubs';

describe('Check Agent', function () {
  this.timeout(60_000);
  let stub: WindowStub | undefined;

  before(() => activateSubchats());

  afterEach(async () => {
    stub?.restore();
    stub = undefined;
  });

  after(async () => {
    await vscode.workspace.getConfiguration('subchats').update('agents', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('subchats').update('protocolVersion', undefined, vscode.ConfigurationTarget.Global);
  });

  it('starts the demo agent, reports its initialize answer and stops it', async () => {
    stub = stubWindow({ showInformationMessage: () => undefined, showErrorMessage: () => undefined });
    const result = (await vscode.commands.executeCommand('subchats.checkAgent', 'demo')) as AgentCheckResult;
    assert.equal(result.ok, true, result.report.summary);
    const shown = stub.asked.filter((a) => a.method === 'showInformationMessage');
    assert.equal(shown.length, 1, JSON.stringify(stub.asked));
    assert.match(shown[0]!.message, /^Subchats: Subchats demo agent \S+ answered \(ACP 2\)\. Sessions: list, resume, close\.$/, shown[0]!.message);
    assert.deepEqual(shown[0]!.items, ['Show Details']);
    assert.ok(result.pid !== undefined);
    assert.throws(() => process.kill(result.pid!, 0), 'the checked agent process is gone');
  });

  it('offers the ACP version(s) that subchats.protocolVersion chooses, as a session start does', async () => {
    const checkAt = async (setting: string): Promise<AgentCheckResult> => {
      await vscode.workspace.getConfiguration('subchats').update('protocolVersion', setting, vscode.ConfigurationTarget.Global);
      stub?.restore();
      stub = stubWindow({ showInformationMessage: () => undefined, showErrorMessage: () => undefined });
      return (await vscode.commands.executeCommand('subchats.checkAgent', 'demo')) as AgentCheckResult;
    };
    // The demo agent's default dialect speaks ACP 2.
    const auto = await checkAt('auto');
    assert.equal(auto.ok, true, auto.report.summary);
    assert.deepEqual(auto.offered, [2]);
    assert.ok(auto.report.lines.includes('ACP protocol version: 2 (offered 2)'), auto.report.lines.join('\n'));
    const one = await checkAt('1');
    assert.deepEqual(one.offered, [1]);
    assert.ok(one.report.lines.includes('ACP protocol version: 1 (offered 1)'), one.report.lines.join('\n'));
  });

  it('a configured command that is not installed is an error that says so', async () => {
    await vscode.workspace.getConfiguration('subchats').update('agents', [{ id: 'missing', name: 'Missing Agent', command: 'subchats-no-such-agent' }], vscode.ConfigurationTarget.Global);
    stub = stubWindow({ showInformationMessage: () => undefined, showErrorMessage: () => undefined });
    const result = (await vscode.commands.executeCommand('subchats.checkAgent', 'missing')) as AgentCheckResult;
    assert.equal(result.ok, false);
    const errors = stub.asked.filter((a) => a.method === 'showErrorMessage');
    assert.equal(errors.length, 1, JSON.stringify(stub.asked));
    assert.match(errors[0]!.message, /"Missing Agent" is not installed: the command "subchats-no-such-agent" was not found on PATH/);
  });

  it('an id that is not configured is named, and nothing starts', async () => {
    stub = stubWindow({ showWarningMessage: () => undefined });
    const result: unknown = await vscode.commands.executeCommand('subchats.checkAgent', 'nobody');
    assert.equal(result, undefined);
    assert.deepEqual(stub.asked.map((a) => a.message), ['Subchats: cannot check: no agent with the id "nobody" is configured.']);
  });
});
