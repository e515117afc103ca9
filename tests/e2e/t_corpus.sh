# The corpus (issue 21, cli.md): queue add, batch, status, publish.  Git
# repositories made here; fetches from file:// and from a `git daemon` on
# loopback; a server that never answers for the timeout; kill -9 and
# resume; two batches on one store; a full disk (a small tmpfs) and the
# disk budget; publish while a batch writes.

CQ="$WORK/corpus"
# Under AddressSanitizer, a leak of libgit2 1.5 in git_clone (see
# tests/corpus/lsan.supp) is not ours: full stacks so that only it is
# suppressed.  Restored at the end (the tests share one shell).
CQ_ASAN=${ASAN_OPTIONS-unset} CQ_LSAN=${LSAN_OPTIONS-unset}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TESTS/corpus/lsan.supp"
mkdir -p "$CQ/repos" "$CQ/served/acme"
CDB="$CQ/c.db"
# mkrepo NAME MESSAGE: a work tree with one Python file raising MESSAGE
mkrepo() {
	mkdir -p "$CQ/repos/$1"
	(cd "$CQ/repos/$1" && git init -q -b main . &&
		printf 'def run(x):\n    if not x:\n        raise ValueError("%s")\n    return x\n' "$2" >app.py &&
		git add app.py && git commit -qm one)
}
head_of() { git -C "$1" rev-parse HEAD; }
qstate() { # LOCATOR-SUBSTRING FIELD
	"$FL" status --db "${3:-$CDB}" --json | jq -r --arg l "$1" --arg f "$2" \
		'.repos[] | select(.locator | contains($l)) | .[$f]'
}
for n in alpha beta gamma delta; do mkrepo "$n" "$n cannot run without input"; done
git clone -q --bare "$CQ/repos/delta" "$CQ/served/acme/widget.git"
git -C "$CQ/served/acme/widget.git" config daemon.exportall true

# --- queue add ----------------------------------------------------------------
"$FL" queue add --db "$CDB" "$CQ/repos/alpha" "$CQ/repos/beta" >"$CQ/q.out" 2>&1
check "queue: two work trees queued" grep -q "queued 2 new, 0 again" "$CQ/q.out"
printf '# corpus\n\n%s\n  %s  \n' "$CQ/repos/gamma" "file://$CQ/served/acme/widget.git" >"$CQ/list.txt"
"$FL" queue add --db "$CDB" --from "$CQ/list.txt" --priority 5 >"$CQ/q.out" 2>&1
check "queue: --from skips comments and blank lines" grep -q "queued 2 new, 0 again; the queue holds 4 pending" "$CQ/q.out"
"$FL" queue add --db "$CDB" "$CQ/nosuch" >/dev/null 2>"$CQ/q.err"; rc=$?
check "queue: a path that does not exist is refused (exit 1)" [ $rc = 1 ]
check "queue: ... naming it" grep -q "nosuch: No such file or directory" "$CQ/q.err"
"$FL" queue add --db "$CDB" "ftp://example.org/x.git" >/dev/null 2>&1; rc=$?
check "queue: a URL of another scheme is a usage error" [ $rc = 2 ]
"$FL" queue add --db "$CDB" --repo a/b "$CQ/repos/alpha" "$CQ/repos/beta" >/dev/null 2>&1; rc=$?
check "queue: --repo with two locators is a usage error" [ $rc = 2 ]
"$FL" queue add --db "$CDB" >/dev/null 2>&1; rc=$?
check "queue: nothing to add is a usage error" [ $rc = 2 ]
check "queue: status lists 4 pending" [ "$("$FL" status --db "$CDB" --json | jq -c .counts)" = '{"pending":4,"running":0,"done":0,"failed":0,"skipped":0}' ]
check "queue: pending by priority first" [ "$("$FL" status --db "$CDB" --json | jq -r '.repos[0].priority')" = 5 ]

