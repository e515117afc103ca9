# CLI conventions of cli.md: --version, --help everywhere, usage errors
# exit 2 with "faultline: ..." on stderr, stdout only for results.

out=$("$FL" --version); check "--version prints the version" [ "$out" = "faultline 0.1.0" ]
"$FL" --help >"$WORK/help.txt"; check "--help exits 0" [ $? -eq 0 ]
check "--help lists scan" grep -q "scan" "$WORK/help.txt"
for c in scan list show; do
	"$FL" "$c" --help >"$WORK/h.txt" 2>&1
	check "$c --help exits 0 with usage" grep -q "usage: faultline $c" "$WORK/h.txt"
done
"$FL" frobnicate >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "unknown command exits 2" [ $rc -eq 2 ]
check "unknown command: stderr names it" grep -q "^faultline: 'frobnicate'" "$WORK/e.txt"
check "unknown command: stdout empty" [ ! -s "$WORK/o.txt" ]
"$FL" list --bogus >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "bad flag exits 2" [ $rc -eq 2 ]
check "bad flag is named" grep -q "unknown option '--bogus'" "$WORK/e.txt"
"$FL" scan >/dev/null 2>"$WORK/e.txt"; rc=$?
check "scan without a path exits 2" [ $rc -eq 2 ]
"$FL" scan --threads 0 . >/dev/null 2>&1; rc=$?
check "scan --threads 0 is a usage error" [ $rc -eq 2 ]
"$FL" scan "$WORK/does-not-exist" --db "$WORK/x.db" >/dev/null 2>"$WORK/e.txt"; rc=$?
check "scan of a missing folder exits 1" [ $rc -eq 1 ]
check "scan of a missing folder names it" grep -q "does-not-exist" "$WORK/e.txt"
"$FL" list --db "$WORK/none.db" >/dev/null 2>"$WORK/e.txt"; rc=$?
check "list on a missing store exits 1" [ $rc -eq 1 ]
printf 'not a database, just text\n%.0s' $(seq 1 100) >"$WORK/junk.db"
"$FL" list --db "$WORK/junk.db" >/dev/null 2>"$WORK/e.txt"; rc=$?
check "list on a non-store file exits 1" [ $rc -eq 1 ]
check "non-store file: clear message" grep -q "not a faultline store" "$WORK/e.txt"
"$FL" show --db "$WORK/x.db" ffffffffffffffff >/dev/null 2>"$WORK/e.txt"; rc=$?
check "show of an unknown id exits 1" [ $rc -eq 1 ]
check "show of an unknown id says so" grep -q "no record" "$WORK/e.txt"

