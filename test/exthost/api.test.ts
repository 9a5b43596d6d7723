// The public API (what activate() returns) against the real demo agent in the real extension host:
// sessions, prompts, the replay-shaped snapshot, change events, capability-gated cancel, permissions.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SubchatsTestApi as SubchatsApi } from '../../src/extension';
import type { ReplaySession } from '../../src/store/replayReport';
import { activateSubchats, answer, connectionOf, extension, pendingPermissionOf, sent, sessionOf, startTour, waitFor, wire, type TourIds } from './support/subchats';

/** The fields `subchats replay --json` prints for every session (README), in its order. */
const REPLAY_FIELDS = ['id', 'parentId', 'parentToolCallId', 'link', 'label', 'title', 'state', 'stopReason', 'canCancel', 'toolCalls', 'text'];

describe('public API: a demo tour', function () {
  this.timeout(120_000);
  let api: SubchatsApi;
  let connectionId: string;
  let rootId: string;
  let ids: TourIds;
  let turn: Promise<{ stopReason: string }>;
  let changes = 0;
  let subscription: { dispose(): void } | undefined;

  before(async () => {
    api = await activateSubchats();
    subscription = api.onDidChange(() => changes++);
    ({ connectionId, rootId, ids, turn } = await startTour(api));
  });

  after(async () => {
    subscription?.dispose();
    // Leaves nothing running for the next suite, whatever failed above.
    if (api && connectionId && rootId) await api.cancel(connectionId, rootId).catch(() => undefined);
  });

  it('starts the demo agent and fires onDidChange while the turn runs', () => {
    const connection = connectionOf(api, connectionId);
    assert.equal(connection.agentId, 'demo');
    assert.equal(connection.status, 'ready');
    assert.equal(connection.error, null);
    assert.ok(changes > 0, 'onDidChange never fired');
  });

  it('lists the sessions in the replay --json shape with the tree, links, titles and cancel gating', async () => {
    // The Reviewer waits for its permission, so the whole tree is running now.
    await waitFor(api, 'the Reviewer to ask permission', () => pendingPermissionOf(api, connectionId, ids.reviewer));
    await waitFor(api, 'Explorer and Scout to run', () => sessionOf(api, connectionId, ids.scout).state === 'running' && sessionOf(api, connectionId, ids.explorer).state === 'running');
    const sessions = connectionOf(api, connectionId).sessions;
    for (const session of sessions) assert.deepEqual(Object.keys(session).slice(0, REPLAY_FIELDS.length), REPLAY_FIELDS, `fields of ${session.id}`);
    // Pre-order: the root, then each child followed by its own children.
    const order = sessions.map((s) => s.id);
    const at = (id: string) => order.indexOf(id);
    assert.ok(at(rootId) < at(ids.explorer) && at(ids.explorer) < at(ids.scout), `pre-order: ${order.join(', ')}`);

    const root = sessionOf(api, connectionId, rootId);
    assert.deepEqual(pick(root, ['parentId', 'link', 'state', 'canCancel', 'depth']), { parentId: null, link: 'root', state: 'running', canCancel: true, depth: 0 });
    assert.ok(root.toolCalls.some((t) => t.kind === 'edit' && t.status === 'failed'), 'the rejected edit failed');
    assert.match(root.text, /Subchats demo agent/);

    const explorer = sessionOf(api, connectionId, ids.explorer);
    assert.deepEqual(pick(explorer, ['parentId', 'link', 'label', 'title', 'state', 'canCancel', 'depth']), { parentId: rootId, link: 'subagent_update', label: 'Explorer', title: 'Explorer', state: 'running', canCancel: true, depth: 1 });
    const scout = sessionOf(api, connectionId, ids.scout);
    assert.deepEqual(pick(scout, ['parentId', 'link', 'title', 'state', 'canCancel', 'depth']), { parentId: ids.explorer, link: 'subagent_update', title: 'Scout', state: 'running', canCancel: true, depth: 2 });
    const reviewer = sessionOf(api, connectionId, ids.reviewer);
    assert.deepEqual(pick(reviewer, ['parentId', 'link', 'title', 'canCancel', 'depth']), { parentId: rootId, link: 'subagent_update', title: 'Reviewer', canCancel: false, depth: 1 });
    assert.ok(['running', 'requires_action'].includes(reviewer.state), `Reviewer state ${reviewer.state}`);
  });

  it('lists the Reviewer\'s pending permission with its options', () => {
    const ask = pendingPermissionOf(api, connectionId, ids.reviewer);
    assert.ok(ask, 'no pending permission for the Reviewer');
    assert.match(ask.title, /review\.md/);
    assert.ok(ask.options.some((o) => o.kind === 'allow_once') && ask.options.some((o) => o.kind === 'reject_once'), JSON.stringify(ask.options));
    assert.equal(api.answerPermission(connectionId, 'no-such-request', ask.options[0]!.optionId), false);
  });

  it('refuses to cancel the Reviewer (no capabilities.cancel) and says why', async () => {
    await assert.rejects(api.cancel(connectionId, ids.reviewer), (error: Error) => {
      assert.match(error.message, /does not accept cancel/);
      assert.match(error.message, /Cancel the parent session instead\. Nothing was sent\.$/);
      return true;
    });
    await assert.rejects(api.prompt(connectionId, ids.reviewer, 'hello'), /ACP does not let a client send prompts to a subagent/);
  });

  it('lets the Reviewer finish normally once its permission is answered; nothing was sent for it', async () => {
    const optionId = answer(api, pendingPermissionOf(api, connectionId, ids.reviewer)!);
    const reviewer = await waitFor(api, 'the Reviewer to finish', () => {
      const s = sessionOf(api, connectionId, ids.reviewer);
      return s.state === 'idle' ? s : undefined;
    });
    assert.equal(reviewer.stopReason, 'end_turn');
    assert.equal(pendingPermissionOf(api, connectionId, ids.reviewer), undefined);
    // The refused cancel and prompt came before the permission answer on the wire, so they would show here.
    assert.deepEqual(sent(api, connectionId, 'session/cancel', ids.reviewer), []);
    assert.deepEqual(sent(api, connectionId, 'session/prompt', ids.reviewer), []);
    const answered = wire(api, connectionId).filter((l) => l.dir === 'client->agent' && (l.msg.result as { outcome?: { optionId?: string } } | undefined)?.outcome?.optionId === optionId);
    assert.ok(answered.length > 0, 'the permission answer is not on the wire');
    assert.match(sessionOf(api, connectionId, ids.reviewer).text, /not allowed to write the review/);
  });

  it('cancels the cancellable Explorer; the turn then ends with end_turn', async () => {
    await api.cancel(connectionId, ids.explorer);
    assert.equal(sent(api, connectionId, 'session/cancel', ids.explorer).length, 1);
    const explorer = await waitFor(api, 'the Explorer to stop', () => {
      const s = sessionOf(api, connectionId, ids.explorer);
      return s.state === 'idle' ? s : undefined;
    });
    assert.equal(explorer.stopReason, 'cancelled');
    assert.equal(explorer.canCancel, false, 'a stopped child withdraws capabilities.cancel');
    assert.deepEqual(await turn, { stopReason: 'end_turn' });
    const root = await waitFor(api, 'the root to be idle', () => {
      const s = sessionOf(api, connectionId, rootId);
      return s.state === 'idle' ? s : undefined;
    });
    assert.equal(root.stopReason, 'end_turn');
    assert.match(root.text, /That is the whole tour\./);
    assert.match(root.text, /\*\*Explorer\*\*: stopped \(cancelled\)/);
  });

  it('snapshot() equals what `subchats replay --json` prints for the exported transcript', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'subchats-exthost-'));
    try {
      const file = join(dir, 'tour.jsonl');
      const live = connectionOf(api, connectionId);
      await writeFile(file, api.transcript(connectionId));
      const cli = join(extension().extensionPath, 'dist', 'cli.js');
      const { stdout } = await promisify(execFile)(process.execPath, [cli, 'replay', file, '--json'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, maxBuffer: 64 * 1024 * 1024 });
      const replayed = JSON.parse(stdout) as { sessions: ReplaySession[]; diagnostics: unknown[] };
      assert.deepEqual(replayed.diagnostics, live.diagnostics);
      // Only this tour's sessions: the connection may carry other suites' sessions too.
      const tour = new Set([rootId, ids.explorer, ids.scout, ids.reviewer]);
      assert.deepEqual(
        replayed.sessions.filter((s) => tour.has(s.id)),
        live.sessions.filter((s) => tour.has(s.id)),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('public API: cancelling a root', function () {
  this.timeout(120_000);

  it('cancel() on a running root sends session/cancel and the prompt resolves with cancelled', async () => {
    const api = await activateSubchats();
    const { connectionId, sessionId } = await api.startSession();
    const turn = api.prompt(connectionId, sessionId, 'Write a lot /long');
    turn.catch(() => undefined);
    await waitFor(api, 'the long answer to stream', () => sessionOf(api, connectionId, sessionId).text.includes('Sentence 2 of a very long answer'));
    assert.equal(sessionOf(api, connectionId, sessionId).state, 'running');
    await api.cancel(connectionId, sessionId);
    assert.equal(sent(api, connectionId, 'session/cancel', sessionId).length, 1);
    assert.deepEqual(await turn, { stopReason: 'cancelled' });
    const root = await waitFor(api, 'the root to be idle', () => {
      const s = sessionOf(api, connectionId, sessionId);
      return s.state === 'idle' ? s : undefined;
    });
    assert.equal(root.stopReason, 'cancelled');
    assert.ok(!root.text.includes('Sentence 2000 of'), 'the long answer was cut short');
  });

  it('startSession() rejects an agent id that is not configured', async () => {
    const api = await activateSubchats();
    await assert.rejects(api.startSession('no-such-agent'), /Unknown agent "no-such-agent"/);
  });
});

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>;
}
