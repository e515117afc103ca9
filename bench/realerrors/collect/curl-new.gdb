# curl (GDB_EXTRA of curl.conf): libcurl writes why a transfer failed into
# the error buffer with Curl_failf, and the tool prints it later as
# "curl: (N) ..."; stop right after the text is formatted (lib/curl_log.c,
# `error[len++] = '\n'`) and print it and the stack
break /tmp/re/bld/curl/lib/curl_log.c:98
commands
silent
printf "@@NEW\n"
print (char *)error
bt
continue
end
