# history: `scan --history` on a repository made here, whose tagged
# versions make messages appear, move, change, disappear and come back:
# the versions scanned, each record's runs of versions and its line in
# each, the blobs scanned per version, a removed message found with its
# last version, `explain --at` and a version named in the text, bad input,
# and a history scan killed midway.

H="$WORK/hist"
mkdir -p "$H/src"
git -C "$H" init -q -b main
git -C "$H" remote add origin https://github.com/acme/hist
hcommit() { git -C "$H" add -A && git -C "$H" commit -qm "$1"; }

# v1.0.0: A at line 3, B at line 6; util.py never changes; old.py goes later
printf 'def a(x):\n    if x:\n        raise ValueError("No rebase in progress?")\ndef b(y):\n    if y:\n        raise ValueError("could not lookup commit")\n' >"$H/src/app.py"
printf 'def u():\n    raise ValueError("util stays the same")\n' >"$H/src/util.py"
printf 'def o():\n    raise ValueError("bad object name")\n' >"$H/src/old.py"
hcommit one
git -C "$H" tag v1.0.0
# v1.1.0 (annotated): two lines on top, A and B move down two lines
printf 'import os\n\n' | cat - "$H/src/app.py" >"$H/app.tmp" && mv "$H/app.tmp" "$H/src/app.py"
cp "$H/src/app.py" "$WORK/app-v1.1.py"
hcommit two
git -C "$H" tag -a v1.1.0 -m "release 1.1.0"
# a release candidate, left out by default
printf 'raise ValueError("only in a release candidate")\n' >"$H/src/rc.py"
hcommit rc
git -C "$H" tag v1.2.0-rc1
rm "$H/src/rc.py"
# v1.2.0: A's text changes (a new record), B and old.py go
printf 'import os\n\ndef a(x):\n    if x:\n        raise ValueError("no rebase in progress")\n' >"$H/src/app.py"
rm "$H/src/old.py"
hcommit three
git -C "$H" tag v1.2.0
# v1.3.0: app.py exactly as in v1.1.0 (its blob comes back: nothing to scan)
cp "$WORK/app-v1.1.py" "$H/src/app.py"
hcommit four
git -C "$H" tag v1.3.0
# HEAD: B gone for good; the message of old.py raised in a new file
printf 'import os\n\ndef a(x):\n    if x:\n        raise ValueError("No rebase in progress?")\n' >"$H/src/app.py"
printf 'def n():\n    raise ValueError("bad object name")\n' >"$H/src/new.py"
hcommit five
# a tag that names a blob (as git's junio-gpg-pub does)
git -C "$H" tag keyblob "$(git -C "$H" hash-object -w "$H/src/util.py")"
sha() { git -C "$H" rev-parse "$1^{commit}"; }

hdb="$WORK/hist.db"
"$FL" scan "$H" --history --db "$hdb" --json >"$WORK/hist.json" 2>"$WORK/hist.err"
check "history: the scan succeeds" [ $? -eq 0 ]
check "history: the release tags in version order, then HEAD (the pre-release and the blob tag left out)" \
	[ "$(jq -c '[.versions[].name]' "$WORK/hist.json")" = '["v1.0.0","v1.1.0","v1.2.0","v1.3.0","HEAD"]' ]
check "history: each version's commit" \
	[ "$(jq -r '[.versions[].sha] | join(" ")' "$WORK/hist.json")" = "$(sha v1.0.0) $(sha v1.1.0) $(sha v1.2.0) $(sha v1.3.0) $(sha HEAD)" ]
# blobs scanned per version: all three files, then app.py, then app.py
# (old.py deleted), then none (app.py's blob of v1.1.0 came back), then
# HEAD whole (app.py, util.py, new.py)
check "history: only the changed blobs are scanned, a blob that comes back is not" \
	[ "$(jq -c '[.versions[].scanned]' "$WORK/hist.json")" = '[3,1,1,0,3]' ]
