# faultline serve under attack (issue 18): request smuggling, FIFOs and
# symlinks in a --site folder, connection exhaustion (wrk bursts,
# slowloris), a store rescanned while it is served.  Servers listen on
# 127.0.0.1 with a port the kernel picks; every client is on loopback,
# every loop is bounded, every process is killed on the way out.

adb="$WORK/attack.db"
cp -r "$TESTS/fixtures/python" "$WORK/atk-py"
rm -f "$WORK/atk-py/expected.tsv"
"$FL" scan "$WORK/atk-py" --repo acme/python --db "$adb" >/dev/null 2>&1

ATK_PIDS=()
atk_cleanup() {
	local p
	for p in "${ATK_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${ATK_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	ATK_PIDS=()
}
trap 'atk_cleanup; rm -rf "$WORK"' EXIT

# atk_start LOG ARGS...: start a server, wait (bounded) until it listens;
# sets AS_PID, AS_PORT and AS (base URL).  Returns 1 when it did not come up.
atk_start() {
	local log=$1
	shift
	: >"$log"
	"$FL" serve --listen 127.0.0.1:0 --cache-dir "$WORK/atk-cache" "$@" 2>"$log" &
	AS_PID=$!
	ATK_PIDS+=("$AS_PID")
	local i
	AS_PORT=""
	for i in $(seq 300); do
		AS_PORT=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")
		[ -n "$AS_PORT" ] && break
		kill -0 "$AS_PID" 2>/dev/null || break
		sleep 0.1
	done
	AS="http://127.0.0.1:$AS_PORT"
	[ -n "$AS_PORT" ]
}

# atk_stop: SIGTERM, at most 10 s, then SIGKILL; returns the exit status
atk_stop() {
	kill -TERM "$AS_PID" 2>/dev/null
	local i
	for i in $(seq 100); do
		kill -0 "$AS_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$AS_PID" 2>/dev/null
	wait "$AS_PID"
}

# raw PORT REQUEST: send REQUEST (printf escapes) on one connection from
# 127.0.0.1, print what comes back (at most 5 s)
cat >"$WORK/raw.py" <<'PY'
import socket, sys
port, req = int(sys.argv[1]), sys.argv[2].encode().decode("unicode_escape").encode("latin-1")
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(req)
out = b""
try:
    while True:
        d = s.recv(65536)
        if not d:
            break
        out += d
except OSError:
    pass
sys.stdout.write(out.decode("latin-1"))
PY
raw() { timeout 10 python3 "$WORK/raw.py" "$@"; }
# status_of: the status code of the response on stdin
status_of() { head -1 | tr -d '\r' | cut -d' ' -f2; }
# json_error_of CODE: the body on stdin is {"error":{"status":CODE,"message":...}}
json_error_of() { sed '1,/^\r$/d' | jq -e --argjson c "$1" '.error.status == $c and (.error.message | type) == "string"' >/dev/null 2>&1; }

