#!/usr/bin/env bash
# Run every test of one or more build folders (unit tests, then the
# end-to-end suite) and end with the line "N passed, N failed".
set -u
passed=0
failed=0
for build in "$@"; do
	echo "== tests in $build"
	for t in "$build"/tests/test_*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		out=$("$t" 2>&1)
		rc=$?
		p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' | tail -n1)
		f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' | tail -n1)
		p=${p:-0}
		f=${f:-0}
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1 # crashed or aborted before its summary
		fi
		passed=$((passed + p))
		failed=$((failed + f))
		if [ "$f" -ne 0 ]; then
			printf '%s\n' "$out"
		fi
		echo "$(basename "$t"): $p passed, $f failed"
	done
	out=$(bash tests/e2e/run.sh "$build/faultline" tests 2>&1)
	p=$(printf '%s\n' "$out" | sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		printf '%s\n' "$out"
		p=0
		f=1
	fi
	if [ "$f" -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^ok - '
	fi
	echo "e2e: $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
