// "Open Subagent Session": offered for a finished opencode task child when the agent advertises loadSession
// (and said why not otherwise); over a real connection it `session/load`s the child's own id, and the loaded
// session takes the subagent's row.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import type { ClientHost } from '../../src/acp/clientHost';
import { SubchatsService } from '../../src/host/subchatsService';
import { elapsedMs } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import { SessionStore } from '../../src/store/sessionStore';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { fixtureText, replayStepwise, type FixtureFolder } from './support/storeFixtures';

const REPO = resolve(__dirname, '..', '..');
const REPLAY_AGENT = join(REPO, 'test/fixtures/fake-agents/replayAgent.mjs');
const childOf = (store: SessionStore): SessionView => store.listSessions().find((session) => session.parentId !== null)!;
const rootOf = (store: SessionStore): SessionView => store.listSessions().find((session) => session.parentId === null)!;

/** 0-based index of the first line that contains `needle`. */
function lineOf(folder: FixtureFolder, name: string, needle: string): number {
  return fixtureText(folder, name).split('\n').findIndex((text) => text.includes(needle));
}

function replayLines(folder: FixtureFolder, name: string, keep: (text: string, index: number) => boolean): SessionStore {
  const store = new SessionStore({ now: () => 0 });
  fixtureText(folder, name).split('\n').forEach((text, i) => keep(text, i) && store.ingestLine(text, i + 1));
  return store;
}

test('a finished opencode task child can open its own session; the tree offers it', () => {
  const store = replayStepwise('recorded-new', 'opencode-single.jsonl');
  const child = childOf(store);
  assert.equal(child.origin, 'virtual');
  assert.ok(child.remoteSessionId);
  assert.deepEqual(store.actionsFor(child.id).openSubagent, { allowed: true });
  const runtime = { id: 'c1', agent: { id: 'opencode', name: 'opencode', command: 'opencode' }, live: true, status: 'ready' as const, store };
  assert.match(sessionItemOf(runtime, child.id, 0)!.contextValue, /\bcanOpenSubagent\b/);
  assert.doesNotMatch(sessionItemOf(runtime, rootOf(store).id, 0)!.contextValue, /\bcanOpenSubagent\b/);
  assert.equal(store.actionsFor(rootOf(store).id).openSubagent.reason, 'Only a subagent has a session of its own to open.');
});

