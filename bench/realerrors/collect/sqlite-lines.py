#!/usr/bin/env python3
"""Make gdb name the repository's files and lines in sqlite's generated C
(the amalgamation sqlite3.c made with --linemacros=1, the shell.c of
tool/mkshellc.tcl with its #line lines enabled): each #line's file name
(tsrc/X, parse.y, fts5_*.c) becomes the absolute path of the repository's
file in the build copy (src/X, ext/*/X), or a path outside the copy for a
generated file (parse.c, opcodes.c, fts5.c...); and since a #line inside a
block the preprocessor skips (#ifdef SQLITE_ENABLE_ICU around an inlined
header) is ignored, the position is restated after every conditional.
usage: sqlite-lines.py BUILD_DIR FILE.c...     (rewrites each FILE in place)"""
import os
import re
import sys

B = os.path.abspath(sys.argv[1])
idx = {}
for root, dirs, files in os.walk(B):
    rel = os.path.relpath(root, B)
    if rel != "." and rel.split(os.sep)[0] in ("src", "ext"):
        for f in files:
            idx.setdefault(f, []).append(os.path.join(root, f))


def target(name):
    if name.startswith(B + "/"):
        return name
    c = idx.get(os.path.basename(name), [])
    return c[0] if len(c) == 1 else B + "-gen/" + os.path.basename(name)


LINE = re.compile(r'^#line (\d+) "([^"]+)"')
COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|else|elif|endif)\b")
for path in sys.argv[2:]:
    out = []
    f, n = None, None
    pending = False
    with open(path, encoding="latin-1") as fh:
        for ln in fh:
            m = LINE.match(ln)
            if m:
                f, n = target(m.group(2)), int(m.group(1))
                out.append('#line %d "%s"\n' % (n, f))
                continue
            out.append(ln)
            if n is not None:
                n += 1
            if COND.match(ln):
                pending = True
            if pending and not ln.rstrip("\n").endswith("\\"):
                pending = False
                if f is not None:
                    out.append('#line %d "%s"\n' % (n, f))
    with open(path, "w", encoding="latin-1") as fh:
        fh.writelines(out)
