# attack suite, the scanner: what a tree holds that the scan cannot take —
# folders deeper than 64 levels, folders it may not read, file names that
# cannot be a record's filePath (a newline, bytes that are not UTF-8, a
# backslash), a blob of --rev the object store cannot give back — is left
# out, counted in the summary and named in a warning, and nothing of the
# store is lost silently.

asc="$WORK/attack-scan"
mkdir -p "$asc"

# run "$@" as a user who owns nothing here (as root, file modes do not stop
# anything: nobody; otherwise the user running the tests)
asc_other() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# ---- folders too deep and folders not readable ---------------------------------------
# (in a folder of its own that the other user may enter)
dt=$(mktemp -d /tmp/fl-e2e-deep-XXXXXX)
chmod 755 "$dt"
mkdir -p "$dt/tree/pkg"
printf 'raise ValueError("a shallow error")\n' >"$dt/tree/pkg/ok.py"
deep="$dt/tree"
for i in $(seq 1 70); do deep="$deep/d$i"; done
mkdir -p "$deep"
printf 'raise ValueError("an error 70 folders down")\n' >"$deep/deep.py"
printf 'raise ValueError("another")\n' >"$dt/tree/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17/d18/d19/d20/d21/d22/d23/d24/d25/d26/d27/d28/d29/d30/d31/d32/d33/d34/d35/d36/d37/d38/d39/d40/d41/d42/d43/d44/d45/d46/d47/d48/d49/d50/d51/d52/d53/d54/d55/d56/d57/d58/d59/d60/d61/d62/d63/d64/d65/two.py"
printf 'raise ValueError("64 folders down: scanned")\n' >"$dt/tree/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17/d18/d19/d20/d21/d22/d23/d24/d25/d26/d27/d28/d29/d30/d31/d32/d33/d34/d35/d36/d37/d38/d39/d40/d41/d42/d43/d44/d45/d46/d47/d48/d49/d50/d51/d52/d53/d54/d55/d56/d57/d58/d59/d60/d61/d62/d63/d64/in.py"
mkdir -p "$dt/tree/secret"
printf 'raise ValueError("an error in a folder nobody may read")\n' >"$dt/tree/secret/s.py"
[ "$(id -u)" -eq 0 ] && chown -R 65534:65534 "$dt"
chmod 000 "$dt/tree/secret"
asc_other "$FL" scan "$dt/tree" --repo acme/deep --db "$dt/deep.db" --json >"$asc/deep.json" 2>"$asc/deep.err"
rc=$?
asc_other "$FL" scan "$dt/tree" --repo acme/deep --db "$dt/deep.db" >"$asc/deep.txt" 2>/dev/null
chmod 755 "$dt/tree/secret"
check "deep and unreadable folders: the scan succeeds" [ "$rc" -eq 0 ]
check "deep and unreadable folders: counted in --json (one each, two files too deep)" \
	[ "$(jq -c '[.skippedFolders["deeper than 64 levels"], .skippedFolders["files deeper than 64 levels"], .skippedFolders.unreadable]' "$asc/deep.json")" = "[1,2,1]" ]
check "deep and unreadable folders: existing summary keys kept, 64 levels down scanned" \
	[ "$(jq -c '[.files.seen, .records, (.skipped | has("unreadable"))]' "$asc/deep.json")" = "[2,2,true]" ]
check "deep folders: the warning names the first one left out" \
	grep -q "^faultline: warning: 1 folder deeper than 64 levels left out with the 2 files in it: .*d64/d65\$" "$asc/deep.err"
check "unreadable folders: the warning names it and why" \
	grep -q "^faultline: warning: 1 folder could not be read and was left out: secret (Permission denied)" "$asc/deep.err"
check "deep and unreadable folders: in the text summary" \
	grep -q "^  folders    left out: 1 deeper than 64 levels (2 files in them), 1 unreadable" "$asc/deep.txt"
rm -rf "$dt"