# --- batch: scans everything, from work trees and a file:// URL ---------------
"$FL" batch --db "$CDB" --jobs 2 --json >"$CQ/b.json" 2>"$CQ/b.err"; rc=$?
check "batch: exits 0" [ $rc = 0 ]
check "batch: 4 done" [ "$(jq .done "$CQ/b.json")" = 4 ]
check "batch: status says 4 done" [ "$("$FL" status --db "$CDB" --json | jq .counts.done)" = 4 ]
check "batch: each repository's commit recorded" [ "$(qstate /alpha analyzedSha)" = "$(head_of "$CQ/repos/alpha")" ]
check "batch: the file:// clone's records are local/widget's" \
	bash -c "'$FL' list --db '$CDB' --repo local/widget | grep -q 'delta cannot run'"
check "batch: the clone folder is removed" bash -c "[ -z \"\$(ls -A '$CQ/faultline-batch' 2>/dev/null)\" ]"
check "batch: a record per repository, found by explain" \
	bash -c "'$FL' explain --db '$CDB' 'ValueError: gamma cannot run without input' | grep -q app.py"

# --- unchanged HEADs are skipped; a new commit is scanned --------------------
(cd "$CQ/repos/beta" && sed -i 's/beta cannot run/beta refuses to run/' app.py && git commit -qam two)
"$FL" queue add --db "$CDB" "$CQ/repos/alpha" "$CQ/repos/beta" "$CQ/repos/gamma" \
	"file://$CQ/served/acme/widget.git" >/dev/null
t0=$(date +%s%N)
"$FL" batch --db "$CDB" --json >"$CQ/b.json" 2>"$CQ/b.err"
t1=$(date +%s%N)
check "batch: unchanged repositories skipped" [ "$(jq .skipped "$CQ/b.json")" = 3 ]
check "batch: the changed one scanned again" [ "$(jq .done "$CQ/b.json")" = 1 ]
check "batch: the new message is in the store" bash -c "'$FL' list --db '$CDB' | grep -q 'beta refuses to run'"
check "batch: skipping takes milliseconds (4 rows in under 2 s)" [ $(((t1 - t0) / 1000000)) -lt 2000 ]
check "batch: a skipped row says skipped" [ "$(qstate /alpha state)" = skipped ]

# --- fetch from a git daemon on loopback ----------------------------------------
GPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
git daemon --reuseaddr --listen=127.0.0.1 --port="$GPORT" --base-path="$CQ/served" \
	--export-all "$CQ/served" 2>"$CQ/daemon.log" &
DPID=$!
for _ in $(seq 1 50); do git ls-remote "git://127.0.0.1:$GPORT/acme/widget.git" >/dev/null 2>&1 && break; sleep 0.1; done
"$FL" queue add --db "$CDB" "git://127.0.0.1:$GPORT/acme/widget.git" >/dev/null
"$FL" batch --db "$CDB" --json >"$CQ/b.json" 2>"$CQ/b.err"; rc=$?
check "batch: fetch from git daemon done" [ "$(jq .done "$CQ/b.json")" = 1 ]
check "batch: named owner/name after the URL" bash -c "'$FL' list --db '$CDB' --repo acme/widget | grep -q 'delta cannot run'"
check "batch: the git:// repository's commit" [ "$(qstate "$GPORT" analyzedSha)" = "$(head_of "$CQ/served/acme/widget.git")" ]
"$FL" queue add --db "$CDB" "git://127.0.0.1:$GPORT/acme/widget.git" >/dev/null
"$FL" batch --db "$CDB" --json >"$CQ/b.json" 2>"$CQ/b.err"
check "batch: an unchanged remote is skipped without a fetch" [ "$(jq .skipped "$CQ/b.json")" = 1 ]
kill $DPID 2>/dev/null; wait $DPID 2>/dev/null

