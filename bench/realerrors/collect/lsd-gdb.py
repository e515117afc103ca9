# gdb Python script, lsd.conf's GDB_EXTRA (beside gdb-write.gdb): loads
# gdb-rust.py (every format!() text, anyhow's literal texts, the variant a
# thiserror Display prints) and adds one breakpoint of lsd's own: lsd makes
# a usage error of its own from a literal, `clap::Error::raw(ErrorKind::
# ValueValidation, "The argument '--depth' requires ...")`
# (src/flags/recursion.rs), which no format!() builds and which clap prints
# later (`err.exit()` in main.rs). At `clap::error::Error::raw<&str>` the
# text (`message`) and the stack are logged as an "@@FORMAT" block, as
# gdb-rust.py does for anyhow::Error::from_adhoc<&str>: the frame that
# called `raw` is the line holding the text.
import os

import gdb

here = os.path.dirname(os.path.abspath(__file__))
gdb.execute("source %s" % os.path.join(here, "gdb-rust.py"))

import __main__  # noqa: E402

MAX_TEXT = 8192


class RawStr(gdb.Breakpoint):
    def stop(self):
        try:
            m = gdb.selected_frame().read_var("message")
            n = int(m["length"])
            if 0 < n <= MAX_TEXT:
                text = bytes(gdb.selected_inferior().read_memory(int(m["data_ptr"]), n))
                gdb.write("@@FORMAT\n$1 = %s\n%s" % (__main__.c_string(text), gdb.execute("bt 16", to_string=True)))
        except (gdb.error, gdb.MemoryError):
            pass
        return False


RawStr("clap::error::Error::raw<&str>", internal=True)