# ---- request smuggling: the length of a body must be unambiguous ----------
if atk_start "$WORK/atk1.err" --db "$adb" --no-site; then
	r=$(raw "$AS_PORT" 'POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello!')
	check "attack: two different Content-Length headers are a 400" [ "$(status_of <<<"$r")" = 400 ]
	check "attack: ... with a JSON error body" json_error_of 400 <<<"$r"
	r=$(raw "$AS_PORT" 'POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n')
	check "attack: Content-Length with Transfer-Encoding is a 400" [ "$(status_of <<<"$r")" = 400 ]
	check "attack: ... with a JSON error body" json_error_of 400 <<<"$r"
	r=$(raw "$AS_PORT" 'GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\nConnection: close\r\n\r\n0\r\n\r\n')
	check "attack: a GET with both framing headers is a 400" [ "$(status_of <<<"$r")" = 400 ]
	r=$(raw "$AS_PORT" 'POST /api/explain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\nConnection: close\r\n\r\n0\r\n\r\n')
	check "attack: two Transfer-Encoding headers are a 400" [ "$(status_of <<<"$r")" = 400 ]
	r=$(raw "$AS_PORT" 'POST /api/explain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\nConnection: close\r\n\r\n0\r\n\r\n')
	check "attack: a Transfer-Encoding other than chunked is a 400" [ "$(status_of <<<"$r")" = 400 ]
	# what stays accepted: one Content-Length (or the same one twice), chunked alone
	r=$(raw "$AS_PORT" 'POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')
	check "attack: one Content-Length is answered" [ "$(status_of <<<"$r")" = 200 ]
	r=$(raw "$AS_PORT" 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
	check "attack: the same Content-Length twice is answered" [ "$(status_of <<<"$r")" = 200 ]
	r=$(raw "$AS_PORT" 'POST /api/explain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n')
	check "attack: a chunked body is answered" [ "$(status_of <<<"$r")" = 200 ]
	atk_stop
else
	bad "attack: server starts" "$(cat "$WORK/atk1.err")"
fi

# ---- a FIFO, a socket or a symlink in a --site folder -----------------------
"$FL" site --db "$adb" "$WORK/atk-site" >/dev/null 2>&1
mkfifo "$WORK/atk-site/fifo.html"
mkdir -p "$WORK/atk-site/pipe"
mkfifo "$WORK/atk-site/pipe/index.html"
ln -s /etc/passwd "$WORK/atk-site/passwd.txt"
ln -s /etc "$WORK/atk-site/etc"
ln -s index.html "$WORK/atk-site/alias.html"
if atk_start "$WORK/atk2.err" --db "$adb" --site "$WORK/atk-site" --threads 2; then
	# two workers: two hung requests used to hang the whole server
	for u in fifo.html fifo.html pipe/ pipe/index.html fifo.html; do
		c=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$AS/$u")
		check "attack: a FIFO in the site is a 404 at once (/$u)" [ "$c" = 404 ]
	done
	check "attack: the server still answers after the FIFOs" [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$AS/")" = 200 ]
	for u in passwd.txt etc/passwd alias.html; do
		curl -s -o "$WORK/atk.out" -w '%{http_code}' --max-time 3 "$AS/$u" >"$WORK/atk.code"
		check "attack: a symlink in the site is not followed (/$u)" \
			bash -c "[ \"\$(cat '$WORK/atk.code')\" = 404 ] && ! grep -q 'root:' '$WORK/atk.out'"
	done
	atk_stop
else
	bad "attack: server with --site starts" "$(cat "$WORK/atk2.err")"
fi

# ---- connection exhaustion: slowloris from 127.0.0.2, wrk bursts -------------
# slowloris FROM PORT N SECONDS: N connections from address FROM, each sends
# part of a request header, then one byte a second; a connection the server
# closes is opened again on the next round.  Stops after SECONDS.
cat >"$WORK/slowloris.py" <<'PY'
import socket, sys, time
src, port, n, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
end = time.monotonic() + secs
head = b"GET / HTTP/1.1\r\nHost: x\r\nX-a: " + b"b" * 4000
def conn():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    s.bind((src, 0))
    try:
        s.connect(("127.0.0.1", port))
    except (BlockingIOError, InterruptedError):
        pass
    return [s, 0]
socks = [conn() for _ in range(n)]
first = True
while time.monotonic() < end:
    for e in socks:
        try:
            if e[0].recv(1, socket.MSG_PEEK) == b"":
                raise ConnectionResetError
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            e[0].close()
            e[0:2] = conn()
            continue
        try:
            e[1] += e[0].send(head[e[1]:e[1] + (20 if first else 1)])
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            e[0].close()
            e[0:2] = conn()
    first = False
    time.sleep(1.0)
PY
# fresh_ok N: N fresh requests from 127.0.0.1 each answered within
# FRESH_S seconds: 1, or 2 for a sanitizer build (AddressSanitizer slows
# the server about threefold, and wrk's 500 connections share the 2 cores)
FRESH_S=1
grep -qa __asan_init "$FL" && FRESH_S=2
fresh_ok() {
	local i c
	for i in $(seq "$1"); do
		c=$(curl -s -o /dev/null -w '%{http_code} %{time_total}s' --max-time "$FRESH_S" "$AS/healthz")
		[ "${c%% *}" = 200 ] || { echo "    request $i: '$c'"; return 1; }
		sleep 0.3
	done
}
if ! command -v wrk >/dev/null; then
	bad "attack: wrk is installed (scripts/bootstrap.sh)"
elif atk_start "$WORK/atk3.err" --db "$adb" --no-site; then
	timeout 30 python3 "$WORK/slowloris.py" 127.0.0.2 "$AS_PORT" 520 12 &
	SL_PID=$!
	ATK_PIDS+=("$SL_PID")
	sleep 2
	check "attack: a fresh request is answered within $FRESH_S s during 520 slowloris sockets" fresh_ok 4
	for burst in 1 2; do
		timeout 20 wrk -t2 -c500 -d2s "$AS/healthz" >"$WORK/wrk$burst.out" 2>&1 &
		WRK_PID=$!
		ATK_PIDS+=("$WRK_PID")
		sleep 0.7
		check "attack: a fresh request is answered within $FRESH_S s during wrk -c500 burst $burst and slowloris" fresh_ok 2
		wait "$WRK_PID"
	done
	check "attack: a fresh request is answered within $FRESH_S s after two wrk -c500 bursts" fresh_ok 3
	wait "$SL_PID"
	check "attack: a fresh request is answered within $FRESH_S s after the slowloris" fresh_ok 2
	check "attack: wrk was answered" grep -q 'Requests/sec' "$WORK/wrk1.out"
	atk_stop; rc=$?
	check "attack: the server stops on SIGTERM after the attacks" [ $rc = 0 ]
	check "attack: the server counts what it refused and closed" \
		grep -qE 'stopped after [0-9]+ requests \(connections: [0-9]+ refused, [1-9][0-9]* closed to make room' "$WORK/atk3.err"
	atk_cleanup
else
	bad "attack: server starts" "$(cat "$WORK/atk3.err")"
fi

# a connection must send its request headers within --header-timeout
cat >"$WORK/slowhead.py" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=8)
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
t0 = time.monotonic()
try:
    d = s.recv(100)