check "history: files changed per version" \
	[ "$(jq -c '[.versions[].changed]' "$WORK/hist.json")" = '[3,1,1,1,2]' ]
check "history: records per version" \
	[ "$(jq -c '[.versions[].records]' "$WORK/hist.json")" = '[4,4,2,3,3]' ]
check "history: records at HEAD and only in the past" \
	[ "$(jq -c '[.records, .recordsAtHead, .recordsOnlyInPast]' "$WORK/hist.json")" = '[6,3,3]' ]

# each record's runs: "first..last:line" per run, via explain --json
runs_of() { # TEXT [explain options...]
	local t=$1
	shift
	"$FL" explain --db "$hdb" --json "$@" "$t" |
		jq -r '.matches[0].versions.runs | map(.first + ".." + .last + ":" + (.lineNumber|tostring)) | join(" ")'
}
check "history: A moves, is gone in v1.2.0, comes back, stays (runs and lines exact)" \
	[ "$(runs_of 'No rebase in progress?')" = "v1.0.0..v1.0.0:3 v1.1.0..v1.1.0:5 v1.3.0..v1.3.0:5 HEAD..HEAD:5" ]
check "history: the changed text is a record of v1.2.0 only" \
	[ "$(runs_of 'no rebase in progress')" = "v1.2.0..v1.2.0:5" ]
check "history: B moves, is gone, comes back, and is gone at HEAD" \
	[ "$(runs_of 'could not lookup commit')" = "v1.0.0..v1.0.0:6 v1.1.0..v1.1.0:8 v1.3.0..v1.3.0:8" ]
check "history: an unchanged file is one run" \
	[ "$(runs_of 'util stays the same')" = "v1.0.0..HEAD:2" ]
check "history: the release candidate's message is nowhere" \
	[ "$("$FL" list --db "$hdb" | grep -c 'release candidate')" -eq 0 ]

# a message gone from HEAD: found, with its last version's commit
"$FL" explain --db "$hdb" --json "fatal: could not lookup commit" >"$WORK/hist-b.json"
check "history: a removed message is found, with the versions it existed in" \
	[ "$(jq -c '.matches[0].versions | [.first, .last, .atHead]' "$WORK/hist-b.json")" = '["v1.0.0","v1.3.0",false]' ]
bid=$(jq -r '.matches[0].id' "$WORK/hist-b.json")
"$FL" show --db "$hdb" --json "$bid" >"$WORK/hist-b-show.json"
check "history: a removed message's record is analyzed at the last commit that had it" \
	[ "$(jq -r '.analyzedSha' "$WORK/hist-b-show.json")" = "$(sha v1.3.0)" ]
check "history: its permalink names that commit and its line" \
	[ "$(jq -r '.githubUrl' "$WORK/hist-b-show.json")" = "https://github.com/acme/hist/blob/$(sha v1.3.0)/src/app.py#L1-L8" ]
check "history: show says in which versions it was raised" \
	bash -c "'$FL' show --db '$hdb' '$bid' | grep -qxF 'Versions  v1.0.0 - v1.1.0, v1.3.0 (no longer at the last version scanned)'"
check "history: ... and of a record at HEAD, since when" \
	bash -c "'$FL' show --db '$hdb' \"\$('$FL' explain --db '$hdb' --json 'util stays the same' | jq -r '.matches[0].id')\" | grep -qxF 'Versions  v1.0.0 - HEAD'"
printf 'starting\nfatal: could not lookup commit\n' >"$WORK/hist-gl.txt"
check "history: grep-log says in which versions a matched error was raised" \
	bash -c "'$FL' grep-log --db '$hdb' '$WORK/hist-gl.txt' | grep -qxF '       raised in v1.0.0 - v1.1.0, v1.3.0 (no longer at the last version scanned)'"
check "history: grep-log --json gives its versions" \
	[ "$("$FL" grep-log --db "$hdb" --json "$WORK/hist-gl.txt" | jq -c '.versions')" = '{"first":"v1.0.0","last":"v1.3.0","atHead":false}' ]
