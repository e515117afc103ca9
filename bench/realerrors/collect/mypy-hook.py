#!/usr/bin/python3
# mypy's recording run (mypy.conf): runs /usr/bin/mypy in place, under
# pyhook/sitecustomize.py (collect.sh's PYTHONPATH), with two changes of
# what is recorded, none of what is printed.
#
# 1. Debian's python3-mypy is compiled with mypyc: every mypy/*.py has a
#    .so beside it, which Python imports first, and compiled code has no
#    Python frames (pyhook would see no stack of mypy at all). The .py files
#    installed beside them are the tag's sources (mypy.conf), so this run
#    imports mypy's modules from those installed .py files instead (a finder
#    first on sys.meta_path; no bytecode is written). The plain run is the
#    compiled program; a case whose text differs between them is dropped by
#    resolve.py, as any case the hook changed.
# 2. mypy does not raise or print a diagnostic where it is made: a checker
#    calls self.fail(...)/self.msg.some_error(...), which ends in
#    Errors.report(...) -> add_error_info -> _add_error_info, kept in a list
#    and formatted and printed at the end of the build (or raised as a
#    CompileError for a blocking error, whose message is the formatted
#    lines, and printed by main). So this wraps Errors._add_error_info and
#    keeps the stack of every error it really stores (not one an
#    ErrorWatcher filtered away, as overload matching does), and wraps
#    Errors.format_messages: each formatted line of severity "error" is
#    written as a {"kind": "new"} record (resolve.py reads it like an
#    exception's construction) whose message is that printed line and whose
#    frames are the stack kept when its ErrorInfo was stored. The records
#    come before the CompileError's raise, whose first line is the same
#    text: resolve.py takes the first of equal length. The conf's REPORTERS
#    name the reporting machinery, so the line is the caller that passes the
#    text or the message constant.
import importlib.util
import json
import os
import sys
import traceback

ROOT = "/usr/lib/python3/dist-packages/"
sys.dont_write_bytecode = True


class _PureMypy:
    """mypy.* from the installed .py files, not the mypyc .so beside them."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "mypy" and not name.startswith("mypy."):
            return None
        rel = ROOT + name.replace(".", "/")
        if os.path.isfile(rel + "/__init__.py"):
            return importlib.util.spec_from_file_location(
                name, rel + "/__init__.py", submodule_search_locations=[rel])
        if os.path.isfile(rel + ".py"):
            return importlib.util.spec_from_file_location(name, rel + ".py")
        return None


sys.meta_path.insert(0, _PureMypy)

_out = os.environ.get("RE_HOOK_OUT")
_f = open(_out, "a") if _out else None

from mypy import errors as _errors  # noqa: E402

assert _errors.__file__.endswith(".py"), _errors.__file__

_stacks = {}


def _frames(frame):
    fs = [{"file": x.filename, "line": x.lineno, "fn": x.name}
          for x in reversed(traceback.extract_stack(frame))]
    while fs and fs[0]["file"] == __file__:
        fs.pop(0)
    return fs


_orig_add = _errors.Errors._add_error_info


def _add_error_info(self, file, info):
    _orig_add(self, file, info)
    try:
        if self.error_info_map.get(file) and self.error_info_map[file][-1] is info:
            _stacks[id(info)] = (info, _frames(sys._getframe(1)))
    except Exception:
        pass


_errors.Errors._add_error_info = _add_error_info

_orig_fmt = _errors.Errors.format_messages


def format_messages(self, error_info, source_lines):
    res = _orig_fmt(self, error_info, source_lines)
    if _f is not None:
        try:
            used = set()
            for s in res:
                if ": error: " not in s:
                    continue
                for info in error_info:
                    if id(info) in used or id(info) not in _stacks or info.severity != "error":
                        continue
                    if (": error: " + info.message) in s and (":%d:" % info.line) in s:
                        used.add(id(info))
                        _f.write(json.dumps({"kind": "new", "cls": "mypy.errors.ErrorInfo",
                                             "message": s, "frames": _stacks[id(info)][1]}) + "\n")
                        _f.flush()
                        break
        except Exception:
            pass
    return res


_errors.Errors.format_messages = format_messages

# A blocking error is raised by Errors.raise_error as a CompileError whose
# message is the formatted lines already recorded above (at the call that
# passed the text); pyhook would record that raise too, and resolve.py would
# take errors.py's `raise CompileError(...)` for a second raise of the same
# message. That generic raise is the reporting machinery, not where the text
# was made: raise_error runs untraced and its CompileError is marked as seen
# in pyhook's table of recorded exceptions (a CompileError that build.py
# raises itself with its own text, "can't read file", is still recorded).
_orig_raise = _errors.Errors.raise_error


def raise_error(self, use_stdout=True):
    sys._getframe().f_trace = None
    tr = sys.gettrace()
    sys.settrace(None)
    try:
        _orig_raise(self, use_stdout)
    except _errors.CompileError as e:
        try:
            import sitecustomize
            sitecustomize._seen[id(e)] = e
        except Exception:
            pass
        raise
    finally:
        sys.settrace(tr)


_errors.Errors.raise_error = raise_error

# /usr/bin/mypy's own code, run as this __main__
sys.argv[0] = "/usr/bin/mypy"
with open("/usr/bin/mypy") as _s:
    _code = compile(_s.read(), "/usr/bin/mypy", "exec")
exec(_code, globals())
