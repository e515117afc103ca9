# faultline mcp: JSON-RPC 2.0 over stdio (errors, version negotiation), the
# official MCP TypeScript SDK client calling every tool, and data set sync
# (--data-url) from a `faultline serve` on 127.0.0.1 and from file:// URLs:
# sha256 checks, the cache kept on failure, --offline, stale answers, TTL.

mdb="$WORK/mcp.db"
for l in python go; do
	[ -d "$TESTS/fixtures/$l" ] || continue
	cp -r "$TESTS/fixtures/$l" "$WORK/mcp-$l"
	rm -f "$WORK/mcp-$l/expected.tsv"
	"$FL" scan "$WORK/mcp-$l" --repo "acme/$l" --commit 0123456789abcdef0123456789abcdef01234567 --db "$mdb" >/dev/null 2>&1
done
MCP_INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'

# mcp_tool TOOL ARGS-JSON MCP-ARGS... : the tools/call result
mcp_tool() {
	local tool=$1 args=$2
	shift 2
	printf '%s\n' "$MCP_INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"$tool\",\"arguments\":$args}}" |
		timeout 120 "$FL" mcp "$@" 2>>"$WORK/mcp.err" | jq -c 'select(.id == 2) | .result'
}

# ---- protocol ----------------------------------------------------------------
printf '%s\n' \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'this is not json' \
	'{"jsonrpc":"2.0","id":3,"method":"no/such/method"}' \
	'{"jsonrpc":"2.0","id":4}' \
	'[]' \
	'{"jsonrpc":"1.0","id":5,"method":"ping"}' \
	'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}' \
	'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_error","arguments":"x"}}' \
	'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_error","arguments":{"id":"ffffffffffffffff"}}}' \
	'{"jsonrpc":"2.0","id":"nine","method":"ping"}' \
	'{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}' \
	'{"jsonrpc":"2.0","id":11,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}' \
	'{"jsonrpc":"2.0","id":12,"method":"tools/list"}' \
	'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"search_error","arguments":{"message":"panic: port must be set"}}}' |
	timeout 60 "$FL" mcp --db "$mdb" >"$WORK/rpc.out" 2>"$WORK/rpc.err"
rc=$?
check "mcp: exits 0 at end of input" [ $rc = 0 ]
rpc() { jq -c "objects | select(.id == $1)" "$WORK/rpc.out"; }
check "mcp: stdout carries only JSON-RPC messages" bash -c "jq -e -s 'all(.[]; (type == \"object\" and .jsonrpc == \"2.0\") or (type == \"array\"))' '$WORK/rpc.out' >/dev/null"
check "mcp: logs go to stderr" grep -q "records" "$WORK/rpc.err"
check "mcp: answers the client's supported version" [ "$(rpc 1 | jq -r .result.protocolVersion)" = 2024-11-05 ]
check "mcp: 2025-03-26 is supported" [ "$(rpc 11 | jq -r .result.protocolVersion)" = 2025-03-26 ]
check "mcp: unknown version gets the latest" [ "$(rpc 10 | jq -r .result.protocolVersion)" = 2025-06-18 ]
check "mcp: a notification gets no answer" [ "$(jq -s 'map(objects | select(.id == null and (.error.code // 0) != -32700 and (.error.code // 0) != -32600)) | length' "$WORK/rpc.out")" = 0 ]
check "mcp: bad JSON is -32700 with id null" [ "$(jq -c 'objects | select(.error.code == -32700) | .id' "$WORK/rpc.out")" = null ]
check "mcp: unknown method is -32601" [ "$(rpc 3 | jq -r .error.code)" = -32601 ]
check "mcp: request without method is -32600" [ "$(rpc 4 | jq -r .error.code)" = -32600 ]
check "mcp: empty batch is -32600" [ "$(jq -c 'select(type == "array") | .[0].error.code' "$WORK/rpc.out")" = -32600 ]
check "mcp: jsonrpc 1.0 is -32600" [ "$(rpc 5 | jq -r .error.code)" = -32600 ]
check "mcp: unknown tool is -32602" [ "$(rpc 6 | jq -r .error.code)" = -32602 ]
check "mcp: arguments not an object is -32602" [ "$(rpc 7 | jq -r .error.code)" = -32602 ]
check "mcp: unknown id is a tool error, not a protocol error" [ "$(rpc 8 | jq -r '"\(.result.isError) \(.error)"')" = "true null" ]
check "mcp: string ids are echoed" [ "$(jq -c 'objects | select(.id == "nine") | .result' "$WORK/rpc.out")" = "{}" ]
check "mcp: keeps running after bad input" [ "$(rpc 13 | jq -r '.result.structuredContent.matches[0].lineNumber')" = 21 ]
check "mcp: five tools with output schemas" [ "$(rpc 12 | jq -r '[.result.tools[] | select(.outputSchema.type == "object" and .inputSchema.type == "object") | .name] | join(",")')" = "search_error,get_error,list_repos,explain_log,refresh_dataset" ]

