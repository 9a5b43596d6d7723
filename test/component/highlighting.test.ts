// Syntax highlighting of code blocks in the real webview: the highlighter is not in the main bundle and is
// fetched only when a block in a language it knows appears; its spans take the colours the host sends from
// the editor theme (theme variables until then); the open block of a stream is left alone until it closes;
// the text of a block never changes; and the CSP reports nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { HIGHLIGHT_LANGUAGES, highlightLanguage } from '../../webview/lib/highlightLanguages';
import { FeedLink } from './feedLink';
import { repoRoot, useHarness, type ChatPage } from './harness';
import { SceneWire } from './wireScenes';

const harness = useHarness();

/** A string of highlight.js's core (a warning it prints), to tell which bundle holds it. */
const HIGHLIGHTER_MARKER = 'One of your code blocks includes unescaped HTML';

function oneMessage(text: string): { scene: SceneWire; entryId: string } {
  const scene = new SceneWire().root('root', 'Code').say('root', 'agent', text, 'm');
  return { scene, entryId: scene.entryId('root', 'm') };
}

/** The chunks the page fetched from dist/webview-chunks, by file name. */
function recordChunks(page: Page): string[] {
  const chunks: string[] = [];
  page.on('request', (request) => {
    const match = /\/dist\/webview-chunks\/([^/?]+)/.exec(request.url());
    if (match?.[1]) chunks.push(match[1]);
  });
  return chunks;
}

