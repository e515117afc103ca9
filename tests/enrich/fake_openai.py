#!/usr/bin/env python3
"""fake_openai.py — a fake OpenAI-compatible provider for faultline's
enrich tests: POST /v1/chat/completions answered, per a test's script, in
OpenAI's published chat.completion and error shapes; GET /v1/models.
Standard library only.  Script and behaviours: fakelib.py.

usage: fake_openai.py --port-file FILE --script FILE [--log FILE]
                      [--delay MS] [--require-key KEY] [--dump DIR]

Listens on 127.0.0.1 with a port the kernel picks and writes that port to
--port-file (atomically, once it listens).  Each call is one line of
--log (JSON): time, n (call number from 1), path, phase, ids, model, auth
(the Authorization header's value or null), response_format (present or
not), response_format_type, behaviour, status (the HTTP status it is
given; 0 for hang and drop).  --delay MS delays every answer that has no
delay_ms of its own.  --require-key KEY answers 401 unless the request
carries "Authorization: Bearer KEY".  --dump DIR writes each prompt to
DIR/NNNN.txt (NNNN = n).

Behaviours over HTTP: good, preamble, preamble_brace, fenced, garbage,
empty, change_message, bad_enum, bad_type, missing_one, extra_id: 200
with the content as the answer text; truncated: 200, content cut,
finish_reason "length"; rate_limit: 429 with Retry-After and OpenAI's
rate-limit error; unavailable: 503; server_error: 500; fail: 400
invalid_request_error; hang: no answer for an hour; drop: the connection
closed without an answer.  Requests the fake cannot read (no JSON, no
model, no user message, a prompt without Phase: or record lines) get 400
with the reason in error.message, and are logged with behaviour null.
"""

import argparse
import json
import os
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakelib  # noqa: E402


class State:
    def __init__(self, args):
        self.script = fakelib.Script.load(args.script)
        self.log = fakelib.Log(args.log)
        self.delay_ms = args.delay
        self.require_key = args.require_key
        self.dump = args.dump
        self.lock = threading.Lock()
        self.counters = {}
        self.n = 0

    def next_n(self):
        with self.lock:
            self.n += 1
            return self.n

    def pick(self, phase, ids):
        with self.lock:
            return self.script.pick(self.counters, phase, ids)


def openai_error(message, etype, code=None, param=None):
    return {"error": {"message": message, "type": etype, "param": param, "code": code}}


def user_prompt(req):
    """The text of the last user message (string content or text parts)."""
    msgs = req.get("messages")
    if not isinstance(msgs, list) or not msgs:
        raise ValueError("'messages' must be a non-empty array")
    for m in reversed(msgs):
        if isinstance(m, dict) and m.get("role") == "user":
            c = m.get("content")
            if isinstance(c, str):
                return c
            if isinstance(c, list):
                return "".join(p.get("text", "") for p in c
                               if isinstance(p, dict) and p.get("type") == "text")
            raise ValueError("the user message has no content")
    raise ValueError("no message with role 'user'")


