#!/usr/bin/env python3
"""Turn the output of gdb-write.gdb (a `break write if $rdi==2` whose
commands print the buffer and `bt`) into the hook JSON Lines resolve.py
reads: {"kind":"write","fd":2,"text":...,"frames":[{file,line,fn}...]}.
usage: gdb2hook.py < gdb.out > hook.jsonl"""
import ast
import json
import re
import sys

recs = []
cur = None
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("@@WRITE"):
        cur = {"kind": "write", "fd": 2, "text": "", "frames": []}
        recs.append(cur)
        continue
    if cur is None:
        continue
    m = re.match(r'^\$\d+ = (".*")', line)
    if m and not cur["text"]:
        # gdb prints the bytes as a C string, possibly in pieces: "ab" 'c' <repeats 5 times> "d"
        text = ""
        for piece in re.finditer(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\' <repeats (\d+) times>', m.group(1)):
            if piece.group(1) is not None:
                text += ast.literal_eval('"' + piece.group(1) + '"')
            else:
                text += ast.literal_eval("'" + piece.group(2) + "'") * int(piece.group(3))
        cur["text"] = text
        continue
    m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(.*\) at (\S+):(\d+)$", line)
    if m:
        # the program is built with absolute file names; libc's are relative
        f = m.group(2) if m.group(2).startswith("/") else "<libc>"
        cur["frames"].append({"file": f, "line": int(m.group(3)), "fn": m.group(1)})
        continue
    m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(", line)
    if m:
        cur["frames"].append({"file": "<libc>", "line": 0, "fn": m.group(1)})
for r in recs:
    print(json.dumps(r))
