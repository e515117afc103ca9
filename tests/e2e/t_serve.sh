# faultline serve: the HTTP API, the static site and data set files, limits,
# JSON errors, no path outside the site, access log, SIGTERM drain.
# Servers listen on 127.0.0.1 with a port the kernel picks (--listen :0).

sdb="$WORK/serve.db"
for l in python go; do
	[ -d "$TESTS/fixtures/$l" ] || continue
	cp -r "$TESTS/fixtures/$l" "$WORK/sv-$l"
	rm -f "$WORK/sv-$l/expected.tsv"
	"$FL" scan "$WORK/sv-$l" --repo "acme/$l" --db "$sdb" >/dev/null 2>&1
done
# a record raised at two lines of one file
mkdir -p "$WORK/sv-fold/app"
printf 'def load(path):\n    if not path:\n        raise ValueError("the stockroom file is missing")\n    return open(path).read()\n\n\ndef save(path, data):\n    if not path:\n        raise ValueError("the stockroom file is missing")\n    open(path, "w").write(data)\n' >"$WORK/sv-fold/app/store.py"
"$FL" scan "$WORK/sv-fold" --repo acme/fold --db "$sdb" >/dev/null 2>&1

# serve_start LOG ARGS... : start a server, wait (bounded) until it listens;
# sets SV_PID and SV (base URL).  Returns 1 when it did not come up.
serve_start() {
	local log=$1
	shift
	: >"$log"
	"$FL" serve --listen 127.0.0.1:0 --cache-dir "$WORK/cache" "$@" 2>"$log" &
	SV_PID=$!
	local i port=""
	for i in $(seq 300); do
		port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")
		[ -n "$port" ] && break
		kill -0 "$SV_PID" 2>/dev/null || break
		sleep 0.1
	done
	SV="http://127.0.0.1:$port"
	[ -n "$port" ]
}

# serve_stop: SIGTERM, wait at most 10 s; returns the exit status (124 on timeout)
serve_stop() {
	kill -TERM "$SV_PID" 2>/dev/null
	local i
	for i in $(seq 100); do
		kill -0 "$SV_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$SV_PID" 2>/dev/null; then
		kill -KILL "$SV_PID" 2>/dev/null
		wait "$SV_PID" 2>/dev/null
		return 124
	fi
	wait "$SV_PID"
}

# status URL [curl args...]: the HTTP status code
status() { curl -s --max-time 20 -o /dev/null -w '%{http_code}' --max-time 10 "$@"; }
# is_json_error FILE CODE: {"error":{"status":CODE,"message":"..."}}
is_json_error() { [ "$(jq -r '"\(.error.status) \(.error.message | type)"' "$1" 2>/dev/null)" = "$2 string" ]; }

if serve_start "$WORK/serve.err" --db "$sdb" --access-log "$WORK/access.log"; then
	ok "serve: starts and prints the bound port"
	check "serve: /healthz" [ "$(curl -s --max-time 20 "$SV/healthz" | jq -r '"\(.status) \(.records > 0)"')" = "ok true" ]

	# /api/search answers exactly as explain --json
	q='Traceback (most recent call last):
  File "/srv/app/inventory/api.py", line 16, in get_item
