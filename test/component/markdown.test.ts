// Markdown in the real webview: streamed text keeps the DOM of finished blocks, and hostile markdown (deep
// nesting, huge blocks, one endless line) renders, as text where it must, and text appended after it still
// renders. The bounds here are generous correctness limits (before the caps these froze or never rendered).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
import { SceneWire } from './wireScenes';

const harness = useHarness();

/** A root whose agent said `text` as message `m`; returns the scene and that message's entry id. */
function oneMessage(title: string, text: string): { scene: SceneWire; entryId: string } {
  const scene = new SceneWire().root('root', title).say('root', 'agent', text, 'm');
  return { scene, entryId: scene.entryId('root', 'm') };
}

function nestedList(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
}

const HOSTILE: Record<string, string> = {
  '2,500 block quote markers': `${'>'.repeat(2500)} deep quote`,
  '1,000-level nested list': nestedList(1000),
  '3,000-level nested list': nestedList(3000),
  '3,000 list markers on one line': `${'- '.repeat(3000)}deep item`,
  'a 1 MB line': 'word '.repeat(200_000),
  '20,000 nested emphasis and link brackets': `${'*a '.repeat(10_000)}${'['.repeat(10_000)}x${'](y)'.repeat(10_000)}`,
  'an unclosed fence of 300 KB': `\`\`\`\n${'let x = 1; <script>window.__pwned="fence"</script>\n'.repeat(6000)}`,
};

describe('markdown', () => {
  test('streamed text keeps the DOM of finished blocks; only the last block is re-rendered', async () => {
    const chat = await harness().openChat();
    const { scene, entryId } = oneMessage('Streaming', 'First paragraph.\n\n');
    const link = await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const md = page.locator(`[data-entry-id="${entryId}"] subchats-markdown`);
    await md.getByText('First paragraph.').waitFor();
    // Finished blocks may move into a group, but are never rendered again: the same node stays.
    await page.evaluate((id) => {
      const w = window as unknown as { __first: Element | null };
      w.__first = document.querySelector(`[data-entry-id="${id}"] subchats-markdown p`);
    }, entryId);
    for (let i = 0; i < 30; i++) {
      scene.chunk('root', 'agent', i % 10 === 9 ? '\n\n```js\nconst a = 1;\n```\n\n' : `word${i} `, 'm');
      await link.flush();
    }
    await md.getByText('word28', { exact: false }).waitFor();
    const state = await page.evaluate((id) => {
      const w = window as unknown as { __first: Element | null };
      const root = document.querySelector(`[data-entry-id="${id}"] subchats-markdown`)!;
      return { same: root.querySelector('p') === w.__first, connected: w.__first?.isConnected, pres: root.querySelectorAll('pre').length, copies: root.querySelectorAll('.sc-code-actions').length };
    }, entryId);
    assert.deepEqual(state, { same: true, connected: true, pres: 3, copies: 3 });
    assert.equal((await chat.posted()).filter((m) => m.type === 'resync').length, 0);
    await chat.close();
  });

  test('a long table streamed in chunks stays one table to its last row, with its header shown once', async () => {
    const chat = await harness().openChat();
    const { scene, entryId } = oneMessage('Table', 'What changed:\n\n| # | file |\n|---|---|\n');
    const link = await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const rows = Array.from({ length: 1500 }, (_, i) => `| ${i} | src/file${i}.ts |\n`).join('');
    for (let at = 0; at < rows.length; at += 2000) {
      scene.chunk('root', 'agent', rows.slice(at, at + 2000), 'm');
      await link.flush();
    }
    const md = page.locator(`[data-entry-id="${entryId}"] subchats-markdown`);
    await md.locator('td', { hasText: 'src/file1499.ts' }).waitFor();
    const shape = await md.evaluate((root) => ({
      rowsOutsideTables: [...root.querySelectorAll('p')].filter((p) => p.textContent?.includes('| ')).length,
      cells: root.querySelectorAll('td').length,
      shownHeaders: [...root.querySelectorAll('thead')].filter((head) => getComputedStyle(head).display !== 'none').length,
    }));
    assert.deepEqual(shape, { rowsOutsideTables: 0, cells: 3000, shownHeaders: 1 });
    await chat.close();
  });

  for (const [name, text] of Object.entries(HOSTILE)) {
    test(`hostile markdown renders and text appended after it still renders: ${name}`, async () => {
      const chat = await harness().openChat();
      const { scene, entryId } = oneMessage('Hostile', text);
      const link = await FeedLink.showing(chat, scene.store, 'root');
      const { page } = chat;
      const md = page.locator(`[data-entry-id="${entryId}"] subchats-markdown`);
      await md.waitFor({ timeout: 10_000 });
      scene.chunk('root', 'agent', '\n\nAFTER the hostile block', 'm');
      await link.flush();
      await md.getByText('AFTER the hostile block').waitFor({ timeout: 10_000 });
      assert.ok(((await md.textContent()) ?? '').length >= Math.min(text.length, 20_000) / 4);
      assert.equal(await chat.pwned(), false);
      assert.deepEqual(await chat.cspViolations(), []);
      assert.deepEqual(chat.pageErrors, []);
      await chat.close();
    });
  }
});
