#!/usr/bin/env bash
# Print each case of ../cases/PROG.jsonl with the source line it points to,
# for a human check of the resolved frames. usage: review.sh PROG SRCDIR
f=$(dirname "$0")/../cases/$1.jsonl
jq -c '.' "$f" | while IFS= read -r c; do
  id=$(jq -r .id <<<"$c"); e=$(jq -r '.expected[0] // ""' <<<"$c")
  echo "== $id  [$(jq -r '.kinds|join(",")' <<<"$c")]  $e  ($(jq -r .verified <<<"$c"))"
  jq -r '.output' <<<"$c" | grep -v '^\s*$' | head -${LINES_SHOWN:-3} | cut -c1-160 | sed 's/^/   | /'
  if [ -n "$e" ]; then p=${e%:*}; l=${e##*:}; sed -n "${l}p" "$2/$p" | cut -c1-160 | sed 's/^/   > /'; fi
done
