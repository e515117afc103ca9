# faultline enrich (issue 20, enrich.md): providers scripted per case — a
# fake OpenAI-compatible server on loopback and a fake command — answering
# in the providers' published shapes.

EN="$WORK/enrich"
mkdir -p "$EN"
FAKES="$TESTS/enrich"
EDB="$EN/en.db"
cp -r "$TESTS/fixtures/python" "$EN/py"
"$FL" scan "$EN/py" --db "$EDB" --repo local/py >/dev/null 2>&1
"$FL" scan "$TESTS/fixtures/go" --db "$EDB" --repo local/go >/dev/null 2>&1
NREC=$("$FL" list --db "$EDB" | wc -l)
check "enrich: fixtures scanned" [ "$NREC" -gt 20 ]
"$FL" list --db "$EDB" --json | jq -c '{id, errorMessage, messagePattern, filePath, lineNumber, slug}' | sort >"$EN/facts0"

FAKE_PIDS=""
# start_fake NAME SCRIPT-JSON [DELAY-MS]: a fake server; sets PORT
start_fake() {
	printf '%s\n' "$2" >"$EN/$1.script"
	rm -f "$EN/$1.port"
	python3 "$FAKES/fake_openai.py" --port-file "$EN/$1.port" --script "$EN/$1.script" \
		--log "$EN/$1.log" ${3:+--delay "$3"} 2>"$EN/$1.err" &
	FAKE_PIDS="$FAKE_PIDS $!"
	for _ in $(seq 1 100); do [ -s "$EN/$1.port" ] && break; sleep 0.05; done
	PORT=$(cat "$EN/$1.port" 2>/dev/null)
}
stop_fakes() { [ -n "$FAKE_PIDS" ] && kill $FAKE_PIDS 2>/dev/null; wait $FAKE_PIDS 2>/dev/null; FAKE_PIDS=""; }
sum() { jq -r ".$1" "$EN/sum.json"; }

# --- a good OpenAI-compatible provider --------------------------------------
start_fake good '[{"do":"good"}]'
check "enrich: fake server started" [ -n "$PORT" ]
FAKE_KEY=sekrit "$FL" enrich --db "$EDB" --openai-url "http://127.0.0.1:$PORT/v1" \
	--model fake-7b --api-key-env FAKE_KEY --jobs 4 --batch 5 --json >"$EN/sum.json" 2>"$EN/e.txt"
rc=$?
check "enrich: good provider exits 0" [ $rc -eq 0 ]
check "enrich: every record completed" [ "$(sum completed)" = "$NREC" ]
check "enrich: nothing left or rejected" bash -c "[ $(sum left) = 0 ] && [ $(sum rejected) = 0 ]"
check "enrich: tokens reported" [ "$(sum promptTokens)" -gt 0 ]
"$FL" list --db "$EDB" --json >"$EN/after.jsonl"
check "enrich: model text in every record" \
	[ "$(jq -r 'select(.documentation|startswith("Model text for"))|.id' "$EN/after.jsonl" | wc -l)" = "$NREC" ]
