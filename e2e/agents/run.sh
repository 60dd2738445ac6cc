#!/usr/bin/env bash
# End-to-end tests with the real agent CLIs (e2e/agents, package doc in
# doc.go): installs the CLIs pinned in package-lock.json with `npm ci` into a
# cache directory keyed by the lockfile's hash (a rerun with the same lockfile
# installs nothing), builds command-safety, and runs the Go tests with
# E2E_AGENTS=1, where a CLI that is missing or fails to install is a failure.
# Extra arguments go to `go test` (e.g. -run 'Test/codex/' -v).
#
#   E2E_AGENTS_CACHE=DIR  where the installs live (default ${XDG_CACHE_HOME:-~/.cache}/command-safety/e2e-agents)
#   E2E_STRACE=0|1        wrap every CLI in strace to check its connect(2) calls (default 1: required)
#   E2E_PARALLEL=N        how many cases run at once (default 4; most of a case is waiting)
#   E2E_KEEP=1            keep every case's temporary tree (E2E_KEEP_FAILED=1: only failed ones)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PATH="$PATH:/usr/local/go/bin"

need_apt=()
command -v strace >/dev/null || [ "${E2E_STRACE:-1}" = 0 ] || need_apt+=(strace)
command -v git >/dev/null || need_apt+=(git)
command -v tmux >/dev/null || need_apt+=(tmux) # the interactive Claude Code session's terminal
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "agents e2e: installing ${need_apt[*]} (Debian)"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
  $sudo_ apt-get update -qq && $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v node >/dev/null || { echo "agents e2e: node is not installed" >&2; exit 1; }

cache_root="${E2E_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/command-safety/e2e-agents}"
key="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
dir="$cache_root/$key"
start=$(date +%s)
if [ -f "$dir/.installed" ]; then
  echo "agents e2e: CLIs from cache $dir"
else
  echo "agents e2e: npm ci into $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  # node-pty (an optional dependency of Gemini CLI) builds against Node's
  # headers; with Debian's they need not be downloaded.
  if [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  for b in claude gemini codex copilot; do
    [ -x "$dir/node_modules/.bin/$b" ] || { echo "agents e2e: npm ci did not install $b" >&2; exit 1; }
  done
  touch "$dir/.installed"
  # Older lockfiles' installs are a gigabyte each: keep only this one.
  find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
fi
echo "agents e2e: install step took $(( $(date +%s) - start ))s"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/command-safety" ./cmd/command-safety)
# Beside it, as the .vsix ships it: `hook install` writes it for the gate.
(cd "$repo" && go build -o "$work/command-safety-hook" ./cmd/command-safety-hook)

cd "$here"
export E2E_AGENTS=1 E2E_CS_BIN="$work/command-safety" E2E_CLI_BIN="$dir/node_modules/.bin" \
  E2E_STRACE="${E2E_STRACE:-1}"
if [ "$#" -gt 0 ]; then
  go test -count=1 -timeout 15m -parallel "${E2E_PARALLEL:-4}" "$@" .
else
  # The interactive sessions drive TUIs through tmux, which drop keys when
  # the machine is busy: Gemini CLI's lost its first prompt twice in the
  # full suite at -parallel 4 (session 6) and never alone. They run after
  # the others, by themselves.
  go test -count=1 -timeout 15m -parallel "${E2E_PARALLEL:-4}" -skip '^TestInteractive$' .
  go test -count=1 -timeout 10m -run '^TestInteractive$' .
fi
