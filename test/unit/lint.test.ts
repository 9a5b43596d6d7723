// The lint rules that hold the layers (LAYERS in eslint.config.mjs) really report a violation, in every import
// form (static, type-only, `export … from`, `import()`, `require()`, `import x = require()`) and at any folder
// depth. Typed linting needs each file inside a tsconfig project, so the probes are real files, written before
// the first lint (the projects are read then) and removed afterwards, nested folders included.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '../..');
const deep = '__lintProbeDeep/a/b/c';

const probes = {
  storeVscodeStatic: ['src/store/__lintProbe1.ts', "import * as vscode from 'vscode';\nexport const api = vscode.version;\n",
  ],
  storeVscodeRequire: [
    'src/store/__lintProbe2.ts',
    "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const api: unknown = require('vscode');\n",
  ],
  storeVscodeDynamic: ['src/store/__lintProbe3.ts', "export async function api(): Promise<unknown> {\n  return import('vscode');\n}\n"],
  storeVscodeImportEquals: [
    'src/store/__lintProbe4.ts',
    "// eslint-disable-next-line @typescript-eslint/no-require-imports\nimport vscode = require('vscode');\nexport const api = vscode.version;\n",
  ],
  storeVscodeDeep: [`src/store/${deep}/__lintProbe.ts`, "import type * as vscode from 'vscode';\nexport type Api = typeof vscode;\n"],
  storeReExportsHost: [`src/store/${deep}/__lintProbeExport.ts`, "export { isExternalLink } from '../../../../../host/externalLinks';\n"],
  acpVscodeDynamic: ['src/acp/__lintProbeVscode.ts', "export async function api(): Promise<unknown> {\n  return import('vscode');\n}\n"],
  webviewHostDeep: [
    `webview/${deep}/__lintProbe.ts`,
    "import type { SessionStore } from '../../../../../src/store/sessionStore';\nexport type Store = SessionStore;\n",
  ],
  webviewNode: ['webview/components/__lintProbeNode.ts', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n"],
  webviewProtocol: [
    'webview/components/__lintProbeClean.ts',
    "import { html } from 'lit';\nimport type { ToolCallRecord } from '../../src/protocol/transcript';\n" +
      'export const view = (call: ToolCallRecord) => html`${call.title}`;\n',
  ],
  protocolStore: ['src/protocol/__lintProbe.ts', "import type { SessionRecord } from '../store/model';\nexport type M = SessionRecord;\n"],
  hostImportsWebviews: ['src/host/__lintProbe.ts', "import type { ChatPanels } from '../webviews/chatPanel';\nexport type P = ChatPanels;\n"],
  viewsImportsCommands: ['src/views/__lintProbe.ts', "export async function load(): Promise<unknown> {\n  return import('../commands/registerCommands');\n}\n"],
  webviewsImportsViews: ['src/webviews/__lintProbe.ts', "export { SessionTreeProvider } from '../views/sessionTreeProvider';\n"],
  acpFloating: [
    'src/acp/__lintProbe.ts',
    'async function send(): Promise<void> {}\nexport function fire(): void {\n  send();\n}\n',
  ],
  acpClean: [
    'src/acp/__lintProbeClean.ts',
    "import { asRecord } from './json';\nimport type { AgentConfig } from './agentProcess';\n" +
      'async function send(config: AgentConfig): Promise<unknown> {\n  return asRecord(config);\n}\n' +
      'export function fire(config: AgentConfig): void {\n  void send(config);\n}\n',
  ],
} as const satisfies Record<string, readonly [string, string]>;

type Probe = keyof typeof probes;
let eslint: ESLint;

before(() => {
  for (const [path, code] of Object.values(probes)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  eslint = new ESLint({ cwd: root });
});

after(() => {
  for (const [path] of Object.values(probes)) rmSync(join(root, path), { force: true });
  for (const folder of ['src/store', 'webview']) rmSync(join(root, folder, '__lintProbeDeep'), { recursive: true, force: true });
});

async function lint(probe: Probe): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [path, code] = probes[probe];
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  assert.ok(result);
  return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

/** The probe is refused by the layer rule, with a message naming the two layers. */
async function assertRefused(probe: Probe, from: string, to: RegExp): Promise<void> {
  const messages = await lint(probe);
  assert.deepEqual(messages.map((m) => m.ruleId), ['boundaries/dependencies'], JSON.stringify(messages));
  assert.match(messages[0]!.message, new RegExp(`"${from}"`));
  assert.match(messages[0]!.message, to);
}

for (const [probe, form] of [
  ['storeVscodeStatic', 'a static import'],
  ['storeVscodeRequire', 'require()'],
  ['storeVscodeDynamic', 'import()'],
  ['storeVscodeImportEquals', 'import x = require()'],
  ['storeVscodeDeep', 'a type-only import four folders deep'],
] as const) {
  test(`src/store must not use vscode: ${form}`, async () => {
    await assertRefused(probe, 'store', /vscode/);
  });
}

test('src/store must not re-export the host, four folders deep', async () => {
  await assertRefused('storeReExportsHost', 'store', /"host"/);
});

test('src/acp must not import() vscode', async () => {
  await assertRefused('acpVscodeDynamic', 'acp', /vscode/);
});

test('the webview must not import the store, four folders deep', async () => {
  await assertRefused('webviewHostDeep', 'webview', /"store"/);
});

test('the webview must not use Node built-ins', async () => {
  await assertRefused('webviewNode', 'webview', /node:fs/);
});

test('the webview may import lit and src/protocol', async () => {
  assert.deepEqual(await lint('webviewProtocol'), []);
});

test('src/protocol imports nothing outside itself', async () => {
  await assertRefused('protocolStore', 'protocol', /"store"/);
});

test('a host-side layer must not import the one above it', async () => {
  await assertRefused('hostImportsWebviews', 'host', /"webviews"/);
  await assertRefused('viewsImportsCommands', 'views', /"commands"/);
});

test('the tree views and the chat panels are siblings: neither imports the other', async () => {
  await assertRefused('webviewsImportsViews', 'webviews', /"views"/);
});

test('a floating promise in src/acp is reported', async () => {
  const messages = await lint('acpFloating');
  assert.deepEqual(messages.map((m) => m.ruleId), ['@typescript-eslint/no-floating-promises']);
});

test('a clean file passes', async () => {
  assert.deepEqual(await lint('acpClean'), []);
});
