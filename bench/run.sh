#!/usr/bin/env bash
# `make bench`: every benchmark, printing figures (recorded by hand in
# BENCHMARKS.md with the machine and the command).
#   BENCH_C_TREE     a C tree of ~60 MB     (default /tmp/bench/git: git's sources)
#   BENCH_RUST_TREE  a Rust workspace ~30 MB (default /tmp/bench/rust-analyzer)
#   BENCH_RECORDS    store sizes for the lookup benchmark (default "100000 1000000")
#   BENCH_FAMILY_TREES  one large tree of every other family, "lang=path ..."
#                    (default: the JDK's sources unzipped in /tmp/jdk/src,
#                    CPython's Lib/ as Debian installs it, and TypeScript,
#                    Go, C#, Ruby and PHP trees cloned into /tmp/bench:
#                    BENCHMARKS.md names the repositories)
# The trees are public repositories fetched for the purpose, never committed.
set -u
BUILD=${1:-build}
C_TREE=${BENCH_C_TREE:-/tmp/bench/git}
RUST_TREE=${BENCH_RUST_TREE:-/tmp/bench/rust-analyzer}
RECORDS=${BENCH_RECORDS:-"100000 1000000"}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
for tree in "$C_TREE" "$RUST_TREE"; do
	if [ ! -d "$tree" ]; then
		echo "bench: $tree is missing: clone the tree there (see BENCHMARKS.md)"
		continue
	fi
	echo "== scan $tree"
	"$BUILD/bench/bench_scan" "$tree" 5
done
FAMILY_TREES=${BENCH_FAMILY_TREES:-"java=/tmp/jdk/src python=/usr/lib/python3.11 \
typescript=/tmp/bench/typeorm go=/tmp/bench/terraform csharp=/tmp/bench/Newtonsoft.Json \
ruby=/tmp/bench/rails php=/tmp/bench/framework"}
for lt in $FAMILY_TREES; do
	tree=${lt#*=}
	if [ ! -d "$tree" ]; then
		echo "bench: ${lt%%=*} tree $tree is missing (see BENCHMARKS.md)"
		continue
	fi
	echo "== scan ${lt%%=*}: $tree"
	"$BUILD/bench/bench_scan" "$tree" 3
done
echo "== scan --history $C_TREE"
bash "$(dirname "$0")/history.sh" "$BUILD" "$C_TREE"
src=$(mktemp -d /tmp/fl-bench-src-XXXXXX)
for tree in "$C_TREE" "$RUST_TREE"; do
	[ -d "$tree" ] && "$BUILD/faultline" scan "$tree" --db "$src/src.db" >/dev/null
done
if [ ! -f "$src/src.db" ]; then
	echo "bench: no tree to take messages from; lookup benchmark skipped"
	exit 0
fi
for n in $RECORDS; do
	echo "== lookup over $n records"
	"$BUILD/bench/gen_store" --from "$src/src.db" --db "$src/g$n.db" --records "$n"
	"$BUILD/bench/bench_lookup" --db "$src/g$n.db" --bin "$BUILD/faultline" \
		--queries 5000 --baseline-queries 20 --log-mb 200 --log-file "$src/log$n.txt"
	echo "== grep-log alone over $n records, runs in a row"
	"$BUILD/bench/bench_greplog" --db "$src/g$n.db" --log "$src/log$n.txt" --runs 3
	echo "== adversarial inputs over $n records"
	"$BUILD/bench/bench_adversarial" --db "$src/g$n.db" --grep-mb 100
done
rm -rf "$src"
echo "== serve (wrk on 127.0.0.1)"
bash "$(dirname "$0")/serve.sh" "$BUILD" "$C_TREE"
echo "== publish"
"$BUILD/bench/bench_publish" 100000
