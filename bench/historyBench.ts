// A window reload restores the session history: before issue 23 item 6 each connection's transcript replayed in
// one synchronous run (0.6-1.1 s for 20 MB), during which the extension host answered nothing. Now it replays in
// slices. For 5 MB and 20 MB of history: the longest the event loop waited while it replayed, the whole replay,
// and JSON.parse of the same lines (the floor any replay pays) in the same run.
import { SubchatsService } from '../src/host/subchatsService';
import { replayText } from '../src/store/replayReport';
import { SessionStore } from '../src/store/sessionStore';
import { MemoryTranscript } from '../src/acp/transcriptRecorder';

export interface HistoryRow {
  readonly megabytes: number;
  readonly lines: number;
  readonly parseMs: number;
  /** The replay as it was: one synchronous run (store and transcript), i.e. how long the loop waited. */
  readonly oneGoMs: number;
  readonly slicedTotalMs: number;
  readonly slicedLongestWaitMs: number;
}

/** A transcript of about `megabytes` MB: turns of a prompt and a streamed answer, as the history file holds it. */
function historyText(megabytes: number): string {
  const lines: string[] = [
    JSON.stringify({ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } } }),
    JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 'S' } } }),
  ];
  let bytes = 0;
  for (let turn = 0; bytes < megabytes * 1024 * 1024; turn++) {
    lines.push(JSON.stringify({ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 100 + turn, method: 'session/prompt', params: { sessionId: 'S', prompt: [{ type: 'text', text: `question ${turn}` }] } } }));
    for (let chunk = 0; chunk < 50; chunk++) {
      const line = JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'S', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `word ${chunk} of turn ${turn}, `.repeat(4) } } } } });
      lines.push(line);
      bytes += line.length + 1;
    }
    lines.push(JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 100 + turn, result: { stopReason: 'end_turn' } } }));
  }
  return `${lines.join('\n')}\n`;
}

/** The longest gap between turns of a 1 ms interval while `run` goes on. */
async function longestWait(run: () => Promise<unknown>): Promise<{ totalMs: number; longestWaitMs: number }> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  last = start;
  await run();
  const totalMs = performance.now() - start;
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last);
  return { totalMs, longestWaitMs: longest };
}

export async function runHistoryBench(sizes: readonly number[] = [5, 20]): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  for (const megabytes of sizes) {
    const text = historyText(megabytes);
    const lines = text.split('\n').filter(Boolean);
    let t0 = performance.now();
    for (const line of lines) JSON.parse(line);
    const parseMs = performance.now() - t0;
    t0 = performance.now();
    const store = new SessionStore();
    replayText(store, text);
    const transcript = new MemoryTranscript();
    for (const line of text.split('\n')) if (line) transcript.recordLine(line);
    const oneGoMs = performance.now() - t0;
    const service = new SubchatsService({ clientHost: () => { throw new Error('not used'); }, workspaceFolders: () => [] });
    const sliced = await longestWait(() => service.addHistory({ id: `h${megabytes}`, agentId: 'bench', agentName: 'Bench', startedAt: 0, cwd: '/w' }, text));
    if (service.get(`h${megabytes}`)?.store.getSession('S') === undefined) throw new Error('history bench: the sliced replay lost the session');
    service.dispose();
    rows.push({ megabytes, lines: lines.length, parseMs, oneGoMs, slicedTotalMs: sliced.totalMs, slicedLongestWaitMs: sliced.longestWaitMs });
  }
  return rows;
}
