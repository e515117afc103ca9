#!/usr/bin/python3
# Docutils' recording run (docutils.conf): runs the front end named by
# argv[1] (/usr/bin/rst2html...) in place, under pyhook/sitecustomize.py
# (collect.sh's PYTHONPATH), and also records each directive error. A
# directive reports a problem with `raise self.error('text')` (or
# warning/severe/directive_error): a DirectiveError holding the level and
# the text, whose str() is empty, caught by states.py's run_directive and
# reported from there (reporter.system_message(error.level, error.msg)), so
# neither pyhook's raise record nor the write's stack holds the directive's
# line with its text. This wraps DirectiveError.__init__ and records the
# message with the stack of its construction ({"kind": "new"}, read by
# resolve.py like an exception's construction); the conf's REPORTERS drop
# Directive.directive_error and its error/warning/... wrappers, so the
# line is the directive's own `self.error(...)` call.
import json
import os
import sys
import traceback

_out = os.environ.get("RE_HOOK_OUT")
_f = open(_out, "a") if _out else None

import docutils.parsers.rst as _rst  # noqa: E402

_orig = _rst.DirectiveError.__init__


def _init(self, level, message):
    if _f is not None:
        try:
            frames = [{"file": x.filename, "line": x.lineno, "fn": x.name}
                      for x in reversed(traceback.extract_stack(sys._getframe(1)))]
            _f.write(json.dumps({"kind": "new", "cls": "docutils.parsers.rst.DirectiveError",
                                 "message": str(message), "frames": frames}) + "\n")
            _f.flush()
        except Exception:
            pass
    _orig(self, level, message)


_rst.DirectiveError.__init__ = _init

# A message at or above the halt level (a SEVERE one by default, any with
# --halt or --strict) is written by Reporter.system_message, which then
# raises SystemMessage(msg) with the whole text: a generic re-raise by the
# reporting machinery that resolve.py would take before the directive's
# construction above (its line is the Reporter's caller, states.py's
# run_directive for a directive). The method runs untraced and its
# SystemMessage is marked as seen in pyhook's table of recorded exceptions
# (as sphinx-hook.py does for its SphinxWarning); the write it makes is
# recorded as ever, with its stack.
import docutils.utils as _du  # noqa: E402

_orig_sm = _du.Reporter.system_message


def system_message(self, *a, **k):
    sys._getframe().f_trace = None
    tr = sys.gettrace()
    sys.settrace(None)
    try:
        return _orig_sm(self, *a, **k)
    except _du.SystemMessage as e:
        try:
            import sitecustomize
            sitecustomize._seen[id(e)] = e
        except Exception:
            pass
        raise
    finally:
        sys.settrace(tr)


_du.Reporter.system_message = system_message

# Opening a file: io.FileInput.__init__ and io.FileOutput.open call open(),
# whose OSError (the runtime's text) they raise again as io.InputError /
# io.OutputError (`raise InputError(error.errno, error.strerror,
# source_path)`, the OS's text again). resolve.py would take that text, the
# longest first line, before the directive's or front end's own words that
# quote it ("Problems with "include" directive path:", "Unable to open
# source file for reading:", "Cannot embed stylesheet:"), and then drop the
# case as the runtime's. So these two methods run untraced, and the OSError
# leaving them is marked as seen in pyhook's table (not recorded); the
# program's own texts are recorded as ever (writes, DirectiveErrors).
import docutils.io as _dio  # noqa: E402


def _untraced(cls, name):
    orig = getattr(cls, name)

    def wrapper(*a, **k):
        sys._getframe().f_trace = None
        tr = sys.gettrace()
        sys.settrace(None)
        try:
            return orig(*a, **k)
        except OSError as e:
            try:
                import sitecustomize
                sitecustomize._seen[id(e)] = e
            except Exception:
                pass
            raise
        finally:
            sys.settrace(tr)
    wrapper.__name__ = name
    setattr(cls, name, wrapper)


_untraced(_dio.FileInput, "__init__")
_untraced(_dio.FileOutput, "open")

# the front end's own code, run as this __main__
_prog = sys.argv.pop(1)
sys.argv[0] = _prog
with open(_prog) as _s:
    _code = compile(_s.read(), _prog, "exec")
exec(_code, globals())
