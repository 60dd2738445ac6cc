#!/bin/sh
# Instructions per appended row (callgrind), 1 and 8 rows a transaction,
# without the fsync: the CPU that the schema and the statements cost, in a
# figure that does not move with the load of a shared machine. Each case
# runs 50 and 150 transactions and prints the difference over 100, so that
# start-up and opening the log cancel out.
#
#   bench/audit/instructions.sh
set -eu
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go test -c -o "$out/audit.test" ./audit
count() { # rows iterations -> instructions
	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$out/audit.test" -test.run '^$' -test.bench "InsertCPU/rows=$1\$" -test.benchtime "$2x" -test.cpu 1 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for rows in 1 8; do
	a=$(count "$rows" 50)
	b=$(count "$rows" 150)
	echo "rows=$rows a transaction: $(( (b - a) / 100 / rows )) instructions a row"
done
