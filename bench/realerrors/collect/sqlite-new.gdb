# sqlite3 (GDB_EXTRA of sqlite.conf): the library builds an error message
# with sqlite3ErrorMsg (parser and code generator), sqlite3VdbeError (the
# virtual machine) or sqlite3ErrorWithMsg (the API) and the shell prints it
# later; stop right after each has formatted the text and print it and the stack
break /tmp/re/bld/sqlite/src/util.c:198
commands
silent
printf "@@NEW\n"
print zMsg
bt
continue
end
break /tmp/re/bld/sqlite/src/util.c:174
commands
silent
printf "@@NEW\n"
print z
bt
continue
end
break /tmp/re/bld/sqlite/src/vdbeaux.c:64
commands
silent
printf "@@NEW\n"
print p->zErrMsg
bt
continue
end
# an SQL function's error (abs's "integer overflow", json's "malformed
# JSON", attach's "database x is already in use")
break sqlite3_result_error
commands
silent
printf "@@NEW\n"
print (char *)z
bt
continue
end