check "enrich: defend fields written" \
	[ "$(jq -r 'select(.tryCatchPattern|tostring|startswith("try { call()"))|.id' "$EN/after.jsonl" | wc -l)" = "$NREC" ]
jq -c '{id, errorMessage, messagePattern, filePath, lineNumber, slug}' "$EN/after.jsonl" | sort >"$EN/facts1"
check "enrich: message, pattern, location and ids unchanged" cmp -s "$EN/facts0" "$EN/facts1"
check "enrich: the key is sent as a Bearer token" \
	bash -c "[ \$(jq -r 'select(.auth != \"Bearer sekrit\")' '$EN/good.log' | wc -l) = 0 ]"
check "enrich: a JSON schema is sent as response_format" \
	bash -c "[ \$(jq -r 'select(.response_format != true)' '$EN/good.log' | wc -l) = 0 ]"
dups=$(jq -r 'select(.phase != "verify") | .phase as $p | .ids[] | "\($p) \(.)"' "$EN/good.log" | sort | uniq -d | wc -l)
check "enrich: no record sent twice for a phase" [ "$dups" = 0 ]
check "enrich: the key is never stored" bash -c "! grep -q sekrit '$EDB'"
calls=$(wc -l <"$EN/good.log")
"$FL" enrich --db "$EDB" --openai-url "http://127.0.0.1:$PORT/v1" --model fake-7b --json >"$EN/sum.json" 2>/dev/null
calls2=$(wc -l <"$EN/good.log")
check "enrich: a second run has nothing to do" bash -c "[ '$(sum selected)' = 0 ] && [ $calls2 = $calls ]"
ID=$(head -1 "$EN/after.jsonl" | jq -r .id)
"$FL" show --db "$EDB" "$ID" >"$EN/show.txt"
check "enrich: show says a model wrote the text" grep -q "Written by a model" "$EN/show.txt"
check "enrich: show names the model and provider" grep -q "fake-7b via openai" "$EN/show.txt"

# the data set keeps schema v2 records and a provenance side file; the site marks model text
"$FL" export --db "$EDB" "$EN/ds" >/dev/null 2>&1
check "enrich: export writes provenance.json" \
	[ "$(jq '.records | length' "$EN/ds/provenance.json" 2>/dev/null)" = "$NREC" ]
check "enrich: provenance names provider, model, time, phase" \
	bash -c "jq -e --arg id '$ID' '.records[\$id].documentation | .provider == \"openai\" and .model == \"fake-7b\" and (.at|test(\"Z\$\")) and .phase != null' '$EN/ds/provenance.json' >/dev/null"
check "enrich: provenance.json is in the inventory" grep -q '"/data/provenance.json"\|"provenance.json"' "$EN/ds/inventory.json"
"$FL" import --db "$EN/imp.db" "$EN/ds" >/dev/null 2>"$EN/e.txt"
check "enrich: the data set imports" [ $? -eq 0 ]
"$FL" show --db "$EN/imp.db" "$ID" >"$EN/show.txt" 2>&1
check "enrich: an imported record keeps its provenance" grep -q "fake-7b via openai" "$EN/show.txt"
"$FL" export --db "$EN/imp.db" "$EN/ds2" >/dev/null 2>&1
check "enrich: ... and exports it again" cmp -s <(jq -S .records "$EN/ds/provenance.json") <(jq -S .records "$EN/ds2/provenance.json")
"$FL" site --data "$EN/ds" "$EN/site" >/dev/null 2>&1
check "enrich: the site marks model-written text" grep -q "Written by a language model" "$EN/site/errors/$ID/index.html"

# a rescan that changes records' content makes their model text stale
sed -i 's/^def restock(/def restock_all(/' "$EN/py/inventory/commands.py"
"$FL" scan "$EN/py" --db "$EDB" --repo local/py >/dev/null 2>&1
"$FL" enrich --db "$EDB" --dry-run --command cat >"$EN/dry.txt" 2>&1
n=$(sed -n 's/^would enrich \([0-9]*\) records.*/\1/p' "$EN/dry.txt")
check "enrich: a changed record is enriched again, the others not" bash -c "[ '${n:-0}' -ge 1 ] && [ '${n:-0}' -lt $NREC ]"
check "enrich: --dry-run prints the prompt" grep -q '^{"id":"' "$EN/dry.txt"
stop_fakes

# --- scripted failures, through a fresh store of 8 records each ---------------
small_db() {
	rm -f "$EN/s.db"*
	"$FL" scan "$TESTS/fixtures/go" --db "$EN/s.db" --repo local/go >/dev/null 2>&1
}
run_cmd() { # SCRIPT-JSON ARGS...
	printf '%s\n' "$1" >"$EN/cmd.script"
	rm -f "$EN/cmd.state" "$EN/cmd.log"
	shift
	"$FL" enrich --db "$EN/s.db" --limit 8 --batch 4 --jobs 2 --json \
		--command "python3 $FAKES/fake_cmd.py --script $EN/cmd.script --state $EN/cmd.state --log $EN/cmd.log $*" \
		>"$EN/sum.json" 2>"$EN/e.txt"
}
small_db
run_cmd '[{"do":"good"}]' --envelope
check "enrich: command provider in an agent CLI's JSON envelope" [ "$(sum completed)" = 8 ]
small_db
run_cmd '[{"do":"preamble"}]'
check "enrich: an answer after a preamble is found" [ "$(sum completed)" = 8 ]
small_db
run_cmd '[{"do":"truncated"},{"do":"good"}]'
check "enrich: truncated JSON is rejected and the call made again" \
	bash -c "[ $(sum rejected) -ge 1 ] && [ $(sum retried) -ge 1 ] && [ $(sum completed) = 8 ]"
small_db
run_cmd '[{"do":"rate_limit"},{"do":"good"}]'
check "enrich: rate-limit text from a command: backoff, then success" \
	bash -c "[ $(sum rateLimited) -ge 1 ] && [ $(sum completed) = 8 ]"
small_db
start=$(date +%s)
printf '%s\n' '[{"do":"hang"},{"do":"good"}]' >"$EN/cmd.script"
rm -f "$EN/cmd.state" "$EN/cmd.log"
"$FL" enrich --db "$EN/s.db" --limit 4 --batch 4 --jobs 1 --timeout 3 --json \
	--command "python3 $FAKES/fake_cmd.py --script $EN/cmd.script --state $EN/cmd.state" \
	>"$EN/sum.json" 2>"$EN/e.txt"
check "enrich: a hung command is killed at the timeout and retried" \
	bash -c "[ $(sum timeouts) = 1 ] && [ $(sum completed) = 4 ] && [ $(( $(date +%s) - start )) -lt 40 ]"
sleep 0.2
check "enrich: the hung command is gone" bash -c "! pgrep -f '[f]ake_cmd.py --script $EN/cmd.script' >/dev/null"
small_db
run_cmd '[{"do":"change_message"}]'
rc=$?
check "enrich: a model that changes the message is rejected" \
	bash -c "[ $rc -eq 1 ] && [ $(sum completed) = 0 ] && [ $(sum rejected) -ge 2 ]"
check "enrich: ... and the message is unchanged" \
	bash -c "! '$FL' list --db '$EN/s.db' --json | grep -q '\"errorMessage\":\"changed\"'"
small_db
run_cmd '[{"do":"missing_one"}]'
check "enrich: a record missing from the answer is left for later" \
	bash -c "[ $(sum left) -ge 1 ] && [ $(sum completed) -lt 8 ]"
small_db
printf '%s\n' '[{"do":"bad_enum"}]' >"$EN/cmd.script"
rm -f "$EN/cmd.state"
"$FL" enrich --db "$EN/s.db" --batch 1 --jobs 1 --json \
	--command "python3 $FAKES/fake_cmd.py --script $EN/cmd.script --state $EN/cmd.state" \
	>"$EN/sum.json" 2>"$EN/e.txt"
rc=$?
check "enrich: the quality gate pauses a run of bad answers" \
	bash -c "[ $rc -eq 1 ] && [ $(sum paused) = true ] && grep -q 'paused' '$EN/e.txt'"

# fallback: a failing command, then the configured OpenAI provider
small_db
start_fake fb '[{"do":"good"}]'
cat >"$EN/config" <<EOF
[provider "broken"]
	type = command
	command = "echo nope >&2; exit 3"
[provider "srv"]
	type = openai
	url = http://127.0.0.1:$PORT/v1
	model = fb-model
[enrich]
	primary = broken
	fallback = srv
	batch = 4
EOF
"$FL" enrich --db "$EN/s.db" --config "$EN/config" --limit 8 --json >"$EN/sum.json" 2>"$EN/e.txt"
check "enrich: failing primary twice, then the fallback provider" \
	bash -c "[ $(sum fallbackCalls) -ge 1 ] && [ $(sum completed) = 8 ] && [ $(sum failed) -ge 2 ]"
"$FL" show --db "$EN/s.db" "$(head -1 "$EN/fb.log" | jq -r '.ids[0]')" >"$EN/show.txt" 2>&1
check "enrich: fallback's model recorded" grep -q "fb-model via srv" "$EN/show.txt"
stop_fakes

# a 429 from the server, then success
small_db
start_fake rl '[{"do":"rate_limit"},{"do":"good"}]'
"$FL" enrich --db "$EN/s.db" --openai-url "http://127.0.0.1:$PORT/v1" --model m --limit 8 --batch 4 \
	--json >"$EN/sum.json" 2>"$EN/e.txt"
check "enrich: HTTP 429 then success" bash -c "[ $(sum rateLimited) = 1 ] && [ $(sum completed) = 8 ]"
stop_fakes

# kill -9 in the middle of a run, then resume: nothing lost, nothing done twice
rm -f "$EN/k.db"*
cp "$EDB" "$EN/k.db"
start_fake slow '[{"do":"good"}]' 250
"$FL" enrich --db "$EN/k.db" --openai-url "http://127.0.0.1:$PORT/v1" --model m --force \
	--jobs 2 --batch 3 >/dev/null 2>&1 &
kpid=$!
sleep 3
{ kill -9 $kpid; wait $kpid; } 2>/dev/null
before=$(wc -l <"$EN/slow.log")
"$FL" enrich --db "$EN/k.db" --openai-url "http://127.0.0.1:$PORT/v1" --model m \
	--jobs 2 --batch 3 --json >"$EN/sum.json" 2>"$EN/e.txt"
check "enrich: killed run resumed" bash -c "[ $before -ge 1 ] && [ $(sum left) = 0 ] && [ $(sum selected) -lt $NREC ]"
redone=$(jq -r 'select(.phase != "verify") | .phase as $p | .ids[] | "\($p) \(.)"' "$EN/slow.log" | sort | uniq -d | wc -l)
check "enrich: at most the calls in flight were done twice" [ "$redone" -le 6 ]
"$FL" enrich --db "$EN/k.db" --dry-run --command cat >"$EN/dry.txt" 2>&1
check "enrich: after resuming, nothing is left" grep -q "^would enrich 0 records" "$EN/dry.txt"
stop_fakes

# bad flags and providers
"$FL" enrich --db "$EDB" --openai-url http://127.0.0.1:1/v1 >/dev/null 2>"$EN/e.txt"
check "enrich: --openai-url without --model is a usage error" [ $? -eq 2 ]
"$FL" enrich --db "$EDB" --jobs 0 --command cat >/dev/null 2>&1
check "enrich: --jobs 0 is a usage error" [ $? -eq 2 ]
small_db
"$FL" enrich --db "$EN/s.db" --openai-url http://127.0.0.1:1/v1 --model m --limit 2 >/dev/null 2>"$EN/e.txt"
rc=$?
check "enrich: an unreachable endpoint fails with a message" \
	bash -c "[ $rc -eq 1 ] && grep -q 'no record could be enriched' '$EN/e.txt'"
printf '[provider "x"]\n\ttype = telepathy\n' >"$EN/badconf"
"$FL" enrich --db "$EN/s.db" --config "$EN/badconf" >/dev/null 2>"$EN/e.txt"
rc=$?
check "enrich: a bad configuration names the value" bash -c "[ $rc -eq 1 ] && grep -q 'telepathy' '$EN/e.txt'"
XDG_CONFIG_HOME="$EN/none" "$FL" enrich --db "$EN/s.db" >/dev/null 2>"$EN/e.txt"
check "enrich: no provider at all is explained" grep -q "no provider" "$EN/e.txt"

# verify returns patches: applied, and asked again at most twice
small_db
run_cmd '{"default":"good","phases":{"verify":{"do":"good","set":{"documentation":"Checked against the source."}}}}'
check "enrich: verify's patches are applied" \
	bash -c "[ $(sum completed) = 8 ] && [ \$('$FL' list --db '$EN/s.db' --json | jq -r 'select(.documentation == \"Checked against the source.\")|.id' | wc -l) = 8 ]"
check "enrich: verify runs at most twice per record" \
	[ "$(jq -r 'select(.phase == "verify") | .ids[]' "$EN/cmd.log" | sort | uniq -c | awk '$1 > 2' | wc -l)" = 0 ]
check "enrich: verify ran a second round after a patch" \
	[ "$(jq -r 'select(.phase == "verify") | .ids[]' "$EN/cmd.log" | sort | uniq -c | awk '$1 == 2' | wc -l)" = 8 ]
"$FL" show --db "$EN/s.db" "$("$FL" list --db "$EN/s.db" --json | head -1 | jq -r .id)" >"$EN/show.txt"
check "enrich: show names the verify phase's writer" grep -q "^  documentation" "$EN/show.txt"
