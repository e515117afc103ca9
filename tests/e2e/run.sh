#!/usr/bin/env bash
# End-to-end tests: run the real faultline binary on real trees in
# temporary folders.  Usage: run.sh FAULTLINE_BINARY SOURCE_TESTS_DIR
# Prints one line per check and ends with "e2e: N passed, N failed".
set -u
FL=$(readlink -f "$1")
TESTS=$(readlink -f "$2")
WORK=$(mktemp -d /tmp/fl-e2e-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export FAULTLINE_DB="$WORK/default.db"
export HOME="$WORK/home"
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
mkdir -p "$HOME"
PASS=0
FAIL=0

ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && echo "    $2"; }
# check NAME CONDITION-COMMAND...
check() { local n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }

# E2E_ONLY=t_scan runs one script (a glob of names without .sh)
for t in "$TESTS"/e2e/${E2E_ONLY:-t_*}.sh; do
	# shellcheck source=/dev/null
	. "$t"
done

echo "e2e: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
