#!/usr/bin/env python3
"""Keep, of the blocks javacc-hook.java wrote (TRACE: one "javacc.RePrint: LINE"
line and its "\tat" lines per printed line), those of the lines the run
printed (OUT and ERR: its stdout and stderr) that are messages, and print
them for javastack2hook.py (javacc.conf's wrapper appends them to the
hooked run's stdout). javacc's fixed chatter is left out: the banner
("Java Compiler Compiler Version ..."), "(type ... with no arguments for
help)", "Reading from file ...", "File ... does not exist.  Will create
one.", "Parser generated ...", "Annotated grammar generated ...", "Detected
N errors and M warnings." and the like: resolve.py prefers the longest
printed line, and those are printed on every run. So is every indented line: the continuation of a
message printed over several lines (a choice conflict's "A common prefix
is: ...", a ParseException's "Was expecting one of:" list, the "\tat"
lines of a printed trace), whose first line is the message.
usage: javacc-hook.py TRACE OUT ERR"""
import re
import sys

trace, out, err = sys.argv[1:4]
printed = ""
for p in (out, err):
    try:
        printed += open(p, encoding="utf-8", errors="replace").read()
    except OSError:
        pass
chatter = re.compile(
    r"^(Java Compiler Compiler Version |Java Compiler Compiler Version \S+ \(Tree Builder\)"
    r"|Java Compiler Compiler Version \S+ \(Documentation Generator\)"
    r"|\(type \"\w+\" with no arguments for help\)|Reading from file |File \".*\" does not exist\.  Will create one\."
    r"|Parser generated |Annotated grammar generated |Grammar documentation generated "
    r"|Detected \d+ errors and \d+ warnings\.)")
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
    if msg.strip() and not msg[:1].isspace() and msg.strip() in printed and not chatter.match(msg.strip()) and tuple(b) not in seen:
        seen.add(tuple(b))
        print("\n".join(b))