fastapi.exceptions.HTTPException: Item ABC-1 not found'
	curl -s --max-time 20 --get --data-urlencode "q=$q" "$SV/api/search" >"$WORK/s1.json"
	"$FL" explain --db "$sdb" --json "$q" >"$WORK/s2.json"
	check "serve: /api/search finds the raising line" [ "$(jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"' "$WORK/s1.json")" = "inventory/api.py:16" ]
	check "serve: /api/search body is explain --json" cmp -s "$WORK/s1.json" "$WORK/s2.json"
	n=$(curl -s --max-time 20 --get --data-urlencode "q=panic: port must be set" --data-urlencode "repo=acme/python" "$SV/api/search" | jq '.matches | length')
	check "serve: /api/search repo filter" [ "$n" = 0 ]
	# a frame naming the other line of a record raised at two lines
	fq='Traceback (most recent call last):
  File "/srv/app/store.py", line 9, in save
ValueError: the stockroom file is missing'
	curl -s --max-time 20 --get --data-urlencode "q=$fq" "$SV/api/search" >"$WORK/s3.json"
	check "serve: /api/search points at the line a frame names, the other in alsoRaisedAt" \
		[ "$(jq -c '.matches[0] | [.lineNumber, .alsoRaisedAt]' "$WORK/s3.json")" = '[9,["app/store.py:3"]]' ]
	check "serve: /api/search says which frame" [ "$(jq '.matches[0].evidence | any(test("names line 9 of its file"))' "$WORK/s3.json")" = true ]
	n=$(curl -s --max-time 20 --get --data-urlencode "q=not found" --data-urlencode "limit=1" "$SV/api/search" | jq '.matches | length')
	check "serve: /api/search limit" [ "$n" -le 1 ]
	ct=$(curl -s --max-time 20 -o /dev/null -w '%{content_type}' "$SV/api/search?q=x")
	check "serve: API content type is JSON" [ "$ct" = "application/json; charset=utf-8" ]

	# POST /api/explain answers as grep-log --json
	cat >"$WORK/sv.log" <<'LOG'
2026-11-29 10:00:00 INFO starting
panic: port must be set

goroutine 1 [running]:
main.main()
	/home/dev/shop/cmd/shopd/main.go:21 +0x1d
2026-11-29 10:00:01 INFO done
LOG
	curl -s --max-time 20 -D "$WORK/eh.txt" --data-binary @"$WORK/sv.log" "$SV/api/explain" >"$WORK/e1.jsonl"
	"$FL" grep-log --db "$sdb" --json "$WORK/sv.log" >"$WORK/e2.jsonl"
	check "serve: /api/explain finds the panic" [ "$(head -1 "$WORK/e1.jsonl" | jq -r .filePath)" = "cmd/shopd/main.go" ]
	check "serve: /api/explain body is grep-log --json, byte for byte" cmp -s "$WORK/e1.jsonl" "$WORK/e2.jsonl"
	check "serve: /api/explain is JSON Lines with the data set version" bash -c "grep -qi '^Content-Type: application/x-ndjson' '$WORK/eh.txt' && grep -qi '^X-Faultline-Dataset-Version: 20' '$WORK/eh.txt'"
	n=$(jq -n --rawfile l "$WORK/sv.log" '{log:$l}' | curl -s --max-time 20 -H 'Content-Type: application/json' --data-binary @- "$SV/api/explain" | wc -l)
	check "serve: /api/explain takes {\"log\":...} too" [ "$n" = "$(wc -l <"$WORK/e2.jsonl")" ]
	n=$(curl -s --max-time 20 -H 'Accept: application/json' --data-binary @"$WORK/sv.log" "$SV/api/explain" | jq -c '.matches[]' | cmp -s - <(jq -c . "$WORK/e2.jsonl") && echo same)
	check "serve: /api/explain with Accept: application/json wraps the same objects" [ "$n" = same ]
	n=$(printf 'nothing to see\n' | curl -s --max-time 20 --data-binary @- "$SV/api/explain" | wc -c)
	check "serve: /api/explain of a log without errors is an empty body" [ "$n" = 0 ]

	# records and repositories
	id=$(jq -r '.matches[0].id' "$WORK/s1.json")
	check "serve: /api/errors/{id}" [ "$(curl -s --max-time 20 "$SV/api/errors/$id" | jq -r '.record.id')" = "$id" ]
	check "serve: /api/errors/{id} is a data set record" [ "$(curl -s --max-time 20 "$SV/api/errors/$id" | jq -r '.record.schemaVersion, (.datasetVersion | type)' | tr '\n' ' ')" = "2 string " ]
	c=$(curl -s --max-time 20 -o "$WORK/r.json" -w '%{http_code}' "$SV/api/errors/ffffffffffffffff")
	check "serve: unknown id is 404" [ "$c" = 404 ]
	check "serve: unknown id has a JSON error body" is_json_error "$WORK/r.json" 404
	check "serve: malformed id is 404" [ "$(status "$SV/api/errors/..%2F..%2Fx")" = 404 ]
	check "serve: /api/repos" [ "$(curl -s --max-time 20 "$SV/api/repos" | jq -r '[.[].repo] | sort | join(",")')" = "acme/fold,acme/go,acme/python" ]
	curl -s --max-time 20 "$SV/api/repos/acme/go" >"$WORK/repo.json"
	check "serve: /api/repos/{owner}/{name}" [ "$(curl -s --max-time 20 "$SV/api/repos/acme/go" | jq -r '"\(.repo.repo) \((.errors | length) == .repo.errorCount)"')" = "acme/go true" ]
	check "serve: unknown repo is 404" [ "$(status "$SV/api/repos/acme/nope")" = 404 ]

	# errors: 400, 404, 405, 413
	curl -s --max-time 20 "$SV/api/search" >"$WORK/r.json"
	check "serve: search without q is a JSON 400" is_json_error "$WORK/r.json" 400
	check "serve: limit=0 is 400" [ "$(status "$SV/api/search?q=x&limit=0")" = 400 ]
	check "serve: bad repo is 400" [ "$(status "$SV/api/search?q=x&repo=nope")" = 400 ]
	long=$(head -c 5000 /dev/zero | tr '\0' a)
	check "serve: over-long q is 400" [ "$(status "$SV/api/search?q=$long")" = 400 ]
	curl -s --max-time 20 "$SV/api/nope" >"$WORK/r.json"
	check "serve: unknown endpoint is a JSON 404" is_json_error "$WORK/r.json" 404
	curl -s --max-time 20 -X DELETE -D "$WORK/h.txt" "$SV/api/search?q=x" >"$WORK/r.json"
	check "serve: DELETE is a JSON 405 with Allow" bash -c "grep -qi '^Allow: GET' '$WORK/h.txt' && jq -e '.error.status == 405' '$WORK/r.json' >/dev/null"
	check "serve: GET /api/explain is 405" [ "$(status "$SV/api/explain")" = 405 ]
	check "serve: POST to the site is 405" [ "$(status -X POST --data x "$SV/index.html")" = 405 ]
	head -c 1100000 /dev/zero | tr '\0' a >"$WORK/big.log"
	curl -s --max-time 20 --data-binary @"$WORK/big.log" "$SV/api/explain" >"$WORK/r.json"
	check "serve: a log over 1 MB is a JSON 413" is_json_error "$WORK/r.json" 413
	curl -s --max-time 20 -H 'Transfer-Encoding: chunked' --data-binary @"$WORK/big.log" "$SV/api/explain" >"$WORK/r.json"
	check "serve: a chunked log over 1 MB is 413" is_json_error "$WORK/r.json" 413

	# the site and the data set files
	curl -s --max-time 20 -D "$WORK/h.txt" -o "$WORK/index.html" "$SV/"
	check "serve: / is the site's home page" bash -c "grep -qi '^Content-Type: text/html' '$WORK/h.txt' && grep -qi '<html' '$WORK/index.html'"
	etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: *\(.*\)\r$/\1/p' "$WORK/h.txt")
	check "serve: static files have an ETag" [ -n "$etag" ]
	check "serve: If-None-Match gives 304" [ "$(status -H "If-None-Match: $etag" "$SV/")" = 304 ]
	check "serve: static files have Cache-Control" grep -qi '^Cache-Control: public' "$WORK/h.txt"
	curl -s --max-time 20 -D "$WORK/h.txt" -o "$WORK/m.json" "$SV/data/manifest.json"
	check "serve: /data/manifest.json" bash -c "jq -e '.schemaVersion == 2' '$WORK/m.json' >/dev/null && grep -qi '^Content-Type: application/json' '$WORK/h.txt'"
	check "serve: the manifest is revalidated" grep -qi '^Cache-Control: no-cache' "$WORK/h.txt"
	check "serve: /data/errors/{id}.json" [ "$(curl -s --max-time 20 "$SV/data/errors/$id.json" | jq -r .record.id)" = "$id" ]
	check "serve: CSS content type" [ "$(curl -s --max-time 20 -o /dev/null -w '%{content_type}' "$SV/assets/style.css")" = "text/css; charset=utf-8" ]
	check "serve: folder without slash redirects" [ "$(status "$SV/errors/$id")" = 301 ]
	check "serve: error page" [ "$(status "$SV/errors/$id/")" = 200 ]
	check "serve: missing page is 404" [ "$(status "$SV/no/such/page")" = 404 ]

	# never a path outside the site
	for p in '/../../../../etc/passwd' '/%2e%2e/%2e%2e/%2e%2e/etc/passwd' '/data/../../../../etc/passwd' \
		 '/..%2f..%2f..%2fetc%2fpasswd' '/.stamp' '/%00/etc/passwd' '//etc/passwd'; do
		curl -s --max-time 20 --path-as-is -o "$WORK/t.out" "$SV$p"
		check "serve: no escape via $p" bash -c "! grep -q 'root:' '$WORK/t.out'"
	done
	check "serve: HEAD has no body" [ "$(curl -s --max-time 20 -I "$SV/" | grep -ci '^Content-Length')" = 1 ]

	# parallel clients
	pids=()
	for i in 1 2 3 4 5 6 7 8; do
		curl -s --max-time 10 --get --data-urlencode "q=$q" "$SV/api/search" >"$WORK/p$i.json" &
		pids+=($!)
	done
	wait "${pids[@]}" 2>/dev/null
	same=1
	for i in 1 2 3 4 5 6 7 8; do cmp -s "$WORK/p$i.json" "$WORK/s1.json" || same=0; done
	check "serve: parallel requests agree" [ $same = 1 ]

	serve_stop; rc=$?
	check "serve: SIGTERM drains and exits 0" [ $rc = 0 ]
	check "serve: says it stopped" grep -q "stopped after" "$WORK/serve.err"
	check "serve: no memory errors or leaks (sanitizer builds)" bash -c "! grep -E 'AddressSanitizer|LeakSanitizer' '$WORK/serve.err'"
	check "serve: one access-log line per request" grep -qE '^[0-9T:.Z-]+ 127\.0\.0\.1 GET /healthz 200 [0-9]+ ' "$WORK/access.log"
	nreq=$(sed -n 's/.*stopped after \([0-9]*\) requests.*/\1/p' "$WORK/serve.err")
	check "serve: access log counts every request" [ "$(wc -l <"$WORK/access.log")" = "$nreq" ]
else
	bad "serve: starts and prints the bound port" "$(cat "$WORK/serve.err")"
	serve_stop
fi

# --data DIR: a published data set, imported into the cache
"$FL" export --db "$sdb" "$WORK/sv-data" >/dev/null 2>&1
if serve_start "$WORK/serve2.err" --data "$WORK/sv-data" --no-site; then
	ver=$(jq -r .datasetVersion "$WORK/sv-data/manifest.json")
	check "serve --data: datasetVersion of the data set" [ "$(curl -s --max-time 20 "$SV/healthz" | jq -r .datasetVersion)" = "$ver" ]
	check "serve --data: search" [ "$(curl -s --max-time 20 --get --data-urlencode "q=panic: port must be set" "$SV/api/search" | jq -r '.matches[0].lineNumber')" = 21 ]
	check "serve --no-site: no site pages" [ "$(status "$SV/")" = 404 ]
	check "serve --data --no-site: the data set under /data/" [ "$(curl -s --max-time 20 "$SV/data/manifest.json" | jq -r .datasetVersion)" = "$ver" ]
	check "serve --data --no-site: data set files" [ "$(status "$SV/data/repos.json")" = 200 ]
	check "serve --data --no-site: nothing outside /data/" [ "$(status --path-as-is "$SV/data/../manifest.json")" = 404 ]
	serve_stop
	check "serve --data: imported into the cache" bash -c "ls '$WORK'/cache/data-*/store-*.db >/dev/null 2>&1"
else
	bad "serve --data: starts" "$(cat "$WORK/serve2.err")"
	serve_stop
fi

# --site DIR: a symlink inside the site leading out of it is not followed
"$FL" site --db "$sdb" "$WORK/sv-site" >/dev/null 2>&1
ln -s /etc "$WORK/sv-site/etc-link"
if serve_start "$WORK/serve3.err" --db "$sdb" --site "$WORK/sv-site"; then
	check "serve --site: serves the given site" [ "$(status "$SV/")" = 200 ]
	check "serve: a symlink out of the site is 404" [ "$(status "$SV/etc-link/passwd")" = 404 ]
	serve_stop
else
	bad "serve --site: starts" "$(cat "$WORK/serve3.err")"
	serve_stop
fi

"$FL" serve --db "$sdb" --listen nonsense >/dev/null 2>&1; rc=$?
check "serve: bad --listen is a usage error (exit 2)" [ $rc = 2 ]
"$FL" serve --db "$sdb" --data "$WORK/sv-data" >/dev/null 2>&1; rc=$?
check "serve: --db with --data is a usage error" [ $rc = 2 ]

# --in-place: the store served where it is, no copy in the cache; a scan
# into it while serving is followed
idb="$WORK/inplace.db"
cp -r "$WORK/sv-fold" "$WORK/sv-inplace"
"$FL" scan "$WORK/sv-inplace" --repo acme/inplace --db "$idb" >/dev/null 2>&1
rm -rf "$WORK/cache"
if serve_start "$WORK/serve5.err" --db "$idb" --in-place --no-site; then
	check "serve --in-place: answers from the store" \
		[ "$(curl -s --max-time 20 "$SV/api/search?q=the%20stockroom%20file%20is%20missing" | jq -r '.matches[0].repo')" = acme/inplace ]
	check "serve --in-place: no copy of the store in the cache" \
		bash -c "! ls '$WORK'/cache/snap-site-* >/dev/null 2>&1"
	check "serve --in-place: the index is the store's own" [ -s "$idb.lookup" ]
	printf 'def keep(path):\n    raise ValueError("the backroom ledger is locked")\n' >"$WORK/sv-inplace/app/ledger.py"
	"$FL" scan "$WORK/sv-inplace" --repo acme/inplace --db "$idb" >/dev/null 2>&1
	found=""
	for i in $(seq 100); do
		found=$(curl -s --max-time 20 "$SV/api/search?q=the%20backroom%20ledger%20is%20locked" | jq -r '.matches[0].filePath')
		[ "$found" = app/ledger.py ] && break
		sleep 0.1
	done
	check "serve --in-place: a scan while serving is followed" [ "$found" = app/ledger.py ]
	id=$(curl -s --max-time 20 "$SV/api/search?q=the%20backroom%20ledger%20is%20locked" | jq -r '.matches[0].id')
	check "serve --in-place: the new record's page" [ "$(status "$SV/api/errors/$id")" = 200 ]
	serve_stop
else
	bad "serve --in-place: starts" "$(cat "$WORK/serve5.err")"
	serve_stop
fi
"$FL" serve --data "$WORK/sv-data" --in-place >/dev/null 2>&1; rc=$?
check "serve: --in-place with --data is a usage error" [ $rc = 2 ]

# a snapshot's files go with it: the store copy, its lookup index and the
# literal databases a long text made (a text over 64 KB scans with them)
rm -rf "$WORK/cache"
if serve_start "$WORK/serve4.err" --db "$sdb" --no-site; then
	{ for i in $(seq 3000); do echo "2026-01-01 12:00:00 INFO request $i served in 3 ms"; done; } >"$WORK/long.log"
	curl -s --max-time 60 --data-binary @"$WORK/long.log" "$SV/api/explain" >/dev/null
	check "serve: a long text made the snapshot's literal databases" \
		bash -c "ls '$WORK'/cache/snap-site-*.lookup.hs >/dev/null 2>&1"
	serve_stop
	check "serve: stopped, no snapshot file is left in the cache" \
		bash -c "! ls '$WORK'/cache/snap-site-* >/dev/null 2>&1"
else
	bad "serve: starts for the snapshot files" "$(cat "$WORK/serve4.err")"
	serve_stop
fi
