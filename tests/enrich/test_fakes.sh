#!/usr/bin/env bash
# test_fakes.sh — self-test of the fake providers (fake_openai.py,
# fake_cmd.py): every behaviour, the script forms (list, sequence/default,
# phases, by_id, set), the log, concurrency, hangs and bad prompts.
# Standalone: bash tests/enrich/test_fakes.sh [FAULTLINE_BIN]  (python3, curl, jq)
# With FAULTLINE_BIN, also runs bench/enrich/run.sh FAULTLINE_BIN 600 and
# checks its steps: (a) the store, (b) the provider, and (c)/(d) once the
# binary has `enrich` (until then, its exit 3).
# Prints one line per check and ends with "fakes: N passed, N failed".
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/enrich/fakes.sh
. "$HERE/fakes.sh"
W=$(mktemp -d /tmp/fakes-test-XXXXXX)
cleanup() { fake_openai_stop; [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && echo "    $2"; }
check() { local n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# jqt FILE FILTER: FILTER (a jq boolean) holds for the JSON in FILE
jqt() { [ "$(jq -e "$2" "$1" 2>/dev/null)" = true ]; }

A=c8caaa7717329c9f
B=c50e436bb2a9a14b
# prompt PHASE: a prompt of two records, as the product writes them
prompt() {
	printf 'You document the error records below.\nPhase: %s\nRecords, one JSON object a line:\n' "$1"
	printf '{"id":"%s","repo":"acme/widgets","slug":"invalid-widget-size-size","errorMessage":"invalid widget size: {size}","filePath":"src/size.rs","lineNumber":12,"sourceCode":"fn f() {\\n    bail!(\\"invalid widget size: {size}\\")\\n}"}\n' "$A"
	printf '{"id":"%s","repo":"acme/widgets","slug":"widget-is-locked","errorMessage":"widget is locked ✓","filePath":"lib/lock.js","lineNumber":3,"sourceCode":null}\n' "$B"
	printf 'Answer with one JSON object: {"records": [{"id": "<16 hex>", ...}]}\n'
}
# post PHASE OUT [curl options...]: POST a chat completion with the prompt
# of PHASE; the body in OUT, prints the HTTP status
post() {
	local ph=$1 out=$2
	shift 2
	prompt "$ph" | jq -Rs '{model: "fake-model", messages: [{role: "system", content: "You are terse."}, {role: "user", content: .}], response_format: {type: "json_schema", json_schema: {name: "records", schema: {type: "object"}}}}' |
		curl -s -o "$out" -w '%{http_code}' -H 'Content-Type: application/json' \
			-H "Authorization: Bearer ${KEY:-sk-test}" "$@" --data-binary @- "$FAKE_URL/chat/completions"
}
# content FILE: the message content of the chat completion in FILE
content() { jq -r '.choices[0].message.content' "$1"; }
# lastlog FILTER: FILTER holds for the last line of the server's log
lastlog() { tail -n 1 "$SD/openai.log" | jq -e "$1" >/dev/null 2>&1; }

ENRICH_OK='(.records | length == 2) and (.records[0].id == "'$A'") and (.records[1].id == "'$B'")
  and (.records[0].documentation == "Model text for invalid widget size: {size}")
  and (.records[1].documentation == "Model text for widget is locked ✓")
  and all(.records[]; (.triggerScenarios | type == "string") and (.commonSituations | type == "string")
    and (.solutions | type == "array" and length >= 2 and all(type == "string"))
    and (.exampleFix | type == "string" or . == null))'
DEFEND_OK='(.records | length == 2) and all(.records[];
    (.handlingStrategy | IN("try-catch","type-guard","validation","retry","fallback"))
    and (.tryCatchPattern | type == "string") and (.preventionTips | type == "array")
    and (.validationCode | type == "string" or . == null) and (.typeGuard | type == "string" or . == null))
  and (.records[1].validationCode | contains("widget is locked"))'

# ---- fake_openai.py --------------------------------------------------------

S='["good", "preamble", "preamble_brace", "fenced", "truncated", "garbage", "empty",
    "change_message", "bad_enum", "bad_type", "missing_one", "extra_id",
    {"do": "rate_limit", "retry_after": 2}, "unavailable", "server_error", "fail",
    {"do": "good", "delay_ms": 300}, "delay:300:good", "hang", "drop", "good"]'
