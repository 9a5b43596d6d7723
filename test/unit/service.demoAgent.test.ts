// The whole host stack in Node: SubchatsService + AgentConnection + store against the real demo agent over stdio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientHost } from '../../src/acp/clientHost';
import type { AgentConfig } from '../../src/acp/agentProcess';
import { SubchatsService, type AgentRuntime } from '../../src/host/subchatsService';
import { nestListedSessions, readListedSessions } from '../../src/acp/sessionListTree';

const REPO = resolve(__dirname, '..', '..');

function demoAgent(...extra: string[]): AgentConfig {
  // The agent runs in the workspace folder, so tsx is named by absolute URL.
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { id: 'demo', name: 'Demo', command: process.execPath, args: ['--import', tsx, join(REPO, 'src/demoAgent/standalone.ts'), '--pace', '1', ...extra] };
}

/** Allows every permission with its first option; reads and writes the real (temporary) workspace. */
function autoHost(decide: (title: string) => string | null = () => 'first'): ClientHost {
  return {
    async requestPermission(request) {
      const choice = decide(String((request.toolCall as { title?: string } | undefined)?.title ?? ''));
      const option = choice === 'first' ? request.options[0] : request.options.find((o) => o.optionId === choice);
      return option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' };
    },
    readTextFile: (path) => fs.readFile(path, 'utf8'),
    writeTextFile: async (path, content) => {
      await fs.mkdir(join(path, '..'), { recursive: true });
      await fs.writeFile(path, content);
    },
  };
}

function setup(host: ClientHost = autoHost(), extra: Partial<ConstructorParameters<typeof SubchatsService>[0]> = {}) {
  const workspace = mkdtempSync(join(tmpdir(), 'subchats-ws-'));
  const service = new SubchatsService({ clientHost: () => host, workspaceFolders: () => [workspace], ...extra });
  return { workspace, service };
}

function until(service: SubchatsService, runtime: AgentRuntime, condition: () => boolean, what: string): Promise<void> {
  if (condition()) return Promise.resolve();
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, 20_000);
    const sub = service.onDidChangeSessions(({ runtime: r }) => {
      if (r === runtime && condition()) {
        clearTimeout(timer);
        sub.dispose();
        resolvePromise();
      }
    });
  });
}

/** By display title; tool-linked dialects title a child "<type>: <name>" after its tool call. */
function byTitle(runtime: AgentRuntime, title: string) {
  return runtime.store.listSessions().find((s) => s.label === title || s.label.endsWith(`: ${title}`));
}

test('a prompt to the demo agent builds root > Explorer > Scout and Reviewer, and writes only inside the workspace', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent(), workspace);
    const sessionId = await service.newSession(runtime);
    const response = await service.prompt(runtime.id, sessionId, 'Show me everything');
    assert.equal(response.stopReason, 'end_turn');
    await until(service, runtime, () => ['Explorer', 'Reviewer', 'Scout'].every((t) => byTitle(runtime, t)?.state.state === 'idle'), 'children to finish');
    const tree = runtime.store.listSessions().map((s) => [s.label, s.parentId === null ? null : runtime.store.getSession(s.parentId)!.label]);
    assert.deepEqual(tree.slice(1), [['Explorer', tree[0]![0]], ['Scout', 'Explorer'], ['Reviewer', tree[0]![0]]]);
    assert.equal(runtime.store.actionsFor(byTitle(runtime, 'Reviewer')!.id).cancel.allowed, false);
    const reviewer = byTitle(runtime, 'Reviewer')!;
    assert.ok(reviewer.entries.some((e) => e.kind === 'permission' && e.outcome === 'selected'), 'the child asked under its own session');
    assert.ok(reviewer.stateHistory.some((h) => h.state === 'requires_action'));
    assert.match(readFileSync(join(workspace, 'subchats-demo', 'notes.md'), 'utf8'), /\S/);
    assert.deepEqual(runtime.store.diagnostics, []);
    assert.match(runtime.transcript.text(), /"dir":"client->agent"/);
  } finally {
    service.dispose();
  }
});

