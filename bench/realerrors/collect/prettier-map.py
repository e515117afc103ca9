#!/usr/bin/env python3
"""Build the line table prettier-hook.js reads ($RE_PRETTIER_MAP): for prettier 2.8.8's esbuild bundles (cli.js,
index.js, bin-prettier.js: no source maps are published), each bundled
module's tokens aligned with its source file's tokens at the tag.

usage: prettier-map.py INSTALLED_DIR SRC_DIR OUT.json

A bundle module is `"src/x.js"(exports2, module2) {` ... `});` (esbuild's
__commonJS wrapper, named by its repository path); the code after the last
module is the entry (src/cli/index.js, src/index.js, bin/prettier.js).
Both texts are cut into tokens (comments dropped; identifiers without
esbuild's renaming digits, `getSupportInfo2` = `getSupportInfo`; strings
by their content) and aligned with difflib (autojunk off). A token of an
equal block maps to its source line; a bundle line's map is its
[column, source line] pairs. Bundled dependencies (`node_modules/...`
modules) are listed as such, so their frames stay dependencies'.
"""
import difflib, json, os, re, sys

TOK = re.compile(r"""
 (?P<c>//[^\n]*|/\*.*?\*/)
|(?P<s>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|\$\{[^}]*\}|[^`\\])*`)
|(?P<i>[A-Za-z_$][\w$]*)
|(?P<n>\d[\w.]*)
|(?P<p>=>|===|!==|==|!=|<=|>=|&&|\|\||\?\?|\.\.\.|[^\s\w])
""", re.S | re.X)


def tokens(text, base=1):
    out = []
    line_starts = [0]
    for m in re.finditer("\n", text):
        line_starts.append(m.end())
    import bisect
    for m in TOK.finditer(text):
        k = m.lastgroup
        if k == "c":
            continue
        v = m.group()
        if k == "i":
            v = re.sub(r"\d+$", "", v) or v
        elif k == "s":
            v = "S:" + v[1:-1]
        ln = bisect.bisect_right(line_starts, m.start()) - 1
        out.append((v, ln + base, m.start() - line_starts[ln]))
    return out


START = re.compile(r'^\s*"([^"]+)"(?:: function)?\((?:exports\d*(?:, module\d*)?)?\) \{\s*$')
COMMENT = re.compile(r'^// ((?:node_modules|src|bin|dist)/\S+)$')


def regions(lines, entry):
    """[(first, last, path)] 1-based inclusive line ranges of modules."""
    out = []
    i = 0
    last_end = 0
    comment = None
    gaps = []
    while i < len(lines):
        m = START.match(lines[i])
        c = COMMENT.match(lines[i])
        if c and c.group(1).startswith("node_modules/"):
            # an ES module bundled without a wrapper: up to the next comment
            j = i + 1
            while j < len(lines) and not COMMENT.match(lines[j]) and not lines[j].startswith("var require_"):
                j += 1
            out.append((i + 2, j, c.group(1)))
            i = j
            continue
        if m:
            j = i + 1
            while j < len(lines) and lines[j] != "});":
                j += 1
            out.append((i + 2, j, m.group(1)))
            i = j + 1
            last_end = i
            continue
        i += 1
    if entry:
        out.append((last_end + 1, len(lines), entry))
    return out


def main():
    inst, src, outp = sys.argv[1:4]
    res = {"lines": {}, "deps": {}, "modules": {}}
    for bundle, entry in (("cli.js", "src/cli/index.js"), ("index.js", "src/index.js"),
                          ("bin-prettier.js", "bin/prettier.js")):
        text = open(os.path.join(inst, bundle), encoding="utf-8").read()
        lines = text.split("\n")
        lmap = {}
        deps = []
        mods = []
        for first, last, path in regions(lines, entry):
            if not os.path.exists(os.path.join(src, path)):
                deps.append([first, last, path])
                continue
            body = "\n".join(lines[first - 1:last])
            bt = tokens(body, first)
            st = tokens(open(os.path.join(src, path), encoding="utf-8").read())
            sm = difflib.SequenceMatcher(None, [t[0] for t in bt], [t[0] for t in st], autojunk=False)
            n = 0
            for a, b, size in sm.get_matching_blocks():
                for k in range(size):
                    t, s = bt[a + k], st[b + k]
                    lmap.setdefault(str(t[1]), []).append([t[2], path, s[1]])
                    n += 1
            mods.append([first, last, path, n, len(bt)])
        res["lines"][bundle] = lmap
        res["deps"][bundle] = deps
        res["modules"][bundle] = mods
    json.dump(res, open(outp, "w"))
    for b, mods in res["modules"].items():
        for first, last, path, n, tot in mods:
            print(b, path, first, last, "%d/%d" % (n, tot))


main()
