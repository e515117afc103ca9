# Attacks on `faultline mcp --data-url` (issue 18): a fake data set server on
# 127.0.0.1 (python3, below) that declares a 10^12-byte inventory, sends more
# than a file declares, trickles the manifest at 2 bytes/s, and serves an
# older datasetVersion after a newer one was cached.  Each run is bounded by
# `timeout`; the client must stay small in memory, give a clear error, keep
# its cache and answer the next tool call promptly.

am="$WORK/am"
mkdir -p "$am/www"
for l in python go; do
	[ -d "$TESTS/fixtures/$l" ] || continue
	cp -r "$TESTS/fixtures/$l" "$am/src-$l"
	rm -f "$am/src-$l/expected.tsv"
	"$FL" scan "$am/src-$l" --repo "acme/$l" --db "$am/am.db" >/dev/null 2>&1
done
"$FL" export --db "$am/am.db" "$am/d1" >/dev/null 2>&1
sleep 0.01
"$FL" export --db "$am/am.db" "$am/d2" >/dev/null 2>&1
amv1=$(jq -r .datasetVersion "$am/d1/manifest.json")
amv2=$(jq -r .datasetVersion "$am/d2/manifest.json")

# The server: GET /NAME/FILE serves www/NAME/FILE, in the way www/NAME/.mode
# says: "trickle" (every file, 1 byte each 0.5 s), "flood F" (file F: its
# bytes, then zeros without end, no Content-Length), "flood-cl F" (the same,
# announcing a Content-Length of 10^12).  Each request
# is logged to www/requests.log.
cat >"$am/server.py" <<'EOF'
import http.server, os, sys, time
root = sys.argv[1]
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def log_message(self, *a):
        pass
    def do_GET(self):
        with open(os.path.join(root, "requests.log"), "a") as f:
            f.write(self.path + "\n")
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) < 2 or ".." in parts:
            self.send_error(404)
            return
        try:
            mode = open(os.path.join(root, parts[0], ".mode")).read().split()
        except OSError:
            mode = []
        mode, victim = (mode + ["", ""])[:2]
        path = os.path.join(root, *parts)
        body = open(path, "rb").read() if os.path.isfile(path) else None
        flood = mode.startswith("flood") and parts[-1] == victim
        if body is None and not flood:
            self.send_error(404)
            return
        body = body or b""
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if mode == "flood-cl" and flood:
                self.send_header("Content-Length", str(10**12))
            elif not flood:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if mode == "trickle":
                for i in range(len(body)):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    time.sleep(0.5)
            elif flood:
                self.wfile.write(body)
                zeros = b"0" * (1 << 20)
                for i in range(2048):  # at most 2 GiB, stops when the client hangs up
                    self.wfile.write(zeros)
            else:
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
s.daemon_threads = True
with open(os.path.join(root, "port.tmp"), "w") as f:
    f.write(str(s.server_address[1]))
os.rename(os.path.join(root, "port.tmp"), os.path.join(root, "port"))
s.serve_forever()
EOF
timeout 600 python3 "$am/server.py" "$am/www" 2>"$am/server.err" &
am_srv=$!
# the server is killed on exit, before what run.sh's EXIT trap does
am_trap_cmd() { [ -n "$1" ] && eval "set -- $1" && printf '%s' "$3"; }
am_prev=$(am_trap_cmd "$(trap -p EXIT)")
trap "kill $am_srv 2>/dev/null; $am_prev" EXIT
for i in $(seq 100); do
	[ -s "$am/www/port" ] && break
	sleep 0.1
done
amurl="http://127.0.0.1:$(cat "$am/www/port" 2>/dev/null)"
check "attack mcp: fake data set server on 127.0.0.1" [ -s "$am/www/port" ]

AM_INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'
AM_REFRESH='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"refresh_dataset","arguments":{}}}'
AM_SEARCH='{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_error","arguments":{"message":"panic: port must be set"}}}'

# The client side: run.py OUT IN ERR CMD... runs CMD with stdin IN, writes
# its stdout lines to OUT each prefixed with the seconds since the start,
# stderr to ERR, and prints "EXIT-STATUS SECONDS PEAK-RSS-KB".
cat >"$am/run.py" <<'EOF'
import resource, subprocess, sys, time
out, inp, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
t0 = time.monotonic()
with open(inp, "rb") as i, open(err, "wb") as e, open(out, "w") as o:
    p = subprocess.Popen(cmd, stdin=i, stdout=subprocess.PIPE, stderr=e)
    for line in p.stdout:
        o.write("%.3f %s" % (time.monotonic() - t0, line.decode("utf-8", "replace")))
        o.flush()
    rc = p.wait()