/** Resolves after the page's next idle callback (the highlighter works in idle callbacks, first come first served). */
function nextIdle(chat: ChatPage): Promise<void> {
  return chat.page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

function colorOf(chat: ChatPage, selector: string): Promise<string> {
  return chat.page.locator(selector).first().evaluate((element) => getComputedStyle(element).color);
}

describe('code highlighting', () => {
  test('the highlighter is a chunk of its own, not in the webview bundle', () => {
    const bundle = readFileSync(join(repoRoot, 'dist', 'webview.js'), 'utf8');
    assert.ok(!bundle.includes(HIGHLIGHTER_MARKER), 'highlight.js is not in dist/webview.js');
    assert.ok(bundle.includes('./webview-chunks/highlighter.js'), 'the bundle knows where to find it');
    assert.ok(readFileSync(join(repoRoot, 'dist', 'webview-chunks', 'highlighter.js'), 'utf8').includes(HIGHLIGHTER_MARKER));
  });

  test('a ts block is highlighted in the colours the host sent for the theme; the chunk loads only then; no CSP report', async () => {
    const chat = await harness().openChat();
    const chunks = recordChunks(chat.page);
    await chat.send({ type: 'tokenColors', tokens: { keyword: { color: '#12ab34' }, string: { color: '#a1b2c3', fontStyle: 'italic' }, 'title.function': { color: null } } });
    const { scene, entryId } = oneMessage('Plain text first, and a block in no language the chat knows:\n\n```brainfuck\n+[----->+++<]>.\n```\n');
    const link = await FeedLink.showing(chat, scene.store, 'root');
    const message = chat.page.locator(`[data-entry-id="${entryId}"]`);
    await message.getByText('+[----->+++<]>.').waitFor();
    await nextIdle(chat);
    assert.equal(chunks.length, 0, 'nothing is fetched without a block to highlight');

    const code = "export function greet(name: string) {\n  return 'hi ' + name;\n}";
    scene.chunk('root', 'agent', `\nNow TypeScript:\n\n\`\`\`ts\n${code}\n\`\`\`\n`, 'm');
    await link.flush();
    const keyword = message.locator('pre code .sc-token-keyword', { hasText: 'export' });
    await keyword.waitFor();
    assert.equal(await keyword.evaluate((span) => getComputedStyle(span).color), 'rgb(18, 171, 52)');
    const string = message.locator('pre code .sc-token-string').first();
    assert.deepEqual(await string.evaluate((span) => [getComputedStyle(span).color, getComputedStyle(span).fontStyle]), ['rgb(161, 178, 195)', 'italic']);
    const title = message.locator('pre code .sc-token-title-function', { hasText: 'greet' });
    assert.equal(await title.evaluate((span) => getComputedStyle(span).color), await colorOf(chat, `[data-entry-id="${entryId}"] pre:has(.sc-token-keyword)`), 'a kind the theme leaves alone has the text colour');
    assert.equal(await message.locator('pre code.language-ts').textContent(), `${code}\n`, 'the block says what it said');
    assert.ok(chunks.includes('highlighter.js'), chunks.join());
    assert.ok(chunks.some((chunk) => /^typescript-/.test(chunk)), chunks.join());
    assert.ok(!chunks.some((chunk) => /^(bash|python|xml)-/.test(chunk)), 'only the language a block needs');
    assert.deepEqual(await chat.cspViolations(), []);
    assert.deepEqual(chat.pageErrors, []);

    // Copy takes the block's text from the message, as before.
    await message.locator('.sc-code-block', { has: chat.page.locator('code.language-ts') }).getByRole('button', { name: 'Copy code' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'copy'), { type: 'copy', text: code });
    await chat.close();
  });

  // A chunk request lost once (on a loaded machine a webview's files come through its service worker and the
  // extension host, and a request can time out) used to leave every block plain for the page's life.
  for (const lost of ['highlighter', 'language'] as const) {
    test(`a ${lost} chunk that fails to load once is fetched again, and the block is highlighted`, async () => {
      const chat = await harness().openChat();
      const requests: string[] = [];
      let aborted = 0;
      const chunk = lost === 'highlighter' ? /\/dist\/webview-chunks\/highlighter\.js(\?|$)/ : /\/dist\/webview-chunks\/python-[^/]*\.js(\?|$)/;
      await chat.page.route(chunk, async (route) => {
        requests.push(new URL(route.request().url()).search);
        if (aborted++ === 0) await route.abort('timedout');
        else await route.continue();
      });
      const { scene, entryId } = oneMessage('```python\nimport os\n```\n');
      await FeedLink.showing(chat, scene.store, 'root');
      await chat.page.locator(`[data-entry-id="${entryId}"] pre code .sc-token-keyword`, { hasText: 'import' }).waitFor();
      assert.equal(requests.length, 2, `one failed request, one that worked: ${requests.join(' ')}`);
      assert.equal(await chat.page.locator(`[data-entry-id="${entryId}"] pre code.language-python`).textContent(), 'import os\n');
      await chat.close();
    });
  }

  test('without colours from the host (or when the theme cannot be read) kinds take theme variables', async () => {
    const chat = await harness().openChat();
    await chat.page.evaluate(() => document.documentElement.style.setProperty('--vscode-debugTokenExpression-name', '#c586c0'));
    const { scene, entryId } = oneMessage('```python\nimport os\n```\n');
    await FeedLink.showing(chat, scene.store, 'root');
    const keyword = chat.page.locator(`[data-entry-id="${entryId}"] pre code .sc-token-keyword`, { hasText: 'import' });
    await keyword.waitFor();
    assert.equal(await keyword.evaluate((span) => getComputedStyle(span).color), 'rgb(197, 134, 192)');
    await chat.send({ type: 'tokenColors', tokens: { keyword: { color: '#010203' } } });
    await chat.page.waitForFunction((span) => getComputedStyle(span!).color === 'rgb(1, 2, 3)', await keyword.elementHandle());
    await chat.send({ type: 'tokenColors', tokens: null });
    await chat.page.waitForFunction((span) => getComputedStyle(span!).color === 'rgb(197, 134, 192)', await keyword.elementHandle());
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });

  test('fence names find their language: its own name, an alias, any case; an unknown one none', () => {
    assert.equal(highlightLanguage('typescript'), 'typescript');
    assert.equal(highlightLanguage('TSX'), 'typescript');
    assert.equal(highlightLanguage('shell'), 'bash', 'agents write `shell` for a script');
    assert.equal(highlightLanguage('console'), 'shell', 'a terminal session');
    assert.equal(highlightLanguage('html'), 'xml');
    assert.equal(highlightLanguage('text'), undefined);
    assert.equal(highlightLanguage('brainfuck'), undefined);
    const aliases = Object.values(HIGHLIGHT_LANGUAGES).flat();
    assert.equal(new Set(aliases).size, aliases.length, 'no alias names two languages');
  });

  test('every language loads and draws a sample in spans around exactly its text', async () => {
    // A page of the harness's origin without the chat's CSP: the test imports the chunk itself, with no nonce.
    const page = await harness().browser.newPage();
    await page.goto(`${harness().origin}/dist/codicons/codicon.css`);
    const sample = '>>> x = 1\n$ ls -la\n@@ -1 +1 @@\n+added\n-removed\n// note\n# note\nlet x = "s" + 1.5; /* b */ <a href="x">t</a>\nfunction f(a) { return [1, \'two\', `t${a}`]; }\n<?php echo 1; ?>\n';
    const results = await page.evaluate(
      async ({ names, sample }) => {
        const url = new URL('/dist/webview-chunks/highlighter.js', location.href).href;
        const highlighter = (await import(url)) as { loadLanguage(name: string): Promise<void>; highlight(code: string, language: string, classOf: (scope: string) => string): DocumentFragment };
        const out: Record<string, { same: boolean; spans: number }> = {};
        for (const name of names) {
          await highlighter.loadLanguage(name);
          const fragment = highlighter.highlight(sample, name, (scope) => `t-${scope.replace(/\W/g, '-')}`);
          out[name] = { same: fragment.textContent === sample, spans: fragment.querySelectorAll('span').length };
        }
        return out;
      },
      { names: Object.keys(HIGHLIGHT_LANGUAGES), sample },
    );
    for (const [name, { same, spans }] of Object.entries(results)) {
      assert.ok(same, `${name}: the text is the sample's`);
      assert.ok(spans > 0, `${name}: some tokens`);
    }
    assert.equal(Object.keys(results).length, Object.keys(HIGHLIGHT_LANGUAGES).length);
    await page.close();
  });

  test('while a block streams it stays plain; it is highlighted once it closes', async () => {
    const chat = await harness().openChat();
    const { scene, entryId } = oneMessage('```js\nconst done = true;\n```\n\n```js\nconst open = ');
    const link = await FeedLink.showing(chat, scene.store, 'root');
    const message = chat.page.locator(`[data-entry-id="${entryId}"]`);
    await message.locator('.sc-token-keyword', { hasText: 'const' }).first().waitFor();
    // The scheduler asks for its next idle callback before this one; any work it had left is done by then.
    await nextIdle(chat);
    const openBlock = message.locator('pre code', { hasText: 'const open' });
    assert.equal(await openBlock.locator('span').count(), 0, 'the open block is not highlighted');
    for (const chunk of ['1', ' + 2', ';\n']) {
      scene.chunk('root', 'agent', chunk, 'm');
      await link.flush();
      await message.getByText(`const open = 1${chunk === '1' ? '' : ' + 2'}`).waitFor();
      assert.equal(await openBlock.locator('span').count(), 0, `still plain after "${chunk}"`);
    }
    scene.chunk('root', 'agent', '```\n', 'm');
    await link.flush();
    await message.locator('pre code', { hasText: 'const open' }).locator('.sc-token-keyword').waitFor();
    assert.equal(await message.locator('pre code', { hasText: 'const open' }).textContent(), 'const open = 1 + 2;\n');
    await chat.close();
  });
});
