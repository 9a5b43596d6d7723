// Session tree benchmark (the vscode-free parts): with 1, 10, 100, 1,000 and 5,000 sessions, a full refresh (every
// TreeItemModel), one change (bookkeeping plus that session's item) and the 1 s tick (pick what ticks, count
// the badge, rebuild the ticking items), against the tick before issue 10 (a walk over every session for the
// tick and another for the badge) in the same run. 1% of the sessions (at least one) are working, and one
// of them streams a chunk of text before each timed operation (a refresh follows a change).
import { needsUser, sessionItemOf } from '../src/views/sessionTreeModel';
import { SessionTreeWatch } from '../src/views/sessionTreeWatch';
import { SessionStore } from '../src/store/sessionStore';

export interface TreeRow {
  readonly sessions: number;
  readonly working: number;
  readonly fullRefreshMs: number;
  readonly oneChangeMs: number;
  readonly tickBeforeMs: number;
  readonly tickMs: number;
}

function runtimeWith(sessions: number) {
  const store = new SessionStore({ now: () => 0 });
  const update = (sessionId: string, u: object) => store.ingest({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } }, 'agent->client');
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/bench', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 'root' } }, 'agent->client');
  const working = Math.max(1, Math.floor(sessions / 100));
  for (let i = 1; i < sessions; i++) {
    const parent = i < 10 ? 'root' : `child-${i % 10 || 1}`;
    update(parent, { sessionUpdate: 'subagent_update', sessionId: `child-${i}`, title: `Child ${i}`, capabilities: { cancel: {} }, state: { state: i < working ? 'running' : 'idle', stopReason: i < working ? undefined : 'end_turn' } });
    update(`child-${i}`, { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'grep', kind: 'search', status: 'completed' });
  }
  if (working > 0) store.ingest({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'root', prompt: [{ type: 'text', text: 'go' }] } }, 'client->agent');
  const runtime = { id: 'c1', agent: { id: 'bench', name: 'Bench', command: 'bench' }, live: true, status: 'ready' as const, store };
  // What a refresh follows in real use: a new revision (here a chunk of text into the deepest working session).
  const streamer = sessions > 1 ? `child-${Math.max(1, working - 1)}` : 'root';
  const chunk = () => update(streamer, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'more ' } });
  return { runtime, working, chunk };
}

/** Median ms of `run` over enough repetitions to take at least ~50 ms; `before` (untimed) runs before each. */
function timeIt(run: () => void, before: () => void = () => undefined): number {
  for (let i = 0; i < 5; i++) {
    before();
    run();
  }
  const samples: number[] = [];
  const deadline = performance.now() + 50;
  while (samples.length < 11 || (performance.now() < deadline && samples.length < 10_000)) {
    before();
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

export function runTreeBench(sizes: readonly number[] = [1, 10, 100, 1000, 5000]): TreeRow[] {
  return sizes.map((sessions) => {
    const { runtime, working, chunk } = runtimeWith(sessions);
    const all = runtime.store.listSessions();
    if (all.length !== sessions) throw new Error(`tree bench built ${all.length} sessions, not ${sessions}`);
    const watch = new SessionTreeWatch();
    watch.sync([runtime]);
    const now = 60_000;
    let sink = 0;
    const fullRefreshMs = timeIt(() => {
      for (const s of all) sink += sessionItemOf(runtime, s.id, now)?.label.length ?? 0;
    }, chunk);
    const changed = all[all.length - 1]!.id;
    const oneChangeMs = timeIt(() => {
      watch.note(runtime, changed);
      sink += sessionItemOf(runtime, changed, now)?.label.length ?? 0;
    }, chunk);
    const tickBeforeMs = timeIt(() => {
      for (const s of runtime.store.listSessions()) {
        if (s.state.state === 'running' || s.state.state === 'requires_action') sink += sessionItemOf(runtime, s.id, now)?.label.length ?? 0;
      }
      let badge = 0;
      for (const s of runtime.store.listSessions()) if (needsUser(s)) badge++;
      sink += badge;
    }, chunk);
    const tickMs = timeIt(() => {
      for (const { sessionId } of watch.ticking()) sink += sessionItemOf(runtime, sessionId, now)?.label.length ?? 0;
      sink += watch.badgeCount([runtime]);
    }, chunk);
    if (sink < 0) throw new Error('unreachable');
    return { sessions, working: [...watch.ticking()].length, fullRefreshMs, oneChangeMs, tickBeforeMs, tickMs };
  });
}
