# shellcheck shell=bash
# fakes.sh — shell helpers to start and stop the fake providers
# (fake_openai.py, fake_cmd.py) from a test or a benchmark; sourced, not run.
#
#   fake_openai_start DIR SCRIPT_JSON [fake_openai.py options...]
#       writes SCRIPT_JSON to DIR/script.json, starts the server with its log
#       in DIR/openai.log, waits (at most 10 s) for its port; sets FAKE_PID,
#       FAKE_PORT and FAKE_URL (http://127.0.0.1:PORT/v1).  Returns 1 (with
#       the server's stderr on stderr) when it did not come up.
#   fake_openai_stop
#       ends the server started last (by its pid) and waits for it.
#   fake_cmd_line DIR SCRIPT_JSON [fake_cmd.py options...]
#       writes SCRIPT_JSON to DIR/cmd-script.json, resets DIR/cmd-state.json
#       and prints the command line (for --command / a config's command);
#       its log is DIR/cmd.log.
#   fake_calls LOG [jq filter on one line]
#       the number of logged calls (matching the filter, e.g.
#       'select(.phase == "defend")').

FAKES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

fake_openai_start() {
	local dir=$1 script=$2
	shift 2
	mkdir -p "$dir"
	printf '%s\n' "$script" >"$dir/script.json"
	rm -f "$dir/port"
	: >"$dir/openai.log"
	python3 "$FAKES_DIR/fake_openai.py" --port-file "$dir/port" --script "$dir/script.json" \
		--log "$dir/openai.log" "$@" 2>"$dir/openai.err" &
	FAKE_PID=$!
	for _ in $(seq 100); do
		[ -s "$dir/port" ] && break
		kill -0 "$FAKE_PID" 2>/dev/null || break
		sleep 0.1
	done
	if [ ! -s "$dir/port" ]; then
		cat "$dir/openai.err" >&2
		return 1
	fi
	FAKE_PORT=$(cat "$dir/port")
	# shellcheck disable=SC2034  # for the caller
	FAKE_URL="http://127.0.0.1:$FAKE_PORT/v1"
}

fake_openai_stop() {
	[ -n "${FAKE_PID:-}" ] || return 0
	kill "$FAKE_PID" 2>/dev/null || true
	wait "$FAKE_PID" 2>/dev/null || true
	FAKE_PID=
}

fake_cmd_line() {
	local dir=$1 script=$2
	shift 2
	mkdir -p "$dir"
	printf '%s\n' "$script" >"$dir/cmd-script.json"
	rm -f "$dir/cmd-state.json"
	: >"$dir/cmd.log"
	printf 'python3 %q --script %q --state %q --log %q' "$FAKES_DIR/fake_cmd.py" \
		"$dir/cmd-script.json" "$dir/cmd-state.json" "$dir/cmd.log"
	[ $# -gt 0 ] && printf ' %q' "$@"
	printf '\n'
}

fake_calls() {
	local log=$1 filter=${2:-.}
	jq -c "$filter" "$log" | wc -l
}
