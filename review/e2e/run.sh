#!/usr/bin/env bash
# Browser test of `command-safety review` (review/e2e/review.test.mjs):
# installs what it needs (npm ci; Debian's chromium when missing), builds the
# binary and runs the test in headless Chromium. Exits non-zero on failure.
#
#   CS_CHROMIUM=/path   the Chromium to drive (default /usr/bin/chromium)
#   CS_DOCS=DIR         also write the README screenshot DIR/review.png
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

chromium_bin="${CS_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium_bin" ]; then
  echo "review e2e: installing chromium (Debian)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

cd "$here"
npm ci --no-audit --no-fund --loglevel=error

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/command-safety" ./cmd/command-safety)

CS_BIN="$work/command-safety" CS_CHROMIUM="$chromium_bin" node --test --test-concurrency=1 review.test.mjs