print(rc, "%.3f" % (time.monotonic() - t0), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
# am_run NAME MCP-ARGS... : faultline mcp with the requests of $am/NAME.in
# (default: initialize, refresh_dataset, search_error) on stdin; answers to
# $am/NAME.out, each line prefixed with the seconds since the start; stderr
# to $am/NAME.err; its exit status to $am/NAME.rc, wall time (s) to
# $am/NAME.secs, peak RSS (KB) to $am/NAME.rss
am_run() {
	local n=$1 r
	shift
	[ -f "$am/$n.in" ] || cp "$am/rs.in" "$am/$n.in"
	r=$(python3 "$am/run.py" "$am/$n.out" "$am/$n.in" "$am/$n.err" timeout 60 "$FL" mcp "$@")
	set -- $r
	echo "$1" >"$am/$n.rc"
	echo "$2" >"$am/$n.secs"
	echo "$3" >"$am/$n.rss"
}
# am_ans NAME ID : the answer to request ID;  am_at NAME ID : when it came
am_ans() { sed 's/^[0-9.]* //' "$am/$1.out" | jq -c "select(.id == $2)"; }
am_at() { awk -v id="\"id\":$2," 'index($0, id) { print $1; exit }' "$am/$1.out"; }
# am_lt A B : A < B (decimals);  am_minus A B : A - B
am_lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 < b + 0) }'; }
am_minus() { awk -v a="$1" -v b="$2" 'BEGIN { print a - b }'; }
am_log() { grep -c "^/$1" "$am/www/requests.log" 2>/dev/null; }
# am_set NAME DIR [MODE] : www/NAME serves data set DIR, in MODE
am_set() {
	rm -rf "$am/www/$1.new"
	cp -r "$2" "$am/www/$1.new"
	[ -n "${3:-}" ] && printf '%s\n' "$3" >"$am/www/$1.new/.mode"
	rm -rf "$am/www/$1"
	mv "$am/www/$1.new" "$am/www/$1"
}
# am_sha FILE, am_size FILE
am_sha() { sha256sum "$1" | cut -d' ' -f1; }
am_size() { stat -c %s "$1"; }
# RSS bound: the sanitizer build's own overhead included
am_rss_max=400000
# am_grep_in TEXT PATTERN
am_grep_in() { printf '%s\n' "$1" | grep -q -- "$2"; }
# am_refused NAME : the run ended with exit 1 within 10 s
am_refused() { [ "$(cat "$am/$1.rc")" = 1 ] && am_lt "$(cat "$am/$1.secs")" 10; }
# am_ended_within NAME SECONDS : the run ended with exit 0 within SECONDS
am_ended_within() { [ "$(cat "$am/$1.rc")" = 0 ] && am_lt "$(cat "$am/$1.secs")" "$2"; }
# am_line_of NAME ID : the lineNumber of the first match in answer ID
am_line_of() { am_ans "$1" "$2" | jq -r .result.structuredContent.matches[0].lineNumber; }

printf '%s\n' "$AM_INIT" "$AM_REFRESH" "$AM_SEARCH" >"$am/rs.in"

# ---- (a) a manifest declaring a 10^12-byte inventory -------------------------
am_set huge "$am/d2" "flood-cl inventory.json"
jq -c '.files.inventory.bytes = 1000000000000' "$am/d2/manifest.json" >"$am/www/huge/manifest.json"
am_run huge --data-url "$amurl/huge" --cache-dir "$am/c-huge"
check "attack mcp: 10^12-byte inventory: refused (exit 1) within 10 s" am_refused huge
check "attack mcp: 10^12-byte inventory: a clear error naming the cap" \
	grep -q "declares 1000000000000 bytes.*more than" "$am/huge.err"
check "attack mcp: 10^12-byte inventory: nothing but the manifest downloaded" \
	[ "$(grep '^/huge/' "$am/www/requests.log" | grep -vc '/manifest.json$')" = 0 ]
