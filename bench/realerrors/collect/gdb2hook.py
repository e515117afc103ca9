#!/usr/bin/env python3
"""Turn the output of gdb-write.gdb (a `break write if $rdi==2 || $rdi==1`
whose commands print the fd, the buffer and `bt`) into the hook JSON Lines
resolve.py reads: {"kind":"write","fd":2,"text":...,"frames":[{file,line,fn}...]}
(a program that prints its error or usage on stdout is resolved from the
fd 1 writes).
A program's own gdb script (the conf's GDB_EXTRA) may also stop where the
program builds an error message into a buffer (curl's Curl_failf, jq's
jv_invalid_with_msg, sqlite's sqlite3ErrorMsg): it prints "@@NEW", the
built text and `bt`, which becomes {"kind":"new","message":...,"frames":...},
read by resolve.py like an exception's construction. A Go program
(gdb-go.gdb) logs `@@NEW` blocks for errors made by errors.New or
fmt.Errorf, whose frames start at the caller of those constructors, and
`@@FORMAT` blocks, a string made by fmt.Sprintf ({"kind":"format",...},
the same shape). With RE_OWN=PREFIX, a frame outside PREFIX (the standard
library, vendored modules) is "<dep>". Consecutive writes from one print
statement (the same program frames but the innermost: curl's own printf
writes a character at a time, Rust's formatter writes each piece of a
format) are joined into one. A Rust program (gdb-rust.py) logs `@@FORMAT`
blocks for each format!(), whose frames start in the standard library
(/rustc/...): those are dropped, so the frames start at the caller.
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
        fd = line.split()[1:2]
        cur = {"kind": "write", "fd": int(fd[0]) if fd else 2, "text": "", "frames": []}
        recs.append(cur)
        continue
    if line.startswith(("@@NEW", "@@FORMAT")):
        cur = {"kind": "new" if line.startswith("@@NEW") else "format", "cls": "", "message": "", "frames": []}
        recs.append(cur)
        continue
    if cur is None:
        continue
    # a char array prints as "..."; a char pointer as 0x5555... "..."
    m = re.match(r'^\$\d+ = (?:0x[0-9a-f]+ )?(".*")', line)
    key = "text" if cur["kind"] == "write" else "message"
    if m and not cur[key]:
        # gdb prints the bytes as a C string, possibly in pieces: "ab" 'c' <repeats 5 times> "d"
        text = ""
        for piece in re.finditer(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\' <repeats (\d+) times>', m.group(1)):
            if piece.group(1) is not None:
                text += ast.literal_eval('"' + piece.group(1) + '"')
            else:
                text += ast.literal_eval("'" + piece.group(2) + "'") * int(piece.group(3))
        cur[key] = text
        continue
    # (a Rust function's name may hold spaces: `Option<&str>::map_or_else<&str, String, ...>`)
    m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(.+?) \(.*\) at (\S+):(\d+)$", line)
    if m:
        # the program is built with absolute file names; libc's are relative
        f = m.group(2) if m.group(2).startswith("/") else "<libc>"
        if own and not f.startswith(own):
            f = "<dep>" + f
        cur["frames"].append({"file": f, "line": int(m.group(3)), "fn": m.group(1)})
        continue
    m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(.+?) \(", line)
    if m:
        cur["frames"].append({"file": "<libc>", "line": 0, "fn": m.group(1)})
seen = set()
kept = []
for r in recs:
    if r["kind"] in ("new", "format"):
        # the constructors' own frames: the raise is their caller
        # (Rust: the standard library's frames of format!(), whose sources
        # are rustc's: /rustc/HASH/library/...)
        # and a crate's that formats for its caller (anyhow!'s format_err
        # in /usr/share/cargo/registry/anyhow-*/): a text a crate makes for
        # itself has no frame of the program holding it (resolve.py)
        while r["frames"] and (r["frames"][0]["fn"] in ("errors.New", "fmt.Errorf", "fmt.Sprintf") or
                               r["frames"][0]["file"].startswith(("/rustc/", "<dep>/rustc/",
                                                                  "<dep>/usr/share/cargo/registry/"))):
            r["frames"].pop(0)
        key = (r["message"], json.dumps(r["frames"]))
        if key in seen:  # fmt.Errorf's own errors.New
            continue
        seen.add(key)
    kept.append(r)


def site(r):
    # the program's frames but the innermost: a printf that writes its
    # output a character at a time (curl's own mprintf on an unbuffered
    # stderr) stops once per character, at varying lines of the formatter
    pf = [(x["file"], x["line"]) for x in r["frames"] if not x["file"].startswith(("<libc>", "<dep>"))]
    return pf[1:]


# consecutive writes made by one print statement are one text
merged = []
for r in kept:
    p = merged[-1] if merged else None
    if (p is not None and r["kind"] == "write" and p["kind"] == "write"
            and r["fd"] == p["fd"] and site(r) and site(r) == site(p)):
        p["text"] += r["text"]
        continue
    merged.append(r)
for r in merged:
    print(json.dumps(r))