"$FL" explain --db "$hdb" "fatal: could not lookup commit" >"$WORK/hist-b.txt"
check "history: the readable answer says where it was raised" \
	grep -qF "raised in v1.0.0 - v1.1.0, v1.3.0 (no longer at the last version scanned)" "$WORK/hist-b.txt"

# scanned again: the store holds every version, nothing is scanned or written
gen() { sqlite3 "$1" "SELECT value FROM meta WHERE key = 'generation'"; }
g0=$(gen "$hdb")
"$FL" scan "$H" --history --db "$hdb" --json >"$WORK/hist2.json"
check "history: scanned again, the store is up to date: nothing scanned" \
	[ "$(jq -c '[.upToDate, .resumedFrom, (.versions | length), .versionCount]' "$WORK/hist2.json")" = '[true,"HEAD",0,5]' ]
check "history: ... nothing written" [ "$(gen "$hdb")" = "$g0" ]
check "history: ... every record unchanged" \
	[ "$(jq -c '[.store.added, .store.removed, .store.changed, .store.unchanged]' "$WORK/hist2.json")" = '[0,0,0,6]' ]
# --full scans every version again and finds the same content:
# contentChangedAt kept
bcc=$(jq -r '.contentChangedAt' "$WORK/hist-b-show.json")
"$FL" scan "$H" --history --full --db "$hdb" --json >"$WORK/hist2.json"
check "history --full: every version scanned again" \
	[ "$(jq -c '[.resumedFrom, (.versions | length)]' "$WORK/hist2.json")" = '[null,5]' ]
check "history --full: every record is unchanged" \
	[ "$(jq -c '[.store.added, .store.removed, .store.changed, .store.unchanged]' "$WORK/hist2.json")" = '[0,0,0,6]' ]
check "history: ... and keeps its contentChangedAt" \
	[ "$("$FL" show --db "$hdb" --json "$bid" | jq -r '.contentChangedAt')" = "$bcc" ]

# --at: the line and permalink of that version
"$FL" explain --db "$hdb" --json --at v1.1.0 "No rebase in progress?" >"$WORK/hist-at.json"
check "explain --at v1.1.0: the line and permalink in v1.1.0" \
	[ "$(jq -r '.matches[0] | "\(.lineNumber) \(.githubUrl) \(.versions.existsAt)"' "$WORK/hist-at.json")" = "5 https://github.com/acme/hist/blob/$(sha v1.1.0)/src/app.py#L5 true" ]
check "explain --at 1.0.0 (a number): the line in v1.0.0" \
	[ "$("$FL" explain --db "$hdb" --json --at 1.0.0 "No rebase in progress?" | jq -r '.matches[0].lineNumber')" = 3 ]
check "explain --at a version without the record: said so" \
	[ "$("$FL" explain --db "$hdb" --json --at v1.2.0 "No rebase in progress?" | jq -c '.matches[0].versions | [.at, .existsAt]')" = '["v1.2.0",false]' ]
"$FL" explain --db "$hdb" --at v9.9.9 "No rebase in progress?" >/dev/null 2>"$WORK/hist-at.err"
check "explain --at an unknown version: a warning" grep -q "no version of the answers' repositories is so named" "$WORK/hist-at.err"

# two records raise the same text (old.py until v1.1.0, new.py at HEAD)
check "ranking: without a version, the record at HEAD first" \
	[ "$("$FL" explain --db "$hdb" --json "bad object name" | jq -r '[.matches[].filePath] | join(" ")')" = "src/new.py src/old.py" ]
check "ranking: --at v1.1.0 puts the record of v1.1.0 first" \
	[ "$("$FL" explain --db "$hdb" --json --at v1.1.0 "bad object name" | jq -r '[.matches[].filePath] | join(" ")')" = "src/old.py src/new.py" ]
