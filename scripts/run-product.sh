#!/usr/bin/env bash
# `npm start`: builds Subchats and opens it in VS Code with a demo workspace.
# - Desktop VS Code (`code` on PATH): runs it as a development extension.
# - Otherwise: installs code-server (scripts/install-deps.sh; needs root/sudo for apt the first time),
#   installs the extension into it by symlink, serves on 127.0.0.1 and stays in the foreground until Ctrl+C.
# Environment: SUBCHATS_PORT (default: a free port), SUBCHATS_USE_CODE_SERVER=1 (skip desktop VS Code).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEMO_WORKSPACE="$REPO_ROOT/.cache/demo-workspace"
STATE_DIR="$REPO_ROOT/.cache/product"
cd "$REPO_ROOT"
PROGRESS_TAG=start
# shellcheck source=lib/progress.sh
source scripts/lib/progress.sh

if [ ! -d node_modules ]; then
  step "npm ci: installing the project's packages (about 3 min on a fresh machine)" npm ci --no-audit --no-fund --loglevel=error
fi
step "building the extension" node scripts/build.mjs

if [ ! -d "$DEMO_WORKSPACE" ]; then
  mkdir -p "$DEMO_WORKSPACE/src"
  cat > "$DEMO_WORKSPACE/README.md" <<'MD'
# Subchats demo workspace

Open the **Subchats** view in the activity bar and click **New Session** to start the built-in demo
agent (no API key needed). It delegates work to subagents, which appear as children in the session tree.
MD
  cat > "$DEMO_WORKSPACE/src/greeting.ts" <<'TS'
export function greeting(name: string): string {
  return `Hello, ${name}!`;
}
TS
fi

# Asks Subchats to open on its Sessions view and Get Started walkthrough the first time (src/host/welcomeOnOpen.ts).
mkdir -p "$DEMO_WORKSPACE/.vscode"
echo "Subchats opens its Sessions view and Get Started walkthrough the first time this workspace is opened." > "$DEMO_WORKSPACE/.vscode/subchats-welcome"

if [ -z "${SUBCHATS_USE_CODE_SERVER:-}" ] && command -v code >/dev/null 2>&1; then
  echo "Opening desktop VS Code with Subchats as a development extension..."
  exec code --extensionDevelopmentPath="$REPO_ROOT" "$DEMO_WORKSPACE"
fi

progress_started=$((progress_started - SECONDS)) bash scripts/install-deps.sh
# A plain browser tab carries no development-extension payload, so install the repo itself:
# code-server scans <publisher>.<name>-<version> folders in its extensions dir (a fresh dir each start).
EXTENSION_ID="$(node -p "const p = require('./package.json'); p.publisher + '.' + p.name + '-' + p.version")"
EXTENSIONS_DIR="$STATE_DIR/extensions"
rm -rf "$EXTENSIONS_DIR"
mkdir -p "$EXTENSIONS_DIR"
ln -s "$REPO_ROOT" "$EXTENSIONS_DIR/$EXTENSION_ID"

exec node scripts/code-server/serve.mjs --state "$STATE_DIR" --workspace "$DEMO_WORKSPACE" \
  --extensions-dir "$EXTENSIONS_DIR" --port "${SUBCHATS_PORT:-0}"