# ---- the official TypeScript SDK client --------------------------------------
MCPDIR="$TESTS/mcp"
sdk=0
if command -v node >/dev/null && command -v npm >/dev/null; then
	if [ ! -f "$MCPDIR/node_modules/@modelcontextprotocol/sdk/package.json" ] ||
	   [ "$MCPDIR/package.json" -nt "$MCPDIR/node_modules/.package-lock.json" ]; then
		(cd "$MCPDIR" && timeout 300 flock .install.lock npm install --no-audit --no-fund --loglevel=error) \
			>"$WORK/npm.log" 2>&1
	fi
	[ -f "$MCPDIR/node_modules/@modelcontextprotocol/sdk/package.json" ] && sdk=1
fi
if [ $sdk = 1 ]; then
	ok "mcp: SDK client installed (npm)"
else
	bad "mcp: SDK client installed (npm)" "$(tail -5 "$WORK/npm.log" 2>/dev/null)"
fi

mlog='2026-11-29 10:00:00 INFO starting
panic: port must be set

goroutine 1 [running]:
main.main()
	/home/dev/shop/cmd/shopd/main.go:21 +0x1d'
# sdk_run OUT MCP-ARGS... : run the client; its JSON summary into OUT
sdk_run() {
	local out=$1
	shift
	(cd "$MCPDIR" && timeout 120 node client.mjs "$FL" "Item ABC-1 not found" "$mlog" -- "$@") \
		>"$out" 2>>"$WORK/sdk.err"
}
if [ $sdk = 1 ]; then
	sdk_run "$WORK/sdk1.json" --db "$mdb"; rc=$?
	check "mcp sdk: connects, lists and calls every tool" [ $rc = 0 ]
	j="$WORK/sdk1.json"
	check "mcp sdk: server info" [ "$(jq -r .server.name "$j")" = faultline ]
	check "mcp sdk: tool descriptions" [ "$(jq -r '[.tools[] | select(.described and .output == "object") | .name] | sort | join(",")' "$j")" = "explain_log,get_error,list_repos,refresh_dataset,search_error" ]
	check "mcp sdk: search_error" [ "$(jq -r '.search.structured.matches[0] | "\(.filePath):\(.lineNumber) \(.captures[0])"' "$j")" = "inventory/api.py:16 ABC-1" ]
	check "mcp sdk: search_error text content" bash -c "jq -r .search.text '$j' | grep -q 'inventory/api.py:16'"
	check "mcp sdk: get_error markdown with permalink" bash -c "jq -r .get.text '$j' | grep -q '^Permalink: https://github.com/acme/python/blob/'"
	check "mcp sdk: get_error markdown has fixes" bash -c "jq -r .get.text '$j' | grep -q 'Fixes'"
	check "mcp sdk: get_error record" [ "$(jq -r '.get.structured.record.id == .search.structured.matches[0].id' "$j")" = true ]
	check "mcp sdk: get_error by repo and slug" [ "$(jq -r '.getBySlug.structured.record.id == .get.structured.record.id' "$j")" = true ]
	check "mcp sdk: unknown id is isError" [ "$(jq -r .unknown.isError "$j")" = true ]
	check "mcp sdk: list_repos" [ "$(jq -r '.repos.structured.repos | map(.repo) | sort | join(",")' "$j")" = "acme/go,acme/python" ]
	check "mcp sdk: explain_log" [ "$(jq -r '.log.structured.matches[0] | "\(.line) \(.filePath)"' "$j")" = "2 cmd/shopd/main.go" ]
	check "mcp sdk: refresh_dataset on a store" [ "$(jq -r .refresh.structured.stale "$j")" = false ]
	check "mcp sdk: unknown tool is a JSON-RPC error" [ "$(jq -r .unknownTool.code "$j")" = -32602 ]
