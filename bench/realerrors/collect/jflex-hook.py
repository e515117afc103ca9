#!/usr/bin/env python3
"""Keep, of the blocks jflex-hook.java wrote (TRACE: one "CLASS: TEXT" line
and its "\tat" lines per printed message line or recorded ScannerException/
MacroException), those whose text the run as typed printed (OUT and ERR),
and print them for javastack2hook.py (jflex.conf's wrapper appends them to
the hooked run's stdout). Left out: Out.error/warning's header line
("Error in file "F" (line N): ", its text follows on the next line) and
the spec line and caret Out.showPosition echoes. Frames of the generated
jflex/LexScan.java and jflex/LexParse.java get the line of LexScan.flex /
LexParse.cup that MAP (jflex-map.py) gives; an unmapped one is renamed
(LexScanGen.java), so it is no program frame, and an exception built
there is left out (the print, Main.java's Out.error, is the line).
usage: jflex-hook.py MAP TRACE OUT ERR"""
import json
import re
import sys

mapf, trace, out, err = sys.argv[1:5]
gmap = json.load(open(mapf))
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
header = re.compile(r'^(Error|Warning)( in file ".*")?( \(line \d+\))?: ?$')


def fix(l):
    m = re.match(r"^(\tat [\w$.]+\.[\w$<>]+\()(LexScan|LexParse)\.java:(\d+)\)$", l)
    if not m:
        return l
    n = gmap[m.group(2) + ".java"].get(m.group(3))
    return "%s%s.java:%s)" % (m.group(1), m.group(2), n) if n else "%s%sGen.java:%s)" % (m.group(1), m.group(2), m.group(3))


keep = []
for b in blocks:
    msg = b[0].split(": ", 1)[1] if ": " in b[0] else ""
    if not msg.strip() or msg.strip() not in printed or header.match(msg.strip()):
        continue
    if any("jflex.Out.showPosition(" in x for x in b[1:]):
        continue
    b = [b[0]] + [fix(x) for x in b[1:]]
    # an exception built in a generated line that maps to no source line
    # (a merged action): no program frame holds it, the print decides
    own = [x for x in b[1:] if not re.match(r"\tat jflex\.(Scanner|Macro)Exception\.", x)]
    if not b[0].startswith("jflex.RePrint:") and own and "Gen.java:" in own[0]:
        continue
    keep.append((msg.strip(), b))
# the texts of the recorded exceptions kept: their print (Main.java's
# Out.error(e...)) is only the reporter, the exception's line decides
thrown = set(m for m, b in keep if not b[0].startswith("jflex.RePrint:"))
seen = set()
for m, b in keep:
    if b[0].startswith("jflex.RePrint:") and m in thrown:
        continue
    if tuple(b) not in seen:
        seen.add(tuple(b))
        print("\n".join(b))
