#!/usr/bin/env bash
# Run every command of collect/PROG.cases under the family's recording hook
# and resolve each into a corpus case (resolve.py). Writes ../cases/PROG.jsonl.
# usage: collect.sh PROG            (PROG.conf beside this script says how)
# A PROG.conf sets: FAMILY (js|py|rb|php|c|java|go), PREFIXMAP, SRC (the tree at the
# commit), BIN (folder put first on PATH) and a function setup() that lays
# the fixture files in the current (scratch) folder.
# A PROG.cases line is:  ID<TAB>KINDS<TAB>COMMAND   (KINDS comma-separated or -)
set -u
here=$(cd "$(dirname "$0")" && pwd)
prog=$1
. "$here/$prog.conf"
raw=/tmp/re/raw/$prog
[ -z "${RESOLVE_ONLY:-}" ] && rm -rf "$raw"; mkdir -p "$raw"
outf="$here/../cases/$prog.jsonl"
: > "$outf.tmp"
while IFS=$'\t' read -r id kinds cmd; do
  [ -z "$id" ] && continue
  case "$id" in \#*) continue;; esac
  d=$raw/$id
  if [ -z "${RESOLVE_ONLY:-}" ]; then
  mkdir -p "$d/wd"
  printf '%s\n' "$cmd" > "$d/cmd"
  ( cd "$d/wd" && setup )
  case $FAMILY in
    js) hookenv=(NODE_OPTIONS="--require $here/hook.js");;
    py) hookenv=(PYTHONPATH="$here/pyhook");;
    rb) hookenv=(RUBYOPT="-r$here/hook.rb");;
    # PHP: hook.php as auto_prepend_file, from an ini file in a folder added
    # to PHP's scan path (a leading ':' keeps the default folders)
    php) mkdir -p "$raw/.phpini"
         printf 'auto_prepend_file=%s\n' "$here/phphook/hook.php" > "$raw/.phpini/re-hook.ini"
         hookenv=(PHP_INI_SCAN_DIR=":$raw/.phpini");;
  esac
  # the text of the case: a run without any hook, in a fresh scratch folder
  mkdir -p "$d/wd0"; ( cd "$d/wd0" && setup )
  ( cd "$d/wd0" && env -i HOME=/tmp/re/home PATH="$BIN:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb NO_COLOR=1 \
      timeout 60 bash -c "$cmd" </dev/null >"$d/out0" 2>"$d/err0"; echo $? > "$d/rc0" )
  sed -i "s|$d/wd0|$d/wd|g" "$d/out0" "$d/err0"
  if [ "$FAMILY" = java ]; then
    # Java (maven): the same command with -e, whose stack traces say where
    # each exception was raised (javastack2hook.py)
    ( cd "$d/wd" && env -i HOME=/tmp/re/home PATH="$BIN:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb NO_COLOR=1 \
        timeout 120 bash -c "${cmd/mvn /mvn -e }" </dev/null >"$d/out" 2>"$d/err"; echo $? > "$d/rc"
      cat "$d/out" "$d/err" | "$here/javastack2hook.py" "$SRC" > "$d/hook.jsonl" )
  elif [ "$FAMILY" = c ]; then
    # C: the upstream tag built with -g -O0 ($DEBUG_BIN), run under gdb
    # with a breakpoint on write(2, ...) printing the buffer and the stack;
    # argv[0] kept as the plain run's; the conf's GDB_EXTRA (a gdb script
    # beside this one) adds breakpoints where the program builds a message
    # leading NAME=VALUE words (a value without blanks or quotes: bat's
    # BAT_CONFIG_PATH=x) go to the program's environment, as in the plain
    # run; a command without them runs as before
    ccmd=$cmd; cenv=()
    while [[ $ccmd =~ ^([A-Za-z_][A-Za-z0-9_]*=[^\ \"\']*)\ +(.*)$ ]]; do cenv+=("${BASH_REMATCH[1]}"); ccmd=${BASH_REMATCH[2]}; done
    cmdargs=${ccmd#"${ccmd%% *}"}   # the words after the program (none: empty)
    ( cd "$d/wd" && env -i HOME=/tmp/re/home PATH="$BIN:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb NO_COLOR=1 "${cenv[@]}" \
        timeout 120 gdb -batch -x "$here/gdb-write.gdb" ${GDB_EXTRA:+-x "$here/$GDB_EXTRA"} \
        -ex "set exec-wrapper bash -c 'exec -a ${ccmd%% *} \"\$0\" \"\$@\"'" \
        -ex "run ${cmdargs} >$d/out 2>$d/err" --args "$DEBUG_BIN" </dev/null >"$d/gdb.out" 2>&1
      sed -n 's/^\[Inferior 1 (process [0-9]*) exited with code \([0-9]*\)\]$/\1/p; s/^\[Inferior 1 (process [0-9]*) exited normally\]$/0/p' "$d/gdb.out" | tail -1 | { read -r v && echo $((8#$v)); } > "$d/rc"  # gdb prints the status in octal (023)
      RE_OWN="${OWN:-}" "$here/gdb2hook.py" < "$d/gdb.out" > "$d/hook.jsonl" )
  elif [ "$FAMILY" = go ]; then
    # Go: the command as typed, with a `go` first on PATH that runs the
    # toolchain's source built with -N -l ($DEBUG_BIN) under gdb
    # (gdb-go.gdb: writes to fd 2 and errors.New/fmt.Errorf, with stacks),
    # gdb's own output logged to $d/gdb.out, the exit status the program's
    w=$raw/.gowrap; mkdir -p "$w"
    printf '#!/bin/bash\nexec gdb -batch -nx -iex "set auto-load python-scripts off" -iex "set logging file $RE_GDB_LOG" -iex "set logging overwrite off" -iex "set logging redirect on" -iex "set logging debugredirect on" -iex "set logging enabled on" -x %s -ex run -ex "quit \\$_exitcode" --args %s "$@"\n' \
      "$here/gdb-go.gdb" "$DEBUG_BIN" > "$w/go"; chmod +x "$w/go"
    ( cd "$d/wd" && env -i HOME=/tmp/re/home PATH="$w:$BIN:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb NO_COLOR=1 \
        RE_GDB_LOG="$d/gdb.out" timeout 300 bash -c "$cmd" </dev/null >"$d/out" 2>"$d/err"; echo $? > "$d/rc"
      RE_OWN="$OWN" "$here/gdb2hook.py" < "$d/gdb.out" > "$d/hook.jsonl" )
  else
  ( cd "$d/wd" && env -i HOME=/tmp/re/home PATH="$BIN:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb NO_COLOR=1 \
      RE_HOOK_OUT="$d/hook.jsonl" "${hookenv[@]}" timeout 60 bash -c "$cmd" </dev/null >"$d/out" 2>"$d/err"; echo $? > "$d/rc" )
  fi
  fi
  FAMILY=$FAMILY REPORTERS="${REPORTERS:-}" RUNTIME="${RUNTIME:-}" PRINT_PREFIX="${PRINT_PREFIX:-}" "$here/resolve.py" "$d" "$PREFIXMAP" "$SRC" "$prog-$id" "$kinds" >> "$outf.tmp"
done < "$here/$prog.cases"
jq -c "select(.unresolved)" "$outf.tmp" > "/tmp/re/raw/$prog.unresolved"
jq -c "select(.unresolved | not)" "$outf.tmp" > "$outf"; rm -f "$outf.tmp"
echo "unresolved: $(wc -l < /tmp/re/raw/$prog.unresolved)"
jq -r '[.id, .exit, (.expected|join(" ")), .verified, (.output|split("\n")[0][0:100])] | @tsv' "$outf"
