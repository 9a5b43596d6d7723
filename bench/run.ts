// `npm run bench`: the store benchmark and (when built) the webview benchmark, as ratios against baselines
// measured in the same run. `--quick` shortens both for a smoke run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runStoreBench } from './storeBench';

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const results: Record<string, unknown> = {};

  const store = runStoreBench(quick ? 200_000 : 1_000_000);
  results['store'] = store;
  console.log('\nStore benchmark (synthetic stream: 200 children to depth 3, chunks + tool calls interleaved)');
  console.table({
    updates: store.updates,
    'JSON.parse of the lines (ms)': Math.round(store.parseMs),
    'store ingest of the same lines (ms)': Math.round(store.storeMs),
    'ratio store / parse (target <= 1.0)': Number(store.ratio.toFixed(3)),
    'updates per second (store only)': Math.round(store.updatesPerSecond),
    'retained message text (bytes)': store.retainedTextBytes,
    'heap growth (bytes)': store.heapGrowthBytes,
  });

  // The webview benchmark drives real Chromium; it runs as its own process and writes its own results file.
  const webview = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'webview', 'run.ts'), ...(quick ? ['--quick'] : [])], { stdio: 'inherit' });
  if (webview.status !== 0) throw new Error(`webview benchmark failed (exit ${webview.status})`);

  const outDir = join(__dirname, 'results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nResults written to ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
