# attack suite, the store: a first scan into a new store killed by kill -9
# (a hot rollback journal left behind) and every read command after it; the
# same store in a folder nobody may write to; a foreign SQLite file given as
# --db, refused and left byte for byte as it was.

ast="$WORK/attack-store"
mkdir -p "$ast/tree"
for i in $(seq 1 800); do
	for j in $(seq 1 20); do
		printf 'def f%d_%d(x):\n    if x:\n        raise ValueError("attack %d in file %d")\n' "$i" "$j" "$j" "$i"
	done >"$ast/tree/m$i.py"
done
full=16000

# run "$@" as a user who owns nothing here (as root, file modes do not stop
# anything: nobody; otherwise the user running the tests)
as_other() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# ---- a first scan killed mid-write ---------------------------------------------------
# kill -9 after a range of delays until kills have left a journal (or WAL);
# after each, every read command works and shows nothing or the whole scan
# (the longer delays for a slow build or a loaded host: a sanitizer
# build's scan may write nothing in its first second)
journals=0
reads_ok=1
kept_hot=""
for delay in 0.02 0.05 0.08 0.12 0.17 0.25 0.35 0.5 0.7 1.0 1.5 2.2 3.2 4.5; do
	db="$ast/k.db"
	rm -rf "$db" "$db-journal" "$db-wal" "$db-shm" "$db.lookup"
	"$FL" scan "$ast/tree" --repo acme/attack --db "$db" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# a transaction under way: something written to the store, and the
	# journal (or WAL) that undoes (or holds) it
	if [ ! -s "$db" ] || { [ ! -s "$db-journal" ] && [ ! -s "$db-wal" ]; }; then
		continue
	fi
	journals=$((journals + 1))
	[ -n "${FL_DEBUG_KILLS:-}" ] && echo "    kill after ${delay}s left $(ls -s "$db"* | tr "\n" " ")"
	# a copy of the store as the kill left it, for the read-only folder
	if [ -z "$kept_hot" ] && [ -s "$db-journal" ]; then
		mkdir -p "$ast/hot"
		cp "$db" "$db-journal" "$ast/hot/"
		kept_hot="$ast/hot/k.db"
	fi
	"$FL" list --db "$db" >"$ast/o.txt" 2>"$ast/e.txt"
	rc=$?
	n=$(wc -l <"$ast/o.txt")
	if [ "$rc" -ne 0 ] || [ -s "$ast/e.txt" ] || { [ "$n" -ne 0 ] && [ "$n" -ne "$full" ]; }; then
		reads_ok=0
		echo "    kill after ${delay}s: list exit $rc, $n lines: $(head -c 300 "$ast/e.txt")"
	fi
	"$FL" list --db "$db" --json >/dev/null 2>"$ast/e.txt" || { reads_ok=0; echo "    list --json: $(cat "$ast/e.txt")"; }
	"$FL" explain --db "$db" "attack 1 in file 1" >/dev/null 2>"$ast/e.txt"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then reads_ok=0; echo "    explain exit $rc: $(cat "$ast/e.txt")"; fi
	printf 'ValueError: attack 2 in file 3\n' >"$ast/log.txt"
	"$FL" grep-log --db "$db" "$ast/log.txt" >/dev/null 2>"$ast/e.txt" || { reads_ok=0; echo "    grep-log: $(cat "$ast/e.txt")"; }
	rm -rf "$ast/export"
	"$FL" export --db "$db" "$ast/export" >/dev/null 2>"$ast/e.txt" || { reads_ok=0; echo "    export: $(cat "$ast/e.txt")"; }
	"$FL" show --db "$db" ffffffffffffffff >/dev/null 2>"$ast/e.txt"
	grep -q "no record" "$ast/e.txt" || { reads_ok=0; echo "    show: $(cat "$ast/e.txt")"; }
	# and the next scan completes it
	"$FL" scan "$ast/tree" --repo acme/attack --db "$db" >/dev/null 2>"$ast/e.txt" || { reads_ok=0; echo "    rescan: $(cat "$ast/e.txt")"; }
	[ "$("$FL" list --db "$db" | wc -l)" -eq "$full" ] || { reads_ok=0; echo "    rescan after ${delay}s: not whole"; }
	[ "$journals" -ge 3 ] && break
done
check "kill -9 of a first scan left an unfinished transaction ($journals times)" [ "$journals" -ge 1 ]
check "after a killed first scan every read command works (empty or whole, no 'readonly' error)" [ "$reads_ok" -eq 1 ]

