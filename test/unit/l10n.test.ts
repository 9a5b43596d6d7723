// Localisation holds (issue 22): every word the extension shows can be translated. The source test reads
// src/ with the TypeScript compiler API (test/unit/support/unlocalisedText.ts says what it looks for); the
// manifest test holds package.json's contributed texts to `%key%`s that package.nls.json has.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { L10N_ELEMENT_ID, parseL10nBundle, t, useL10nBundle } from '../../src/presentation/l10n';
import { buildChatHtml } from '../../src/webviews/chatHtml';
import { manifestTexts, placeholderKey, rawManifest } from './support/manifest';
import { BUNDLE_PATH, englishBundle, sourceFiles as sourceFilesUnder } from './support/l10nBundle';
import { translatedMessages, unlocalisedText, untranslatedPhrases, untranslatedTemplateText, type Finding } from './support/unlocalisedText';

const root = join(import.meta.dirname, '../..');

/**
 * Folders whose text is not the extension's UI: the demo agent is an agent (its words are an agent's output),
 * the CLI writes to a terminal, and src/acp speaks the wire (its `title`s are protocol data).
 */
const NOT_UI = ['src/demoAgent/', 'src/cli/', 'src/acp/'];

const sourceFiles = (dir: string) => sourceFilesUnder(root, dir);

/** A finding that is no word to translate, and why. */
type NotWord = { readonly file: string; readonly text: string; readonly why: string };

/**
 * Files of the UI folders that make no words for the extension's UI: the wire's own vocabulary (directions,
 * method names), the `subchats replay` report, which the CLI prints to a terminal, and the chat's HTML page
 * (markup; its words come from the webview), and the relay text, which is a prompt for the agent to read.
 */
const NOT_UI_FILES = ['src/store/wireMessage.ts', 'src/store/requestLedger.ts', 'src/store/replayReport.ts', 'src/webviews/chatHtml.ts', 'src/protocol/relayText.ts'];
/**
 * Phrases the phrase rule finds that are not words to translate, each with why. A new entry needs a reason a
 * reviewer agrees with: English the product shows belongs in t().
 */
const NOT_WORDS: readonly NotWord[] = [
  { file: 'src/store/subagentDialects.ts', text: 'Gemini CLI', why: 'a product name' },
  { file: 'src/store/recordKeeper.ts', text: 'more than … diagnostics; the rest are not kept', why: 'a diagnostic: a log line for the output channel and `subchats replay`' },
  // Problems with the subchats.agents setting and dropped registry entries go to the output channel only.
  { file: 'src/host/agentPresets.ts', text: 'subchats.agents must be a list', why: 'a log line' },
  { file: 'src/host/agentPresets.ts', text: 'entry is not an object', why: 'a log line' },
  { file: 'src/host/agentPresets.ts', text: 'entry needs a non-empty "id" and "command"', why: 'a log line' },
  { file: 'src/host/registry/registryFormat.ts', text: 'no "id"', why: 'a log line' },
  { file: 'src/host/registry/registryFormat.ts', text: 'no npx, uvx or binary distribution Subchats can read', why: 'a log line' },
  { file: 'src/host/registry/registryFormat.ts', text: 'the same id again', why: 'a log line' },
  { file: 'src/history/sessionHistory.ts', text: 'history …: unreadable metadata (…); skipped', why: 'a log line' },
  { file: 'src/history/sessionHistory.ts', text: 'history …: could not rotate (…)', why: 'a log line' },
];

/**
 * What the webview rules find in webview/ that is not words to translate, each with why (the same bar as
 * NOT_WORDS: English the chat shows belongs in t()). Codicon names, CSS and symbols (…, ↳, ⋯, →) are no finding
 * to begin with: the template rule looks for letters, and only in text and in title, aria-label,
 * placeholder and alt values.
 */
const WEBVIEW_NOT_WORDS: readonly NotWord[] = [
  { file: 'webview/lib/codeTokenStyles.ts', text: '.… { color: var(…, …currentcolor…); font-style: var(…-font-style, normal); font-weight: var(…-font-weight, normal); text-decoration: var(…-text-decoration, none); }', why: 'a CSS rule' },
];

/** No finding but the allow-list's, and no allow-list entry that finds nothing any more. */
function assertOnlyAllowed(findings: readonly Finding[], notWords: readonly NotWord[]): void {
  const allowed = (f: Finding) => notWords.some((word) => word.file === f.file && word.text === f.text);
  assert.deepEqual(findings.filter((f) => !allowed(f)).map((f) => `${f.file}:${f.line} ${f.rule}: ${f.text}`), []);
  const stale = notWords.filter((word) => !findings.some((f) => f.file === word.file && f.text === word.text));
  assert.deepEqual(stale, [], 'allow-list entries that match nothing any more');
}

