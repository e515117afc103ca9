#!/usr/bin/env python3
"""A server that accepts connections and never answers (batch's timeout
test): listens on 127.0.0.1, on --port or one the kernel picks, written to
--port-file; holds every connection open until it is killed."""
import argparse
import socket
import threading
import time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, default=0)
ap.add_argument("--port-file", required=True)
a = ap.parse_args()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", a.port))
s.listen(16)
with open(a.port_file + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
import os
os.rename(a.port_file + ".tmp", a.port_file)
held = []


def hold(c):
    held.append(c)
    while True:
        time.sleep(3600)


while True:
    c, _ = s.accept()
    threading.Thread(target=hold, args=(c,), daemon=True).start()
