// The markdown block splitter without a browser: where streamed text is cut into finished blocks, that
// pushing text in chunks finds the same blocks as pushing it at once, and that no block outgrows the cap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_BLOCK_CHARS, MAX_MARKDOWN_BLOCK_CHARS, MarkdownBlockSplitter, type MarkdownBlock } from '../../webview/lib/markdownBlocks';

function split(text: string, chunk = text.length): { finished: MarkdownBlock[]; open: MarkdownBlock } {
  const splitter = new MarkdownBlockSplitter();
  const finished: MarkdownBlock[] = [];
  for (let end = chunk; ; end = Math.min(text.length, end + chunk)) {
    finished.push(...splitter.push(text.slice(0, end)));
    if (end >= text.length) break;
  }
  return { finished, open: splitter.open() };
}

const raw = (block: MarkdownBlock): string => (block.kind === 'code' ? `code:${block.lang}:${block.code}` : `${block.kind}:${block.raw}`);

describe('markdown blocks', () => {
  test('paragraphs, lists and fences are finished at their boundaries; the last block stays open', () => {
    const text = 'Intro **bold**\n\n- a\n- b\n\n  continued item\n\nAfter\n```ts\nconst x = 1;\n\nconst y = 2;\n```\nTail';
    const { finished, open } = split(text);
    assert.deepEqual(finished.map(raw), [
      'markdown:Intro **bold**\n\n',
      'markdown:- a\n- b\n\n  continued item\n\n',
      'markdown:After\n',
      'code:ts:const x = 1;\n\nconst y = 2;',
    ]);
    assert.deepEqual(raw(open), 'markdown:Tail');
  });

  test('an open fence is an open code block, never parsed as markdown', () => {
    const { finished, open } = split('Text\n\n~~~\n# not a heading\n\n> not a quote\n');
    assert.deepEqual(finished.map(raw), ['markdown:Text\n\n']);
    assert.equal(raw(open), 'code::# not a heading\n\n> not a quote\n');
  });

  test('chunked pushes find the same blocks as one push', () => {
    const text = Array.from({ length: 200 }, (_, i) => (i % 7 === 3 ? '```js\nlet a = 1;\n\nlet b;\n```\n' : `Para ${i} with *text*\n- item\n\n`)).join('');
    const whole = split(text);
    for (const chunk of [1, 7, 40, 333]) {
      const chunked = split(text, chunk);
      assert.deepEqual(chunked.finished.map(raw), whole.finished.map(raw), `chunk ${chunk}`);
      assert.deepEqual(raw(chunked.open), raw(whole.open));
    }
  });

  test('appends find the same blocks as one push, keeping only the open block, never the whole message', () => {
    const text = Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? '```js\nlet a = 1;\n\nlet b;\n```\n' : `Para ${i} with *text*\n- item\n\n`)).join('');
    const whole = split(text);
    const splitter = new MarkdownBlockSplitter();
    const finished: MarkdownBlock[] = [];
    let retainedMax = 0;
    for (let at = 0; at < text.length; at += 40) {
      finished.push(...splitter.append(text.slice(at, at + 40)));
      retainedMax = Math.max(retainedMax, splitter.retained);
    }
    assert.deepEqual(finished.map(raw), whole.finished.map(raw));
    assert.deepEqual(raw(splitter.open()), raw(whole.open));
    assert.equal(splitter.length, text.length);
    assert.ok(text.length > 50_000 && retainedMax < 8192, `retained at most ${retainedMax} of ${text.length} characters`);
  });

  test('no block outgrows the cap: long blocks are cut at line ends, a long line at the cap', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `- item ${i} of a long tight list`).join('\n');
    const oneLine = 'x'.repeat(MAX_BLOCK_CHARS * 3 + 5);
    const code = `\`\`\`\n${'code line\n'.repeat(5000)}\`\`\`\n`;
    for (const text of [lines, oneLine, code]) {
      const { finished, open } = split(text, 40);
      const all = [...finished, open];
      for (const block of all) assert.ok((block.kind === 'code' ? block.code : block.raw).length <= 2 * MAX_BLOCK_CHARS + 64);
      const joined = all.map((b) => (b.kind === 'code' ? b.code : b.raw)).join('');
      if (text === oneLine) assert.equal(joined, text);
      assert.ok(finished.length >= 2, `${finished.length} finished blocks`);
    }
  });

  test('a paragraph written as one line is cut after a sentence past the markdown cap: every piece is markdown, bounded, and together they give the text', () => {
    const sentence = (i: number) => `Sentence ${i} says **what** was done in \`file${i}.ts\` and [why](https://example.com/${i}). `;
    const text = Array.from({ length: 600 }, (_, i) => sentence(i)).join('');
    for (const chunk of [1, 40, 333]) {
      const { finished, open } = split(text, chunk);
      const all = [...finished, open];
      assert.ok(finished.length >= 10, `${finished.length} finished blocks`);
      assert.deepEqual([...new Set(all.map((block) => block.kind))], ['markdown'], 'no piece shown as plain text: the formatting stays');
      // Cut at the first chunk past the cap, after its last sentence: the cap, a chunk and a sentence at most.
      for (const block of all) assert.ok(block.kind === 'markdown' && block.raw.length <= MAX_MARKDOWN_BLOCK_CHARS + chunk + 100, `a piece of ${block.kind === 'markdown' ? block.raw.length : 0} characters`);
      for (const block of finished) assert.match(block.kind === 'markdown' ? block.raw : '', /^Sentence \d+ .*\. $/s, 'cut after a whole sentence');
      assert.equal(all.map((block) => (block.kind === 'markdown' ? block.raw : '')).join(''), text);
    }
  });

  test('a long line is not cut inside a code span, emphasis or link, nor before what would start a list, and a list item goes on to the hard cap', () => {
    // A code span that stays open past many sentence ends: no cut inside it, so the line goes on to the hard cap.
    const inSpan = `Intro \`${'a. b. '.repeat(2000)}`;
    assert.ok(split(inSpan, 100).finished.every((block) => block.kind === 'plain' || (block.kind === 'markdown' && block.raw === '')), 'no cut inside the span');
    // Sentences that end before a digit or a dash are not cut there (the rest would read as a list).
    const listLike = 'Done. 1. Then more words here. - and a dash '.repeat(300);
    const pieces = split(listLike, 100);
    assert.ok(pieces.finished.length >= 2, 'cut where the next sentence starts with a letter');
    for (const block of [...pieces.finished.slice(1), pieces.open]) assert.match(block.kind === 'markdown' ? block.raw : '', /^[A-Za-z]/, 'no piece starts with a digit or a dash');
    // snake_case does not count as emphasis.
    const snake = 'The some_value field is set. '.repeat(400);
    assert.ok(split(snake, 100).finished.length >= 2, 'cut although the line names snake_case');
    // A list item written as one long line is not cut into paragraphs.
    const item = `- ${'An item that goes on. '.repeat(400)}`;
    assert.ok(split(item, 100).finished.every((block) => block.kind !== 'markdown' || block.raw.startsWith('- ')), 'no paragraph cut out of a list item');
  });

  test('the pieces of a long code block share its ordinal and info; their spans give the whole body, closed at the end', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `row ${i}`).join('\n');
    const text = `Intro\n\n\`\`\`ts src/a.ts\nfirst\n\`\`\`\n\n\`\`\`text data/long.txt\n${body}\n\`\`\`\n`;
    for (const chunk of [text.length, 97]) {
      const blocks = split(text, chunk).finished.filter((b) => b.kind === 'code');
      const long = blocks.filter((b) => b.ordinal === 1);
      assert.ok(long.length > 1, 'the long block is cut');
      assert.deepEqual([...new Set(blocks.map((b) => `${b.ordinal} ${b.info}`))], ['0 ts src/a.ts', '1 text data/long.txt']);
      assert.equal(text.slice(long[0]!.bodyStart, long.at(-1)!.end), body);
      assert.deepEqual(long.map((b) => b.closed), [...long.slice(1).map(() => false), true]);
      assert.equal(blocks[0]!.closed, true);
    }
  });
  // A long table was cut at 16 KB and the rest showed as lines of pipes: each piece now carries the header rows.
  test('a long table is cut into pieces that each carry its header rows; together they give the text', () => {
    const head = '## Files\n| # | file | change |\n|---|:---|---:|\n';
    const text = `Intro\n\n${head}${Array.from({ length: 2000 }, (_, i) => `| ${i} | src/f${i}.ts | edited |`).join('\n')}\n\nAfter`;
    const { finished, open } = split(text, 40);
    const pieces = finished.filter((b) => b.kind === 'markdown' && b.raw.startsWith('| '));
    assert.ok(pieces.length >= 10, `${pieces.length} pieces after the first`);
    for (const piece of pieces) assert.equal(piece.kind === 'markdown' && piece.tableHead, '| # | file | change |\n|---|:---|---:|\n');
    for (const block of finished) assert.ok(block.kind !== 'markdown' || block.raw.length <= MAX_MARKDOWN_BLOCK_CHARS + 64, `${block.kind === 'markdown' ? block.raw.length : 0} chars`);
    assert.equal([...finished, open].map((b) => (b.kind === 'code' ? b.code : b.raw)).join(''), text);
    assert.deepEqual(open, { kind: 'markdown', raw: 'After' });
  });

  test('a long list is cut before an item at the margin, never before an indented line that continues an item', () => {
    const items = Array.from({ length: 600 }, (_, i) => `- item ${i} with some words\n  continued under item ${i}\n    - nested ${i}`).join('\n');
    const { finished } = split(`${items}\n`, 40);
    assert.ok(finished.length >= 5, `${finished.length} blocks`);
    for (const block of finished) {
      assert.ok(block.kind === 'markdown' && block.raw.startsWith('- item '), JSON.stringify(block.kind === 'markdown' ? block.raw.slice(0, 40) : block.kind));
      assert.equal(block.kind === 'markdown' && block.tableHead, undefined);
    }
  });
});
