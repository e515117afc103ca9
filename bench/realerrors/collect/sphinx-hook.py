#!/usr/bin/python3
# sphinx-build's recording run (sphinx.conf): runs /usr/bin/sphinx-build in
# place, under pyhook/sitecustomize.py (collect.sh's PYTHONPATH), and also
# records every WARNING/ERROR/CRITICAL message sphinx logs, at the moment it
# is logged. Sphinx holds the warnings of the reading phase back
# (sphinx.util.logging.pending_warnings(), a MemoryHandler flushed when
# reading ends), so pyhook's stack of the write that prints one shows only
# the flush; this wraps SphinxLoggerAdapter.log and writes the message's
# text (msg % args, as logging formats it) with the stack of the call as a
# {"kind": "new"} record (resolve.py reads it like an exception's
# construction; the conf's REPORTERS drop sphinx/util/logging.py, so the
# line is the caller's logger.warning(...)). The frame of this wrapper is
# given the wrapped method's place in sphinx/util/logging.py. A message
# docutils' Reporter relays through sphinx's WarningStream is recorded only
# when sphinx's own code called the Reporter (graphviz's "External Graphviz
# file ..."), not for docutils' own texts (a dependency's); the conf's
# REPORTERS drop WarningStream.write too.
# With -W, WarningIsErrorFilter raises SphinxWarning("LOCATION:MESSAGE")
# when the held warning is finally handled: a generic re-raise of a text
# recorded above, by the logging machinery, that resolve.py would prefer
# (the longer message). The filter runs untraced and its SphinxWarning is
# marked as seen in pyhook's table of recorded exceptions (as
# mypy-hook.py does for its CompileError).
import json
import os
import sys
import traceback

_out = os.environ.get("RE_HOOK_OUT")
_f = open(_out, "a") if _out else None

from sphinx.util import logging as _sl  # noqa: E402
from sphinx.errors import SphinxWarning  # noqa: E402

_orig_log = _sl.SphinxLoggerAdapter.log
_log_line = _orig_log.__code__.co_firstlineno + 1


def log(self, level, msg, *args, **kwargs):
    if _f is not None:
        try:
            lv = level if isinstance(level, int) else _sl.LEVEL_NAMES.get(level, 0)
            if lv >= 30:
                frames = [{"file": x.filename, "line": x.lineno, "fn": x.name}
                          for x in reversed(traceback.extract_stack(sys._getframe(1)))]
                first = next((x for x in frames if not x["file"].startswith("/usr/lib/python3.")), None)
                keep = True
                if first and first["file"].endswith("/sphinx/util/docutils.py") and first["fn"] == "write":
                    # a message docutils' Reporter relayed: kept only when
                    # the Reporter's caller is sphinx's own code (a sphinx
                    # directive's `document.reporter.warning(__('...'))`),
                    # not docutils' parser or directives
                    i = frames.index(first) + 1
                    while i < len(frames) and frames[i]["file"].endswith(("/docutils/utils/__init__.py", "/docutils/io.py")):
                        i += 1
                    keep = i < len(frames) and "/dist-packages/sphinx/" in frames[i]["file"]
                if keep:
                    text = str(msg) % args if args else str(msg)
                    frames.insert(0, {"file": _sl.__file__, "line": _log_line, "fn": "log"})
                    _f.write(json.dumps({"kind": "new", "cls": "logged " + str(level), "message": text,
                                         "frames": frames}) + "\n")
                    _f.flush()
        except Exception:
            pass
    return _orig_log(self, level, msg, *args, **kwargs)


_sl.SphinxLoggerAdapter.log = log

_orig_filter = _sl.WarningIsErrorFilter.filter


def filter(self, record):
    sys._getframe().f_trace = None
    tr = sys.gettrace()
    sys.settrace(None)
    try:
        return _orig_filter(self, record)
    except SphinxWarning as e:
        try:
            import sitecustomize
            sitecustomize._seen[id(e)] = e
        except Exception:
            pass
        raise
    finally:
        sys.settrace(tr)


_sl.WarningIsErrorFilter.filter = filter

# /usr/bin/sphinx-build's own code, run as this __main__
sys.argv[0] = "/usr/bin/sphinx-build"
with open("/usr/bin/sphinx-build") as _s:
    _code = compile(_s.read(), "/usr/bin/sphinx-build", "exec")
exec(_code, globals())
