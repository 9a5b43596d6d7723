// The lint rules that hold the module boundaries (eslint.config.mjs) really report a violation. Typed
// linting needs each file inside a tsconfig project, so the probes are real files, written before the first
// lint (the projects are read then) and removed afterwards.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '../..');

const probes = {
  storeVscode: ['src/store/__lintProbe.ts', "import * as vscode from 'vscode';\nexport const api = vscode.version;\n"],
  webviewStore: [
    'webview/components/__lintProbe.ts',
    "import type { SessionStore } from '../../src/store/sessionStore';\nexport type Store = SessionStore;\n",
  ],
  webviewProtocol: [
    'webview/components/__lintProbeClean.ts',
    "import { html } from 'lit';\nimport type { ToolCallRecord } from '../../src/protocol/transcript';\n" +
      'export const view = (call: ToolCallRecord) => html`${call.title}`;\n',
  ],
  protocolStore: ['src/protocol/__lintProbe.ts', "import type { SessionRecord } from '../store/model';\nexport type M = SessionRecord;\n"],
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
  for (const [path, code] of Object.values(probes)) writeFileSync(join(root, path), code);
  eslint = new ESLint({ cwd: root });
});

after(() => {
  for (const [path] of Object.values(probes)) rmSync(join(root, path), { force: true });
});

async function lint(probe: Probe): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [path, code] = probes[probe];
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  assert.ok(result);
  return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

test('src/store must not import vscode', async () => {
  const messages = await lint('storeVscode');
  assert.deepEqual(messages.map((m) => m.ruleId), ['no-restricted-imports']);
  assert.match(messages[0]!.message, /'vscode' import is restricted.*host layers/);
});

test('the webview must not import the store', async () => {
  const messages = await lint('webviewStore');
  assert.deepEqual(messages.map((m) => m.ruleId), ['no-restricted-imports']);
  assert.match(messages[0]!.message, /src\/store\/sessionStore.*only src\/protocol/);
});

test('the webview may import lit and src/protocol', async () => {
  assert.deepEqual(await lint('webviewProtocol'), []);
});

test('src/protocol imports nothing outside itself', async () => {
  const messages = await lint('protocolStore');
  assert.deepEqual(messages.map((m) => m.ruleId), ['no-restricted-imports']);
  assert.match(messages[0]!.message, /'\.\.\/store\/model' import is restricted.*only its own modules/);
});

test('a floating promise in src/acp is reported', async () => {
  const messages = await lint('acpFloating');
  assert.deepEqual(messages.map((m) => m.ruleId), ['@typescript-eslint/no-floating-promises']);
});

test('a clean file passes', async () => {
  assert.deepEqual(await lint('acpClean'), []);
});