SD=$W/s
if ! fake_openai_start "$SD" "$S" --dump "$SD/prompts"; then
	bad "fake_openai starts and writes its port"
	echo "fakes: $PASS passed, $((FAIL)) failed"
	exit 1
fi
check "openai: the port file holds the port it listens on" \
	bash -c "curl -s -o /dev/null -w '%{http_code}' '$FAKE_URL/models' | grep -qx 200"
curl -s "$FAKE_URL/models" >"$W/models.json"
check "openai: GET /v1/models is a list" jqt "$W/models.json" '.object == "list" and (.data[0].object == "model")'

st=$(post enrich "$W/r.json")
check "openai good: 200" [ "$st" = 200 ]
check "openai good: chat.completion shape" jqt "$W/r.json" '(.id | startswith("chatcmpl-")) and .object == "chat.completion"
  and (.created | type == "number") and .model == "fake-model" and (.choices | length == 1)
  and .choices[0].index == 0 and .choices[0].message.role == "assistant"
  and (.choices[0].message.content | type == "string") and .choices[0].finish_reason == "stop"
  and .usage.total_tokens == .usage.prompt_tokens + .usage.completion_tokens and .usage.prompt_tokens > 0'
content "$W/r.json" >"$W/c.json"
check "openai good: the content is the whole answer, per record" jqt "$W/c.json" "$ENRICH_OK"
check "openai log: phase, ids, model, auth, response_format, behaviour, status" \
	lastlog '.n == 1 and .phase == "enrich" and .ids == ["'$A'","'$B'"] and .model == "fake-model"
	  and .auth == "Bearer sk-test" and .response_format == true and .response_format_type == "json_schema"
	  and .behaviour == "good" and .status == 200 and .script == "all#0" and (.time | test("Z$"))'
check "openai --dump: the prompt is kept" grep -q '^Phase: enrich$' "$SD/prompts/0001.txt"

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.txt"
check "openai preamble: text, then the answer" \
	bash -c "head -n 1 '$W/c.txt' | grep -qx 'Sure! Here are the records:' && tail -n +2 '$W/c.txt' | jq -e '$ENRICH_OK' >/dev/null"

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.txt"
check "openai preamble_brace: a '{' before the answer that is not it" \
	bash -c "head -n 1 '$W/c.txt' | grep -q '{' && ! head -n 1 '$W/c.txt' | jq -e . >/dev/null 2>&1 && tail -n +2 '$W/c.txt' | jq -e '$ENRICH_OK' >/dev/null"

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.txt"
check "openai fenced: a \`\`\`json fence around the answer" \
	bash -c "head -n 1 '$W/c.txt' | grep -qx '\`\`\`json' && tail -n 1 '$W/c.txt' | grep -qx '\`\`\`' && sed '1d;\$d' '$W/c.txt' | jq -e '$ENRICH_OK' >/dev/null"

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.txt"
check "openai truncated: finish_reason length, content an unfinished JSON prefix" \
	bash -c "jq -e '.choices[0].finish_reason == \"length\"' '$W/r.json' >/dev/null && ! jq -e . '$W/c.txt' >/dev/null 2>&1 && grep -q '^{\"records\": \[{\"id\": \"$A\"' '$W/c.txt'"

