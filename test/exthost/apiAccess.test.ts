// Another extension and the public API in the real extension host: starting agents, prompting and reading
// transcripts are not on the API outside extension mode Test; requestAccess asks the user once per extension
// (a modal question naming it), remembers the answer, and "Subchats: Manage API Access" revokes it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import { activateSubchats, EXTENSION_ID } from './support/subchats';
import { stubWindow, type WindowStub } from './support/windowStubs';

describe('public API: consent per calling extension', function () {
  this.timeout(60_000);
  let api: SubchatsApi;
  let stub: WindowStub | undefined;
  // Two installed extensions other than Subchats (VS Code's built-in ones) stand in for callers.
  const [allowedId, deniedId] = vscode.extensions.all.map((e) => e.id).filter((id) => id.toLowerCase() !== EXTENSION_ID);

  before(async () => {
    api = await activateSubchats();
    assert.ok(allowedId && deniedId, 'two other extensions are installed');
  });

  afterEach(() => {
    stub?.restore();
    stub = undefined;
  });

  it('refuses an id that is no installed extension, or Subchats\' own, without asking', async () => {
    stub = stubWindow({ showWarningMessage: () => 'Allow' });
    await assert.rejects(api.requestAccess('nobody.nothing'), /not an installed extension/);
    await assert.rejects(api.requestAccess(EXTENSION_ID), /your own extension id/);
    assert.deepEqual(stub.asked, []);
  });

  it('asks once in a modal question naming the extension; allowed, the agent methods work', async () => {
    stub = stubWindow({ showWarningMessage: () => 'Allow' });
    const [first, second] = await Promise.all([api.requestAccess(allowedId!), api.requestAccess(allowedId!)]);
    const again = await api.requestAccess(allowedId!);
    assert.equal(stub.asked.length, 1, JSON.stringify(stub.asked));
    assert.equal(stub.asked[0]!.modal, true);
    assert.ok(stub.asked[0]!.message.includes(allowedId!.toLowerCase()), stub.asked[0]!.message);
    for (const access of [first, second, again]) {
      assert.deepEqual(Object.keys(access).sort(), ['cancel', 'prompt', 'send', 'snapshot', 'startSession', 'transcript']);
      assert.ok(Array.isArray(access.snapshot()));
    }
  });

  it('a denied extension is refused, and not asked again', async () => {
    stub = stubWindow({ showWarningMessage: () => 'Deny' });
    await assert.rejects(api.requestAccess(deniedId!), /did not allow .*Manage API Access/);
    await assert.rejects(api.requestAccess(deniedId!), /did not allow/);
    assert.equal(stub.asked.length, 1);
  });

  it('Manage API Access lists both; unchecking the allowed one revokes its handle at once', async () => {
    const access = await api.requestAccess(allowedId!);
    const window = vscode.window as unknown as { showQuickPick: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showQuickPick;
    let listed: { description?: string; picked?: boolean }[] = [];
    window.showQuickPick = async (items: unknown) => {
      listed = (await items) as typeof listed;
      return [];
    };
    try {
      await vscode.commands.executeCommand('subchats.manageApiAccess');
    } finally {
      window.showQuickPick = original;
    }
    const byId = Object.fromEntries(listed.map((item) => [item.description, item.picked]));
    assert.deepEqual(byId, { [allowedId!.toLowerCase()]: true, [deniedId!.toLowerCase()]: false });
    assert.throws(() => access.snapshot(), /did not allow/);
    await assert.rejects(access.startSession(), /did not allow/);
  });
});
