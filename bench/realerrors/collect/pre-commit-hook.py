#!/usr/bin/python3
# pre-commit's recording run (pre-commit.conf): runs /usr/bin/pre-commit in
# place, under pyhook/sitecustomize.py (collect.sh's PYTHONPATH), and also
# records what pre-commit PRINTS. pre-commit never writes through
# sys.stdout/sys.stderr (which pyhook wraps): its output module writes bytes
# to sys.stdout.buffer, bound as a default argument when pre_commit.output
# is imported (`def write_line_b(s, stream=sys.stdout.buffer, ...)`), and
# its logger ([WARNING]/[ERROR] lines) prints through that module too. So
# this wraps pre_commit.output's write() and write_line_b() (write_line()
# calls the latter through the module) and records each text written to
# the standard output or error with its stack ({"kind": "write"}, as
# pyhook's), then calls the original function unchanged.
# Not recorded: the writes of error_handler._log_and_exit (the
# "An error has occurred: X: message" line of an exception pre-commit
# caught; pyhook records that exception where it was raised), since its
# frames hold only the prefix, and the log file's lines.
import json
import os
import sys
import traceback

_out = os.environ.get("RE_HOOK_OUT")
_f = open(_out, "a") if _out else None

import pre_commit.output as _output  # noqa: E402

_std = (sys.__stdout__.buffer, sys.__stderr__.buffer)


def _record(text, stream):
    if _f is None:
        return
    try:
        if stream is None:
            stream = sys.__stdout__.buffer
        if stream not in _std:
            return  # the log file
        frames = [{"file": x.filename, "line": x.lineno, "fn": x.name}
                  for x in reversed(traceback.extract_stack(sys._getframe(2)))]
        if any(x["fn"] == "_log_and_exit" and x["file"].endswith("/pre_commit/error_handler.py") for x in frames):
            return
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        _f.write(json.dumps({"kind": "write", "fd": 1 if stream is _std[0] else 2,
                             "text": text, "frames": frames}) + "\n")
        _f.flush()
    except Exception:
        pass


_orig_write = _output.write
_orig_write_line_b = _output.write_line_b


def write(s, stream=None):
    _record(s, stream)
    if stream is None:
        return _orig_write(s)
    return _orig_write(s, stream)


def write_line_b(s=None, stream=None, logfile_name=None):
    if s is not None:
        _record(s, stream)
    if stream is None:
        return _orig_write_line_b(s, logfile_name=logfile_name)
    return _orig_write_line_b(s, stream, logfile_name)


_output.write = write
_output.write_line_b = write_line_b

# /usr/bin/pre-commit's own code, run as this __main__
sys.argv[0] = "/usr/bin/pre-commit"
with open("/usr/bin/pre-commit") as _s:
    _code = compile(_s.read(), "/usr/bin/pre-commit", "exec")
exec(_code, globals())
