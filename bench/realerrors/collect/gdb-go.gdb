# gdb commands for a Go program built with -gcflags=all='-N -l' (collect.sh,
# FAMILY=go): every write(2, ...) with its stack, and every error made by
# errors.New or fmt.Errorf with its final text and stack (fmt.Errorf's
# line after `s := string(p.buf)` in go1.19's fmt/errors.go); gdb2hook.py
# turns the log into hook JSON Lines. GOROOT is /usr/lib/go-1.19.
set pagination off
set confirm off
set breakpoint pending on
set print elements 0
set print repeats 0
set print frame-arguments none
set startup-with-shell on
set language c
handle SIGURG nostop noprint pass
handle SIGPIPE nostop noprint pass
handle SIGCHLD nostop noprint pass
break syscall.write if fd == 2
commands
silent
printf "@@WRITE\n"
print *p.array@p.len
bt
continue
end
break errors.New if text.len > 0
commands
silent
printf "@@NEW\n"
print *text.str@text.len
bt
continue
end
break /usr/lib/go-1.19/src/fmt/errors.go:22 if s.len > 0
commands
silent
printf "@@NEW\n"
print *s.str@s.len
bt
continue
end
# fmt.Sprintf's result (go1.19 fmt/print.go, after `s := string(p.buf)`):
# the text an Error() method or a helper builds; resolve.py uses these
# ("format" records) only when no error or write explains the output
break /usr/lib/go-1.19/src/fmt/print.go:221 if s.len >= 8
commands
silent
printf "@@FORMAT\n"
print *s.str@s.len
bt 12
continue
end
