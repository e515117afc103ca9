#!/usr/bin/env bash
# scan --history over a repository's release tags: the time and peak RSS of
# the whole history (BENCH_HISTORY_TAGS, default git's 'v2.*.0': 56 tags
# and HEAD), the store's size against a scan of HEAD alone, and a lookup of
# a message gone from HEAD.  Usage: history.sh BUILD [TREE]
set -u
BUILD=${1:-build}
TREE=${2:-/tmp/bench/git}
TAGS=${BENCH_HISTORY_TAGS:-'v2.*.0'}
if [ ! -d "$TREE" ]; then
	echo "bench: $TREE is missing: clone the repository with its tags there (see BENCHMARKS.md)"
	exit 0
fi
tmp=$(mktemp -d /tmp/fl-bench-history-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/time -f '%e s wall, %U s user, %M KB peak RSS' \
	"$BUILD/faultline" scan "$TREE" --history --tags "$TAGS" --db "$tmp/h.db" --json \
	>"$tmp/h.json" 2>"$tmp/h.time"
jq -r '"versions \(.versions | length), blobs scanned \(.blobs.scanned) (\(.blobs.bytes / 1e6 | floor) MB), files reused \(.blobs.reused), records \(.records) (\(.recordsAtHead) at HEAD, \(.recordsOnlyInPast) only in the past)"' "$tmp/h.json"
echo "history scan: $(tail -1 "$tmp/h.time")"
"$BUILD/faultline" scan "$TREE" --rev HEAD --db "$tmp/p.db" >/dev/null
h=$(stat -c %s "$tmp/h.db")
p=$(stat -c %s "$tmp/p.db")
echo "store: $((h / 1024)) KB with every version, $((p / 1024)) KB with HEAD alone ($(awk -v a="$h" -v b="$p" 'BEGIN { printf "%.2f", a / b }')x)"

# A new tag after that: the store holds every version but the last tag;
# the tag is made and the history scanned again (it resumes from the last
# tag the store holds).  Two cases, each in a local clone: HEAD moved on
# past the new tag (the tag and HEAD are scanned), and a release at HEAD
# (the tag is the last version).
last=$(git -C "$TREE" tag -l "$TAGS" | sort -V | tail -1)
if [ -z "$last" ]; then
	exit 0
fi
lastsha=$(git -C "$TREE" rev-parse "$last^{commit}")
resume() { # NAME DB: the history scanned again, timed
	/usr/bin/time -f '%e s wall, %M KB peak RSS' \
		"$BUILD/faultline" scan "$tmp/c" --history --tags "$TAGS" --db "$2" --json \
		>"$tmp/r.json" 2>"$tmp/r.time"
	echo "new tag $last, $1: $(tail -1 "$tmp/r.time"), $(jq -r '"from \(.resumedFrom): \([.versions[] | "\(.name) \(.scanned) blobs"] | join(", "))"' "$tmp/r.json")"
}
git clone -q "$TREE" "$tmp/c"
git -C "$tmp/c" tag -d "$last" >/dev/null
"$BUILD/faultline" scan "$tmp/c" --history --tags "$TAGS" --db "$tmp/r1.db" >/dev/null
git -C "$tmp/c" tag "$last" "$lastsha"
resume "HEAD moved on past it" "$tmp/r1.db"
git -C "$tmp/c" checkout -q --detach "$lastsha"
git -C "$tmp/c" tag -d "$last" >/dev/null
"$BUILD/faultline" scan "$tmp/c" --history --tags "$TAGS" --db "$tmp/r2.db" >/dev/null
git -C "$tmp/c" tag "$last" "$lastsha"
resume "a release at HEAD" "$tmp/r2.db"
