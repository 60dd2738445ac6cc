#!/usr/bin/env bash
# e2e.sh: the extension's end-to-end test in a real VS Code (code-server 4.100.3)
# driven by headless Chromium. It installs what it needs (setup-e2e.sh, cached
# under $E2E_CACHE, default /tmp/cs-e2e-cache), packages the .vsix for this
# platform, and runs test/e2e/driver.ts. Exits non-zero on any failure.
#
# Env: E2E_CACHE, CS_GO_ROOT (Go module root to build; default ..),
# CS_E2E_DOCS (screenshot dir; default ../docs, or the temp dir when CI=true),
# CS_E2E_KEEP=1 keeps the temp dir.
set -euo pipefail
cd "$(dirname "$0")/.."
ext="$PWD"
t0=$(date +%s)

export E2E_CACHE="${E2E_CACHE:-/tmp/cs-e2e-cache}"
bash scripts/setup-e2e.sh
t1=$(date +%s)
echo "e2e: setup $((t1 - t0)) s"

# Go keeps its caches where they were; everything else writes under a temp HOME.
export GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)"
tmp="$(mktemp -d /tmp/cs-e2e.XXXXXX)"
export HOME="$tmp/build-home"
mkdir -p "$HOME"
export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share" \
  XDG_CACHE_HOME="$HOME/.cache" XDG_STATE_HOME="$HOME/.local/state"
export npm_config_cache="$E2E_CACHE/npm-cache"

[ -d node_modules ] || npm ci --no-audit --no-fund
npm run -s package:local
vsix="$(ls -t dist/command-safety-"$(node -p 'process.platform + "-" + process.arch')"-*.vsix | head -1)"
t2=$(date +%s)
echo "e2e: packaged $vsix in $((t2 - t1)) s"

# Screenshots go to ../docs for the README, except under CI, where a run must
# not change tracked files: there they stay in the temp dir.
if [ -n "${CS_E2E_DOCS:-}" ]; then docs="$CS_E2E_DOCS"
elif [ "${CI:-}" = true ]; then docs="$tmp/screenshots"
else docs="$ext/../docs"; fi
mkdir -p "$docs"
status=0
CS_E2E_DIR="$tmp/run" \
CS_E2E_CODE_SERVER="$E2E_CACHE/code-server-4.100.3/node_modules/.bin/code-server" \
CS_E2E_VSIX="$ext/$vsix" \
CS_E2E_DOCS="$docs" \
  timeout 600 node out/test/e2e/driver.js || status=$?
t3=$(date +%s)
echo "e2e: driver $((t3 - t2)) s; total $((t3 - t0)) s"
if [ "$status" = 0 ] && [ "${CS_E2E_KEEP:-}" != 1 ]; then
  rm -rf "$tmp"
else
  echo "e2e: kept $tmp"
fi
exit "$status"
