#!/usr/bin/python3
# black's recording run (black.conf): runs /usr/bin/black in place, under
# pyhook/sitecustomize.py (collect.sh's PYTHONPATH), and also records the
# CONSTRUCTION of the program's own exceptions. black builds its parse
# error in one place and raises it in another
# (parsing.py: `errors[grammar.version] = InvalidInput(f"Cannot parse: ...")`
# ... `raise exc from None`): pyhook sees only the raise, this adds a
# {"kind": "new"} record (resolve.py reads it like JavaScript's constructions:
# the message and the stack of the line that built it, innermost first).
# Only classes defined in the program's own modules (black, blib2to3,
# blackd) are wrapped; builtins and click's are raised where they are built.
# The wrapper calls the class's original __init__ and changes nothing else.
import json
import os
import sys
import traceback

PREFIXES = tuple("/usr/lib/python3/dist-packages/%s/" % p for p in ("black", "blib2to3", "blackd"))
_out = os.environ.get("RE_HOOK_OUT")
_f = open(_out, "a") if _out else None
_seen = set()


def _wrap(cls):
    orig = cls.__init__

    def __init__(self, *a, **k):
        orig(self, *a, **k)
        if _f is None or id(self) in _seen:
            return
        _seen.add(id(self))
        try:
            try:
                msg = str(self)
            except Exception:
                msg = None
            # from the line that built it (a wrapped parent's __init__
            # called by a wrapped subclass's is this file's frame: skipped)
            frames = [{"file": x.filename, "line": x.lineno, "fn": x.name}
                      for x in reversed(traceback.extract_stack(sys._getframe(1)))]
            while frames and frames[0]["file"] == __file__:
                frames.pop(0)
            t = type(self)
            _f.write(json.dumps({"kind": "new", "cls": t.__module__ + "." + t.__qualname__,
                                 "message": msg, "frames": frames}) + "\n")
            _f.flush()
        except Exception:
            pass

    cls.__init__ = __init__


import black  # noqa: E402  (imports every module of the program the CLI uses)

for _m in list(sys.modules.values()):
    _file = getattr(_m, "__file__", None) or ""
    if not _file.startswith(PREFIXES):
        continue
    for _v in list(vars(_m).values()):
        if isinstance(_v, type) and issubclass(_v, BaseException) and _v.__module__ == _m.__name__:
            _wrap(_v)

# /usr/bin/black's own code, run as this __main__ (runpy would give the
# module a __package__, and click would call the program "python -m black")
sys.argv[0] = "/usr/bin/black"
with open("/usr/bin/black") as _s:
    _code = compile(_s.read(), "/usr/bin/black", "exec")
exec(_code, globals())