"$FL" explain --db "$hdb" --json "$(printf 'hist/1.1.0 (linux)\nValueError: bad object name')" >"$WORK/hist-ev.json"
check "ranking: a version named in the text (a User-Agent) puts its record first" \
	[ "$(jq -r '.matches[0].filePath' "$WORK/hist-ev.json")" = src/old.py ]
check "ranking: the evidence says which version the text names" \
	jq -e '.matches[0].evidence | any(test("names version 1.1.0"))' "$WORK/hist-ev.json" >/dev/null
check "ranking: 'version X' in the text" \
	[ "$("$FL" explain --db "$hdb" --json "$(printf 'hist version 1.0.0\nValueError: bad object name')" | jq -r '.matches[0].filePath')" = src/old.py ]

# HEAD's records are those a scan of HEAD gives
"$FL" scan "$H" --rev HEAD --db "$WORK/hist-head.db" >/dev/null
heads() { "$FL" list --db "$1" --json | jq -r --arg s "$(sha HEAD)" 'select(.analyzedSha == $s) | [.id, .slug, .lineNumber, .errorMessage, .sourceCode, .githubUrl] | @json' | LC_ALL=C sort; }
check "history: the records at HEAD are a scan's of HEAD" [ "$(heads "$hdb")" = "$(heads "$WORK/hist-head.db")" ]

# ---- a new tag: the scan goes on from the versions the store holds -------------
# The same repository without v1.3.0 scanned first; the tag then made:
# only v1.3.0 and HEAD are scanned, and the store is that of a history
# scan of every version (records, their content, their runs)
I="$WORK/hist-inc"
git clone -q "$H" "$I"
git -C "$I" tag -d v1.3.0 >/dev/null
idb="$WORK/hist-inc.db"
"$FL" scan "$I" --history --repo acme/hist --db "$idb" --json >"$WORK/inc1.json"
check "resume: the first scan has no v1.3.0" \
	[ "$(jq -c '[.resumedFrom, [.versions[].name]]' "$WORK/inc1.json")" = '[null,["v1.0.0","v1.1.0","v1.2.0","HEAD"]]' ]
git -C "$I" tag v1.3.0 "$(sha v1.3.0)"
"$FL" scan "$I" --history --repo acme/hist --db "$idb" --json >"$WORK/inc2.json"
check "resume: a new tag: the scan goes on from the last tag the store holds" \
	[ "$(jq -c '[.resumedFrom, [.versions[].name], .versionCount]' "$WORK/inc2.json")" = '["v1.2.0",["v1.3.0","HEAD"],5]' ]
# v1.3.0: app.py changed (to a blob of v1.1.0 the store knows by id only:
# read and scanned), util.py unchanged (its records from the store); HEAD
# whole
check "resume: only the changed blob is scanned for the new tag, HEAD whole" \
	[ "$(jq -c '[.versions[] | [.files, .changed, .scanned, .records]]' "$WORK/inc2.json")" = '[[2,1,1,3],[3,2,3,3]]' ]
check "resume: the records of earlier versions are kept as stored" \
	[ "$(jq -c '[.records, .store.kept]' "$WORK/inc2.json")" = '[6,2]' ]
same_store() { # A B: the same records and versions
	for d in "$1" "$2"; do
		"$FL" list --db "$d" --json | jq -c 'del(.analyzedAt, .contentChangedAt)' | LC_ALL=C sort >"$d.list"
		rm -rf "$d.data" && "$FL" export --db "$d" "$d.data" >/dev/null
	done
	cmp -s "$1.list" "$2.list" &&
		[ "$(jq -c 'del(.datasetVersion)' "$1.data/versions/acme/hist.json")" = \
		  "$(jq -c 'del(.datasetVersion)' "$2.data/versions/acme/hist.json")" ]
}
check "resume: the store is a history scan's of every version" same_store "$idb" "$hdb"
# HEAD moves on: a commit adds a message, the next one drops it again
printf 'def t():\n    raise ValueError("only at a passing head")\n' >"$I/src/tmp.py"
git -C "$I" add -A && git -C "$I" commit -qm six
"$FL" scan "$I" --history --repo acme/hist --db "$idb" --json >"$WORK/inc3.json"
check "resume: HEAD moved: only HEAD is scanned" \
	[ "$(jq -c '[.resumedFrom, [.versions[].name]]' "$WORK/inc3.json")" = '["v1.3.0",["HEAD"]]' ]
