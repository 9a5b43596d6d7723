// Hostile agent content: nothing in messages, titles, diffs, terminal output or links may execute or style
// the page. Payloads set window.__pwned if they run; a CSP listener records anything the browser blocked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeedLink } from './feedLink';
import { showHeaderDetails } from './headerDetails';
import { useHarness } from './harness';
import { withPendingPermission } from './scenes';
import { SceneWire } from './wireScenes';

const PAYLOADS = [
  `<script>window.__pwned='script'</script>`,
  `<img src=x onerror="window.__pwned='img'">`,
  `<img src="http://127.0.0.1:1/tracker.png">`,
  `[click me](javascript:window.__pwned='md-link')`,
  `<a href="javascript:window.__pwned='a-link'">html link</a>`,
  `<a href="data:text/html,<script>window.__pwned='data'</script>">data link</a>`,
  `<svg onload="window.__pwned='svg'"><script>window.__pwned='svg-script'</script><a xlink:href="javascript:window.__pwned=1">s</a></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned='mxss'">`,
  `<iframe srcdoc="<script>parent.__pwned='iframe'</script>"></iframe>`,
  `<object data="javascript:window.__pwned='object'"></object><embed src="javascript:window.__pwned='embed'">`,
  `<form action="javascript:window.__pwned='form'"><button>submit</button></form>`,
  `<details open ontoggle="window.__pwned='toggle'">d</details>`,
  `<style>body { display: none !important } * { background: red !important }</style>`,
  `<div style="position:fixed;inset:0;background:red;z-index:9999">overlay</div>`,
  `<link rel="stylesheet" href="http://127.0.0.1:1/evil.css"><meta http-equiv="refresh" content="0;url=javascript:window.__pwned='meta'">`,
  `<div id="__posted" name="acquireVsCodeApi">clobber</div>`,
  '```html\n<script>window.__pwned="code"</script>\n```',
].join('\n\n');

const TERMINAL_PAYLOAD =
  `\x1b]8;;javascript:window.__pwned='osc8'\x07link\x1b]8;;\x07 <script>window.__pwned='term'</script> ` +
  `\x1b[38;2;255;0;0mred\x1b[0m \x1b[38;2;x;url(javascript:1)m <img src=x onerror="window.__pwned='term-img'">\n`;

const harness = useHarness();

function hostileScene(): SceneWire {
  const w = new SceneWire().root('root', `<img src=x onerror="window.__pwned='title'">Root`);
  w.prompt('root', PAYLOADS, [
    { type: 'resource_link', name: '<b>link</b>', uri: `javascript:window.__pwned='resource'` },
    { type: 'image', mimeType: 'image/svg+xml', data: btoa(`<svg onload="window.__pwned='image'"/>`) },
    { type: 'image', mimeType: 'image/png', data: `x" onerror="window.__pwned='attr'` },
  ]);
  w.say('root', 'agent', PAYLOADS).say('root', 'thought', PAYLOADS);
  w.plan('root', [{ content: PAYLOADS, status: 'pending' }]);
  w.toolCall('root', 'tc', {
    title: `<script>window.__pwned='tool-title'</script>`,
    kind: `"><img src=x onerror="window.__pwned='kind'">`,
    status: `<svg onload="window.__pwned='status'">`,
    locations: [{ path: `<img src=x onerror="window.__pwned='loc'">`, line: 1 }],
    content: [
      { type: 'content', content: { type: 'text', text: PAYLOADS } },
      { type: 'diff', path: `<script>window.__pwned='path'</script>`, oldText: PAYLOADS, newText: `${PAYLOADS}\n<b>new</b>` },
      { type: 'terminal', terminalId: 'term' },
    ],
    rawInput: { html: PAYLOADS },
  });
  w.terminal('root', 'term', { command: `<script>window.__pwned='cmd'</script>`, output: TERMINAL_PAYLOAD });
  w.child('root', 'child', { title: `<svg onload="window.__pwned='child-title'">`, description: PAYLOADS });
  w.say('child', 'agent', PAYLOADS);
  w.sessionMessage('root', 'sm', { senderSessionId: 'root', recipientSessionId: 'child', text: PAYLOADS });
  w.notice('root', `<img src=x onerror="window.__pwned='sev'">`, PAYLOADS, PAYLOADS);
  return withPendingPermission(w, 'root', { rawInput: { command: PAYLOADS } }, { title: PAYLOADS });
}

