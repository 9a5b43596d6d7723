#!/usr/bin/env node
// `npm run bench:e2e`: end to end in real VS Code (code-server + headless Chromium, the e2e harness).
// The flood agent (floodAgent.mjs) streams one message in ~40-byte chunks at 1,000 chunks/s with a write-time
// marker every 20 chunks, and announces subagents during the flood with their write time in the title.
// In the page, MutationObservers in the chat webview and on the side bar record, at the next animation frame
// after a marker / a child's row appears in the DOM, the wall time (Date.now(): the same clock as the agent's).
// During the flood the command palette is opened (F1) from the side bar and timed until its widget shows.
//
//   node bench/e2e/run.mjs [--runs N] [--sizes 20,400] [--children N] [--verbose]   (builds nothing: npm run build first)
//
// A benchmark, not a test: it prints figures and targets, it asserts nothing.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { openActivity, chatFrame, launchWorkbench, pickQuickItem, runCommand } from '../../test/e2e/harness/index.mjs';
import { makeTempDir, removeTempDir } from '../../test/e2e/harness/tempDirs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const AGENT = join(here, 'floodAgent.mjs');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 1;

/** Message size (KB), prompts of that size (each a new message in the same chat), palette opens per prompt. */
const CASES = [
  { kb: 20, prompts: 4, children: 2, paletteAt: [150] },
  { kb: 400, prompts: 1, children: 10, paletteAt: [1000, 3500, 6000, 8500] },
];
const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg >= 0 ? process.argv[sizesArg + 1].split(',').map(Number) : null;
const VERBOSE = process.argv.includes('--verbose');
// `--children 0`: a control without child cards in the chat (each announced child splits the message there).
const childrenArg = process.argv.indexOf('--children');
const CHILDREN = childrenArg >= 0 ? Number(process.argv[childrenArg + 1]) : null;
// treeP95: issue 23 item 5 asks p95 <= 250 ms (here: under 250) from a child's announcement to its row (VS Code alone debounces 200 ms).
const TARGETS = { textP95: 150, treeP95: 250, paletteP95: 200 };

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const summary = (values) => ({ n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), max: values.length ? Math.max(...values) : NaN });

/**
 * In the chat's content frame: every marker, stamped when it enters the DOM (at the next animation frame) and
 * when the block holding it is on screen (an IntersectionObserver, which reports after the frame's layout).
 */
