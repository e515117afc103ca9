#!/usr/bin/env bash
# Load benchmark of `faultline serve`: GET /api/search on a 100k-record store
# with wrk, on 127.0.0.1 only, for a bounded time.  Prints requests/s,
# latency p50/p99 and errors for (1) one repeated query, (2) a rotation of
# 500 different real messages, both with the server's answer cache, and
# (3) the rotation with --no-cache (every request a full lookup).
#
# usage: bench/serve.sh BUILD_DIR [SOURCE_TREE]
#   SOURCE_TREE (default /tmp/bench/git, a clone of git's sources) is scanned
#   once; build/bench/gen_store derives the 100k-record store from it.
# env: DURATION (10s), CONNECTIONS (16), WRK_THREADS (1), SERVER_THREADS (2),
#      RECORDS (100000), BENCH_WORK (/tmp/fl-bench-serve),
#      STORE (a store made beforehand, e.g. bench_lookup's 10M one: used as
#      it is instead of a generated one), IN_PLACE=1 (serve --in-place: the
#      store served where it is, not copied into the cache first)
set -euo pipefail
B=$(readlink -f "${1:-build}")
SRC=${2:-/tmp/bench/git}
W=${BENCH_WORK:-/tmp/fl-bench-serve}
DUR=${DURATION:-10s}
CONNS=${CONNECTIONS:-16}
WT=${WRK_THREADS:-1}
ST=${SERVER_THREADS:-2}
N=${RECORDS:-100000}
FL="$B/faultline"
command -v wrk >/dev/null || { echo "bench/serve.sh: wrk is missing (scripts/bootstrap.sh installs it)" >&2; exit 1; }
mkdir -p "$W"
store=${STORE:-$W/store${N}.db}
# generated stores of an older schema (opened read-only below) are rebuilt
[ -n "${STORE:-}" ] || for db in "$W/source.db" "$store"; do
	[ -s "$db" ] && ! "$FL" status --db "$db" >/dev/null 2>&1 && rm -f "$db" "$db".*
done
if [ -z "${STORE:-}" ] && [ ! -s "$W/source.db" ]; then
	echo "scanning $SRC ..." >&2
	"$FL" scan "$SRC" --db "$W/source.db" >/dev/null
fi
if [ -n "${STORE:-}" ]; then
	N=$("$FL" status --db "$store" --json | jq '.records')
elif [ ! -s "$store" ]; then
	"$B/bench/gen_store" --from "$W/source.db" --db "$store" --records "$N" >&2
fi
# 500 real messages of the store, URL-encoded, as request paths (the list
# cut short once they are had: its writer's broken pipe is expected)
(set +o pipefail
 "$FL" list --db "$store" --json 2>/dev/null | jq -r '"/api/search?q=" + (.errorMessage | @uri)' 2>/dev/null |
	awk 'NR % 197 == 1 { print; if (++n == 500) exit }') >"$W/paths.txt"
cat >"$W/rotate.lua" <<'LUA'
local paths = {}
for l in io.lines(os.getenv("FL_PATHS")) do paths[#paths + 1] = l end
local i = math.random(#paths)
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA

log="$W/serve.err"
pid=""
trap '[ -n "$pid" ] && kill -TERM $pid 2>/dev/null; wait 2>/dev/null' EXIT
start_server() { # extra serve args...
	: >"$log"
	: >"$W/access.log"
	"$FL" serve --db "$store" ${IN_PLACE:+--in-place} --no-site --listen 127.0.0.1:0 --threads "$ST" \
		--access-log "$W/access.log" --cache-dir "$W/cache" "$@" 2>"$log" &
	pid=$!
	port=""
	for _ in $(seq 600); do
		port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")
		[ -n "$port" ] && break
		kill -0 $pid 2>/dev/null || { cat "$log" >&2; exit 1; }
		sleep 0.1
	done
	[ -n "$port" ] || { echo "bench/serve.sh: the server did not start" >&2; exit 1; }
	base="http://127.0.0.1:$port"
}
stop_server() {
	kill -TERM $pid
	wait $pid
	pid=""
	echo "    (server drained on SIGTERM; access log lines: $(wc -l <"$W/access.log"))"
}
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }  # server user+sys ticks
HZ=$(getconf CLK_TCK)
run() { # NAME OUT wrk-args...: one bounded wrk run, reported
	local name=$1 out=$2
	shift 2
	local c0 c1
	c0=$(cpu)
	wrk --latency -t"$WT" -c"$CONNS" -d"$DUR" "$@" >"$out"
	c1=$(cpu)
	report "$name" "$out" "$(( (c1 - c0) ))"
}
report() { # NAME WRK-OUTPUT SERVER-CPU-TICKS
	awk -v name="$1" -v ticks="${3:-0}" -v hz="$HZ" '
		/Requests\/sec/ { rps = $2 }
		/^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
		/Socket errors/ { serr = $0 } /Non-2xx/ { n2 = $NF }
		/requests in/ { total = $1 }
		END { printf "%-34s %10s req/s  p50 %-8s p99 %-8s requests %s  non-2xx %s  %s  server CPU %.1f us/request\n",
		      name, rps, p50, p99, total, n2 ? n2 : 0, serr ? serr : "socket errors 0",
		      total ? ticks / hz * 1e6 / total : 0 }' "$2"
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "store: $N records; server threads $ST; wrk -t$WT -c$CONNS -d$DUR; loopback"

start_server
one="$base$(sed -n 5p "$W/paths.txt")"
curl -s --max-time 30 "$one" | jq -c '{query, top: .matches[0].filePath}' >&2
wrk -t"$WT" -c"$CONNS" -d2s "$one" >/dev/null  # warm-up
run "one query (answer cache)" "$W/wrk-one.txt" "$one"
FL_PATHS="$W/paths.txt" run "500 real messages (answer cache)" "$W/wrk-rotate.txt" -s "$W/rotate.lua" "$base"
stop_server

start_server --no-cache
FL_PATHS="$W/paths.txt" wrk -t"$WT" -c"$CONNS" -d2s -s "$W/rotate.lua" "$base" >/dev/null
FL_PATHS="$W/paths.txt" run "500 real messages (--no-cache)" "$W/wrk-nocache.txt" -s "$W/rotate.lua" "$base"
stop_server
trap - EXIT
