// The colours of the chat's code tokens from a colour theme (src/host/themeTokenColors.ts): VS Code's own Dark
// Modern and Light Modern (trimmed copies in test/fixtures/themes, read through their includes), and the
// matching rules on small themes.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { readThemeTokenColors } from '../../src/host/colorThemeFile';
import { CODE_TOKEN_KINDS, codeTokenKind } from '../../src/presentation/codeTokens';
import { codeTokenStyles, customizedTokenRules, type ThemeTokenRule } from '../../src/host/themeTokenColors';

const THEMES = join(import.meta.dirname, '..', 'fixtures', 'themes');
const readTheme = (name: string) => readThemeTokenColors(join(THEMES, name), (file) => readFile(file, 'utf8'));
const colors = (rules: ThemeTokenRule[], semantic?: Record<string, unknown>) => codeTokenStyles({ rules, ...(semantic ? { semantic } : {}) });

test("Dark Modern (through Dark+ and Dark VS): each kind takes the colour the editor gives its TextMate scope", async () => {
  const theme = await readTheme('dark_modern.json');
  assert.ok(theme);
  const styles = codeTokenStyles(theme);
  const expected: Record<string, string | null> = {
    keyword: '#569cd6',
    string: '#ce9178',
    comment: '#6a9955',
    number: '#b5cea8',
    'title.function': '#dcdcaa',
    'title.class': '#4ec9b0',
    type: '#4ec9b0',
    'variable.constant': '#4fc1ff',
    built_in: '#dcdcaa',
    attr: '#9cdcfe',
    meta: '#569cd6',
    regexp: '#d16969',
    'char.escape': '#d7ba7d',
    'selector-id': '#d7ba7d',
    punctuation: null,
  };
  for (const [scope, color] of Object.entries(expected)) assert.equal(styles[scope]?.color, color, scope);
  assert.deepEqual(styles.section, { color: '#569cd6', fontStyle: 'bold' });
  assert.deepEqual(styles.emphasis, { color: null, fontStyle: 'italic' });
  assert.deepEqual(Object.keys(styles).sort(), CODE_TOKEN_KINDS.map((k) => k.scope).sort(), 'every kind has a verdict');
});

test('Light Modern differs where the light theme does', async () => {
  const theme = await readTheme('light_modern.json');
  assert.ok(theme);
  const styles = codeTokenStyles(theme);
  assert.equal(styles.keyword?.color, '#0000ff');
  assert.equal(styles.string?.color, '#a31515');
  assert.equal(styles.comment?.color, '#008000');
  assert.equal(styles['title.function']?.color, '#795e26');
});

test('the most specific selector wins whatever its place; on a tie the later rule; colour and font style each on their own', () => {
  const styles = colors([
    { scope: 'entity.name.function', settings: { foreground: '#111111' } },
    { scope: 'entity.name', settings: { foreground: '#222222', fontStyle: 'italic' } },
    { scope: 'entity', settings: { foreground: '#333333' } },
    { scope: 'comment', settings: { foreground: '#444444' } },
    { scope: 'comment', settings: { foreground: '#555555' } },
    { scope: 'comment', settings: { fontStyle: 'bold italic' } },
  ]);
  assert.deepEqual(styles['title.function'], { color: '#111111', fontStyle: 'italic' });
  assert.deepEqual(styles.comment, { color: '#555555', fontStyle: 'italic bold' });
});

test('a selector covers its sub-scopes only at a dot; selector lists, descendant selectors and exclusions', () => {
  const styles = colors([
    { scope: 'str', settings: { foreground: '#000001' } },
    { scope: 'source.ts keyword', settings: { foreground: '#000002' } },
    { scope: 'keyword - keyword.operator', settings: { foreground: '#000003' } },
    { scope: ' variable.parameter , constant.numeric ', settings: { foreground: '#000004' } },
    { scope: ['storage.type', 7], settings: { foreground: '#000005' } },
  ]);
  assert.equal(styles.string?.color, null, '`str` is not a prefix of `string` at a dot');
  assert.equal(styles.keyword?.color, '#000003', 'the descendant selector needs a parent scope; the exclusion leaves keyword itself');
  assert.equal(styles.operator?.color, null, 'keyword.operator is excluded');
  assert.equal(styles.params?.color, '#000004');
  assert.equal(styles.number?.color, '#000004');
});