test('hostile content in every field renders as inert text and never executes', async () => {
  const chat = await harness().openChat({ height: 3000 });
  const link = await FeedLink.showing(chat, hostileScene().store, 'root');
  const { page } = chat;
  await page.locator('subchats-permission').waitFor();

  // Open everything that renders lazily: thoughts, tool call bodies, raw input, diffs, the child chat.
  await page.locator('details.sc-thought > summary').click();
  await page.getByRole('button', { name: /^Expand tool call/ }).click();
  await page.getByRole('button', { name: /Show raw input/ }).click();
  await page.getByRole('button', { name: /^Show changes in/ }).click();
  await page.getByRole('button', { name: /^Expand subagent/ }).click();
  await page.locator('subchats-child-card subchats-transcript subchats-message').waitFor();

  // Click every link the agent supplied: none may run script; only safe URLs reach the host.
  for (const anchor of await page.locator('subchats-markdown a').all()) await anchor.click({ force: true });
  await showHeaderDetails(page);
  await page.getByRole('button', { name: '<b>link</b>' }).click();

  const report = await page.evaluate(() => {
    const app = document.querySelector('subchats-app');
    return {
      scripts: app?.querySelectorAll('script').length,
      frames: [...(app?.querySelector('main')?.querySelectorAll('iframe, object, embed, form, link, meta, style, svg, math') ?? [])].map((el) => el.outerHTML.slice(0, 200)),
      handlers: [...(app?.querySelectorAll('*') ?? [])].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
      styledMarkdown: document.querySelectorAll('subchats-markdown [style]').length,
      idsOrNames: document.querySelectorAll('subchats-markdown [id], subchats-markdown [name]').length,
      badHrefs: [...document.querySelectorAll('subchats-markdown a[href]')].filter((a) => !/^https?:|^mailto:/.test(a.getAttribute('href') ?? '')).length,
      imgs: [...document.querySelectorAll('subchats-app img')].map((img) => img.getAttribute('src')?.slice(0, 22)),
      bodyDisplay: getComputedStyle(document.body).display,
      acquireType: typeof (window as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi,
    };
  });
  assert.deepEqual(report, {
    scripts: 0,
    frames: [],
    handlers: 0,
    styledMarkdown: 0,
    idsOrNames: 0,
    badHrefs: 0,
    imgs: [],
    bodyDisplay: 'block',
    acquireType: 'function',
  });
  // Agent markup is visible as text where it is not markdown (titles, terminal, diffs).
  await page.getByText(`<script>window.__pwned='tool-title'</script>`).first().waitFor();
  assert.match((await page.locator('pre.sc-terminal').textContent()) ?? '', /link <script>window.__pwned='term'<\/script> red ;url\(javascript:1\)m <img/);
  assert.equal(await page.locator('pre.sc-terminal span').first().evaluate((el) => (el as HTMLElement).style.color), 'rgb(255, 0, 0)');

  const links = (await chat.posted()).filter((m) => m.type === 'openLink');
  assert.deepEqual(links, []);
  assert.equal(await chat.pwned(), false);
  assert.deepEqual(await chat.cspViolations(), []);
  assert.deepEqual(chat.pageErrors, []);
  await chat.close();
});

test('agent links and paths open nothing but a local file through the host: command, network, UNC and `..` escapes stay inert', async () => {
  const chat = await harness().openChat();
  const w = new SceneWire().root('root', 'Root');
  w.say('root', 'agent', [
    '[run](command:workbench.action.files.newUntitledFile)',
    '[share](file://server/share/x.txt)',
    '[unc](//server/share/x.txt)',
    '`\\\\server\\share\\x.txt`',
    '[scheme](vscode://file/etc/passwd)',
    '[escape](/repo/../etc/passwd) and `/repo/../../etc/shadow`',
    'the one real file: `/repo/ok.ts`',
  ].join('\n\n'));
  w.endTurn('root');
  await FeedLink.showing(chat, w.store, 'root', { folders: [{ name: 'repo', path: '/repo' }], home: '/home/ann' });
  const answer = chat.page.locator('subchats-markdown').first();
  await answer.getByText('the one real file').waitFor();
  for (const anchor of await answer.locator('a').all()) await anchor.click({ force: true });
  for (const inert of await answer.locator('span.sc-path').all()) await inert.click({ force: true });
  assert.deepEqual(await answer.getByRole('button').allTextContents(), ['ok.ts'], 'only the file in the workspace is a button');
  assert.equal(await answer.locator('[href]').count(), 0);
  assert.deepEqual((await chat.posted()).filter((m) => m.type === 'openFile' || m.type === 'openLink'), []);
  await chat.close();
});

/** A root session with one agent-supplied tool call. */
function rootWithToolCall(toolCall: Record<string, unknown>): SceneWire {
  return new SceneWire().root('root', 'Root').toolCall('root', 'tc', toolCall);
}

test('diffs whose fields are not strings render what is valid; the tool call and the rest of the chat survive', async () => {
  const chat = await harness().openChat();
  const errors: string[] = [];
  chat.page.on('pageerror', (error) => errors.push(error.message));
  const scene = rootWithToolCall({
    title: 'Edit files',
    kind: 'edit',
    status: 'completed',
    content: [
      { type: 'diff', path: 'a.ts', oldText: 'a\n', newText: { evil: true } },
      { type: 'diff', path: 'b.ts', oldText: 42, newText: 'b\n' },
      { type: 'diff', path: ['c.ts'], oldText: null, newText: 'c\n' },
      { type: 'diff', path: 'ok.ts', oldText: 'x\n', newText: 'y\n' },
    ],
  });
  scene.say('root', 'agent', 'still here');
  await FeedLink.showing(chat, scene.store, 'root');
  const { page } = chat;
  await page.getByText('still here').waitFor();
  await page.getByRole('button', { name: 'Show changes in ok.ts' }).click();
  await page.getByRole('button', { name: 'Hide changes in ok.ts' }).waitFor();
  const shown = await page.locator('subchats-diff').allInnerTexts();
  assert.equal(shown.length, 2, `only the valid diffs render (b.ts shows as a new file): ${shown.join(' | ')}`);
  assert.ok(shown.some((t) => t.includes('b.ts')) && shown.some((t) => t.includes('ok.ts')));
  assert.deepEqual(errors, []);
});

test('bidi controls in a diff path and a tool title are shown as visible markers, not obeyed', async () => {
  const chat = await harness().openChat();
  const scene = rootWithToolCall({
    title: 'Edit invoice\u202Efdp.exe',
    kind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: 'src/\u2066evil\u2069\u202Ets.js', oldText: 'a\n', newText: 'b\n' }],
  });
  await FeedLink.showing(chat, scene.store, 'root');
  const { page } = chat;
  await page.locator('subchats-diff').waitFor();
  const texts = await page.locator('subchats-tool-call').allInnerTexts();
  const all = texts.join('\n');
  assert.doesNotMatch(all, /[\u202a-\u202e\u2066-\u2069]/, 'no bidi control reaches the page text');
  assert.match(all, /invoice⟪U\+202E⟫fdp\.exe/);
  assert.match(all, /src\/⟪U\+2066⟫evil⟪U\+2069⟫⟪U\+202E⟫ts\.js/);
});
