# Attacks on the lookup (issue #18): inputs built to make explain, grep-log
# and POST /api/explain do superlinear work (a repeated phrase, one huge
# line, random bytes, invalid UTF-8, only newlines) must finish within a
# bound that is generous for the sanitizer build on a loaded machine; a
# line longer than the limit is matched on its head and tail and the answer
# says so; grep-log with no match is clean under UBSan.  The tight figures
# are bench/bench_adversarial's.

adb="$WORK/attack.db"
for l in go python; do
	[ -d "$TESTS/fixtures/$l" ] || continue
	cp -r "$TESTS/fixtures/$l" "$WORK/at-$l"
	rm -f "$WORK/at-$l/expected.tsv"
	"$FL" scan "$WORK/at-$l" --repo "acme/$l" --db "$adb" >/dev/null 2>&1
done

# atk_ms: milliseconds since the epoch
atk_ms() { echo $(($(date +%s%N) / 1000000)); }
# atk_within NAME SECONDS OUT CMD...: CMD (stopped after 4x the bound), its
# output in OUT and OUT.err, ends in SECONDS; sets RC to its exit status
atk_within() {
	local name=$1 limit=$2 out=$3 t0 t1
	shift 3
	t0=$(atk_ms)
	timeout $((limit * 4)) "$@" >"$out" 2>"$out.err"
	RC=$?
	t1=$(atk_ms)
	if [ "$RC" -ne 124 ] && [ $((t1 - t0)) -le $((limit * 1000)) ]; then
		ok "$name ($((t1 - t0)) ms)"
	else
		bad "$name" "took $((t1 - t0)) ms (exit $RC), bound ${limit} s"
	fi
}

# atk_repeat TEXT BYTES: TEXT repeated on one line, BYTES long
atk_repeat() { yes "$1" | tr -d '\n' | head -c "$2"; }
MB=1048576

# bug 4: grep-log with no match sorted a NULL array (UBSan)
printf 'nothing known here\n\nnor here\n' >"$WORK/none.log"
"$FL" grep-log --db "$adb" "$WORK/none.log" >"$WORK/none.out" 2>"$WORK/none.err"; rc=$?
check "attack: grep-log with no match exits 0" [ $rc -eq 0 ]
check "attack: grep-log with no match prints the empty summary" grep -q '^0 matched errors in 3 lines, 0 distinct records$' "$WORK/none.out"
check "attack: grep-log with no match is clean under UBSan" bash -c "! grep -q 'runtime error' '$WORK/none.err'"
: | "$FL" grep-log --db "$adb" --json - >"$WORK/none.jsonl" 2>"$WORK/none.err"; rc=$?
check "attack: grep-log --json of an empty log: nothing, exit 0" bash -c "[ $rc -eq 0 ] && [ ! -s '$WORK/none.jsonl' ] && ! grep -q 'runtime error' '$WORK/none.err'"

# bug 2: 1 MB of a repeated phrase, one line and many lines
atk_repeat 'failed to ' $MB >"$WORK/rep1.txt"
yes 'failed to failed to reservation failed: item x not found' | head -c $MB >"$WORK/repn.txt"
atk_repeat 'item x not found ' $MB >"$WORK/item1.txt"
atk_within "attack: explain of 1 MB 'failed to ' on one line" 5 "$WORK/rep1.json" \
	"$FL" explain --db "$adb" --json - <"$WORK/rep1.txt"
check "attack: explain of a cut line says so (cutLines)" [ "$(jq -r .cutLines "$WORK/rep1.json")" = 1 ]
atk_within "attack: explain of 1 MB of matching lines" 5 "$WORK/repn.json" \
	"$FL" explain --db "$adb" --json - <"$WORK/repn.txt"
check "attack: explain of 1 MB of lines still answers" [ "$(jq -r '.matches | length > 0' "$WORK/repn.json")" = true ]
atk_within "attack: explain of 1 MB 'item x not found' on one line" 5 "$WORK/item1.out" \
	"$FL" explain --db "$adb" - <"$WORK/item1.txt"
check "attack: explain text output notes the cut line" grep -q 'matched on its first and last' "$WORK/item1.out"

# a long line is matched on its head and its tail
{ printf 'cannot load config: '; atk_repeat 'abcdefgh ' $MB; printf '\n'; } >"$WORK/head.log"
{ atk_repeat 'abcdefgh ' $MB; printf ' reservation failed: disk full\n'; } >"$WORK/tail.log"
"$FL" grep-log --db "$adb" --json "$WORK/head.log" >"$WORK/head.jsonl" 2>/dev/null
check "attack: grep-log finds the error at the head of a 1 MB line" \
	[ "$(jq -r '"\(.line) \(.filePath):\(.lineNumber) \(.cutLines)"' "$WORK/head.jsonl")" = "1 cmd/shopd/main.go:17 1" ]
"$FL" grep-log --db "$adb" --json "$WORK/tail.log" >"$WORK/tail.jsonl" 2>/dev/null
check "attack: grep-log finds the error at the tail of a 1 MB line" \
	[ "$(jq -r '"\(.line) \(.filePath):\(.lineNumber) \(.cutLines)"' "$WORK/tail.jsonl")" = "1 server.go:26 1" ]
