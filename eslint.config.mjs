// ESLint flat config: a small, focused rule set. Typed rules (floating and misused promises, type-only imports)
// everywhere, and no-restricted-imports to hold the module boundaries:
//
//   src/protocol      shapes shared by host and webview; imports nothing outside itself
//   src/presentation  pure view logic; imports only itself and src/protocol
//   src/store         the session state; no vscode, no transport (acp), no host or UI layers
//   src/acp           the ACP client; no vscode, no host or UI layers
//   webview           the chat UI bundle; its own modules, a few browser packages, src/protocol and
//                     src/presentation, nothing else from src/ and never vscode
//
// A file gets one no-restricted-imports setting (later blocks replace earlier ones), so each folder's block
// lists every restriction that folder needs.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const noVscode = {
  name: 'vscode',
  message: 'Only the host layers (src/host, src/views, src/webviews, src/commands, src/extension.ts) may use the VS Code API.',
};

// `a/../b` and `./../b` (a `..` after any other segment) dodge the prefix checks below; nobody needs them.
const noDotDotInside = {
  regex: '(^|/)(?!\\.\\.(/|$))[^/]+/(.*/)?\\.\\.(/|$)',
  message: 'Write relative imports without a `..` segment after the start, so the module boundaries can be checked.',
};

const restrict = (...patterns) => ['error', { paths: [noVscode], patterns }];

// Webview files at each folder depth: an import that climbs out of webview/ must land in src/protocol or
// src/presentation. (Import strings carry no file context, so the depth decides how many `../` leave webview/.)
const webviewDepths = [0, 1, 2, 3].map((depth) => ({
  files: [`webview/${'*/'.repeat(depth)}*.ts`],
  rules: {
    'no-restricted-imports': restrict(
      {
        regex: `^(\\.\\./){${depth + 1}}(?!src/(protocol|presentation)(/|$))`,
        message: 'The webview may import from outside webview/ only src/protocol/… and src/presentation/… (shapes and view logic shared with the host).',
      },
      {
        regex: '^(?![./])(?!(lit|lit/.+|@lit-labs/.+|dompurify|marked)$)',
        message: 'The webview bundle may use only lit, lit/*, @lit-labs/*, dompurify and marked; the host and Node packages do not run in the webview.',
      },
      noDotDotInside,
    ),
  },
}));

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
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          {
            regex: '^(?!\\./)',
            message: 'src/protocol is shared by host and webview: it imports only its own modules (`./…`), no packages and nothing else from src/ (vscode included).',
          },
          noDotDotInside,
        ],
      }],
    },
  },
  {
    files: ['src/presentation/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          {
            regex: '^(?!\\./|\\.\\./protocol/)',
            message: 'src/presentation is pure view logic shared with the webview: it imports only `./…` and `../protocol/…` (no packages, no vscode).',
          },
          noDotDotInside,
        ],
      }],
    },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict({
        regex: '^(\\.\\./)+(acp|host|views|webviews|commands|history|demoAgent|cli|extension)(/|$)',
        message: 'src/store holds the session state and depends only on src/protocol and src/presentation; the transport (acp), host, UI, history, demo agent and CLI sit above it.',
      }),
    },
  },
  {
    files: ['src/acp/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict({
        regex: '^(\\.\\./)+(host|views|webviews|commands|extension)(/|$)',
        message: 'src/acp is the ACP client and runs outside VS Code (CLI, tests): it must not depend on the host or UI layers.',
      }),
    },
  },
  ...webviewDepths,
);
