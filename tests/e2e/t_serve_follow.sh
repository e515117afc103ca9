# faultline serve --data-url: stateless servers following one server's
# data set (/data/) on 127.0.0.1: the origin's version on both followers, a
# new export taken in under wrk with no failed request, the stale flag when
# the origin goes away, --offline from the cache, clear errors.

fdb="$WORK/follow.db"
cp -r "$TESTS/fixtures/python" "$WORK/fo-python"
rm -f "$WORK/fo-python/expected.tsv"
"$FL" scan "$WORK/fo-python" --repo acme/python --db "$fdb" >/dev/null 2>&1
# the record the second version adds
mkdir -p "$WORK/fo-new/app"
printf 'def open_ledger(path):\n    if not path:\n        raise ValueError("the quartermaster ledger is sealed")\n    return open(path).read()\n' \
	>"$WORK/fo-new/app/ledger.py"
NEWQ='ValueError: the quartermaster ledger is sealed'

FO_PIDS=()
# fo_start LOG ARGS... : start a server, wait (bounded) until it listens;
# sets FO_PID and FO (base URL); 1 when it did not come up
fo_start() {
	local log=$1
	shift
	: >"$log"
	"$FL" serve --listen 127.0.0.1:0 "$@" 2>"$log" &
	FO_PID=$!
	FO_PIDS+=("$FO_PID")
	local i port=""
	for i in $(seq 300); do
		port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")
		[ -n "$port" ] && break
		kill -0 "$FO_PID" 2>/dev/null || break
		sleep 0.1
	done
	FO="http://127.0.0.1:$port"
	[ -n "$port" ]
}
# fo_stop PID: SIGTERM, wait at most 10 s; the exit status (124 on timeout)
fo_stop() {
	kill -TERM "$1" 2>/dev/null
	local i
	for i in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		return 124
	fi
	wait "$1"
}
fo_cleanup() {
	local p
	for p in "${FO_PIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	FO_PIDS=()
}
# version URL: the datasetVersion a server's search answers with
version() { curl -s --max-time 10 --get --data-urlencode "q=not found" "$1/api/search" | jq -r .datasetVersion; }
# finds URL: the message of the first match of the new record's error
finds() { curl -s --max-time 10 --get --data-urlencode "q=$NEWQ" "$1/api/search" | jq -r '.matches[0].message // empty'; }
# wait_for SECONDS CMD...: until CMD succeeds (polled every 0.2 s)
wait_for() {
	local n=$(($1 * 5))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		n=$((n - 1))
	done
	return 1
}
at_version() { [ "$(version "$1")" = "$2" ]; }
is_stale() { [ "$(curl -s --max-time 10 "$1/healthz" | jq -r .stale)" = true ]; }

# ---- usage ---------------------------------------------------------------------
"$FL" serve --db "$fdb" --data-url http://127.0.0.1:1/data >/dev/null 2>"$WORK/fo-u.err"
check "serve --data-url: excludes --db (exit 2)" [ $? = 2 ]
check "serve --data-url: says --db and --data-url exclude each other" grep -q -- '--db and --data-url exclude each other' "$WORK/fo-u.err"
"$FL" serve --data "$WORK" --data-url http://127.0.0.1:1/data >/dev/null 2>&1
check "serve --data-url: excludes --data (exit 2)" [ $? = 2 ]
"$FL" serve --data-url ftp://127.0.0.1/data >/dev/null 2>&1
check "serve --data-url: an ftp:// URL is a usage error" [ $? = 2 ]
"$FL" serve --db "$fdb" --ttl 5 >/dev/null 2>&1
check "serve: --ttl needs --data-url" [ $? = 2 ]
"$FL" serve --data-url http://127.0.0.1:1/data --ttl 0 >/dev/null 2>&1
check "serve --data-url: --ttl 0 is a usage error" [ $? = 2 ]
check "serve --help: --data-url, --offline, --ttl" bash -c "'$FL' serve --help | grep -q -- '--data-url URL' && '$FL' serve --help | grep -q -- '--offline' && '$FL' serve --help | grep -q -- '--ttl SECONDS'"

if ! command -v wrk >/dev/null; then
	bad "serve --data-url: wrk is installed (scripts/bootstrap.sh)"