fi

# ---- data set sync -------------------------------------------------------------
"$FL" export --db "$mdb" "$WORK/mcp-data" >/dev/null 2>&1
ver1=$(jq -r .datasetVersion "$WORK/mcp-data/manifest.json")
cache="$WORK/mcp-cache"
: >"$WORK/mcp-serve.err"
"$FL" serve --data "$WORK/mcp-data" --no-site --listen 127.0.0.1:0 --cache-dir "$WORK/mcp-scache" 2>"$WORK/mcp-serve.err" &
msv=$!
port=""
for i in $(seq 300); do
	port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/mcp-serve.err")
	[ -n "$port" ] && break
	kill -0 $msv 2>/dev/null || break
	sleep 0.1
done
url="http://127.0.0.1:$port/data"
check "mcp sync: a data set served by faultline serve" [ -n "$port" ]
if [ $sdk = 1 ] && [ -n "$port" ]; then
	sdk_run "$WORK/sdk2.json" --data-url "$url" --cache-dir "$cache"; rc=$?
	check "mcp sync: SDK client over --data-url" [ $rc = 0 ]
	check "mcp sync: answers from the synced data set" [ "$(jq -r '.search.structured.matches[0].filePath' "$WORK/sdk2.json")" = inventory/api.py ]
	check "mcp sync: datasetVersion of the data set" [ "$(jq -r '.search.structured.datasetVersion' "$WORK/sdk2.json")" = "$ver1" ]
	check "mcp sync: not stale" [ "$(jq -r '.refresh.structured.stale' "$WORK/sdk2.json")" = false ]
else
	r=$(mcp_tool refresh_dataset '{}' --data-url "$url" --cache-dir "$cache")
	check "mcp sync: synced over HTTP" [ "$(echo "$r" | jq -r .structuredContent.datasetVersion)" = "$ver1" ]
fi
check "mcp sync: cached under the cache folder" bash -c "ls '$cache'/url-*/store-*.db >/dev/null && jq -e '.datasetVersion == \"$ver1\"' '$cache'/url-*/state.json >/dev/null"
# within the TTL the manifest is not polled again: works with the server gone
kill -TERM $msv; wait $msv
r=$(mcp_tool search_error '{"message":"panic: port must be set"}' --data-url "$url" --cache-dir "$cache")
check "mcp sync: within the TTL, no fetch" [ "$(echo "$r" | jq -r '"\(.structuredContent.matches[0].lineNumber) \(.structuredContent.stale)"')" = "21 false" ]
r=$(mcp_tool search_error '{"message":"panic: port must be set"}' --data-url "$url" --cache-dir "$cache" --offline)
check "mcp sync: --offline serves the cache" [ "$(echo "$r" | jq -r .structuredContent.matches[0].lineNumber)" = 21 ]
sleep 1.2
r=$(mcp_tool search_error '{"message":"panic: port must be set"}' --data-url "$url" --cache-dir "$cache" --ttl 1)
check "mcp sync: failed refresh serves the cache as stale" [ "$(echo "$r" | jq -r '"\(.structuredContent.matches[0].lineNumber) \(.structuredContent.stale) \(.structuredContent.ageSeconds >= 1)"')" = "21 true true" ]
timeout 60 "$FL" mcp --data-url "http://127.0.0.1:1/data" --cache-dir "$WORK/mcp-empty" </dev/null >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "mcp sync: no cache and no network is an error" bash -c "[ $rc = 1 ] && grep -q 'no cached copy' '$WORK/e.txt' && [ ! -s '$WORK/o.txt' ]"
timeout 60 "$FL" mcp --data-url "file://$WORK/mcp-data" --cache-dir "$WORK/mcp-empty2" --offline </dev/null >/dev/null 2>"$WORK/e.txt"; rc=$?
check "mcp sync: --offline without a cache is an error" bash -c "[ $rc = 1 ] && grep -q 'offline' '$WORK/e.txt'"

