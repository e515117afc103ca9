#!/usr/bin/env bash
# Write each fixture's golden records, tests/fixtures/LANG/expected.json:
# every record a scan of the fixture tree gives, sorted by file and line,
# without the fields that change with every scan or temporary folder
# (analyzedSha, analyzedAt, contentChangedAt, githubUrl) and the window
# text (sourceCodeStart/End are kept).  The end-to-end suite compares a
# fresh scan with it; after a deliberate change, run this and review the
# diff.   usage: update-golden.sh [FAULTLINE_BINARY] [LANG...]
set -euo pipefail
cd "$(dirname "$0")/.."
FL=$(readlink -f "${1:-build/faultline}")
shift || true
WORK=$(mktemp -d /tmp/fl-golden-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
langs="$*"
[ -n "$langs" ] || langs=$(cd tests/fixtures && ls)
for lang in $langs; do
	fx=tests/fixtures/$lang
	[ -d "$fx" ] || { echo "update-golden: no fixture $fx" >&2; exit 2; }
	cp -r "$fx" "$WORK/$lang"
	rm -f "$WORK/$lang"/expected.*
	"$FL" scan "$WORK/$lang" --repo "acme/$lang" --db "$WORK/$lang.db" >/dev/null
	"$FL" list --db "$WORK/$lang.db" --json | bash tests/golden-filter.sh >"$fx/expected.json"
	echo "$fx/expected.json: $(jq length "$fx/expected.json") records"
done