describe('words in the source', () => {
  test('every word the chat webview writes into its Lit templates (text, title, aria-label, placeholder, alt) goes through t, and every phrase it hands on too', () => {
    const files = sourceFiles('webview');
    assert.ok(files.length > 40, `read ${files.length} files`);
    const findings = files.flatMap((file) => {
      const source = readFileSync(join(root, file), 'utf8');
      return [...untranslatedTemplateText(file, source), ...untranslatedPhrases(file, source), ...unlocalisedText(file, source)];
    });
    assertOnlyAllowed(findings, WEBVIEW_NOT_WORDS);
  });

  test('the template rule finds words in Lit templates and passes translated ones, bindings, codicons and symbols', () => {
    const probe = `
      import { html, svg } from 'lit';
      import { t } from '../../src/presentation';
      export function view(open: boolean, name: string, el: HTMLElement) {
        el.setAttribute('aria-label', 'Code actions');
        el.setAttribute('aria-label', t('Code actions'));
        el.setAttribute('role', 'toolbar');
        return html\`<div class="sc-row sc-muted" title="Latest activity" aria-label=\${t('Plan')} data-kind="tool call">
          \${codicon('loading codicon-modifier-spin')} Still waiting…
          <button @click=\${() => undefined} aria-label=\${\`Remove \${name}\`} title=\${open ? 'Hide' : t('Show')}>\${t('Retry')}</button>
          <img alt='An image' src=\${name}> <input placeholder=Search .placeholder=\${name}>
          <!-- a comment with words --> ⋯ ↳ → &nbsp; \${open ? 'Hide' : 'Show'} the patch
          \${svg\`<title>\${name} \${open ? 'now' : ''}</title>\`}
        </div>\`;
      }`;
    const found = untranslatedTemplateText('probe.ts', probe).map((f) => `${f.line} ${f.rule}: ${f.text}`);
    assert.deepEqual(found, [
      '5 setAttribute aria-label: Code actions',
      '10 aria-label attribute binding: Remove',
      '10 title attribute binding: Hide',
      '12 text between tags binding: Hide',
      '12 text between tags binding: Show',
      '8 title attribute: Latest activity',
      '8 alt attribute: An image',
      '8 placeholder attribute: Search',
      '8 text between tags: Still waiting…',
      '8 text between tags: the patch',
      '13 text between tags binding: now',
    ]);
  });

  test('every word src/ hands to VS Code UI goes through vscode.l10n.t or the pure layers\' t, at run time', () => {
    const files = sourceFiles('src').filter((file) => !NOT_UI.some((dir) => file.startsWith(dir)));
    assert.ok(files.length > 100, `read ${files.length} files`);
    const findings = files.flatMap((file) => unlocalisedText(file, readFileSync(join(root, file), 'utf8')));
    assert.deepEqual(findings.map((f) => `${f.file}:${f.line} ${f.rule}: ${f.text}`), []);
  });

  // The words of the pure layers (presentation, store) and of host helpers reach the tree, the chat and
  // notifications far from any VS Code call, so this rule looks at where a phrase goes instead.
  test('every phrase src/ returns, pushes or gives a shown name (label, reason, notice…) goes through t or vscode.l10n.t', () => {
    const files = sourceFiles('src').filter((file) => !NOT_UI.some((dir) => file.startsWith(dir)) && !NOT_UI_FILES.includes(file));
    assert.ok(files.length > 150, `read ${files.length} files`);
    const findings = files.flatMap((file) => untranslatedPhrases(file, readFileSync(join(root, file), 'utf8')));
    assertOnlyAllowed(findings, NOT_WORDS);
  });

  test('the phrase rule finds each way a pure layer hands on English, and passes translated words and ids', () => {
    const probe = `
      import { t } from './l10n';
      const denied = (reason: string) => ({ allowed: false, reason });
      export function words(name: string, n: number, lines: string[]) {
        const title = \`Chat with \${name}\`;
        const notice = { text: 'No news yet', icon: 'bell', stopReason: 'end_turn', summary: t('All done') };
        lines.push(\`\${n} tool calls\`, t('{0} tool calls', n), 'agent->client');
        refusal ??= n > 1 ? 'Not now' : t('Later');
        if (n === 0) return denied('Nothing to cancel here.');
        if (n === 1) return denied(t('Nothing to cancel here.'));
        return n > 2 ? 'Waiting for you' : 'agent-started';
      }
      export const word = (on: boolean) => (on ? 'in the background' : 'session/load');
      export const id = () => 'end_turn';`;
    const found = untranslatedPhrases('probe.ts', probe).map((f) => `${f.line} ${f.rule}: ${f.text}`);
    assert.deepEqual(found, [
      '5 title variable: Chat with …',
      '6 text property: No news yet',
      '7 pushed: … tool calls',
      '8 refusal assignment: Not now',
      '9 denied argument reason: Nothing to cancel here.',
      '11 returned: Waiting for you…agent-started',
      '13 returned: in the background…session/load',
    ]);
  });

  test('the scan finds each kind of unlocalised word, and passes translated ones', () => {
    const probe = `
      import * as vscode from 'vscode';
      import { t } from '../presentation';
      const atLoad = t('Loaded too early');
      export async function run(item: vscode.StatusBarItem, view: vscode.TreeView<unknown>, name: string, n: number) {
        void vscode.window.showWarningMessage(\`Subchats: \${name} stopped\`, 'Retry');
        void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: {0} stopped', name), vscode.l10n.t('Retry'));
        await vscode.window.showQuickPick([{ label: 'Pick me', detail: n > 1 ? 'many' : 'one' }], { placeHolder: 'Which one?' });
        await vscode.window.showQuickPick([{ label: \`$(check) \${name}\`, description: vscode.l10n.t('picked') }], { placeHolder: t('Which one?') });
        await vscode.window.showInputBox({ prompt: 'Prompt for ' + name, title: t('Title') });
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: \`Starting \${name}…\` }, async () => undefined);
        await vscode.window.showSaveDialog({ filters: { Markdown: ['md'], [vscode.l10n.t('All files')]: ['*'] } });
        vscode.window.createWebviewPanel('x', 'Chat', vscode.ViewColumn.One);
        item.text = \`$(bell) \${n} waiting\`;
        item.tooltip = t('{0} waiting', n);
        view.message = 'Nothing here';
        return [new vscode.TreeItem('(gone)'), new vscode.TreeItem(vscode.l10n.t('(gone)')), new vscode.MarkdownString(\`**\${name}**\`), atLoad];
      }`;
    const found = unlocalisedText('probe.ts', probe).map((f) => `${f.line} ${f.rule}: ${f.text}`);
    assert.deepEqual(found, [
      "4 translated while the module loads: t('Loaded too early')",
      '6 showWarningMessage argument: Subchats: … stopped',
      '6 showWarningMessage argument: Retry',
      '8 label property: Pick me',
      '8 detail property: many…one',
      '8 placeHolder property: Which one?',
      '10 prompt property: Prompt for ',
      '11 title property: Starting ',
      '12 dialog filter name: Markdown',
      '13 createWebviewPanel argument 1: Chat',
      '14 text assignment:  waiting',
      '16 message assignment: Nothing here',
      '17 TreeItem argument 0: (gone)',
    ]);
  });

  test('t fills placeholders as vscode.l10n.t does, and reads the bundle the host hands over', () => {
    assert.equal(t('{0} of {1} ({0})', 'a', 2), 'a of 2 (a)');
    assert.equal(t('{1} left alone', 'a'), '{1} left alone');
    // Agent text in an argument is put in as it is, never read as a placeholder or a replacement pattern.
    assert.equal(t('{0} then {1}', '{1} $& $1', 'x'), '{1} $& $1 then x');
    assert.equal(t('{0}{0}', 'ab'), 'abab');
    assert.equal(t('{x} {} {0', 'a'), '{x} {} {0', 'only {digits} is a placeholder');
    try {
      useL10nBundle({ 'Needs you': 'Wartet auf dich', '{0} sessions': '{0} Sitzungen' });
      assert.equal(t('Needs you'), 'Wartet auf dich');
      assert.equal(t('{0} sessions', 3), '3 Sitzungen');
      assert.equal(t('Idle'), 'Idle', 'a message the bundle lacks stays English');
    } finally {
      useL10nBundle(undefined);
    }
    assert.equal(t('Needs you'), 'Needs you');
  });
});

