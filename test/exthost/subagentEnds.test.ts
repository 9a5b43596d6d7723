// The notifier for honest ends (#24 item 4) in a real extension host: a background subagent's reported end shows
// an information message naming it and its parent, with Open; nothing while a visible chat shows it, nothing for a
// connection that is not live, nothing with subchats.notifications.subagentEnds off. The store is real, fed the
// qwen background transcript; the connection around it stands in for a live agent.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Emitter } from 'vscode-jsonrpc/node';
import { SubagentEndsNotifier } from '../../src/host/subagentEndsNotifier';
import type { AgentRuntime, RuntimeChange, SubchatsService } from '../../src/host/subchatsService';
import { SessionStore } from '../../src/store/sessionStore';
import { stubWindow, type WindowStub } from './support/windowStubs';

const FIXTURE = join(__dirname, '..', '..', 'test', 'fixtures', 'written', 'qwen-background.jsonl');

/** A service with one connection whose store reads the transcript line by line as the agent would send it. */
function standIn(live: boolean) {
  const store = new SessionStore({ now: () => 0 });
  const runtime = { id: 'c1', live, store, agent: { id: 'qwen', name: 'Qwen', command: 'qwen' } } as unknown as AgentRuntime;
  const runtimes = new Emitter<void>();
  const sessions = new Emitter<RuntimeChange>();
  store.onDidChange((changes) => sessions.fire({ runtime, changes }));
  const service = { list: () => [runtime], onDidChangeRuntimes: runtimes.event, onDidChangeSessions: sessions.event } as unknown as SubchatsService;
  const replay = () => readFileSync(FIXTURE, 'utf8').split('\n').forEach((line, i) => store.ingestLine(line, i + 1));
  return { service, store, replay };
}

describe('notifications of subagent ends', () => {
  let stub: WindowStub | undefined;
  let notifier: SubagentEndsNotifier | undefined;

  afterEach(() => {
    stub?.restore();
    notifier?.dispose();
    stub = notifier = undefined;
  });

  it('a background subagent\'s reported end shows one information message naming it and its parent, with Open', async () => {
    stub = stubWindow({ showInformationMessage: () => undefined });
    const { service, store, replay } = standIn(true);
    notifier = new SubagentEndsNotifier(service, { isSessionVisible: () => false }, () => true);
    replay();
    const root = store.listSessions().find((s) => s.parentId === null)!;
    assert.deepEqual(stub.asked, [{ method: 'showInformationMessage', message: `“Subtask B” (under “${root.label}”) finished: Done`, modal: false, items: ['Open'] }]);
  });

  it('nothing while a visible chat shows the subagent, for a connection that is not live, or with the setting off', async () => {
    stub = stubWindow({ showInformationMessage: () => undefined });
    for (const [live, visible, enabled] of [
      [true, true, true],
      [false, false, true],
      [true, false, false],
    ] as const) {
      const { service, replay } = standIn(live);
      notifier = new SubagentEndsNotifier(service, { isSessionVisible: () => visible }, () => enabled);
      replay();
      notifier.dispose();
    }
    assert.deepEqual(stub.asked, []);
  });

  it('the setting is contributed, on by default', () => {
    assert.equal(vscode.workspace.getConfiguration('subchats').inspect<boolean>('notifications.subagentEnds')?.defaultValue, true);
  });
});
