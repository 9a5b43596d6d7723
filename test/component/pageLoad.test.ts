// A chat page whose bundle or stylesheet does not load says so to the host (chatHtml's load guard), which loads
// the page again (src/webviews/pageReloads.ts). Seen in code-server: a service worker registered for another
// webview took the new chat's requests, webview.js failed with ERR_NAME_NOT_RESOLVED, and the chat stayed blank.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { buildChatHtml } from '../../src/webviews/chatHtml';
import { useHarness, withTestHost } from './harness';

// The harness's Chromium resolves no name but 127.0.0.1 and localhost, as an offline machine would.
const UNREACHABLE = 'https://unreachable.vscode-resource.invalid';

function page(origin: string, nonce: string, assets: { readonly script: string; readonly codicons: string }): string {
  const html = buildChatHtml({ cspSource: `${origin} ${UNREACHABLE}`, nonce, scriptUri: `${assets.script}/dist/webview.js`, codiconsUri: `${assets.codicons}/dist/codicons/codicon.css`, title: 'Subchats test', language: 'en' });
  return withTestHost(html, nonce);
}

const harness = useHarness({
  '/no-bundle.html': (origin, nonce) => page(origin, nonce, { script: UNREACHABLE, codicons: origin }),
  '/no-codicons.html': (origin, nonce) => page(origin, nonce, { script: origin, codicons: UNREACHABLE }),
});

async function open(path: string, until: (posted: readonly WebviewToHostMessage[]) => boolean) {
  const tab = await harness().browser.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(`${harness().origin}${path}`);
  const posted = () => tab.evaluate(() => (window as unknown as { __posted: WebviewToHostMessage[] }).__posted);
  await tab.waitForFunction((n) => (window as unknown as { __posted: unknown[] }).__posted.length >= n, 1);
  while (!until(await posted())) await tab.waitForFunction((n) => (window as unknown as { __posted: unknown[] }).__posted.length > n, (await posted()).length);
  return { tab, errors, posted: await posted() };
}

test('a page whose bundle does not load tells the host which file failed, and nothing else', async () => {
  const { tab, errors, posted } = await open('/no-bundle.html', (p) => p.length > 0);
  assert.deepEqual(posted, [{ type: 'pageLoadFailed', asset: 'webview.js' }]);
  assert.deepEqual(errors, []);
  await tab.close();
});

test('a page whose stylesheet does not load still runs, and the guard and the bundle share the one VS Code API', async () => {
  const { tab, errors, posted } = await open('/no-codicons.html', (p) => p.some((m) => m.type === 'ready') && p.some((m) => m.type === 'pageLoadFailed'));
  assert.deepEqual(posted.filter((m) => m.type === 'pageLoadFailed'), [{ type: 'pageLoadFailed', asset: 'codicon.css' }]);
  assert.deepEqual(errors, [], 'no "already acquired" error from either');
  await tab.close();
});
