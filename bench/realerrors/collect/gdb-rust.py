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
# Two more breakpoints for texts no format!() makes:
# - anyhow's error made from a text that was not formatted
#   (anyhow!("literal"), bail!/ensure!(.., "literal"), anyhow!(a_str)) goes
#   to anyhow::Error::from_adhoc<&str>: the text and the stack, as an
#   "@@FORMAT" block too (a text an error is made of; not "@@NEW", which
#   resolve.py would prefer to the write that printed the first line of
#   the output);
# - a Display derived by thiserror writes its text in a `fmt` that gdb puts
#   on the enum's #[derive(..)] line, whatever the variant: at each write to
#   fd 1 or 2 made in such a frame, the variant being printed (`*self`) as
#   "@@VARIANT FILE:LINE PATH::Enum::Variant", which resolve.py reads
#   beside the hook's records to move that frame to the variant's
#   #[error(..)] line.
import re
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


class Adhoc(gdb.Breakpoint):
    def stop(self):
        try:
            m = gdb.selected_frame().read_var("message")
            n = int(m["length"])
            if 0 < n <= MAX_TEXT:
                text = bytes(gdb.selected_inferior().read_memory(int(m["data_ptr"]), n))
                gdb.write("@@FORMAT\n$1 = %s\n%s" % (c_string(text), gdb.execute("bt 16", to_string=True)))
        except (gdb.error, gdb.MemoryError):
            pass
        return False


Adhoc("anyhow::Error::from_adhoc<&str>", internal=True)

sources = {}


def source(path):
    if path not in sources:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                sources[path] = f.read().splitlines()
        except OSError:
            sources[path] = []
    return sources[path]


class WriteVariant(gdb.Breakpoint):
    def stop(self):
        try:
            if int(gdb.parse_and_eval("$rdi")) not in (1, 2):
                return False
            f = gdb.newest_frame()
            while f is not None:
                sal = f.find_sal()
                if sal.symtab and (f.name() or "").endswith("::fmt"):
                    path = sal.symtab.fullname()
                    src = source(path)
                    if 0 < sal.line <= len(src) and src[sal.line - 1].lstrip().startswith("#[derive("):
                        # the value is shown in Rust's syntax: a path, then
                        # the fields of a tuple or struct variant if any
                        gdb.execute("set language rust", to_string=True)
                        try:
                            value = str(f.read_var("self").dereference())
                        finally:
                            gdb.execute("set language auto", to_string=True)
                        m = re.match(r"(?:\w+::)+\w+", value)
                        if m:
                            gdb.write("@@VARIANT %s:%d %s\n" % (path, sal.line, m.group(0)))
                        break
                f = f.older()
        except (gdb.error, ValueError):
            pass
        return False


WriteVariant("write", internal=True)
