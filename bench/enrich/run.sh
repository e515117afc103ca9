#!/usr/bin/env bash
# bench/enrich/run.sh — throughput of `faultline enrich` through the whole
# pipeline (enrich, defend and verify phases) against a fake OpenAI-compatible
# provider on 127.0.0.1 that answers every call after a fixed delay, so the
# figure measures faultline's batching, jobs and store writes, not a model.
#
# usage: bash bench/enrich/run.sh FAULTLINE_BIN [N_RECORDS]
#   (a) copies tests/fixtures/<language> trees to a temporary folder and scans
#       each into a temporary store as local/<language>; when N_RECORDS is
#       given and the fixtures hold fewer records, scans them again under
#       other names (local/<language>-2, -3 ...: new ids) until the store holds
#       N_RECORDS, and enrich runs with --limit N_RECORDS;
#   (b) starts tests/enrich/fake_openai.py with --delay (200 ms) and the
#       script "good" (every call answered, every record);
#   (c) times `faultline enrich --db DB --openai-url http://127.0.0.1:PORT/v1
#       --model fake --jobs 8` (enrich.md's command line);
#   (d) prints the records, the calls per phase (from the fake's log), the
#       seconds and records per second, and how many records carry the fake's
#       text afterwards (documentation "Model text for <errorMessage>").
# env: JOBS (8), BATCH (unset: enrich's default), DELAY_MS (200),
#      TMPDIR (where the work folder is made, default /tmp); KEEP=1 keeps it.
# Exits 1 when a step fails; 3 after (a) and (b) when FAULTLINE_BIN has no
# `enrich` command yet.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: bash bench/enrich/run.sh FAULTLINE_BIN [N_RECORDS]" >&2
	exit 2
fi
BIN=$(readlink -f "$1")
N=${2:-}
JOBS=${JOBS:-8}
DELAY_MS=${DELAY_MS:-200}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ -x "$BIN" ] || { echo "bench/enrich: $1 is not an executable" >&2; exit 2; }
if [ -n "$N" ] && ! [[ "$N" =~ ^[1-9][0-9]*$ ]]; then
	echo "bench/enrich: N_RECORDS must be a positive integer: $N" >&2
	exit 2
fi
command -v python3 >/dev/null || { echo "bench/enrich: python3 is missing (scripts/bootstrap.sh installs it)" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench/enrich: jq is missing (scripts/bootstrap.sh installs it)" >&2; exit 1; }
# shellcheck source=tests/enrich/fakes.sh
. "$ROOT/tests/enrich/fakes.sh"

W=$(mktemp -d "${TMPDIR:-/tmp}/fl-bench-enrich-XXXXXX")
cleanup() { fake_openai_stop; [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
DB=$W/store.db
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# (a) the store
mkdir -p "$W/trees"
langs=()
for d in "$ROOT"/tests/fixtures/*/; do
	l=$(basename "$d")
	cp -r "$d" "$W/trees/$l"
	rm -f "$W/trees/$l/expected.tsv" "$W/trees/$l/expected.json"
	langs+=("$l")
done
[ ${#langs[@]} -gt 0 ] || { echo "bench/enrich: no tree under tests/fixtures" >&2; exit 1; }
count() { "$BIN" list --db "$DB" | wc -l; }
round=1
while :; do
	for l in "${langs[@]}"; do
		repo=local/$l
		[ "$round" -gt 1 ] && repo=local/$l-$round
		"$BIN" scan "$W/trees/$l" --db "$DB" --repo "$repo" >/dev/null ||
			{ echo "bench/enrich: scan of $l failed" >&2; exit 1; }
	done
	have=$(count)
	if [ -z "$N" ] || [ "$have" -ge "$N" ]; then break; fi
	[ "$have" -gt 0 ] || { echo "bench/enrich: the fixtures gave no record" >&2; exit 1; }
	round=$((round + 1))
done
RECORDS=${N:-$have}
echo "store: $have records from ${#langs[@]} fixture trees, $round round(s); enriching $RECORDS"

# (b) the provider
fake_openai_start "$W/fake" '"good"' --delay "$DELAY_MS" ||
	{ echo "bench/enrich: the fake provider did not start" >&2; exit 1; }
echo "provider: $FAKE_URL, every call answered after $DELAY_MS ms"

if ! "$BIN" enrich --help >/dev/null 2>&1; then
	echo "bench/enrich: $BIN has no 'enrich' command yet; steps (a) and (b) done, (c) and (d) skipped" >&2
	exit 3
fi

# (c) the run
args=(enrich --db "$DB" --openai-url "$FAKE_URL" --model fake --jobs "$JOBS")
[ -n "$N" ] && args+=(--limit "$N")
[ -n "${BATCH:-}" ] && args+=(--batch "$BATCH")
echo "run: faultline ${args[*]}"
t0=$(date +%s%N)
set +e
time "$BIN" "${args[@]}" >"$W/enrich.out" 2>"$W/enrich.err"
rc=$?
set -e
t1=$(date +%s%N)
if [ "$rc" -ne 0 ]; then
	echo "bench/enrich: faultline enrich exited $rc:" >&2
	tail -n 20 "$W/enrich.err" >&2
	exit 1
fi

# (d) the figures
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
calls=$(wc -l <"$W/fake/openai.log")
per_phase=$(jq -rs 'group_by(.phase) | map("\(.[0].phase) \(length)") | join(", ")' "$W/fake/openai.log")
failed=$(jq -s 'map(select(.status != 200)) | length' "$W/fake/openai.log")
landed=$("$BIN" list --db "$DB" --json | jq -s 'map(select(.documentation == "Model text for " + .errorMessage)) | length')
echo "records:   $RECORDS ($(count) in the store, $landed with the provider's text)"
echo "calls:     $calls ($per_phase; $failed not answered 200)"
echo "seconds:   $secs (jobs $JOBS, provider delay $DELAY_MS ms per call)"
awk -v r="$RECORDS" -v s="$secs" -v c="$calls" -v j="$JOBS" -v d="$DELAY_MS" 'BEGIN {
	printf "records/s: %.1f through the three phases\n", (s > 0 ? r / s : 0)
	printf "floor:     %.3f s (calls x delay / jobs: the provider alone)\n", c * d / 1000 / j
}'
