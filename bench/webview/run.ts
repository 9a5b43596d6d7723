// Chat webview benchmark in real Chromium: the built bundle against a no-framework baseline page, same run,
// same host messages. Scenarios: 20 children streaming at 5,000 updates/s combined, opening a 20,000-entry
// transcript, opening a parent of 500 finished subagents, and one message streamed to 1-500 KB (./scaling). Usage:
// node --import tsx bench/webview/run.ts [--quick] [--no-build] [--scaling-only | --no-scaling] [--shapes=code,list,table,paragraph,mixed]
// SUBCHATS_BENCH_PROFILE=<shape>-<pace>-<KB>-subchats profiles that case (self times, callers); SUBCHATS_BENCH_TRACE=1 adds a trace.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import type { SnapshotMessage } from '../../src/protocol/webviewMessages';
import { buildBundle, repoRoot, startHarness, type Harness } from '../../test/component/harness';
import { baselinePage } from './baselinePage';
import { SHAPES, printScaling, scalingBench, scalingTargets, type ScalingResult, type Shape } from './scaling';
import { concurrentChildren, longTranscript, manyChildren, type ScheduledMessage } from './workloads';

const quick = process.argv.includes('--quick');
const scalingOnly = process.argv.includes('--scaling-only');
const noScaling = process.argv.includes('--no-scaling');
/** `--shapes code,list`: only those message shapes in the scaling part (all by default). */
const shapesArg = process.argv.find((arg) => arg.startsWith('--shapes='))?.slice('--shapes='.length);
const shapes: readonly Shape[] = shapesArg ? SHAPES.filter((shape) => shapesArg.split(',').includes(shape)) : SHAPES;
const STREAM_SECONDS = quick ? 5 : 30;
const CHILDREN = 20;
const UPDATES_PER_SECOND = 5000;
const TRANSCRIPT_ENTRIES = 20_000;
/** Issue 23 item 7: a parent with this many finished subagents, each with a transcript of its own. */
const MANY_CHILDREN = 500;
const ENTRIES_PER_CHILD = 20;

interface Variant {
  readonly name: 'subchats' | 'baseline';
  readonly path: string;
  /** Present once the transcript has painted. */
  readonly contentSelector: string;
}

const VARIANTS: readonly Variant[] = [
  { name: 'subchats', path: '/chat.html', contentSelector: '[data-entry-id]' },
  { name: 'baseline', path: '/baseline.html', contentSelector: '.entry' },
];

interface Result {
  readonly variant: string;
  readonly scenario: string;
  readonly firstPaintMs: number;
  readonly p95FrameMs?: number;
  readonly p95UpdateToPaintMs?: number;
  readonly messages?: number;
  readonly domNodes: number;
  readonly jsHeapMB: number;
}

// In-page code is passed as strings: tsx would otherwise inject helpers the page does not have.
const DELIVER_AND_WAIT_FOR_PAINT = `(selector) => new Promise((resolve) => {
  const start = performance.now();
  window.postMessage(window.__benchSnapshot, '*');
  const check = () => {
    if (!document.querySelector(selector)) { requestAnimationFrame(check); return; }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - start);
    channel.port2.postMessage(0);
  };
  requestAnimationFrame(check);
})`;

const RUN_STREAM = `() => new Promise((resolve) => {
  const schedule = window.__benchSchedule;
  const delays = [];
  const frames = [];
  const inFlight = [];
  const start = performance.now();
  let last = start;
  let running = true;
  const frame = (t) => { frames.push(t - last); last = t; if (running) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  window.addEventListener('message', () => {
    const item = inFlight.shift();
    if (!item) return;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => delays.push(performance.now() - (start + item.firstChangeAt));
      channel.port2.postMessage(0);
    });
  });
  for (const item of schedule) {
    setTimeout(() => { inFlight.push(item); window.postMessage(item.message, '*'); }, Math.max(0, item.at - (performance.now() - start)));
  }
  const end = (schedule.at(-1)?.at ?? 0) + 500;
  setTimeout(() => { running = false; resolve({ delays, frames: frames.slice(1), dispatched: schedule.length }); }, end);
})`;

