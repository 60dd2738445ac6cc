#!/bin/sh
# Measures `command-safety hook <agent>` as a fresh process per call:
# median and p99 over 200 runs (see latency.go). Usage: bench/hook/run.sh [agent] [runs]
set -eu
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/command-safety" ./cmd/command-safety
go run bench/hook/latency.go -bin "$out/command-safety" -agent "${1:-claude-code}" -n "${2:-200}"
