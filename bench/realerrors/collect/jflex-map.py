#!/usr/bin/env python3
"""Map the lines of the generated jflex/LexScan.java and jflex/LexParse.java
(JFlex and CUP output, not repository files) to the lines of their sources
jflex/src/main/jflex/LexScan.flex and jflex/src/main/cup/LexParse.cup at the
tag. A generated line maps to the one source line whose text (stripped,
8+ characters) holds it, or of several, the one next to its neighbours' (a statement
over several lines); a line still ambiguous (JFlex merges rules with the
same action into one case) maps to none. Debian's inputstreamctor.patch
removes LexScan.flex's lines 45-46: a patched line >= 45 is the tag's +2.
usage: jflex-map.py GENDIR PATCHED_SRC_MAIN > map.json"""
import json
import sys

gen, src = sys.argv[1:3]
out = {}
for g, s, shift in (("LexScan.java", "jflex/LexScan.flex", lambda n: n + 2 if n >= 45 else n),
                    ("LexParse.java", "cup/LexParse.cup", lambda n: n)):
    gl = open(f"{gen}/{g}", encoding="utf-8").read().split("\n")
    sl = [x.strip() for x in open(f"{src}/{s}", encoding="utf-8").read().split("\n")]
    m = {}
    amb = {}
    for i, t in enumerate(gl, 1):
        t = t.strip()
        if t.startswith("{ "):
            t = t[2:].strip()
        if len(t) < 8 or not any(c.isalpha() for c in t):
            continue
        c = [j for j, x in enumerate(sl, 1) if t in x]
        if len(c) == 1:
            m[i] = c[0]
        elif c:
            amb[i] = c
    # a line several source lines hold: the one right after the source line
    # of the generated line before it, or right before that of the line
    # after it (a statement over several lines)
    for _ in range(3):
        for i, c in list(amb.items()):
            near = [j for j in c if (i - 1 in m and 0 < j - m[i - 1] <= 2) or (i + 1 in m and 0 < m[i + 1] - j <= 2)]
            if len(near) == 1:
                m[i] = near[0]
                del amb[i]
    out[g] = {i: shift(j) for i, j in m.items()}
json.dump(out, sys.stdout)