# --- a server that never answers: the timeout kills the run, twice, then failed ---
HDB="$CQ/h.db"
python3 "$TESTS/corpus/hang_server.py" --port-file "$CQ/hang.port" &
HPID=$!
for _ in $(seq 1 50); do [ -s "$CQ/hang.port" ] && break; sleep 0.1; done
HPORT=$(cat "$CQ/hang.port")
"$FL" queue add --db "$HDB" "git://127.0.0.1:$HPORT/x/hang.git" "$CQ/repos/alpha" >/dev/null
t0=$(date +%s)
# (3 s: the small repository beside it must scan within the limit even
# under ASan on a loaded host, where 1 s was seen to kill it too)
"$FL" batch --db "$HDB" --timeout 3 --json >"$CQ/b.json" 2>"$CQ/b.err"; rc=$?
t1=$(date +%s)
check "batch: a failed repository makes exit 1" [ $rc = 1 ]
check "batch: the run went on (the other one done)" [ "$(jq .done "$CQ/b.json")" = 1 ]
check "batch: hung fetch failed after 2 attempts" [ "$(qstate hang.git state "$HDB")/$(qstate hang.git attempts "$HDB")" = failed/2 ]
check "batch: its error says it timed out, and where" \
	bash -c "'$FL' status --db '$HDB' | grep -q 'timed out after 3 s while reading its commit'"
check "batch: the timeouts took about 6 s, not a hang ($((t1 - t0)) s)" [ $((t1 - t0)) -le 15 ]
check "batch: no worker left behind" bash -c "! pgrep -f '[f]aultline batch --one' >/dev/null"

# --- kill -9 in the middle, resume --------------------------------------------------
KDB="$CQ/k.db"
"$FL" queue add --db "$KDB" --priority 9 "git://127.0.0.1:$HPORT/acme/widget.git" >/dev/null
"$FL" queue add --db "$KDB" "$CQ/repos/alpha" "$CQ/repos/gamma" >/dev/null
"$FL" batch --db "$KDB" --timeout 60 >/dev/null 2>&1 &
BPID=$!
for _ in $(seq 1 50); do [ "$(qstate widget.git state "$KDB")" = running ] && break; sleep 0.1; done
sleep 0.3
check "kill -9: a worker is fetching when the batch is killed" bash -c "pgrep -f '[f]aultline batch --one' >/dev/null"
kill -9 $BPID; wait $BPID 2>/dev/null
sleep 0.3
check "kill -9: the worker died with its batch" bash -c "! pgrep -f '[f]aultline batch --one' >/dev/null"
check "kill -9: the row in flight is left running" [ "$(qstate widget.git state "$KDB")" = running ]
check "kill -9: status says its batch is gone" bash -c "'$FL' status --db '$KDB' | grep -q 'which is gone'"
# the same address now answers: a git daemon where the hanging server was
kill $HPID 2>/dev/null; wait $HPID 2>/dev/null
git daemon --reuseaddr --listen=127.0.0.1 --port="$HPORT" --base-path="$CQ/served" \
	--export-all "$CQ/served" 2>"$CQ/daemon2.log" &
DPID=$!
for _ in $(seq 1 50); do git ls-remote "git://127.0.0.1:$HPORT/acme/widget.git" >/dev/null 2>&1 && break; sleep 0.1; done
"$FL" batch --db "$KDB" --json >"$CQ/b.json" 2>"$CQ/b.err"; rc=$?
check "resume: the dead batch's row taken back" [ "$(jq .reclaimed "$CQ/b.json")" = 1 ]
check "resume: everything done, nothing lost" [ "$("$FL" status --db "$KDB" --json | jq -c .counts)" = '{"pending":0,"running":0,"done":3,"failed":0,"skipped":0}' ]
check "resume: the killed run was not counted as an attempt" [ "$(qstate widget.git attempts "$KDB")" = 0 ]
check "resume: each repository scanned once" \
	[ "$(sqlite3 "$KDB" "SELECT max(n) FROM (SELECT count(*) n FROM scans WHERE outcome = 'ok' GROUP BY repo)")" = 1 ]
kill $DPID 2>/dev/null; wait $DPID 2>/dev/null

