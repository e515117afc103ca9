# gdb Python script, bat.conf's GDB_EXTRA (beside gdb-write.gdb): loads
# gdb-rust.py (every format!() text, anyhow's literal texts, the variant a
# thiserror Display prints) and adds one breakpoint of bat's own: most of
# bat's errors are made from a literal, `Err("...".into())` or
# `.map_err(|_| "...")?`, through `impl From<&'static str> for Error`
# (src/error.rs: `Error::Msg(s.to_owned())`), which no format!() builds.
# There the text (`s`) and the stack are logged as an "@@FORMAT" block,
# as gdb-rust.py does for anyhow::Error::from_adhoc<&str>: a text an
# error is made of, whose caller (the `?` or `.into()` line) holds it.
import os

import gdb

here = os.path.dirname(os.path.abspath(__file__))
gdb.execute("source %s" % os.path.join(here, "gdb-rust.py"))

import __main__  # noqa: E402

MAX_TEXT = 8192


class FromStr(gdb.Breakpoint):
    def stop(self):
        try:
            s = gdb.selected_frame().read_var("s")
            n = int(s["length"])
            if 0 < n <= MAX_TEXT:
                text = bytes(gdb.selected_inferior().read_memory(int(s["data_ptr"]), n))
                gdb.write("@@FORMAT\n$1 = %s\n%s" % (__main__.c_string(text), gdb.execute("bt 16", to_string=True)))
        except (gdb.error, gdb.MemoryError):
            pass
        return False


# the line `Error::Msg(s.to_owned())` of `impl From<&'static str> for Error`
FromStr("/tmp/re/bld/bat/src/error.rs:33", internal=True)
