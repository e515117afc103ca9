#!/usr/bin/env python3
"""Turn the output of gdb-write.gdb (a `break write if $rdi==2` whose
commands print the buffer and `bt`) into the hook JSON Lines resolve.py
reads: {"kind":"write","fd":2,"text":...,"frames":[{file,line,fn}...]}.
A Go program (gdb-go.gdb) also logs `@@NEW` blocks, an error made by
errors.New or fmt.Errorf: {"kind":"new","message":...,"frames":...}, whose
frames start at the caller of those constructors, and `@@FORMAT` blocks,
a string made by fmt.Sprintf ({"kind":"format",...}, the same shape). With RE_OWN=PREFIX, a
frame outside PREFIX (the standard library, vendored modules) is "<dep>".
usage: gdb2hook.py < gdb.out > hook.jsonl"""
import ast
import json
import re
import os
import sys

own = os.environ.get("RE_OWN")
recs = []
cur = None
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("@@WRITE"):
        cur = {"kind": "write", "fd": 2, "text": "", "frames": []}
        recs.append(cur)
        continue
    if line.startswith(("@@NEW", "@@FORMAT")):
        cur = {"kind": "new" if line.startswith("@@NEW") else "format", "message": "", "text": "", "frames": []}
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
        if own and not f.startswith(own):
            f = "<dep>" + f
        cur["frames"].append({"file": f, "line": int(m.group(3)), "fn": m.group(1)})
        continue
    m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(", line)
    if m:
        cur["frames"].append({"file": "<libc>", "line": 0, "fn": m.group(1)})
seen = set()
for r in recs:
    if r["kind"] in ("new", "format"):
        # the constructors' own frames: the raise is their caller
        while r["frames"] and r["frames"][0]["fn"] in ("errors.New", "fmt.Errorf", "fmt.Sprintf"):
            r["frames"].pop(0)
        r["message"] = r.pop("text")
        key = (r["message"], json.dumps(r["frames"]))
        if key in seen:  # fmt.Errorf's own errors.New
            continue
        seen.add(key)
    print(json.dumps(r))