# the same store, its folder (and file) not writable by the reader: nothing
# can roll the journal back, and the error says so
if [ -n "$kept_hot" ]; then
	ro=$(mktemp -d /tmp/fl-e2e-ro-XXXXXX)
	cp "$kept_hot" "$kept_hot-journal" "$ro/"
	chmod 444 "$ro/k.db" "$ro/k.db-journal"
	chmod 555 "$ro"
	sum_before=$(cat "$ro/k.db" "$ro/k.db-journal" | sha256sum)
	as_other "$FL" list --db "$ro/k.db" >"$ast/o.txt" 2>"$ast/e.txt"
	rc=$?
	chmod 755 "$ro"
	check "read-only folder, unfinished transaction: list exits 1" [ "$rc" -eq 1 ]
	check "read-only folder: the error names the hot journal and the folder" \
		grep -q "^faultline: store $ro/k.db has an unfinished transaction (hot journal $ro/k.db-journal) and its folder is not writable" "$ast/e.txt"
	check "read-only folder: not the misleading 'not a faultline store'" \
		bash -c "! grep -q 'not a faultline store\|readonly database' '$ast/e.txt'"
	check "read-only folder: store and journal untouched" \
		[ "$(cat "$ro/k.db" "$ro/k.db-journal" | sha256sum)" = "$sum_before" ]
	# the folder writable, the file not: says that
	chown -R 65534 "$ro" 2>/dev/null
	chmod 755 "$ro"
	as_other "$FL" list --db "$ro/k.db" >"$ast/o.txt" 2>"$ast/e.txt"
	rc=$?
	check "read-only file, unfinished transaction: the error says the file is not writable" \
		bash -c "[ $rc -eq 1 ] && grep -q 'unfinished transaction.*the file is not writable' '$ast/e.txt'"
	# once someone who may write reads it, the journal is rolled back
	chmod 644 "$ro/k.db" "$ro/k.db-journal"
	as_other "$FL" list --db "$ro/k.db" >"$ast/o.txt" 2>"$ast/e.txt"
	rc=$?
	check "writable again: list rolls the journal back and works" \
		bash -c "[ $rc -eq 0 ] && [ ! -s '$ast/e.txt' ] && [ ! -e '$ro/k.db-journal' ]"
	rm -rf "$ro"
else
	bad "read-only folder: no kill left a journal to test with"
fi

# ---- a foreign SQLite file ------------------------------------------------------------
foreign="$ast/foreign.db"
sqlite3 "$foreign" "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine');"
sum_before=$(sha256sum <"$foreign")
"$FL" scan "$ast/tree" --repo acme/attack --db "$foreign" >/dev/null 2>"$ast/e.txt"
rc=$?
check "foreign SQLite file: scan refuses it (exit 1)" [ "$rc" -eq 1 ]
check "foreign SQLite file: the error says it is not a store" grep -q "^faultline: $foreign is an SQLite database but not a faultline store" "$ast/e.txt"
"$FL" list --db "$foreign" >/dev/null 2>"$ast/e.txt"
rc=$?
check "foreign SQLite file: list refuses it (exit 1)" [ "$rc" -eq 1 ]
"$FL" import --db "$foreign" "$ast/none" >/dev/null 2>&1
check "foreign SQLite file: byte-identical after the refusals" [ "$(sha256sum <"$foreign")" = "$sum_before" ]
check "foreign SQLite file: not switched to WAL, no -wal or -journal left" \
	bash -c "[ \"\$(sqlite3 '$foreign' 'PRAGMA journal_mode')\" = delete ] && [ ! -e '$foreign-wal' ] && [ ! -e '$foreign-journal' ]"
# an SQLite file with no table yet but another program's application_id
sqlite3 "$ast/other-app.db" "PRAGMA application_id = 1234; PRAGMA user_version = 7;"
sum_before=$(sha256sum <"$ast/other-app.db")
"$FL" scan "$ast/tree" --repo acme/attack --db "$ast/other-app.db" >/dev/null 2>"$ast/e.txt"
rc=$?
check "another program's empty SQLite file: refused (exit 1), unchanged" \
	bash -c "[ $rc -eq 1 ] && grep -q 'not a faultline store' '$ast/e.txt' && [ \"\$(sha256sum <'$ast/other-app.db')\" = '$sum_before' ]"
# a store removed and made again at the same path starts its change
# counter again: the lookup cache left beside it is another store's
mkdir -p "$ast/again/a" "$ast/again/b"
printf 'def f():\n    raise ValueError("the alpha registry is sealed")\n' >"$ast/again/a/m.py"
printf 'def g():\n    raise ValueError("the beta registry is sealed")\n' >"$ast/again/b/m.py"
"$FL" scan "$ast/again/a" --repo acme/a --db "$ast/again/s.db" >/dev/null 2>&1
echo 'ValueError: the alpha registry is sealed' | "$FL" explain --db "$ast/again/s.db" - >/dev/null 2>&1
rm -f "$ast/again/s.db" "$ast/again/s.db-wal" "$ast/again/s.db-shm"
"$FL" scan "$ast/again/b" --repo acme/b --db "$ast/again/s.db" >/dev/null 2>&1
check "a store made again at the same path: the old lookup cache is not used" \
	bash -c "echo 'ValueError: the beta registry is sealed' | '$FL' explain --db '$ast/again/s.db' --json - | jq -e '.matches[0].repo == \"acme/b\"' >/dev/null"
