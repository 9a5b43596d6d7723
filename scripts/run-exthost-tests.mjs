// Runs test/exthost/**/*.test.ts inside a real VS Code extension host (code-server + headless chromium),
// like desktop `code --extensionDevelopmentPath=. --extensionTestsPath=out/exthost/index.js`.
// Usage: node scripts/run-exthost-tests.mjs [--skip-build] [--bundle-only] [--grep PATTERN] [--timeout SECONDS]
// Exit code: 0 when every test passed, 1 when one failed or the run timed out, 2 when the build failed.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { repoRoot } from './code-server/codeServer.mjs';
import { runExtensionTests } from './code-server/runExtensionTests.mjs';

const { values } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    'bundle-only': { type: 'boolean', default: false },
    grep: { type: 'string' },
    timeout: { type: 'string', default: '300' },
  },
});
const testsDir = join(repoRoot, 'test/exthost');
const outDir = join(repoRoot, 'out/exthost');
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;

if (!values['skip-build']) {
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(2);
}
await bundleTests();
console.log(`[exthost] tests bundled into ${relative(repoRoot, outDir)}/ (${elapsed()})`);
if (values['bundle-only']) process.exit(0);

// The extension host inherits code-server's environment, which is this process's.
if (values.grep) process.env.SUBCHATS_EXTHOST_GREP = values.grep;
const code = await runExtensionTests({
  extensionDevelopmentPath: repoRoot,
  extensionTestsPath: join(outDir, 'index.js'),
  timeoutMs: Number(values.timeout) * 1000,
});
console.log(`[exthost] ${code === 0 ? 'passed' : `failed (exit code ${code})`} in ${elapsed()}`);
process.exit(code);

async function bundleTests() {
  rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [join(testsDir, 'index.ts'), ...findFiles(testsDir, '.test.ts')],
    outdir: outDir,
    outbase: testsDir,
    bundle: true,
    platform: 'node',
    // As scripts/build.mjs bundles the extension (jsonc-parser's `main` is UMD).
    mainFields: ['module', 'main'],
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    // vscode is provided by the extension host; mocha is resolved from the repo's node_modules at run time.
    external: ['vscode', 'mocha'],
    absWorkingDir: repoRoot,
    logLevel: 'warning',
  });
}

function findFiles(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findFiles(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}
