# rsync (GDB_EXTRA of rsync.conf, beside gdb-write.gdb): parse_arguments()
# (options.c) formats an option error into the static err_buf with
# snprintf(err_buf, ...) and returns 0; main() prints it much later through
# option_error() ("rsync: %s"), whose stack no longer holds the line that
# made the text.  Stop in glibc's snprintf when its destination is err_buf,
# take the stack there and, at its return (a gdb.FinishBreakpoint), the
# formatted text, and log an "@@NEW" block (gdb2hook.py: a "new" record,
# whose frames start at the snprintf call: glibc's own frame is left out).
# A local transfer forks the server (generator) and its receiver, which send
# their messages to the client over the multiplexed socket; the client's
# io.c prints them, with no frame holding the text.  rsync-fork.gdb keeps
# every process under gdb, and a breakpoint on rwrite() (log.c) in any
# process but the first logs each message a forked process sends with its
# stack as an "@@NEW" block (log.c's rprintf/rsyserr/rwrite are REPORTERS,
# so the caller is the line); "rsync error: ... at FILE(N)" exit lines are
# left out (resolve.py prefers the longest message printed), and so is a
# message passed on by io.c (the receiver's, relayed by the generator).
import os

import gdb

MAX_TEXT = 4096


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
    def __init__(self, frame, dest, stack):
        super().__init__(frame, internal=True)
        self.dest = dest
        self.stack = stack

    def stop(self):
        try:
            raw = bytes(gdb.selected_inferior().read_memory(self.dest, MAX_TEXT))
            text = raw.split(b"\0", 1)[0]
            if text:
                gdb.write("@@NEW\n$1 = %s\n%s" % (c_string(text), self.stack))
        except (gdb.error, gdb.MemoryError):
            pass
        return False

    def out_of_scope(self):
        pass


class ErrBuf(gdb.Breakpoint):
    def stop(self):
        try:
            dest = int(gdb.parse_and_eval("$rdi"))
            if dest == int(gdb.parse_and_eval("(long)&err_buf")):
                # the stack from snprintf's caller on (resolve.py wants the
                # first frame of a "new" record to be the program's)
                bt = gdb.execute("bt 16", to_string=True).splitlines(True)
                while bt and " at /" not in bt[0]:
                    bt.pop(0)
                Returned(gdb.newest_frame(), dest, "".join(bt))
        except gdb.error:
            pass
        return False


gdb.execute("set breakpoint pending on")
ErrBuf("snprintf")


class ForkedMessage(gdb.Breakpoint):
    def stop(self):
        if gdb.selected_inferior().num == 1:
            return False
        try:
            f = gdb.selected_frame()
            # a message passed on (io.c's read_a_msg: the receiver's
            # messages go through the generator) is logged where it was made
            caller = f.older()
            sal = caller.find_sal() if caller else None
            if sal and sal.symtab and sal.symtab.filename.endswith("/io.c"):
                return False
            n = int(f.read_var("len"))
            if 0 < n:
                text = bytes(gdb.selected_inferior().read_memory(int(f.read_var("buf")), min(n, MAX_TEXT)))
                if not text.startswith(b"rsync error: "):
                    gdb.write("@@NEW\n$1 = %s\n%s" % (c_string(text), gdb.execute("bt 16", to_string=True)))
        except (gdb.error, gdb.MemoryError):
            pass
        return False


gdb.execute("source " + os.path.join(os.path.dirname(os.path.abspath(__file__)), "rsync-fork.gdb"))
ForkedMessage("rwrite")