post enrich "$W/r.json" >/dev/null
check "openai garbage: a refusal in the content" [ "$(content "$W/r.json")" = "I cannot help with that." ]

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai empty: {\"records\": []}" jqt "$W/c.json" '. == {"records": []}'

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai change_message: every record sets errorMessage" jqt "$W/c.json" '(.records | length == 2) and all(.records[]; .errorMessage == "changed" and (.documentation | type == "string"))'

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai bad_enum (enrich): handlingStrategy sometimes" jqt "$W/c.json" 'all(.records[]; .handlingStrategy == "sometimes")'

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai bad_type (enrich): solutions a string" jqt "$W/c.json" 'all(.records[]; .solutions | type == "string")'

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai missing_one: the last record is left out" jqt "$W/c.json" '[.records[].id] == ["'$A'"]'

post enrich "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai extra_id: an id not in the prompt" jqt "$W/c.json" '[.records[].id] == ["'$A'","'$B'","00000000deadbeef"]'

post enrich "$W/r.json" -D "$W/h.txt" >"$W/st"
check "openai rate_limit: 429, Retry-After, OpenAI's error body" \
	bash -c "[ \$(cat '$W/st') = 429 ] && grep -qi '^Retry-After: 2' '$W/h.txt' && jq -e '.error == {message: \"Rate limit reached\", type: \"requests\", param: null, code: \"rate_limit_exceeded\"}' '$W/r.json' >/dev/null"
st=$(post enrich "$W/r.json")
check "openai unavailable: 503 with an error body" bash -c "[ $st = 503 ] && jq -e '.error.type == \"server_error\"' '$W/r.json' >/dev/null"
st=$(post enrich "$W/r.json")
check "openai server_error: 500 with an error body" bash -c "[ $st = 500 ] && jq -e '.error.message | length > 0' '$W/r.json' >/dev/null"
st=$(post enrich "$W/r.json")
check "openai fail: 400 invalid_request_error" bash -c "[ $st = 400 ] && jq -e '.error.type == \"invalid_request_error\"' '$W/r.json' >/dev/null"

t0=$(date +%s%N)
st=$(post enrich "$W/r.json")
ms=$((($(date +%s%N) - t0) / 1000000))
check "openai {do: good, delay_ms: 300}: answered after >= 300 ms ($ms ms)" bash -c "[ $st = 200 ] && [ $ms -ge 300 ]"
t0=$(date +%s%N)
st=$(post enrich "$W/r.json")
ms=$((($(date +%s%N) - t0) / 1000000))
check "openai \"delay:300:good\": answered after >= 300 ms ($ms ms)" bash -c "[ $st = 200 ] && [ $ms -ge 300 ]"

t0=$(date +%s%N)
st=$(post enrich "$W/r.json" --max-time 1)
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "openai hang: no answer within curl --max-time 1 (status $st, $ms ms)" bash -c "[ '$st' = 000 ] && [ $ms -ge 900 ]"
check "openai hang: logged before hanging" lastlog '.behaviour == "hang" and .status == 0'
: "$rc"
st=$(post enrich "$W/r.json" --max-time 5)
check "openai drop: the connection closes without an answer (status $st)" [ "$st" = 000 ]
st=$(post enrich "$W/r.json")$(post enrich "$W/r.json")
check "openai: the last behaviour of the list repeats" bash -c "[ $st = 200200 ] && tail -n 1 '$SD/openai.log' | jq -e '.script == \"all#21\" and .behaviour == \"good\"' >/dev/null"
check "openai log: one line per call, numbered" \
	bash -c "[ \$(wc -l <'$SD/openai.log') = 22 ] && [ \"\$(jq -s '[.[].n] == [range(1;23)]' '$SD/openai.log')\" = true ]"

# requests the fake cannot read: 400 with the reason, logged
st=$(printf '{"model":"m","messages":[{"role":"user","content":"Phase: enrich\\nno records"}]}' |
	curl -s -o "$W/r.json" -w '%{http_code}' --data-binary @- "$FAKE_URL/chat/completions")
check "openai: a prompt without record lines is 400 with the reason" \
	bash -c "[ $st = 400 ] && jq -e '.error.message | test(\"no record line\")' '$W/r.json' >/dev/null"
st=$(printf '{"model":"m","messages":[{"role":"user","content":"{\\"id\\":\\"%s\\"}"}]}' "$A" |
	curl -s -o "$W/r.json" -w '%{http_code}' --data-binary @- "$FAKE_URL/chat/completions")
check "openai: a prompt without Phase: is 400" bash -c "[ $st = 400 ] && jq -e '.error.message | test(\"Phase\")' '$W/r.json' >/dev/null"
check "openai: a refused request is logged with behaviour null" lastlog '.behaviour == null and .status == 400 and .auth == null and .response_format == false'
st=$(prompt enrich | jq -Rs '{messages: [{role: "user", content: .}]}' |
	curl -s -o "$W/r.json" -w '%{http_code}' --data-binary @- "$FAKE_URL/chat/completions")
check "openai: no model is 400" [ "$st" = 400 ]
st=$(prompt enrich | jq -Rs '{model: "m", messages: [{role: "user", content: .}], response_format: {type: "json_schema", json_schema: {schema: {}}}}' |
	curl -s -o "$W/r.json" -w '%{http_code}' --data-binary @- "$FAKE_URL/chat/completions")
check "openai: a json_schema response_format without a name is 400" \
	bash -c "[ $st = 400 ] && jq -e '.error.param == \"response_format\"' '$W/r.json' >/dev/null"
st=$(curl -s -o "$W/r.json" -w '%{http_code}' --data-binary '{}' "http://127.0.0.1:$FAKE_PORT/chat/completions")
check "openai: a POST outside /v1/chat/completions is 404" [ "$st" = 404 ]
# content as an array of text parts, and a chunked body
st=$(prompt defend | jq -Rs '{model: "m", messages: [{role: "user", content: [{type: "text", text: .}]}]}' |
	curl -s -o "$W/r.json" -w '%{http_code}' -H 'Transfer-Encoding: chunked' --data-binary @- "$FAKE_URL/chat/completions")
check "openai: content as text parts, sent chunked" bash -c "[ $st = 200 ] && jq -e '.model == \"m\"' '$W/r.json' >/dev/null"
check "openai log: no Authorization, no response_format" lastlog '.auth == null and .response_format == false and .phase == "defend"'
fake_openai_stop

# phases, by_id, set, sequence/default; defend and verify answers
S='{"sequence": ["rate_limit"], "default": "good",
    "phases": {"verify": ["good", {"do": "good", "set": {"severity": "warning"}, "set_by_id": {"'$B'": {"tags": ["locking"]}}}, "bad_enum", "bad_type"],
               "defend": {"default": "good"}},
    "by_id": {"'$B'": {"sequence": ["server_error"], "default": "good"}}}'