check "attack mcp: 10^12-byte inventory: memory stays small" [ "$(cat "$am/huge.rss")" -lt $am_rss_max ]

# the inventory itself (checked against the manifest) declares a 10^12-byte file
f=$(jq -r '[.files[] | select(.path | test("/errors/"))][0].path' "$am/d2/inventory.json")
am_set huge2 "$am/d2" "flood $(basename "$f")"
jq -c --arg f "$f" '(.files[] | select(.path == $f) | .bytes) = 1000000000000' \
	"$am/d2/inventory.json" >"$am/www/huge2/inventory.json"
jq -c --arg s "$(am_sha "$am/www/huge2/inventory.json")" --argjson n "$(am_size "$am/www/huge2/inventory.json")" \
	'.files.inventory.sha256 = $s | .files.inventory.bytes = $n' "$am/d2/manifest.json" >"$am/www/huge2/manifest.json"
am_run huge2 --data-url "$amurl/huge2" --cache-dir "$am/c-huge2"
check "attack mcp: a 10^12-byte file in the inventory: refused within 10 s" am_refused huge2
check "attack mcp: a 10^12-byte file in the inventory: a clear error" \
	grep -q "inventory.json: files\[[0-9]*\]: declares 1000000000000 bytes, more than the 1073741824 (1 GiB) a data set file may be" "$am/huge2.err"
check "attack mcp: a 10^12-byte file in the inventory: no listed file downloaded" \
	[ "$(grep -c '^/huge2/errors/' "$am/www/requests.log")" = 0 ]
check "attack mcp: a 10^12-byte file in the inventory: memory stays small" [ "$(cat "$am/huge2.rss")" -lt $am_rss_max ]

# nine files of 1 GiB each: over the 8 GiB a data set may be
am_set huge3 "$am/d2" "flood $(basename "$f")"
jq -c '[.files[] | select(.path | test("/(index|repos|inventory)[.]json$") | not) | .path][:9] as $big |
	(.files[] | select(.path as $p | $big | index($p)) | .bytes) = 1073741824' \
	"$am/d2/inventory.json" >"$am/www/huge3/inventory.json"
jq -c --arg s "$(am_sha "$am/www/huge3/inventory.json")" --argjson n "$(am_size "$am/www/huge3/inventory.json")" \
	'.files.inventory.sha256 = $s | .files.inventory.bytes = $n' "$am/d2/manifest.json" >"$am/www/huge3/manifest.json"
am_run huge3 --data-url "$amurl/huge3" --cache-dir "$am/c-huge3"
check "attack mcp: a data set of 9 GiB: refused within 10 s" am_refused huge3
check "attack mcp: a data set of 9 GiB: a clear error" \
	grep -q "inventory.json: the data set declares at least [0-9]* bytes, more than the 8589934592 (8 GiB)" "$am/huge3.err"
check "attack mcp: a data set of 9 GiB: no listed file downloaded" \
	[ "$(grep -c '^/huge3/errors/' "$am/www/requests.log")" = 0 ]

# a data set larger than the room left in the cache's file system (a 4 MiB
# tmpfs, mounted in a user namespace of its own where allowed)
am_set space "$am/d2" "flood $(basename "$f")"
jq -c --arg f "$f" '(.files[] | select(.path == $f) | .bytes) = 67108864' \
	"$am/d2/inventory.json" >"$am/www/space/inventory.json"
jq -c --arg s "$(am_sha "$am/www/space/inventory.json")" --argjson n "$(am_size "$am/www/space/inventory.json")" \
	'.files.inventory.sha256 = $s | .files.inventory.bytes = $n' "$am/d2/manifest.json" >"$am/www/space/manifest.json"
mkdir -p "$am/tmpfs"
if unshare -rm true 2>/dev/null; then
	timeout 60 unshare -rm sh -c 'mount -t tmpfs -o size=4m none "$1" && exec "$2" mcp --data-url "$3" --cache-dir "$1/c"' \
		sh "$am/tmpfs" "$FL" "$amurl/space" </dev/null >/dev/null 2>"$am/space.err"
	rc=$?
	check "attack mcp: a data set larger than the free space: refused" \
		bash -c "[ $rc = 1 ] && grep -q 'inventory.json: the data set declares [0-9]* bytes, and .* has only [0-9]* bytes free' '$am/space.err'"
	check "attack mcp: a data set larger than the free space: no listed file downloaded" \
		[ "$(grep -c '^/space/errors/' "$am/www/requests.log")" = 0 ]
