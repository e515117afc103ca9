#!/usr/bin/python3
# pylint's recording run (pylint.conf): runs /usr/bin/pylint in place, under
# pyhook/sitecustomize.py (collect.sh's PYTHONPATH), and also records each
# MESSAGE pylint reports about the checked code. The text reporter prints a
# "************* Module x" header before a module's first message, through
# the same print as the message; pyhook records both writes with the same
# stack, and resolve.py would take the header, the first one. So this wraps
# TextReporter.write_message and records the formatted line it is about to
# print ({"kind": "write", "level": "error"}, which resolve.py takes before
# unmarked writes), with the whole stack at that moment (the checker's
# self.add_message(...) call among its frames; the conf's REPORTERS drop
# the reporting machinery above it), then calls the original unchanged.
import json
import os
import sys
import traceback
from dataclasses import asdict

_out = os.environ.get("RE_HOOK_OUT")
_f = open(_out, "a") if _out else None

from pylint.reporters import text as _text  # noqa: E402

_orig = _text.TextReporter.write_message


def write_message(self, msg):
    if _f is not None:
        try:
            d = asdict(msg)
            for key in ("end_line", "end_column"):
                d[key] = d[key] or ""
            t = self._fixed_template.format(**d)
            frames = [{"file": x.filename, "line": x.lineno, "fn": x.name}
                      for x in reversed(traceback.extract_stack(sys._getframe(0)))]
            # this file's frame: the reporter's own method it stands for
            frames[0] = {"file": _text.__file__, "line": frames[0]["line"], "fn": "write_message"}
            _f.write(json.dumps({"kind": "write", "fd": 1, "level": "error", "text": t,
                                 "frames": frames}) + "\n")
            _f.flush()
        except Exception:
            pass
    return _orig(self, msg)


_text.TextReporter.write_message = write_message

# Messages about the command line or the configuration file that pylint
# cannot report yet (an unknown or removed message id given to --disable or
# --enable) are stashed by config/callback_actions.py
# (`self.linter._stashed_messages[(name, "unknown-option-value")].append(
# (option_string, msgid))`) and reported later by
# PyLinter._emit_stashed_messages, whose generic add_message call is all
# the printing stack shows. So the stash's lists record each append: the
# message's text (its definition's msg % args, as pylint formats it) with
# the stack of the append, as a {"kind": "new"} record (resolve.py reads it
# like an exception's construction).
import collections  # noqa: E402
from pylint.lint import message_state_handler as _msh  # noqa: E402


class _RecList(list):
    def __init__(self, linter, symbol):
        super().__init__()
        self._linter = linter
        self._symbol = symbol

    def append(self, args):
        if _f is not None:
            try:
                md = self._linter.msgs_store.get_message_definitions(self._symbol)[0]
                frames = [{"file": x.filename, "line": x.lineno, "fn": x.name}
                          for x in reversed(traceback.extract_stack(sys._getframe(1)))]
                _f.write(json.dumps({"kind": "new", "cls": "stashed " + self._symbol,
                                     "message": md.msg % args, "frames": frames}) + "\n")
                _f.flush()
            except Exception:
                pass
        return super().append(args)


class _RecDict(collections.defaultdict):
    def __init__(self, linter):
        super().__init__(list)
        self._linter = linter

    def __missing__(self, key):
        v = self[key] = _RecList(self._linter, key[1])
        return v


def _install(linter):
    try:
        linter.__dict__["_stashed_messages"] = _RecDict(linter)
    except Exception:
        pass


_orig_init = _msh._MessageStateHandler.__init__


def _init(self, *a, **k):
    _orig_init(self, *a, **k)
    _install(self)


_msh._MessageStateHandler.__init__ = _init

# /usr/bin/pylint's own code, run as this __main__
sys.argv[0] = "/usr/bin/pylint"
with open("/usr/bin/pylint") as _s:
    _code = compile(_s.read(), "/usr/bin/pylint", "exec")
exec(_code, globals())
