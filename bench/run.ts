// `npm run bench`: the store benchmark and (when built) the webview benchmark, as ratios against baselines
// measured in the same run. `--quick` shortens both for a smoke run.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
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

  const webviewBench = join(__dirname, 'webview', 'run.ts');
  if (existsSync(webviewBench)) {
    const { runWebviewBench } = (await import('./webview/run')) as { runWebviewBench: (opts: { quick: boolean }) => Promise<unknown> };
    results['webview'] = await runWebviewBench({ quick });
  }

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
