// Small, condition-waiting helpers for driving the VS Code workbench UI.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './codeServer.mjs';

const EXTENSION_ID = 'subchats.subchats';
export const screenshotDir = join(repoRoot, 'test-results/screenshots');

/**
 * Runs a command by its palette title (e.g. 'Subchats: New Session') through the command palette.
 * Resolves once the palette has handed over: closed, or replaced by a quick pick the command opened
 * (answer that with pickQuickItem).
 * @param {import('playwright-core').Page} page
 * @param {string} title
 */
export async function runCommand(page, title) {
  await page.evaluate(recordFocusMoves);
  const input = page.locator('.quick-input-widget input');
  // The title bar's command center, clicked: a key (F1) goes wherever the focus is, and a webview that just
  // took it swallows the key, while a click opens Quick Open whatever holds the focus. `>` makes it the palette.
  await page.locator('.titlebar .command-center .command-center-quick-pick').click();
  await input.waitFor();
  const query = `>${title}`;
  await input.fill(query);
  await pickQuickItem(page, title);
  await page.waitForFunction((typed) => {
    const widget = document.querySelector('.quick-input-widget');
    const visible = widget instanceof HTMLElement && widget.style.display !== 'none' && widget.offsetParent !== null;
    return !visible || widget.querySelector('input')?.value !== typed;
  }, query);
}

/**
 * In the workbench page (once): where the keyboard focus went, last 20 moves, so a quick pick that closed before
 * its row was clicked can say what took the focus (VS Code closes a quick pick that loses it).
 */
function recordFocusMoves() {
  const w = /** @type {any} */ (window);
  if (w.__focusMoves) return;
  const moves = (w.__focusMoves = []);
  const describe = (node) => {
    if (!(node instanceof Element)) return String(node);
    const label = node.getAttribute('aria-label') ?? node.getAttribute('title') ?? '';
    return `${node.localName}${node.id ? `#${node.id}` : ''}${node.classList.length ? `.${[...node.classList].slice(0, 3).join('.')}` : ''}${label ? ` "${label.slice(0, 60)}"` : ''}`;
  };
  const note = (what) => {
    moves.push(`${new Date().toISOString().slice(11, 23)} ${what}`);
    if (moves.length > 20) moves.shift();
  };
  window.addEventListener('focusin', (event) => note(`focus ${describe(event.target)}`), true);
  // Focus that leaves for an iframe (a webview) shows only as the page losing it.
  window.addEventListener('blur', () => note(`page lost the focus to ${describe(document.activeElement)}`));
  window.addEventListener('contextmenu', (event) => note(`right click on ${describe(event.target)}`), true);
  // A context menu that closes on its own (VS Code closes one that loses the focus) shows as drawn, then gone.
  const isMenu = (node) => node instanceof Element && (node.matches('.monaco-menu-container') || node.querySelector('.monaco-menu-container') !== null);
  new MutationObserver((records) => {
    for (const record of records) {
      if ([...record.addedNodes].some(isMenu)) note('context menu drawn');
      if ([...record.removedNodes].some(isMenu)) note('context menu gone');
    }
  }).observe(document.body, { childList: true, subtree: true });
}

/** The focus moves recordFocusMoves saw, for an error message. */
export async function focusMoves(page) {
  return page.evaluate(() => (/** @type {any} */ (window).__focusMoves ?? []).join('\n')).catch(() => '(not recorded)');
}

/**
 * Clicks the row of the open quick input (palette or quick pick) whose label is exactly `label`;
 * a trailing '…' may be left out. Exact matching keeps fuzzy matches from picking the wrong row.
 */
export async function pickQuickItem(page, label) {
  const exactLabel = new RegExp(`^${escapeRegExp(label)}(…|\\.\\.\\.)?$`);
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactLabel }) })
    .first()
    .click();
}

/** A tree item (sidebar trees, the Explorer...) by its accessible name. */
export function treeItem(page, name, { exact = true } = {}) {
  return page.getByRole('treeitem', { name, exact });
}

