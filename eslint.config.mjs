// ESLint flat config: a small, focused rule set. Typed rules (floating and misused promises, type-only imports)
// everywhere, and eslint-plugin-boundaries to hold the layers. The layers and the arrows between them are stated
// once, in LAYERS below; the plugin resolves every import to a file, so a rule holds however deep a file sits and
// however it imports (static, type-only, `export … from`, `import()`, `require()`, `import x = require()`).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

// Bottom to top. `may` lists the layers a layer may import (its own files always); `packages` the npm packages
// and Node built-ins it may use (micromatch patterns), `vscode` included only where the VS Code API is allowed.
const LAYERS = {
  // The extension's manifest, read for its version by the code that tells agents and users who is talking.
  manifest: { files: 'package.json', may: [], packages: [] },
  // Shapes shared by host and webview.
  protocol: { files: 'src/protocol', may: [], packages: [] },
  // Pure view logic shared by host and webview (labels, icons, text).
  presentation: { files: 'src/presentation', may: ['protocol'], packages: [] },
  // The session state rebuilt from the wire; runs in the CLI and tests, outside VS Code.
  store: { files: 'src/store', may: ['protocol', 'presentation'], packages: ['diff'] },
  // The ACP client: process, framing, requests; outside VS Code too.
  acp: {
    files: 'src/acp',
    may: ['store', 'protocol', 'presentation', 'manifest'],
    packages: ['vscode-jsonrpc', '@agentclientprotocol/sdk', 'node:*'],
  },
  // Stored chats on disk.
  history: { files: 'src/history', may: ['acp', 'store', 'protocol', 'presentation'], packages: ['node:*'] },
  // The extension host's services: the one place that owns sessions, controllers and VS Code glue.
  host: {
    files: 'src/host',
    may: ['history', 'acp', 'store', 'protocol', 'presentation'],
    packages: ['vscode', 'vscode-jsonrpc', '@agentclientprotocol/sdk', 'diff', 'jsonc-parser', 'node:*'],
  },
  // The sidebar tree and status bar, and the chat panels: siblings, both above the host, neither knows the other.
  views: { files: 'src/views', may: ['host', 'history', 'acp', 'store', 'protocol', 'presentation'], packages: ['vscode'] },
  webviews: {
    files: 'src/webviews',
    may: ['host', 'history', 'acp', 'store', 'protocol', 'presentation'],
    packages: ['vscode', '@agentclientprotocol/sdk', 'node:*'],
  },
  // Palette and menu commands: the top of the host side.
  commands: {
    files: 'src/commands',
    may: ['views', 'webviews', 'host', 'history', 'acp', 'store', 'protocol', 'presentation'],
    packages: ['vscode', 'node:*'],
  },
  // Activation wires everything.
  extension: {
    files: 'src/extension.ts',
    may: ['commands', 'views', 'webviews', 'host', 'history', 'acp', 'store', 'protocol', 'presentation', 'manifest'],
    packages: ['vscode', 'node:*'],
  },
  // The demo agent is a separate program speaking ACP; it shares only the protocol shapes.
  demoAgent: { files: 'src/demoAgent', may: ['protocol', 'manifest'], packages: ['vscode-jsonrpc', 'node:*'] },
  // The command-line replay tool: the store and the demo agent, no VS Code.
  cli: { files: 'src/cli', may: ['demoAgent', 'acp', 'store', 'protocol', 'presentation'], packages: ['node:*'] },
  // The chat UI bundle runs in the browser: its own modules, shared shapes and view logic, a few browser packages.
  webview: {
    files: 'webview',
    may: ['protocol', 'presentation'],
    packages: ['lit', '@lit-labs/*', 'dompurify', 'marked', 'highlight.js'],
  },
};

// A layer is a folder (the plugin's element), except the two single files, which keep the older file mode.
const layerElements = Object.entries(LAYERS).map(([type, { files }]) =>
  files.endsWith('.ts') || files.endsWith('.json') ? { type, pattern: files, mode: 'file' } : { type, pattern: files, partialMatch: false });

const layerPolicies = Object.entries(LAYERS).flatMap(([type, { may, packages }]) => [
  {
    from: { element: { type } },
    allow: { to: { element: { types: { anyOf: [type, ...may] } } } },
  },
  ...(packages.length
    ? [{ from: { element: { type } }, allow: { to: { module: { origin: ['external', 'core'], source: packages } } } }]
    : []),
]);

export default defineConfig(
  {
    ignores: ['dist/', 'out/', 'node_modules/', '.cache/', 'test-results/', 'bench/results/', 'test/fixtures/'],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // Every .ts file belongs to one of these (bench/webview to the component-test project).
        project: ['./tsconfig.json', './webview/tsconfig.json', './test/component/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    // The code carries a few directives for rules this small set leaves off (no-control-regex).
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test runs these itself; their promises are never meant to be awaited at the call site.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
      // Mixed imports mark their type-only names inline (`import { a, type B }`), as the code already does.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layerElements,
      // v7 elements are folders; the two single files above use the older file mode, whose deprecation notice
      // would print on every run.
      'boundaries/legacy-warnings': false,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      // `import x = require('…')`, the TypeScript form the defaults do not read.
      'boundaries/additional-dependency-nodes': [
        { selector: 'TSExternalModuleReference > Literal', kind: 'value', name: 'import-equals' },
      ],
      // Two projects on purpose (the host's and the webview's compiler options differ); the resolver's advice to
      // merge them is printed on every run and read as a lint failure.
      'import/resolver': { typescript: { project: ['./tsconfig.json', './webview/tsconfig.json'], noWarnOnMultipleProjects: true } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkAllOrigins: true, policies: layerPolicies }],
      // Every file belongs to a layer, and every import resolves to one (or to an allowed package).
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
      // ES imports only, so every dependency is visible in one form (the layer rule reads `require()` too).
      '@typescript-eslint/no-require-imports': 'error',
    },
  },
);
