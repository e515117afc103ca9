# Attacks that held in the attack review of issue #18, kept as regressions:
# patterns built to backtrack catastrophically (ReDoS) in an imported data
# set, markup in every field a page shows (XSS), and path traversal in more
# encodings than t_serve.sh tries.  Servers on 127.0.0.1, a port the kernel
# picks; every step bounded by timeout.

AH="$WORK/attack-held"
mkdir -p "$AH/t/pkg"
cat >"$AH/t/pkg/widgets.py" <<'EOF'
class WidgetError(Exception):
    pass


def load(kind, size):
    if size < 0:
        raise ValueError("size must be positive")
    if kind not in ("a", "b"):
        raise KeyError("unknown widget kind: <img src=x onerror=alert(7)> and \"quotes\" & 'ticks'")
    raise WidgetError("widget </script><script>alert(8)</script> failed for {kind}")
EOF

ah_rehash() { # DIR: recompute the inventory's and the manifest's sizes and hashes
	local d=$1 inv="$1/inventory.json" path key f
	jq -r '.files[].path' "$inv" | while read -r path; do
		f="$d/${path#/data/}"
		printf '%s\t%s\t%s\n' "$path" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
	done | jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | {path: .[0], bytes: (.[1]|tonumber), sha256: .[2]})' >"$d/files.new"
	jq -c --slurpfile f "$d/files.new" '.files = $f[0]' "$inv" >"$inv.new" && mv "$inv.new" "$inv"
	rm -f "$d/files.new"
	for key in index repos inventory; do
		f="$d/$key.json"
		jq -c --arg k "$key" --argjson b "$(stat -c %s "$f")" --arg s "$(sha256sum "$f" | cut -d' ' -f1)" \
			'.files[$k].bytes = $b | .files[$k].sha256 = $s' "$d/manifest.json" >"$d/m.new" && mv "$d/m.new" "$d/manifest.json"
	done
}

"$FL" scan "$AH/t" --repo acme/held --db "$AH/s.db" >/dev/null 2>&1
"$FL" export --db "$AH/s.db" "$AH/ds" >/dev/null 2>&1

# ---- ReDoS: a data set whose patterns backtrack exponentially ---------------
# Every record of the data set gets a pattern that is valid PCRE2 but
# catastrophic for a backtracking matcher; the lookup must answer (match or
# not) in bounded time, never hang.
cp -r "$AH/ds" "$AH/redos"
i=0
for id in $(jq -r '.errors[].id' "$AH/redos/index.json"); do
	case $i in
	0) pat='(a+)+b' ;;
	1) pat='(x+x+)+y' ;;
	*) pat='^(([a-z])+.)+[A-Z]([a-z])+$' ;;
	esac
	i=$((i + 1))
	jq -c --arg id "$id" --arg p "$pat" 'map(if .id == $id then .messagePattern = $p else . end)' \
		"$AH/redos/repos/acme/held.json" >"$AH/x.json" && mv "$AH/x.json" "$AH/redos/repos/acme/held.json"
	jq -c --arg p "$pat" '.record.messagePattern = $p' "$AH/redos/errors/$id.json" >"$AH/x.json" &&
		mv "$AH/x.json" "$AH/redos/errors/$id.json"
	jq -c --arg id "$id" --arg p "$pat" '.errors |= map(if .id == $id then .pattern = $p else . end)' \
		"$AH/redos/index.json" >"$AH/x.json" && mv "$AH/x.json" "$AH/redos/index.json"
done
ah_rehash "$AH/redos"
if timeout 60 "$FL" import --db "$AH/redos.db" "$AH/redos" >/dev/null 2>"$AH/imp.err"; then
	ok "held: a data set of backtracking patterns imports (the patterns compile)"
	evil="$(printf 'a%.0s' $(seq 40))c $(printf 'x%.0s' $(seq 40)) $(printf 'ab%.0s' $(seq 30))!"
	start=$(date +%s%N)
	timeout 30 "$FL" explain --db "$AH/redos.db" "$evil" >/dev/null 2>"$AH/ex.err"
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	check "held: ReDoS patterns: explain answers (rc $rc, ${ms} ms)" [ $rc -eq 0 -o $rc -eq 3 ]
	printf '%s\n' "$evil" "$evil$evil" >"$AH/evil.log"
	timeout 30 "$FL" grep-log --db "$AH/redos.db" "$AH/evil.log" >/dev/null 2>&1
	rc=$?
	check "held: ReDoS patterns: grep-log answers (rc $rc)" [ $rc -ne 124 -a $rc -lt 128 ]
else
	bad "held: a data set of backtracking patterns imports" "$(cat "$AH/imp.err")"
fi

# ---- XSS: markup in the message, the class and the code of a record --------
"$FL" site --db "$AH/s.db" "$AH/site" >/dev/null 2>&1
check "held: site renders the markup fixture" [ -d "$AH/site" ]
check "held: no raw <img ... onerror> on any page" \
	bash -c '! grep -rqi "<img src=x onerror" "$1" --include="*.html"' _ "$AH/site"
check "held: no injected </script><script> on any page" \
	bash -c '! grep -rq "<script>alert(8)" "$1" --include="*.html"' _ "$AH/site"
check "held: the markup shows as text on its error page" \
	bash -c 'grep -rqF "&lt;img src=x onerror=alert(7)&gt;" "$1" --include="*.html"' _ "$AH/site"
# the JSON-LD block of a page must not be closable by a message
check "held: no </script> inside a JSON-LD block" bash -c '
	for p in $(grep -rl "application/ld+json" "$1" --include="*.html"); do
		sed -n "s|.*<script type=\"application/ld+json\">\(.*\)</script>.*|\1|p" "$p" | grep -qi "</script" && exit 1
	done; exit 0' _ "$AH/site"

# ---- path traversal: more encodings ------------------------------------------
ah_port=""
"$FL" serve --listen 127.0.0.1:0 --db "$AH/s.db" --cache-dir "$AH/cache" 2>"$AH/serve.err" &
ah_pid=$!
for _ in $(seq 300); do
	ah_port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$AH/serve.err")
	[ -n "$ah_port" ] && break
	kill -0 "$ah_pid" 2>/dev/null || break
	sleep 0.1
done
if [ -n "$ah_port" ]; then
	T=0
	for p in '/%252e%252e/%252e%252e/etc/passwd' '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd' \
		'/..%5c..%5c..%5cetc%5cpasswd' '/.%2e/.%2e/.%2e/etc/passwd' '/data/%2e%2e%2f%2e%2e%2fetc%2fpasswd' \
		'/api/repos/..%2f..%2f..%2fetc/passwd' '/api/errors/%2e%2e%2f%2e%2e%2fetc%2fpasswd' \
		'/data/errors/..%00/../../etc/passwd' '/%u002e%u002e/etc/passwd'; do
		code=$(curl -s --max-time 10 --path-as-is -o "$AH/body" -w '%{http_code}' "http://127.0.0.1:$ah_port$p")
		if grep -q "root:" "$AH/body" 2>/dev/null || [ "$code" = 200 ]; then
			T=1
			echo "    $p -> $code"
		fi
	done
	check "held: no traversal encoding reaches a file outside the site" [ $T = 0 ]
	check "held: the server still answers after the traversal attempts" \
		[ "$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ah_port/healthz")" = 200 ]
else
	bad "held: serve starts for the traversal attacks" "$(cat "$AH/serve.err")"
fi
kill -TERM "$ah_pid" 2>/dev/null
for _ in $(seq 100); do kill -0 "$ah_pid" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$ah_pid" 2>/dev/null
wait "$ah_pid" 2>/dev/null