test('cancelling one child ends only that child; a child without capabilities.cancel is refused with nothing sent', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent('--child-duration', '30000'), workspace);
    const sessionId = await service.newSession(runtime);
    const turn = service.prompt(runtime.id, sessionId, 'go');
    await until(service, runtime, () => byTitle(runtime, 'Scout')?.state.state === 'running' && !!byTitle(runtime, 'Reviewer'), 'Scout to run');
    const reviewer = byTitle(runtime, 'Reviewer')!;
    await assert.rejects(service.cancel(runtime.id, reviewer.id), /does not accept cancel/);
    assert.ok(!runtime.transcript.text().includes(`"method":"session/cancel","params":{"sessionId":"${reviewer.id}"`), 'refused cancel never reached the wire');
    const explorer = byTitle(runtime, 'Explorer')!;
    await service.cancel(runtime.id, explorer.id);
    await until(service, runtime, () => explorer.state.state === 'idle', 'Explorer to stop');
    assert.equal(explorer.state.stopReason, 'cancelled');
    assert.equal((await turn).stopReason, 'end_turn', 'the parent goes on');
    await until(service, runtime, () => reviewer.state.state === 'idle', 'Reviewer to finish');
    assert.equal(reviewer.state.stopReason, 'end_turn');
  } finally {
    service.dispose();
  }
});

test('an agent crash mid-run marks sessions disconnected, keeps what was shown, and restart works', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent(), workspace);
    const sessionId = await service.newSession(runtime);
    await assert.rejects(service.prompt(runtime.id, sessionId, 'please /crash'));
    await until(service, runtime, () => runtime.status === 'exited', 'exit');
    const root = runtime.store.getSession(sessionId)!;
    assert.equal(root.state.state, 'disconnected');
    assert.ok(root.entries.length > 1, 'transcript kept');
    assert.match(runtime.error ?? '', /exited with code 1/);
    await assert.rejects(service.prompt(runtime.id, sessionId, 'again'), /not connected|Restart/);
    const restarted = await service.restart(runtime.id);
    assert.equal(restarted.status, 'ready');
    assert.notEqual(restarted.id, runtime.id);
    const fresh = await service.newSession(restarted);
    assert.equal((await service.prompt(restarted.id, fresh, '/quick')).stopReason, 'end_turn');
  } finally {
    service.dispose();
  }
});

test('session/list entries come back nested, and attaching a stored root replays it with its children', async () => {
  const { workspace, service } = setup();
  try {
    const first = await service.start(demoAgent(), workspace);
    const sessionId = await service.newSession(first);
    await service.prompt(first.id, sessionId, 'go');
    const listed = nestListedSessions(readListedSessions(((await first.connection!.listSessions({ cwd: workspace })) as { sessions: unknown[] }).sessions));
    assert.ok(listed.some((row) => row.sessionId === sessionId && row.depth === 0), 'the root is listed at the top level');
    // A second connection to the same agent process is not possible (sessions live in its memory), so
    // the same connection reattaches: session/load replays the conversation including child announcements.
    await service.attach(first, sessionId, workspace);
    const titles = first.store.listSessions().map((s) => s.label);
    assert.ok(titles.includes('Explorer') && titles.includes('Reviewer'), titles.join(', '));
    await assert.rejects(service.attach({ ...first, live: false } as AgentRuntime, sessionId, workspace), /not connected/);
  } finally {
    service.dispose();
  }
});

test('mode and option changes go to roots only, with values the agent advertised', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent(), workspace);
    const sessionId = await service.newSession(runtime);
    await service.changeSetting(runtime.id, sessionId, { kind: 'mode', modeId: 'plan' });
    await until(service, runtime, () => runtime.store.getSession(sessionId)?.currentModeId === 'plan', 'the mode update');
    await assert.rejects(service.changeSetting(runtime.id, sessionId, { kind: 'mode', modeId: 'no-such-mode' }), /not one of/);
    await service.prompt(runtime.id, sessionId, 'go');
    const explorer = byTitle(runtime, 'Explorer')!;
    await assert.rejects(service.changeSetting(runtime.id, explorer.id, { kind: 'mode', modeId: 'plan' }), /Modes and options are set on the root session/);
  } finally {
    service.dispose();
  }
});