fake_openai_start "$W/s2" "$S" || bad "fake_openai starts (script 2)"
SD=$W/s2
st=$(post defend "$W/r.json")
check "openai by_id: a prompt holding the id takes that id's sequence first" \
	bash -c "[ $st = 500 ] && tail -n 1 '$SD/openai.log' | jq -e '.script == \"id:$B#0\"' >/dev/null"
st=$(post defend "$W/r.json")
content "$W/r.json" >"$W/c.json"
check "openai defend (by_id default good): the phase's fields" bash -c "[ $st = 200 ] && jq -e '$DEFEND_OK' '$W/c.json' >/dev/null"
# prompts without $B: phases, then the top level
prompt_one() { prompt "$1" | grep -v "\"id\":\"$B\""; }
post_one() {
	prompt_one "$1" | jq -Rs '{model: "m", messages: [{role: "user", content: .}]}' |
		curl -s -o "$2" -w '%{http_code}' --data-binary @- "$FAKE_URL/chat/completions"
}
st=$(post_one enrich "$W/r.json")
check "openai sequence: the top level's sequence first (rate_limit)" [ "$st" = 429 ]
st=$(post_one enrich "$W/r.json")
content "$W/r.json" >"$W/c.json"
check "openai default: then its default (good), one record" bash -c "[ $st = 200 ] && jq -e '[.records[].id] == [\"$A\"]' '$W/c.json' >/dev/null"
st=$(post_one defend "$W/r.json")
check "openai phases.defend: its own sequence (good, not the top level's rate_limit)" \
	bash -c "[ $st = 200 ] && tail -n 1 '$SD/openai.log' | jq -e '.script == \"phase:defend#0\"' >/dev/null"
post_one verify "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai verify good: no patch, {\"records\": []}" jqt "$W/c.json" '. == {"records": []}'
st=$(post verify "$W/r.json")   # holds $B, whose sequence is used up: its default
content "$W/r.json" >"$W/c.json"
check "openai by_id default applies to every phase" jqt "$W/c.json" '. == {"records": []}'
post_one verify "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai verify with set: patches of those fields only" jqt "$W/c.json" '.records == [{"id": "'$A'", "severity": "warning"}]'
post_one verify "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai verify bad_enum: severity sometimes" jqt "$W/c.json" '.records[0].severity == "sometimes"'
post_one verify "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai verify bad_type: a tag breaking the tag syntax" jqt "$W/c.json" '.records[0].tags == ["Not A Tag"]'
fake_openai_stop