# ---- names that cannot be a filePath -------------------------------------------------
nt="$asc/names"
mkdir -p "$nt"
printf 'raise ValueError("from a normal file")\n' >"$nt/ok.py"
printf 'raise ValueError("from a file with a newline in its name")\n' >"$nt/evil
fake.py"
printf 'raise ValueError("from a file whose name is not UTF-8")\n' >"$nt/$(printf 'bad\377name.py')"
printf 'raise ValueError("from a file with a backslash in its name")\n' >"$nt/we\\ird.py"
mkdir -p "$nt/$(printf 'dir\nx')"
printf 'raise ValueError("under a folder with a newline")\n' >"$nt/$(printf 'dir\nx')/in.py"
"$FL" scan "$nt" --repo acme/names --db "$asc/names.db" --json >"$asc/names.json" 2>"$asc/names.err"
check "bad names: the scan succeeds" [ $? -eq 0 ]
check "bad names: four files left out and counted, the good one stored" \
	[ "$(jq -c '[.skipped["name not a filePath"], .records, .invalid]' "$asc/names.json")" = "[4,1,0]" ]
check "bad names: the warning names them, escaped" \
	grep -qF 'faultline: warning: 4 files left out because their names cannot be a filePath (not UTF-8, or holding a newline, carriage return or backslash): "bad\xffname.py", "dir\nx/in.py", "evil\nfake.py", "we\\ird.py"' "$asc/names.err"
"$FL" list --db "$asc/names.db" >"$asc/names.list"
check "bad names: list prints one line per record, no forged line" \
	[ "$(wc -l <"$asc/names.list")" -eq 1 ]
check "bad names: no record holds U+FFFD or a control character in its filePath" \
	[ -z "$("$FL" list --db "$asc/names.db" --json | jq -r '.filePath | select(test("\ufffd|[\u0000-\u001f\\\\]"))')" ]
# a message may span lines or hold a terminal escape: list escapes them,
# one record, one line
mt="$asc/msgs"
mkdir -p "$mt"
printf 'raise ValueError("line one\\nline two \\x1b[31mred")\n' >"$mt/m.py"
"$FL" scan "$mt" --repo acme/msgs --db "$asc/msgs.db" >/dev/null 2>&1
"$FL" list --db "$asc/msgs.db" >"$asc/msgs.list"
check "list: a message with a newline and an escape is one escaped line" \
	bash -c "[ \$(wc -l <'$asc/msgs.list') -eq 1 ] && grep -qF 'line one\\nline two \\x1b[31mred' '$asc/msgs.list'"
check "list --json keeps the message as it is" \
	[ "$("$FL" list --db "$asc/msgs.db" --json | jq -r .errorMessage)" = "$(printf 'line one\nline two \033[31mred')" ]
# a git repository can hold such names too
gn="$asc/gitnames"
mkdir -p "$gn"
git -C "$gn" init -q -b main
printf 'raise ValueError("tracked and fine")\n' >"$gn/ok.py"
printf 'raise ValueError("tracked, newline in its name")\n' >"$gn/two
lines.py"
git -C "$gn" add -A && git -C "$gn" commit -q -m one
"$FL" scan "$gn" --repo acme/gitnames --db "$asc/gitnames.db" --json >"$asc/gn.json" 2>"$asc/gn.err"
check "bad names in a git index: left out, counted, warned" \
	bash -c "[ \"\$(jq -c '[.skipped[\"name not a filePath\"], .records]' '$asc/gn.json')\" = '[1,1]' ] && grep -qF '\"two\\nlines.py\"' '$asc/gn.err'"
"$FL" scan "$gn" --rev HEAD --repo acme/gitnames --db "$asc/gitnames.db" --json >"$asc/gn.json" 2>"$asc/gn.err"
check "bad names in a commit (--rev): left out, counted, warned" \
	bash -c "[ \"\$(jq -c '[.skipped[\"name not a filePath\"], .records]' '$asc/gn.json')\" = '[1,1]' ] && grep -qF '\"two\\nlines.py\"' '$asc/gn.err'"

