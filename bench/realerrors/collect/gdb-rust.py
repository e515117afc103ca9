# gdb Python script (GDB_EXTRA of a Rust program's conf, beside
# gdb-write.gdb): every string the program formats with format!() (the
# standard library's alloc::fmt::format::format_inner), its text and the
# stack of the format!() call, as an "@@FORMAT" block that gdb2hook.py
# turns into a "format" record (the text an error is made of: a
# Box<dyn Error> from a String, an io::Error::new(kind, format!(...)), a
# message built for a later print). The String is returned through the
# pointer format_inner gets in %rdi (the System V return slot of a
# 24-byte value); its three words are told apart by value: the heap
# pointer is the one above 2^32, the length the smaller of the others.
import struct

import gdb

MAX_TEXT = 8192


def c_string(b):
    out = []
    for ch in b.decode("utf-8", "replace"):
        if ch == "\\" or ch == '"':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


class Returned(gdb.FinishBreakpoint):
    def __init__(self, frame, slot, stack):
        super().__init__(frame, internal=True)
        self.slot = slot
        self.stack = stack

    def stop(self):
        inf = gdb.selected_inferior()
        try:
            words = struct.unpack("<3Q", bytes(inf.read_memory(self.slot, 24)))
            ptrs = [w for w in words if w >= 1 << 32]
            if len(ptrs) == 1:
                rest = sorted(w for w in words if w < 1 << 32)
                n = rest[0] if len(rest) == 2 else 0
                if 0 < n:
                    text = bytes(inf.read_memory(ptrs[0], min(n, MAX_TEXT)))
                    gdb.write("@@FORMAT\n$1 = %s\n%s" % (c_string(text), self.stack))
        except (gdb.error, gdb.MemoryError, struct.error):
            pass
        return False

    def out_of_scope(self):
        pass


class Format(gdb.Breakpoint):
    def stop(self):
        try:
            slot = int(gdb.parse_and_eval("$rdi"))
            stack = gdb.execute("bt 16", to_string=True)
            Returned(gdb.newest_frame(), slot, stack)
        except gdb.error:
            pass
        return False


gdb.execute("set breakpoint pending on")
Format("alloc::fmt::format::format_inner")