check "resume: ... its new record found" \
	[ "$("$FL" list --db "$idb" | grep -c 'only at a passing head')" = 1 ]
git -C "$I" rm -q src/tmp.py && git -C "$I" commit -qm seven
"$FL" scan "$I" --history --repo acme/hist --db "$idb" --json >"$WORK/inc4.json"
check "resume: a record only the HEAD scanned before had is gone" \
	[ "$("$FL" list --db "$idb" | grep -c 'only at a passing head')" = 0 ]
"$FL" scan "$I" --history --full --repo acme/hist --db "$WORK/hist-inc-full.db" >/dev/null
check "resume: ... and the store is a full scan's" same_store "$idb" "$WORK/hist-inc-full.db"
# a release at HEAD: the new tag is the last version, scanned whole
printf 'def r():\n    raise ValueError("new in the release")\n' >"$I/src/rel.py"
git -C "$I" add -A && git -C "$I" commit -qm eight && git -C "$I" tag v1.4.0
"$FL" scan "$I" --history --repo acme/hist --db "$idb" --json >"$WORK/inc5.json"
check "resume: a release at HEAD: only the new tag, whole" \
	[ "$(jq -c '[.resumedFrom, [.versions[] | [.name, .scanned]]]' "$WORK/inc5.json")" = '["v1.3.0",[["v1.4.0",4]]]' ]
"$FL" scan "$I" --history --full --repo acme/hist --db "$WORK/hist-inc-full.db" >/dev/null
check "resume: ... and the store is a full scan's" same_store "$idb" "$WORK/hist-inc-full.db"
check "resume: the release's record exists in v1.4.0" \
	[ "$("$FL" explain --db "$idb" --json "new in the release" | jq -c '.matches[0].versions | [.first, .last, .atHead]')" = '["v1.4.0","v1.4.0",true]' ]
# the last tag deleted, HEAD back at the tag before: fewer versions than
# stored; that tag is the last version, scanned again whole
git -C "$I" checkout -q --detach v1.3.0 && git -C "$I" tag -d v1.4.0 >/dev/null
"$FL" scan "$I" --history --repo acme/hist --db "$idb" --json >"$WORK/inc5b.json"
check "resume: fewer versions than stored: the last one scanned again" \
	[ "$(jq -c '[.resumedFrom, [.versions[].name], .versionCount]' "$WORK/inc5b.json")" = '["v1.2.0",["v1.3.0"],4]' ]
"$FL" scan "$I" --history --full --repo acme/hist --db "$WORK/hist-inc-full.db" >/dev/null
check "resume: ... and the store is a full scan's" same_store "$idb" "$WORK/hist-inc-full.db"
check "resume: the deleted release's record is gone" \
	[ "$("$FL" list --db "$idb" | grep -c 'new in the release')" = 0 ]
# other options than the store's: every version again
"$FL" scan "$I" --history --repo acme/hist --exclude 'src/util.py' --db "$idb" --json >"$WORK/inc6.json"
check "resume: other path rules than the store's scan every version" \
	[ "$(jq -c '[.resumedFrom, (.versions | length)]' "$WORK/inc6.json")" = '[null,4]' ]
# a plain scan since: every version again
"$FL" scan "$I" --repo acme/hist --db "$idb" >/dev/null
"$FL" scan "$I" --history --repo acme/hist --exclude 'src/util.py' --db "$idb" --json >"$WORK/inc7.json"
check "resume: after a plain scan, every version" \
	[ "$(jq -c '[.resumedFrom, (.versions | length)]' "$WORK/inc7.json")" = '[null,4]' ]

