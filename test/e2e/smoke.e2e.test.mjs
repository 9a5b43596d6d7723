// Proves the real-VS-Code harness: code-server serves the workbench, this repo loads as a development
// extension, palette commands run and screenshots land in test-results/screenshots/.
// Run (after `node scripts/build.mjs`): node --test test/e2e/smoke.e2e.test.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  openActivity,
  editorTab,
  launchWorkbench,
  repoRoot,
  runCommand,
  runningExtension,
  screenshot,
  treeItem,
} from './harness/index.mjs';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const container = manifest.contributes.viewsContainers.activitybar.find((entry) => entry.id === 'subchats');
// The title is a `%key%` placeholder; the workbench shows its English text from package.nls.json.
const containerTitle = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8'))[/^%(.+)%$/.exec(container.title)[1]];

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
before(async () => {
  workbench = await launchWorkbench({ files: { 'README.md': '# Smoke workspace\n', 'src/hello.txt': 'hello\n' } });
});
after(async () => {
  await workbench?.close();
});

test('opens the per-test workspace folder in the Explorer', async () => {
  await treeItem(workbench.page, 'README.md').waitFor();
  await treeItem(workbench.page, 'src').waitFor();
});

test('loads this repository as a development extension', async () => {
  await workbench.server.waitForLog(`Loading development extension at ${repoRoot}`);
});

test('runs commands from the palette', async () => {
  await runCommand(workbench.page, 'Developer: Show Running Extensions');
  await editorTab(workbench.page, 'Running Extensions').waitFor();
  await screenshot(workbench.page, 'smoke-running-extensions');
});

test('opening the Subchats view activates the extension', async () => {
  const { page } = workbench;
  await openActivity(page, containerTitle);
  await page.locator('.part.sidebar .composite.title', { hasText: containerTitle }).waitFor();
  await runCommand(page, 'Developer: Show Running Extensions');
  await runningExtension(page, manifest.name).waitFor();
  await screenshot(page, 'smoke-subchats-view');
});
