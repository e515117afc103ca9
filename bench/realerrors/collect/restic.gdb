# restic's own error constructors, loaded after gdb-go.gdb by the restic
# wrapper restic.conf's setup() writes. restic makes most of its messages
# with internal/errors.Fatal(s) (a string conversion, fatalError(s), wrapped
# by github.com/pkg/errors: no errors.New, fmt.Errorf or fmt.Sprintf sees
# the text), internal/errors.Fatalf, and errors.New/Errorf/Wrap/Wrapf, which
# are github.com/pkg/errors' (`var New = errors.New`), not the standard
# library's. Each stop logs an @@NEW block (the text, then the stack from
# the first frame outside the constructor, as `bt` would print it), which
# gdb2hook.py turns into a construction record:
# - internal/errors.Fatal: its argument s;
# - github.com/pkg/errors.New: message; github.com/pkg/errors.Wrap: message
#   (the prefix it adds before ": " and the wrapped error's text);
# - fmt.Sprintf's result (go1.19 fmt/print.go:221, after `s :=
#   string(p.buf)`, the line gdb-go.gdb's @@FORMAT stop uses) when
#   Sprintf was called by internal/errors.Fatalf or by pkg/errors' Errorf,
#   Wrapf or WithMessagef: the text that error will print.
python
import gdb
import json
_RESTIC_SPRINTF_CALLERS = ("github.com/restic/restic/internal/errors.Fatalf",
                           "github.com/pkg/errors.Errorf", "github.com/pkg/errors.Wrapf",
                           "github.com/pkg/errors.WithMessagef")
def _restic_str(f, name):
    v = f.read_var(name)
    n = int(v["len"])
    return bytes(gdb.selected_inferior().read_memory(int(v["str"]), n)).decode("utf-8", "replace") if n else ""
def _restic_log(text, f):
    # frames from f (the constructor's caller) outwards, in `bt`'s shape
    gdb.write("@@NEW\n$1 = %s\n" % json.dumps(text))
    i = 0
    while f is not None and i < 40:
        sal = f.find_sal()
        fn = f.name() or "??"
        if sal.symtab is not None:
            gdb.write("#%d  %s () at %s:%d\n" % (i, fn, sal.symtab.fullname(), sal.line))
        else:
            gdb.write("#%d  0x0 in %s ()\n" % (i, fn))
        f = f.older()
        i += 1
class _ResticNew(gdb.Breakpoint):
    def __init__(self, spec, var):
        super().__init__(spec)
        self.var = var
    def stop(self):
        try:
            f = gdb.selected_frame()
            s = _restic_str(f, self.var)
            if len(s) >= 8:
                _restic_log(s, f.older())
        except Exception as e:
            gdb.write("@@RESTIC-GDB-ERROR %s\n" % e)
        return False
class _ResticSprintf(gdb.Breakpoint):
    def stop(self):
        try:
            f = gdb.selected_frame()
            c = f.older()
            if c is None or c.name() not in _RESTIC_SPRINTF_CALLERS:
                return False
            s = _restic_str(f, "s")
            if len(s) >= 8:
                _restic_log(s, c.older() if c.name().startswith("github.com/pkg/") else c)
        except Exception as e:
            gdb.write("@@RESTIC-GDB-ERROR %s\n" % e)
        return False
_ResticNew("github.com/restic/restic/internal/errors.Fatal", "s")
_ResticNew("github.com/pkg/errors.New", "message")
_ResticNew("github.com/pkg/errors.Wrap", "message")
_ResticSprintf("/usr/lib/go-1.19/src/fmt/print.go:221")
end