describe('the chat page hands the bundle to the webview', () => {
  const page = (language: string, l10nBundle?: Record<string, string>) =>
    buildChatHtml({ cspSource: 'https://webview', nonce: 'n0nce', scriptUri: 'https://webview/webview.js', codiconsUri: 'https://webview/codicon.css', title: 'Subchats', language, l10nBundle });
  /** The text of the bundle's data element, as the browser's parser ends it: at the first `</script`. */
  const dataText = (html: string) => new RegExp(`<script type="application/json" id="${L10N_ELEMENT_ID}" nonce="n0nce">([\\s\\S]*?)</script`, 'i').exec(html)?.[1];

  test('as a JSON data element no message can break out of, read back whole', () => {
    const hostile = { 'Send': 'Senden', '</script><script>alert(1)</script>': '<!-- </SCRIPT> -->', 'constructor': 'Konstruktor' };
    const html = page('de', hostile);
    assert.match(html, /<html lang="de">/);
    const text = dataText(html);
    assert.ok(text !== undefined, 'the page has the data element');
    assert.doesNotMatch(text, /</, 'no tag or comment can start inside it');
    assert.deepEqual({ ...parseL10nBundle(text) }, hostile);
    assert.equal(html.match(/<script/g)?.length, 3, 'the load guard, the data element and the bundle, nothing else');
  });

  test('without a bundle the page has no data element, and the language is escaped', () => {
    const html = page('"><script>');
    assert.equal(dataText(html), undefined);
    assert.match(html, /<html lang="&#34;&#62;&#60;script&#62;">/);
  });

  test('the webview takes only a flat object of strings of bounded size, else English', () => {
    for (const text of [undefined, null, '', 'not json', '[]', '"Send"', 'null', '{"Send": 1}', '{"Send": {"nested": "x"}}', `{"a": "${'x'.repeat(2_000_001)}"}`]) {
      assert.equal(parseL10nBundle(text), undefined, String(text).slice(0, 40));
    }
    const bundle = parseL10nBundle('{"Send": "Senden", "__proto__": "Prototyp"}');
    assert.equal(bundle?.['Send'], 'Senden');
    assert.equal(bundle?.['__proto__'], 'Prototyp', 'an own message, not the prototype');
    assert.equal(bundle?.['toString'], undefined, 'no inherited members');
  });
});