# set_by_id on a two-record verify
fake_openai_start "$W/s3" '{"do": "good", "set_by_id": {"'$B'": {"tags": ["locking"]}}}' || bad "fake_openai starts (script 3)"
SD=$W/s3
post verify "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai verify set_by_id: a patch for that record only" jqt "$W/c.json" '.records == [{"id": "'$B'", "tags": ["locking"]}]'
post defend "$W/r.json" >/dev/null
content "$W/r.json" >"$W/c.json"
check "openai defend bad-free with set_by_id: both records, B tagged" jqt "$W/c.json" "$DEFEND_OK"' and .records[1].tags == ["locking"] and (.records[0] | has("tags") | not)'
fake_openai_stop

# --require-key
fake_openai_start "$W/s4" '"good"' --require-key sk-right || bad "fake_openai starts (script 4)"
SD=$W/s4
st=$(post enrich "$W/r.json")
check "openai --require-key: a wrong key is 401 invalid_api_key" \
	bash -c "[ $st = 401 ] && jq -e '.error.code == \"invalid_api_key\"' '$W/r.json' >/dev/null"
st=$(KEY=sk-right post enrich "$W/r.json")
check "openai --require-key: the right key is 200" [ "$st" = 200 ]
fake_openai_stop

# concurrency: 10 requests of 1 s each at once, and --delay
fake_openai_start "$W/s5" '{"default": {"do": "good", "delay_ms": 1000}}' || bad "fake_openai starts (script 5)"
SD=$W/s5
t0=$(date +%s%N)
pids=()
for i in $(seq 10); do post enrich "$W/r$i.json" >"$W/st$i" & pids+=($!); done
wait "${pids[@]}"
ms=$((($(date +%s%N) - t0) / 1000000))
allok=1
for i in $(seq 10); do
	[ "$(cat "$W/st$i")" = 200 ] && content "$W/r$i.json" | jq -e "$ENRICH_OK" >/dev/null || allok=0
done
check "openai: 10 concurrent 1-s requests answered together ($ms ms < 3000)" bash -c "[ $allok = 1 ] && [ $ms -lt 3000 ]"
check "openai: 10 concurrent requests, 10 log lines, 10 distinct numbers" \
	bash -c "[ \"\$(jq -s '[.[].n] | unique | length' '$SD/openai.log')\" = 10 ] && [ \$(wc -l <'$SD/openai.log') = 10 ]"
fake_openai_stop
fake_openai_start "$W/s6" '"good"' --delay 400 || bad "fake_openai starts (script 6)"
SD=$W/s6
t0=$(date +%s%N)
post enrich "$W/r.json" >/dev/null
ms=$((($(date +%s%N) - t0) / 1000000))
check "openai --delay 400: every answer waits ($ms ms)" [ "$ms" -ge 400 ]
fake_openai_stop

check "openai: a bad script is refused at start" \
	bash -c "echo '[\"sometimes\"]' >'$W/bad.json'; ! python3 '$HERE/fake_openai.py' --port-file '$W/p' --script '$W/bad.json' 2>'$W/err' && grep -q 'unknown behaviour' '$W/err'"

# ---- fake_cmd.py -----------------------------------------------------------

S='["good", "preamble", "preamble_brace", "fenced", "truncated", "garbage", "empty",
    "change_message", "bad_enum", "bad_type", "missing_one", "extra_id",
    "rate_limit", "unavailable", "server_error", "fail", "drop", "delay:300:good", "good"]'
CD=$W/c
CMD=$(fake_cmd_line "$CD" "$S" --dump "$W/c/prompts")
# run PHASE: the command on the prompt of PHASE; stdout in $W/o, stderr in $W/e, prints the exit status
run() { prompt "$1" | eval "$CMD ${2:-}" >"$W/o" 2>"$W/e"; echo $?; }
# gone PID: no such process, or a zombie
gone() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null) || return 0; case $s in Z*) return 0 ;; esac; return 1; }
export -f gone
clog() { tail -n 1 "$CD/cmd.log" | jq -e "$1" >/dev/null 2>&1; }

