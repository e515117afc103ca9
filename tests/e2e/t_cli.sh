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