elif fo_start "$WORK/fo-origin.err" --db "$fdb" --cache-dir "$WORK/fo-c0" --no-cache; then
	ORIGIN=$FO
	ORIGIN_PID=$FO_PID
	v1=$(curl -s --max-time 10 "$ORIGIN/data/manifest.json" | jq -r .datasetVersion)
	fo_start "$WORK/fo-f1.err" --data-url "$ORIGIN/data" --cache-dir "$WORK/fo-c1" --ttl 1
	F1=$FO
	F1_PID=$FO_PID
	fo_start "$WORK/fo-f2.err" --data-url "$ORIGIN/data/" --cache-dir "$WORK/fo-c2" --ttl 1 --no-site
	F2=$FO
	F2_PID=$FO_PID
	check "serve --data-url: the origin publishes a data set at /data/" [ -n "$v1" ] && [ "$v1" != null ]
	check "serve --data-url: follower 1 answers /api/search with the origin's datasetVersion" at_version "$F1" "$v1"
	check "serve --data-url: follower 2 answers /api/search with the origin's datasetVersion" at_version "$F2" "$v1"
	check "serve --data-url: the followers hold the origin's records" \
		[ "$(curl -s --max-time 10 "$F1/healthz" | jq .records)" = "$(curl -s --max-time 10 "$ORIGIN/healthz" | jq .records)" ]
	check "serve --data-url: /healthz names the source, not stale" \
		[ "$(curl -s --max-time 10 "$F1/healthz" | jq -r '"\(.source) \(.stale)"')" = "$ORIGIN/data false" ]
	check "serve --data-url: the site is rendered from the followed version" \
		[ "$(curl -s --max-time 10 "$F1/data/manifest.json" | jq -r .datasetVersion)" = "$v1" ]
	check "serve --data-url --no-site: the followed data set under /data/" \
		[ "$(curl -s --max-time 10 "$F2/data/manifest.json" | jq -r .datasetVersion)" = "$v1" ]
	check "serve --data-url: the new record is not there yet" [ -z "$(finds "$F1")" ]

	# a new version while wrk runs on both followers (24 s: under ASan on a
	# loaded host, the scan, the publication and both switches took over 8,
	# and a CI run saw them take longer than 16 s without it)
	url() { printf '%s/api/search?q=ValueError%%3A+the+quartermaster+ledger+is+sealed' "$1"; }
	# follower 1: the API, the site and the data set files in turn (the
	# site folder is replaced at the switch); follower 2: searches
	cat >"$WORK/fo-mix.lua" <<'LUA'