# --tags and --since
"$FL" scan "$H" --history --tags 'v1.[12]*' --db "$WORK/hist-tags.db" --json >"$WORK/hist-tags.json"
check "history --tags: the glob picks the tags, pre-releases included" \
	[ "$(jq -c '[.versions[].name]' "$WORK/hist-tags.json")" = '["v1.1.0","v1.2.0-rc1","v1.2.0","HEAD"]' ]
"$FL" scan "$H" --history --since v1.2.0 --db "$WORK/hist-since.db" --json >"$WORK/hist-since.json"
check "history --since: from that tag on" \
	[ "$(jq -c '[.versions[].name]' "$WORK/hist-since.json")" = '["v1.2.0","v1.3.0","HEAD"]' ]
# a plain scan afterwards drops the versions
"$FL" scan "$H" --db "$WORK/hist-since.db" >/dev/null
check "a plain scan after a history scan keeps no versions" \
	[ "$(sqlite3 "$WORK/hist-since.db" 'SELECT (SELECT count(*) FROM repo_versions) + (SELECT count(*) FROM error_versions)')" = 0 ]

# bad input: a clear error, exit 1 (2 for wrong usage), never a crash
herr() { "$FL" scan "$@" --db "$WORK/hist-bad.db" >/dev/null 2>"$WORK/hist-bad.err"; echo $?; }
check "history: a tag naming a blob is an error" [ "$(herr "$H" --history --tags 'key*')" = 1 ]
check "history: ... that says so" grep -q "tag keyblob points at a blob, not a commit" "$WORK/hist-bad.err"
check "history: no tag matching is an error" [ "$(herr "$H" --history --tags 'nope*')" = 1 ]
check "history: ... that says so" grep -q "no tag matches nope\*" "$WORK/hist-bad.err"
check "history: --since a tag not scanned is an error" [ "$(herr "$H" --history --since v0.1)" = 1 ]
mkdir -p "$WORK/hist-notags"
git -C "$WORK/hist-notags" init -q
printf 'raise ValueError("x y z")\n' >"$WORK/hist-notags/a.py"
git -C "$WORK/hist-notags" add -A && git -C "$WORK/hist-notags" commit -qm one
check "history: a repository without tags is an error" [ "$(herr "$WORK/hist-notags" --history)" = 1 ]
check "history: ... that says so" grep -q "has no tags" "$WORK/hist-bad.err"
mkdir -p "$WORK/hist-plain"
printf 'raise ValueError("x y z")\n' >"$WORK/hist-plain/a.py"
check "history: a folder that is no git repository is an error" [ "$(herr "$WORK/hist-plain" --history)" = 1 ]
check "history: ... that says so" grep -q "is not a git repository" "$WORK/hist-bad.err"
git clone -q --depth 1 "file://$H" "$WORK/hist-shallow" 2>/dev/null
git -C "$WORK/hist-shallow" fetch -q --depth 1 origin tag v1.3.0 2>/dev/null
check "history: a shallow clone is an error" [ "$(herr "$WORK/hist-shallow" --history)" = 1 ]
check "history: ... that says so" grep -q "shallow clone" "$WORK/hist-bad.err"
check "history: --tags without --history is a usage error" [ "$(herr "$H" --tags 'v*')" = 2 ]
check "history: --full without --history is a usage error" [ "$(herr "$H" --full)" = 2 ]
check "history: --history with --rev is a usage error" [ "$(herr "$H" --history --rev HEAD)" = 2 ]

# ---- a killed history scan leaves the store as it was ---------------------------
K="$WORK/hist-big"
mkdir -p "$K"
git -C "$K" init -q -b main
for v in 1 2 3 4 5 6 7 8; do
	for i in $(seq 1 150); do
		for j in $(seq 1 10); do
			printf 'def f%d_%d(x):\n    if x:\n        raise ValueError("error %d in file %d of version %d")\n' "$i" "$j" "$j" "$i" "$v"
		done >"$K/m$i.py"
	done
	git -C "$K" add -A && git -C "$K" commit -qm "v$v"
	git -C "$K" tag "v$v.0"
