#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need, offline but for apt and npm:
# Debian packages (chromium for Playwright, ripgrep standing in for @vscode/ripgrep's download,
# build tools for code-server's native modules) and code-server into the repo's ignored .cache/.
# Idempotent: a second run only checks dpkg and a version marker.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${SUBCHATS_CODE_SERVER_DIR:-$REPO_ROOT/.cache/code-server}"
MARKER="$CACHE_DIR/.installed-$CODE_SERVER_VERSION"
APT_PACKAGES=(chromium ripgrep libkrb5-dev g++ make python3)

started=$SECONDS
log() { printf '[install-deps %3ss] %s\n' "$((SECONDS - started))" "$*"; }

missing_apt_packages() {
  local pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
  done
}

install_apt_packages() {
  local missing
  mapfile -t missing < <(missing_apt_packages)
  if [ "${#missing[@]}" -eq 0 ]; then
    log "apt: all present (${APT_PACKAGES[*]})"
    return
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo -n)
  fi
  log "apt: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q -o DPkg::Lock::Timeout=600 </dev/null
  "${sudo[@]}" apt-get install -y -q -o DPkg::Lock::Timeout=600 "${missing[@]}" </dev/null
  log "apt: done"
}

# Redoes code-server's postinstall.sh by hand, minus its downloads (see .notes/harness.md).
install_code_server() {
  if [ -f "$MARKER" ]; then
    log "code-server $CODE_SERVER_VERSION: already in $CACHE_DIR"
    return
  fi
  log "code-server $CODE_SERVER_VERSION: installing into $CACHE_DIR"
  rm -rf "$CACHE_DIR"
  mkdir -p "$CACHE_DIR"
  # npm 11 calls it an unknown config but code-server's scripts still read it when running as root.
  export npm_config_unsafe_perm=true npm_config_yes=true npm_config_audit=false npm_config_fund=false
  export npm_config_update_notifier=false

  cd "$CACHE_DIR"
  printf '{ "name": "subchats-code-server", "private": true }\n' > package.json
  npm install --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION" </dev/null
  npm rebuild argon2 </dev/null
  log "code-server package installed"

  local vscode_dir="$CACHE_DIR/node_modules/code-server/lib/vscode"
  cd "$vscode_dir"
  npm install --omit=dev --ignore-scripts </dev/null
  # When bin/ exists, @vscode/ripgrep's postinstall skips its GitHub download.
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  npm rebuild </dev/null
  log "vscode native modules built"
  ln -sfn node_modules node_modules.asar
  ln -sfn code-linux.sh bin/remote-cli/code-server
  ln -sfn browser-linux.sh bin/helpers/browser.sh
  (cd extensions && npm install --omit=dev </dev/null)
  log "built-in extensions' dependencies installed"

  "$CACHE_DIR/node_modules/.bin/code-server" --version >/dev/null 2>&1 \
    || { echo "install-deps: code-server does not start" >&2; exit 1; }
  touch "$MARKER"
}

# `code-server --version` writes ~/.config/code-server; keep it inside the cache instead.
export XDG_CONFIG_HOME="$CACHE_DIR/.xdg/config" XDG_CACHE_HOME="$CACHE_DIR/.xdg/cache" XDG_DATA_HOME="$CACHE_DIR/.xdg/data"

check_node() {
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo none)"
  if [ "$major" != 20 ]; then
    echo "install-deps: code-server $CODE_SERVER_VERSION needs Node.js 20 (found: $major)" >&2
    exit 1
  fi
}

check_node
install_apt_packages
# Parallel callers (e.g. test stages) wait for one install instead of clobbering each other.
mkdir -p "$(dirname "$CACHE_DIR")"
exec 9>"$CACHE_DIR.lock"
flock 9
install_code_server
log "done"
