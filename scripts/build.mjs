// Builds the bundles: the extension host, the CLI (replay + demo agent), the Lit webview and the webview's code
// highlighter (loaded on first need).
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    // A package's ES module build first: jsonc-parser's `main` is a UMD wrapper whose requires esbuild cannot follow.
    mainFields: ['module', 'main'],
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    tsconfig: 'webview/tsconfig.json',
  },
  {
    ...common,
    // The code highlighter, which the webview imports from beside itself on first need (a module script's
    // imports carry its nonce, so the CSP stays as it is), and each language a chunk it imports in turn. A build
    // of its own, so the webview bundle stays one file that shares no chunk with it.
    entryPoints: { highlighter: 'webview/lib/highlighter.ts' },
    outdir: 'dist/webview-chunks',
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    tsconfig: 'webview/tsconfig.json',
  },
];

function copyAssets() {
  const codicons = join(root, 'node_modules/@vscode/codicons/dist');
  mkdirSync(join(root, 'dist/codicons'), { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    cpSync(join(codicons, file), join(root, 'dist/codicons', file));
  }
}

// Chunk names carry a hash of their content: chunks of an earlier build would stay beside the new ones.
rmSync(join(root, 'dist/webview-chunks'), { recursive: true, force: true });

if (watch) {
  copyAssets();
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log('[build] watching');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  copyAssets();
  console.log('[build] done');
}