# ---- a blob the object store cannot give back ---------------------------------------
cb="$asc/corrupt"
mkdir -p "$cb/pkg"
git -C "$cb" init -q -b main
printf 'def a(x):\n    raise ValueError("a version one")\n' >"$cb/pkg/a.py"
printf 'def b(x):\n    raise KeyError("b stays")\n\ndef c(x):\n    raise TypeError("c stays too")\n' >"$cb/pkg/b.py"
git -C "$cb" add -A && git -C "$cb" commit -q -m one
"$FL" scan "$cb" --rev HEAD --repo acme/corrupt --db "$asc/corrupt.db" >/dev/null 2>&1
b_before=$("$FL" list --db "$asc/corrupt.db" --json | jq -c 'select(.filePath == "pkg/b.py") | .id' | sort | tr '\n' ' ')
printf 'def a(x):\n    raise ValueError("a version two")\n' >"$cb/pkg/a.py"
# a new file with the message of a record of b.py: the kept record has the
# slug, the new one must take another
printf 'def d(x):\n    raise KeyError("b stays")\n' >"$cb/pkg/d.py"
git -C "$cb" add -A && git -C "$cb" commit -q -m two
blob=$(git -C "$cb" rev-parse HEAD:pkg/b.py)
obj="$cb/.git/objects/${blob:0:2}/${blob:2}"
chmod u+w "$obj"
printf 'x\001this is not zlib data at all, the object is damaged' >"$obj"
"$FL" scan "$cb" --rev HEAD --repo acme/corrupt --db "$asc/corrupt.db" --json >"$asc/cb.json" 2>"$asc/cb.err"
check "corrupt blob: the scan succeeds" [ $? -eq 0 ]
b_after=$("$FL" list --db "$asc/corrupt.db" --json | jq -c 'select(.filePath == "pkg/b.py") | .id' | sort | tr '\n' ' ')
check "corrupt blob: the unreadable file's stored records are kept (2)" \
	bash -c "[ -n '$b_before' ] && [ '$b_before' = '$b_after' ] && [ \$(echo '$b_after' | wc -w) -eq 2 ]"
check "corrupt blob: the readable file is updated" \
	bash -c "'$FL' list --db '$asc/corrupt.db' --json | jq -r .errorMessage | grep -q 'a version two' && ! '$FL' list --db '$asc/corrupt.db' --json | jq -r .errorMessage | grep -q 'a version one'"
check "corrupt blob: the warning names the file and the object" \
	grep -q "^faultline: warning: 1 file could not be read; its 2 stored records were kept: pkg/b.py (blob $blob: " "$asc/cb.err"
check "corrupt blob: --json counts the records kept (only the old a.py record removed)" \
	[ "$(jq -c '[.skipped.unreadable, .store.kept, .store.removed, .records]' "$asc/cb.json")" = "[1,2,1,2]" ]
check "corrupt blob: a new record with a kept record's message gets a slug of its own" \
	[ "$("$FL" list --db "$asc/corrupt.db" --json | jq -r 'select(.errorMessage == "b stays") | .slug' | sort -u | wc -l)" -eq 2 ]
check "corrupt blob: the repository's errorCount counts the kept records" \
	[ "$("$FL" export --db "$asc/corrupt.db" "$asc/cb-export" >/dev/null 2>&1 && jq -r '.[] | select(.repo == "acme/corrupt") | .errorCount' "$asc/cb-export/repos.json" 2>/dev/null)" = 4 ]
# another rev whose tree holds the same damaged blob
"$FL" scan "$cb" --rev HEAD~1 --repo acme/corrupt --db "$asc/corrupt.db" --json >"$asc/cb.json" 2>"$asc/cb.err"
check "corrupt blob: a scan that cannot read the file at another rev keeps its records too" \
	[ "$(jq -c '[.store.kept, .skipped.unreadable]' "$asc/cb.json")" = "[2,1]" ]

