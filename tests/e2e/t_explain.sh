# explain and grep-log on the fixture trees: errors as their runtimes print
# them must lead back to the file and line that raised them.

edb="$WORK/explain.db"
for l in python go rust js c ruby php; do
	[ -d "$TESTS/fixtures/$l" ] || continue
	cp -r "$TESTS/fixtures/$l" "$WORK/ex-$l"
	rm -f "$WORK/ex-$l/expected.tsv"
	"$FL" scan "$WORK/ex-$l" --repo "acme/$l" --db "$edb" >/dev/null 2>&1
done

# explain_top NAME EXPECTED-PATH:LINE TEXT
explain_top() {
	local name=$1 want=$2 text=$3 got
	got=$("$FL" explain --db "$edb" --json "$text" 2>/dev/null |
		jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')
	if [ "$got" = "$want" ]; then ok "explain: $name"; else bad "explain: $name" "got $got, want $want"; fi
}

# a code's text from a table function, printed after the file by the
# program's reporter: the printing line first (the table's line defines
# the text); the text or the code alone, the table's line (fixture
# c/src/codetext.c)
explain_top "c: a code's text printed by the reporter" "src/codetext.c:35" 'shelfctl: /srv/a.shelf: Shelf data is corrupt'
explain_top "c: a code's text alone" "src/codetext.c:22" 'Shelf data is corrupt'
explain_top "c: the code of a code's text" "src/codetext.c:22" 'SHELF_DATA_ERROR'
explain_top "python traceback" "inventory/api.py:16" 'Traceback (most recent call last):
  File "/srv/app/inventory/api.py", line 16, in get_item
    raise HTTPException(status_code=404, detail=f"Item {sku} not found")
fastapi.exceptions.HTTPException: Item ABC-1 not found'
# a raise of a text made elsewhere (a caught error's, a key): the class
# and the traceback's frame that names the line
explain_top "python: a raise of a value's text, named by its frame" "inventory/counts.py:9" 'Traceback (most recent call last):
  File "/srv/app/inventory/counts.py", line 6, in parse_count
    return int(text)
ValueError: invalid literal for int() with base 10: '"'x'"'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
  File "/srv/app/inventory/counts.py", line 9, in parse_count
    raise ValueError(reason)
ValueError: invalid literal for int() with base 10: '"'x'"''
explain_top "python: a KeyError of a key, named by its frame" "inventory/counts.py:14" 'Traceback (most recent call last):
  File "/srv/app/inventory/counts.py", line 14, in bin_of
    raise KeyError(key)
KeyError: '"'A-7'"''
# a report that says it is an error, around a stored exception's text
# that quotes the tokenizer's: the raise whose placeholder is named for
# the error it holds (not the one that shows a source line), first
explain_top "python: an error text around a quoted cause" "inventory/shelfmt.py:33" 'error: cannot format shelves.txt: Cannot parse shelf: 1: EOF in multi-line shelf entry'
explain_top "python: a report that says it is an error" "inventory/shelfmt.py:43" 'error: cannot format shelves.txt: [Errno 2] No such file or directory'
explain_top "python: a class's text around a local's message" "inventory/palletjson.py:16" "inventory.palletjson.PalletDecodeError: Invalid turnip control character '\\t' at: line 1 column 5 (char 4)"
explain_top "python: a call of the file's own fail, not another file's" "inventory/pallets.py:27" "Can't find turnips for pallet 'north-7'"
explain_top "python: a text handed to a helper that never returns" "inventory/pallets.py:17" 'pallets.ini:2: error: Can'"'"'t find pallet plugin "north.py"  [misc]'
# a chain of tracebacks: the last one's raise (a record of its class
# alone), not the cause whose message matched at an earlier frame
explain_top "python: a chain's last raise before its cause's" "inventory/stocklink.py:20" 'Traceback (most recent call last):
  File "/srv/app/inventory/stocklink.py", line 11, in open_link
ConnectionRefusedError: [Errno 111] Connection refused

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/inventory/stocklink.py", line 18, in fetch
  File "/srv/app/inventory/stocklink.py", line 13, in open_link
inventory.stocklink.NewLinkError: Failed to open a link to the stock host: [Errno 111] Connection refused

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
  File "/srv/app/inventory/stocklink.py", line 20, in fetch
inventory.stocklink.StockLinkError: Failed to open a link to the stock host: [Errno 111] Connection refused'
# a text written into an error buffer that a reporter prints later, and a
# log-code printer's warning (rsync's snprintf(err_buf, ...) and rprintf)
explain_top "c: an error buffer's text, where it was written" "src/shelfsync.c:22" "shelfsync: --append cannot be used with --whole-crate"
explain_top "c: a log code's warning" "src/shelfsync.c:38" 'skipping non-regular crate "north/7"'
# a lint message reported by its symbol, its text and code in a table of
# messages (pylint's checkers)
explain_top "python: a message table's text, reported by symbol" "inventory/lint/ledger_checker.py:15" "books.ldg:12:0: W7101: Ledger entry J-44 is not balanced (120 debit, 100 credit) (unbalanced-entry)"
# a C helper whose parameter is error()'s format: its call's literal
explain_top "c: a helper's format parameter, given at its call" "src/shelfls.c:26" "shelfls: cannot access shelf 'east-9': No such file or directory"
# one text in the files of two programs: the program its line names
# (shelfdu.c comes first without it: each program is asked for, the
# first file's and the second's)
explain_top "c: the program a line names is its file's" "src/shelfdu.c:15" "shelfdu: cannot access shelf 'east-9': No such file or directory"
explain_top "c: the program a line names is its file's, the second" "src/shelfls.c:26" "shelfls: cannot access shelf 'east-9': No such file or directory"
explain_top "c: the program of the pasted command is its file's" "src/shelfls.c:26" "\$ sudo shelfls east-9
cannot access shelf 'east-9': No such file or directory"
explain_top "c: no program named, the first file's" "src/shelfdu.c:15" "cannot access shelf 'east-9': No such file or directory"
# a reporter that formats its parameter into "ERROR: {}": its call's text
explain_top "python: a reporter's call, its text formatted in" "inventory/shelfcfg.py:14" 'ERROR: --devenv takes a single shelf'
# a reporter object's levels, as a logger's (self.reporter.warning(...))
explain_top "python: a reporter object's warning" "inventory/markup.py:31" 'WARNING: Emphasis start-string without end-string.'
# a chain whose first traceback is Python's own IndexError: the last
# traceback's exception is the error printed
explain_top "python: a chain's last exception before Python's own first" "inventory/markup.py:21" 'Traceback (most recent call last):
  File "/srv/app/inventory/markup.py", line 30, in parse
IndexError: list index out of range

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/inventory/markup.py", line 33, in parse
  File "/srv/app/inventory/markup.py", line 21, in system_message
inventory.markup.LabelError: <label>:1: (level 3) the label holds a broken mark'
# an error class that gives its base a fixed message, which the base ends
# with the position, made by a helper handed the class: the raise of the
# helper; a default text after `or`
explain_top "python: a class's message as its base ends it, made by a helper" "inventory/shelftoml.py:53" "inventory.shelftoml.StrayCharError: Stray character: '#' at line 3 col 7"
explain_top "python: a positional message to the base" "inventory/shelftoml.py:51" 'inventory.shelftoml.MissingValueError: Missing value after the equals sign at line 2 col 4'
explain_top "python: the default text of \`msg or ...\`" "inventory/shelftoml.py:58" 'inventory.shelftoml.ShelfError: a shelf holds at most 12 items'
# a raise of the text a property of the class returns
explain_top "python: a property's text raised" "inventory/shelftoml.py:80" "inventory.shelftoml.ShelfError: 'price' is not set on this shelf"
# texts a class keeps by key, raised by the key: a subclass's own text
# for the key, raised in its base; a formatted one
explain_top "python: a subclass's text for a key raised in its base" "inventory/shelffields.py:39" 'inventory.shelffields.FieldError: Not a weight in grams.'
explain_top "python: a keyed text formatted" "inventory/shelffields.py:41" 'inventory.shelffields.FieldError: At most 20 items fit on a shelf.'
explain_top "python: a key given to a raising method" "inventory/shelffields.py:62" 'inventory.shelffields.FieldError: A shelf label holds at most 40 characters.'
# a helper that makes the error of the class it is given, its message in
# a local, and raises it or collects it (configobj's _handle_error)
explain_top "python: a helper handed the class and the text" "inventory/shelfini.py:31" 'inventory.shelfini.DuplicateShelfError: Duplicate shelf section at line 7.'
explain_top "node: a throw of a value's text, named by its frame" "lib/shelves.js:8" 'Error: no shelf B-9
    at shelfOf (/srv/app/lib/shelves.js:8:11)
    at Object.<anonymous> (/srv/app/index.js:3:1)'
explain_top "node: a factory of error objects, at its call" "lib/bundler/stack.ts:6" '[!] BundlerError: "north" is not stacked on the pallet "src/a.js".'
explain_top "node: an error object's shorthand message property" "lib/fs.mjs:27" 'ConfigError: crate c-7 sits on no pallet'
# a factory's call in an arm of a choice; a factory without a code, its
# call's arguments put in (each call a record); one with a code (the
# file's calls are one record), a hole holding a template of its own kept
# one placeholder
explain_top "node: a factory called in a choice's first arm" "lib/bundler/options.ts:21" '[!] BundlerError: Could not find the turnip "north".'
explain_top "node: a factory's call with its arguments put in" "lib/bundler/options.ts:11" '[!] BundlerError: Invalid pallet value for option "output.gantry" - this option is not supported for "trellis".'
explain_top "node: a factory's call, a value given" "lib/bundler/options.ts:6" '[!] BundlerError: Invalid pallet value "x" for option "output.rigging" - you must set the trellis instead.'
explain_top "node: a factory with a code, a hole holding a template" "lib/bundler/options.ts:15" '[!] BundlerError: Invalid gantry value "x" for option "output.crate" - no crate is rigged.'
# a bundled program's stack names its bundle, not the sources: the frame
# that names the function of one of a record's lines points there
explain_top "node: a bundle's frame names the function of a record's line" "lib/bundler/rigging.ts:12" '[!] BundlerError: Invalid gantry value for option "output.trellis" - an empty trellis is no trellis.
    at error (/usr/share/nodejs/bundler/dist/bundler.js:293:30)
    at getTrellis (/usr/share/nodejs/bundler/dist/bundler.js:25323:20)
    at normalizeOptions (/usr/share/nodejs/bundler/dist/bundler.js:25213:29)'
explain_top "node: a bundle's frame names the function of a one-line record" "lib/bundler/loader.ts:4" 'Error: The crate manifest is unreadable
    at loadRigging (/usr/share/nodejs/bundler/dist/bundler.js:12:3)
    at main (/usr/share/nodejs/bundler/dist/bundler.js:40:1)'
explain_top "node: a thrower's template around its caller's text" "lib/lockparse.js:18" 'error An unexpected error occurred: "Invalid turnip value type 4:0 in /srv/app/pallet.lock".'
explain_top "node: a catalog text warned by an object's own reporter" "lib/widgets.js:19" 'warning The trellis at "/srv/app/north" has no rigging, skipping it.'
# a raise whose text quotes the error it caught, first though the caught
# error's own text is the longer one; a printed value that names the file
# of one of two records raising one text
explain_top "a raise quoting the error it caught" "inventory/shelfconf.py:23" \
	"invalid shelf configuration: unbalanced brackets in the shelf layout near '[a,b'"
explain_top "a printed value naming the command's file" "inventory/verbs/recount.py:11" \
	'VerbError: You must give at least one item to recount (see "inventory help recount")'
explain_top "go panic with goroutine trace" "cmd/shopd/main.go:21" 'panic: port must be set

goroutine 1 [running]:
main.main()
	/home/dev/shop/cmd/shopd/main.go:21 +0x1d
exit status 2'
explain_top "go log.Fatalf" "cmd/shopd/main.go:17" '2026/11/29 10:00:00 cannot load config: open /etc/shop.toml: no such file or directory'
explain_top "rust anyhow error from main" "src/config.rs:30" 'Error: missing key database_url'
# an error variant: its text is written when it is printed, by its
# #[error] or Display arm, first; the line that builds it next
explain_top "rust error variant's #[error]" "src/error.rs:5" 'Error: widget gizmo not found'
explain_top "rust Display variant's arm" "src/error.rs:37" 'Error: EOF while parsing a widget'
# an error printer's line naming what failed, then a raised text that
# names nothing, by the same printer: the first line is where it went
# wrong; without the printer's prefix on it, the raised text first
explain_top "rust: a printed error before the same printer's raised summary" "src/shelves.rs:20" "[shelf error]: Shelf path 'a' is not a directory.
[shelf error]: No valid shelf paths given."
explain_top "rust: a raised summary after another printer's line" "src/shelves.rs:29" "Shelf path 'a' is not a directory.
[shelf error]: No valid shelf paths given."
# a text a helper appends advice to, around a Display arm's: the raise
# of the helper's text, which says all that was printed, before the arm
explain_top "rust: a helper's advice around a Display arm's text" "src/shelves.rs:38" 'EOF while parsing a widget

Consider running `widgets repair` on the shelf file.'
check "explain: the line that builds the variant after its #[error]" \
	[ "$("$FL" explain --db "$edb" --json 'Error: widget gizmo not found' | jq -r '.matches[1] | "\(.filePath):\(.lineNumber)"')" = "src/store.rs:6" ]
check "explain: the line that builds the variant after its Display arm" \
	[ "$("$FL" explain --db "$edb" --json 'Error: EOF while parsing a widget' | jq -r '.matches[1] | "\(.filePath):\(.lineNumber)"')" = "src/store.rs:12" ]
explain_top "node error with code" "lib/fs.mjs:6" 'Error: config file /tmp/x.json does not exist
    at loadConfig (file:///app/lib/fs.mjs:6:11)
    at async main (file:///app/index.mjs:3:3) {
  code: '"'"'ENOENT'"'"'
}'
explain_top "c program error" "src/main.c:19" "shopd: invalid port 'abc'"
explain_top "c++ terminate" "src/engine.cpp:16" "terminate called after throwing an instance of 'std::invalid_argument'
  what():  thread count must be positive
Aborted (core dumped)"
explain_top "ruby exception" "app/models/order.rb:22" "app/models/order.rb:22:in \`transition!': unknown state: shipped (ArgumentError)"
explain_top "php uncaught exception" "src/Services/WidgetService.php:25" "PHP Fatal error:  Uncaught InvalidArgumentException: Widget id must be positive, got -3 in /var/www/src/Services/WidgetService.php:25"

out=$("$FL" explain --db "$edb" "lorem ipsum dolor sit amet consectetur" 2>"$WORK/e.txt"); rc=$?
check "explain: no confident match exits 3" [ $rc -eq 3 ]
check "explain: no match prints no record" [ -z "$out" ]
check "explain: says no confident match" grep -q "no confident match" "$WORK/e.txt"
printf 'panic: port must be set\n' | "$FL" explain --db "$edb" --json - >"$WORK/x.json"
check "explain -: reads stdin" [ "$(jq -r '.matches[0].lineNumber' "$WORK/x.json")" = 21 ]
check "explain --json: cli.md keys" [ "$(jq -r '.matches[0] | keys_unsorted | .[0:11] | join(",")' "$WORK/x.json")" = "id,repo,slug,code,message,score,matchType,filePath,lineNumber,githubUrl,captures" ]
# then issue #19's: the evidence, a tie's size, the other raising lines
check "explain --json: evidence keys after cli.md's" [ -z "$(jq -r '.matches[0] | keys_unsorted | .[11:] - ["evidence","sameText","alsoRaisedAt"] | .[]' "$WORK/x.json")" ]
check "explain --json: datasetVersion" bash -c "jq -r .datasetVersion '$WORK/x.json' | grep -qE '^[0-9]{4}-'"
n=$("$FL" explain --db "$edb" --repo acme/ruby --json "panic: port must be set" | jq '.matches | length')
check "explain --repo filters" [ "$n" = 0 ]
"$FL" explain --db "$edb" --limit 0 x >/dev/null 2>&1; rc=$?
check "explain --limit 0 is a usage error" [ $rc -eq 2 ]
: | "$FL" explain --db "$edb" - >/dev/null 2>&1; rc=$?
check "explain of empty input: a usage error (issue 22)" [ $rc -eq 2 ]

# grep-log: a mixed log, multi-line errors grouped
cat >"$WORK/app.log" <<'LOG'
2026-11-29T10:00:00Z INFO shopd starting
2026-11-29T10:00:01Z ERROR cannot load config: open /etc/shop.toml: permission denied
2026-11-29T10:00:02Z INFO retrying
Traceback (most recent call last):
  File "/srv/app/inventory/api.py", line 16, in get_item
    raise HTTPException(status_code=404, detail=f"Item {sku} not found")
fastapi.exceptions.HTTPException: Item ZZ-9 not found
2026-11-29T10:00:03Z INFO nothing to see
panic: port must be set

goroutine 1 [running]:
main.main()
	/home/dev/shop/cmd/shopd/main.go:21 +0x1d
{"level":"error","msg":"cannot load config: bad toml"}
LOG
"$FL" grep-log --db "$edb" --json "$WORK/app.log" >"$WORK/gl.jsonl"
check "grep-log: four errors found" [ "$(wc -l <"$WORK/gl.jsonl")" -eq 4 ]
check "grep-log: single line at its line" [ "$(jq -rs '.[0] | "\(.line)-\(.endLine) \(.filePath):\(.lineNumber)"' "$WORK/gl.jsonl")" = "2-2 cmd/shopd/main.go:17" ]
check "grep-log: traceback grouped" [ "$(jq -rs '.[1] | "\(.line)-\(.endLine) \(.filePath):\(.lineNumber)"' "$WORK/gl.jsonl")" = "4-7 inventory/api.py:16" ]
check "grep-log: go panic grouped" [ "$(jq -rs '.[2] | "\(.line)-\(.endLine) \(.filePath):\(.lineNumber)"' "$WORK/gl.jsonl")" = "9-13 cmd/shopd/main.go:21" ]
check "grep-log: JSON log line" [ "$(jq -rs '.[3] | "\(.line) \(.captures[0])"' "$WORK/gl.jsonl")" = "14 bad toml" ]
"$FL" grep-log --db "$edb" - <"$WORK/app.log" >"$WORK/gl.txt"
check "grep-log text: per-record counts at the end" grep -q "4 matched errors in 14 lines, 3 distinct records" "$WORK/gl.txt"
check "grep-log text: one-line meaning" grep -q -- "-> .*cmd/shopd/main.go:21" "$WORK/gl.txt"
# a large log streams: 40 MB of noise around two errors
{ printf 'panic: port must be set\n'; for i in $(seq 1 2000); do printf '2026-11-29T10:00:00Z INFO request %d served in 3ms from cache shard 7 of the pool\n' "$i"; done; } >"$WORK/chunk.log"
for i in $(seq 1 9); do cat "$WORK/chunk.log" "$WORK/chunk.log" "$WORK/chunk.log"; done >"$WORK/mid.log"
for i in 1 2 3 4 5 6 7 8; do cat "$WORK/mid.log"; done >"$WORK/big.log"
lines=$(wc -l <"$WORK/big.log")
n=$("$FL" grep-log --db "$edb" --json "$WORK/big.log" | wc -l)
check "grep-log: large log, every occurrence found" [ "$n" -eq 216 ]
"$FL" grep-log --db "$edb" "$WORK/big.log" | tail -n 2 | grep -q "216" && ok "grep-log: large log counted" || bad "grep-log: large log counted"
check "grep-log: line count of a large log" bash -c "'$FL' grep-log --db '$edb' '$WORK/big.log' | grep -q 'in $lines lines'"
# a log of several 4 MB chunks (scanned in parallel): multi-line errors in
# every part of it, the matches in log order, grouped as in a small log
{ cat "$WORK/app.log"; for i in $(seq 1 60); do printf '2026-11-29T10:00:04Z INFO request %d served from cache shard 7\n' "$i"; done; } >"$WORK/block.log"
cp "$WORK/block.log" "$WORK/multi.log"
for i in $(seq 1 11); do cat "$WORK/multi.log" "$WORK/multi.log" >"$WORK/multi2.log"; mv "$WORK/multi2.log" "$WORK/multi.log"; done
bl=$(wc -l <"$WORK/block.log")
"$FL" grep-log --db "$edb" --json "$WORK/multi.log" >"$WORK/multi.jsonl"
check "grep-log: every error of a multi-chunk log" [ "$(wc -l <"$WORK/multi.jsonl")" -eq $((4 * 2048)) ]
check "grep-log: multi-chunk matches in log order" [ "$(jq -s 'map(.line) | . == (sort | unique)' "$WORK/multi.jsonl")" = true ]
check "grep-log: last traceback grouped" [ "$(jq -rs '.[-3] | "\(.line)-\(.endLine) \(.filePath)"' "$WORK/multi.jsonl")" = "$((2047 * bl + 4))-$((2047 * bl + 7)) inventory/api.py" ]
check "grep-log: the same from a pipe" bash -c "cat '$WORK/multi.log' | '$FL' grep-log --db '$edb' --json - | cmp -s - '$WORK/multi.jsonl'"
# a log naming many records: each counted once, in the text's summary
"$FL" list --db "$edb" --json |
	jq -r 'select((.messagePattern | contains("(.+?)")) or (.errorMessage | contains("\n")) | not) | .errorMessage' |
	awk 'length($0) > 12 { print "2026-11-29T10:00:00Z ERROR " $0 }' >"$WORK/many.log"
"$FL" grep-log --db "$edb" --json "$WORK/many.log" | jq -r .id | sort -u >"$WORK/many.ids"
d=$(wc -l <"$WORK/many.ids")
check "grep-log: a log naming over 64 records" [ "$d" -gt 64 ]
"$FL" grep-log --db "$edb" "$WORK/many.log" >"$WORK/many.txt"
check "grep-log text: every distinct record in the summary" grep -q ", $d distinct records\$" "$WORK/many.txt"
sed -n '/distinct records$/,$p' "$WORK/many.txt" | tail -n +2 | awk '{ print $2 }' | sort >"$WORK/many.listed"
check "grep-log text: one count line per record" cmp -s "$WORK/many.listed" "$WORK/many.ids"
"$FL" grep-log --db "$edb" "$WORK/no-such.log" >/dev/null 2>"$WORK/e.txt"; rc=$?
check "grep-log: missing file exits 1 naming it" bash -c "[ $rc -eq 1 ] && grep -q no-such.log '$WORK/e.txt'"
# a record raised at two lines of one file: a frame naming the other line
# points the answer there, and the record's own line is among the others
mkdir -p "$WORK/fold/app"
printf 'def load(path):\n    if not path:\n        raise ValueError("the inventory file is missing")\n    return open(path).read()\n\n\ndef save(path, data):\n    if not path:\n        raise ValueError("the inventory file is missing")\n    open(path, "w").write(data)\n' >"$WORK/fold/app/store.py"
"$FL" scan "$WORK/fold" --repo acme/fold --db "$WORK/fold.db" >/dev/null 2>&1
printf 'Traceback (most recent call last):\n  File "/srv/app/store.py", line 9, in save\nValueError: the inventory file is missing\n' >"$WORK/fold-tb.txt"
"$FL" explain --db "$WORK/fold.db" --json - <"$WORK/fold-tb.txt" >"$WORK/fold.json"
check "explain: a frame picks the line of a record raised at two lines" \
	[ "$(jq -c '.matches[0] | [.lineNumber, .alsoRaisedAt]' "$WORK/fold.json")" = '[9,["app/store.py:3"]]' ]
check "explain: and says which frame" [ "$(jq '.matches[0].evidence | any(test("names line 9 of its file"))' "$WORK/fold.json")" = true ]
# both lines on the stack: the innermost frame's, the last one printed
# after "most recent call last", the first one printed by the JVM
printf 'Traceback (most recent call last):\n  File "/srv/app/store.py", line 3, in load\n  File "/srv/app/store.py", line 9, in save\nValueError: the inventory file is missing\n' >"$WORK/fold-tb2.txt"
check "explain: of two lines a traceback names, the innermost frame's" \
	[ "$("$FL" explain --db "$WORK/fold.db" --json - <"$WORK/fold-tb2.txt" | jq -c '.matches[0].lineNumber')" = 9 ]
printf 'Traceback (most recent call last):\n  File "/srv/app/store.py", line 10, in save\nValueError: the inventory file is missing\n' >"$WORK/fold-tb3.txt"
check "explain: a frame inside a statement of several lines picks its line" \
	[ "$("$FL" explain --db "$WORK/fold.db" --json - <"$WORK/fold-tb3.txt" | jq -c '.matches[0].lineNumber')" = 9 ]
sed -i 's/line 9, in save/line 3, in load/' "$WORK/fold-tb.txt"
check "explain: the record's own line when the frame names it" \
	[ "$("$FL" explain --db "$WORK/fold.db" --json - <"$WORK/fold-tb.txt" | jq -c '.matches[0] | [.lineNumber, .alsoRaisedAt]')" = '[3,["app/store.py:9"]]' ]
sed -i 's/line 3, in load/line 9, in save/' "$WORK/fold-tb.txt"
check "grep-log: a frame picks the line of a record raised at two lines" \
	[ "$("$FL" grep-log --db "$WORK/fold.db" --json "$WORK/fold-tb.txt" | jq -c '[.lineNumber, .alsoRaisedAt]')" = '[9,["app/store.py:3"]]' ]
# a class-only raise at several lines of one file (a record of its class,
# its text a caught error's): a frame naming any of its lines is its site;
# at the end of a chain of tracebacks, the last traceback's innermost
# frame, the raise of the error printed, ranks before a cause's message
# matched at a frame of an earlier traceback
mkdir -p "$WORK/chain/shop" "$WORK/chain/netlib"
printf 'class ShopConnectionError(Exception):\n    pass\n\n\ndef send(pool, request):\n    try:\n        return pool.open(request)\n    except TimeoutError as e:\n        raise ShopConnectionError(e)\n    except OSError as e:\n        if request.retry:\n            return None\n        raise ShopConnectionError(e)\n' >"$WORK/chain/shop/adapter.py"
printf 'class NewConnectionError(OSError):\n    pass\n\n\ndef open_conn(host, port):\n    try:\n        return connect(host, port)\n    except OSError as e:\n        raise NewConnectionError(f"Failed to open a connection to the stock service: {e}")\n' >"$WORK/chain/netlib/conn.py"
"$FL" scan "$WORK/chain" --repo acme/chain --db "$WORK/chain.db" >/dev/null 2>&1
cat >"$WORK/chain-tb.txt" <<'TB'
Traceback (most recent call last):
  File "/srv/lib/netlib/conn.py", line 7, in open_conn
ConnectionRefusedError: [Errno 111] Connection refused

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/lib/netlib/conn.py", line 9, in open_conn
netlib.conn.NewConnectionError: Failed to open a connection to the stock service: [Errno 111] Connection refused

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/main.py", line 4, in <module>
  File "/srv/lib/shop/adapter.py", line 13, in send
shop.adapter.ShopConnectionError: Failed to open a connection to the stock service: [Errno 111] Connection refused
TB
"$FL" explain --db "$WORK/chain.db" --json - <"$WORK/chain-tb.txt" >"$WORK/chain.json"
check "explain: the last traceback's raise, at another line of its class-only record, first" \
	[ "$(jq -c '.matches[0] | [.filePath, .lineNumber]' "$WORK/chain.json")" = '["shop/adapter.py",13]' ]
check "explain: the cause's raise after it" \
	[ "$(jq -c '[.matches[].filePath] | index("netlib/conn.py") > 0' "$WORK/chain.json")" = true ]
sed -n '1,9p' "$WORK/chain-tb.txt" >"$WORK/chain-tb1.txt"
check "explain: the cause alone answers at its raise" \
	[ "$("$FL" explain --db "$WORK/chain.db" --json - <"$WORK/chain-tb1.txt" | jq -c '.matches[0] | [.filePath, .lineNumber]')" = '["netlib/conn.py",9]' ]
# two raises on one line: the other lines list each line once, never the
# answer's own (explain, and show's "Also raised at")
mkdir -p "$WORK/twice/app"
printf 'def check(a, b):\n    if a: raise ValueError("the widget list is empty"); raise ValueError("the widget list is empty")\n    if b: raise ValueError("the widget list is empty"); raise ValueError("the widget list is empty")\n' >"$WORK/twice/app/w.py"
"$FL" scan "$WORK/twice" --repo acme/twice --db "$WORK/twice.db" >/dev/null 2>&1
check "explain: two sites on one line are one other line, the own line none" \
	[ "$("$FL" explain --db "$WORK/twice.db" --json 'ValueError: the widget list is empty' | jq -c '.matches[0] | [.lineNumber, .alsoRaisedAt]')" = '[2,["app/w.py:3"]]' ]
tid=$("$FL" explain --db "$WORK/twice.db" --json 'ValueError: the widget list is empty' | jq -r '.matches[0].id')
check "show: also raised at each other line once" \
	[ "$("$FL" show --db "$WORK/twice.db" "$tid" | grep -A3 'Also raised at' | grep -c 'app/w.py')" = 1 ]
# two files of one name in two packages raising one text at one line: the
# JVM frame's class names the package, so its file comes first
for pk in a b; do
	mkdir -p "$WORK/pkgs/src/main/java/org/acme/$pk"
	printf 'package org.acme.%s;\n\npublic class Parser {\n    void parse(String t) {\n        throw new IllegalStateException("unexpected token in the widget file");\n    }\n}\n' "$pk" >"$WORK/pkgs/src/main/java/org/acme/$pk/Parser.java"
done
"$FL" scan "$WORK/pkgs" --repo acme/pkgs --db "$WORK/pkgs.db" >/dev/null 2>&1
for pk in b a; do
	check "explain: a JVM frame's package picks its file of two of one name ($pk)" \
		[ "$(printf 'Exception in thread "main" java.lang.IllegalStateException: unexpected token in the widget file\n\tat org.acme.%s.Parser.parse(Parser.java:5)\n\tat org.acme.Main.main(Main.java:9)\n' "$pk" |
			"$FL" explain --db "$WORK/pkgs.db" --json - | jq -r '.matches[0].filePath')" = "src/main/java/org/acme/$pk/Parser.java" ]
done
# a traceback naming a file where it is installed (/usr/lib/python3.11/
# json/decoder.py for the tree's Lib/json/decoder.py): the file that ends
# alike in two components, not another decoder.py raising the same text
mkdir -p "$WORK/inst/Lib/json" "$WORK/inst/Lib/email"
printf 'class JSONDecodeError(ValueError):\n    pass\n\n\ndef raw(s):\n    if not s:\n        raise JSONDecodeError("Expecting value in the document")\n    return s\n\n\ndef other(s):\n    if s is None:\n        raise JSONDecodeError("Expecting value in the document")\n    return s\n' >"$WORK/inst/Lib/json/decoder.py"
cp "$WORK/inst/Lib/json/decoder.py" "$WORK/inst/Lib/email/decoder.py"
"$FL" scan "$WORK/inst" --repo acme/inst --db "$WORK/inst.db" >/dev/null 2>&1
printf 'Traceback (most recent call last):\n  File "/srv/x.py", line 3, in <module>\n  File "/usr/lib/python3.11/json/decoder.py", line 13, in other\njson.decoder.JSONDecodeError: Expecting value in the document\n' >"$WORK/inst-tb.txt"
check "explain: an installed path's frame names the tree's file that ends alike" \
	[ "$("$FL" explain --db "$WORK/inst.db" --json - <"$WORK/inst-tb.txt" | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')" = Lib/json/decoder.py:13 ]
check "explain: the other decoder.py keeps its own line, not the frame's" \
	[ "$("$FL" explain --db "$WORK/inst.db" --json - <"$WORK/inst-tb.txt" | jq -c '[.matches[] | select(.filePath == "Lib/email/decoder.py") | .lineNumber, (.evidence | any(test("names line")))]')" = '[7,false]' ]
sed -i 's#/json/#/email/#' "$WORK/inst-tb.txt"
check "explain: and the other file when the frame names it" \
	[ "$("$FL" explain --db "$WORK/inst.db" --json - <"$WORK/inst-tb.txt" | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')" = Lib/email/decoder.py:13 ]
# a text built by a static factory (one record) and raised through it at
# a call (another): with a stack naming both, the innermost frame's record,
# where the exception was built
mkdir -p "$WORK/nfe/p"
printf 'package p;\npublic class NumberException extends IllegalArgumentException {\n    NumberException(String m) { super(m); }\n    static NumberException forInput(String s) {\n        return new NumberException("not a number: \\"" + s + "\\"");\n    }\n}\n' >"$WORK/nfe/p/NumberException.java"
printf 'package p;\npublic final class Ints {\n    public static int parse(String s) {\n        if (s.isEmpty()) return 0;\n        throw NumberException.forInput(s);\n    }\n}\n' >"$WORK/nfe/p/Ints.java"
"$FL" scan "$WORK/nfe" --repo acme/nfe --db "$WORK/nfe.db" >/dev/null 2>&1
printf 'Exception in thread "main" p.NumberException: not a number: "abc"\n\tat p.NumberException.forInput(NumberException.java:5)\n\tat p.Ints.parse(Ints.java:5)\n\tat Main.main(Main.java:3)\n' >"$WORK/nfe.txt"
check "explain: of two records the frames name, the innermost frame's" \
	[ "$("$FL" explain --db "$WORK/nfe.db" --json - <"$WORK/nfe.txt" | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')" = p/NumberException.java:5 ]
# a wrapper made of a cause without a message (Java's Throwable(cause)):
# "Wrapper: java.io.EOFException" is the wrapper's raise, not a bare
# `throw new EOFException()` of the tree, with or without the frames
mkdir -p "$WORK/wrap/p"
printf 'package p;\npublic class CodecException extends RuntimeException {\n    CodecException(Throwable cause) { super(cause); }\n}\n' >"$WORK/wrap/p/CodecException.java"
printf 'package p;\nimport java.io.*;\npublic final class Codec {\n    static Object decode(InputStream in) {\n        try (ObjectInputStream o = new ObjectInputStream(in)) {\n            return o.readObject();\n        } catch (ClassNotFoundException | IOException ex) {\n            throw new CodecException(ex);\n        }\n    }\n}\n' >"$WORK/wrap/p/Codec.java"
printf 'package p;\nimport java.io.*;\npublic final class Empty extends InputStream {\n    public int read() throws IOException {\n        throw new EOFException();\n    }\n}\n' >"$WORK/wrap/p/Empty.java"
"$FL" scan "$WORK/wrap" --repo acme/wrap --db "$WORK/wrap.db" >/dev/null 2>&1
check "explain: a wrapper of a cause without a message, at its raise" \
	[ "$("$FL" explain --db "$WORK/wrap.db" --json 'p.CodecException: java.io.EOFException' | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')" = p/Codec.java:8 ]
check "explain: a cause without a message, alone, at its own raise" \
	[ "$("$FL" explain --db "$WORK/wrap.db" --json 'Caused by: java.io.EOFException' | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')" = p/Empty.java:5 ]
# a class's template formatted by a method when printed (pkg_resources'
# DistributionNotFound), raised with its values elsewhere in the file: the
# text alone answers the template's class, a traceback whose frame names
# the raise answers the raise (fixture python/inventory/shelves.py)
explain_top "python: a class's template formatted when printed, the text alone" "inventory/shelves.py:12" \
	"inventory.shelves.ShelfNotFound: The 'oak' shelf was not found and is required by the application"
explain_top "python: a class's template formatted when printed, at the raise its frame names" "inventory/shelves.py:31" \
	"$(printf 'Traceback (most recent call last):\n  File "/srv/app/main.py", line 3, in <module>\n    find_shelf("oak", [], {})\n  File "/srv/app/inventory/shelves.py", line 31, in find_shelf\n    raise ShelfNotFound(req, requirers)\ninventory.shelves.ShelfNotFound: The '"'"'oak'"'"' shelf was not found and is required by the application\n')"
# one code raised at many places with other texts (npm's EUSAGE): of the
# exact-code answers, the one whose message shares the text's words first
mkdir -p "$WORK/codes/lib"
for c in install link pack; do
	printf "class Cmd {\n  exec (args) {\n    if (!args.length) {\n      throw Object.assign(new Error('the %s command needs a package name'), { code: 'EUSAGE' })\n    }\n  }\n}\n" "$c" >"$WORK/codes/lib/$c.js"
done
"$FL" scan "$WORK/codes" --repo acme/codes --db "$WORK/codes.db" >/dev/null 2>&1
check "explain: of the records of a code, the one whose text shares the words" \
	[ "$(printf 'npm error code EUSAGE\nnpm error the link command needs a package name\n' | "$FL" explain --db "$WORK/codes.db" --json - | jq -r '.matches[0].filePath')" = lib/link.js ]
# without a frame, the pasted command's words against each line's
# function: `inv save` is save's line, `inv load` load's (the record's
# own), a command naming neither keeps the record's line
printf '$ inv save --to out.txt\nValueError: the inventory file is missing\n' >"$WORK/fold-cmd.txt"
"$FL" explain --db "$WORK/fold.db" --json - <"$WORK/fold-cmd.txt" >"$WORK/fold-cmd.json"
check "explain: the command's word picks the line whose function it names" \
	[ "$(jq -c '.matches[0] | [.lineNumber, .alsoRaisedAt]' "$WORK/fold-cmd.json")" = '[9,["app/store.py:3"]]' ]
check "explain: and says so" [ "$(jq '.matches[0].evidence | any(test("command.s words name the function of line 9"))' "$WORK/fold-cmd.json")" = true ]
check "explain: the record's own line when the command names its function" \
	[ "$(printf '$ inv load in.txt\nValueError: the inventory file is missing\n' | "$FL" explain --db "$WORK/fold.db" --json - | jq -c '.matches[0] | [.lineNumber, .alsoRaisedAt]')" = '[3,["app/store.py:9"]]' ]
check "explain: a command naming neither line keeps the record's" \
	[ "$(printf '$ inv check\nValueError: the inventory file is missing\n' | "$FL" explain --db "$WORK/fold.db" --json - | jq -c '.matches[0].lineNumber')" = 3 ]
check "explain: a path in the command is no word of it" \
	[ "$(printf '$ inv check ./save/x.txt\nValueError: the inventory file is missing\n' | "$FL" explain --db "$WORK/fold.db" --json - | jq -c '.matches[0].lineNumber')" = 3 ]
# ... and against the names each line's guard tests: `--changed-before`
# is the line whose guard reads opts.changed_before
mkdir -p "$WORK/foldg/app"
printf 'def limits(opts):\n    if opts.changed_within and not parse(opts.changed_within):\n        raise ValueError("not a valid date or duration")\n    if opts.changed_before and not parse(opts.changed_before):\n        raise ValueError("not a valid date or duration")\n' >"$WORK/foldg/app/limits.py"
"$FL" scan "$WORK/foldg" --repo acme/foldg --db "$WORK/foldg.db" >/dev/null 2>&1
check "explain: the command's flag picks the line whose guard names it" \
	[ "$(printf '$ tool --changed-before garbage\nValueError: not a valid date or duration\n' | "$FL" explain --db "$WORK/foldg.db" --json - | jq -c '[.matches[0].lineNumber, .matches[0].alsoRaisedAt]')" = '[5,["app/limits.py:3"]]' ]
check "explain: the other flag keeps the record's line" \
	[ "$(printf '$ tool --changed-within garbage\nValueError: not a valid date or duration\n' | "$FL" explain --db "$WORK/foldg.db" --json - | jq -c '.matches[0].lineNumber')" = 3 ]

# Python run for real: an exception class named freely (the traceback's last
# line names it with its module), whose __init__ %-formats its parameter or
# whose __str__ gives a text per branch (the raise, that gives no text of
# its own, shows one of them); the raise is the answer, and the
# message a raise composes from the class's format and its literal argument
if command -v python3 >/dev/null 2>&1; then
	mkdir -p "$WORK/pyrun/shelf"
	cat >"$WORK/pyrun/shelf/errors.py" <<'PY'
class MissingPart(Exception):
    def __init__(self, part):
        Exception.__init__(self, 'No part: %r' % (part,))


class DecodeFailure(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count('\n', 0, pos) + 1
        errmsg = '%s: line %d (char %d)' % (msg, lineno, pos)
        ValueError.__init__(self, errmsg)


class RunFailed(Exception):
    def __init__(self, code, cmd):
        self.code, self.cmd = code, cmd

    def __str__(self):
        if self.code < 0:
            return "Command '%s' died with signal %d." % (self.cmd, -self.code)
        return "Command '%s' exited with status %d." % (self.cmd, self.code)
PY
	cat >"$WORK/pyrun/shelf/use.py" <<'PY'
from shelf.errors import MissingPart, DecodeFailure, RunFailed


def part(name, parts):
    if name not in parts:
        raise MissingPart(name)
    return parts[name]


def decode(doc, idx):
    if idx >= len(doc):
        raise DecodeFailure('Expecting value', doc, idx)


def run(cmd, code):
    if code:
        raise RunFailed(code, cmd)
PY
	# a command line's errors as argparse makes them: a template in a
	# local formatted with a dict (%(value)r, literal in the stored
	# pattern), a table of texts, the text after the option it is about
	cat >"$WORK/pyrun/shelf/cli.py" <<'PY'
import sys
from gettext import gettext as _


class OptionError(Exception):
    def __init__(self, option, message):
        self.option = option
        self.message = message

    def __str__(self):
        return 'option %s: %s' % (self.option, self.message)


def convert(option, kind, text):
    try:
        return kind(text)
    except ValueError:
        args = {'type': kind.__name__, 'value': text}
        msg = _('invalid %(type)s value: %(value)r')
        raise OptionError(option, msg % args)


def arity(option, given):
    if given != 1:
        texts = {0: _('expected one value'), 2: _('expected at most one value')}
        msg = texts.get(given)
        raise OptionError(option, msg)


def main(argv):
    try:
        if len(argv) < 2:
            arity(argv[0], len(argv) - 1)
        convert(argv[0], int, argv[1])
    except OptionError as err:
        sys.stderr.write('shelf: error: %s\n' % err)
        sys.exit(2)
PY
	"$FL" scan "$WORK/pyrun" --repo acme/pyrun --db "$WORK/pyrun.db" >/dev/null 2>&1
	pyrun_top() { # NAME WANT PYTHON-STATEMENT
		(cd "$WORK/pyrun" && python3 -c "from shelf.use import *; $3") 2>"$WORK/pyrun.tb"
		local got
		got=$("$FL" explain --db "$WORK/pyrun.db" --json - <"$WORK/pyrun.tb" 2>/dev/null |
			jq -r '.matches[0] | "\(.filePath):\(.lineNumber) \(.message)"')
		if [ "$got" = "$2" ]; then ok "explain: $1"; else bad "explain: $1" "got $got, want $2"; fi
	}
	pyrun_top "python: a freely named class, its __init__ formatting the parameter" \
		"shelf/use.py:6 No part: %r" "part('bolt', {})"
	pyrun_top "python: the message composed from the class's format and the raise's literal" \
		"shelf/use.py:12 Expecting value: line %d (char %d)" "decode('', 0)"
	pyrun_top "python: a __str__ with a text per branch, at the raise that gives no text" \
		"shelf/use.py:17 Command '%s' exited with status %d." "run('make', 2)"
	pyrun_top "python: a local template formatted with a dict, its %(value)r a placeholder" \
		"shelf/cli.py:20 invalid %(type)s value: %(value)r" \
		"from shelf.cli import main; main(['--count', 'abc'])"
	pyrun_top "python: a text from a table, given after the option it is about" \
		"shelf/cli.py:27 expected one value" "from shelf.cli import main; main(['--name'])"
else
	bad "explain: python3 runs the Python cases" "python3 is not installed"
fi

# Java: an exception whose getMessage() gives a text per branch, printed by
# the JVM for an uncaught exception of a nested or freely named class
cp -r "$TESTS/fixtures/jvm" "$WORK/ex-jvm"
rm -f "$WORK/ex-jvm/expected.tsv" "$WORK/ex-jvm/expected.json"
"$FL" scan "$WORK/ex-jvm" --repo acme/jvm --db "$WORK/jvm.db" >/dev/null 2>&1
# jvm_top NAME EXPECTED-PATH:LINE TEXT: explain_top on the Java store
jvm_top() {
	local edb="$WORK/jvm.db"
	explain_top "$@"
}
jvm_top "java: a message constant's use, not its definition" "src/main/java/com/acme/pallet/PalletMain.java:7" 'Error: No trellis directory for the -t option'
jvm_top "java getMessage() text of an uncaught exception" "src/main/java/com/acme/build/StepFailedException.java:18" \
	$'Exception in thread "main" com.acme.build.StepFailedException: Step lint exited with status 2\n\tat com.acme.build.Runner.run(Runner.java:40)'
# a library's default text: a constant its overload hands to the method
# that throws it, raised at that throw; an exception made of the text a
# method returns, where it is made
jvm_top "java default text of a check, at the throw it is raised by" "src/main/java/com/acme/util/Require.java:36" \
	$'Exception in thread "main" java.lang.IllegalArgumentException: The required text is empty'
jvm_top "java text a method returns, at the new of its exception" "src/main/java/com/acme/util/Ranges.java:20" \
	$'java.lang.IndexOutOfBoundsException: Page 7 out of range for 3 pages'
# a text built by a local StringBuilder's appends, thrown as its toString()
jvm_top "java StringBuilder's text thrown" "src/main/java/com/acme/util/Labels.java:28" \
	$'Exception in thread "main" java.lang.IllegalArgumentException: No label column \'price\' in the header'
# a thrower of the tree called on a parameter, its result returned (Jackson's
# `return ctxt.reportBadDefinition(...)`)
jvm_top "java thrower called on another object" "src/main/java/com/acme/util/ShelfReader.java:13" \
	$'Exception in thread "main" java.lang.IllegalStateException: The shelf declares no slot count (in /srv/a.shelf)'
# a checker with varargs that hands back what it checked (`else return
# obj;`), given a choice of texts
jvm_top "java checker given a choice of texts" "src/main/java/com/acme/util/ShelfReader.java:22" \
	$'Exception in thread "main" java.lang.IllegalStateException: No shelf key \'price\' at the top.'
# a lint check's report by a key of its package's message bundle
# (messages.properties), printed as MessageFormat prints it
jvm_top "java report of a bundle's text by its key" "src/main/java/com/acme/lint/SpacingCheck.java:22" \
	$'Starting audit...\n[ERROR] /w/A.java:3:9: Tab characters are not allowed (\'\\t\' at column 9). [Spacing]\nAudit done.'

# an error enum's constant held by a local (or a choice of two), or given
# to a helper's parameter by the file's calls: the report raises it
jvm_top "java: an enum constant held by a local, at its report" "src/main/java/com/acme/gram/GrammarChecker.java:28" \
	'error(69): Pallet.g4:2:4: label t clashes with the trellis rule of the same name'
jvm_top "java: an enum constant of a choice held by a local" "src/main/java/com/acme/gram/GrammarChecker.java:35" \
	'error(153): Pallet.g4:2:0: rule s has a turnip closure that can be empty'
jvm_top "java: an enum constant given to a helper's parameter" "src/main/java/com/acme/gram/GrammarChecker.java:49" \
	'error(140): Pallet.g4:2:14: local t clashes with the pallet rule of the same name'

# the Java of a JFlex spec's rules and a CUP spec's actions, a message
# constant's text thrown there (spec.c)
jvm_top "java: a JFlex rule's action" "src/main/jflex/PalletScan.flex:37" \
	$'Error in file "Bad.pallet" (line 2): \nUnknown %-trellis option\n%bogus\n^\n1 error, 0 warnings.'
jvm_top "java: a JFlex rule's action at the end of the file" "src/main/jflex/PalletScan.flex:51" \
	'Error in file "Open.pallet": Unexpected end of file in a crate comment'
jvm_top "java: a CUP rule's action" "src/main/cup/PalletParse.cup:24" \
	'Error in file "Zero.pallet" (line 3): Illegal turnip repeat. At least one operand must be > 0'

# what a real run prints when the text is not the raise's own: a Java
# exception built from another's message (only its class and the frame
# tell the line), a check's template written in one-letter names, a Go
# function's own format helper, and one text raised with two classes,
# told apart by the class printed before it ("Error: ", a level to the
# normalizer)
mk=$WORK/made
mkdir -p "$mk/java/src/main/java/com/acme/cli" "$mk/go/flags" "$mk/js/lib"
cat >"$mk/java/src/main/java/com/acme/cli/TypeHandler.java" <<'JAVA'
package com.acme.cli;

public final class TypeHandler {
    public static Number createNumber(String str) throws ParseException {
        try {
            return Long.valueOf(str);
        } catch (final NumberFormatException e) {
            throw new ParseException(e.getMessage());
        }
    }
}
JAVA
cat >"$mk/java/src/main/java/com/acme/cli/Ranges.java" <<'JAVA'
package com.acme.cli;

import static com.google.common.base.Preconditions.checkArgument;

final class Ranges {
    static long choose(int n, int k) {
        checkArgument(k <= n, "k (%s) > n (%s)", k, n);
        return 1;
    }
}
JAVA
cat >"$mk/go/flags/flag.go" <<'GO'
package flags

import (
	"flag"
	"fmt"
)

func ParseOne(fs *flag.FlagSet, name, value string) error {
	failf := func(format string, a ...any) error {
		return fmt.Errorf(format, a...)
	}
	if err := fs.Set(name, value); err != nil {
		return failf("invalid value %q for flag -%s: %v", value, name, err)
	}
	return nil
}
GO
cat >"$mk/js/lib/common.js" <<'JS'
'use strict';
const { createUnsupportedError } = require('./errors');

exports.create = function create(opts, forbidPending) {
  if (opts.pending && forbidPending) {
    throw createUnsupportedError('Pending test forbidden');
  }
};
JS
cat >"$mk/js/lib/runner.js" <<'JS'
'use strict';

exports.next = function next(test, self) {
  if (test.isPending() && self.forbidPending) {
    self.fail(test, new Error('Pending test forbidden'), true);
  }
};
JS
for l in java go js; do "$FL" scan "$mk/$l" --repo "acme/made-$l" --db "$WORK/made.db" >/dev/null 2>&1; done
# made_top NAME EXPECTED-PATH:LINE (the text on stdin)
made_top() {
	local got
	got=$("$FL" explain --db "$WORK/made.db" --json - 2>/dev/null | jq -r '.matches[0] | "\(.filePath):\(.lineNumber)"')
	if [ "$got" = "$2" ]; then ok "explain: $1"; else bad "explain: $1" "got $got, want $2"; fi
}
printf 'Exception in thread "main" com.acme.cli.ParseException: For input string: "abc"\n\tat com.acme.cli.TypeHandler.createNumber(TypeHandler.java:8)\n\tat Driver.main(Driver.java:7)\n' |
	made_top "a class-only raise, its line named by a frame" src/main/java/com/acme/cli/TypeHandler.java:8
printf 'Exception in thread "main" com.acme.cli.ParseException: For input string: "abc"\n\tat com.acme.cli.Other.createNumber(Other.java:8)\n' |
	made_top "a class-only raise is no answer without its frame" null:null
printf 'Exception in thread "main" java.lang.IllegalArgumentException: k (5) > n (3)\n\tat com.google.common.base.Preconditions.checkArgument(Preconditions.java:299)\n\tat com.acme.cli.Ranges.choose(Ranges.java:7)\n' |
	made_top "a check's template in one-letter names" src/main/java/com/acme/cli/Ranges.java:7
printf 'invalid value "x" for flag -count: parse error\n' |
	made_top "a Go function's own format helper" flags/flag.go:13
printf '  1) pending:\n     Error: Pending test forbidden\n      at process.processImmediate (node:internal/timers:483:21)\n' |
	made_top "one text of two classes: the class printed" lib/runner.js:5

# the lookup index and the log databases: a pasted message needs only the
# index; the first long text makes the databases beside it, later ones map
# them, and a damaged or stale file is made again with the same answers
hdb="$WORK/hs.db"
"$FL" scan "$WORK/ex-go" --repo acme/go --db "$hdb" >/dev/null 2>&1
"$FL" explain --db "$hdb" 'panic: port must be set' >/dev/null 2>&1
check "index: explain keeps the index beside the store" test -s "$hdb.lookup"
check "index: a pasted message makes no log databases" test ! -e "$hdb.lookup.hs"
{
	for i in $(seq 1 4000); do echo "2026-11-29T10:00:00Z INFO request $i served in 12 ms"; done
	echo "2026/11/29 10:00:00 cannot load config: open /etc/shop.toml: no such file or directory"
	for i in $(seq 1 100); do echo "2026-11-29T10:00:01Z INFO request $i served in 3 ms"; done
} >"$WORK/long.log"
"$FL" grep-log --db "$hdb" --json "$WORK/long.log" >"$WORK/long1.jsonl" 2>/dev/null
check "index: a long log is matched" [ "$(jq -r '"\(.line) \(.filePath):\(.lineNumber)"' "$WORK/long1.jsonl")" = "4001 cmd/shopd/main.go:17" ]
check "index: the first long log makes the log databases" test -s "$hdb.lookup.hs"
hsize=$(stat -c %s "$hdb.lookup.hs")
"$FL" grep-log --db "$hdb" --json "$WORK/long.log" >"$WORK/long2.jsonl" 2>/dev/null
check "index: the next one maps them, with the same answer" cmp -s "$WORK/long1.jsonl" "$WORK/long2.jsonl"
printf 'garbage' | dd of="$hdb.lookup.hs" bs=1 seek=300 conv=notrunc status=none
"$FL" grep-log --db "$hdb" --json "$WORK/long.log" >"$WORK/long3.jsonl" 2>/dev/null
check "index: damaged log databases: the same answer" cmp -s "$WORK/long1.jsonl" "$WORK/long3.jsonl"
head -c 100 "$hdb.lookup.hs" >"$WORK/short.hs" && mv "$WORK/short.hs" "$hdb.lookup.hs"
"$FL" grep-log --db "$hdb" --json "$WORK/long.log" >"$WORK/long4.jsonl" 2>/dev/null
check "index: truncated log databases: the same answer" cmp -s "$WORK/long1.jsonl" "$WORK/long4.jsonl"
check "index: and they are made again" [ "$(stat -c %s "$hdb.lookup.hs")" = "$hsize" ]
"$FL" scan "$WORK/ex-python" --repo acme/python --db "$hdb" >/dev/null 2>&1
{ cat "$WORK/long.log"; printf 'Traceback (most recent call last):\n  File "/srv/app/inventory/api.py", line 16, in get_item\n    raise HTTPException(status_code=404, detail=f"Item {sku} not found")\nfastapi.exceptions.HTTPException: Item ABC-1 not found\n'; } >"$WORK/long5.log"
"$FL" grep-log --db "$hdb" --json "$WORK/long5.log" >"$WORK/long5.jsonl" 2>/dev/null
check "index: after the store changed, a long log finds the new records" \
	[ "$(jq -r '.filePath' "$WORK/long5.jsonl" | sort | tr '\n' ' ')" = "cmd/shopd/main.go inventory/api.py " ]

# a value the program printed in quotes of its own (Go's %q) is shown as
# printed, once quoted; a bare value in quotes (fixture go/helpers.go)
out=$("$FL" explain --db "$edb" 'catalog "winter" is empty' 2>/dev/null | grep '^   values:')
check "explain: a %q value shown as printed" [ "$out" = '   values: "winter"' ]
out=$("$FL" explain --db "$edb" 'catalog winter is empty' 2>/dev/null | grep '^   values:')
check "explain: a bare value shown in quotes" [ "$out" = '   values: "winter"' ]
