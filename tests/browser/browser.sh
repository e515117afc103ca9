# Browser tests, sourced by tests/e2e/t_publish.sh after it built $SITE:
# headless Chromium (Debian `chromium`) against the site served on
# 127.0.0.1 by tests/browser/static_server (built by tests/meson.build).
# The error page renders the message; the search page finds a record from a
# pasted message with its values filled in.  Screenshots go to
# $FL_SCREENSHOTS when set.  Skips (as passed checks saying "skip") only
# when Chromium cannot start at all.

CHROME=""
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
done
BPROF=$(mktemp -d "$WORK/chrome-XXXXXX")
chrome() {
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-dev-shm-usage --hide-scrollbars --user-data-dir="$BPROF" "$@" 2>>"$WORK/chrome.log"
}
if [ -z "$CHROME" ] || ! chrome --dump-dom 'data:text/html,<p>up</p>' 2>/dev/null | grep -q '<p>up</p>'; then
	ok "browser: skip (chromium cannot start)"
else
	SERVER="$(dirname "$FL")/tests/static_server"
	check "browser: static server built" test -x "$SERVER"
	"$SERVER" "$SITE" "$WORK/port" >/dev/null 2>&1 &
	SPID=$!
	for _ in $(seq 1 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
	BASE="http://127.0.0.1:$(cat "$WORK/port")"

	chrome --dump-dom "$BASE/errors/$XSS/" >"$WORK/dom.html"
	check "browser: error page renders the message as text" \
		grep -q '<h1 class="message" id="message">path must not be empty: &lt;script&gt;alert(1)&lt;/script&gt;</h1>' "$WORK/dom.html"
	check "browser: error page has its source window" grep -q 'class="ln hl"' "$WORK/dom.html"

	# a pasted message with its runtime values: found through the pattern
	PARSE=$("$FL" list --db "$PB/a.db" --json | jq -r 'select(.errorMessage|startswith("cannot parse")) | .id')
	Q='cannot%20parse%20settings.yaml%20at%20line%2042'
	chrome --virtual-time-budget=10000 --dump-dom "$BASE/search/?q=$Q" >"$WORK/search.html"
	check "browser: search finds the error from a pasted message" grep -q "href=\"/errors/$PARSE/\"" "$WORK/search.html"
	check "browser: search used the static shards (no API)" grep -q 'data-source="static"' "$WORK/search.html"
	check "browser: search ranks the pattern match first" bash -c \
		'grep -o "href=\"/errors/[0-9a-f]*/\"" "$1" | head -1 | grep -q "$2"' _ "$WORK/search.html" "$PARSE"
	check "browser: search reports the captured values" grep -q 'settings.yaml, 42' "$WORK/search.html"
	chrome --virtual-time-budget=10000 --dump-dom "$BASE/search/?q=connection%20closed%20by%20peer" >"$WORK/search2.html"
	CLOSED=$("$FL" list --db "$PB/a.db" --json | jq -r 'select(.errorMessage == "connection closed by peer") | .id')
	check "browser: search finds an exact message" grep -q "href=\"/errors/$CLOSED/\"" "$WORK/search2.html"

	SHOTS=${FL_SCREENSHOTS:-$WORK/shots}
	mkdir -p "$SHOTS"
	chrome --window-size=1200,1600 --screenshot="$SHOTS/error.png" "$BASE/errors/$XSS/" >/dev/null
	chrome --window-size=1200,1200 --screenshot="$SHOTS/home.png" "$BASE/" >/dev/null
	chrome --window-size=1200,900 --virtual-time-budget=10000 --screenshot="$SHOTS/search.png" "$BASE/search/?q=$Q" >/dev/null
	chrome --window-size=420,1400 --screenshot="$SHOTS/error-narrow.png" "$BASE/errors/$XSS/" >/dev/null
	check "browser: screenshots taken" test -s "$SHOTS/error.png" -a -s "$SHOTS/search.png"
	kill "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
fi