test('a kind takes its next TextMate scope, then the semantic colours, when the first says nothing; bad values are ignored', () => {
  const styles = colors(
    [
      { scope: 'storage.type', settings: { foreground: '#00aa00' } },
      { scope: 'string', settings: { foreground: 'red' } },
      { scope: 'comment', settings: 'nope' },
    ],
    { function: { foreground: '#123456', italic: true }, string: '#654321', comment: 'blue' },
  );
  assert.equal(styles.keyword?.color, '#00aa00', 'keyword has no rule: storage.type stands in');
  assert.deepEqual(styles['title.function'], { color: '#123456', fontStyle: 'italic' });
  assert.equal(styles.string?.color, '#654321', 'a colour name is not a theme colour');
  assert.equal(styles.comment?.color, null);
});

test('sub-scopes of the highlighter take the nearest kind', () => {
  assert.equal(codeTokenKind('title.function.invoke')?.scope, 'title.function');
  assert.equal(codeTokenKind('title.class.inherited')?.scope, 'title.class.inherited');
  assert.equal(codeTokenKind('meta.prompt')?.scope, 'meta');
  assert.equal(codeTokenKind('language:xml'), undefined);
  assert.equal(codeTokenKind('unknown'), undefined);
});

test("the user's token colour customizations come after the theme's rules, a block for the theme last", async () => {
  const theme = await readTheme('dark_modern.json');
  assert.ok(theme);
  const customizations = {
    comments: '#ff0000',
    strings: { foreground: '#00ff00', fontStyle: 'italic' },
    textMateRules: [{ scope: 'constant.numeric', settings: { foreground: '#0000ff' } }],
    '[Default Dark Modern]': { comments: '#ff00ff' },
    '[Default Light Modern]': { comments: '#abcdef' },
  };
  const styles = codeTokenStyles({ rules: [...theme.rules, ...customizedTokenRules(customizations, ['Default Dark Modern'])] });
  assert.equal(styles.comment?.color, '#ff00ff');
  assert.deepEqual(styles.string, { color: '#00ff00', fontStyle: 'italic' });
  assert.equal(styles.number?.color, '#0000ff');
  assert.equal(styles.keyword?.color, '#569cd6', 'what is not customized keeps the theme colour');
  assert.deepEqual(customizedTokenRules(undefined, []), []);
});

test('theme files: JSONC with trailing commas, includes relative to the including file, own rules after included ones; a .tmTheme or a loop reads nothing', async () => {
  const files: Record<string, string> = {
    '/ext/themes/mine.json': '{ "include": "./base/base.json", "tokenColors": [{ "scope": "comment", "settings": { "foreground": "#222222" } },], /* mine */ }',
    '/ext/themes/base/base.json': '{ "tokenColors": [{ "scope": "comment", "settings": { "foreground": "#111111" } }], "semanticTokenColors": { "function": "#333333", "type": "#444444" } }',
    '/ext/themes/mine-semantic.json': '{ "include": "./base/base.json", "semanticTokenColors": { "function": "#555555" } }',
    '/ext/themes/tm.json': '{ "tokenColors": "./mine.tmTheme" }',
    '/ext/themes/loop.json': '{ "include": "./loop.json" }',
    '/ext/themes/broken.json': '{ "tokenColors": [ }',
  };
  const read = (file: string) => (file in files ? Promise.resolve(files[file]!) : Promise.reject(new Error(`no ${file}`)));
  const mine = await readThemeTokenColors('/ext/themes/mine.json', read);
  assert.equal(mine?.rules.length, 2);
  assert.equal(codeTokenStyles(mine!).comment?.color, '#222222');
  const semantic = await readThemeTokenColors('/ext/themes/mine-semantic.json', read);
  assert.deepEqual(semantic?.semantic, { function: '#555555', type: '#444444' });
  assert.equal(await readThemeTokenColors('/ext/themes/tm.json', read), undefined);
  assert.equal(await readThemeTokenColors('/ext/themes/loop.json', read), undefined);
  await assert.rejects(readThemeTokenColors('/ext/themes/broken.json', read), /not a colour theme/);
  await assert.rejects(readThemeTokenColors('/ext/themes/missing.json', read), /no \/ext/);
});