rc=$(run enrich)
check "cmd good: exit 0, the answer on stdout" bash -c "[ $rc = 0 ] && jq -e '$ENRICH_OK' '$W/o' >/dev/null"
check "cmd log: n, pid, phase, ids, behaviour, exit" \
	clog '.n == 1 and (.pid | type == "number") and .phase == "enrich" and .ids == ["'$A'","'$B'"] and .behaviour == "good" and .exit == 0 and .envelope == false and .script == "all#0"'
check "cmd --dump: the prompt is kept" grep -q '^Phase: enrich$' "$W/c/prompts/0001.txt"
rc=$(run enrich)
check "cmd preamble: text, then the answer" \
	bash -c "[ $rc = 0 ] && head -n 1 '$W/o' | grep -qx 'Sure! Here are the records:' && tail -n +2 '$W/o' | jq -e '$ENRICH_OK' >/dev/null"
rc=$(run enrich)
check "cmd preamble_brace" bash -c "[ $rc = 0 ] && head -n 1 '$W/o' | grep -q '{' && tail -n +2 '$W/o' | jq -e '$ENRICH_OK' >/dev/null"
rc=$(run enrich)
check "cmd fenced" bash -c "[ $rc = 0 ] && head -n 1 '$W/o' | grep -qx '\`\`\`json' && sed '1d;\$d' '$W/o' | jq -e '$ENRICH_OK' >/dev/null"
rc=$(run enrich)
check "cmd truncated: exit 0, an unfinished JSON prefix" bash -c "[ $rc = 0 ] && ! jq -e . '$W/o' >/dev/null 2>&1 && grep -q '^{\"records\"' '$W/o'"
rc=$(run enrich)
check "cmd garbage" bash -c "[ $rc = 0 ] && [ \"\$(cat '$W/o')\" = 'I cannot help with that.' ]"
rc=$(run enrich)
check "cmd empty" bash -c "[ $rc = 0 ] && jq -e '. == {\"records\": []}' '$W/o' >/dev/null"
rc=$(run enrich)
check "cmd change_message" bash -c "[ $rc = 0 ] && jq -e 'all(.records[]; .errorMessage == \"changed\")' '$W/o' >/dev/null"
rc=$(run defend)
check "cmd bad_enum (defend): handlingStrategy sometimes" bash -c "[ $rc = 0 ] && jq -e 'all(.records[]; .handlingStrategy == \"sometimes\") and (.records | length == 2)' '$W/o' >/dev/null"
rc=$(run defend)
check "cmd bad_type (defend): preventionTips a string" bash -c "[ $rc = 0 ] && jq -e 'all(.records[]; .preventionTips | type == \"string\")' '$W/o' >/dev/null"
rc=$(run defend)
check "cmd missing_one (defend)" bash -c "[ $rc = 0 ] && jq -e '[.records[].id] == [\"$A\"] and (.records[0].handlingStrategy == \"validation\")' '$W/o' >/dev/null"
rc=$(run enrich)
check "cmd extra_id" bash -c "[ $rc = 0 ] && jq -e '[.records[].id] == [\"$A\",\"$B\",\"00000000deadbeef\"]' '$W/o' >/dev/null"
rc=$(run enrich)
check "cmd rate_limit: exit 1, rate-limit text on stderr, nothing on stdout" \
	bash -c "[ $rc = 1 ] && grep -qx 'Error: rate limit exceeded, try again later' '$W/e' && [ ! -s '$W/o' ]"
