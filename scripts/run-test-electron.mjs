// The extension-host tests through @vscode/test-electron, for developers with desktop VS Code.
//   node scripts/run-test-electron.mjs                 # uses `code` from PATH if present, else scripts/code-shim.sh
//   VSCODE_EXECUTABLE=/path/to/code node scripts/run-test-electron.mjs
//   node scripts/run-test-electron.mjs --download      # let test-electron download VS Code 1.100.3 (needs internet)
// Without a desktop VS Code, scripts/code-shim.sh stands in and runs the same tests in code-server.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundled = spawnSync(process.execPath, [join(repoRoot, 'scripts/run-exthost-tests.mjs'), '--bundle-only'], { stdio: 'inherit' });
if (bundled.status !== 0) process.exit(2);

function codeOnPath() {
  try {
    return execFileSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const download = process.argv.includes('--download');
const executable = download ? undefined : (process.env.VSCODE_EXECUTABLE ?? codeOnPath() ?? join(repoRoot, 'scripts/code-shim.sh'));
console.log(`[test-electron] VS Code: ${executable ?? 'download 1.100.3'}`);
try {
  await runTests({
    ...(executable ? { vscodeExecutablePath: executable } : { version: '1.100.3' }),
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: join(repoRoot, 'out/exthost/index.js'),
    launchArgs: [join(repoRoot, 'test/fixtures'), '--disable-extensions'],
  });
} catch (error) {
  console.error(`[test-electron] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
