#!/usr/bin/env bash
# bench/corpus.sh BUILD [N]: the corpus operations on N small git
# repositories made here (default 50): a batch that scans them (--jobs 2),
# then the same queue again, every HEAD unchanged (each skipped), and a
# publish of the result.  Prints the time per repository of each.
set -eu
BUILD=${1:-build}
N=${2:-50}
FL=$(readlink -f "$BUILD/faultline")
W=$(mktemp -d /tmp/fl-bench-corpus-XXXXXX)
trap 'rm -rf "$W"' EXIT
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.com
for i in $(seq 1 "$N"); do
	mkdir -p "$W/r/p$i"
	(cd "$W/r/p$i" && git init -q -b main . &&
		for f in 1 2 3 4 5; do
			printf 'def f%s(x):\n    if not x:\n        raise ValueError("p%s: step %s needs %%s" %% x)\n' "$f" "$i" "$f" >"m$f.py"
		done && git add . && git commit -qm one)
done
now() { date +%s.%N; }
"$FL" queue add --db "$W/c.db" "$W"/r/p* >/dev/null
t0=$(now); "$FL" batch --db "$W/c.db" --jobs 2 >/dev/null; t1=$(now)
"$FL" queue add --db "$W/c.db" "$W"/r/p* >/dev/null
t2=$(now); "$FL" batch --db "$W/c.db" --jobs 2 --json >"$W/skip.json"; t3=$(now)
t4=$(now); "$FL" publish --db "$W/c.db" "$W/pub" >/dev/null; t5=$(now)
awk -v n="$N" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" -v f="$t5" 'BEGIN {
	printf "repositories          %d (5 files each)\n", n
	printf "batch, first scan     %.2f s, %.1f ms a repository (--jobs 2)\n", b - a, (b - a) * 1000 / n
	printf "batch, all unchanged  %.2f s, %.1f ms a repository skipped\n", d - c, (d - c) * 1000 / n
	printf "publish               %.2f s\n", f - e
}'
jq -c '{done, skipped}' "$W/skip.json"