else
	echo "skip - attack mcp: a data set larger than the free space (no user namespaces to mount a small tmpfs)"
fi

# ---- (b) more bytes than declared ------------------------------------------------
am_set flood "$am/d2" "flood index.json"
am_run flood --data-url "$amurl/flood" --cache-dir "$am/c-flood"
check "attack mcp: more bytes than declared: refused within 10 s" am_refused flood
check "attack mcp: more bytes than declared: a clear error" \
	grep -q "sent more than the $(jq .files.index.bytes "$am/d2/manifest.json") bytes manifest.json" "$am/flood.err"
check "attack mcp: more bytes than declared: memory stays small" [ "$(cat "$am/flood.rss")" -lt $am_rss_max ]
check "attack mcp: more bytes than declared: no partial download left" bash -c "! ls -d '$am'/c-flood/url-*/tmp-* 2>/dev/null"
# a Content-Length over the declared size is refused before the body
am_set floodcl "$am/d2" "flood-cl index.json"
am_run floodcl --data-url "$amurl/floodcl" --cache-dir "$am/c-floodcl"
check "attack mcp: a Content-Length over the declared size: refused" am_refused floodcl
check "attack mcp: a Content-Length over the declared size: a clear error" \
	grep -q 'announces .*over the [0-9]* bytes manifest.json\|announces .*more than the [0-9]* bytes manifest.json' "$am/floodcl.err"

# a FIFO in place of a listed file of a file:// data set (libcurl's blocking
# open() would wait for a writer for ever)
cp -r "$am/d2" "$am/fifo"
f=$(ls "$am"/fifo/errors/*.json | head -1)
rm "$f" && mkfifo "$f"
am_run fifo --data-url "file://$am/fifo" --cache-dir "$am/c-fifo"
check "attack mcp: a FIFO in a file:// data set: refused within 10 s" am_refused fifo
check "attack mcp: a FIFO in a file:// data set: a clear error" grep -q "$(basename "$f"): not a regular file (a FIFO)" "$am/fifo.err"
# a symlink to a file outside it, in place of a listed file: not followed
cp -r "$am/d2" "$am/link"
f=$(ls "$am"/link/errors/*.json | head -1)
mv "$f" "$am/outside.json" && ln -s "$am/outside.json" "$f"
am_run link --data-url "file://$am/link" --cache-dir "$am/c-link"
check "attack mcp: a symlink in a file:// data set: refused" \
	bash -c "[ \"\$(cat '$am/link.rc')\" = 1 ] && grep -q '$(basename "$f"): not a regular file (a symlink)' '$am/link.err'"

# ---- (c) a manifest trickled at 2 bytes/s -------------------------------------
am_set slow "$am/d1"
am_run slow0 --data-url "$amurl/slow" --cache-dir "$am/c-slow"
check "attack mcp: trickle: the first version is cached" \
	[ "$(am_ans slow0 2 | jq -r .result.structuredContent.datasetVersion)" = "$amv1" ]
am_set slow "$am/d2" trickle
# refresh_dataset gives up at the sync's deadline, the cache stays in use
am_run slow1 --data-url "$amurl/slow" --cache-dir "$am/c-slow" --sync-timeout 3
r=$(am_ans slow1 2)
check "attack mcp: trickle: refresh_dataset answers within 10 s" am_lt "$(am_at slow1 2)" 10
check "attack mcp: trickle: a clear timeout error" \
	am_grep_in "$(printf '%s' "$r" | jq -r .result.structuredContent.refreshError)" 'gave up after 3 s (--sync-timeout)'
check "attack mcp: trickle: the old cache stays in use, stale" \
	[ "$(echo "$r" | jq -r '.result.structuredContent | "\(.datasetVersion) \(.stale)"')" = "$amv1 true" ]
check "attack mcp: trickle: the next tool call is answered from the cache" [ "$(am_line_of slow1 3)" = 21 ]
check "attack mcp: trickle: ... within 2 s of the refresh" am_lt "$(am_minus "$(am_at slow1 3)" "$(am_at slow1 2)")" 2
check "attack mcp: trickle: the cache still points to the first version" \
	[ "$(jq -r .datasetVersion "$am"/c-slow/url-*/state.json)" = "$amv1" ]
