#!/usr/bin/env bash
# bench/realerrors/run.sh FAULTLINE SOURCES_DIR [OUT]
#
# The real-error benchmark (README.md beside this script): scans every
# program of programs.jsonl from SOURCES_DIR/<name> into one fresh store,
# looks each case of cases/<name>.jsonl up twice with `explain --json
# --limit 3` (the printed text alone, then "$ COMMAND" and the text) and
# counts rank-1 file, rank-1 line (within 3 lines), right file in the top 3
# and no match; then counts the lines of noise/*.txt that get a match from
# `explain` (one call per line) and from `grep-log` (one call per file).
# Writes OUT/results.jsonl (one line per case and mode, with the top answer)
# and prints the tables. Deterministic: fixed order, no time in the output.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: run.sh FAULTLINE SOURCES_DIR [OUT]" >&2; exit 2; }
fl=$(realpath "$1"); src=$(realpath "$2"); out=${3:-/tmp/realerrors-out}
here=$(cd "$(dirname "$0")" && pwd)
command -v jq >/dev/null || { echo "run.sh: jq is needed" >&2; exit 2; }
rm -rf "$out"; mkdir -p "$out"
db=$out/store.db
CONF=0.4     # lookup.md: an answer below 0.4 is "no confident match"
PATTERN=0.9  # lookup.md: the pattern and code tiers score >= 0.9

# 1. one fresh store holding every program (a repository that two programs
#    share, rubygems/rubygems for gem and bundle, is scanned once)
jq -r '[.name, .repo, .scan] | @tsv' "$here/programs.jsonl" | sort | sort -t$'\t' -u -k2,2 |
while IFS=$'\t' read -r name repo scan; do
  dir=$src/$name/$scan
  [ -d "$dir" ] || { echo "run.sh: $dir is missing (README.md: getting the sources)" >&2; exit 1; }
  "$fl" scan "$dir" --repo "$repo" --db "$db" --json > "$out/scan-$name.json" 2> "$out/scan-$name.err" ||
    { echo "run.sh: scan of $name failed (see $out/scan-$name.err)" >&2; exit 1; }
done