describe('the English bundle', () => {
  test(`${BUNDLE_PATH} lists every message the sources translate (after changing words: node --import tsx scripts/l10n-export.mjs)`, () => {
    const { text, unlisted } = englishBundle(root);
    assert.deepEqual(unlisted.map((f) => `${f.file}:${f.line} ${f.rule}: ${f.text}`), [], 'translations no bundle can list');
    assert.ok(Object.keys(JSON.parse(text) as object).length > 300, 'the scan found the messages');
    assert.equal(readFileSync(join(root, BUNDLE_PATH), 'utf8'), text, `${BUNDLE_PATH} is out of date: run node --import tsx scripts/l10n-export.mjs`);
  });

  test('the bundle scan lists t and vscode.l10n.t messages in order, and flags a message that is not a literal', () => {
    const probe = `
      import * as vscode from 'vscode';
      export function run(reason: string, n: number) {
        vscode.window.showInformationMessage(vscode.l10n.t('Subchats: {0} stopped', reason), vscode.l10n.t(\`Retry\`));
        return [t('{0} waiting', n), t(reason), vscode.l10n.t(\`\${n} left\`), other('Not a translation')];
      }`;
    const { messages, unlisted } = translatedMessages('probe.ts', probe);
    assert.deepEqual(messages, ['Subchats: {0} stopped', 'Retry', '{0} waiting']);
    assert.deepEqual(unlisted.map((f) => `${f.line} ${f.rule}: ${f.text}`), ['5 message is not a literal: t(reason)', '5 message is not a literal: vscode.l10n.t(`${n} left`)']);
  });
});

/** Keys of package.json whose string values VS Code shows (the top-level `name` is the package's id, not one of them). */
const SHOWN_KEYS = new Set(['displayName', 'description', 'title', 'shortTitle', 'category', 'contextualTitle', 'contents', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage', 'enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels', 'label']);

/** Every shown string in the manifest with where it is: `[path, value]`. */
function shownStrings(value: unknown, path: string[] = []): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => shownStrings(item, [...path, String(i)]));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]): [string, unknown][] => {
    const at = [...path, key];
    // A view's `name` is its title; snippets' `body` is what they insert.
    const shown = SHOWN_KEYS.has(key) || (key === 'name' && path[1] === 'views');
    if (key === 'body' || key === 'scripts' || key === 'keywords') return [];
    if (shown && typeof child === 'string') return [[at.join('.'), child]];
    if (shown && Array.isArray(child) && child.every((item) => typeof item === 'string')) return child.map((item, i): [string, unknown] => [[...at, String(i)].join('.'), item]);
    return shownStrings(child, at);
  });
}

describe('package.json', () => {
  test('every contributed title, name and description is a %key% of package.nls.json', () => {
    const shown = shownStrings(rawManifest());
    assert.ok(shown.length > 80, `found ${shown.length} shown strings`);
    assert.deepEqual(shown.filter(([, value]) => placeholderKey(value) === undefined).map(([path]) => path), []);
  });

  test('package.nls.json has every key package.json names, and no other', () => {
    const used = new Set(shownStrings(rawManifest()).map(([, value]) => placeholderKey(value)!));
    const written = Object.keys(manifestTexts());
    assert.deepEqual([...used].filter((key) => !written.includes(key)), [], 'keys without an English text');
    assert.deepEqual(written.filter((key) => !used.has(key)), [], 'texts no contribution shows');
  });
});
