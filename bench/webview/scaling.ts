// Scaling of one streamed message: the real ChatFeed in this process (with flow control: the page's acks come
// back to it) feeding a page in Chromium, one message at 1, 10, 100 and 500 KB, then 40-byte chunks. Two
// paces: `llm` (one delta per chunk, the next chunk after the page painted the last) and `flood` (1,000
// chunks/s, the feed batches and waits for acks). Measured per chunk: host time (store update, feed, JSON
// serialisation), bytes posted, page main-thread time (CDP TaskDuration), and update → paint (store change to
// the ack the page sends after the frame that shows it). Message shapes: `mixed` (paragraphs with a list or a code
// block now and then) at every size, and at 1 and 500 KB the shapes that keep one block open for long, as agents
// write them: one code block (a file being written), one long list, one table, one paragraph without a break.
import type { CDPSession } from 'playwright-core';
import type { HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import { SessionStore } from '../../src/store/sessionStore';
import { ChatFeed, type FeedTimers } from '../../src/webviews/chatFeed';
import type { Harness } from '../../test/component/harness';

export const SIZES_KB = [1, 10, 100, 500] as const;
/** The sizes the one-block shapes run at: enough for the 500 KB ÷ 1 KB ratio. */
const SHAPE_SIZES_KB = [1, 500] as const;
export const SHAPES = ['mixed', 'code', 'list', 'table', 'paragraph'] as const;
export type Shape = (typeof SHAPES)[number];
export const CHUNK_BYTES = 40;
export type Pace = 'llm' | 'flood';
const FLOOD_PER_SECOND = 1000;
const WARMUP_CHUNKS = 5;

export interface ScalingResult {
  readonly variant: string;
  readonly shape: Shape;
  readonly pace: Pace;
  readonly sizeKB: number;
  readonly chunks: number;
  readonly posts: number;
  readonly hostUsPerChunk: number;
  readonly bytesPerChunk: number;
  readonly webviewMsPerChunk: number;
  readonly p95UpdateToPaintMs: number;
}

const wallClock = (): number => performance.timeOrigin + performance.now();

const WORDS = 'the parser now handles empty input and nested quotes while the tokenizer keeps offsets stable across lines'.split(' ');

/** Agent-like markdown: paragraphs, a list now and then, a code block now and then. */
function mixedText(length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const words = Array.from({ length: 40 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
    const part =
      i % 5 === 3
        ? `- ${words.slice(0, 60)}\n- \`code ${i}\` ${words.slice(60, 120)}\n\n`
        : i % 9 === 8
          ? `\`\`\`ts\nconst value${i} = parse(input);\nreturn value${i};\n\`\`\`\n\n`
          : `**Step ${i}**: ${words}.\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('').slice(0, length);
}

const wordsAt = (i: number, count: number): string => Array.from({ length: count }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');

/** Lines from `line(i)` after `head`, to `length` characters. */
function linesText(length: number, head: string, line: (i: number) => string): string {
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < length; i++) {
    const part = line(i);
    parts.push(part);
    size += part.length;
  }
  return parts.join('').slice(0, length);
}

/** A message of `length` characters in the given shape. */
export function shapedText(shape: Shape, length: number): string {
  switch (shape) {
    case 'mixed':
      return mixedText(length);
    case 'code':
      return linesText(length, 'Here is the file:\n\n```ts\n', (i) => `export const value${i} = parse(input${i}, { strict: true }); // ${wordsAt(i, 4)}\n`);
    case 'list':
      return linesText(length, 'What changed:\n\n', (i) => `- \`item ${i}\` ${wordsAt(i, 9)}\n`);
    case 'table':
      return linesText(length, '| # | file | change |\n|---|---|---|\n', (i) => `| ${i} | src/file${i}.ts | ${wordsAt(i, 6)} |\n`);
    case 'paragraph':
      return linesText(length, '', (i) => `${wordsAt(i, 8)}${i % 6 === 5 ? ' **done**' : ''}. `);
  }
}

// Runs in the page: acks the page posts go to the bench (with the page's clock), as the panel forwards them.
const HOOK_ACKS = `() => {
  const posted = window.__posted;
  const push = posted.push.bind(posted);
  posted.push = (m) => { if (m && m.type === 'ack') window.__benchAck(m.rev, performance.timeOrigin + performance.now()); return push(m); };
}`;


async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN;
}

function p95(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

/** The functions the page spent most time in (self time), for SUBCHATS_BENCH_PROFILE=<shape>-<pace>-<KB>-<variant>. */
function printProfile(profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node] as const));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const key = frame ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '?';
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`[bench:scaling] profile: ${total.toFixed(0)} ms sampled; top self time:`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
  // Who calls the costliest native functions (the three frames above them).
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes as { id: number; children?: number[] }[]) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const label = (id: number | undefined) => {
    const frame = id === undefined ? undefined : byId.get(id)?.callFrame;
    return frame ? `${frame.functionName || '(anonymous)'}:${frame.lineNumber + 1}` : '-';
  };
  const callers = new Map<string, number>();
  samples.forEach((id, i) => {
    const name = byId.get(id)?.callFrame.functionName;
    if (!name || !['getBoundingClientRect', 'dispatchEvent', 'createHTML', 'parseFromString'].includes(name)) return;
    const p1 = parentOf.get(id);
    const p2 = p1 === undefined ? undefined : parentOf.get(p1);
    const p3 = p2 === undefined ? undefined : parentOf.get(p2);
    const p4 = p3 === undefined ? undefined : parentOf.get(p3);
    const key = `${name} < ${label(p1)} < ${label(p2)} < ${label(p3)} < ${label(p4)}`;
    callers.set(key, (callers.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  for (const [key, ms] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${key}`);
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string };
}

/** Per chunk, the renderer main thread's trace events by name (total duration; nested events counted in each). */
function printTrace(events: readonly TraceEvent[], chunks: number): void {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, Map<string, number>>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || !mains.has(thread) || e.dur === undefined) continue;
    const names = byThread.get(thread) ?? new Map<string, number>();
    byThread.set(thread, names);
    names.set(e.name, (names.get(e.name) ?? 0) + e.dur / 1000);
  }
  const [, busiest] = [...byThread].sort((a, b) => (b[1].get('RunTask') ?? 0) - (a[1].get('RunTask') ?? 0))[0] ?? [];
  if (!busiest) return;
  console.log('[bench:scaling] trace, renderer main thread, ms per chunk (nested events counted in each):');
  for (const [name, ms] of [...busiest].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${(ms / chunks).toFixed(3).padStart(9)}  ${name}`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * In the page: resolves once the main thread has been idle for a while (two idle periods in a row with most of
 * their 50 ms left). A long message is rendered over many frames after it arrives (a frame's budget at a time);
 * its cost per chunk is measured after that, not mixed with it.
 */
const SETTLED = `new Promise((resolve) => {
  let quiet = 0;
  const check = (deadline) => {
    quiet = deadline.timeRemaining() > 30 ? quiet + 1 : 0;
    if (quiet >= 2) resolve(true);
    else requestIdleCallback(check, { timeout: 1000 });
  };
  requestIdleCallback(check, { timeout: 1000 });
})`;

export async function scalingRun(harness: Harness, variant: { name: string; path: string }, shape: Shape, pace: Pace, sizeKB: number, chunks: number): Promise<ScalingResult> {
  const chat = await harness.openChat({ path: variant.path, width: 1000, height: 900 });
  const { page } = chat;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');

  const size = sizeKB * 1024;
  const text = shapedText(shape, size + (chunks + WARMUP_CHUNKS) * CHUNK_BYTES);
  // The real store, fed the agent's chunks as the connection would: what a long answer costs end to end.
  const store = new SessionStore();
  const chunkOf = (piece: string) => ({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 'root', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: piece } } },
  });
  store.ingest({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/bench', mcpServers: [] } }, 'client->agent');
  store.ingest({ jsonrpc: '2.0', id: 1, result: { sessionId: 'root' } }, 'agent->client');
  store.ingest({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'root', prompt: [{ type: 'text', text: 'Write a long answer.' }] } }, 'client->agent');
  for (let at = 0; at < size; at += 64 * 1024) store.ingest(chunkOf(text.slice(at, Math.min(size, at + 64 * 1024))), 'agent->client');

  let measuring = false;
  let hostMs = 0;
  let bytes = 0;
  let posts = 0;
  let painted = -1;
  const changedAt = new Map<number, number>();
  const delays: number[] = [];
  const timed = <T>(work: () => T): T => {
    const start = performance.now();
    try {
      return work();
    } finally {
      if (measuring) hostMs += performance.now() - start;
    }
  };
  const timers: FeedTimers = {
    now: () => performance.now(),
    setTimeout: (callback, ms) => setTimeout(() => timed(callback), ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  let delivery = Promise.resolve();
  const feed = new ChatFeed(
    store,
    'root',
    (message: HostToWebviewMessage) => {
      // Serialising is part of the host's cost (VS Code does it for every postMessage).
      const json = JSON.stringify(message);
      if (measuring && message.type === 'delta') {
        bytes += json.length;
        posts++;
      }
      delivery = delivery.then(() => page.evaluate((j) => window.postMessage(JSON.parse(j), '*'), json)).then(() => undefined);
    },
    { timers },
  );
  await page.exposeFunction('__benchAck', (rev: number, at: number) => {
    timed(() => feed.ack(rev));
    painted = Math.max(painted, rev);
    for (const [changeRev, when] of changedAt) {
      if (changeRev > rev) continue;
      delays.push(at - when);
      changedAt.delete(changeRev);
    }
  });
  await page.evaluate(`(${HOOK_ACKS})()`);
  const waitPainted = async (rev: number, timeoutMs = 60_000): Promise<void> => {
    const until = performance.now() + timeoutMs;
    while (painted < rev && performance.now() < until) await sleep(1);
    if (painted < rev) console.log(`[bench:scaling] no ack for revision ${rev} within ${timeoutMs} ms`);
  };

  feed.sendSnapshot();
  await waitPainted(store.revision);
  await page.evaluate(SETTLED);
  let offset = size;
  const nextChunk = (): void => {
    const chunk = text.slice(offset, offset + CHUNK_BYTES);
    offset += CHUNK_BYTES;
    const at = wallClock();
    timed(() => store.ingest(chunkOf(chunk), 'agent->client'));
    if (measuring) changedAt.set(store.revision, at);
  };
  // Warm-up: the first change after a snapshot goes whole, and the page's code gets compiled.
  for (let i = 0; i < WARMUP_CHUNKS; i++) {
    nextChunk();
    feed.flush();
    await waitPainted(store.revision);
  }
  const taskBefore = await taskSeconds(cdp);
  const metricsBefore = (await cdp.send('Performance.getMetrics')).metrics;
  const profiling = process.env.SUBCHATS_BENCH_PROFILE === `${shape}-${pace}-${sizeKB}-${variant.name}`;
  const traceEvents: TraceEvent[] = [];
  if (profiling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  // Tracing slows the page (and skews the profile's self times): only when asked for.
  const tracing = profiling && process.env.SUBCHATS_BENCH_TRACE === '1';
  if (tracing) {
    cdp.on('Tracing.dataCollected', (data) => traceEvents.push(...(data.value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,v8', transferMode: 'ReportEvents' });
  }
  measuring = true;
  if (pace === 'llm') {
    for (let i = 0; i < chunks; i++) {
      nextChunk();
      timed(() => feed.flush());
      await waitPainted(store.revision);
    }
  } else {
    const start = performance.now();
    for (let sent = 0; sent < chunks; ) {
      const due = Math.min(chunks, Math.floor(((performance.now() - start) * FLOOD_PER_SECOND) / 1000) + 1);
      for (; sent < due; sent++) nextChunk();
      await sleep(1);
    }
    await waitPainted(store.revision);
  }
  measuring = false;
  await delivery;
  const taskAfter = await taskSeconds(cdp);
  if (profiling) {
    printProfile((await cdp.send('Profiler.stop')).profile);
    if (tracing) {
      const ended = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await ended;
      printTrace(traceEvents, chunks);
    }
    const after = (await cdp.send('Performance.getMetrics')).metrics;
    const delta = (name: string) => (after.find((m) => m.name === name)?.value ?? 0) - (metricsBefore.find((m) => m.name === name)?.value ?? 0);
    console.log(`[bench:scaling] per chunk: layout ${((delta('LayoutDuration') * 1000) / chunks).toFixed(2)} ms (${(delta('LayoutCount') / chunks).toFixed(1)}×), style ${((delta('RecalcStyleDuration') * 1000) / chunks).toFixed(2)} ms (${(delta('RecalcStyleCount') / chunks).toFixed(1)}×), script ${((delta('ScriptDuration') * 1000) / chunks).toFixed(2)} ms, task ${((delta('TaskDuration') * 1000) / chunks).toFixed(2)} ms; DOM nodes ${after.find((m) => m.name === 'Nodes')?.value}`);
  }
  const result: ScalingResult = {
    variant: variant.name,
    shape,
    pace,
    sizeKB,
    chunks,
    posts,
    hostUsPerChunk: (hostMs * 1000) / chunks,
    bytesPerChunk: bytes / chunks,
    webviewMsPerChunk: ((taskAfter - taskBefore) * 1000) / chunks,
    p95UpdateToPaintMs: p95(delays),
  };
  feed.dispose();
  await page.close();
  return result;
}

export async function scalingBench(harness: Harness, variants: readonly { name: string; path: string }[], quick: boolean, shapes: readonly Shape[] = SHAPES): Promise<ScalingResult[]> {
  const results: ScalingResult[] = [];
  for (const shape of shapes) {
    for (const pace of ['llm', 'flood'] as const) {
      for (const sizeKB of shape === 'mixed' ? SIZES_KB : SHAPE_SIZES_KB) {
        for (const variant of variants) {
          const chunks = pace === 'llm' ? (quick ? 60 : 200) : quick ? 500 : 2000;
          results.push(await scalingRun(harness, variant, shape, pace, sizeKB, chunks));
        }
      }
    }
  }
  return results;
}

/** The bytes a delta carries besides the chunk: envelope, session and entry ids, revisions, offset. */
const BYTES_CONSTANT = 300;

export function printScaling(results: readonly ScalingResult[]): void {
  const header = ['shape', 'pace', 'size KB', 'variant', 'posts', 'host µs/chunk', 'bytes/chunk', 'webview ms/chunk', 'p95 update→paint ms'];
  const rows = results.map((r) => [r.shape, r.pace, String(r.sizeKB), r.variant, String(r.posts), r.hostUsPerChunk.toFixed(1), r.bytesPerChunk.toFixed(0), r.webviewMsPerChunk.toFixed(3), r.p95UpdateToPaintMs.toFixed(1)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\nScaling: one message streamed in ${CHUNK_BYTES}-byte chunks (llm: one delta per chunk; flood: ${FLOOD_PER_SECOND} chunks/s)`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('\nTargets (subchats):');
  for (const target of scalingTargets(results)) console.log(`  ${target.met ? 'MET    ' : 'NOT MET'}  ${target.name}: ${target.value}`);
  console.log('\nRatios subchats / baseline (webview ms per chunk, p95 update→paint):');
  for (const r of results.filter((x) => x.variant === 'subchats')) {
    const base = results.find((b) => b.variant === 'baseline' && b.shape === r.shape && b.pace === r.pace && b.sizeKB === r.sizeKB);
    if (!base) continue;
    console.log(`  ${r.shape} ${r.pace} ${r.sizeKB} KB: ${(r.webviewMsPerChunk / base.webviewMsPerChunk).toFixed(2)}x, ${(r.p95UpdateToPaintMs / base.p95UpdateToPaintMs).toFixed(2)}x`);
  }
}

export interface ScalingTarget {
  readonly name: string;
  readonly value: string;
  readonly met: boolean;
}

export function scalingTargets(results: readonly ScalingResult[]): ScalingTarget[] {
  const targets: ScalingTarget[] = [];
  const get = (variant: string, shape: Shape, pace: Pace, sizeKB: number) =>
    results.find((r) => r.variant === variant && r.shape === shape && r.pace === pace && r.sizeKB === sizeKB);
  for (const shape of SHAPES) {
    for (const pace of ['llm', 'flood'] as const) {
      const small = get('subchats', shape, pace, 1);
      const large = get('subchats', shape, pace, 500);
      if (!small || !large) continue;
      const host = large.hostUsPerChunk / small.hostUsPerChunk;
      const page = large.webviewMsPerChunk / small.webviewMsPerChunk;
      targets.push({ name: `${shape} ${pace}: host cost per chunk at 500 KB / 1 KB <= 1.5`, value: host.toFixed(2), met: host <= 1.5 });
      targets.push({ name: `${shape} ${pace}: webview cost per chunk at 500 KB / 1 KB <= 1.5`, value: page.toFixed(2), met: page <= 1.5 });
      const base = get('baseline', shape, pace, 500);
      if (base) {
        const versus = large.webviewMsPerChunk / base.webviewMsPerChunk;
        targets.push({ name: `${shape} ${pace}: webview cost per chunk at 500 KB <= 2 x the plain page`, value: `${versus.toFixed(2)}x`, met: versus <= 2 });
      }
      if (shape !== 'mixed') continue;
      const bytes = Math.max(...results.filter((r) => r.variant === 'subchats' && r.pace === pace).map((r) => r.bytesPerChunk));
      targets.push({ name: `${pace}: bytes per chunk <= 2 x ${CHUNK_BYTES} + ${BYTES_CONSTANT} at every size`, value: `${bytes.toFixed(0)} B max`, met: bytes <= 2 * CHUNK_BYTES + BYTES_CONSTANT });
      targets.push({ name: `${pace}: p95 update→paint at 500 KB < 100 ms`, value: `${large.p95UpdateToPaintMs.toFixed(1)} ms`, met: large.p95UpdateToPaintMs < 100 });
    }
  }
  return targets;
}
