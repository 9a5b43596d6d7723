// Workbench actions that span more than one widget: reloading the window, answering the file dialog.
import { basename } from 'node:path';
import { runCommand } from './workbench.mjs';

const WORKBENCH_TIMEOUT_MS = 60_000;

/**
 * 'Developer: Reload Window' and wait for the new workbench: the page navigates (same URL, so the same
 * folder and extension payload), the extension host restarts and restored editors come back.
 * @param {import('playwright-core').Page} page
 */
export async function reloadWindow(page) {
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: WORKBENCH_TIMEOUT_MS });
  await runCommand(page, 'Developer: Reload Window');
  await navigated;
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: WORKBENCH_TIMEOUT_MS });
}

/**
 * Runs a palette command that shows an open-file dialog and picks `filePath` in it. code-server shows
 * VS Code's "simple file dialog": a quick input holding a folder path, where a typed path plus Enter
 * opens that file.
 * @param {import('playwright-core').Page} page
 * @param {string} command palette title
 * @param {string} filePath absolute path on the server
 */
export async function openThroughFileDialog(page, command, filePath) {
  await runCommand(page, command);
  // The palette hides before the dialog shows. Until the dialog has listed its first folder (a '..' row
  // appears) it may still overwrite the input with that folder's path, so type only after that.
  await page.waitForFunction(() => {
    const widget = document.querySelector('.quick-input-widget');
    const value = widget?.querySelector('input')?.value ?? '';
    const listed = widget?.querySelector('.monaco-list-row[aria-label=".."]');
    return widget instanceof HTMLElement && widget.style.display !== 'none' && value.startsWith('/') && !!listed;
  });
  const widget = page.locator('.quick-input-widget');
  await widget.locator('input').fill(filePath);
  // Listing the file's folder shows the dialog has taken the typed path in.
  await widget.locator(`.monaco-list-row[aria-label=${JSON.stringify(basename(filePath))}]`).waitFor();
  await widget.locator('input').press('Enter');
  await widget.waitFor({ state: 'hidden' });
}

/** Closes every editor and editor group, e.g. so that exactly one chat webview is visible afterwards. */
export async function closeAllEditors(page) {
  await runCommand(page, 'View: Close All Editor Groups');
  await page.locator('.part.editor .tabs-container .tab').first().waitFor({ state: 'detached' });
}

/**
 * From the next page load on (a reload), records which of `phrases` the side bar shows, in the order they appear:
 * a MutationObserver from the page's first script, so a phrase shown for a moment counts too. Resolves with a
 * reader of what the current page recorded.
 * @param {import('playwright-core').Page} page
 * @param {string[]} phrases
 */
export async function recordSidebarPhrases(page, phrases) {
  await page.context().addInitScript((watched) => {
    const seen = [];
    /** @type {any} */ (window).__subchatsSidebarPhrases = seen;
    const look = () => {
      const text = document.querySelector('.part.sidebar')?.textContent ?? '';
      for (const phrase of watched) if (text.includes(phrase) && seen.at(-1) !== phrase) seen.push(phrase);
    };
    const start = () => new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    if (document.body) start();
    else document.addEventListener('DOMContentLoaded', start);
  }, phrases);
  return () => page.evaluate(() => /** @type {any} */ (window).__subchatsSidebarPhrases ?? []);
}
