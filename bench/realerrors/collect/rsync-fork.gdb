# rsync (sourced by rsync-gdb.py): every process of a local transfer stays
# under gdb (the client/sender, the forked server's generator and its
# receiver): detach-on-fork off and schedule-multiple on; when `run` comes
# back because one process exited, continue the others until all are gone
# (collect.sh reads the exit status of Inferior 1, the client).
set detach-on-fork off
set schedule-multiple on
set follow-fork-mode parent
# rsync ends its other processes with SIGUSR1 (and SIGUSR2 tells the
# generator the receiver is done): pass them on without stopping
handle SIGUSR1 nostop noprint pass
handle SIGUSR2 nostop noprint pass
handle SIGPIPE nostop noprint pass
define hookpost-run
  python
import gdb
for _ in range(50):
    live = [i for i in gdb.inferiors() if i.pid > 0]
    if not live:
        break
    # a process that has just exited may still be listed: try the others
    for i in live:
        try:
            gdb.execute("inferior %d" % i.num, to_string=True)
            gdb.execute("continue")
            break
        except gdb.error:
            continue
    else:
        break
  end
end