def check_response_format(rf):
    """None when rf is a valid response_format, else the reason."""
    if not isinstance(rf, dict) or rf.get("type") not in ("text", "json_object", "json_schema"):
        return "response_format.type must be one of text, json_object, json_schema"
    if rf["type"] == "json_schema":
        js = rf.get("json_schema")
        if not isinstance(js, dict) or not isinstance(js.get("name"), str) or not js["name"]:
            return "response_format.json_schema.name is required"
        if "schema" in js and not isinstance(js["schema"], dict):
            return "response_format.json_schema.schema must be an object"
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-openai/1"
    st = None  # State, set in main

    def log_message(self, fmt, *args):  # quiet: the --log file says what happened
        pass

    def send_json(self, status, obj, headers=()):
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n > 0 else b""

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [
                {"id": "fake", "object": "model", "created": 1700000000, "owned_by": "faultline-tests"}]})
        else:
            self.send_json(404, openai_error("Unknown request URL: GET %s." % path, "invalid_request_error",
                                             "unknown_url"))

    def do_POST(self):
        st = self.st
        path = self.path.split("?")[0]
        body = self.read_body()
        n = st.next_n()
        entry = {"n": n, "path": path, "phase": None, "ids": [], "model": None,
                 "auth": self.headers.get("Authorization"), "response_format": False,
                 "response_format_type": None, "behaviour": None}

        def refuse(status, err):
            entry["status"] = status
            entry["error"] = err["error"]["message"]
            st.log.write(entry)
            self.send_json(status, err)

        if path != "/v1/chat/completions":
            return refuse(404, openai_error("Unknown request URL: POST %s." % path, "invalid_request_error",
                                            "unknown_url"))
        if st.require_key is not None and entry["auth"] != "Bearer " + st.require_key:
            return refuse(401, openai_error("Incorrect API key provided.", "invalid_request_error",
                                            "invalid_api_key"))
        try:
            req = json.loads(body.decode("utf-8"))
            if not isinstance(req, dict):
                raise ValueError("the body is not a JSON object")
        except ValueError as e:
            return refuse(400, openai_error("We could not parse the JSON body of your request: %s" % e,
                                            "invalid_request_error"))
        entry["model"] = req.get("model")
        if "response_format" in req:
            entry["response_format"] = True
            rf = req["response_format"]
            entry["response_format_type"] = rf.get("type") if isinstance(rf, dict) else None
            why = check_response_format(rf)
            if why:
                return refuse(400, openai_error("Invalid parameter: " + why, "invalid_request_error",
                                                None, "response_format"))
        if not isinstance(req.get("model"), str) or not req["model"]:
            return refuse(400, openai_error("you must provide a model parameter", "invalid_request_error"))
        try:
            prompt = user_prompt(req)
            if st.dump:
                with open(os.path.join(st.dump, "%04d.txt" % n), "w", encoding="utf-8") as f:
                    f.write(prompt)
            phase, records = fakelib.parse_prompt(prompt)
        except (ValueError, fakelib.PromptError) as e:
            return refuse(400, openai_error("fake: %s" % e, "invalid_request_error"))
        ids = [r["id"] for r in records]
        entry["phase"], entry["ids"] = phase, ids
        key, k, b = st.pick(phase, ids)
        entry["behaviour"], entry["script"] = b["do"], "%s#%d" % (key, k)
        name = b["do"]
        status = {"rate_limit": 429, "unavailable": 503, "server_error": 500, "fail": 400,
                  "hang": 0, "drop": 0, "hang_child": 0}.get(name, 200)
        entry["status"] = status
        st.log.write(entry)

        delay = b.get("delay_ms", st.delay_ms)
        if delay:
            time.sleep(delay / 1000.0)
        if name in ("hang", "hang_child"):
            time.sleep(3600)
            return
        if name == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if name == "rate_limit":
            return self.send_json(429, openai_error(
                "Rate limit reached", "requests", "rate_limit_exceeded"),
                [("Retry-After", str(b.get("retry_after", 1))),
                 ("x-ratelimit-remaining-requests", "0")])
        if name == "unavailable":
            return self.send_json(503, openai_error(
                "The engine is currently overloaded, please try again later.", "server_error"))
        if name == "server_error":
            return self.send_json(500, openai_error(
                "The server had an error while processing your request. Sorry about that!", "server_error"))
        if name == "fail":
            return self.send_json(400, openai_error(
                "This model's maximum context length was exceeded.", "invalid_request_error",
                "context_length_exceeded", "messages"))

        content = fakelib.answer_text(phase, records, b)
        pt, ct = fakelib.tokens(prompt), fakelib.tokens(content)
        self.send_json(200, {
            "id": "chatcmpl-" + uuid.uuid4().hex[:24],
            "object": "chat.completion",
            "created": int(time.time()),
            "model": req["model"],
            "system_fingerprint": "fp_fake",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": "length" if name == "truncated" else "stop",
            }],
            "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
        })


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # a client that gave up (its timeout) while the answer was delayed
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description="fake OpenAI-compatible provider for faultline's tests")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("--log")
    ap.add_argument("--delay", type=int, default=0, metavar="MS")
    ap.add_argument("--require-key")
    ap.add_argument("--dump", metavar="DIR")
    args = ap.parse_args()
    try:
        Handler.st = State(args)
    except (OSError, fakelib.ScriptError) as e:
        print("fake_openai: %s" % e, file=sys.stderr)
        return 2
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    srv = Server(("127.0.0.1", 0), Handler)
    tmp = args.port_file + ".tmp%d" % os.getpid()
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.replace(tmp, args.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
