set pagination off
set confirm off
set breakpoint pending on
set print elements 0
set print repeats 0
set filename-display absolute
break write if $rdi == 2 || $rdi == 1
commands
silent
printf "@@WRITE %d\n", $rdi
print *(char *)$rsi@$rdx
bt
continue
end