# issue 22: real help for every subcommand, the same from `help CMD`: the
# synopsis, each option with its meaning and default, and examples
for c in scan list show explain grep-log export import site serve mcp enrich; do
	"$FL" "$c" --help >"$WORK/h.txt" 2>"$WORK/he.txt"; rc=$?
	check "$c --help: exit 0, nothing on stderr" bash -c "[ $rc -eq 0 ] && [ ! -s '$WORK/he.txt' ]"
	check "$c --help: synopsis, options and examples" bash -c "grep -q '^usage: faultline $c' '$WORK/h.txt' &&
		grep -q '^options:' '$WORK/h.txt' && grep -q '^examples:' '$WORK/h.txt' &&
		[ \$(grep -c '^  faultline $c\\|^  .*| faultline $c\\|^  {' '$WORK/h.txt') -ge 2 ]"
	# every option of the synopsis is explained, each with its default or
	# what it needs
	for o in $(sed -n '/^usage:/,/^$/p' "$WORK/h.txt" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		check "$c --help: $o explained" grep -q "^  $o\\b" "$WORK/h.txt"
	done
	check "$c --help: each option says its default (or what it needs)" bash -c "sed -n '/^options:/,/^examples:/p' '$WORK/h.txt' |
		awk '/^  -h, --help/ { exit } /^  --/ { if (o && !d) bad = 1; o = 1; d = 0 } /default|needs --/ { d = 1 }
		     END { if (o && !d) bad = 1; exit bad }'"
	"$FL" help "$c" >"$WORK/h2.txt" 2>&1; rc=$?
	check "help $c prints the same as $c --help" bash -c "[ $rc -eq 0 ] && cmp -s '$WORK/h.txt' '$WORK/h2.txt'"
	check "$c --help: lines fit 80 columns (prose wrapped)" bash -c "! sed '/^examples:/,\$d' '$WORK/h.txt' | grep -q '.\{81\\}'"
done
"$FL" help >"$WORK/h.txt"; rc=$?
check "help lists every command with one line" bash -c "[ $rc -eq 0 ] && [ \$(grep -cE '^  (scan|list|show|explain|grep-log|export|import|site|serve|mcp) ' '$WORK/h.txt') -eq 10 ]"
check "help says how to get a command's help" grep -q "faultline help <command>" "$WORK/h.txt"
"$FL" help --help >"$WORK/h2.txt"; rc=$?
check "help --help: the same list" bash -c "[ $rc -eq 0 ] && cmp -s '$WORK/h.txt' '$WORK/h2.txt'"

# a mistyped command: the closest one is suggested
"$FL" scna >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "mistyped command: exit 2, did you mean scan" bash -c "[ $rc -eq 2 ] && [ ! -s '$WORK/o.txt' ] &&
	grep -qx \"faultline: 'scna' is not a command; did you mean \\\`scan\\\`?\" '$WORK/e.txt'"
"$FL" grep-lgo x >/dev/null 2>"$WORK/e.txt"; rc=$?
check "mistyped command: grep-lgo -> grep-log" bash -c "[ $rc -eq 2 ] && grep -q 'did you mean \`grep-log\`' '$WORK/e.txt'"
"$FL" exp >/dev/null 2>"$WORK/e.txt"; rc=$?
check "an ambiguous start names both" bash -c "[ $rc -eq 2 ] && grep -q '\`explain\` or \`export\`' '$WORK/e.txt'"
"$FL" frobnicate 2>"$WORK/e.txt"
check "a word far from every command: no suggestion" bash -c "! grep -q 'did you mean' '$WORK/e.txt'"
"$FL" help scna >/dev/null 2>"$WORK/e.txt"; rc=$?
check "help of a mistyped command: exit 2, did you mean" bash -c "[ $rc -eq 2 ] && grep -q 'did you mean \`scan\`' '$WORK/e.txt'"
"$FL" list --jsno >/dev/null 2>"$WORK/e.txt"; rc=$?
check "mistyped option: exit 2, did you mean --json" bash -c "[ $rc -eq 2 ] && grep -q \"unknown option '--jsno'; did you mean \\\`--json\\\`\" '$WORK/e.txt'"

# list: one line per record, the repository when more than one is listed
cl="$WORK/cli-list"
mkdir -p "$cl/a" "$cl/b"
printf 'def f(x):\n    if x:\n        raise ValueError("first line of it\\nsecond line of it")\n    raise KeyError("no such key in the table")\n' >"$cl/a/x.py"
printf 'def g(y):\n    raise RuntimeError("the socket could not be opened")\n' >"$cl/b/y.py"
"$FL" scan "$cl/a" --repo acme/a --db "$cl/s.db" >/dev/null 2>&1
"$FL" list --db "$cl/s.db" >"$cl/one.txt"
check "list of one repository: one line per record, no repository column" bash -c "[ \$(wc -l <'$cl/one.txt') -eq 2 ] && ! grep -q 'acme/a' '$cl/one.txt'"
check "list: a multi-line message on one line, newline as \\n" grep -qF 'first line of it\nsecond line of it' "$cl/one.txt"
"$FL" scan "$cl/b" --repo acme/b --db "$cl/s.db" >/dev/null 2>&1
"$FL" list --db "$cl/s.db" >"$cl/two.txt"
check "list of two repositories: one line per record, each names its repository" bash -c "[ \$(wc -l <'$cl/two.txt') -eq 3 ] &&
	[ \$(grep -c '^[0-9a-f]\{16\}  acme/a  x.py:' '$cl/two.txt') -eq 2 ] && [ \$(grep -c '^[0-9a-f]\{16\}  acme/b  y.py:2 ' '$cl/two.txt') -eq 1 ]"
"$FL" list --db "$cl/s.db" --repo acme/b >"$cl/b.txt"
check "list --repo: one repository, not named" bash -c "[ \$(wc -l <'$cl/b.txt') -eq 1 ] && ! grep -q acme/b '$cl/b.txt'"
"$FL" list --db "$cl/s.db" --repo acme/zzz >"$cl/o.txt" 2>"$cl/e.txt"; rc=$?
check "list --repo of a repository not in the store: exit 1, says so" bash -c "[ $rc -eq 1 ] && [ ! -s '$cl/o.txt' ] &&
	grep -q \"^faultline: list: repository 'acme/zzz' is not in the store\" '$cl/e.txt'"
"$FL" list --db "$cl/s.db" --repo acme/bb >/dev/null 2>"$cl/e.txt"
check "list --repo of a near name: did you mean" grep -q 'did you mean `acme/b`' "$cl/e.txt"

# wrong usage is exit 2 everywhere
usage2() { # NAME ARGS...: exit 2, "faultline: " on stderr, nothing on stdout
	local n=$1; shift
	"$FL" "$@" >"$WORK/o.txt" 2>"$WORK/e.txt"; local rc=$?
	check "usage error exits 2: $n" bash -c "[ $rc -eq 2 ] && [ ! -s '$WORK/o.txt' ] && grep -q '^faultline: ' '$WORK/e.txt'"
}
usage2 "scan --repo notaslash" scan "$cl/a" --repo notaslash --db "$cl/s.db"
usage2 "scan --repo a/b/c" scan "$cl/a" --repo a/b/c --db "$cl/s.db"
usage2 "scan --repo '/x'" scan "$cl/a" --repo /x --db "$cl/s.db"
usage2 "scan --repo 'a b/c'" scan "$cl/a" --repo "a b/c" --db "$cl/s.db"
usage2 "list --repo notaslash" list --repo notaslash --db "$cl/s.db"
usage2 "explain --repo notaslash" explain --repo notaslash --db "$cl/s.db" "no such key"
usage2 "grep-log --repo notaslash" grep-log --repo notaslash --db "$cl/s.db" -
usage2 "explain --limit x" explain --limit x --db "$cl/s.db" "no such key"
usage2 "an empty option value" list --db ""
usage2 "scan --exclude ''" scan "$cl/a" --exclude "" --db "$cl/s.db"
usage2 "serve --listen without a port" serve --listen localhost --db "$cl/s.db"
usage2 "serve --listen 1.2.3.4:99999" serve --listen 1.2.3.4:99999 --db "$cl/s.db"
usage2 "serve --threads 0" serve --threads 0 --db "$cl/s.db"
usage2 "mcp --data-url ftp://" mcp --data-url ftp://example.org/data
usage2 "mcp --ttl without --data-url" mcp --ttl 60 --db "$cl/s.db"
usage2 "site --base-url x" site --base-url x "$cl/site"
usage2 "export without a folder" export --db "$cl/s.db"
usage2 "show with two records" show --db "$cl/s.db" a b
for c in scan show grep-log export import site; do
	usage2 "$c of an empty argument" $c --db "$cl/s.db" ""
done
check "scan --repo notaslash: the store is untouched" bash -c "[ \$(\"$FL\" list --db '$cl/s.db' | wc -l) -eq 3 ]"
: | "$FL" explain --db "$cl/s.db" - >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "explain of empty stdin: usage error (exit 2), says the text is empty" bash -c "[ $rc -eq 2 ] && [ ! -s '$WORK/o.txt' ] &&
	grep -q '^faultline: explain: the text to look up is empty' '$WORK/e.txt'"
printf ' \n\t\n' | "$FL" explain --db "$cl/s.db" - >/dev/null 2>&1; rc=$?
check "explain of blank stdin: exit 2" [ $rc -eq 2 ]
usage2 "explain ''" explain --db "$cl/s.db" ""
"$FL" explain --db "$cl/s.db" --repo nobody/none "no such key in the table" >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "explain --repo nobody/none: exit 1, not in the store" bash -c "[ $rc -eq 1 ] && [ ! -s '$WORK/o.txt' ] &&
	grep -q \"^faultline: explain: repository 'nobody/none' is not in the store (the store holds acme/a, acme/b)\" '$WORK/e.txt'"
echo 'KeyError: no such key in the table' | "$FL" grep-log --db "$cl/s.db" --repo nobody/none - >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "grep-log --repo nobody/none: exit 1, not in the store" bash -c "[ $rc -eq 1 ] && grep -q \"repository 'nobody/none' is not in the store\" '$WORK/e.txt'"
"$FL" explain --db "$cl/s.db" --repo acme/a "no such key in the table" >/dev/null 2>&1; rc=$?
check "explain --repo of a held repository still answers" [ $rc -eq 0 ]