# damaged in the ways libgit2 1.5 mishandles (a zlib stream cut short:
# libgit2#7342, an endless loop; a header that says fewer bytes than the
# object holds: #7177, a write past its buffer), and a content that does
# not hash to its id: each bounded in time, the file's records kept
damage_case() { # NAME EXPECTED-REASON FILE: FILE holds the object's new bytes
	local d="$asc/dmg-$1" blob obj
	mkdir -p "$d"
	git -C "$d" init -q -b main
	printf 'raise ValueError("fine")\n' >"$d/a.py"
	printf 'raise KeyError("kept when damaged")\n' >"$d/b.py"
	git -C "$d" add -A && git -C "$d" commit -q -m one
	timeout 60 "$FL" scan "$d" --rev HEAD --repo acme/dmg --db "$d.db" >/dev/null 2>&1
	blob=$(git -C "$d" rev-parse HEAD:b.py)
	obj="$d/.git/objects/${blob:0:2}/${blob:2}"
	chmod u+w "$obj"
	cp "$3" "$obj"
	timeout 60 "$FL" scan "$d" --rev HEAD --repo acme/dmg --db "$d.db" --json >"$d.json" 2>"$d.err"
	local rc=$?
	check "damaged loose object ($1): the scan ends (exit $rc)" [ "$rc" -eq 0 ]
	check "damaged loose object ($1): its records kept, the reason named" \
		bash -c "[ \"\$(jq -c '[.store.kept, .skipped.unreadable]' '$d.json')\" = '[1,1]' ] && grep -q 'b.py (blob $blob: damaged loose object ($2))' '$d.err'"
}
mk_obj() { perl -MCompress::Zlib -e 'binmode STDOUT; local $/; my $in = <STDIN>; print compress($in)'; }
# the object itself, cut after 20 bytes
dmg_src="$asc/dmg-src"
mkdir -p "$dmg_src"
printf 'blob 36\0raise KeyError("kept when damaged")\n' | mk_obj >"$dmg_src/whole"
head -c 20 "$dmg_src/whole" >"$dmg_src/truncated"
damage_case truncated "its zlib stream is cut short" "$dmg_src/truncated"
printf 'blob 12\0raise KeyError("kept when damaged")\n' | mk_obj >"$dmg_src/short-header"
damage_case short-header "more content than its header says" "$dmg_src/short-header"
printf 'blob 36\0raise KeyError("kept when DAMAGED")\n' | mk_obj >"$dmg_src/other-content"
damage_case other-content "its content does not hash to its id" "$dmg_src/other-content"
printf 'tree 36\0raise KeyError("kept when damaged")\n' | mk_obj >"$dmg_src/not-a-blob"
damage_case not-a-blob "no blob header" "$dmg_src/not-a-blob"
# a sound loose object written by hand (not by git) reads as git's did
printf 'blob 36\0raise KeyError("kept when damaged")\n' | mk_obj >"$dmg_src/again"
d="$asc/dmg-truncated"
obj="$d/.git/objects/$(git -C "$d" rev-parse HEAD:b.py | sed 's|^..|&/|')"
cp "$dmg_src/again" "$obj"
timeout 60 "$FL" scan "$d" --rev HEAD --repo acme/dmg --db "$d.db" --json >"$d.json" 2>"$d.err"
check "a loose object read by faultline itself: the same records as libgit2 gave" \
	bash -c "[ \"\$(jq -c '[.store.kept, .skipped.unreadable, .store.unchanged, .store.removed]' '$d.json')\" = '[0,0,2,0]' ] && [ ! -s '$d.err' ]"

# ---- a work tree's file that cannot be read -----------------------------------------
ut=$(mktemp -d /tmp/fl-e2e-unread-XXXXXX)
chmod 755 "$ut"
mkdir -p "$ut/tree"
printf 'raise ValueError("readable")\n' >"$ut/tree/a.py"
printf 'raise KeyError("locked later")\n' >"$ut/tree/b.py"
[ "$(id -u)" -eq 0 ] && chown -R 65534:65534 "$ut"
asc_other "$FL" scan "$ut/tree" --repo acme/unread --db "$ut/u.db" >/dev/null 2>&1
chmod 000 "$ut/tree/b.py"
asc_other "$FL" scan "$ut/tree" --repo acme/unread --db "$ut/u.db" --json >"$asc/ut.json" 2>"$asc/ut.err"
rc=$?
check "unreadable work tree file: the scan succeeds, its record kept" \
	bash -c "[ $rc -eq 0 ] && [ \"\$(jq -c '[.store.kept, .store.removed]' '$asc/ut.json')\" = '[1,0]' ] && asc_n=\$('$FL' list --db '$ut/u.db' --json | jq -r .errorMessage | grep -c 'locked later') && [ \"\$asc_n\" -eq 1 ]"
check "unreadable work tree file: the warning names it and why" \
	grep -q "^faultline: warning: 1 file could not be read; its 1 stored record was kept: b.py (cannot open it: Permission denied)" "$asc/ut.err"
rm -f "$ut/tree/b.py"
asc_other "$FL" scan "$ut/tree" --repo acme/unread --db "$ut/u.db" --json >"$asc/ut.json" 2>"$asc/ut.err"
check "a file removed from the work tree: its record goes" \
	[ "$(jq -c '[.store.kept, .store.removed]' "$asc/ut.json")" = "[0,1]" ]
rm -rf "$ut"