// Every dialect the demo agent speaks is one the store understands: the same run builds a tree each time.
const DIALECT_LINKS: Record<string, string> = {
  acp: 'subagent_update',
  claude: 'claude-meta',
  qwen: 'qwen-meta',
  zed: 'zed-meta',
  'kind-subagent': 'tool-kind',
  air: 'subagent_spawned',
  copilot: 'copilot-meta',
};
for (const [dialect, link] of Object.entries(DIALECT_LINKS)) {
  test(`demo agent --dialect ${dialect}: the store nests Explorer and Reviewer via ${link}`, async () => {
    const { workspace, service } = setup();
    try {
      const runtime = await service.start(demoAgent('--dialect', dialect), workspace);
      const sessionId = await service.newSession(runtime);
      assert.equal((await service.prompt(runtime.id, sessionId, 'go')).stopReason, 'end_turn');
      await until(service, runtime, () => ['Explorer', 'Reviewer'].every((t) => byTitle(runtime, t)?.state.state === 'idle'), 'children to finish');
      for (const title of ['Explorer', 'Reviewer']) {
        const child = byTitle(runtime, title)!;
        assert.equal(child.parentId, sessionId, `${title} under the root`);
        assert.equal(child.link, link, `${title} link`);
      }
      assert.equal(byTitle(runtime, 'Scout')?.parentId, byTitle(runtime, 'Explorer')!.id, 'grandchild under its child');
      assert.deepEqual(runtime.store.diagnostics, []);
    } finally {
      service.dispose();
    }
  });
}

test('a cancel the agent ignores is reported once the grace period passes; one it acts on is not', async () => {
  const unconfirmed: string[] = [];
  const { workspace, service } = setup(autoHost(), { cancelConfirmMs: 300, onCancelUnconfirmed: (_runtime, session) => unconfirmed.push(session.label) });
  try {
    const runtime = await service.start(demoAgent(), workspace);
    const hanging = await service.newSession(runtime);
    void service.prompt(runtime.id, hanging, '/hang please').catch(() => undefined);
    await until(service, runtime, () => runtime.store.getSession(hanging)?.state.state === 'running', 'the hanging prompt to run');
    await service.cancel(runtime.id, hanging);
    assert.notEqual(runtime.store.getSession(hanging)?.cancelRequestedAt, null, 'the chat shows the cancel as requested');
    const quick = await service.newSession(runtime);
    const turn = service.prompt(runtime.id, quick, '/long');
    await until(service, runtime, () => runtime.store.getSession(quick)?.state.state === 'running', 'the long answer to run');
    await service.cancel(runtime.id, quick);
    assert.equal((await turn).stopReason, 'cancelled');
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(unconfirmed, ['/hang please'], 'only the ignored cancel is reported');
    const said = runtime.store.getSession(hanging)?.entries.find((e) => e.kind === 'notice' && e.title === 'Cancel not acted on');
    assert.ok(said, 'and the chat says so');
    service.stop(runtime.id);
    await until(service, runtime, () => runtime.store.getSession(hanging)?.state.state === 'disconnected', 'the stopped agent to leave');
    assert.equal(runtime.store.getSession(quick)?.cancelRequestedAt, null);
  } finally {
    service.dispose();
  }
});

