// Subchats: Add Agent… against a registry served on 127.0.0.1: the registry's agents are offered, choosing an npx
// agent adds its entry to subchats.agents, a binary agent is downloaded only after the modal is confirmed, Refresh
// fetches again, and with the registry down the picker says so and offers the built-in presets.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { platformKey } from '../../src/host/registry/platformKey';
import { activateSubchats } from './support/subchats';
import { stubQuickPick, type QuickPickStub } from './support/quickPickStub';
import { stubWindow, type WindowStub } from './support/windowStubs';

const BINARY = Buffer.from('#!/bin/sh\necho not really an agent\n');

function registry(base: string): unknown {
  return {
    version: '1.0.0',
    agents: [
      { id: 'test-npx-agent', name: 'Test Npx Agent', version: '1.2.3', description: 'An agent npx fetches', distribution: { npx: { package: '@example/test-agent', args: ['--acp'] } }, unknownField: true },
      {
        id: 'test-bin-agent',
        name: 'Test Bin Agent',
        version: '0.1.0',
        description: 'An agent downloaded as one file',
        distribution: { binary: { [platformKey() ?? 'none']: { archive: `${base}/download/test-bin-agent`, cmd: 'test-bin-agent', args: ['acp'], sha256: createHash('sha256').update(BINARY).digest('hex') } } },
      },
      { id: 'broken', distribution: {} },
    ],
  };
}

describe('Add Agent', function () {
  this.timeout(60_000);
  let server: Server;
  let base = '';
  const requests: string[] = [];
  let picks: QuickPickStub | undefined;
  let stub: WindowStub | undefined;

  /** Runs Add Agent (with the window stubbed when `window` is given) and resolves once its picker shows its items. */
  async function openAddAgent(window?: Parameters<typeof stubWindow>[0]) {
    picks = stubQuickPick();
    if (window) stub = stubWindow(window);
    const opened = picks.next();
    const added = vscode.commands.executeCommand('subchats.addAgent');
    const pick = await opened;
    await pick.settled();
    return { pick, added };
  }
  const config = () => vscode.workspace.getConfiguration('subchats');

  before(async () => {
    await activateSubchats();
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      if (request.url === '/registry.json') response.end(JSON.stringify(registry(base)));
      else if (request.url === '/download/test-bin-agent') response.end(BINARY);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await config().update('registryUrl', `${base}/registry.json`, vscode.ConfigurationTarget.Global);
  });

  afterEach(() => {
    picks?.restore();
    stub?.restore();
    picks = stub = undefined;
  });

  after(async () => {
    server.close();
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('registryUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  it('lists the registry agents and adds the chosen npx agent to subchats.agents', async () => {
    const { pick, added } = await openAddAgent({ showInformationMessage: () => undefined });
    assert.deepEqual(pick.items.map((item) => [item.label, item.description]), [
      ['Test Npx Agent', 'v1.2.3 · runs with npx'],
      ['Test Bin Agent', platformKey() ? 'v0.1.0 · download' : 'v0.1.0 · not for this platform'],
    ]);
    assert.deepEqual(pick.buttons.map((b) => b.tooltip), ['Refresh']);
    pick.accept('Test Npx Agent');
    const entry = await added;
    const expected = { id: 'test-npx-agent', name: 'Test Npx Agent', command: 'npx', args: ['-y', '@example/test-agent@1.2.3', '--acp'], registryId: 'test-npx-agent', registryVersion: '1.2.3' };
    assert.deepEqual(entry, expected);
    assert.deepEqual(config().get('agents'), [expected]);
    assert.deepEqual(stub!.asked.map((a) => a.message), ['Subchats: added Test Npx Agent to subchats.agents.']);
  });

  it('marks added agents, and Refresh fetches the registry again instead of the hour-long cache', async () => {
    const { pick, added } = await openAddAgent();
    assert.equal(pick.items[0]!.label, '$(check) Test Npx Agent');
    assert.match(pick.items[0]!.description ?? '', /· added$/);
    const fetches = requests.filter((url) => url === '/registry.json').length;
    assert.equal(fetches, 1, 'the second opening was answered from the cache');
    pick.press('Refresh');
    await pick.settled();
    assert.equal(requests.filter((url) => url === '/registry.json').length, 2);
    pick.hide();
    assert.equal(await added, undefined);
  });

  it('downloads a binary agent only after the modal is confirmed, then points the entry at it', async function () {
    if (!platformKey()) this.skip();
    for (const answer of [undefined, 'Download']) {
      picks?.restore();
      stub?.restore();
      const { pick, added } = await openAddAgent({ showWarningMessage: () => answer, showInformationMessage: () => undefined });
      const downloadsBefore = requests.filter((url) => url.startsWith('/download/')).length;
      pick.accept('Test Bin Agent');
      const entry = (await added) as { command: string; args: string[]; registryId: string } | undefined;
      const modal = stub!.asked.find((a) => a.method === 'showWarningMessage');
      assert.ok(modal?.modal, JSON.stringify(stub!.asked));
      assert.equal(modal.message, 'Download Test Bin Agent 0.1.0?');
      assert.match(modal.detail ?? '', new RegExp(`From: ${base}/download/test-bin-agent\\nInto: .*test-bin-agent.0\\.1\\.0\\n`));
      const downloads = requests.filter((url) => url.startsWith('/download/')).length - downloadsBefore;
      if (answer === undefined) {
        assert.equal(entry, undefined);
        assert.equal(downloads, 0, 'nothing is downloaded before the user confirms');
        continue;
      }
      assert.equal(downloads, 1);
      assert.ok(entry && existsSync(entry.command), JSON.stringify(entry));
      assert.deepEqual(readFileSync(entry.command), BINARY);
      assert.deepEqual(entry.args, ['acp']);
      const agents = config().get<{ registryId?: string; command: string }[]>('agents') ?? [];
      assert.deepEqual(agents.map((a) => a.registryId), ['test-npx-agent', 'test-bin-agent']);
    }
  });

  it('with the registry down it says so and offers the built-in presets', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    await config().update('registryUrl', `http://127.0.0.1:${port}/registry.json`, vscode.ConfigurationTarget.Global);
    try {
      const { pick, added } = await openAddAgent({ showInformationMessage: () => undefined });
      assert.match(pick.title ?? '', /the registry could not be read; showing the built-in presets/);
      const [notice, ...rows] = pick.items;
      assert.equal(notice!.kind, vscode.QuickPickItemKind.Separator);
      assert.match(notice!.label, /^Registry unavailable \(could not reach 127\.0\.0\.1:\d+: .+\)$/);
      assert.deepEqual(rows.map((row) => row.label), ['Claude Code', 'Codex', 'Gemini CLI', 'qwen-code', 'opencode', 'GitHub Copilot CLI']);
      pick.accept('Gemini CLI');
      assert.deepEqual(await added, { id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'] });
      assert.ok((config().get<{ id: string }[]>('agents') ?? []).some((a) => a.id === 'gemini'));
    } finally {
      await config().update('registryUrl', `${base}/registry.json`, vscode.ConfigurationTarget.Global);
    }
  });
});