# a sync started by the TTL runs beside the tool calls: they do not wait for
# it, refresh_dataset waits a bounded time and says it is still running, and
# the end of input ends the process at once
sleep 1.1
printf '%s\n' "$AM_INIT" "$AM_SEARCH" "${AM_REFRESH/\"id\":2/\"id\":4}" "${AM_SEARCH/\"id\":3/\"id\":5}" >"$am/slow2.in"
am_run slow2 --data-url "$amurl/slow" --cache-dir "$am/c-slow" --ttl 1
check "attack mcp: trickle: a tool call during a slow sync answers within 5 s" am_lt "$(am_at slow2 3)" 5
check "attack mcp: trickle: ... from the cache" [ "$(am_line_of slow2 3)" = 21 ]
check "attack mcp: trickle: refresh_dataset during a slow sync answers within 15 s" am_lt "$(am_at slow2 4)" 15
check "attack mcp: trickle: ... saying the sync is still running" \
	[ "$(am_ans slow2 4 | jq -r '.result.structuredContent | "\(.refreshing) \(.datasetVersion)"')" = "true $amv1" ]
check "attack mcp: trickle: the next call after it is answered within 2 s" \
	am_lt "$(am_minus "$(am_at slow2 5)" "$(am_at slow2 4)")" 2
check "attack mcp: trickle: ... from the cache" [ "$(am_line_of slow2 5)" = 21 ]
check "attack mcp: trickle: the end of input ends the process without waiting for the sync" \
	am_ended_within slow2 20

# ---- (d) rollback to an older datasetVersion ----------------------------------------
am_set roll "$am/d2"
am_run roll0 --data-url "$amurl/roll" --cache-dir "$am/c-roll"
check "attack mcp: rollback: the newer version is cached" \
	[ "$(am_ans roll0 2 | jq -r .result.structuredContent.datasetVersion)" = "$amv2" ]
am_set roll "$am/d1"
n0=$(am_log roll)
am_run roll1 --data-url "$amurl/roll" --cache-dir "$am/c-roll"
r=$(am_ans roll1 2)
check "attack mcp: rollback: an older datasetVersion is refused" \
	am_grep_in "$(printf '%s' "$r" | jq -r .result.structuredContent.refreshError)" "older than the cached $amv2.*--allow-rollback"
check "attack mcp: rollback: the newer cache stays in use" \
	[ "$(echo "$r" | jq -r '.result.structuredContent | "\(.datasetVersion) \(.stale)"')" = "$amv2 true" ]
check "attack mcp: rollback: nothing but the manifest downloaded" [ "$(am_log roll)" = $((n0 + 1)) ]
check "attack mcp: rollback: state.json unchanged" [ "$(jq -r .datasetVersion "$am"/c-roll/url-*/state.json)" = "$amv2" ]
am_run roll2 --data-url "$amurl/roll" --cache-dir "$am/c-roll" --allow-rollback
check "attack mcp: rollback: accepted with --allow-rollback" \
	[ "$(am_ans roll2 2 | jq -r '.result.structuredContent | "\(.datasetVersion) \(.stale) \(.changed)"')" = "$amv1 false true" ]
"$FL" mcp --help >"$am/help.txt" 2>&1
check "attack mcp: --allow-rollback and --sync-timeout in --help" \
	bash -c "grep -q -- --allow-rollback '$am/help.txt' && grep -q -- --sync-timeout '$am/help.txt'"
timeout 10 "$FL" mcp --data-url "$amurl/roll" --sync-timeout 0 </dev/null >/dev/null 2>"$am/e.txt"
rc=$?
check "attack mcp: --sync-timeout 0 is a usage error" bash -c "[ $rc = 2 ] && grep -q 'sync-timeout' '$am/e.txt'"

check "attack mcp: no memory errors or leaks (sanitizer builds)" \
	bash -c "! cat '$am'/*.err 2>/dev/null | grep -E 'AddressSanitizer|LeakSanitizer|runtime error'"
kill $am_srv 2>/dev/null
wait $am_srv 2>/dev/null
if [ -n "$am_prev" ]; then trap -- "$am_prev" EXIT; else trap - EXIT; fi
