#!/usr/bin/env python3
# The loopback servers httpie's cases talk to (httpie.conf starts them):
# HTTP on 127.0.0.1:18961 and the same answers over TLS with a self-signed
# certificate (/tmp/re/work-httpie/cert.pem) on 127.0.0.1:18962.
# Paths: /get (200 JSON), /missing (404), /boom (500), /moved (302 to
# /get), /loop (302 to itself), /slow (answers after 5 s), /file.bin (a
# 64-byte body; a Range request gets 206 with the right Content-Range),
# /norange, /badrange, /wrongrange (206 without, with a malformed, with
# another range's Content-Range).
# usage: httpie-server.py start|stop   (pid in /tmp/re/work-httpie/server.pid)
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

W = "/tmp/re/work-httpie"
PID = W + "/server.pid"
BODY = bytes(range(64))


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        p = self.path.split("?")[0]
        if self.headers.get("Content-Length"):
            self.rfile.read(int(self.headers["Content-Length"]))
        if p == "/missing":
            self.send(404, b'{"error": "not found"}\n', [("Content-Type", "application/json")])
        elif p == "/boom":
            self.send(500, b'{"error": "boom"}\n', [("Content-Type", "application/json")])
        elif p == "/moved":
            self.send(302, b"", [("Location", "/get")])
        elif p == "/loop":
            self.send(302, b"", [("Location", "/loop")])
        elif p == "/slow":
            time.sleep(5)
            self.send(200, b'{"slow": true}\n', [("Content-Type", "application/json")])
        elif p in ("/file.bin", "/norange", "/badrange", "/wrongrange"):
            rng = self.headers.get("Range")
            h = [("Content-Type", "application/octet-stream")]
            if not rng:
                self.send(200, BODY, h)
                return
            first = int(rng.split("=")[1].split("-")[0])
            part = BODY[first:]
            if p == "/file.bin":
                h.append(("Content-Range", "bytes %d-%d/%d" % (first, len(BODY) - 1, len(BODY))))
            elif p == "/badrange":
                h.append(("Content-Range", "bytes=%d-" % first))
            elif p == "/wrongrange":
                h.append(("Content-Range", "bytes 0-%d/%d" % (len(BODY) - 1, len(BODY))))
                part = BODY
            self.send(206, part, h)
        else:
            self.send(200, b'{"ok": true}\n', [("Content-Type", "application/json")])

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_GET


def serve():
    a = ThreadingHTTPServer(("127.0.0.1", 18961), H)
    b = ThreadingHTTPServer(("127.0.0.1", 18962), H)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(W + "/cert.pem", W + "/key.pem")
    b.socket = ctx.wrap_socket(b.socket, server_side=True)
    for s in (a, b):
        s.daemon_threads = True
        threading.Thread(target=s.serve_forever, daemon=True).start()
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    if sys.argv[1:] == ["stop"]:
        try:
            os.kill(int(open(PID).read()), 15)
            os.unlink(PID)
        except (OSError, ValueError):
            pass
    else:
        try:
            os.kill(int(open(PID).read()), 0)
            sys.exit(0)  # already running
        except (OSError, ValueError):
            pass
        if os.fork() == 0:
            os.setsid()
            fd = os.open(os.devnull, os.O_RDWR)
            for i in (0, 1, 2):
                os.dup2(fd, i)
            with open(PID, "w") as f:
                f.write(str(os.getpid()))
            serve()
        else:
            time.sleep(1)