function installChatObserver() {
  if (window.__flood) return;
  const seen = new Map();
  const onScreen = new Map();
  const pending = new Set();
  const marker = /⟦t=(\d+)⟧/g;
  const BLOCKS = 'p,li,pre,blockquote,h1,h2,h3,h4,h5,h6,td';
  let frame = 0;
  let observerMs = 0;
  const markersIn = (text) => [...text.matchAll(marker)].map((match) => Number(match[1]));
  const intersections = new IntersectionObserver((entries) => {
    const now = Date.now();
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      for (const t of markersIn(entry.target.textContent ?? '')) if (!onScreen.has(t)) onScreen.set(t, now);
      intersections.unobserve(entry.target);
    }
  });
  const scan = (element) => {
    if (!element) return;
    const blocks = element.matches(BLOCKS) ? [element] : [...element.querySelectorAll(BLOCKS)];
    for (const block of blocks.length > 0 ? blocks : [element]) {
      const found = markersIn(block.textContent ?? '');
      if (found.length === 0) continue;
      for (const t of found) if (!seen.has(t)) pending.add(t);
      if (found.some((t) => !onScreen.has(t))) intersections.observe(block);
    }
  };
  new MutationObserver((records) => {
    const start = performance.now();
    for (const record of records) {
      if (record.type === 'characterData') scan(record.target.parentElement);
      else for (const node of record.addedNodes) scan(node instanceof Element ? node : node.parentElement);
    }
    if (pending.size > 0 && !frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        const now = Date.now();
        for (const t of pending) if (!seen.has(t)) seen.set(t, now);
        pending.clear();
      });
    }
    observerMs += performance.now() - start;
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
  // Each time the chat stops following its end (its transcript's data-following turns "false"): with no one
  // scrolling, that is a bug, and the markers after it never reach the screen.
  const followStops = [];
  // What the chat's scroller did just before (for --verbose): scroll top, scroll height and view height per event.
  const scrolls = [];
  const transcript = () => document.querySelector('subchats-transcript.sc-root-transcript');
  document.addEventListener('scroll', (event) => {
    const scroller = transcript();
    if (event.target !== scroller) return;
    scrolls.push([Date.now(), Math.round(scroller.scrollTop), scroller.scrollHeight, scroller.clientHeight]);
    if (scrolls.length > 40) scrolls.shift();
  }, { passive: true, capture: true });
  // Who moved the scroller (for --verbose): scroll writes from script, with the caller. A scroll event with no
  // write just before it was the browser's own (a clamp, scroll anchoring, a focus or find scrolling into view).
  const writes = [];
  const noteWrite = (kind, target, value) => {
    if (target !== transcript() && kind !== 'scrollIntoView') return;
    const caller = (new Error().stack ?? '').split('\n').slice(3, 6).map((line) => line.trim().replace(/^at /, '').replace(/\(?[^ ]*\/([^/]+:\d+):\d+\)?/, '$1')).join(' < ');
    writes.push([Date.now(), kind, Math.round(Number(value) || 0), caller]);
    if (writes.length > 40) writes.shift();
  };
  const scrollTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
  Object.defineProperty(Element.prototype, 'scrollTop', { ...scrollTop, set(value) { noteWrite('scrollTop=', this, value); scrollTop.set.call(this, value); } });
  for (const name of ['scrollTo', 'scrollBy', 'scroll', 'scrollIntoView']) {
    const original = Element.prototype[name];
    Element.prototype[name] = function (...args) {
      noteWrite(name, this, typeof args[0] === 'object' ? args[0]?.top : args[1]);
      return original.apply(this, args);
    };
  }
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target === transcript() && record.oldValue === 'true' && transcript()?.dataset.following === 'false') followStops.push({ at: Date.now(), scrolls: scrolls.slice(-4), writes: writes.slice(-4) });
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-following'], attributeOldValue: true });
  window.__flood = { seen, onScreen, observerMs: () => observerMs, followStops };
}

/** In the workbench page: each `flood-child-<t>` row of the side bar tree, stamped at the frame after it appears. */
function installTreeObserver() {
  if (window.__floodTree) return;
  const seen = new Map();
  const sidebar = document.querySelector('.part.sidebar');
  let frame = 0;
  const check = () => {
    frame = 0;
    const now = Date.now();
    for (const label of sidebar.querySelectorAll('.monaco-list-row[role="treeitem"] .label-name')) {
      const match = /^flood-child-(\d+)$/.exec(label.textContent ?? '');
      if (match && !seen.has(Number(match[1]))) seen.set(Number(match[1]), now);
    }
  };
  new MutationObserver(() => {
    frame ||= requestAnimationFrame(check);
  }).observe(sidebar, { subtree: true, childList: true, characterData: true });
  window.__floodTree = { seen };
}

/** F1 from the side bar; ms from the key press until the quick input widget is laid out (at its frame). */
async function timePalette(page) {
  await page.locator('.part.sidebar .monaco-list').first().focus();
  await page.evaluate(() => {
    window.__palette = new Promise((resolve) => {
      const loop = () => {
        const widget = document.querySelector('.quick-input-widget');
        if (widget instanceof HTMLElement && widget.style.display !== 'none' && widget.offsetParent !== null) resolve(Date.now());
        else requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    });
  });
  const pressedAt = Date.now();
  await page.keyboard.press('F1');
  const shownAt = await page.evaluate(() => Promise.race([window.__palette, new Promise((r) => setTimeout(() => r(null), 10_000))]));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => {
    const widget = document.querySelector('.quick-input-widget');
    return !(widget instanceof HTMLElement && widget.style.display !== 'none' && widget.offsetParent !== null);
  });
  return shownAt === null ? NaN : shownAt - pressedAt;
}

async function newFloodSession(page) {
  await runCommand(page, 'Subchats: New Session');
  // With subchats.defaultAgent set New Session may still offer a pick; answer it if it does.
  await pickQuickItem(page, 'Flood Agent').catch(() => undefined);
  const chat = chatFrame(page);
  await chat.locator('textarea').waitFor({ timeout: 60_000 });
  return chat;
}