test('not offered, with the reason: while the task runs, without loadSession, for children whose agent names no session', () => {
  const running = replayLines('recorded-new', 'opencode-single.jsonl', (text) => !text.includes('"status":"completed"') && !text.includes('"result":{"stopReason"'));
  assert.equal(childOf(running).state.state, 'running');
  assert.match(running.actionsFor(childOf(running).id).openSubagent.reason ?? '', /has not named a session of this subagent's own.*opencode names it when the task completes/);

  const noLoad = replayLines('recorded-new', 'opencode-single.jsonl', () => true);
  const withoutLoad = new SessionStore({ now: () => 0 });
  fixtureText('recorded-new', 'opencode-single.jsonl')
    .split('\n')
    .forEach((text, i) => withoutLoad.ingestLine(text.replace('"loadSession":true', '"loadSession":false'), i + 1));
  assert.equal(noLoad.actionsFor(childOf(noLoad).id).openSubagent.allowed, true);
  assert.match(withoutLoad.actionsFor(childOf(withoutLoad).id).openSubagent.reason ?? '', /does not support session\/load \(agentCapabilities\.loadSession\)/);

  const gemini = replayStepwise('recorded-new', 'gemini-single.jsonl');
  assert.match(gemini.actionsFor(childOf(gemini).id).openSubagent.reason ?? '', /has not named a session/);
  const claude = replayStepwise('traces', 'claude2-single.jsonl');
  assert.match(claude.actionsFor(childOf(claude).id).openSubagent.reason ?? '', /is a session of its own already/);

  // A background task names its session at launch, but it is still working.
  const background = replayLines('written', 'opencode-background.jsonl', (_text, i) => i < lineOf('written', 'opencode-background.jsonl', '"id":2,"result"'));
  assert.ok(childOf(background).remoteSessionId);
  assert.match(background.actionsFor(childOf(background).id).openSubagent.reason ?? '', /is still working; its own session can be opened once its task has ended/);

  // Once loaded it is a session of its own.
  const loaded = replayStepwise('recorded-new', 'opencode-load-child.jsonl');
  assert.match(loaded.actionsFor(childOf(loaded).id).openSubagent.reason ?? '', /is a session of its own already/);
});

test('over a real connection: session/load of the child id replays its transcript into the same row, which then takes prompts', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'subchats-ws-'));
  // The recording up to the load's answer: the replay agent then waits for what the client sends.
  const lines = fixtureText('recorded-new', 'opencode-load-child.jsonl').split('\n');
  const loadAnswered = lines.findIndex((text) => text.includes('"id":3,"result"'));
  const trace = join(workspace, 'opencode-until-load.jsonl');
  writeFileSync(trace, `${lines.slice(0, loadAnswered + 1).join('\n')}\n`);
  const host: ClientHost = { requestPermission: async () => ({ outcome: 'cancelled' }), readTextFile: async () => '', writeTextFile: async () => undefined };
  const service = new SubchatsService({ clientHost: () => host, workspaceFolders: () => [workspace] });
  const runtime = await service.start({ id: 'opencode', name: 'opencode', command: process.execPath, args: [REPLAY_AGENT, trace] }, workspace);
  try {
    const rootId = await service.newSession(runtime);
    await service.prompt(runtime.id, rootId, 'Please delegate this to a subagent');
    const virtual = childOf(runtime.store);
    const ownId = virtual.remoteSessionId!;
    assert.ok(runtime.store.actionsFor(virtual.id).openSubagent.allowed);

    assert.equal(await service.openSubagentSession(runtime.id, virtual.id), ownId);
    const loadSent = runtime.transcript.text().split('\n').filter((line) => line.includes('"session/load"'));
    assert.equal(loadSent.length, 1);
    assert.match(loadSent[0]!, new RegExp(`"sessionId":"${ownId}"`));

    const children = runtime.store.listSessions().filter((session) => session.parentId !== null);
    assert.equal(children.length, 1, 'the loaded session is the same row, not a grandchild or a new root');
    const loaded = children[0]!;
    assert.equal(loaded.id, ownId);
    assert.equal(loaded.parentId, rootId);
    assert.equal(loaded.parentToolCallId, virtual.parentToolCallId);
    assert.equal(loaded.label, virtual.label);
    assert.ok(loaded.entries.some((entry) => entry.kind === 'toolCall'), 'its own transcript came with the load');
    assert.ok(runtime.store.actionsFor(loaded.id).prompt.allowed, 'opencode runs a loaded child again on a prompt');
    await assert.rejects(service.openSubagentSession(runtime.id, loaded.id), /is a session of its own already/);
  } finally {
    runtime.connection?.dispose();
  }
});

test('the loaded session takes the card\'s place in the parent chat and keeps the task\'s duration (#21 item 4)', () => {
  const loadAnswered = fixtureText('recorded-new', 'opencode-load-child.jsonl').split('\n').findIndex((text) => text.includes('"id":3,"result"')) + 1;
  let atLoad: { rev: number; entryRev: number; elapsed: number } | undefined;
  const store = replayStepwise('recorded-new', 'opencode-load-child.jsonl', (s, line) => {
    if (line !== loadAnswered) return;
    const root = rootOf(s);
    const call = root.entries.find((e) => e.kind === 'toolCall');
    atLoad = { rev: s.revision, entryRev: call?.rev ?? -1, elapsed: elapsedMs(childOf(s), Number.MAX_SAFE_INTEGER, true) };
  });
  const root = rootOf(store);
  const child = childOf(store);
  assert.equal(root.toolCalls['call_main_003']?.childSessionId, child.id);
  assert.ok(!root.entries.some((e) => e.kind === 'child'), 'no second card after the parent\'s answer: the launch call still hosts it');
  assert.ok(atLoad && atLoad.entryRev > 1 && root.entries.find((e) => e.kind === 'toolCall')!.rev >= atLoad.entryRev, 'the call that names the child changed, so the chat redraws its card');
  // The task ran 256 ms (in_progress 09:02:28.892 → completed 09:02:29.148); loading it is no work.
  assert.equal(atLoad.elapsed, 256);
  // The follow-up turn adds its 343 ms of work (09:02:32.326 → 09:02:32.669), not the idle time between.
  assert.equal(elapsedMs(child, Number.MAX_SAFE_INTEGER, true), 256 + 343);
});
