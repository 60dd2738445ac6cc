#!/usr/bin/env bash
# setup-e2e.sh installs what the end-to-end test needs: Debian's chromium, the
# native build tools and ripgrep (apt), and code-server 4.100.3 from npm, built
# offline per shared/notes/stack.md. Idempotent: a finished install is cached
# under $E2E_CACHE (default /tmp/cs-e2e-cache) and reused.
set -euo pipefail

CACHE="${E2E_CACHE:-/tmp/cs-e2e-cache}"
CS_VERSION=4.100.3
CS_DIR="$CACHE/code-server-$CS_VERSION"
mkdir -p "$CACHE"

# Everything npm and node-gyp write goes into the cache, never under the real ~.
export HOME="$CACHE/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share" \
  XDG_CACHE_HOME="$HOME/.cache" XDG_STATE_HOME="$HOME/.local/state"
mkdir -p "$HOME"
export npm_config_cache="$CACHE/npm-cache"

apt_pkgs=(build-essential python3 libkrb5-dev ripgrep chromium git)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup-e2e: apt-get install ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -f "$CS_DIR/.done" ]; then
  echo "setup-e2e: code-server $CS_VERSION cached in $CS_DIR"
  exit 0
fi

echo "setup-e2e: installing code-server $CS_VERSION into $CS_DIR"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR"
cd "$CS_DIR"
npm init -y >/dev/null
export npm_config_nodedir=/usr # node headers from /usr/include/node, no download
npm install --no-audit --no-fund --ignore-scripts "code-server@$CS_VERSION" >/dev/null
npm rebuild argon2 >/dev/null
cd node_modules/code-server/lib/vscode
npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm_config_yes=true npm rebuild >/dev/null
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
cd extensions
npm install --no-audit --no-fund --omit=dev >/dev/null
touch "$CS_DIR/.done"
echo "setup-e2e: done"