# --- SIGTERM: the rows in flight go back to pending --------------------------------
python3 "$TESTS/corpus/hang_server.py" --port-file "$CQ/hang2.port" &
HPID=$!
for _ in $(seq 1 50); do [ -s "$CQ/hang2.port" ] && break; sleep 0.1; done
TDB="$CQ/t.db"
"$FL" queue add --db "$TDB" "git://127.0.0.1:$(cat "$CQ/hang2.port")/x/y.git" >/dev/null
"$FL" batch --db "$TDB" --timeout 60 >/dev/null 2>"$CQ/t.err" &
BPID=$!
for _ in $(seq 1 50); do [ "$(qstate y.git state "$TDB")" = running ] && break; sleep 0.1; done
kill -TERM $BPID; wait $BPID; rc=$?
check "SIGTERM: batch exits 130" [ $rc = 130 ]
check "SIGTERM: the row is pending again, no attempt counted" [ "$(qstate y.git state "$TDB")/$(qstate y.git attempts "$TDB")" = pending/0 ]
kill $HPID 2>/dev/null; wait $HPID 2>/dev/null

# --- two batches on one store: no repository scanned twice ---------------------
for n in $(seq 1 8); do mkrepo "many$n" "many$n has no input"; done
MDB="$CQ/m.db"
"$FL" queue add --db "$MDB" "$CQ"/repos/many* >/dev/null
"$FL" batch --db "$MDB" --json >"$CQ/m1.json" 2>&1 &
P1=$!
"$FL" batch --db "$MDB" --json >"$CQ/m2.json" 2>&1 &
P2=$!
wait $P1 $P2
check "two batches: 8 done between them" [ $(($(jq .done "$CQ/m1.json") + $(jq .done "$CQ/m2.json"))) = 8 ]
check "two batches: no repository scanned twice" \
	[ "$(sqlite3 "$MDB" "SELECT count(*), count(DISTINCT repo) FROM scans WHERE outcome = 'ok'")" = "8|8" ]
check "two batches: every record there" [ "$("$FL" list --db "$MDB" | wc -l)" = 8 ]

# --- kill -9 at several moments of a batch, then resume: all done, once each --------
for d in 0.05 0.15 0.3 0.5; do
	KMDB="$CQ/km$d.db"
	"$FL" queue add --db "$KMDB" "$CQ"/repos/many* >/dev/null
	"$FL" batch --db "$KMDB" --jobs 2 >/dev/null 2>&1 &
	BPID=$!
	sleep "$d"
	kill -9 $BPID 2>/dev/null; wait $BPID 2>/dev/null
	"$FL" batch --db "$KMDB" --json >"$CQ/km.json" 2>&1
	[ "$("$FL" status --db "$KMDB" --json | jq -c .counts)" = '{"pending":0,"running":0,"done":8,"failed":0,"skipped":0}' ] &&
		[ "$("$FL" list --db "$KMDB" | wc -l)" = 8 ] &&
		[ "$(sqlite3 "$KMDB" "SELECT count(DISTINCT repo) FROM scans WHERE outcome = 'ok'")" = 8 ]
	check "kill -9 after ${d}s: resumed, every repository done with its records" [ $? = 0 ]
done

# --- a full disk during a fetch (a 64 KB tmpfs), and the disk budget ----------------
(cd "$CQ/repos" && mkdir big && cd big && git init -q -b main . &&
	head -c 400000 /dev/urandom | base64 >blob.txt &&
	printf 'def f():\n    raise RuntimeError("big one")\n' >m.py && git add . && git commit -qm big)
FDB="$CQ/f.db"
"$FL" queue add --db "$FDB" "file://$CQ/repos/big" >/dev/null
mkdir -p "$CQ/small"
if mount -t tmpfs -o size=64k tmpfs "$CQ/small" 2>/dev/null; then
	"$FL" batch --db "$FDB" --workdir "$CQ/small" --json >"$CQ/b.json" 2>"$CQ/b.err"; rc=$?
	check "full disk: the fetch fails (exit 1)" [ $rc = 1 ]
	check "full disk: the error names it" bash -c "'$FL' status --db '$FDB' | grep -qi 'no space left'"
	check "full disk: the work folder is emptied" [ -z "$(ls -A "$CQ/small")" ]
	umount "$CQ/small"
else
	echo "skip - full disk: tmpfs cannot be mounted here (not root?)"