rc=$(run enrich)
check "cmd unavailable: exit 1, 'overloaded' on stderr" bash -c "[ $rc = 1 ] && grep -qi 'overloaded' '$W/e'"
rc=$(run enrich)
check "cmd server_error: exit 1, no rate-limit words" bash -c "[ $rc = 1 ] && [ -s '$W/e' ] && ! grep -Eqi 'rate limit|too many requests|overloaded' '$W/e'"
rc=$(run enrich)
check "cmd fail: exit 2 with a message" bash -c "[ $rc = 2 ] && grep -q 'refused' '$W/e'"
rc=$(run enrich)
check "cmd drop: exit 0, nothing printed" bash -c "[ $rc = 0 ] && [ ! -s '$W/o' ]"
t0=$(date +%s%N)
rc=$(run enrich)
ms=$((($(date +%s%N) - t0) / 1000000))
check "cmd delay:300:good ($ms ms)" bash -c "[ $rc = 0 ] && [ $ms -ge 300 ] && jq -e '$ENRICH_OK' '$W/o' >/dev/null"
rc=$(run enrich --envelope)
check "cmd --envelope: the agent CLI's result envelope around the answer" \
	bash -c "[ $rc = 0 ] && jq -e '.type == \"result\" and .subtype == \"success\" and .is_error == false and (.session_id | length > 0) and .total_cost_usd == 0 and (.usage.input_tokens > 0) and (.usage.output_tokens > 0)' '$W/o' >/dev/null && jq -r .result '$W/o' | jq -e '$ENRICH_OK' >/dev/null"
check "cmd log: envelope true" clog '.envelope == true and .behaviour == "good"'
rc=$(run verify)
check "cmd verify good: {\"records\": []}" bash -c "[ $rc = 0 ] && jq -e '. == {\"records\": []}' '$W/o' >/dev/null"
check "cmd log: one line per call, numbered across calls" \
	bash -c "[ \$(wc -l <'$CD/cmd.log') = 20 ] && [ \"\$(jq -s '[.[].n] == [range(1;21)]' '$CD/cmd.log')\" = true ]"
rc=$(printf 'Phase: enrich\nnothing here\n' | eval "$CMD" 2>"$W/e" >/dev/null; echo $?)
check "cmd: a prompt without record lines exits 3 with the reason" bash -c "[ $rc = 3 ] && grep -q 'no record line' '$W/e'"
check "cmd: ... logged with behaviour null" clog '.behaviour == null and .exit == 3'

# envelope on a truncated answer: the envelope is whole, its result is cut
CD=$W/c2
CMD=$(fake_cmd_line "$CD" '["truncated", "garbage"]')
rc=$(run enrich --envelope)
check "cmd --envelope truncated: whole envelope, cut result" \
	bash -c "[ $rc = 0 ] && jq -e '.type == \"result\"' '$W/o' >/dev/null && ! jq -r .result '$W/o' | jq -e . >/dev/null 2>&1"
rc=$(run enrich --envelope)
check "cmd --envelope garbage" bash -c "[ $rc = 0 ] && [ \"\$(jq -r .result '$W/o')\" = 'I cannot help with that.' ]"

# hang: still running after 1 s
CD=$W/c3
CMD=$(fake_cmd_line "$CD" '"hang"')
prompt enrich | eval "timeout 1 $CMD" >/dev/null 2>&1
check "cmd hang: still running when timeout 1 kills it" [ $? = 124 ]
check "cmd hang: logged before hanging" clog '.behaviour == "hang" and .exit == null'

# hang_child: a child in the same process group; only killing the group ends both
CD=$W/c4
CMD=$(fake_cmd_line "$CD" '"hang_child"')
for mode in group parent; do
	: >"$W/c4/cmd.log"
	prompt enrich | setsid bash -c "exec $CMD" >/dev/null 2>&1 &
	hpid=$!
	for i in $(seq 50); do [ -s "$W/c4/cmd.log" ] && break; sleep 0.1; done
	ppid_=$(jq -r .pid "$W/c4/cmd.log")
	cpid=$(jq -r .child "$W/c4/cmd.log")
	pgid=$(ps -o pgid= -p "$ppid_" | tr -d ' ')
	check "cmd hang_child ($mode): the child runs in the fake's process group" \
		bash -c "[ -n '$pgid' ] && [ \"\$(ps -o pgid= -p '$cpid' | tr -d ' ')\" = '$pgid' ]"
	if [ "$mode" = group ]; then
		kill -TERM -- "-$pgid"
		for i in $(seq 30); do gone "$cpid" && break; sleep 0.1; done
		check "cmd hang_child: killing the process group ends the child" gone "$cpid"
	else
		kill -TERM "$ppid_"
		for i in $(seq 30); do gone "$ppid_" && break; sleep 0.1; done
		check "cmd hang_child: killing only the fake leaves the child running" bash -c "gone $ppid_ && kill -0 $cpid"
		kill -TERM "$cpid" 2>/dev/null
	fi
	wait "$hpid" 2>/dev/null
