// Headless Debian chromium driven by playwright-core, pointed at a code-server workbench.
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { makeTempDir, removeTempDir } from './tempDirs.mjs';

const executablePath = process.env.SUBCHATS_CHROMIUM ?? '/usr/bin/chromium';
const WORKBENCH_TIMEOUT_MS = 60_000;

// Offline and quiet: no Google services, and every host but the local server resolves to nothing
// (without the resolver rule chromium's background DNS lookups slow each run down by about half).
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

/** @type {WeakMap<import('playwright-core').Page, { profileDir: string, log: string[] }>} */
const sessions = new WeakMap();

/**
 * Opens the workbench in a fresh browser profile and waits until it is laid out.
 * @param {{ url: Function }} server from startCodeServer()
 * @param {{ workspaceFolder?: string, extensionTestsPath?: string, extensionDevelopmentPath?: string | null,
 *   onConsole?: (type: string, text: string) => void, exposeFunctions?: Record<string, Function>,
 *   userAgent?: string }} [options] userAgent: the workbench takes its OS (keybindings, Cmd or Ctrl) from it
 * @returns {Promise<import('playwright-core').Page>}
 */
export async function openWorkbench(server, options = {}) {
  const { workspaceFolder, extensionTestsPath, extensionDevelopmentPath, onConsole, exposeFunctions = {}, userAgent } = options;
  const profileDir = makeTempDir('chromium');
  const xdg = (name) => join(profileDir, 'xdg', name);
  let context;
  try {
    context = await chromium.launchPersistentContext(join(profileDir, 'profile'), {
      executablePath,
      headless: true,
      args: chromiumArgs,
      viewport: { width: 1400, height: 900 },
      ...(userAgent === undefined ? {} : { userAgent }),
      // chromium writes crash reports and dconf under XDG dirs even with its own profile.
      env: { ...process.env, XDG_CONFIG_HOME: xdg('config'), XDG_CACHE_HOME: xdg('cache'), XDG_DATA_HOME: xdg('data') },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const log = [];
    sessions.set(page, { profileDir, log });
    page.on('console', (message) => {
      log.push(`[${message.type()}] ${message.text()}`);
      onConsole?.(message.type(), message.text());
    });
    for (const [name, fn] of Object.entries(exposeFunctions)) await page.exposeFunction(name, fn);
    const url = server.url({
      ...(workspaceFolder === undefined ? {} : { folder: workspaceFolder }),
      ...(extensionDevelopmentPath === undefined ? {} : { extensionDevelopmentPath }),
      extensionTestsPath,
    });
    await page.goto(url);
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: WORKBENCH_TIMEOUT_MS });
    return page;
  } catch (error) {
    await context?.close().catch(() => {});
    removeTempDir(profileDir);
    throw error;
  }
}

/** Browser console lines seen so far (the workbench forwards extension host errors there). */
export function workbenchLog(page) {
  return sessions.get(page)?.log ?? [];
}

/**
 * Unloads the page first: a plain browser close looks like a dropped connection, and code-server
 * would then keep the extension host alive for hours waiting for a reconnect.
 */
export async function closeWorkbench(page) {
  const session = sessions.get(page);
  try {
    await page.goto('about:blank').catch(() => {});
    await page.context().close();
  } finally {
    if (session) removeTempDir(session.profileDir);
  }
}
