// Many children under one parent (issue 23 item 7): the host's cost per update while the parent's chat is open,
// with 1, 100 and 500 running children. Each update is a text chunk, to the parent or to one child in turn; the
// chat feed builds and posts its delta after each (as at a model's pace) and the page acknowledges at once.
import { SessionStore } from '../src/store/sessionStore';
import { ChatFeed } from '../src/webviews/chatFeed';

export interface ChildCountRow {
  readonly children: number;
  readonly updates: number;
  readonly usPerUpdate: number;
  readonly bytesPerUpdate: number;
}

const update = (sessionId: string, body: object) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: body } });

function measure(children: number, updates: number): ChildCountRow {
  const store = new SessionStore();
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/bench', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 'root' } }, 'agent->client');
  for (let i = 0; i < children; i++) {
    store.ingest(update('root', { sessionUpdate: 'subagent_update', sessionId: `child-${i}`, title: `Child ${i}`, capabilities: { cancel: {} }, state: { state: 'running' } }), 'agent->client');
  }
  let bytes = 0;
  const feed = new ChatFeed(store, 'root', (message) => (bytes += JSON.stringify(message).length));
  feed.sendSnapshot();
  const run = (count: number): number => {
    const start = performance.now();
    for (let u = 0; u < count; u++) {
      const target = u % 2 === 0 ? 'root' : `child-${u % children}`;
      store.ingest(update(target, { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: `word${u} ` } }), 'agent->client');
      feed.flush();
      feed.ack(store.revision);
    }
    return performance.now() - start;
  };
  // Warm-up: every child's message exists (a child's first chunk changes its parent's card, which is not the point).
  run(Math.max(200, 2 * children));
  bytes = 0;
  const ms = run(updates);
  feed.dispose();
  return { children, updates, usPerUpdate: (ms * 1000) / updates, bytesPerUpdate: bytes / updates };
}

/** Rounds of every case, interleaved; each case's median is reported. */
const ROUNDS = 5;

export function runChildCountBench(quick: boolean): ChildCountRow[] {
  const counts = quick ? [1, 100] : [1, 100, 500];
  // A round of every case first: the first case measured would otherwise pay for the JIT's warm-up (it read 1.8x
  // for 100 children against 1 in one run, about 1.05x in the next).
  for (const children of counts) measure(children, 500);
  const rounds = Array.from({ length: ROUNDS }, () => counts.map((children) => measure(children, 2000)));
  return counts.map((children, i) => {
    const runs = rounds.map((round) => round[i]!).sort((a, b) => a.usPerUpdate - b.usPerUpdate);
    return { ...runs[Math.floor(runs.length / 2)]!, children };
  });
}
