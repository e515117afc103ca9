# Loaded through PYTHONPATH only to VERIFY corpus cases: records into the
# file named by $RE_HOOK_OUT, as JSON Lines, every exception at the frame
# that raised it (sys.settrace 'exception' event, first sighting) and every
# sys.stdout/sys.stderr write with its call stack and the exception being
# handled at that moment (its traceback's last frame is the raise line).
import json
import os
import sys
import traceback

_out = os.environ.get("RE_HOOK_OUT")
if _out:
    _f = open(_out, "a")

    def _rec(o):
        try:
            _f.write(json.dumps(o) + "\n")
            _f.flush()
        except Exception:
            pass

    def _frames(stack):
        return [{"file": x.filename, "line": x.lineno, "fn": x.name} for x in reversed(stack)]

    _seen = {}

    def _local(frame, event, arg, _seen=_seen, _rec=_rec, _frames=_frames, traceback=traceback):
        try:
            _record(frame, event, arg, _seen, _rec, _frames, traceback)
        except Exception:  # never disturb the program, at shutdown either
            pass
        return _local

    def _record(frame, event, arg, _seen, _rec, _frames, traceback):
        if event == "exception":
            exc = arg[1]
            if id(exc) not in _seen:
                _seen[id(exc)] = exc
                try:
                    msg = str(exc)
                except Exception:
                    msg = None
                t = type(exc)
                _rec({"kind": "raise", "cls": t.__module__ + "." + t.__qualname__,
                      "message": msg, "frames": _frames(traceback.extract_stack(frame))})

    def _global(frame, event, arg):
        frame.f_trace_lines = False
        return _local

    import atexit
    sys.settrace(_global)
    atexit.register(sys.settrace, None)
    import threading
    threading.settrace(_global)

    class _W:
        def __init__(self, s, n):
            self._s = s
            self._n = n

        def write(self, text):
            try:
                r = {"kind": "write", "fd": self._n, "text": str(text),
                     "frames": _frames(traceback.extract_stack(sys._getframe(1)))}
                e = sys.exc_info()[1]
                if e is not None and e.__traceback__ is not None:
                    r["handling"] = _frames(traceback.extract_tb(e.__traceback__))
                    r["handling_cls"] = type(e).__qualname__
                _rec(r)
            except BaseException:  # the program's write goes on regardless
                pass
            return self._s.write(text)

        def __getattr__(self, a):
            return getattr(self._s, a)

    sys.stdout = _W(sys.stdout, 1)
    sys.stderr = _W(sys.stderr, 2)
