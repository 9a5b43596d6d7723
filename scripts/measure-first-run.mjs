// Times `npm start` from a clone to the first usable chat, as a new user meets it: code-server path, no clicks
// but the walkthrough's Start a Demo Session button. Prints each progress line as it comes, then the figures.
// Usage: node scripts/measure-first-run.mjs [clone-dir]   (a fresh `git clone` measures a fresh machine's start;
// Debian packages already installed are not installed again, so apt's time is not in the figure.)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const clone = resolve(process.argv[2] ?? '.');
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

const start = spawn('npm', ['start'], { cwd: clone, detached: true, env: { ...process.env, SUBCHATS_USE_CODE_SERVER: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
const stopStart = () => {
  try {
    process.kill(-start.pid, 'SIGINT');
  } catch {
    // already gone
  }
};
process.on('exit', stopStart);

const url = await new Promise((resolveUrl, reject) => {
  let buffered = '';
  const read = (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      console.log(`  | ${line}`);
      const match = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(line);
      if (match) resolveUrl(match[1]);
    }
  };
  start.stdout.on('data', read);
  start.stderr.on('data', read);
  start.on('exit', (code) => reject(new Error(`npm start exited (${code}) before printing its address`)));
});
const urlAt = seconds();

// Playwright comes with the clone's packages (npm ci above installed them).
const { chromium } = createRequire(join(clone, 'package.json'))('playwright-core');
const profile = mkdtempSync(join(tmpdir(), 'subchats-first-run-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.SUBCHATS_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
  viewport: { width: 1400, height: 900 },
});
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(url);
  await page.locator('.gettingStartedContainer .monaco-button, .gettingStartedContainer a.button-link', { hasText: 'Start a Demo Session' }).first().click({ timeout: 120_000 });
  const chat = page.locator('iframe.webview.ready[src*="extensionId=subchats.subchats&"] >> visible=true').contentFrame().locator('iframe#active-frame').contentFrame();
  await chat.locator('#sc-prompt-input:focus').waitFor({ timeout: 120_000 });
  const chatAt = seconds();
  console.log(`\nnpm start printed its address after ${urlAt} s; the first chat took prompts (cursor in its box) after ${chatAt} s.`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  stopStart();
}
