# gdb Python script, exa.conf's GDB_EXTRA (beside gdb-write.gdb): loads
# gdb-rust.py unchanged and gives the program the COLUMNS and LINES of the
# command, as the plain run has them.  gdb's readline exports its own
# terminal size as COLUMNS and LINES into the environment the inferior
# inherits (80 and 24 under -batch), which would hide a user's
# `COLUMNS=abc exa` (exa parses COLUMNS) and turn on exa's colours (a set
# width means a terminal to exa).  The values gdb itself was started with
# are read from /proc/self/environ (the environment at exec, which setenv
# does not change): a set one is passed on, an absent one unset.
import os

import gdb

here = os.path.dirname(os.path.abspath(__file__))
gdb.execute("source %s" % os.path.join(here, "gdb-rust.py"))

with open("/proc/self/environ", "rb") as f:
    start = dict(e.split(b"=", 1) for e in f.read().split(b"\0") if b"=" in e)
for name in ("COLUMNS", "LINES"):
    v = start.get(name.encode())
    if v is None:
        gdb.execute("unset environment %s" % name)
    else:
        gdb.execute("set environment %s=%s" % (name, v.decode("utf-8", "surrogateescape")))
