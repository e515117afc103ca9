#!/usr/bin/env python3
"""fake_cmd.py — a fake command provider for faultline's enrich tests: the
prompt on standard input, the answer on standard output, per a test's
script (fakelib.py).  Standard library only.

usage: fake_cmd.py --script FILE --state FILE [--log FILE] [--envelope]
                   [--dump DIR] [--no-read]

Several copies run at once (--jobs): the counters of the script's
sequences live in --state (JSON), read and written under an flock, so
each call consumes exactly one behaviour.  Each call is one line of
--log (JSON): time, n (call number from 1, across all copies), pid,
phase, ids, behaviour, exit (the status it exits with; null for hang),
envelope.  --dump DIR writes each prompt to DIR/NNNN.txt.

Behaviours: good, preamble, preamble_brace, fenced, truncated, garbage,
empty, change_message, bad_enum, bad_type, missing_one, extra_id: the
text on stdout, exit 0 (with --envelope, inside the JSON envelope agent
CLIs print with --output-format json: {"type":"result", ..., "result":
TEXT, "usage": {"input_tokens", "output_tokens"}, ...});
rate_limit: "Error: rate limit exceeded, try again later" on stderr,
exit 1; unavailable: "Error: 529 overloaded_error: Overloaded" on
stderr, exit 1; server_error: "Error: internal server error" on stderr,
exit 1; fail: "fake_cmd: the model refused the request" on stderr, exit 2;
hang: sleeps an hour; hang_child: starts `sleep 3600` (its pid in the log
as "child") and waits for it, so that only killing the process group
ends the call; drop: exits 0 with nothing printed.

--no-read: exits 0 at once printing "I cannot help with that." without
reading standard input (the writer then meets a closed pipe); logged
with behaviour "no_read".  A prompt without Phase: or record lines:
exit 3 with the reason on stderr, logged with behaviour null.
"""

import argparse
import fcntl
import json
import os
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakelib  # noqa: E402


def consume(state_path, script, phase, ids):
    """(n, counter key, index, behaviour): one behaviour taken under the
    state file's lock."""
    fd = os.open(state_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        raw = b""
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            raw += chunk
        state = json.loads(raw.decode("utf-8")) if raw.strip() else {}
        counters = state.get("counters", {})
        n = state.get("n", 0) + 1
        if script is None:
            key, k, b = None, None, None
        else:
            key, k, b = script.pick(counters, phase, ids)
        data = json.dumps({"n": n, "counters": counters}).encode("utf-8")
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, data)
        return n, key, k, b
    finally:
        os.close(fd)


def envelope(text, prompt, is_error=False):
    return json.dumps({
        "type": "result",
        "subtype": "success",
        "is_error": is_error,
        "duration_ms": 12,
        "duration_api_ms": 10,
        "num_turns": 1,
        "result": text,
        "session_id": str(uuid.uuid4()),
        "total_cost_usd": 0.0,
        "usage": {"input_tokens": fakelib.tokens(prompt), "output_tokens": fakelib.tokens(text),
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }, ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser(description="fake command provider for faultline's tests")
    ap.add_argument("--script", required=True)
    ap.add_argument("--state", required=True)
    ap.add_argument("--log")
    ap.add_argument("--envelope", action="store_true")
    ap.add_argument("--dump", metavar="DIR")
    ap.add_argument("--no-read", action="store_true")
    args = ap.parse_args()
    log = fakelib.Log(args.log)
    try:
        script = fakelib.Script.load(args.script)
    except (OSError, fakelib.ScriptError) as e:
        print("fake_cmd: %s" % e, file=sys.stderr)
        return 2
    entry = {"pid": os.getpid(), "phase": None, "ids": [], "behaviour": None,
             "envelope": args.envelope}

    if args.no_read:
        n, _, _, _ = consume(args.state, None, None, [])
        entry.update(n=n, behaviour="no_read", exit=0)
        log.write(entry)
        sys.stdout.write("I cannot help with that.\n")
        return 0

    prompt = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    try:
        phase, records = fakelib.parse_prompt(prompt)
    except fakelib.PromptError as e:
        n, _, _, _ = consume(args.state, None, None, [])
        entry.update(n=n, exit=3, error=str(e))
        log.write(entry)
        print("fake_cmd: %s" % e, file=sys.stderr)
        return 3
    ids = [r["id"] for r in records]
    n, key, k, b = consume(args.state, script, phase, ids)
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        with open(os.path.join(args.dump, "%04d.txt" % n), "w", encoding="utf-8") as f:
            f.write(prompt)
    name = b["do"]
    code = {"rate_limit": 1, "unavailable": 1, "server_error": 1, "fail": 2,
            "hang": None, "hang_child": None}.get(name, 0)
    entry.update(n=n, phase=phase, ids=ids, behaviour=name, script="%s#%d" % (key, k), exit=code)

    if name == "hang_child":
        child = subprocess.Popen(["sleep", "3600"])
        entry["child"] = child.pid
        log.write(entry)
        child.wait()
        return 1
    log.write(entry)
    if b.get("delay_ms"):
        time.sleep(b["delay_ms"] / 1000.0)
    if name == "hang":
        time.sleep(3600)
        return 1
    if name == "rate_limit":
        print("Error: rate limit exceeded, try again later", file=sys.stderr)
        return 1
    if name == "unavailable":
        print("Error: 529 overloaded_error: Overloaded", file=sys.stderr)
        return 1
    if name == "server_error":
        print("Error: internal server error", file=sys.stderr)
        return 1
    if name == "fail":
        print("fake_cmd: the model refused the request", file=sys.stderr)
        return 2
    if name == "drop":
        return 0
    text = fakelib.answer_text(phase, records, b)
    out = envelope(text, prompt) if args.envelope else text
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
