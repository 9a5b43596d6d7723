// Builds the three bundles: the extension host, the CLI (replay + demo agent) and the Lit webview.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
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
];

function copyAssets() {
  const codicons = join(root, 'node_modules/@vscode/codicons/dist');
  mkdirSync(join(root, 'dist/codicons'), { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    cpSync(join(codicons, file), join(root, 'dist/codicons', file));
  }
}

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
