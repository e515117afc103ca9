#!/usr/bin/env python3
"""Build the line table rollup-hook.js reads ($RE_ROLLUP_MAP): Debian's
rollup 3.15.0 ships rollup's own build (dist/bin/rollup, dist/shared/*.js,
dist/loadConfigFile.js...: the tag's src/ and cli/ TypeScript, compiled by
tsc and bundled by rollup) without source maps. Each bundle's top-level
statements are assigned to the source file that declares the same name
(rollup's `$N` renaming suffix dropped; a name declared by one file only),
consecutive statements of one file make a module region (rollup keeps a
module's statements together), and each region's tokens are aligned with
its source file's tokens at the tag (difflib, autojunk off), as
prettier-map.py does for esbuild bundles. Tokens: comments dropped,
identifiers without `$N`, `ns.` of a namespace the bundle requires
(`node_path.resolve` = `resolve`, `rollup.error` = `error`) dropped,
strings by content, whitespace dropped from template literals (tsc joins a
template's lines). A region matching under 40 % of its tokens is dropped, and so is a short
one (under 8 tokens) not matched whole (NodeType.ts's constants, bundled
as `const CallExpression$1 = 'CallExpression'`, beside the classes).
Bundled dependencies (acorn, magic-string, picomatch...) declare no name
of the tree: their lines stay unmapped. src/ast/nodes/NodeType.ts is no
owner: it declares a constant named like every node class.

usage: rollup-map.py INSTALLED_DIST SRC_DIR OUT.json
"""
import bisect, difflib, glob, json, os, re, sys

TOK = re.compile(r"""
 (?P<c>//[^\n]*|/\*.*?\*/)
|(?P<s>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|\$\{(?:[^{}`]|\{[^{}]*\}|`[^`]*`)*\}|[^`\\])*`)
|(?P<i>[A-Za-z_$][\w$]*)
|(?P<n>\d[\w.]*)
|(?P<p>=>|===|!==|==|!=|<=|>=|&&|\|\||\?\?|\?\.|\.\.\.|[^\s\w])
""", re.S | re.X)


def tokens(text, base=1, ns=()):
    out = []
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    toks = list(TOK.finditer(text))
    skip = False
    for idx, m in enumerate(toks):
        k = m.lastgroup
        if k == "c":
            continue
        v = m.group()
        if skip:
            skip = False
            if v == ".":
                continue
        if k == "i":
            if v in ns and idx + 1 < len(toks) and toks[idx + 1].group() == ".":
                skip = True
                continue
            v = re.sub(r"\$\d+$", "", v) or v
        elif k == "s":
            v = "S:" + (re.sub(r"\s+", "", v[1:-1]) if v[0] == "`" else v[1:-1])
        ln = bisect.bisect_right(starts, m.start()) - 1
        out.append((v, ln + base, m.start() - starts[ln]))
    return out


DECL_SRC = re.compile(r"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
                      r"(?:function\*?\s*|class\s+|const\s+|let\s+|var\s+|enum\s+)([A-Za-z_$][\w$]*)")
DECL_BUN = re.compile(r"^(?:async\s+)?(?:function\*?\s*|class\s+|const\s+|let\s+|var\s+)([A-Za-z_$][\w$]*)")


def main():
    dist, src, outp = sys.argv[1:4]
    files = sorted(glob.glob(os.path.join(src, "src/**/*.ts"), recursive=True) +
                   glob.glob(os.path.join(src, "cli/**/*.ts"), recursive=True))
    owner = {}
    srctok = {}
    for f in files:
        rel = os.path.relpath(f, src)
        if rel == "src/ast/nodes/NodeType.ts":
            continue  # a constant for every node class's name
        for l in open(f, encoding="utf-8"):
            m = DECL_SRC.match(l)
            if m:
                owner.setdefault(m.group(1), set()).add(rel)
    res = {"lines": {}, "modules": {}}
    for bundle in ["bin/rollup", "rollup.js", "loadConfigFile.js"] + \
            sorted("shared/" + os.path.basename(x) for x in glob.glob(os.path.join(dist, "shared/*.js"))):
        text = open(os.path.join(dist, bundle), encoding="utf-8").read()
        lines = text.split("\n")
        ns = set(re.findall(r"^const ([\w$]+) = (?:require\(|_interopNamespace|[\w$]+\.require\w*\(\))", text, re.M))
        ns |= {"rollup", "node_path", "process", "promises", "index", "cli", "loadConfigFile_js", "node_url",
               "node_perf_hooks", "node_crypto", "node_events", "node_child_process"}
        # top-level statements: (first line, name)
        stmts = []
        for i, l in enumerate(lines):
            if l and not l[0].isspace() and l[0] not in "})]/*'\"" and not l.startswith("//"):
                m = DECL_BUN.match(l)
                name = re.sub(r"\$\d+$", "", m.group(1)) if m else None
                own = owner.get(name)
                stmts.append((i + 1, list(own)[0] if own and len(own) == 1 else None))
        stmts.append((len(lines) + 1, None))
        # runs: an unassigned statement between two of one file belongs to it
        runs = []
        cur = None
        for j, (first, f) in enumerate(stmts[:-1]):
            if f is None:
                nxt = next((g for _, g in stmts[j + 1:-1] if g), None)
                f = cur if cur and nxt == cur else None
            if f and runs and runs[-1][2] == f and runs[-1][1] == first - 1:
                runs[-1][1] = stmts[j + 1][0] - 1
            elif f:
                runs.append([first, stmts[j + 1][0] - 1, f])
            cur = f if f else cur
        lmap = {}
        mods = []
        for first, last, path in runs:
            if path not in srctok:
                srctok[path] = tokens(open(os.path.join(src, path), encoding="utf-8").read())
            st = srctok[path]
            bt = tokens("\n".join(lines[first - 1:last]), first, ns)
            sm = difflib.SequenceMatcher(None, [t[0] for t in bt], [t[0] for t in st], autojunk=False)
            blocks = [b for b in sm.get_matching_blocks() if b.size]
            n = sum(b.size for b in blocks)
            mods.append([first, last, path, n, len(bt)])
            if not bt or n < 0.4 * len(bt) or (len(bt) < 8 and n < len(bt)):
                continue
            for a, b, size in blocks:
                for k in range(size):
                    t, s = bt[a + k], st[b + k]
                    lmap.setdefault(str(t[1]), []).append([t[2], path, s[1]])
        res["lines"][bundle] = lmap
        res["modules"][bundle] = mods
    json.dump(res, open(outp, "w"))
    for b, mods in res["modules"].items():
        for first, last, path, n, tot in mods:
            print(b, path, first, last, "%d/%d" % (n, tot))


main()
