# jq (GDB_EXTRA of jq.conf): a runtime error is a jv built by
# jv_invalid_with_msg(jv_string...) where it happens and printed later by
# main.c; stop there and print the message (a string jv: kind 5) and the stack
break jv_invalid_with_msg if err.kind_flags == 5
commands
silent
printf "@@NEW\n"
print jv_string_value(err)
bt
continue
end