# file:// URLs; a corrupted file (sha256 mismatch) is rejected, the old cache kept
cp -r "$WORK/mcp-data" "$WORK/pub"
fcache="$WORK/mcp-fcache"
r=$(mcp_tool refresh_dataset '{}' --data-url "file://$WORK/pub" --cache-dir "$fcache")
check "mcp sync: file:// URL" [ "$(echo "$r" | jq -r .structuredContent.datasetVersion)" = "$ver1" ]
sleep 0.01
"$FL" export --db "$mdb" "$WORK/pub" >/dev/null 2>&1
ver2=$(jq -r .datasetVersion "$WORK/pub/manifest.json")
f=$(ls "$WORK"/pub/errors/*.json | head -1)
sed -i 's/"record"/"recorD"/' "$f"
r=$(mcp_tool refresh_dataset '{}' --data-url "file://$WORK/pub" --cache-dir "$fcache")
check "mcp sync: a new version was published" [ "$ver2" != "$ver1" ]
check "mcp sync: sha256 mismatch is rejected" bash -c "echo '$r' | jq -r .structuredContent.refreshError | grep -q 'sha256'"
check "mcp sync: the old cache is kept" [ "$(echo "$r" | jq -r '"\(.structuredContent.datasetVersion) \(.structuredContent.stale)"')" = "$ver1 true" ]
check "mcp sync: the cache still points to the old store" [ "$(jq -r .datasetVersion "$fcache"/url-*/state.json)" = "$ver1" ]
check "mcp sync: no half files left" bash -c "! ls -d '$fcache'/url-*/tmp-* 2>/dev/null"
# repaired: two instances refresh at once, both end on the new version
"$FL" export --db "$mdb" "$WORK/pub" >/dev/null 2>&1
ver3=$(jq -r .datasetVersion "$WORK/pub/manifest.json")
mcp_tool refresh_dataset '{}' --data-url "file://$WORK/pub" --cache-dir "$fcache" >"$WORK/r1.json" &
p1=$!
mcp_tool refresh_dataset '{}' --data-url "file://$WORK/pub" --cache-dir "$fcache" >"$WORK/r2.json" &
p2=$!
wait $p1 $p2
check "mcp sync: concurrent refreshes both get the new version" \
	[ "$(jq -r '"\(.structuredContent.datasetVersion) \(.structuredContent.stale)"' "$WORK/r1.json" "$WORK/r2.json" | sort -u)" = "$ver3 false" ]
check "mcp sync: one store per version in the cache" [ "$(ls "$fcache"/url-*/store-*.db | wc -l)" -le 2 ]
check "mcp: no memory errors or leaks (sanitizer builds)" \
	bash -c "! cat '$WORK'/mcp.err '$WORK'/rpc.err '$WORK'/sdk.err 2>/dev/null | grep -E 'AddressSanitizer|LeakSanitizer'"
