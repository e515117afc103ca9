#!/usr/bin/env python3
"""Turn one recorded run (command, stdout, stderr, hook JSON Lines) into a
corpus case: the printed text and the raising path:line taken from the
recorded stacks (never from a search of the source).

usage: resolve.py RUNDIR PREFIXMAP SRCDIR ID KINDS > case.json
  RUNDIR    holds cmd, out, err, hook.jsonl (collect.sh writes them)
  PREFIXMAP installed_prefix=repo_prefix[,more...]: maps an installed file
            to its repository path (e.g. /usr/lib/python3/dist-packages/=src/)
  SRCDIR    the program's tree at the recorded commit (to read the lines)

Choice of the frame: the exception whose message was printed (the last one
built/raised whose message appears in the output), else the write that
printed the first line of the output; in its stack, the innermost frame in
the program's own files (vendored and node_modules folders excluded); when
that frame's statement holds none of the message's words (a reporter such
as createError(msg) or a logger), the next outer frame of the program whose
statement does is the raising line (the call that passes the text).
"""
import json
import os
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def load(p):
    try:
        with open(p, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def main():
    rundir, pmap, srcdir, cid, kinds = sys.argv[1:6]
    prefixes = [tuple(x.split("=", 1)) for x in pmap.split(",")]
    err = load(os.path.join(rundir, "err"))
    out = load(os.path.join(rundir, "out"))
    stream = "stderr" if ANSI.sub("", err).strip() else "stdout"
    text = err if stream == "stderr" else out
    plain = ANSI.sub("", text)
    flat = " ".join(plain.split())
    bare = "".join(plain.split())
    recs = []
    for line in load(os.path.join(rundir, "hook.jsonl")).splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass

    # installed folders of the runtime or of dependencies that sit under the
    # program's prefix or print for it (RUNTIME="prefix prefix ...")
    extra_runtime = tuple(os.environ.get("RUNTIME", "").split())

    def repo_path(f):
        if not f:
            return None
        rest = f.split(prefixes[0][0], 1)[-1]
        if "/node_modules/" in rest or "/_vendor/" in f or "/vendor/" in rest:
            return None
        if f.startswith(extra_runtime):
            return None
        for a, b in prefixes:
            if f.startswith(a):
                # an installed file the repository does not have (a
                # dependency or a distribution's addition in the same
                # folder) is not the program's
                if not os.path.exists(os.path.join(srcdir, b + f[len(a):])):
                    return None
                return b + f[len(a):]
        return None

    # (Rust) a Display derived by thiserror: gdb puts its `fmt` on the
    # enum's #[derive(..)] line, whose window holds the texts of the first
    # variants only; gdb-rust.py logs the variant that was printed there
    # ("@@VARIANT FILE:LINE PATH::Enum::Variant", in gdb.out), and the
    # #[error(..)] attribute above that variant in the enum is the line
    # that wrote the text: the frames on the derive line move to it (not
    # when the run printed several variants of one enum, nor for
    # #[error(transparent)], whose text is the inner error's)
    def error_attribute(path, dline, variant):
        src = load(path).splitlines()
        if not 0 < dline <= len(src):
            return None
        indent = len(src[dline - 1]) - len(src[dline - 1].lstrip())
        for i in range(dline, len(src)):
            s = src[i]
            if s.strip() == "}" and len(s) - len(s.lstrip()) <= indent:
                return None  # the end of the enum
            if re.match(r"\s*%s\b" % re.escape(variant), s):
                for j in range(i - 1, dline - 1, -1):
                    t = src[j].strip()
                    if t.startswith("#[error("):
                        return None if t.startswith("#[error(transparent") else j + 1
                    if re.match(r"[A-Z}]", t):
                        return None  # the previous variant: this one has no #[error]
                return None
        return None

    printed = {}
    for l in load(os.path.join(rundir, "gdb.out")).splitlines():
        m = re.match(r"@@VARIANT (\S+):(\d+) (\S+)$", l)
        if m:
            printed.setdefault((m.group(1), int(m.group(2))), set()).add(m.group(3).rsplit("::", 1)[-1])
    for (path, dline), names in printed.items():
        at = error_attribute(path, dline, names.pop()) if len(names) == 1 and repo_path(path) else None
        if at:
            for r in recs:
                for x in r.get("frames", []):
                    if (x.get("file"), x.get("line")) == (path, dline):
                        x["line"] = at

    # the program's own reporters (REPORTERS="path path#function ..."): a
    # frame in them is the reporting machinery, its caller the raising line
    reporters = os.environ.get("REPORTERS", "").split()

    def is_reporter(p, fn):
        return p in reporters or ("%s#%s" % (p, fn)) in reporters

    def proj(frames, cls=None):
        pf = [(repo_path(x["file"]), x["line"], x.get("fn")) for x in frames if repo_path(x["file"])]
        pf = [x for x in pf if not is_reporter(x[0], x[2])] or pf
        # the constructor frames of the error class itself: the raise is
        # the `new X(...)` that called them
        while len(pf) > 1 and cls and pf[0][2] and (pf[0][2] == cls or re.fullmatch(r"[A-Z]\w*Error", pf[0][2])):
            pf = pf[1:]
        return pf

    # the program's own prefix of every printed error (the conf's
    # PRINT_PREFIX, fd's "[fd error]: "): the statement that prints it
    # holds those words whatever it prints, so they prove nothing
    print_prefix = os.environ.get("PRINT_PREFIX", "")

    def unprefixed(m):
        if not print_prefix:
            return m or ""
        return (m or "").replace(print_prefix, "\n").replace(print_prefix.strip(), "\n")

    def chunks(m):
        # literal pieces of the printed text: split at quotes and at
        # characters that are rarely literal in a source string
        cs = [c.strip() for c in re.split(r"[\'\"`:()\[\]{}<>]|\s{2,}|\n", unprefixed(m))]
        # a single short word proves nothing: two words or 12 characters
        cs = [c for c in cs if (" " in c and len(c) >= 8) or len(c) >= 12]
        return cs

    def installed(path):
        for a, b in prefixes:
            if path.startswith(b):
                return a + path[len(b):]
        return None

    def stmt(path, line):
        lines = load(installed(path) or os.path.join(srcdir, path)).splitlines()
        return " ".join(" ".join(lines[max(line - 7, 0):line + 4]).split()) if 0 < line <= len(lines) else ""

    def upstream_line(path, line):
        """The repository's line for an installed file's line: the same when
        the files are equal, else through a line diff; None when the line
        was changed by the distribution (a patch)."""
        a = load(installed(path) or "").splitlines()
        b = load(os.path.join(srcdir, path)).splitlines()
        if a == b:
            return line
        import difflib
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "equal" and i1 < line <= i2:
                return j1 + (line - i1)
        return None

    def letters(x):
        return " " + " ".join(re.findall(r"[A-Za-z]+", x)) + " "

    def windows(m):
        # runs of 2 and 3 printed words, compared letters only ("can't
        # stat" is "can t stat" on both sides; placeholders cut the runs)
        out = []
        for ln in unprefixed(m).splitlines():
            w = re.findall(r"[A-Za-z]+", ln)
            for n in (2, 3):
                out += [" " + " ".join(w[i:i + n]) + " " for i in range(len(w) - n + 1)
                        if len(" ".join(w[i:i + n])) >= 10]
        return out

    def pick(pf, msg, walk=True):
        cs = chunks(msg)
        ws = windows(msg)
        for p, l, fn in (pf if walk else pf[:1]):
            s = stmt(p, l)
            ls = letters(s)
            if any(c in s for c in cs) or any(w in ls for w in ws):
                return (p, l, fn, "frame holding the text")
        return (pf[0][0], pf[0][1], pf[0][2], "innermost frame") if pf else None

    how = None
    chosen = None
    formats = [r for r in recs if r["kind"] == "format"]
    inner = None
    stack = []
    runtime = ("node:", "/usr/lib/python3.", "/usr/lib/ruby/3.", "<frozen", "<string>", "<libc>", "<dep>")

    def first_real(frames, skip_vendor=False):
        for x in frames:
            f = x.get("file") or ""
            if f.startswith(runtime + extra_runtime) or f.endswith(("/hook.js", "/sitecustomize.py", "/hook.rb", "/hook.php")):
                continue
            if skip_vendor and ("/_vendor/" in f or "/node_modules/" in f.split(prefixes[0][0], 1)[-1]
                                or "/vendor/" in f.split(prefixes[0][0], 1)[-1]):
                continue
            return f
        return None

    def raised_in_program(r):
        fs = [x.get("file") or "" for x in r["frames"]
              if not (x.get("file") or "").endswith(("/hook.js", "/sitecustomize.py", "/hook.rb", "/hook.php"))]
        return bool(fs) and repo_path(fs[0]) is not None

    # 1. eslint-style templates: the error handed to the reporter carries
    #    messageTemplate; the raise is the first error built with it
    tmpl = None
    if "Oops! Something went wrong!" in plain:
        for r in reversed(recs):
            if r["kind"] == "new" and r.get("messageTemplate"):
                tmpl = r["messageTemplate"]
                break
    if tmpl:
        for r in recs:
            if r["kind"] == "new" and r.get("messageTemplate") == tmpl and raised_in_program(r):
                pf = proj(r["frames"], r.get("cls"))
                chosen = (pf[0][0], pf[0][1], pf[0][2], "error carrying messageTemplate %s" % tmpl)
                how = "new " + (r.get("cls") or "")
                stack = pf
                break
    # 2. the first exception raised in the program whose message was printed
    #    (a wrapper that repeats an inner message comes later)
    #    (the longest such message: an inner one repeated by a wrapper, or
    #    a low-level one a program error quotes, is shorter)
    if not chosen and not tmpl:
        best = None
        for r in recs:
            if r["kind"] in ("new", "raise") and r.get("message"):
                mlines = [l.strip() for l in r["message"].splitlines() if l.strip()]
                # whitespace collapsed: a UI may wrap the message to the terminal's width
                # or wrapped in the middle of a word (symfony/console's
                # boxes): compared without any whitespace
                if mlines and len(mlines[0]) >= 8 and (" ".join(mlines[0].split()) in flat or
                                                       "".join(mlines[0].split()) in bare) and raised_in_program(r):
                    pf = proj(r["frames"], r.get("cls"))
                    # the runtime's own message (a codec's, an OSError's)
                    # that a program exception raised while handling it
                    # rewords (PyYAML's ReaderError over a
                    # UnicodeDecodeError, both printed): the program's
                    # exception first, whatever the lengths
                    own = not ((r.get("cls") or "").startswith("builtins.") and
                               pf and pick(pf, r["message"])[3] == "innermost frame")
                    if pf and (best is None or (own, len(mlines[0])) > best[0]):
                        best = ((own, len(mlines[0])), r, pf)
        if best:
            r, pf = best[1], best[2]
            # a wrapper whose message quotes an inner exception's message
            # (raise X("invalid config: %s" % e)): the inner raise made the
            # specific text, so its line is expected too
            inner = None
            for q in recs:
                if q is r:
                    break
                if q["kind"] in ("new", "raise") and q.get("message") and raised_in_program(q):
                    ql = [l.strip() for l in q["message"].splitlines() if l.strip()]
                    if ql and len(ql[0]) >= 8 and ql[0] in r["message"] and ql[0] != r["message"].strip():
                        qf = proj(q["frames"], q.get("cls"))
                        if qf:
                            c = pick(qf, q["message"])
                            # not the runtime's own message (an OSError's)
                            if not ((q.get("cls") or "").startswith("builtins.") and c[3] == "innermost frame"):
                                inner = c
            # a raise statement (Python, Ruby) is the raising line itself;
            # a JS constructor call may sit in a helper given the text
            # (PHP's recorded place is the construction itself, `new X(...)`:
            # a line holding no printed words there is a message built in
            # steps, not a helper's)
            chosen = pick(pf, r["message"], walk=os.environ.get("FAMILY") != "php")
            how = r["kind"] + " " + (r.get("cls") or "")
            if inner and (inner[0], inner[1]) != (chosen[0], chosen[1]):
                how += "; wraps the message raised at %s:%d" % (inner[0], inner[1])
            elif not inner and os.environ.get("FAMILY") == "py":
                # (Python) the same message raised again by the program while
                # handling it (PyJWT's `except NotImplementedError: raise
                # InvalidAlgorithmError("Algorithm not supported") from e`):
                # both tracebacks print the text, the later line is expected too
                rl = " ".join(r["message"].split("\n")[0].split())
                for q in recs[recs.index(r) + 1:]:
                    if q["kind"] == "raise" and q.get("message") and raised_in_program(q) and \
                            " ".join(q["message"].split("\n")[0].split()) == rl:
                        qf = proj(q["frames"], q.get("cls"))
                        c = pick(qf, q["message"]) if qf else None
                        if c and (c[0], c[1]) != (chosen[0], chosen[1]):
                            inner = c
                            how += "; raised again with the same message at %s:%d" % (c[0], c[1])
                            break
            stack = pf
    # 3. the write that printed a line of the output, made by the program
    #    (the runtime's and vendored printing machinery skipped)
    #    (writes the hook marks as an error or a warning first: a program
    #    printing progress lines on stderr before its error, e.g. composer's
    #    <error>/<warning> tagged messages)
    if not chosen and not tmpl:
        for r in sorted(recs, key=lambda r: {"error": 0, "warning": 1}.get(r.get("level"), 2)):
            t = ANSI.sub("", r.get("text") or "").strip()
            if r["kind"] == "write" and t and t in plain and re.search(r"[A-Za-z]{3}", t):
                f = first_real(r["frames"], skip_vendor=True)
                if f is None or repo_path(f) is None:
                    continue
                pf = proj(r["frames"])
                c = pick(pf, t)
                if c[3] != "frame holding the text":
                    if not reporters or len(pf) == len([x for x in r["frames"] if repo_path(x["file"])]):
                        continue  # text built elsewhere and no reporter called
                    c = (pf[0][0], pf[0][1], pf[0][2], "caller of the program's reporter")
                    if formats:
                        # (Go) the text of an error value printed through
                        # the reporter: where it was formatted (3b) decides
                        continue
                chosen = c
                how = "write fd%s" % r.get("fd")
                stack = pf
                break
    # 3b. (Go) a string the program formatted (fmt.Sprintf, e.g. in an
    #    Error() method) whose first line was printed, the longest such,
    #    at the frame whose statement holds its words
    if not chosen and not tmpl and formats:
        best = None
        for r in formats:
            ml = [l.strip() for l in r["message"].splitlines() if l.strip()]
            if ml and len(ml[0]) >= 8 and (" ".join(ml[0].split()) in flat) and raised_in_program(r):
                pf = proj(r["frames"])
                c = pick(pf, r["message"]) if pf else None
                if c and c[3] == "frame holding the text" and (best is None or len(ml[0]) > best[0]):
                    best = (len(ml[0]), c, pf)
        if best:
            chosen, how, stack = best[1], "format (fmt.Sprintf)", best[2]
            chosen = (chosen[0], chosen[1], chosen[2], "string formatted here: " + chosen[3])
        # (a reporter's caller printing an error value made elsewhere, by
        # string concatenation or the standard library, is not a raise:
        # no recorded stack shows where the text was made)
    # 4. a write made while handling an exception raised in the program
    #    (sys.exc_info / $! at the write): that exception's raise line
    if not chosen and not tmpl:
        for r in recs:
            t = ANSI.sub("", r.get("text") or "").strip()
            if r["kind"] == "write" and t and t in plain and r.get("handling"):
                last = r["handling"][0]
                if repo_path(last["file"]):
                    chosen = (repo_path(last["file"]), last["line"], last.get("fn"), "exception handled while printing")
                    how = "write fd%s" % r.get("fd")
                    stack = proj(r["handling"])
                    break
    rc = int(load(os.path.join(rundir, "rc")).strip() or 0)
    why = None
    # the hook must not change what the program prints: the case keeps the
    # text of the run without it (addresses and pids aside, equal)
    def norm(t):
        # a printed stack trace of the hooked run shows the hook's own frame
        # and one frame less at the end of a printed node stack (the limit)
        t = "".join(l for l in t.splitlines(True)
                    if not re.search(r"/collect/(hook\.js|hook\.rb|pyhook/)", l) and not re.match(r"\s+at ", l))
        # (PHPUnit) the duration and peak memory of its result line
        t = re.sub(r"^Time: \d+:\d+\.\d+, Memory: [\d.]+ [KMG]?B$", "Time: N", t, flags=re.M)
        return re.sub(r"0x[0-9a-f]+|\(node:\d+\)|\(\d+ms\)", "N", t)
    java_changed = False
    if os.environ.get("FAMILY") == "java":
        # -e prints the stack trace where the plain run prints the message
        # as an [ERROR] line: every such line's text must be in the -e run
        hooked = ANSI.sub("", err + out)
        for l in ANSI.sub("", load(os.path.join(rundir, "err0")) + load(os.path.join(rundir, "out0"))).splitlines():
            c = re.sub(r"^(\[ERROR\] )+", "", l).strip()
            if l.startswith("[ERROR]") and len(c) >= 10 and "-e switch" not in c and c not in hooked:
                java_changed = True
    # (Java: the -e run is compared line by line above; its line is still
    # mapped through the installed, patched, source below: guava's)
    java = os.environ.get("FAMILY") == "java"
    if java and java_changed:
        why = "the recording hook changed the output"
    elif not java and (load(os.path.join(rundir, "err0")), load(os.path.join(rundir, "out0"))) != (err, out) and \
            (norm(load(os.path.join(rundir, "err0"))), norm(load(os.path.join(rundir, "out0")))) != (norm(err), norm(out)):
        why = "the recording hook changed the output"
    elif chosen and rc == 0 and "warning" not in kinds:
        why = "exit status 0"
    elif chosen and chosen[3] == "innermost frame" and how.startswith("raise builtins."):
        why = "the runtime's message (an OSError or the like), not the program's"
    elif chosen:
        ul = upstream_line(chosen[0], chosen[1])
        if ul is None:
            why = "line changed by the distribution's patch"
        elif ul != chosen[1]:
            chosen = (chosen[0], ul, chosen[2], chosen[3] + "; installed line %d mapped by a line diff" % chosen[1])
            stack = [(p, upstream_line(p, l) or l, fn) for p, l, fn in stack]
    inner_line = upstream_line(inner[0], inner[1]) if inner else None
    if why:
        chosen = None
    if not chosen:
        print(json.dumps({"id": cid, "unresolved": True, "why": why, "command": load(os.path.join(rundir, "cmd")).rstrip("\n"),
                          "output": text[:300]}))
        return
    err0, out0 = load(os.path.join(rundir, "err0")), load(os.path.join(rundir, "out0"))
    text = err0 if stream == "stderr" else out0
    case = {
        "id": cid,
        "command": load(os.path.join(rundir, "cmd")).rstrip("\n"),
        "exit": rc,
        "stream": stream,
        "output": text,
        "expected": [f"{chosen[0]}:{chosen[1]}"] + ([f"{inner[0]}:{inner_line}"] if inner and inner_line and (inner[0], inner_line) != (chosen[0], chosen[1]) else []),
        "kinds": sorted(set([k for k in kinds.split(",") if k and k != "-"] +
                            (["multi-line"] if len([l for l in plain.splitlines() if l.strip()]) > 1 else []) +
                            # a Rust error type's Display wrote the text as it was printed:
                            # the line is the message's definition; the value was built
                            # (raised) earlier, where no recorded stack shows
                            (["definition"] if how.startswith("write") and chosen[0].endswith(".rs") and
                             re.search(r"::\{impl#\d+\}::fmt$", chosen[2] or "") else []))),
        "verified": how + "; " + chosen[3],
        "stack": [f"{p}:{l} {fn or ''}".strip() for p, l, fn in stack[:8]],
    }
    print(json.dumps(case, ensure_ascii=False))


main()
