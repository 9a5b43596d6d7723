// Code blocks in answers, in the real webview: one toolbar per block (Copy, Insert at Cursor, Insert into
// Terminal), Apply only for a whole block that names its file, every action on the whole block even when a
// long one is drawn in pieces, and no per-line colour bands from VS Code's inline-code style.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
import { SceneWire } from './wireScenes';

const harness = useHarness();

function oneMessage(text: string): { scene: SceneWire; entryId: string } {
  const scene = new SceneWire().root('root', 'Code').say('root', 'agent', text, 'm');
  return { scene, entryId: scene.entryId('root', 'm') };
}

describe('code blocks', () => {
  test('each block has Copy, Insert at Cursor and Insert into Terminal, and each asks the host with the block', async () => {
    const chat = await harness().openChat();
    const { scene, entryId } = oneMessage('Run this:\n\n```bash\nnpm ci\nnpm test\n```\n\nThen this:\n\n```ts\nconst b = 2;\n```\n');
    await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const message = page.locator(`[data-entry-id="${entryId}"]`);
    await message.getByText('const b = 2;').waitFor();
    const toolbars = message.getByRole('toolbar', { name: 'Code block actions' });
    assert.equal(await toolbars.count(), 2);
    const first = toolbars.nth(0);
    assert.deepEqual(await first.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), [
      'Copy code',
      'Insert at cursor',
      'Insert into terminal (not run)',
    ]);
    await first.getByRole('button', { name: 'Copy code' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'copy'), { type: 'copy', text: 'npm ci\nnpm test' });
    await first.getByRole('button', { name: 'Insert into terminal (not run)' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'codeBlock' && m.action === 'terminal'), { type: 'codeBlock', action: 'terminal', code: 'npm ci\nnpm test' });
    await toolbars.nth(1).getByRole('button', { name: 'Insert at cursor' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'codeBlock' && m.action === 'insert'), { type: 'codeBlock', action: 'insert', code: 'const b = 2;' });
    assert.equal(await message.getByRole('button', { name: /^Apply to/ }).count(), 0, 'no block names a file');
    await chat.close();
  });

  test('Apply is offered once a block that names its file is whole; it sends the file without the naming line', async () => {
    const chat = await harness().openChat();
    const { scene, entryId } = oneMessage('Here is the file:\n\n```ts\n// filepath: src/greet.ts\nexport const greet = () => ');
    const link = await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const message = page.locator(`[data-entry-id="${entryId}"]`);
    await message.getByText('export const greet').waitFor();
    assert.equal(await message.getByRole('button', { name: /^Apply to/ }).count(), 0, 'not while the block is being written');
    scene.chunk('root', 'agent', "'hi';\n```\n\nDone.", 'm');
    await link.flush();
    const apply = message.getByRole('button', { name: 'Apply to src/greet.ts… (shows the change first)' });
    await apply.waitFor();
    // Every button shows a glyph of the bundled codicon font (a name it lacks draws nothing).
    const glyphs = await message.locator('.sc-code-actions .codicon').evaluateAll((icons) => icons.map((icon) => getComputedStyle(icon, '::before').content));
    assert.equal(glyphs.length, 4);
    for (const glyph of glyphs) assert.match(glyph, /^"\S"$/u, `a glyph, not ${glyph}`);
    await apply.click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'codeBlock' && m.action === 'apply'), {
      type: 'codeBlock',
      action: 'apply',
      code: "export const greet = () => 'hi';",
      path: 'src/greet.ts',
    });
    await chat.close();
  });

  test('a long block drawn in pieces has one toolbar, and its actions take the whole block', async () => {
    const chat = await harness().openChat();
    const lines = Array.from({ length: 1500 }, (_, i) => `line ${String(i).padStart(4, '0')} of a long generated file`);
    const body = lines.join('\n');
    const { scene, entryId } = oneMessage(`\`\`\`text data/long.txt\n${body}\n\`\`\`\n`);
    await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const message = page.locator(`[data-entry-id="${entryId}"]`);
    await message.getByText('line 1499 of a long generated file').waitFor();
    assert.ok((await message.locator('pre').count()) > 1, 'the block is drawn in more than one piece');
    assert.equal(await message.getByRole('toolbar', { name: 'Code block actions' }).count(), 1);
    await message.getByRole('button', { name: 'Copy code' }).click();
    const copy = await chat.waitForPosted((m) => m.type === 'copy');
    assert.equal(copy.type === 'copy' && copy.text, body);
    await message.getByRole('button', { name: 'Apply to data/long.txt… (shows the change first)' }).click();
    const apply = await chat.waitForPosted((m) => m.type === 'codeBlock' && m.action === 'apply');
    assert.equal(apply.type === 'codeBlock' && apply.code, body);
    await chat.close();
  });

  test('code in a block is drawn in the block\'s colours: VS Code\'s inline-code style draws no band per line', async () => {
    const chat = await harness().openChat();
    const { scene, entryId } = oneMessage('Inline `code` and a block:\n\n```js\nconst a = 1;\nconst b = 2;\n```\n');
    await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const message = page.locator(`[data-entry-id="${entryId}"]`);
    await message.getByText('const b = 2;').waitFor();
    const styles = await message.evaluate((root) =>
      Object.fromEntries(
        (['p code', 'pre code', 'pre'] as const).map((selector) => {
          const style = getComputedStyle(root.querySelector(selector)!);
          return [selector, { color: style.color, background: style.backgroundColor }];
        }),
      ),
    );
    assert.notEqual(styles['p code']!.background, 'rgba(0, 0, 0, 0)', 'inline code keeps VS Code\'s look');
    assert.equal(styles['pre code']!.background, 'rgba(0, 0, 0, 0)');
    assert.equal(styles['pre code']!.color, styles.pre!.color);
    await chat.close();
  });
});