fi
"$FL" queue add --db "$FDB" "file://$CQ/repos/big" >/dev/null
"$FL" batch --db "$FDB" --disk-budget 0.1 --json >"$CQ/b.json" 2>"$CQ/b.err"; rc=$?
check "disk budget: a fetch over it fails" [ $rc = 1 ]
check "disk budget: the error names the budget" bash -c "'$FL' status --db '$FDB' | grep -q 'over the disk budget of 0.1 MB'"
"$FL" queue add --db "$FDB" "file://$CQ/repos/big" >/dev/null
"$FL" batch --db "$FDB" --disk-budget 100 --json >"$CQ/b.json" 2>"$CQ/b.err"
check "disk budget: within it the fetch is done" [ "$(jq .done "$CQ/b.json")" = 1 ]
"$FL" batch --db "$FDB" --jobs 0 >/dev/null 2>&1; rc=$?
check "batch: --jobs 0 is a usage error" [ $rc = 2 ]

# --- publish: atomic, while a batch writes ----------------------------------------------
PUB="$CQ/pub"
"$FL" publish --db "$CDB" "$PUB" >"$CQ/p.out" 2>&1; rc=$?
check "publish: exits 0" [ $rc = 0 ]
check "publish: the site and its data set" bash -c "[ -s '$PUB/index.html' ] && [ -s '$PUB/data/manifest.json' ]"
V1=$(jq -r .datasetVersion "$PUB/data/manifest.json")
check "publish: the data set verifies (import)" bash -c "'$FL' import --db '$CQ/imp.db' '$PUB/data' >/dev/null"
for n in $(seq 1 6); do mkrepo "late$n" "late$n arrived during publish"; done
"$FL" queue add --db "$CDB" "$CQ"/repos/late* >/dev/null
# a reader that must always find a whole publication
( while [ ! -e "$CQ/stop-reader" ]; do
	if [ ! -s "$PUB/index.html" ] || [ ! -s "$PUB/data/manifest.json" ]; then echo missing >>"$CQ/reader.log"; fi
  done ) &
RPID=$!
"$FL" batch --db "$CDB" >/dev/null 2>&1 &
BPID=$!
okp=0
for _ in 1 2 3; do "$FL" publish --db "$CDB" "$PUB" >/dev/null 2>>"$CQ/p.err" && okp=$((okp + 1)); done
wait $BPID
"$FL" publish --db "$CDB" "$PUB" >/dev/null 2>>"$CQ/p.err" && okp=$((okp + 1))
touch "$CQ/stop-reader"; wait $RPID
check "publish: every publish while the batch wrote succeeded" [ $okp = 4 ]
check "publish: a reader never saw a missing page or manifest" [ ! -e "$CQ/reader.log" ]
check "publish: the last one has every repository" \
	[ "$(jq length "$PUB/data/repos.json")" = "$("$FL" status --db "$CDB" --json | jq '[.repos[] | .repo] | unique | length')" ]
check "publish: its version is newer" [ "$(jq -r .datasetVersion "$PUB/data/manifest.json")" \> "$V1" ]
rm -rf "$CQ/imp.db"*
check "publish: the last data set verifies" bash -c "'$FL' import --db '$CQ/imp.db' '$PUB/data' >/dev/null"
check "publish: nothing left beside it" bash -c "! ls -d '$PUB'.tmp-* '$PUB'.bak-* 2>/dev/null | grep -q ."
mkdir -p "$CQ/notpub" && echo x >"$CQ/notpub/keep.txt"
"$FL" publish --db "$CDB" "$CQ/notpub" >/dev/null 2>"$CQ/p.err"; rc=$?
check "publish: refuses a folder that is not a publication" bash -c "[ $rc = 1 ] && [ -s '$CQ/notpub/keep.txt' ] && grep -q 'not a publication' '$CQ/p.err'"

if [ "$CQ_ASAN" = unset ]; then unset ASAN_OPTIONS; else export ASAN_OPTIONS="$CQ_ASAN"; fi
if [ "$CQ_LSAN" = unset ]; then unset LSAN_OPTIONS; else export LSAN_OPTIONS="$CQ_LSAN"; fi