function p95(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

async function memory(cdp: CDPSession): Promise<{ domNodes: number; jsHeapMB: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  return { domNodes: metric('Nodes'), jsHeapMB: metric('JSHeapUsedSize') / 1024 / 1024 };
}

async function openPage(harness: Harness, variant: Variant): Promise<{ page: Page; cdp: CDPSession }> {
  const chat = await harness.openChat({ path: variant.path, width: 1000, height: 900 });
  const cdp = await chat.page.context().newCDPSession(chat.page);
  await cdp.send('Performance.enable');
  return { page: chat.page, cdp };
}

async function firstPaint(page: Page, variant: Variant, snapshot: SnapshotMessage): Promise<number> {
  await page.evaluate((message) => {
    (globalThis as unknown as { __benchSnapshot: unknown }).__benchSnapshot = message;
  }, snapshot as unknown);
  return page.evaluate(`(${DELIVER_AND_WAIT_FOR_PAINT})(${JSON.stringify(variant.contentSelector)})`) as Promise<number>;
}

async function streaming(harness: Harness, variant: Variant, stream: ReturnType<typeof concurrentChildren>): Promise<Result> {
  const { page, cdp } = await openPage(harness, variant);
  const firstPaintMs = await firstPaint(page, variant, stream.snapshot);
  await page.evaluate((schedule) => {
    (globalThis as unknown as { __benchSchedule: unknown }).__benchSchedule = schedule;
  }, stream.schedule as unknown as ScheduledMessage[]);
  const run = (await page.evaluate(`(${RUN_STREAM})()`)) as { delays: number[]; frames: number[]; dispatched: number };
  const result: Result = {
    variant: variant.name,
    scenario: `${CHILDREN} children, ${UPDATES_PER_SECOND}/s, ${STREAM_SECONDS}s`,
    firstPaintMs,
    p95FrameMs: p95(run.frames),
    p95UpdateToPaintMs: p95(run.delays),
    messages: run.dispatched,
    ...(await memory(cdp)),
  };
  await page.close();
  return result;
}

async function opening(harness: Harness, variant: Variant, snapshot: SnapshotMessage, scenario: string): Promise<Result> {
  const { page, cdp } = await openPage(harness, variant);
  const firstPaintMs = await firstPaint(page, variant, snapshot);
  const result: Result = { variant: variant.name, scenario, firstPaintMs, ...(await memory(cdp)) };
  await page.close();
  return result;
}

function fmt(value: number | undefined, digits = 1): string {
  return value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);
}

function printTable(results: readonly Result[]): void {
  const header = ['scenario', 'variant', 'first paint ms', 'p95 frame ms', 'p95 update→paint ms', 'DOM nodes', 'JS heap MB'];
  const rows = results.map((r) => [r.scenario, r.variant, fmt(r.firstPaintMs), fmt(r.p95FrameMs), fmt(r.p95UpdateToPaintMs), fmt(r.domNodes, 0), fmt(r.jsHeapMB)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('\nRatios (subchats / baseline):');
  for (const scenario of new Set(results.map((r) => r.scenario))) {
    const app = results.find((r) => r.scenario === scenario && r.variant === 'subchats');
    const base = results.find((r) => r.scenario === scenario && r.variant === 'baseline');
    if (!app || !base) continue;
    const ratio = (a?: number, b?: number) => (a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}x`);
    console.log(
      `  ${scenario}: first paint ${ratio(app.firstPaintMs, base.firstPaintMs)}, p95 frame ${ratio(app.p95FrameMs, base.p95FrameMs)}, ` +
        `p95 update→paint ${ratio(app.p95UpdateToPaintMs, base.p95UpdateToPaintMs)}, DOM nodes ${ratio(app.domNodes, base.domNodes)}, JS heap ${ratio(app.jsHeapMB, base.jsHeapMB)}`,
    );
  }
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) buildBundle();
  console.log(`[bench:webview] preparing workloads (${quick ? 'quick' : 'full'})…`);
  const stream = concurrentChildren(CHILDREN, UPDATES_PER_SECOND, STREAM_SECONDS);
  const long = longTranscript(TRANSCRIPT_ENTRIES);
  const crowd = manyChildren(MANY_CHILDREN, ENTRIES_PER_CHILD);
  console.log(`[bench:webview] ${stream.updates} store updates -> ${stream.schedule.length} deltas; transcript of ${long.sessions[0]?.entries.length} entries`);
  const harness = await startHarness({ '/baseline.html': baselinePage });
  const results: Result[] = [];
  let scaling: ScalingResult[] = [];
  const chromium = harness.browser.version();
  try {
    if (!scalingOnly) {
      for (const variant of VARIANTS) results.push(await streaming(harness, variant, stream));
      for (const variant of VARIANTS) results.push(await opening(harness, variant, long, `open ${TRANSCRIPT_ENTRIES} entries`));
      for (const variant of VARIANTS) results.push(await opening(harness, variant, crowd, `open ${MANY_CHILDREN} children x ${ENTRIES_PER_CHILD} entries`));
    }
    if (!noScaling) scaling = await scalingBench(harness, VARIANTS, quick, shapes);
  } finally {
    await harness.close();
  }
  if (results.length > 0) printTable(results);
  printScaling(scaling);
  const dir = join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `webview-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ quick, chromium, results, scaling, scalingTargets: scalingTargets(scaling) }, null, 2)}\n`);
  console.log(`\n[bench:webview] wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