test('demo agent --dialect copilot: Subchats asks for the events, so each child gets its own text', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent('--dialect', 'copilot'), workspace);
    const sessionId = await service.newSession(runtime);
    assert.equal((await service.prompt(runtime.id, sessionId, 'go')).stopReason, 'end_turn');
    await until(service, runtime, () => ['Explorer', 'Reviewer', 'Scout'].every((t) => byTitle(runtime, t)?.state.state === 'idle'), 'children to finish');
    for (const title of ['Explorer', 'Scout', 'Reviewer']) {
      const child = byTitle(runtime, title)!;
      assert.ok(child.entries.some((e) => e.kind === 'message' && e.role === 'agent' && e.text.trim() !== ''), `${title} has its own text`);
      assert.equal(child.stateHistory.at(-1)?.source, 'agent', `${title} ended by its completion event`);
    }
    const root = runtime.store.getSession(sessionId)!;
    assert.ok(root.toolCallOrder.every((id) => !root.toolCalls[id]?.meta?.['github.com/copilot']), 'no tagged call stayed on the root');
  } finally {
    service.dispose();
  }
});

test('without steering, relays asked while the parent works wait in its queue, one per turn end, labelled for the subagent', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent('--child-duration', '30000', '--no-steering'), workspace);
    const sessionId = await service.newSession(runtime);
    const turn = service.prompt(runtime.id, sessionId, 'go');
    await until(service, runtime, () => byTitle(runtime, 'Explorer')?.state.state === 'running', 'Explorer to run');
    const explorer = byTitle(runtime, 'Explorer')!;
    const first = await service.send(runtime.id, explorer.id, 'first relay');
    const second = await service.send(runtime.id, explorer.id, 'second relay');
    assert.deepEqual([first.route, first.via, first.sessionId], ['relay', 'queue', sessionId]);
    assert.deepEqual(
      runtime.store.getSession(sessionId)!.queued.map((q) => [q.text, q.relayFor?.label]),
      [['first relay', 'Explorer'], ['second relay', 'Explorer']],
    );
    assert.equal(second.via, 'queue');
    const prompts = () => runtime.transcript.text().split('\n').filter((line) => line.includes('"method":"session/prompt"'));
    assert.equal(prompts().length, 1, 'nothing relayed during the turn');
    await service.cancel(runtime.id, sessionId);
    await turn;
    await until(service, runtime, () => prompts().length === 2, 'the first relay');
    assert.match(prompts()[1]!, /Relay for your subagent \\"Explorer\\".*first relay/);
    assert.equal(prompts().length, 2, 'one queued message per turn end');
    await service.cancel(runtime.id, sessionId);
    await until(service, runtime, () => prompts().length === 3, 'the second relay');
    assert.match(prompts()[2]!, /second relay/);
    await service.cancel(runtime.id, sessionId);
    await until(service, runtime, () => runtime.store.getSession(sessionId)!.activePromptId === null, 'the last turn to end');
    const relayed = runtime.store.getSession(sessionId)!.entries.filter((e) => e.kind === 'message' && e.relay);
    assert.deepEqual(relayed.map((e) => e.kind === 'message' && [e.text, e.relay?.childLabel]), [['first relay', 'Explorer'], ['second relay', 'Explorer']]);
    assert.equal(runtime.store.getSession(explorer.id)!.entries.filter((e) => e.kind === 'message' && e.relay).length, 2, 'the subagent\'s chat shows both relays');
  } finally {
    service.dispose();
  }
});

