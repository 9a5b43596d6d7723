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

PROGRESS_TAG=install-deps
# shellcheck source=lib/progress.sh
source "$REPO_ROOT/scripts/lib/progress.sh"

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
  step "code-server: downloading the package (about 1 min)" npm install --ignore-scripts --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION" </dev/null
  step "code-server: building argon2" npm rebuild argon2 --loglevel=error </dev/null

  local vscode_dir="$CACHE_DIR/node_modules/code-server/lib/vscode"
  cd "$vscode_dir"
  step "code-server: installing VS Code's modules" npm install --omit=dev --ignore-scripts --loglevel=error </dev/null
  # When bin/ exists, @vscode/ripgrep's postinstall skips its GitHub download.
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  step "code-server: building VS Code's native modules (3-4 min, quiet)" npm rebuild --loglevel=error </dev/null
  ln -sfn node_modules node_modules.asar
  ln -sfn code-linux.sh bin/remote-cli/code-server
  ln -sfn browser-linux.sh bin/helpers/browser.sh
  step "code-server: installing the built-in extensions' modules" bash -c 'cd extensions && npm install --omit=dev --loglevel=error </dev/null'

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