check "attack: grep-log --json keeps the whole line as text" [ "$(jq -r '.text | length' "$WORK/tail.jsonl")" -gt $MB ]
# a line longer than grep-log's 4 MB buffer is still one line
{ atk_repeat 'abcdefgh ' $((5 * MB)); printf ' reservation failed: disk full\nreservation failed: again\n'; } >"$WORK/huge.log"
"$FL" grep-log --db "$adb" --json "$WORK/huge.log" >"$WORK/huge.jsonl" 2>/dev/null
check "attack: grep-log: a 5 MB line is one line, matched on its tail" \
	[ "$(jq -r '"\(.line) \(.cutLines)"' "$WORK/huge.jsonl" | tr '\n' ' ')" = "1 1 2 null " ]
"$FL" grep-log --db "$adb" "$WORK/tail.log" >"$WORK/tail.out" 2>/dev/null
check "attack: grep-log text output notes the cut line" grep -q 'matched on its first and last' "$WORK/tail.out"
printf 'reservation failed: disk full\n' | "$FL" grep-log --db "$adb" --json - >"$WORK/short.jsonl"
check "attack: a short line says nothing of cuts" [ "$(jq -r 'has("cutLines")' "$WORK/short.jsonl")" = false ]

# grep-log over a few MB of each kind of pathological content (the
# sanitizer build looks at an empty line in ~4 us)
G=$((2 * MB))
atk_repeat 'failed to ' $G >"$WORK/g-rep1.log"
yes 'failed to failed to reservation failed: item x not found' | head -c $G >"$WORK/g-repn.log"
head -c $G /dev/urandom >"$WORK/g-rand.log"
yes '' | head -c $G >"$WORK/g-nl.log"
atk_repeat $'\xff\xfe\xc3(\xe2\x82 item \xa0 not found ' $G >"$WORK/g-utf8.log"
yes '    at item x not found (reservation failed: x)' | head -c $G >"$WORK/g-indent.log"
for f in rep1 repn rand nl utf8 indent; do
	atk_within "attack: grep-log of 2 MB ($f)" 20 "$WORK/g-$f.out" \
		"$FL" grep-log --db "$adb" "$WORK/g-$f.log"
	check "attack: grep-log of 2 MB ($f) exits 0, clean" bash -c "[ $RC -eq 0 ] && ! grep -q 'runtime error' '$WORK/g-$f.out.err'"
done
check "attack: grep-log of matching lines reports every line" [ "$(grep -c '^    -> ' "$WORK/g-repn.out")" -eq $((G / 57)) ]
check "attack: grep-log of only newlines counts them" grep -q "^0 matched errors in $G lines" "$WORK/g-nl.out"

# POST /api/explain with a 1 MB body of a repeated phrase (a server of its
# own on 127.0.0.1, port picked by the kernel, stopped below)
"$FL" serve --listen 127.0.0.1:0 --cache-dir "$WORK/attack-cache" --db "$adb" --no-site \
	2>"$WORK/attack-serve.err" &
ATK_PID=$!
port=""
for i in $(seq 300); do
	port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/attack-serve.err")
	[ -n "$port" ] && break
	kill -0 "$ATK_PID" 2>/dev/null || break
	sleep 0.1
done
SV="http://127.0.0.1:$port"
if [ -n "$port" ]; then
	t0=$(atk_ms)
	code=$(curl -s --max-time 60 -o "$WORK/api1.jsonl" -w '%{http_code}' --data-binary @"$WORK/rep1.txt" "$SV/api/explain")
	t1=$(atk_ms)
	check "attack: POST /api/explain of 1 MB 'failed to ' answers 200 in 5 s ($((t1 - t0)) ms)" \
		[ "$code" = 200 -a $((t1 - t0)) -le 5000 ]
	t0=$(atk_ms)
	code=$(curl -s --max-time 60 -o "$WORK/api2.json" -w '%{http_code}' -H 'Accept: application/json' \
		--data-binary @"$WORK/repn.txt" "$SV/api/explain")
	t1=$(atk_ms)
	check "attack: POST /api/explain of 1 MB of matching lines answers in 5 s ($((t1 - t0)) ms)" \
		[ "$code" = 200 -a $((t1 - t0)) -le 5000 ]
	check "attack: ... and answers every line, not truncated" \
		[ "$(jq -r '"\(.matches | length) \(.truncated // false)"' "$WORK/api2.json")" = "$((MB / 57)) false" ]
	{ atk_repeat 'abcdefgh ' $((MB / 2)); printf ' reservation failed: disk full\n'; } >"$WORK/tail-half.log"
	code=$(curl -s --max-time 60 -o "$WORK/api3.jsonl" -w '%{http_code}' --data-binary @"$WORK/tail-half.log" "$SV/api/explain")
	check "attack: POST /api/explain finds the tail of a long line, said as cutLines" \
		[ "$code $(jq -r '"\(.filePath) \(.cutLines)"' "$WORK/api3.jsonl" 2>/dev/null)" = "200 server.go 1" ]
	code=$(curl -s --max-time 20 -o /dev/null -w '%{http_code}' "$SV/healthz")
	check "attack: the server still answers after the attacks" [ "$code" = 200 ]
	kill -TERM "$ATK_PID" 2>/dev/null
	for i in $(seq 100); do kill -0 "$ATK_PID" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$ATK_PID" 2>/dev/null
	wait "$ATK_PID" 2>/dev/null
	check "attack: serve is clean under UBSan" bash -c "! grep -q 'runtime error' '$WORK/attack-serve.err'"
else
	bad "attack: serve starts" "$(cat "$WORK/attack-serve.err")"
	kill -KILL "$ATK_PID" 2>/dev/null
	wait "$ATK_PID" 2>/dev/null
fi