local paths = {"/api/search?q=ValueError%3A+the+quartermaster+ledger+is+sealed",
               "/healthz", "/", "/data/manifest.json", "/data/index.json",
               "/api/repos", "/api/search?q=not+found&limit=3"}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA
	timeout 45 wrk -t1 -c8 -d24s -s "$WORK/fo-mix.lua" "$F1" >"$WORK/fo-wrk1.out" 2>&1 &
	W1=$!
	timeout 45 wrk -t1 -c8 -d24s "$(url "$F2")" >"$WORK/fo-wrk2.out" 2>&1 &
	W2=$!
	sleep 1
	"$FL" scan "$WORK/fo-new" --repo acme/ledger --db "$fdb" >/dev/null 2>&1
	new_version() { v2=$(curl -s --max-time 10 "$ORIGIN/data/manifest.json" | jq -r .datasetVersion); [ -n "$v2" ] && [ "$v2" != "$v1" ]; }
	check "serve --data-url: the origin publishes the changed store as a new version" wait_for 5 new_version
	switched() { at_version "$F1" "$v2" && at_version "$F2" "$v2"; }
	switched_under_wrk() { wait_for 18 switched && kill -0 "$W1" 2>/dev/null && kill -0 "$W2" 2>/dev/null; }
	check "serve --data-url: both followers switch while wrk runs" switched_under_wrk
	wait "$W1"
	wait "$W2"
	for w in 1 2; do
		check "serve --data-url: wrk on follower $w was answered" grep -q 'Requests/sec' "$WORK/fo-wrk$w.out"
		check "serve --data-url: no non-2xx/3xx answer on follower $w across the switch" bash -c "! grep -q 'Non-2xx or 3xx' '$WORK/fo-wrk$w.out'"
		check "serve --data-url: no socket error on follower $w across the switch" bash -c "! grep -q 'Socket errors' '$WORK/fo-wrk$w.out'"
	done
	echo "    wrk across the switch: follower 1 (API, site, /data/) $(awk '/Requests\/sec/ {print $2}' "$WORK/fo-wrk1.out") req/s, follower 2 (search) $(awk '/Requests\/sec/ {print $2}' "$WORK/fo-wrk2.out") req/s"
	check "serve --data-url: follower 1 answers with the new version" at_version "$F1" "$v2"
	check "serve --data-url: follower 2 answers with the new version" at_version "$F2" "$v2"
	check "serve --data-url: follower 1 finds the new message" [ "$(finds "$F1")" = "the quartermaster ledger is sealed" ]
	check "serve --data-url: follower 2 finds the new message" [ "$(finds "$F2")" = "the quartermaster ledger is sealed" ]
	check "serve --data-url: the followed site has the new version" \
		[ "$(curl -s --max-time 10 "$F1/data/manifest.json" | jq -r .datasetVersion)" = "$v2" ]
	check "serve --data-url: the switch is logged" grep -q "now serving data set $v2" "$WORK/fo-f1.err"
	check "serve --data-url: the previous version is pruned from the cache" \
		[ "$(ls -d "$WORK"/fo-c1/url-*/store-*.db | wc -l)" -le 2 ]

	# the origin goes away: the followers answer from the cache, stale
	fo_stop "$ORIGIN_PID"
	check "serve --data-url: without the origin, follower 1 says stale in /healthz" wait_for 5 is_stale "$F1"
	check "serve --data-url: without the origin, follower 2 says stale in /healthz" wait_for 5 is_stale "$F2"
	check "serve --data-url: stale /healthz gives the reason" \
		bash -c "curl -s --max-time 10 '$F1/healthz' | jq -e '.refreshError | test(\"manifest.json\")' >/dev/null"
	curl -s --max-time 10 -D "$WORK/fo-h.txt" -o "$WORK/fo-s.json" --get --data-urlencode "q=$NEWQ" "$F1/api/search"
	check "serve --data-url: stale, search still answers from the cache" \
		[ "$(jq -r '"\(.datasetVersion) \(.matches[0].message)"' "$WORK/fo-s.json")" = "$v2 the quartermaster ledger is sealed" ]
	check "serve --data-url: stale answers carry X-Faultline-Stale" grep -qi '^X-Faultline-Stale: true' "$WORK/fo-h.txt"
	fo_stop "$F1_PID"
	check "serve --data-url: stops on SIGTERM" [ $? = 0 ]

	# --offline: the cache, no origin
	if fo_start "$WORK/fo-off.err" --data-url "$ORIGIN/data" --cache-dir "$WORK/fo-c1" --offline; then
		check "serve --data-url --offline: answers from the cache with no origin" at_version "$FO" "$v2"
		check "serve --data-url --offline: finds the new message" [ "$(finds "$FO")" = "the quartermaster ledger is sealed" ]
		check "serve --data-url --offline: not stale (nothing was tried)" \
			[ "$(curl -s --max-time 10 "$FO/healthz" | jq -r .stale)" = false ]
		fo_stop "$FO_PID"
	else
		bad "serve --data-url --offline: starts from the cache" "$(cat "$WORK/fo-off.err")"
	fi
	# a follower started while the origin is away serves its cache, stale
	if fo_start "$WORK/fo-f3.err" --data-url "$ORIGIN/data" --cache-dir "$WORK/fo-c2" --ttl 1; then
		check "serve --data-url: started without the origin, the cache answers" at_version "$FO" "$v2"
		check "serve --data-url: started without the origin, stale" wait_for 5 is_stale "$FO"
		fo_stop "$FO_PID"
	else
		bad "serve --data-url: starts from a cache without the origin" "$(cat "$WORK/fo-f3.err")"
	fi

	# bad URLs: clear errors, no server
	timeout 30 "$FL" serve --listen 127.0.0.1:0 --data-url "$ORIGIN/data" --cache-dir "$WORK/fo-c9" >/dev/null 2>"$WORK/fo-bad.err"
	rc=$?
	check "serve --data-url: an unreachable URL with no cache fails (exit 1)" [ $rc = 1 ]
	check "serve --data-url: ... saying there is no cached copy" grep -q 'cannot fetch the data set and there is no cached copy' "$WORK/fo-bad.err"
	timeout 30 "$FL" serve --listen 127.0.0.1:0 --data-url "$F2/api" --cache-dir "$WORK/fo-c9" >/dev/null 2>"$WORK/fo-bad2.err"
	rc=$?
	check "serve --data-url: a URL that is not a data set fails (exit 1)" [ $rc = 1 ]
	check "serve --data-url: ... naming its manifest.json" grep -q "$F2/api/manifest.json" "$WORK/fo-bad2.err"
	timeout 30 "$FL" serve --listen 127.0.0.1:0 --data-url "$ORIGIN/data" --cache-dir "$WORK/fo-c9" --offline >/dev/null 2>"$WORK/fo-bad3.err"
	check "serve --data-url --offline: no cache is a clear error (exit 1)" [ $? = 1 ]
	check "serve --data-url --offline: ... saying so" grep -q -- '--offline forbids fetching' "$WORK/fo-bad3.err"
	fo_stop "$F2_PID"
	fo_cleanup
else
	bad "serve --data-url: the origin starts" "$(cat "$WORK/fo-origin.err")"
	fo_cleanup
fi
