// The packaged extension: `npm run package` builds dist/subchats.vsix, code-server installs it into a fresh
// extensions folder, and the workbench (opened without any development path) runs it: the Subchats view
// appears and a demo session runs, its agent spawned from the installed copy's dist/cli.js.
// Run: node --test --test-concurrency=1 test/e2e/vsix.e2e.test.mjs   (it runs `npm run package` itself)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { codeServerBin } from '../../scripts/code-server/codeServer.mjs';
import {
  openActivity,
  chatFrame,
  launchWorkbench,
  pickQuickItem,
  repoRoot,
  runCommand,
  runningExtension,
  recordFailure,
  screenshot,
} from './harness/index.mjs';
import { DEMO_AGENT, SLOW_MS } from './harness/subchats.mjs';
import { waitForTree } from './harness/sessionTree.mjs';
import { makeTempDir, removeTempDir } from './harness/tempDirs.mjs';

const TEST_TIMEOUT_MS = 240_000;
// Generous: other e2e runs may share the two cores; every wait still ends as soon as its condition holds.
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const vsix = join(repoRoot, 'dist/subchats.vsix');

/** @type {string} */
let extensionsDir;
/** @type {string} */
let installerState;
/** @type {string} where code-server unpacked the extension */
let installed;
/** @type {Awaited<ReturnType<typeof launchWorkbench>> | undefined} */
let workbench;

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 180_000, ...options });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

before(async () => {
  const packagedAfter = Date.now() - 1000;
  run('npm', ['run', '--silent', 'package'], { cwd: repoRoot });
  assert.ok(statSync(vsix).mtimeMs >= packagedAfter, 'npm run package wrote a fresh dist/subchats.vsix');

  extensionsDir = makeTempDir('exts');
  installerState = makeTempDir('install');
  // The installer is code-server itself; its config, user data and caches stay in a throwaway folder.
  const output = run(
    codeServerBin(),
    ['--user-data-dir', join(installerState, 'user-data'), '--extensions-dir', extensionsDir, '--install-extension', vsix],
    {
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(installerState, 'xdg/config'),
        XDG_DATA_HOME: join(installerState, 'xdg/data'),
        XDG_CACHE_HOME: join(installerState, 'xdg/cache'),
        EXTENSIONS_GALLERY: '{}',
      },
    },
  );
  assert.match(output, /was successfully installed/);
  installed = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);

  workbench = await launchWorkbench({
    files: { 'README.md': '# Installed extension workspace\n', 'src/app.ts': 'export const answer = 42; // TODO: ask\n' },
    settings: { 'subchats.demoAgent.pace': 20 },
    extensionsDir,
    extensionDevelopmentPath: null,
  });
});
after(async () => {
  await workbench?.close();
  for (const dir of [extensionsDir, installerState]) if (dir) removeTempDir(dir);
});
afterEach(async (t) => {
  // Leave a picture of the failure for review.
  if (t.passed === false) await recordFailure(workbench, `failed-vsix-${t.name}`);
});

/** Command lines of the processes on this machine (null bytes between arguments become spaces). */
function commandLines() {
  const lines = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // the process ended meanwhile
    }
  }
  return lines;
}

test('the vsix holds the bundles and the manifest, not the sources', () => {
  for (const file of ['package.json', 'package.nls.json', 'dist/extension.js', 'dist/cli.js', 'dist/webview.js', 'dist/codicons/codicon.css', 'dist/codicons/codicon.ttf', 'media/subchats.svg']) {
    assert.ok(existsSync(join(installed, file)), `${file} is installed`);
  }
  // The code highlighter the chat loads on first need, and every chunk it imports in turn.
  const chunks = join(installed, 'dist', 'webview-chunks');
  const highlighter = readFileSync(join(chunks, 'highlighter.js'), 'utf8');
  const imported = [...highlighter.matchAll(/(?:import\(?|from)\s*["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]);
  assert.ok(imported.length > 40, `the highlighter imports its languages (${imported.length})`);
  for (const chunk of imported) assert.ok(existsSync(join(chunks, chunk)), `dist/webview-chunks/${chunk} is installed`);
  assert.ok(!readdirSync(chunks).some((name) => name.endsWith('.map')), 'no source maps');
  for (const absent of ['src', 'webview', 'test', 'scripts', 'node_modules', 'tsconfig.json', 'dist/subchats.vsix']) {
    assert.ok(!existsSync(join(installed, absent)), `${absent} is not shipped`);
  }
  assert.equal(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).main, manifest.main);
});

test('the installed extension shows the Subchats view and runs a demo session from its own copy', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page, server } = workbench;
  await openActivity(page, 'Subchats');
  await page.locator('.part.sidebar .welcome-view-content', { hasText: 'No agent sessions yet.' }).waitFor({ timeout: SLOW_MS });

  // The picker shows the demo agent as built in, never a command line (the process check below has the path).
  await runCommand(page, 'Subchats: New Session');
  const demoRow = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: DEMO_AGENT });
  await demoRow.waitFor();
  assert.match((await demoRow.textContent()) ?? '', /built in/, 'the demo agent is the built-in one');
  await pickQuickItem(page, DEMO_AGENT);

  const chat = chatFrame(page);
  await chat.locator('textarea').waitFor({ timeout: SLOW_MS });
  const cli = join(installed, 'dist/cli.js');
  assert.ok(commandLines().some((line) => line.includes(`${cli} demo-agent`)), 'a demo agent process runs the installed dist/cli.js');

  const title = 'Show the subagents';
  await chat.locator('textarea').fill(title);
  await chat.locator('textarea').press('Enter');
  await chat.locator('subchats-permission').getByRole('button', { name: 'Allow', exact: true }).first().click();
  const reviewerAsk = chat.locator('subchats-permission', { hasText: 'review' }).first();
  await reviewerAsk.waitFor({ timeout: SLOW_MS });
  await reviewerAsk.getByRole('button', { name: 'Allow', exact: true }).click();
  await waitForTree(
    page,
    (rows) => {
      const labels = rows.filter((row) => row.level > 1).map((row) => [row.level, row.label, row.icon]);
      assert.deepEqual(labels, [
        [2, title, 'pass'],
        [3, 'Explorer', 'pass'],
        [4, 'Scout', 'pass'],
        [3, 'Reviewer', 'pass'],
      ]);
    },
    { timeoutMs: SLOW_MS },
  );
  await chat.locator('subchats-child-card', { hasText: 'Explorer' }).first().waitFor();
  await screenshot(page, 'e2e-vsix-installed-session');

  await runCommand(page, 'Developer: Show Running Extensions');
  await runningExtension(page, manifest.name).waitFor({ timeout: SLOW_MS });
  assert.ok(!server.logText().includes('Loading development extension'), 'no development extension was loaded');
});