done

# --no-read: answers without reading stdin
CD=$W/c5
CMD=$(fake_cmd_line "$CD" '"good"' --no-read)
rc=$( (head -c 2000000 /dev/zero | tr '\0' 'x'; prompt enrich) | eval "$CMD" >"$W/o" 2>/dev/null; echo "${PIPESTATUS[1]}")
check "cmd --no-read: exit 0, a refusal, stdin left unread" bash -c "[ '$rc' = 0 ] && [ \"\$(cat '$W/o')\" = 'I cannot help with that.' ]"
check "cmd --no-read: logged" clog '.behaviour == "no_read"'

# concurrency: 12 copies at once consume 12 distinct behaviours
S='["good","preamble","fenced","garbage","empty","change_message","bad_enum","missing_one","extra_id","rate_limit","fail","drop"]'
CD=$W/c6
CMD=$(fake_cmd_line "$CD" "$S")
pids=()
for i in $(seq 12); do (prompt enrich | eval "$CMD" >/dev/null 2>&1) & pids+=($!); done
wait "${pids[@]}"
check "cmd: 12 concurrent copies take behaviours 0..11 once each (flock on --state)" \
	bash -c "[ \"\$(jq -s '[.[].script] | sort == ([range(12)] | map(\"all#\" + tostring) | sort)' '$W/c6/cmd.log')\" = true ] && [ \"\$(jq -s '[.[].n] | sort == [range(1;13)]' '$W/c6/cmd.log')\" = true ]"
check "cmd: ... and the state file counts 12" jqt "$W/c6/cmd-state.json" '.n == 12 and .counters.all == 12'

# phases and by_id, as for the server
CD=$W/c7
CMD=$(fake_cmd_line "$CD" '{"default": "good", "phases": {"defend": ["rate_limit", "good"]}, "by_id": {"'$B'": ["fail", "good"]}}')
rc=$(run defend)
check "cmd by_id first" bash -c "[ $rc = 2 ] && tail -n 1 '$W/c7/cmd.log' | jq -e '.script == \"id:$B#0\"' >/dev/null"
rc=$(prompt_one defend | eval "$CMD" >"$W/o" 2>/dev/null; echo $?)
check "cmd phases.defend" bash -c "[ $rc = 1 ] && tail -n 1 '$W/c7/cmd.log' | jq -e '.script == \"phase:defend#0\"' >/dev/null"
rc=$(prompt_one enrich | eval "$CMD" >"$W/o" 2>/dev/null; echo $?)
check "cmd top-level default" bash -c "[ $rc = 0 ] && jq -e '[.records[].id] == [\"$A\"]' '$W/o' >/dev/null"

# ---- bench/enrich/run.sh, when a faultline binary is given ------------------

if [ -n "${1:-}" ]; then
	bench=$HERE/../../bench/enrich/run.sh
	TMPDIR=$W bash "$bench" "$1" 600 >"$W/bench.out" 2>"$W/bench.err"
	rc=$?
	check "bench (a): the fixtures scanned again under other names up to 600 records" \
		bash -c "grep -Eq '^store: (6[0-9]{2}|[7-9][0-9]{2}|[0-9]{4,}) records from [0-9]+ fixture trees, [2-9] round\(s\); enriching 600$' '$W/bench.out'"
	check "bench (b): the fake provider started" grep -Eq '^provider: http://127\.0\.0\.1:[0-9]+/v1, every call answered after 200 ms$' "$W/bench.out"
	if [ "$rc" = 3 ]; then
		check "bench: no enrich command yet: exit 3 after (a) and (b)" grep -q "has no 'enrich' command yet" "$W/bench.err"
	else
		check "bench (c), (d): the run and its figures ($rc)" \
			bash -c "[ $rc = 0 ] && grep -q '^records:   600 ' '$W/bench.out' && grep -q '^records/s: ' '$W/bench.out'"
	fi
	check "bench: its work folder and provider are gone" bash -c "! ls -d '$W'/fl-bench-enrich-* >/dev/null 2>&1"
fi

echo "fakes: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