for (const version of [1, 2] as const) {
  test(`ACP v${version}: a message sent while the root runs is steered into the turn at once (the first prompt still pending), and a subagent's message reaches the parent as a steer naming it`, async () => {
    const { workspace, service } = setup(autoHost(), { protocolSetting: () => version });
    try {
      const runtime = await service.start(demoAgent('--child-duration', '3000'), workspace);
      assert.equal(runtime.store.steering, true, 'the demo agent advertises steering');
      const sessionId = await service.newSession(runtime);
      const turn = service.prompt(runtime.id, sessionId, 'go');
      await until(service, runtime, () => byTitle(runtime, 'Explorer')?.state.state === 'running', 'Explorer to run');
      const steered = await service.send(runtime.id, sessionId, 'also look at the tests');
      assert.equal(steered.route, 'steer');
      const wire = () => runtime.transcript.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { dir?: string; msg?: { method?: string; id?: unknown; result?: unknown } });
      const steerAt = wire().findIndex((line) => line.msg?.method === '_session/steering');
      const promptId = wire().find((line) => line.msg?.method === 'session/prompt')?.msg?.id;
      // v1: the prompt's response ends the turn; v2 acknowledges it at once and ends the turn by state_update.
      const turnEndedAt = wire().findIndex((line) => line.dir === 'agent->client' && (version === 1 ? line.msg?.id === promptId && line.msg?.result !== undefined : JSON.stringify(line.msg).includes('"state":"idle","stopReason"') && JSON.stringify(line.msg).includes(sessionId)));
      assert.ok(steerAt > 0, 'the steer is on the wire');
      assert.ok(turnEndedAt === -1 || turnEndedAt > steerAt, 'while the first prompt is pending');
      const explorer = byTitle(runtime, 'Explorer')!;
      const relayed = await service.send(runtime.id, explorer.id, 'count the lines too');
      assert.deepEqual([relayed.route, relayed.via, relayed.sessionId], ['relay', 'steer', sessionId]);
      const rootMessages = () => runtime.store.getSession(sessionId)!.entries.filter((e) => e.kind === 'message');
      await until(service, runtime, () => rootMessages().some((e) => e.role === 'agent' && e.text.includes('Noted your message: "also look at the tests"')), 'the agent to read the steer');
      await until(service, runtime, () => rootMessages().some((e) => e.role === 'user' && e.text === 'also look at the tests' && e.steer?.status === 'landed'), 'the steer to show as read');
      const relay = rootMessages().find((e) => e.kind === 'message' && e.relay);
      assert.equal(relay?.kind === 'message' && relay.text, 'count the lines too', 'the parent shows the user\'s words, marked as a relay');
      await until(service, runtime, () => runtime.store.getSession(explorer.id)!.entries.some((e) => e.kind === 'message' && e.relay?.passedOn !== undefined), 'the relay to be passed on');
      assert.equal((await turn).stopReason, 'end_turn');
      assert.equal(runtime.store.getSession(sessionId)!.queued.length, 0);
    } finally {
      service.dispose();
    }
  });
}

test('a queued message goes out when the turn ends, and the transcript records it after that end, as on the wire', async () => {
  const { workspace, service } = setup();
  try {
    const runtime = await service.start(demoAgent('--no-steering'), workspace);
    const sessionId = await service.newSession(runtime);
    const turn = service.prompt(runtime.id, sessionId, '/long');
    const root = () => runtime.store.getSession(sessionId)!;
    await until(service, runtime, () => root().entries.some((e) => e.kind === 'message' && e.role === 'agent' && e.text.includes('Sentence 2 of')), 'the long answer');
    assert.equal((await service.send(runtime.id, sessionId, 'queued words')).route, 'queue');
    await service.cancel(runtime.id, sessionId);
    await turn;
    const wire = () => runtime.transcript.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { dir: string; msg: { id?: unknown; method?: string; params?: { prompt?: { text?: string }[] } } });
    const queuedAt = () => wire().findIndex((l) => l.msg.method === 'session/prompt' && l.msg.params?.prompt?.[0]?.text === 'queued words');
    await until(service, runtime, () => queuedAt() >= 0, 'the queued message to go out');
    const lines = wire();
    const first = lines.find((l) => l.msg.method === 'session/prompt')!;
    // v1: the prompt's answer ends the turn; v2: the session's idle state_update does (its answer comes at once).
    const endedAt = lines.findIndex((l, i) => i > lines.indexOf(first) && l.dir === 'agent->client' && (l.msg.id === first.msg.id && !l.msg.method ? runtime.store.protocolVersion === 1 : JSON.stringify(l.msg).includes('"state":"idle"')));
    assert.ok(endedAt >= 0 && endedAt < queuedAt(), `the turn ended at line ${endedAt}, the queued message went out at line ${queuedAt()}`);
  } finally {
    service.dispose();
  }
});