done
kdb="$WORK/hist-big.db"
"$FL" scan "$K" --history --tags 'v[1-4].0' --db "$kdb" >/dev/null
state() { sqlite3 "${kdb}" "SELECT (SELECT group_concat(name) FROM repo_versions), (SELECT count(*) FROM errors), (SELECT count(*) FROM error_versions), (SELECT max(last_seq) FROM error_versions)"; }
before=$(state)
# the state a finished scan leaves (a kill after its commit leaves that)
cp "$kdb" "$WORK/hist-big-copy.db"
"$FL" scan "$K" --history --db "$WORK/hist-big-copy.db" >/dev/null
after=$(kdb="$WORK/hist-big-copy.db" state)
whole=1
asbefore=0
for delay in 0.02 0.05 0.1 0.15 0.2 0.3 0.4 0.6; do
	"$FL" scan "$K" --history --db "$kdb" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	now=$(state)
	if [ "$now" = "$before" ]; then
		asbefore=$((asbefore + 1))
	elif [ "$now" = "$after" ]; then
		# it committed first: back to the state before for the next try
		"$FL" scan "$K" --history --tags 'v[1-4].0' --db "$kdb" >/dev/null
	else
		whole=0
	fi
done
check "killed history scans leave the store as it was ($asbefore of 8 killed before their commit)" \
	[ "$whole" -eq 1 ] && [ "$asbefore" -ge 3 ]
"$FL" scan "$K" --history --db "$kdb" >/dev/null
check "and the next history scan completes" \
	[ "$(sqlite3 "$kdb" 'SELECT group_concat(name) FROM repo_versions')" = "v1.0,v2.0,v3.0,v4.0,v5.0,v6.0,v7.0,v8.0" ]

# the data set's side file of versions
"$FL" export --db "$hdb" "$WORK/hist-data" >/dev/null
vf="$WORK/hist-data/versions/acme/hist.json"
check "export: versions/{owner}/{name}.json lists the versions" \
	[ "$(jq -c '[.versions[].name]' "$vf")" = '["v1.0.0","v1.1.0","v1.2.0","v1.3.0","HEAD"]' ]
check "export: each record's runs as [first, last, line]" \
	[ "$(jq -c --arg id "$bid" '.records[$id]' "$vf")" = '[[0,0,6],[1,1,8],[3,3,8]]' ]
check "export: the side file is in the inventory" \
	jq -e '.files | any(.path == "/data/versions/acme/hist.json")' "$WORK/hist-data/inventory.json" >/dev/null
check "import: a data set with versions imports" \
	"$FL" import --db "$WORK/hist-imported.db" "$WORK/hist-data" >/dev/null
check "import: ... its versions with it (blob ids are not in a data set)" \
	[ "$("$FL" explain --db "$WORK/hist-imported.db" --json "fatal: could not lookup commit" | jq -c '.matches[0].versions | [.first, .last, .atHead, (.runs | map("\(.first)..\(.last):\(.lineNumber):\(.blob)") | join(" "))]')" = '["v1.0.0","v1.3.0",false,"v1.0.0..v1.0.0:6:null v1.1.0..v1.1.0:8:null v1.3.0..v1.3.0:8:null"]' ]
check "import: --at on imported versions" \
	[ "$("$FL" explain --db "$WORK/hist-imported.db" --json --at v1.1.0 "No rebase in progress?" | jq -r '.matches[0].githubUrl')" = "https://github.com/acme/hist/blob/$(sha v1.1.0)/src/app.py#L5" ]

# MCP's search answers carry the versions, ranked as explain ranks them
HMCP_INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'
hmcp_search() {
	printf '%s\n' "$HMCP_INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"search_error\",\"arguments\":{\"message\":$(jq -Rn --arg m "$1" '$m')}}}" |
		timeout 120 "$FL" mcp --db "$hdb" 2>/dev/null | jq -c 'select(.id == 2) | .result.structuredContent'
}
check "mcp: a removed message with its versions" \
	[ "$(hmcp_search "fatal: could not lookup commit" | jq -c '.matches[0].versions | [.first, .last, .atHead]')" = '["v1.0.0","v1.3.0",false]' ]
