#!/usr/bin/env python3
"""Line table of Debian's patched yarn sources against the tag's (yarn.conf).

Debian's yarnpkg ships lib/**/*.js, babel's output of src/**/*.js, each with a
source map whose sourcesContent is Debian's PATCHED src/ file (54 of the 160
differ from yarnpkg/yarn v1.22.19: commander 9, other dependencies). This
script aligns every patched file with the tag's (difflib, by lines) and writes
a JSON table {"src/REL.js": [tag line or 0, ...]} (index = Debian line - 1; 0:
a line Debian changed or added, never mapped). Files equal to the tag's are
left out (identity).
usage: yarn-linemap.py INSTALLED_LIB TAG_TREE > map.json
"""
import difflib, glob, json, os, sys

lib, tag = sys.argv[1:3]
table = {}
for f in sorted(glob.glob(os.path.join(lib, '**/*.js.map'), recursive=True)):
    m = json.load(open(f))
    for s, c in zip(m['sources'], m.get('sourcesContent') or []):
        p = os.path.normpath(os.path.join(os.path.dirname(f), m.get('sourceRoot', ''), s))
        rel = os.path.relpath(p, os.path.dirname(lib.rstrip('/')))  # src/...
        t = os.path.join(tag, rel)
        if not os.path.exists(t):
            continue
        a = c.split('\n')
        b = open(t).read().split('\n')
        if a == b:
            continue
        row = [0] * len(a)
        for i, j, n in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
            for k in range(n):
                row[i + k] = j + k + 1
        table[rel] = row
json.dump(table, sys.stdout)
