# gdb Python script, uutils.conf's GDB_EXTRA (beside gdb-write.gdb): loads
# gdb-rust.py (every format!() text with the stack of the call, anyhow's
# literal texts, the variant a thiserror Display prints at a write) and adds
# what uutils needs: every utility's error is a `Box<dyn UError>` that
# uucore's #[uucore::main] wrapper turns into a String
# (`let s = format!("{}", e)`) before show_error! prints it, so an error
# type's Display impl (`write!(f, "invalid line width: {}", ..)`, a
# thiserror #[error("..")]) runs inside that format!(), on no stack of a
# write and in no format!() of its own.  Here every call of
# core::fmt::Formatter::write_fmt / write_str made by a `fmt` function of
# the program's tree (OWN) while a format!() is being built is remembered
# with its stack; when that outermost format!() returns, each remembered
# stack is logged as an "@@FORMAT" block with the format!()'s final text
# (the message the Display impl wrote a part of), and a thiserror-derived
# `fmt` (gdb puts it on the `#[derive(..)]` line) also logs the variant
# being written, "@@VARIANT FILE:LINE PATH::Enum::Variant", as gdb-rust.py
# does at a write, for resolve.py to move the frame to the variant's
# #[error(..)] line.  resolve.py takes the format record at the frame whose
# statement holds the printed words: the Display impl's write! line (the
# message's definition), not uumain's `format!("{}", e)`.
import os
import re
import struct

import gdb

here = os.path.dirname(os.path.abspath(__file__))
gdb.execute("source %s" % os.path.join(here, "gdb-rust.py"))

import __main__  # noqa: E402

OWN = os.environ.get("RE_UUTILS_OWN", "/tmp/re/work-uutils/bld/")
MAX_TEXT = 8192
active = []  # one entry per format_inner in progress: [slot, [blocks]]


class Done(gdb.FinishBreakpoint):
    def __init__(self, frame, entry):
        super().__init__(frame, internal=True)
        self.entry = entry

    def stop(self):
        entry = self.entry
        if entry in active:
            active.remove(entry)
        if not entry[1]:
            return False
        inf = gdb.selected_inferior()
        try:
            words = struct.unpack("<3Q", bytes(inf.read_memory(entry[0], 24)))
            ptrs = [w for w in words if w >= 1 << 32]
            if len(ptrs) == 1:
                rest = sorted(w for w in words if w < 1 << 32)
                n = rest[0] if len(rest) == 2 else 0
                if 0 < n:
                    text = bytes(inf.read_memory(ptrs[0], min(n, MAX_TEXT)))
                    for variant, stack in entry[1]:
                        if variant:
                            gdb.write(variant)
                        gdb.write("@@FORMAT\n$1 = %s\n%s" % (__main__.c_string(text), stack))
        except (gdb.error, gdb.MemoryError, struct.error):
            pass
        return False

    def out_of_scope(self):
        if self.entry in active:
            active.remove(self.entry)


class Outer(gdb.Breakpoint):
    def stop(self):
        try:
            entry = [int(gdb.parse_and_eval("$rdi")), []]
            active.append(entry)
            Done(gdb.newest_frame(), entry)
        except gdb.error:
            pass
        return False


class FmtWrite(gdb.Breakpoint):
    def stop(self):
        if not active:
            return False
        try:
            caller = gdb.newest_frame().older()
            sal = caller.find_sal() if caller else None
            if not (sal and sal.symtab and (caller.name() or "").endswith("::fmt")):
                return False
            path = sal.symtab.fullname()
            if not path.startswith(OWN):
                return False
            variant = ""
            src = __main__.source(path)
            if 0 < sal.line <= len(src) and src[sal.line - 1].lstrip().startswith("#[derive("):
                gdb.execute("set language rust", to_string=True)
                try:
                    value = str(caller.read_var("self").dereference())
                finally:
                    gdb.execute("set language auto", to_string=True)
                m = re.match(r"(?:\w+::)+\w+", value)
                if m:
                    variant = "@@VARIANT %s:%d %s\n" % (path, sal.line, m.group(0))
            active[-1][1].append((variant, gdb.execute("bt 24", to_string=True)))
        except (gdb.error, ValueError):
            pass
        return False


Outer("alloc::fmt::format::format_inner", internal=True)
FmtWrite("core::fmt::Formatter::write_fmt", internal=True)
FmtWrite("core::fmt::Formatter::write_str", internal=True)