async function waitForLog(logDir, known, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const fresh = readdirSync(logDir).filter((name) => !known.has(name));
    if (fresh.length > 0) {
      known.add(fresh[0]);
      return JSON.parse(readFileSync(join(logDir, fresh[0]), 'utf8'));
    }
    if (Date.now() > deadline) throw new Error('the flood agent wrote no log');
    await delay(50);
  }
}

async function runOnce(run) {
  const logDir = makeTempDir('flood-log');
  const agent = { id: 'flood', name: 'Flood Agent', command: process.execPath, args: [AGENT], env: { FLOOD_LOG: logDir } };
  const workbench = await launchWorkbench({
    files: { 'README.md': '# flood bench\n' },
    settings: { 'subchats.agents': [agent], 'subchats.defaultAgent': 'flood' },
  });
  const known = new Set();
  const results = [];
  try {
    const { page } = workbench;
    await openActivity(page, 'Subchats');
    await page.locator('.part.sidebar').waitFor();
    await page.evaluate(installTreeObserver);
    for (const kase of CASES.filter((c) => !SIZES || SIZES.includes(c.kb))) {
      // One chat on screen at a time (a second session's chat may open beside the first).
      if (results.length > 0) await runCommand(page, 'View: Close All Editors');
      const chat = await newFloodSession(page);
      const body = chat.locator('body');
      await body.evaluate(installChatObserver);
      const text = [];
      const textDom = [];
      const tree = [];
      const palette = [];
      let missingText = 0;
      let missingDom = 0;
      let missingRows = 0;
      const started = Date.now();
      for (let prompt = 0; prompt < kase.prompts; prompt++) {
        const box = chat.locator('textarea');
        await box.fill(`flood ${kase.kb} children ${CHILDREN ?? kase.children}`);
        const sentAt = Date.now();
        await box.press('Enter');
        const pressedAt = [];
        for (const at of kase.paletteAt) {
          await delay(Math.max(0, sentAt + at - Date.now()));
          pressedAt.push(Date.now() - sentAt);
          palette.push(await timePalette(page));
        }
        const log = await waitForLog(logDir, known, 120_000);
        // Everything written is on screen within a generous bound, or counted as missing.
        const deadline = Date.now() + 10_000;
        let textSeen;
        let textShown;
        let rowsSeen;
        for (;;) {
          textSeen = new Map(await body.evaluate(() => [...window.__flood.seen]));
          textShown = new Map(await body.evaluate(() => [...window.__flood.onScreen]));
          rowsSeen = new Map(await page.evaluate(() => [...window.__floodTree.seen]));
          const done = log.markers.every((t) => textShown.has(t)) && log.children.every((t) => rowsSeen.has(t));
          if (done || Date.now() > deadline) break;
          await delay(100);
        }
        if (VERBOSE) {
          const stoppedAt = await body.evaluate(() => window.__flood.followStops);
          const lat = log.markers.map((t) => (textShown.has(t) ? textShown.get(t) - t : Infinity));
          const tenths = Array.from({ length: 10 }, (_, i) => percentile(lat.slice(Math.floor((i * lat.length) / 10), Math.floor(((i + 1) * lat.length) / 10)), 95));
          console.log(`  ${kase.kb} KB prompt ${prompt + 1}: text p95 per tenth of the stream ${tenths.join(' ')}`);
          console.log(`  ${kase.kb} KB prompt ${prompt + 1}: markers on screen (+), only in the DOM (o), neither (-) ${log.markers.map((t) => (textShown.has(t) ? '+' : textSeen.has(t) ? 'o' : '-')).join('')}`);
          console.log(`    ms after the prompt: palette at ${pressedAt.join(', ')}; chat stopped following at ${stoppedAt.filter((u) => u.at >= sentAt).map((u) => `${u.at - sentAt} (scroll events before it, [ms before, top, height, view]: ${u.scrolls.map(([t, ...rest]) => JSON.stringify([u.at - t, ...rest])).join(' ')}; scroll writes before it, [ms before, how, to, caller]: ${u.writes.map(([t, ...rest]) => JSON.stringify([u.at - t, ...rest])).join(' ')})`).join(', ') || 'never'}; children at ${log.children.map((t) => t - sentAt).join(', ')}`);
        }
        for (const t of log.markers) textShown.has(t) ? text.push(textShown.get(t) - t) : missingText++;
        for (const t of log.markers) textSeen.has(t) ? textDom.push(textSeen.get(t) - t) : missingDom++;
        for (const t of log.children) rowsSeen.has(t) ? tree.push(rowsSeen.get(t) - t) : missingRows++;
        // Let the chat settle (turn end, prompt box enabled) before the next prompt.
        await chat.locator('textarea:not([disabled])').waitFor({ timeout: 30_000 });
        await delay(300);
      }
      const observerMs = await body.evaluate(() => window.__flood.observerMs());
      const followStops = await body.evaluate(() => window.__flood.followStops.length);
      // A marker that never showed counts as infinitely late in the verdict's p95.
      const infinities = (count) => Array(count).fill(Infinity);
      results.push({ run, kb: kase.kb, prompts: kase.prompts, text: summary([...text, ...infinities(missingText)]), textDom: summary([...textDom, ...infinities(missingDom)]), missingDom, tree: summary(tree), palette: summary(palette), missingText, missingRows, observerMs: Math.round(observerMs), followStops, wallMs: Date.now() - started });
    }
  } finally {
    await workbench.close();
    removeTempDir(logDir);
  }
  return results;
}

