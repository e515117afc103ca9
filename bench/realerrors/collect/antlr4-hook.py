#!/usr/bin/env python3
"""Keep, of the stacks antlr4-hook.java wrote (TRACE: one "CLASS: TEXT" line
and its "\tat" lines per message antlr's Tool reported), those whose text
the run as typed printed (OUT and ERR: its stdout and stderr), and print
them for javastack2hook.py (antlr4.conf's wrapper appends them to the
hooked run's stdout).
usage: antlr4-hook.py TRACE OUT ERR"""
import sys

trace, out, err = sys.argv[1:4]
printed = ""
for p in (out, err):
    try:
        printed += open(p, encoding="utf-8", errors="replace").read()
    except OSError:
        pass
try:
    lines = open(trace, encoding="utf-8", errors="replace").read().splitlines()
except OSError:
    lines = []
blocks = []
for l in lines:
    if l.startswith("\tat "):
        if blocks:
            blocks[-1].append(l)
    else:
        blocks.append([l])
seen = set()
for b in blocks:
    msg = b[0].split(": ", 1)[1] if ": " in b[0] else ""
    if msg.strip() and msg.strip() in printed and tuple(b) not in seen:
        seen.add(tuple(b))
        print("\n".join(b))
