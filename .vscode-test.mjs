// Config for @vscode/test-cli (`npx vscode-test`), for developers who use it instead of
// `node scripts/run-exthost-tests.mjs`. Desktop VS Code cannot be downloaded here, so scripts/code-shim.sh
// runs the tests in code-server's real extension host. Bundle the tests first:
//   node scripts/build.mjs && node scripts/run-exthost-tests.mjs --skip-build --bundle-only && npx vscode-test
// (@vscode/test-cli is not a dependency of this repo: install it yourself, e.g. `npm i -D @vscode/test-cli`.)
export default {
  label: 'exthost',
  files: 'out/exthost/**/*.test.js',
  useInstallation: { fromPath: './scripts/code-shim.sh' },
  workspaceFolder: './test/fixtures',
  mocha: { ui: 'bdd', timeout: 20_000, color: false },
};