const verdict = (value, target) => (Number.isFinite(value) && value < target ? 'met' : 'NOT MET');

function printRun(results) {
  console.table(
    results.flatMap((r) => [
      { size: `${r.kb} KB`, measure: 'text write → on screen (ms)', ...r.text, target: `p95 < ${TARGETS.textP95}`, verdict: verdict(r.text.p95, TARGETS.textP95), missing: r.missingText },
      { size: `${r.kb} KB`, measure: 'text write → in the DOM (ms)', ...r.textDom, target: '', verdict: '', missing: r.missingDom },
      { size: `${r.kb} KB`, measure: 'child announce → tree row (ms)', ...r.tree, target: `p95 < ${TARGETS.treeP95}`, verdict: verdict(r.tree.p95, TARGETS.treeP95), missing: r.missingRows },
      { size: `${r.kb} KB`, measure: 'palette F1 → shown (ms)', ...r.palette, target: `< ${TARGETS.paletteP95}`, verdict: verdict(r.palette.max, TARGETS.paletteP95), missing: 0 },
    ]),
  );
  for (const r of results) console.log(`  ${r.kb} KB: ${r.prompts} prompt(s), ${r.wallMs} ms wall, chat observer ${r.observerMs} ms of webview main thread, the chat stopped following the end ${r.followStops} time(s)`);
}

async function main() {
  const all = [];
  for (let run = 1; run <= RUNS; run++) {
    const started = Date.now();
    const results = await runOnce(run);
    console.log(`\nEnd to end in code-server, run ${run} of ${RUNS} (${Math.round((Date.now() - started) / 1000)} s): flood of ~40-byte chunks at 1,000/s`);
    printRun(results);
    all.push(...results);
  }
  if (RUNS > 1) {
    console.log(`\nAcross ${RUNS} runs: min / median of each run's p95 (palette: of each run's max)`);
    const rows = [];
    for (const { kb } of CASES) {
      const mine = all.filter((r) => r.kb === kb);
      if (mine.length === 0) continue;
      for (const [measure, pick, target] of [
        ['text write → on screen p95', (r) => r.text.p95, TARGETS.textP95],
        ['text write → in the DOM p95', (r) => r.textDom.p95, TARGETS.textP95],
        ['child announce → tree row p95', (r) => r.tree.p95, TARGETS.treeP95],
        ['palette F1 → shown max', (r) => r.palette.max, TARGETS.paletteP95],
      ]) {
        const values = mine.map(pick);
        const median = percentile(values, 50);
        rows.push({ size: `${kb} KB`, measure, min: Math.min(...values), median, runs: values.join(' / '), target: `< ${target}`, verdict: verdict(median, target) });
      }
    }
    console.table(rows);
  }
  console.log('  (missing: markers written but not on screen / not in the chat DOM 10 s after the stream; they count as ∞)');
  const outDir = join(here, '..', 'results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `bench-e2e-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(all, null, 2));
  console.log(`\nResults written to ${file}`);
}

if (!existsSync(join(here, '../../dist/extension.js'))) {
  console.error('dist/extension.js is missing: run `npm run build` first');
  process.exit(1);
}
await main();