except OSError:
    d = b""
print("%s %.1f" % ("closed" if d == b"" else "answered", time.monotonic() - t0))
PY
if atk_start "$WORK/atk4.err" --db "$adb" --no-site --header-timeout 1; then
	r=$(timeout 20 python3 "$WORK/slowhead.py" "$AS_PORT")
	check "attack: incomplete headers are closed after --header-timeout ($r)" \
		awk -v r="$r" 'BEGIN { split(r, a, " "); exit !(a[1] == "closed" && a[2] < 3) }'
	atk_stop
	check "attack: ... and counted" grep -q ', 1 closed for slowness' "$WORK/atk4.err"
else
	bad "attack: server starts" "$(cat "$WORK/atk4.err")"
fi

# one address keeps at most --per-ip connections that are slow to send their
# request: 10 sockets that send half a header, from 127.0.0.2, --per-ip 4
cat >"$WORK/slowcount.py" <<'PY'
import socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = []
for _ in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    socks.append(s)
time.sleep(2.0)
left = 0
for s in socks:
    s.setblocking(False)
    try:
        left += s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        left += 1
    except OSError:
        pass
print(left)
PY
if atk_start "$WORK/atk5.err" --db "$adb" --no-site --per-ip 4; then
	n=$(timeout 20 python3 "$WORK/slowcount.py" "$AS_PORT" 10)
	check "attack: one address keeps --per-ip 4 of 10 slow connections ($n)" [ "$n" = 4 ]
	check "attack: ... and others are answered meanwhile" fresh_ok 1
	atk_stop
else
	bad "attack: server starts" "$(cat "$WORK/atk5.err")"
fi

