#!/usr/bin/env python3
"""Turn the stack traces `mvn -e` prints (or the JVM's own, for an exception
main() let through: `Exception in thread "main" CLASS: MESSAGE`) into the
hook JSON Lines resolve.py reads: one
{"kind":"raise","cls","message","frames":[{file,line,fn}]} per exception,
inner causes first. A frame's class is found in SRCDIR by its
package and file name (src/main/java/<package>/<File>.java, or
<root>/<package>/<File>.java for each folder of JAVA_ROOTS); other frames
(the JDK's, plexus's, the resolver's) keep their bare file name.
usage: javastack2hook.py SRCDIR < mvn-e-output > hook.jsonl"""
import json
import os
import re
import sys

src = sys.argv[1]
index = {}
# JAVA_ROOTS (the conf exports it): the folders whose subfolders are the
# packages, when they are not */src/main/java (guava's guava/src), e.g. the
# installed form of the source a distribution patched, whose lines the
# jar's line tables give
roots = os.environ.get("JAVA_ROOTS", "").split()
for top in roots or [src]:
    for root, _, files in os.walk(top):
        if not roots and "/src/main/java" not in root:
            continue
        for f in files:
            if f.endswith(".java"):
                p = os.path.join(root, f)
                key = os.path.relpath(p, top) if roots else p.split("/src/main/java/", 1)[1]
                index.setdefault(key, p)

ansi = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
blocks = []
cur = None
for line in sys.stdin:
    line = ansi.sub("", line.rstrip("\n"))
    m = re.match(r"^(?:Caused by: |Exception in thread \"[^\"]*\" )?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+): (.*)$", line)
    if m and not line.startswith(" "):
        cur = {"kind": "raise", "cls": m.group(1), "message": m.group(2), "frames": []}
        blocks.append(cur)
        continue
    # an exception without a message (guava's MediaType.parse wraps a bare
    # IllegalStateException): its frames are its own, not the one above's
    m = re.match(r"^(?:Caused by: |Exception in thread \"[^\"]*\" )([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)$", line)
    if m:
        cur = {"kind": "raise", "cls": m.group(1), "message": "", "frames": []}
        blocks.append(cur)
        continue
    # (maven's logger writes "at C.m (F.java:N)", the JVM "at C.m(F.java:N)")
    m = re.match(r"^\s+at ([\w$.]+)\.([\w$<>]+) ?\((\w+\.java):(\d+)\)$", line)
    if m and cur is not None:
        cls, fn, fname, ln = m.groups()
        pkg = cls.rsplit(".", 1)[0].replace(".", "/")
        path = index.get(pkg + "/" + fname, "<dep>/" + fname)
        cur["frames"].append({"file": path, "line": int(ln), "fn": fn})
        continue
    if re.match(r"^\s+at ", line) and cur is not None:
        cur["frames"].append({"file": "<dep>", "line": 0, "fn": line.strip()})
for b in reversed(blocks):
    print(json.dumps(b))
