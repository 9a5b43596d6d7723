// What a hostile agent can make the store hold: 100,000 announced children, then 300,000 tool calls, each
// finished, on one connection. Prints heapUsed before and after each flood (after a forced GC).
// Run: node --expose-gc --import tsx bench/memoryBounds.ts [children] [toolCalls]
import { SessionStore } from '../src/store/sessionStore';

const CHILDREN = Number(process.argv[2] ?? 100_000);
const TOOL_CALLS = Number(process.argv[3] ?? 300_000);

const update = (sessionId: string, body: object) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: body } });

function heapMB(): number {
  global.gc?.();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

function flood(label: string, feed: (store: SessionStore) => void): void {
  const before = heapMB();
  const store = new SessionStore();
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/bench', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 'root' } }, 'agent->client');
  const cpu0 = process.cpuUsage();
  feed(store);
  const cpu = process.cpuUsage(cpu0);
  const ms = (cpu.user + cpu.system) / 1000;
  const after = heapMB();
  const root = store.getSession('root');
  console.log(
    `${label}: heapUsed ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after (+${(after - before).toFixed(1)} MB) in ${Math.round(ms)} ms of CPU;` +
      ` kept ${store.sessionCount} sessions, ${root?.toolCallOrder.length ?? 0} tool calls on the root`,
  );
  // Keep the store alive until it was measured.
  if (store.revision < 0) console.log(store);
}

flood(`${CHILDREN.toLocaleString('en')} announced children`, (store) => {
  for (let i = 0; i < CHILDREN; i++) {
    store.ingest(update('root', { sessionUpdate: 'subagent_update', sessionId: `child-${i}`, title: `Child ${i}`, state: { state: 'running' } }), 'agent->client');
    store.ingest(update('root', { sessionUpdate: 'subagent_update', sessionId: `child-${i}`, state: { state: 'idle', stopReason: 'end_turn' } }), 'agent->client');
  }
});

flood(`${TOOL_CALLS.toLocaleString('en')} tool calls`, (store) => {
  for (let i = 0; i < TOOL_CALLS; i++) {
    store.ingest(update('root', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `grep pattern ${i}`, kind: 'search', status: 'pending', rawInput: { pattern: 'x' } }), 'agent->client');
    store.ingest(update('root', { sessionUpdate: 'tool_call_update', toolCallId: `t${i}`, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'found 3 matches' } }] }), 'agent->client');
  }
});