# ---- a store rescanned while it is served: every endpoint follows it, and
# each answer is from one state (a search hit's record is there in the state
# the search came from) ----------------------------------------------------
cp -r "$TESTS/fixtures/python" "$WORK/atk-tree"
rm -f "$WORK/atk-tree/expected.tsv"
sdb2="$WORK/attack-rescan.db"
"$FL" scan "$WORK/atk-tree" --repo acme/py --db "$sdb2" >/dev/null 2>&1
state_b() { printf 'def f():\n    raise ValueError("zebra quokka overflow in the frobnicator")\n' >"$WORK/atk-tree/inventory/zebra.py"; }
state_a() { rm -f "$WORK/atk-tree/inventory/zebra.py"; }
rescan() { "$FL" scan "$WORK/atk-tree" --repo acme/py --db "$sdb2" >/dev/null 2>&1; }
records() { curl -s --max-time 5 "$AS/healthz" | jq -r .records; }
# wait_records N: /healthz says N records within 15 s
wait_records() {
	local i
	for i in $(seq 150); do
		[ "$(records)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
zq="zebra quokka overflow in the frobnicator"
if atk_start "$WORK/atk6.err" --db "$sdb2"; then
	n0=$(records)
	state_b
	rescan
	check "attack: /healthz follows a rescan that adds a record" wait_records $((n0 + 1))
	zid=$(curl -s --max-time 5 --get --data-urlencode "q=$zq" "$AS/api/search" | jq -r '.matches[0].id // empty')
	check "attack: /api/search finds the added record" [ -n "$zid" ]
	check "attack: /api/errors/ID has it" [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$AS/api/errors/$zid")" = 200 ]
	check "attack: its page is served" bash -c "curl -s --max-time 5 '$AS/errors/$zid/' | grep -q 'zebra quokka'"
	check "attack: /api/repos/acme/py counts it" [ "$(curl -s --max-time 5 "$AS/api/repos/acme/py" | jq '.errors | length')" = $((n0 + 1)) ]
	state_a
	rescan
	check "attack: /healthz follows a rescan that removes it" wait_records "$n0"
	check "attack: /api/errors/ID is then a 404" [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$AS/api/errors/$zid")" = 404 ]
	check "attack: /api/search no longer finds it" \
		bash -c "! curl -s --max-time 5 --get --data-urlencode 'q=$zq' '$AS/api/search' | jq -e --arg id '$zid' '.matches[] | select(.id == \$id)' >/dev/null"
	check "attack: its page is gone" [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$AS/errors/$zid/")" = 404 ]

	# rescans in a loop while a client searches and fetches what it found
	# (each added record stays until the server has taken it in)
	( for i in 1 2 3 4 5; do state_b; rescan; wait_records $((n0 + 1)); sleep 0.3; state_a; rescan; sleep 0.3; done ) &
	RS_PID=$!
	ATK_PIDS+=("$RS_PID")
	hits=0 mixes=0 rounds=0
	while kill -0 "$RS_PID" 2>/dev/null && [ $rounds -lt 400 ]; do
		rounds=$((rounds + 1))
		curl -s --max-time 5 -D "$WORK/sh.txt" --get --data-urlencode "q=$zq" "$AS/api/search" >"$WORK/s.json"
		jq -e --arg id "$zid" '.matches[] | select(.id == $id)' "$WORK/s.json" >/dev/null 2>&1 || continue
		hits=$((hits + 1))
		v1=$(jq -r .datasetVersion "$WORK/s.json")
		c=$(curl -s --max-time 5 -D "$WORK/eh.txt" -o /dev/null -w '%{http_code}' "$AS/api/errors/$zid")
		v2=$(sed -n 's/^[Xx]-[Ff]aultline-[Dd]ataset-[Vv]ersion: *\(.*\)\r$/\1/p' "$WORK/eh.txt")
		# a 404 is right only from another (later) state than the search's
		if [ "$c" != 200 ] && [ "$v2" = "$v1" ]; then mixes=$((mixes + 1)); fi
		if [ "$c" = 200 ] && [ -z "$v2" ]; then mixes=$((mixes + 1)); fi
	done
	wait "$RS_PID"
	check "attack: during rescans the search hit its record in some rounds ($hits of $rounds)" [ "$hits" -gt 0 ]
	check "attack: no answer mixed two states of the store ($mixes)" [ "$mixes" = 0 ]
	check "attack: the served state ends as the store's" wait_records "$n0"
	atk_stop; rc=$?
	check "attack: the server stops on SIGTERM after the rescans" [ $rc = 0 ]
	check "attack: no snapshot left in the cache after the stop" \
		bash -c "! ls '$WORK'/atk-cache/snap-* '$WORK'/atk-cache/site-*.old-* >/dev/null 2>&1"
else
	bad "attack: server starts" "$(cat "$WORK/atk6.err")"
fi

# serve --data DIR follows the folder's datasetVersion the same way
"$FL" export --db "$sdb2" "$WORK/atk-data" >/dev/null 2>&1
if atk_start "$WORK/atk7.err" --data "$WORK/atk-data"; then
	n0=$(records)
	state_b
	rescan
	"$FL" export --db "$sdb2" "$WORK/atk-data" >/dev/null 2>&1
	check "attack: serve --data takes a new datasetVersion in" wait_records $((n0 + 1))
	check "attack: ... its version" [ "$(curl -s --max-time 5 "$AS/healthz" | jq -r .datasetVersion)" = "$(jq -r .datasetVersion "$WORK/atk-data/manifest.json")" ]
	check "attack: ... and its pages" bash -c "curl -s --max-time 5 '$AS/errors/$zid/' | grep -q 'zebra quokka'"
	atk_stop
	check "attack: no replaced site folder left after the stop" bash -c "! ls -d '$WORK'/atk-cache/site-*.old-* >/dev/null 2>&1"
else
	bad "attack: server with --data starts" "$(cat "$WORK/atk7.err")"
fi

check "attack: no memory errors or leaks in the servers (sanitizer builds)" \
	bash -c "! grep -lE 'AddressSanitizer|LeakSanitizer|runtime error' '$WORK'/atk*.err"
atk_cleanup
trap 'rm -rf "$WORK"' EXIT
