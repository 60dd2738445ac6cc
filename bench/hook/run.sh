#!/bin/sh
# Measures `command-safety hook <agent>` as a fresh process per call:
# median and p99 over 200 runs (see latency.go), through command-safety-hook
# (what `hook install` writes) and through command-safety, beside each design's
# floor (bench/hook/designs). Usage: bench/hook/run.sh [agent] [runs] [parallel]
set -eu
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# As the .vsix ships them (extension/scripts/package.mjs): without cgo. With
# cgo, mvdan.cc/sh's os/user makes both dynamically linked, and the loader
# and cgo's runtime start cost about 1 ms of CPU (a whole empty program) at
# every hook here.
CGO_ENABLED=0 go build -o "$out/command-safety" ./cmd/command-safety
CGO_ENABLED=0 go build -o "$out/command-safety-hook" ./cmd/command-safety-hook
# The floor for any Go binary on this machine: one that does nothing.
printf 'package main\n\nfunc main() {}\n' >"$out/empty.go"
go build -o "$out/empty" "$out/empty.go"
for d in journalclient sockclient sockserve sqliteopen; do CGO_ENABLED=0 go build -o "$out/$d" "bench/hook/designs/$d.go"; done
go run bench/hook/latency.go -bin "$out/command-safety" -hook "$out/command-safety-hook" -designs "$out" -empty "$out/empty" -agent "${1:-claude-code}" -n "${2:-200}" -parallel "${3:-8}"
