// Store benchmark: a synthetic stream of raw lines (200 children nested to depth 3, chunks and tool calls
// interleaved) fed to the store. Reports updates/s and the ratio of store time to bare JSON.parse of the same lines.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import type { Direction } from '../src/store/model';
import { SessionStore } from '../src/store/sessionStore';
import { FileTextVault } from '../src/host/fileTextVault';

export interface StoreBenchResult {
  readonly updates: number;
  readonly parseMs: number;
  readonly storeMs: number;
  readonly ratio: number;
  readonly updatesPerSecond: number;
  readonly retainedTextBytes: number;
  readonly heapGrowthBytes: number;
  readonly heapPerTextByte: number;
  /** With a vault (long messages): UTF-8 bytes of message text the vault holds, and characters left in memory. */
  readonly onDiskBytes?: number;
  readonly heldChars?: number;
  readonly messages?: number;
}

/** A run with one long message per child and the heads of long texts going to a file vault past `heldChars`. */
export interface SpillRun {
  readonly heldChars: number;
}

const ROOT = 'root-session';
const CHILDREN = 200;

function childId(i: number): string {
  return `child-${i}`;
}

/** Parent of child i: the first 20 hang off the root, the next 60 off them, the rest off those (depth 3). */
function parentOf(i: number): string {
  if (i < 20) return ROOT;
  if (i < 80) return childId(i % 20);
  return childId(20 + (i % 60));
}

/**
 * With `toolCalls` false every update is a message chunk (the heap of message text alone). With `longMessages`
 * each child writes one message all along (a long answer), instead of a new one every 20 chunks.
 */
function* lines(total: number, toolCalls = true, longMessages = false): Generator<[string, Direction]> {
  const wrap = (sessionId: string, update: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
  yield [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/bench', mcpServers: [] } }), 'client->agent'];
  yield [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { sessionId: ROOT } }), 'agent->client'];
  for (let i = 0; i < CHILDREN; i++) {
    yield [wrap(parentOf(i), { sessionUpdate: 'subagent_update', sessionId: childId(i), title: `Child ${i}`, capabilities: { cancel: {} }, state: { state: 'running' } }), 'agent->client'];
  }
  let n = CHILDREN + 2;
  let step = 0;
  while (n < total) {
    const child = childId(step % CHILDREN);
    const phase = Math.floor(step / CHILDREN) % 20;
    if (toolCalls && phase === 0) {
      yield [wrap(child, { sessionUpdate: 'tool_call', toolCallId: `t${step}`, title: `grep pattern ${step}`, kind: 'search', status: 'pending', rawInput: { pattern: 'x' } }), 'agent->client'];
    } else if (toolCalls && phase === 1) {
      yield [wrap(child, { sessionUpdate: 'tool_call_update', toolCallId: `t${step - CHILDREN}`, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'found 3 matches' } }] }), 'agent->client'];
    } else {
      const messageId = longMessages ? 'm' : `m${Math.floor(step / (CHILDREN * 20))}`;
      yield [wrap(child, { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text: longMessages && step % 11 === 10 ? `word${step % 97}\n` : `word${step % 97} ` } }), 'agent->client'];
    }
    step++;
    n++;
  }
}

export async function runStoreBench(total = 1_000_000, batch = 50_000, toolCalls = true, spill?: SpillRun): Promise<StoreBenchResult> {
  const vaultDir = spill ? mkdtempSync(join(tmpdir(), 'store-bench-vault-')) : undefined;
  const vault = vaultDir ? new FileTextVault(join(vaultDir, 'text.txt')) : undefined;
  const store = new SessionStore({ now: () => 0, ...(spill && vault ? { limits: { maxHeldTextChars: spill.heldChars }, textVault: vault } : {}) });
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let parseMs = 0;
  let storeMs = 0;
  let count = 0;
  let buffer: string[] = [];
  let directions: Direction[] = [];
  const flush = () => {
    const t0 = performance.now();
    const parsed = buffer.map((l) => JSON.parse(l) as unknown);
    const t1 = performance.now();
    for (let i = 0; i < parsed.length; i++) store.ingest(parsed[i], directions[i]!);
    const t2 = performance.now();
    parseMs += t1 - t0;
    storeMs += t2 - t1;
    count += buffer.length;
    buffer = [];
    directions = [];
  };
  for (const [line, direction] of lines(total, toolCalls, spill !== undefined)) {
    buffer.push(line);
    directions.push(direction);
    if (buffer.length < batch) continue;
    flush();
    // The vault writes between reads of the agent's output; here, between batches.
    await vault?.settled();
  }
  flush();
  await vault?.settled();
  global.gc?.();
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  if (store.getSession(ROOT)?.childIds.length !== 20 || store.sessionCount !== CHILDREN + 1) throw new Error('benchmark stream did not build the expected tree');
  let textBytes = 0;
  let onDiskBytes = 0;
  let heldChars = 0;
  let messages = 0;
  // Real bytes, as the text is on the wire and on disk (UTF-8): not UTF-16 code units at 2 bytes each.
  for (const session of store.listSessions()) {
    for (const e of session.entries) {
      if (e.kind !== 'message') continue;
      textBytes += Buffer.byteLength(e.text, 'utf8') + (e.earlier?.bytes ?? 0);
      onDiskBytes += e.earlier?.bytes ?? 0;
      heldChars += e.text.length;
      messages++;
    }
  }
  if (vaultDir) rmSync(vaultDir, { recursive: true, force: true });
  return {
    ...(spill ? { onDiskBytes, heldChars, messages } : {}),
    updates: count,
    parseMs,
    storeMs,
    ratio: storeMs / parseMs,
    updatesPerSecond: count / (storeMs / 1000),
    retainedTextBytes: textBytes,
    heapGrowthBytes: heapGrowth,
    heapPerTextByte: heapGrowth / Math.max(1, textBytes),
  };
}

/**
 * In a fresh process, so the heap growth is not blurred by what an earlier run left for the collector, and
 * bundled by esbuild as the extension ships: run through tsx, every call across a module boundary goes
 * through an interop getter, which the shipped bundle does not have (and which made the split-up store
 * look ~30% slower than it is).
 */
export function runStoreBenchInChild(total: number, toolCalls: boolean, spill?: SpillRun): StoreBenchResult {
  // Inside the repository, so the bundle finds node_modules (esbuild itself stays external).
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  const outfile = join(mkdtempSync(join(__dirname, 'results', 'store-bench-')), 'storeBench.cjs');
  buildSync({ entryPoints: [__filename], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'error', external: ['esbuild'] });
  const child = spawnSync(process.execPath, ['--expose-gc', outfile, String(total), String(toolCalls), String(spill?.heldChars ?? '')], { encoding: 'utf8' });
  rmSync(dirname(outfile), { recursive: true, force: true });
  if (child.status !== 0) throw new Error(`store benchmark child failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as StoreBenchResult;
}

if (require.main === module) {
  const [total, toolCalls, heldChars] = process.argv.slice(2);
  void runStoreBench(Number(total), 50_000, toolCalls !== 'false', heldChars ? { heldChars: Number(heldChars) } : undefined).then((result) => console.log(JSON.stringify(result)));
}