check "mcp: a version named in the text ranks its record first, with that version's line" \
	[ "$(hmcp_search "$(printf 'hist version 1.0.0\nValueError: bad object name')" | jq -r '.matches[0] | "\(.filePath):\(.lineNumber) \(.versions.at)"')" = "src/old.py:2 v1.0.0" ]

# the site: "Raised in ..." with each version's line linked
"$FL" site --data "$WORK/hist-data" "$WORK/hist-site" >/dev/null
bpage="$WORK/hist-site/errors/$bid/index.html"
check "site: a removed message's page says in which versions it was raised" \
	grep -qF "Raised in <a href=\"https://github.com/acme/hist/blob/$(sha v1.0.0)/src/app.py#L6\">v1.0.0</a> - <a href=\"https://github.com/acme/hist/blob/$(sha v1.1.0)/src/app.py#L8\">v1.1.0</a>, <a href=\"https://github.com/acme/hist/blob/$(sha v1.3.0)/src/app.py#L8\">v1.3.0</a> <span class=\"muted\">(gone since HEAD)</span>" "$bpage"
check "site: and links each version's line" \
	[ "$(grep -c '^<li><a href="https://github.com/acme/hist/blob/[0-9a-f]*/src/app.py#L[0-9]*">v1\.[0-9]\.0</a>: line [0-9]*</li>$' "$bpage")" -eq 3 ]

# the HTTP API: /api/search answers with the versions
: >"$WORK/hist-serve.err"
"$FL" serve --listen 127.0.0.1:0 --cache-dir "$WORK/hist-cache" --db "$hdb" 2>"$WORK/hist-serve.err" &
hsv=$!
hport=""
for i in $(seq 300); do
	hport=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/hist-serve.err")
	[ -n "$hport" ] && break
	kill -0 "$hsv" 2>/dev/null || break
	sleep 0.1
done
check "serve: starts on the history store" [ -n "$hport" ]
if [ -n "$hport" ]; then
	curl -s --max-time 20 --get --data-urlencode "q=fatal: could not lookup commit" \
		"http://127.0.0.1:$hport/api/search" >"$WORK/hist-api.json"
	check "serve: /api/search gives a removed message's versions" \
		[ "$(jq -c '.matches[0].versions | [.first, .last, .atHead]' "$WORK/hist-api.json")" = '["v1.0.0","v1.3.0",false]' ]
	curl -s --max-time 20 --get --data-urlencode "q=$(printf 'hist/1.1.0\nValueError: bad object name')" \
		"http://127.0.0.1:$hport/api/search" >"$WORK/hist-api2.json"
	check "serve: /api/search ranks by the version the text names" \
		[ "$(jq -r '.matches[0] | "\(.filePath) \(.versions.at)"' "$WORK/hist-api2.json")" = "src/old.py v1.1.0" ]
	printf 'starting\nValueError: could not lookup commit\ndone\n' >"$WORK/hist-log.txt"
	curl -s --max-time 20 --data-binary @"$WORK/hist-log.txt" \
		"http://127.0.0.1:$hport/api/explain" >"$WORK/hist-api3.json"
	check "serve: /api/explain gives each matched error's versions" \
		[ "$(jq -c '.versions' "$WORK/hist-api3.json")" = '{"first":"v1.0.0","last":"v1.3.0","atHead":false}' ]
	check "serve: ... as grep-log --json prints it" \
		[ "$(jq -c . "$WORK/hist-api3.json")" = "$("$FL" grep-log --db "$hdb" --json "$WORK/hist-log.txt")" ]
fi
kill -TERM "$hsv" 2>/dev/null
wait "$hsv" 2>/dev/null