# 2. every case, both modes
res=$out/results.jsonl; : > "$res"
jq -r '[.name, .scan] | @tsv' "$here/programs.jsonl" | sort |
while IFS=$'\t' read -r name scan; do
  pre=""; [ "$scan" = "." ] || pre="${scan%/}/"
  f=$here/cases/$name.jsonl
  [ -f "$f" ] || continue
  while IFS= read -r c; do
    for mode in message command; do
      if [ $mode = message ]; then jq -j '.output' <<<"$c"
      else jq -j '"$ " + .command + "\n" + .output' <<<"$c"; fi > "$out/q.txt"
      "$fl" explain --db "$db" --json --limit 3 - < "$out/q.txt" > "$out/a.json" 2>"$out/a.err" || true
      [ -s "$out/a.json" ] || echo '{"matches":[]}' > "$out/a.json"
      jq -c --argjson c "$c" --arg mode "$mode" --arg program "$name" --arg pre "$pre" '
        def ploc: {file: (split(":")[0:-1] | join(":")), line: (split(":")[-1] | tonumber)};
        ($c.expected | map(ploc)) as $exp
        | [.matches[] | {file: ($pre + .filePath), line: .lineNumber, score, matchType, repo, message}] as $m
        | {program: $program, id: $c.id, mode: $mode, kinds: $c.kinds, expected: $c.expected,
           nomatch: ($m | length == 0),
           file1: (($m | length) > 0 and any($exp[]; .file == $m[0].file)),
           line1: (($m | length) > 0 and any($exp[]; .file == $m[0].file and ((.line - $m[0].line) | fabs) <= 3)),
           top3: any($m[]; . as $x | any($exp[]; .file == $x.file)),
           top: ($m[0:3] | map({file, line, score, matchType, message: (.message // "" | .[0:120])}))}' \
        "$out/a.json" >> "$res"
    done
  done < "$f"
done

# every record of the store (file and line), to tell why a case missed
"$fl" list --db "$db" --json | jq -c '{repo, file: .filePath, line: .lineNumber, message: .errorMessage}' > "$out/records.jsonl"

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) printf "-"; else printf "%.1f%%", 100 * a / b }'; }
table() {  # rows of: program mode n file1 line1 top3 nomatch
  printf '| %-10s | %-8s | %5s | %12s | %12s | %12s | %9s |\n' program mode cases "rank-1 file" "rank-1 line" "top-3 file" "no match"
  printf '|%s|%s|%s|%s|%s|%s|%s|\n' ------------ ---------- ------- -------------- -------------- -------------- -----------
  while read -r p m n a b t z; do
    printf '| %-10s | %-8s | %5d | %12s | %12s | %12s | %9s |\n' "$p" "$m" "$n" "$(pct "$a" "$n")" "$(pct "$b" "$n")" "$(pct "$t" "$n")" "$z"
  done
}
echo "## real errors: $(jq -s 'map(select(.mode=="message")) | length' "$res") cases, $(jq -s 'map(.program) | unique | length' "$res") programs"
echo
jq -rs '
  def row($p; $m; $xs): [$p, $m, ($xs|length), ($xs|map(select(.file1))|length), ($xs|map(select(.line1))|length),
                         ($xs|map(select(.top3))|length), ($xs|map(select(.nomatch))|length)] | map(tostring) | join(" ");
  (group_by(.program)[] | . as $g | (["message","command"][] as $m | row($g[0].program; $m; $g | map(select(.mode == $m))))),
  (. as $all | ["message","command"][] as $m | row("ALL"; $m; $all | map(select(.mode == $m))))' "$res" | table
echo
echo "### by kind (message only, rank-1 file)"
jq -rs 'map(select(.mode=="message")) | [.[] | .kinds[] as $k | {k: $k, ok: .file1}] | group_by(.k)[] |
  "- \(.[0].k): \(map(select(.ok))|length)/\(length)"' "$res"

# why the message-only lookups missed (rank-1 file wrong):
#  ranked-below: the expected file is among the first 50 answers (explain
#                --limit 50), another file first
#  text-mismatch: a record of the expected file lies within 3 lines of the
#                 expected line, but it is not among the answers
#  no-record:     no record of the expected file near the expected line
jq -c --slurpfile progs "$here/programs.jsonl" --slurpfile recs "$out/records.jsonl" '
  ($progs | map({(.name): .repo}) | add) as $repo
  # records are relative to the scanned folder, expected paths to the repository
  | ($progs | map({(.repo): (if .scan == "." then "" else (.scan | rtrimstr("/")) + "/" end)}) | add) as $scanpre
  | ($recs | group_by(.repo + " " + .file) | map({(.[0].repo + " " + $scanpre[.[0].repo] + .[0].file): map(.line)}) | add) as $lines
  | select(.mode == "message" and (.file1 | not))
  | . as $c
  | ($c.expected | map({file: (split(":")[0:-1] | join(":")), line: (split(":")[-1] | tonumber)})) as $exp
  | (any($exp[]; . as $e | (($lines[$repo[$c.program] + " " + $e.file] // []) | any(. - $e.line | fabs <= 3)))) as $near
  | . + {near: $near}' "$res" > "$out/misses0.jsonl"
: > "$out/misses.jsonl"
while IFS= read -r m; do
  id=$(jq -r .id <<<"$m"); p=$(jq -r .program <<<"$m")
  pre=$(jq -r --arg p "$p" 'select(.name == $p) | if .scan == "." then "" else (.scan | rtrimstr("/")) + "/" end' "$here/programs.jsonl")
  jq -j --arg id "$id" 'select(.id == $id) | .output' "$here/cases/$p.jsonl" |
    "$fl" explain --db "$db" --json --limit 50 - 2>/dev/null > "$out/a.json" || true
  [ -s "$out/a.json" ] || echo '{"matches":[]}' > "$out/a.json"
  jq -c --argjson m "$m" --arg pre "$pre" '
    ($m.expected | map(split(":")[0:-1] | join(":"))) as $ef
    | ([.matches[] | $pre + .filePath] | to_entries | map(select(.value as $f | $ef | index($f))) | .[0].key) as $rank
    | $m + {rank50: (if $rank == null then null else $rank + 1 end),
            cause: (if $rank != null then "ranked-below" elif $m.near then "text-mismatch" else "no-record" end)}
    | del(.near)' "$out/a.json" >> "$out/misses.jsonl"
done < "$out/misses0.jsonl"
rm -f "$out/misses0.jsonl"
echo
echo "### misses (message only, rank-1 file wrong) by cause"
jq -rs 'group_by(.cause)[] | "- \(.[0].cause): \(length)  (" + (group_by(.program) | map("\(.[0].program) \(length)") | join(", ")) + ")"' "$out/misses.jsonl"

# 3. noise: lines that are not errors
shopt -s nullglob
noise=("$here"/noise/*.txt)
if [ ${#noise[@]} -gt 0 ]; then
  nres=$out/noise.tsv; : > "$nres"
  for nf in "${noise[@]}"; do
    b=$(basename "$nf" .txt)
    n=0; e_any=0; e_pat=0
    while IFS= read -r line || [ -n "$line" ]; do
      [ -n "${line//[[:space:]]/}" ] || continue
      n=$((n + 1))
      s=$(printf '%s' "$line" | "$fl" explain --db "$db" --json --limit 1 - 2>/dev/null | jq -r '.matches[0].score // 0' 2>/dev/null || echo 0)
      if awk -v s="$s" -v t=$CONF 'BEGIN { exit !(s >= t) }'; then e_any=$((e_any + 1)); printf '%s\texplain\t%s\t%s\n' "$b" "$s" "$line" >> "$out/noise-hits.tsv"; fi
      if awk -v s="$s" -v t=$PATTERN 'BEGIN { exit !(s >= t) }'; then e_pat=$((e_pat + 1)); fi
    done < "$nf"
    "$fl" grep-log --db "$db" --json "$nf" > "$out/grep-$b.jsonl" 2>/dev/null || true
    # a grouped error spans line..endLine: every line of it counts
    g_any=$(jq -s --argjson t $CONF '[.[] | select(.score >= $t) | range(.line; (.endLine // .line) + 1)] | unique | length' "$out/grep-$b.jsonl")
    g_pat=$(jq -s --argjson t $PATTERN '[.[] | select(.score >= $t) | range(.line; (.endLine // .line) + 1)] | unique | length' "$out/grep-$b.jsonl")
    jq -r --arg b "$b" '"\($b)\tgrep-log\t\(.score)\t\(.text)"' "$out/grep-$b.jsonl" >> "$out/noise-hits.tsv"
    printf '%s %d %d %d %d %d\n' "$b" "$n" "$e_any" "$e_pat" "$g_any" "$g_pat" >> "$nres"
  done
  echo
  echo "### noise (lines that are not errors; a match is score >= $CONF, lookup.md's confident answer; pattern tier >= $PATTERN)"
  echo
  printf '| %-22s | %6s | %14s | %14s | %14s | %14s |\n' file lines "explain >=$CONF" "explain >=$PATTERN" "grep-log >=$CONF" "grep-log >=$PATTERN"
  printf '|%s|%s|%s|%s|%s|%s|\n' ------------------------ -------- ---------------- ---------------- ---------------- ----------------
  awk '{ n+=$2; a+=$3; b+=$4; c+=$5; d+=$6; print } END { print "ALL", n, a, b, c, d }' "$nres" |
  while read -r b n a p g q; do
    printf '| %-22s | %6d | %6d (%5s) | %6d (%5s) | %6d (%5s) | %6d (%5s) |\n' "$b" "$n" "$a" "$(pct "$a" "$n")" "$p" "$(pct "$p" "$n")" "$g" "$(pct "$g" "$n")" "$q" "$(pct "$q" "$n")"
  done
fi
rm -f "$out/q.txt" "$out/a.json" "$out/a.err"
