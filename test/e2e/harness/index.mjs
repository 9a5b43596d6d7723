// One import for e2e tests: a code-server + workbench page per test file, plus the UI helpers.
//
//   let wb;
//   before(async () => { wb = await launchWorkbench({ files: { 'a.txt': 'hi' } }); });
//   after(() => wb?.close());
//   test('...', async () => { await runCommand(wb.page, 'Subchats: New Session'); ... });
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeWorkbench, openWorkbench, workbenchLog } from './browser.mjs';
import { repoRoot, serverLogFiles, startCodeServer } from './codeServer.mjs';
import { makeWorkspace } from './workspace.mjs';
import { screenshot } from './workbench.mjs';

export { closeWorkbench, openWorkbench, workbenchLog } from './browser.mjs';
export { repoRoot, startCodeServer } from './codeServer.mjs';
export { makeWorkspace } from './workspace.mjs';
export {
  openActivity,
  chatFrame,
  chooseContextMenuEntry,
  closeContextMenu,
  contextMenuEntry,
  contextMenuLabels,
  editorTab,
  focusMoves,
  notificationToast,
  openContextMenu,
  pickQuickItem,
  runCommand,
  runContextMenuEntry,
  runningExtension,
  screenshot,
  sidebarTreeRow,
  treeItem,
} from './workbench.mjs';

/**
 * The ACP version the suite runs at: the product's default (`auto`: v2 with the demo agent), or the one
 * SUBCHATS_E2E_PROTOCOL names (the test command runs the suite again at `1`, so every v1 path stays tested).
 */
export const e2eProtocol = process.env.SUBCHATS_E2E_PROTOCOL ?? 'auto';

/** Whether the demo agent speaks ACP v2 in this run (its default dialect answers 2 to an offer of 2). */
export const speaksV2 = e2eProtocol !== '1';

/**
 * Fresh workspace folder + code-server + browser with this repo loaded as a development extension.
 * @param {{ files?: Record<string, string>, settings?: Record<string, unknown>, extensionsDir?: string, workspaceTrust?: boolean,
 *   extensionDevelopmentPath?: string | null,
 *   extensionTestsPath?: string, onConsole?: (type: string, text: string) => void,
 *   exposeFunctions?: Record<string, Function>, userAgent?: string }} [options]
 */
export async function launchWorkbench({ files, settings, extensionsDir, workspaceTrust, ...pageOptions } = {}) {
  if (pageOptions.extensionDevelopmentPath !== null) assertBuilt(pageOptions.extensionDevelopmentPath ?? repoRoot);
  const workspace = makeWorkspace(files);
  const cleanups = [() => workspace.remove()];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const runSettings = process.env.SUBCHATS_E2E_PROTOCOL ? { 'subchats.protocolVersion': e2eProtocol, ...settings } : settings;
    const server = await startCodeServer({ workspace: workspace.path, settings: runSettings, extensionsDir, workspaceTrust });
    cleanups.push(() => server.stop());
    const page = await openWorkbench(server, pageOptions);
    cleanups.push(() => closeWorkbench(page));
    return { page, server, workspace: workspace.path, log: () => workbenchLog(page), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A missing bundle would only show up as "extension not found" deep inside a test. */
function assertBuilt(extensionPath) {
  const { main } = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8'));
  if (!main) return;
  const entry = join(extensionPath, main);
  if (!existsSync(entry) && !existsSync(`${entry}.js`)) {
    throw new Error(`${entry} is missing; build the extension first (here: node scripts/build.mjs)`);
  }
}

/** Lines of the Subchats log a failed test prints: the CI run keeps only what the tests print, not their files. */
const FAILURE_LOG_LINES = 60;

/**
 * After a failed test: a screenshot, and the end of the extension's own log ("Subchats" output) printed, so a
 * failure seen only in a CI run says what the product did (the server's files go with the workbench).
 * @param {{ page: import('playwright-core').Page, server: { stateDir: string } } | undefined} workbench
 */
export async function recordFailure(workbench, name) {
  if (!workbench) return;
  await screenshot(workbench.page, name).catch(() => undefined);
  for (const file of serverLogFiles(workbench.server.stateDir, '/Subchats.log')) {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-FAILURE_LOG_LINES);
    process.stderr.write(`--- ${name}: the last ${lines.length} lines of the Subchats log (${file})\n${lines.join('\n')}\n---\n`);
  }
}