/** A row of a tree in the side bar (e.g. the Subchats sessions) by its exact label, without its description. */
export function sidebarTreeRow(page, label) {
  return page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', {
    has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
  });
}

/**
 * Right-clicks `target` (a tree row, a tab...) and returns its open context menu; close it with
 * closeContextMenu or by clicking an entry (contextMenuEntry).
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} target
 */
export async function openContextMenu(page, target) {
  await page.evaluate(recordFocusMoves);
  await target.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  try {
    await menu.waitFor();
  } catch (error) {
    throw new Error(`no context menu showed after the right click; focus moves and menus:\n${await focusMoves(page)}`, { cause: error });
  }
  return menu;
}

/** An entry of an open context menu by its exact label. */
export function contextMenuEntry(menu, label) {
  return menu.getByRole('menuitem', { name: label, exact: true });
}

/** The labels of the entries of an open context menu, in order. */
export async function contextMenuLabels(menu) {
  const labels = await menu.locator('.action-menu-item .action-label').allTextContents();
  return labels.map((label) => label.trim()).filter(Boolean);
}

export async function closeContextMenu(page) {
  await page.keyboard.press('Escape');
  await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached' });
}

/**
 * Runs the entry `label` of an open context menu and waits for the menu to go. A VS Code menu item
 * only listens for mouse clicks 100 ms after it is drawn (so the right click that opened the menu does
 * not pick an entry), and a loaded machine stretches that; pointing at the entry and pressing Enter,
 * as keyboard users do, works from the first moment.
 */
export async function chooseContextMenuEntry(page, menu, label) {
  await contextMenuEntry(menu, label).hover();
  await contextMenuEntry(menu.locator('.action-item.focused'), label).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached' });
}

/** Opens the context menu of `target` and runs its entry `label`. */
export async function runContextMenuEntry(page, target, label) {
  await chooseContextMenuEntry(page, await openContextMenu(page, target), label);
}

/** The notification toast (bottom right) whose text contains `text`. */
export function notificationToast(page, text) {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

/** The activity bar entry of a view container, by the start of its title. */
export function activityBarEntry(page, title) {
  return page.locator(`.activitybar a.action-label[aria-label^="${title}"]`);
}

/**
 * Opens a view container from the activity bar, then rests the pointer on the bar's empty part below its entries:
 * a pointer left on the entry brings up its hover ("Explorer (Ctrl+Shift+E)"), which lies over the side bar's first
 * rows and takes the clicks meant for them.
 */
export async function openActivity(page, title) {
  await activityBarEntry(page, title).click();
  const bar = await page.locator('.part.activitybar').boundingBox();
  const lastEntry = await page.locator('.part.activitybar .composite-bar .action-item').last().boundingBox();
  if (bar && lastEntry) await page.mouse.move(bar.x + bar.width / 2, Math.min(lastEntry.y + lastEntry.height + 24, bar.y + bar.height / 2 + 100));
}

/**
 * The content frame of our extension's visible webview. Webviews are two nested iframes:
 * the host frame (src carries extensionId) and its `#active-frame` holding the extension's HTML.
 * @returns {import('playwright-core').FrameLocator}
 */
export function chatFrame(page, extensionId = EXTENSION_ID) {
  return page
    .locator(`iframe.webview.ready[src*="extensionId=${extensionId}&"] >> visible=true`)
    .contentFrame()
    .locator('iframe#active-frame')
    .contentFrame();
}

/** A row of the 'Developer: Show Running Extensions' editor, i.e. an activated extension, by package name. */
export function runningExtension(page, name) {
  return page.locator(`.runtime-extensions-editor .monaco-list-row[aria-label="${name}"]`);
}

/** An open editor tab by its title. */
export function editorTab(page, title) {
  return page.locator('.tabs-container .tab', { has: page.locator('.label-name', { hasText: title }) });
}

/** Saves test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path });
  return path;
}

export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
