# scan: real trees in temporary folders — the fixture tree of every language
# against its expected records, a git repository at two commits, a bare
# repository, --rev, skip rules, and a scan killed midway.

# The fixture folders hold files someone wrote, never a fuzzing corpus:
# libFuzzer names its inputs by their SHA-1 (40 hex digits), and
# scripts/fuzz.sh keeps its corpora under build-fuzz/ (674 such files were
# once committed into tests/fixtures/c by a fuzzer run by hand).
stray=$(find "$TESTS/fixtures" -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' | head -3)
check "fixtures: no fuzzing corpus files (${stray:-none})" [ -z "$stray" ]

# records of a store as "path<TAB>line<TAB>type<TAB>class<TAB>code<TAB>message"
records_tsv() {
	"$FL" list --db "$1" --json | jq -r '[.filePath, (.lineNumber|tostring),
		.errorType, (.errorClass // "-"), (.errorCode // "-"),
		(.errorMessage | gsub("\n"; "\\n") | gsub("\t"; "\\t"))] | join("\t")' |
		LC_ALL=C sort
}

# Compare a scan's records with expected.tsv (the sites each fixture must
# give, written by hand; expected.json holds the whole golden records).  An expected line whose
# message repeats one already recorded in the same file is a duplicate
# site: it is kept as the record's other site, not as a record.
compare_expected() { # expected.tsv actual.tsv
	awk -F'\t' '
		NR == FNR { act[$0] = 1; k = $1 FS $3 FS $4 FS $5 FS $6; actkey[k] = $2; next }
		/^[ \t]*$/ { next }
		{
			if ($0 in act) { delete act[$0]; next }
			k = $1 FS $3 FS $4 FS $5 FS $6
			if ((k in actkey) && actkey[k] + 0 < $2 + 0) next
			print "missing:    " $0; bad = 1
		}
		END { for (a in act) { print "unexpected: " a; bad = 1 } exit bad }
	' "$2" "$1"
}

for fx in "$TESTS"/fixtures/*/; do
	lang=$(basename "$fx")
	[ -f "$fx/expected.tsv" ] || continue
	tree="$WORK/fx-$lang"
	cp -r "$fx" "$tree"
	rm -f "$tree/expected.tsv" "$tree/expected.json"
	db="$WORK/fx-$lang.db"
	"$FL" scan "$tree" --repo "acme/$lang" --db "$db" --json >"$WORK/fx.json" 2>"$WORK/fx.err"
	check "fixture $lang: scan succeeds" [ $? -eq 0 ]
	records_tsv "$db" >"$WORK/fx-$lang.tsv"
	if diff_out=$(compare_expected "$fx/expected.tsv" "$WORK/fx-$lang.tsv"); then
		ok "fixture $lang: records match expected.tsv"
	else
		bad "fixture $lang: records match expected.tsv" "$(printf '%s\n' "$diff_out" | head -n 20)"
	fi
	# the whole records, against the golden ones (scripts/update-golden.sh)
	"$FL" list --db "$db" --json | bash "$TESTS/golden-filter.sh" >"$WORK/fx-$lang.json"
	if diff_out=$(diff -u "$fx/expected.json" "$WORK/fx-$lang.json"); then
		ok "fixture $lang: records equal the golden expected.json"
	else
		bad "fixture $lang: records equal the golden expected.json" "$(printf '%s\n' "$diff_out" | head -n 30)"
	fi
	# every record is valid JSON of the spec and explain-ready
	n=$("$FL" list --db "$db" --json | jq -s 'length')
	check "fixture $lang: records exist" [ "$n" -gt 0 ]
	bad_ids=$("$FL" list --db "$db" --json | jq -r 'select((.id|test("^[0-9a-f]{16}$"))|not) | .id')
	check "fixture $lang: ids well-formed" [ -z "$bad_ids" ]
	check "fixture $lang: skipped test files were counted" \
		[ "$(jq '.skipped.tests' "$WORK/fx.json")" -ge 1 ]
done

# ---- a git repository at two commits -------------------------------------------
repo="$WORK/demo"
mkdir -p "$repo/pkg" "$repo/tests" "$repo/examples"
git -C "$repo" init -q -b main
git -C "$repo" remote add origin https://github.com/acme/demo.git
cat >"$repo/pkg/core.py" <<'PY'
def load(path):
    if not path:
        raise ValueError("path must not be empty")
    return open(path).read()


def parse(text):
    if text.startswith("#"):
        raise SyntaxError(f"comment at start of {text!r}")
    return text
PY
cat >"$repo/tests/test_core.py" <<'PY'
def test_x():
    raise AssertionError("only in a test")
PY
cat >"$repo/examples/demo.py" <<'PY'
raise RuntimeError("only in an example")
PY
printf 'ignored.py\n' >"$repo/.gitignore"
printf 'raise RuntimeError("ignored file")\n' >"$repo/ignored.py"
git -C "$repo" add -A && git -C "$repo" commit -qm one
sha1=$(git -C "$repo" rev-parse HEAD)
db="$WORK/demo.db"
"$FL" scan "$repo" --db "$db" --json >"$WORK/s1.json"
check "git scan 1: repo from origin remote" [ "$(jq -r .repo "$WORK/s1.json")" = "acme/demo" ]
check "git scan 1: analyzedSha is HEAD" [ "$(jq -r .analyzedSha "$WORK/s1.json")" = "$sha1" ]
check "git scan 1: two records" [ "$(jq .records "$WORK/s1.json")" -eq 2 ]
check "git scan 1: all added" [ "$(jq .store.added "$WORK/s1.json")" -eq 2 ]
check "git scan 1: test and example files skipped" \
	[ "$(jq '.skipped.tests + .skipped["vendored/build/docs/example folders"]' "$WORK/s1.json")" -ge 2 ]
check "git scan 1: ignored file not read" bash -c "! '$FL' list --db '$db' | grep -q 'ignored file'"
url=$("$FL" list --db "$db" --json | jq -r 'select(.errorMessage=="path must not be empty") | .githubUrl')
check "git scan 1: permalink pinned to the commit" \
	[ "$url" = "https://github.com/acme/demo/blob/$sha1/pkg/core.py#L1-L10" ]
changed_at1=$("$FL" list --db "$db" --json | jq -r 'select(.errorMessage=="path must not be empty") | .contentChangedAt')
sleep 0.05
# commit 2: first raise unchanged, second removed, a new one added
cat >"$repo/pkg/core.py" <<'PY'
def load(path):
    if not path:
        raise ValueError("path must not be empty")
    return open(path).read()


def parse(text):
    if len(text) > 100:
        raise OverflowError("text too long: %d" % len(text))
    return text
PY
git -C "$repo" commit -qam two
sha2=$(git -C "$repo" rev-parse HEAD)
"$FL" scan "$repo" --db "$db" --json >"$WORK/s2.json"
check "git scan 2: one added" [ "$(jq .store.added "$WORK/s2.json")" -eq 1 ]
check "git scan 2: one removed" [ "$(jq .store.removed "$WORK/s2.json")" -eq 1 ]
check "git scan 2: one unchanged" [ "$(jq .store.unchanged "$WORK/s2.json")" -eq 1 ]
check "git scan 2: vanished record gone" bash -c "! '$FL' list --db '$db' | grep -q 'comment at start'"
check "git scan 2: new record present" bash -c "'$FL' list --db '$db' | grep -q 'text too long: %d'"
changed_at2=$("$FL" list --db "$db" --json | jq -r 'select(.errorMessage=="path must not be empty") | .contentChangedAt')
check "git scan 2: unchanged record keeps contentChangedAt" [ "$changed_at1" = "$changed_at2" ]
sha_now=$("$FL" list --db "$db" --json | jq -r 'select(.errorMessage=="path must not be empty") | .analyzedSha')
check "git scan 2: unchanged record re-pinned to the new commit" [ "$sha_now" = "$sha2" ]
# --rev reads an older commit from the object store, no checkout
"$FL" scan "$repo" --rev "$sha1" --db "$WORK/rev.db" --json >"$WORK/s3.json"
check "--rev: analyzedSha is that commit" [ "$(jq -r .analyzedSha "$WORK/s3.json")" = "$sha1" ]
check "--rev: records of that commit" bash -c "'$FL' list --db '$WORK/rev.db' | grep -q 'comment at start'"
# a bare repository
git clone -q --bare "$repo" "$WORK/demo-bare.git"
"$FL" scan "$WORK/demo-bare.git" --repo acme/demo --db "$WORK/bare.db" --json >"$WORK/s4.json"
check "bare repository: scanned at HEAD" [ "$(jq -r .analyzedSha "$WORK/s4.json")" = "$sha2" ]
check "bare repository: two records" [ "$(jq .records "$WORK/s4.json")" -eq 2 ]
"$FL" scan "$WORK/demo-bare.git" --db "$WORK/bare2.db" --json >"$WORK/s4b.json"
check "bare repository: local name without .git" [ "$(jq -r .repo "$WORK/s4b.json")" = "local/demo-bare" ]
# the git directory of a work tree (or a mirror without core.bare) is read
# like a bare repository: HEAD from the object store
"$FL" scan "$repo/.git" --db "$WORK/gitdir.db" --json >"$WORK/s4c.json"
check "git directory: scanned at HEAD" [ "$(jq -r .analyzedSha "$WORK/s4c.json")" = "$sha2" ]
check "git directory: same records as the work tree" [ "$(jq .records "$WORK/s4c.json")" -eq 2 ]
check "git directory: repo from its origin remote" [ "$(jq -r .repo "$WORK/s4c.json")" = "acme/demo" ]
mkdir -p "$WORK/noremote"
git -C "$WORK/noremote" init -q -b main
printf 'raise ValueError("raised in a repository without a remote")\n' >"$WORK/noremote/m.py"
git -C "$WORK/noremote" add m.py && git -C "$WORK/noremote" commit -qm one
"$FL" scan "$WORK/noremote/.git" --db "$WORK/gitdir2.db" --json >"$WORK/s4d.json"
check "git directory without a remote: named after its project" [ "$(jq -r .repo "$WORK/s4d.json")" = "local/noremote" ]
# --include-tests and --exclude
"$FL" scan "$repo" --include-tests --db "$WORK/inc.db" >/dev/null
check "--include-tests scans test files" bash -c "'$FL' list --db '$WORK/inc.db' | grep -q 'only in a test'"
"$FL" scan "$repo" --exclude 'pkg/*' --db "$WORK/exc.db" --json >"$WORK/s5.json"
check "--exclude skips matching files" [ "$(jq .records "$WORK/s5.json")" -eq 0 ]
"$FL" scan "$repo" --rev no-such-rev --db "$WORK/bad.db" >/dev/null 2>"$WORK/e.txt"
check "--rev of an unknown revision fails clearly" grep -q "no-such-rev" "$WORK/e.txt"

# ---- Gradle / Kotlin Multiplatform source sets --------------------------------------
kmp="$WORK/kmp"
mkdir -p "$kmp/lib/src/commonMain/kotlin" "$kmp/lib/src/jvmTest/kotlin" \
	"$kmp/lib/src/androidUnitTest/kotlin" "$kmp/lib/src/testFixtures/java" \
	"$kmp/lib/src/jmh/java"
printf 'fun f(x: Int) { require(x > 0) { "x must be positive" } }\n' >"$kmp/lib/src/commonMain/kotlin/F.kt"
printf 'fun t() { throw IllegalStateException("only in jvmTest") }\n' >"$kmp/lib/src/jvmTest/kotlin/T.kt"
printf 'fun u() { throw IllegalStateException("only in androidUnitTest") }\n' >"$kmp/lib/src/androidUnitTest/kotlin/U.kt"
printf 'class Fx { void f() { throw new IllegalStateException("only in testFixtures"); } }\n' >"$kmp/lib/src/testFixtures/java/Fx.java"
printf 'class B { void b() { throw new IllegalStateException("only in a JMH benchmark"); } }\n' >"$kmp/lib/src/jmh/java/B.java"
"$FL" scan "$kmp" --db "$WORK/kmp.db" --json >"$WORK/kmp.json"
check "gradle source sets: main code scanned" bash -c "'$FL' list --db '$WORK/kmp.db' | grep -q 'x must be positive'"
check "gradle source sets: jvmTest, androidUnitTest, testFixtures skipped as tests" [ "$(jq .skipped.tests "$WORK/kmp.json")" -eq 3 ]
check "gradle source sets: src/jmh skipped as benchmarks" [ "$(jq '.skipped["vendored/build/docs/example folders"]' "$WORK/kmp.json")" -eq 1 ]
check "gradle source sets: one record" [ "$(jq .records "$WORK/kmp.json")" -eq 1 ]

# data a family reads for its tree (a message bundle, an XML rule
# catalogue) is no source of its language: the build's pom.xml counts as
# no PHP file, the bundle as no Java one
printf '<project><modelVersion>4.0.0</modelVersion></project>\n' >"$kmp/pom.xml"
mkdir -p "$kmp/lib/src/main/resources"
printf 'x.y=Some text here\n' >"$kmp/lib/src/main/resources/messages.properties"
"$FL" scan "$kmp" --db "$WORK/kmp2.db" --json >"$WORK/kmp2.json"
check "data files: read, counted among the files scanned" [ "$(jq .files.scanned "$WORK/kmp2.json")" -eq "$(($(jq .files.scanned "$WORK/kmp.json") + 2))" ]
check "data files: no language's source files" [ "$(jq -c '[.languages[] | [.language, .files]]' "$WORK/kmp2.json")" = '[["jvm",1]]' ]

# ---- interpolation holes that span lines stay on one line -------------------------
mlp="$WORK/holes"
mkdir -p "$mlp"
printf 'class A { void f(int x) { throw new InvalidOperationException($"bad {Math.Max(\n   x, 1)} here"); } }\n' >"$mlp/a.cs"
printf 'def f(x)\n  raise ArgumentError, "bad #{x.fetch(\n    1)} here"\nend\n' >"$mlp/a.rb"
printf 'function f(x) { throw new Error(`bad ${x.get(\n  1)} here`); }\n' >"$mlp/a.js"
printf 'fun f(x: Int) { throw IllegalStateException("bad ${x.plus(\n  1)} here") }\n' >"$mlp/a.kt"
"$FL" scan "$mlp" --db "$WORK/holes.db" >/dev/null
"$FL" list --db "$WORK/holes.db" --json | jq -r '"\(.filePath) \(.errorMessage)"' | LC_ALL=C sort >"$WORK/holes.txt"
printf '%s\n' 'a.cs bad {Math.Max( x, 1)} here' 'a.js bad ${x.get( 1)} here' 'a.kt bad ${x.plus( 1)} here' 'a.rb bad {x.fetch( 1)} here' >"$WORK/holes.want"
check "multi-line interpolation holes squeezed (C#, JS, Kotlin, Ruby)" cmp -s "$WORK/holes.txt" "$WORK/holes.want"

# ---- a plain folder: same content, same digest ------------------------------------
mkdir -p "$WORK/plain"
cp "$repo/pkg/core.py" "$WORK/plain/"
"$FL" scan "$WORK/plain" --db "$WORK/plain.db" --json >"$WORK/p1.json"
"$FL" scan "$WORK/plain" --db "$WORK/plain.db" --json >"$WORK/p2.json"
check "plain folder: repo local/<name>" [ "$(jq -r .repo "$WORK/p1.json")" = "local/plain" ]
check "plain folder: 40-hex digest" bash -c "jq -r .analyzedSha '$WORK/p1.json' | grep -qE '^[0-9a-f]{40}$'"
check "plain folder: digest is stable" [ "$(jq -r .analyzedSha "$WORK/p1.json")" = "$(jq -r .analyzedSha "$WORK/p2.json")" ]
check "plain folder: file:// permalink" bash -c "'$FL' list --db '$WORK/plain.db' --json | jq -r .githubUrl | grep -q '^file://'"
# a plain folder is walked without libgit2 (whose start reads the TLS
# certificates); a folder inside a work tree is read through it, at the
# repository's commit
LD_DEBUG=files "$FL" scan "$WORK/plain" --db "$WORK/plain.db" >/dev/null 2>"$WORK/ld-plain.txt"
check "plain folder: libgit2 not loaded" bash -c "! grep -q 'file=libgit2' '$WORK/ld-plain.txt'"
LD_DEBUG=files "$FL" scan "$repo/pkg" --db "$WORK/sub.db" --json >"$WORK/sub.json" 2>"$WORK/ld-sub.txt"
check "folder of a work tree: libgit2 loaded" grep -q 'file=libgit2' "$WORK/ld-sub.txt"
check "folder of a work tree: scanned at the repository's commit" \
	[ "$(jq -r .analyzedSha "$WORK/sub.json")" = "$(git -C "$repo" rev-parse HEAD)" ]

# ---- generated files: skipped by their header ------------------------------------
mkdir -p "$WORK/gen"
printf '// Code generated by protoc-gen-go. DO NOT EDIT.\npackage pb\nimport "errors"\nvar ErrX = errors.New("generated error")\n' >"$WORK/gen/x.pb.go"
printf '#line 2 "lexer.c"\n\n/* A lexical scanner generated by flex */\n#include <stdio.h>\nvoid f(void) { fprintf(stderr, "flex scanner jammed\\n"); }\n' >"$WORK/gen/lexer.c"
printf '/* A Bison parser, made by GNU Bison 3.8.2.  */\n#include <stdio.h>\nvoid g(void) { fprintf(stderr, "memory exhausted\\n"); }\n' >"$WORK/gen/parser.c"
printf '#include <stdio.h>\nvoid h(void) { fprintf(stderr, "a real error here\\n"); }\n' >"$WORK/gen/main.c"
"$FL" scan "$WORK/gen" --db "$WORK/gen.db" --json >"$WORK/gen.json"
check "generated files: protoc, flex and bison output skipped" \
	[ "$(jq .skipped.generated "$WORK/gen.json")" = 3 ]
check "generated files: the hand-written file's record only" \
	[ "$("$FL" list --db "$WORK/gen.db" --json | jq -r .errorMessage)" = "a real error here" ]

# ---- documentation sources (FastAPI's docs_src/) and Go's _examples/: skipped --------
mkdir -p "$WORK/ds/docs_src/tutorial" "$WORK/ds/app" "$WORK/ds/_examples/rest" \
	"$WORK/ds/src/Snippets/Docs" "$WORK/ds/src/Acme.Benchmarks" "$WORK/ds/Samples"
printf 'raise ValueError("from a tutorial")\n' >"$WORK/ds/docs_src/tutorial/t1.py"
# .NET trees: PascalCase folders and projects of docs, samples and benchmarks
printf 'class A { void M() { throw new InvalidOperationException("from a doc snippet"); } }\n' \
	>"$WORK/ds/src/Snippets/Docs/Chaos.cs"
printf 'class B { void M() { throw new InvalidOperationException("from a benchmark"); } }\n' \
	>"$WORK/ds/src/Acme.Benchmarks/Run.cs"
printf 'class C { void M() { throw new InvalidOperationException("from a sample"); } }\n' \
	>"$WORK/ds/Samples/Demo.cs"
printf 'package main\nfunc main() { panic("from a Go example") }\n' >"$WORK/ds/_examples/rest/main.go"
# Cargo's benches/ and test-only helper packages (Go's testutil, Rust's test_helpers)
mkdir -p "$WORK/ds/benches" "$WORK/ds/internal/testutil" "$WORK/ds/src/test_helpers"
printf 'fn b() { panic!("from a cargo bench"); }\n' >"$WORK/ds/benches/route.rs"
printf 'package testutil\nfunc Must() { panic("from a test helper package") }\n' >"$WORK/ds/internal/testutil/must.go"
printf 'pub fn w() { panic!("from test helpers"); }\n' >"$WORK/ds/src/test_helpers/mod.rs"
printf 'raise ValueError("from the application")\n' >"$WORK/ds/app/main.py"
"$FL" scan "$WORK/ds" --db "$WORK/ds.db" --json >"$WORK/ds.json"
check "docs_src, _examples, Docs, Samples, X.Benchmarks, benches, testutil, test_helpers: skipped" \
	[ "$("$FL" list --db "$WORK/ds.db" --json | jq -r .errorMessage)" = "from the application" ]

# ---- bad input: binary, invalid UTF-8, NUL bytes, huge line ------------------------
mkdir -p "$WORK/junk"
head -c 200000 /dev/urandom >"$WORK/junk/random.py"
printf 'raise ValueError("bad \xff\xfe bytes here")\n' >"$WORK/junk/badutf8.py"
printf 'raise ValueError("before nul")\n\0\0\0\n' >"$WORK/junk/nul.py"
{ printf 'x = "'; head -c 3000000 /dev/zero | tr '\0' 'a'; printf '"\n'; } >"$WORK/junk/huge.py"
printf 'raise ValueError("unterminated\n' >"$WORK/junk/unterminated.py"
# a Node-style error class whose name holds invalid UTF-8: the code is the message
printf 'throw new ERR_BAD\xb7\xb3TYPE(name)\n' >"$WORK/junk/badcode.js"
"$FL" scan "$WORK/junk" --db "$WORK/junktree.db" --json >"$WORK/j.json" 2>"$WORK/e.txt"
check "junk tree: scan succeeds" [ $? -eq 0 ]
check "junk tree: binary and huge files skipped" \
	[ "$(jq '.skipped.binary + .skipped["over 1 MB"]' "$WORK/j.json")" -ge 2 ]
check "junk tree: invalid UTF-8 replaced, record kept" \
	bash -c "'$FL' list --db '$WORK/junktree.db' --json | jq -r .errorMessage | grep -q 'bad .*bytes here'"
check "junk tree: an error code with invalid UTF-8 is repaired, not fatal" \
	bash -c "'$FL' list --db '$WORK/junktree.db' --json | jq -r 'select(.filePath == \"badcode.js\") | .errorMessage' | grep -q '^ERR_BAD.*TYPE\$'"
check "junk tree: no record left out as invalid" [ "$(jq .invalid "$WORK/j.json")" = 0 ]
# a file whose name holds a backslash cannot be a record's filePath: that
# file is left out with a warning naming it, the rest is stored (the other
# names that cannot be a filePath: t_attack_scan.sh)
mkdir -p "$WORK/bs"
printf 'raise ValueError("from a file with a backslash in its name")\n' >"$WORK/bs/we\\ird.py"
printf 'raise ValueError("from a normal file")\n' >"$WORK/bs/ok.py"
"$FL" scan "$WORK/bs" --db "$WORK/bs.db" --json >"$WORK/bs.json" 2>"$WORK/bs.err"
check "backslash in a name: the scan succeeds" [ $? -eq 0 ]
check "backslash in a name: the file counted as left out, the others stored" \
	[ "$(jq -c '[.skipped["name not a filePath"], .records, .invalid]' "$WORK/bs.json")" = "[1,1,0]" ]
check "backslash in a name: the warning names the file" grep -qF 'warning: 1 file left out because its name cannot be a filePath (not UTF-8, or holding a newline, carriage return or backslash): "we\\ird.py"' "$WORK/bs.err"

# ---- a killed scan leaves the previous state whole ----------------------------------
big="$WORK/big"
mkdir -p "$big"
for i in $(seq 1 400); do
	for j in $(seq 1 20); do
		printf 'def f%d_%d(x):\n    if x:\n        raise ValueError("error %d in file %d")\n' "$i" "$j" "$j" "$i"
	done >"$big/m$i.py"
done
"$FL" scan "$big" --repo acme/big --db "$WORK/big.db" >/dev/null
before=$("$FL" list --db "$WORK/big.db" | wc -l)
for i in $(seq 401 420); do printf 'raise ValueError("new %d")\n' "$i" >"$big/n$i.py"; done
whole=1
for delay in 0.02 0.05 0.1 0.15 0.2 0.3; do
	"$FL" scan "$big" --repo acme/big --db "$WORK/big.db" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	now=$("$FL" list --db "$WORK/big.db" | wc -l)
	if [ "$now" -ne "$before" ] && [ "$now" -ne $((before + 20)) ]; then whole=0; fi
done
check "killed scans leave the store whole (old or new, never partial)" [ "$whole" -eq 1 ]
# a first scan into a new store (filled with a rollback journal, then
# WAL): killed, the store is empty and whole; finished, it is in WAL mode
whole=1
for delay in 0.02 0.05 0.1 0.2; do
	rm -f "$WORK/first.db" "$WORK/first.db-journal" "$WORK/first.db-wal" "$WORK/first.db-shm"
	"$FL" scan "$big" --repo acme/big --db "$WORK/first.db" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	now=$("$FL" list --db "$WORK/first.db" 2>/dev/null | wc -l)
	if [ "$now" -ne 0 ] && [ "$now" -ne $((before + 20)) ]; then whole=0; fi
	# and the next scan into it, from wherever the kill left it, is whole
	"$FL" scan "$big" --repo acme/big --db "$WORK/first.db" >/dev/null 2>&1 || whole=0
	now=$("$FL" list --db "$WORK/first.db" | wc -l)
	[ "$now" -eq $((before + 20)) ] || whole=0
done
check "a killed first scan leaves a new store empty or whole, and scannable" [ "$whole" -eq 1 ]
rm -f "$WORK/first.db" "$WORK/first.db-wal" "$WORK/first.db-shm"
"$FL" scan "$big" --repo acme/big --db "$WORK/first.db" >/dev/null 2>&1
check "a first scan leaves the new store in WAL mode" \
	[ "$(sqlite3 "$WORK/first.db" 'PRAGMA journal_mode')" = wal ]
check "a first scan's records are all there" \
	[ "$("$FL" list --db "$WORK/first.db" | wc -l)" -eq $((before + 20)) ]
# the scan history: a finished scan is logged with its counts (in the
# scan's own transaction), a failed one with its error
check "a finished scan is logged once, with its record count" \
	[ "$(sqlite3 "$WORK/first.db" "SELECT count(*) || ' ' || outcome || ' ' || records || ' ' || repo FROM scans")" = "1 ok $((before + 20)) acme/big" ]
"$FL" scan "$big" --repo acme/big --rev no-such-rev --db "$WORK/first.db" >/dev/null 2>&1
check "a failed scan is logged as failed, with its error" \
	[ "$(sqlite3 "$WORK/first.db" "SELECT outcome || ' ' || (message LIKE '%no-such-rev%') FROM scans ORDER BY id DESC LIMIT 1")" = "failed 1" ]

# issue 22: a plain folder has no commit of its own: file:// permalinks,
# unless --commit says which commit the folder is
rm -rf "$WORK/plainlinks"
cp -r "$TESTS/fixtures/go" "$WORK/plainlinks"
rm -f "$WORK/plainlinks"/expected.*
"$FL" scan "$WORK/plainlinks" --repo acme/pl --db "$WORK/pl.db" --json >"$WORK/pl.json"
check "plain folder: the summary says its links are file:// links" [ "$(jq -r .permalinks "$WORK/pl.json")" = file ]
check "plain folder: every permalink is a file:// link to the file" \
	bash -c "'$FL' list --db '$WORK/pl.db' --json | jq -e -s 'length > 0 and all(.githubUrl | startswith(\"file://$WORK/plainlinks/\"))' >/dev/null"
PLC=0123456789abcdef0123456789abcdef01234567
"$FL" scan "$WORK/plainlinks" --repo acme/pl --db "$WORK/pl.db" --commit $PLC --json >"$WORK/pl.json"
check "plain folder with --commit: analyzedSha is that commit" [ "$(jq -r .analyzedSha "$WORK/pl.json")" = $PLC ]
check "plain folder with --commit: permalinks at that commit" \
	bash -c "'$FL' list --db '$WORK/pl.db' --json | jq -e -s 'all(.githubUrl | startswith(\"https://github.com/acme/pl/blob/$PLC/\"))' >/dev/null"
"$FL" scan "$WORK/plainlinks" --commit 12345 --db "$WORK/pl.db" >/dev/null 2>&1
check "scan --commit that is not a commit id is a usage error" [ $? -eq 2 ]

# Java throwers as real trees write them, through the whole scan (its
# byte prefilter included): a braced `if (!ok) { throw ...; }`, a checker
# that returns what it checked, varargs a call leaves out, a template
# formatted by lenientFormat or String.format, and a thrower that hands
# its parameters to another (Guava's verifyNotNull -> verify)
TH="$WORK/throwers/src/org/acme"
mkdir -p "$TH"
cat >"$TH/Verify.java" <<'JAVA'
package org.acme;

public final class Verify {
    public static void verify(boolean expression, String errorMessageTemplate, Object... errorMessageArgs) {
        if (!expression) {
            throw new VerifyException(lenientFormat(errorMessageTemplate, errorMessageArgs));
        }
    }

    public static <T> T verifyNotNull(T reference, String errorMessageTemplate, Object... errorMessageArgs) {
        verify(reference != null, errorMessageTemplate, errorMessageArgs);
        return reference;
    }

    public static <T> T requireThing(T obj, String message) {
        if (obj == null)
            throw new NullPointerException(message);
        return obj;
    }

    public static void checkState(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }

    public static void checkReady(boolean ok, String template, Object arg) {
        checkState(ok, String.format(template, arg));
    }
}
JAVA
cat >"$TH/Use.java" <<'JAVA'
package org.acme;

public class Use {
    void go(Object conf, boolean ready) {
        Verify.verify(ready, "the widget engine is not ready");
        Verify.verifyNotNull(conf, "the widget config %s was never loaded", "x");
        Verify.requireThing(conf, "the widget needs an owner");
        Verify.checkReady(ready, "the widget %s is not warm", conf);
    }
}
JAVA
"$FL" scan "$WORK/throwers" --repo acme/throwers --db "$WORK/throwers.db" >/dev/null 2>&1
# throwers_site TEXT: "file:line guard" of the record explain answers
throwers_site() {
	"$FL" explain --db "$WORK/throwers.db" --json "$1" | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"'
}
check "java thrower: braced if, varargs left out" [ "$(throwers_site 'the widget engine is not ready')" = src/org/acme/Use.java:5 ]
check "java thrower: a thrower handing its parameters to another" [ "$(throwers_site 'the widget config 42 was never loaded')" = src/org/acme/Use.java:6 ]
check "java thrower: a checker that returns what it checked" [ "$(throwers_site 'the widget needs an owner')" = src/org/acme/Use.java:7 ]
check "java thrower: a template formatted and handed on" [ "$(throwers_site 'the widget pump is not warm')" = src/org/acme/Use.java:8 ]
check "java thrower: the handed-on call's condition in the caller's words" \
	[ "$("$FL" list --db "$WORK/throwers.db" --json | jq -r 'select(.lineNumber == 6 and (.filePath | endswith("Use.java"))) | .triggerScenarios' | grep -c '`conf` is `null`')" = 1 ]

# a script named without an extension is scanned in the family of its `#!`
# line's interpreter: in a work tree, a commit read from the object store
# and a history scan alike; a shell script, a binary and a README are not
SCR="$WORK/scripts"
mkdir -p "$SCR/bin"
git init -q "$SCR"
printf '#!/usr/bin/env node\nif (!process.argv[2]) {\n  throw new Error("quillpen needs an input file");\n}\n' >"$SCR/bin/quillpen"
printf '#!/usr/bin/python3.11 -u\nraise SystemExit("inkwell: no such profile")\n' >"$SCR/bin/inkwell"
printf '#!/bin/sh\necho "Error: a shell script, not scanned" >&2\nexit 1\n' >"$SCR/bin/wrapper"
printf '\177ELF\002\001\001\000raise ValueError("in a binary")\n' >"$SCR/bin/compiled"
printf 'raise ValueError("in a readme")\n' >"$SCR/README"
git -C "$SCR" add -A && git -C "$SCR" commit -qm scripts && git -C "$SCR" tag v1.0.0
"$FL" scan "$SCR" --repo acme/scripts --db "$WORK/scripts.db" >/dev/null 2>&1
scripts_sites() { sqlite3 "$1" "SELECT file_path || ':' || line_number || ':' || language FROM errors ORDER BY 1" | tr '\n' ' '; }
want="bin/inkwell:2:python bin/quillpen:3:js "
check "script: the #! line's family, in a work tree" [ "$(scripts_sites "$WORK/scripts.db")" = "$want" ]
"$FL" scan "$SCR" --repo acme/scripts --rev v1.0.0 --db "$WORK/scripts-rev.db" >/dev/null 2>&1
check "script: the #! line's family, from the object store" [ "$(scripts_sites "$WORK/scripts-rev.db")" = "$want" ]
"$FL" scan "$SCR" --repo acme/scripts --history --db "$WORK/scripts-hist.db" >/dev/null 2>&1
check "script: the #! line's family, in a history scan" [ "$(scripts_sites "$WORK/scripts-hist.db")" = "$want" ]
check "script: explain finds the script's line" \
	[ "$("$FL" explain --db "$WORK/scripts.db" --json 'Error: quillpen needs an input file' | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')" = bin/quillpen:3 ]
