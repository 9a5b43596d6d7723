#!/usr/bin/env bash
# Stands in for the `code` executable that @vscode/test-electron launches (`npm run test:electron`, see
# scripts/run-test-electron.mjs): desktop VS Code cannot be downloaded here, so the extension tests run in
# code-server's real extension host.
#   runTests({ vscodeExecutablePath: 'scripts/code-shim.sh', extensionDevelopmentPath, extensionTestsPath })
# Desktop-only flags (--no-sandbox, --disable-updates, ...) are accepted and ignored.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

for arg in "$@"; do
  if [ "$arg" = "--version" ]; then
    # Same three lines as `code --version`: the VS Code version code-server 4.100.3 embeds.
    printf '1.100.3\n409c64e0df4d53530e59c16acc2b5d5766f717b0\nx64\n'
    exit 0
  fi
done
exec node "$here/code-server/runExtensionTests.mjs" "$@"
