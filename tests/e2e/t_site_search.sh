# The site's static search (lib/publish/assets/search.js, staticSearch, as
# a browser runs it when the site is served without the API) against
# `explain --json` on the same data set: a site published from the
# fixture trees, real pasted outputs read and ranked by both.  Each must
# give the same first answer (record, tier, captured values, score), both
# when the static search tries every record (a small data set) and when it
# tries only those sharing words with the text (a large one); a text that
# says little or holds informational lines only gets no confident answer
# from either.  Runs tests/site/static_search.cjs under node.

SS="$WORK/site-search"
mkdir -p "$SS"
for l in c csharp go js jvm php python ruby rust; do
	[ -d "$TESTS/fixtures/$l" ] || continue
	cp -r "$TESTS/fixtures/$l" "$SS/t-$l"
	rm -f "$SS/t-$l/expected.tsv"
	"$FL" scan "$SS/t-$l" --repo "acme/$l" --db "$SS/s.db" >/dev/null 2>&1
done
"$FL" site --db "$SS/s.db" "$SS/site" >/dev/null 2>"$SS/site.err"
check "site search: site published with its search shards" \
	test -f "$SS/site/assets/search.js" -a -f "$SS/site/data/search/summary.json"

SSN=() SST=() SSQUIET=()
# sq NAME TEXT [quiet]: a pasted text; quiet: no confident answer expected
sq() { SSN+=("$1"); SST+=("$2"); SSQUIET+=("${3:-}"); }
sq "python traceback" 'Traceback (most recent call last):
  File "/srv/app/inventory/api.py", line 16, in get_item
    raise HTTPException(status_code=404, detail=f"Item {sku} not found")
fastapi.exceptions.HTTPException: Item ABC-1 not found'
sq "go panic with goroutine trace" 'panic: port must be set

goroutine 1 [running]:
main.main()
	/home/dev/shop/cmd/shopd/main.go:21 +0x1d
exit status 2'
sq "node error with frames and code" "Error: config file /tmp/x.json does not exist
    at loadConfig (file:///app/lib/fs.mjs:6:11)
    at async main (file:///app/index.mjs:3:3) {
  code: 'ENOENT'
}"
sq "pasted command, error and usage footer" "\$ shopd abc
shopd: invalid port 'abc'
usage: shopd PORT"
sq "pasted command, error, Usage: and a help footer" "\$ zz -d notes.txt
zz: notes.txt: unsupported format
Usage: zz [OPTIONS...] FILE
Try 'zz --help' for more information."
sq "java exception with a Caused by: chain" 'Exception in thread "main" java.lang.IllegalStateException: could not create order for customer 42 (quantity 3)
	at com.acme.orders.OrderService.create(OrderService.java:57)
	at com.acme.orders.Main.main(Main.java:12)
Caused by: java.lang.IllegalArgumentException: quantity must be positive, got -3
	at com.acme.orders.Quantity.check(Quantity.java:9)
	... 2 more'
# a message built from another's text: the class and the frame naming the
# class-only raise's line (lookup.c's class_at_frames)
sq "a class-only raise named by its class and frame" 'Exception in thread "main" com.acme.json.MalformedJsonException: Unterminated object at line 1 column 9
	at com.acme.json.JsonCursor.next(JsonCursor.java:32)
	at com.acme.App.main(App.java:5)'
sq "a node throw of a value's text, named by its class and frame" 'Error: no shelf B-9
    at shelfOf (/srv/app/lib/shelves.js:8:11)
    at Object.<anonymous> (/srv/app/index.js:3:1)'
# a chain of tracebacks: the last one's raise, a record of its class
# alone, before the cause matched at an earlier traceback's frame
# (lookup.c's class_at_frames and sites_block)
sq "a chain's last raise, a class-only record" 'Traceback (most recent call last):
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
# one text in the files of two programs: the program the line names
# (rank.c's program_names_file)
sq "the program a line names is its file's" "shelfls: cannot access shelf 'east-9': No such file or directory"
sq "the program of a pasted command is its file's" '$ sudo shelfls east-9
cannot access shelf '"'east-9'"': No such file or directory'
# two stored raises quote the tokenizer's message: the one whose
# placeholder is named for an error first (lookup.c's quotes_as_error)
sq "a quoting raise whose placeholder names an error" 'error: cannot format shelves.txt: Cannot parse shelf: 1: EOF in multi-line shelf entry'
# a wrapper before the message holds its first segment too: the value is
# the one between the message's own quotes (match.c's last_first_segment)
sq "a quoted value after a wrapper that quotes too" "runner: job 'build' failed: 'make' exited with status 2"
sq "a warning line before the error line" 'warning: the legacy store is deprecated
error: --store is required'
sq "warning and error log lines" '2026-11-29 10:00:00,123 WARNING storage backend failure
2026-11-29 10:00:00,124 ERROR lookup of sku-42 failed'
sq "rails log: informational lines around the error" 'I, [2026-11-29T10:00:00.123 #1234]  INFO -- : Started GET "/orders/42"
E, [2026-11-29T10:00:00.456 #1234] ERROR -- : order 42 is locked
I, [2026-11-29T10:00:00.789 #1234]  INFO -- : Completed 423 Locked in 3ms'
sq "rust panic with its note" "thread 'main' panicked at src/widgets.rs:40:9:
size 4096 exceeds the max of 1000
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace"
sq "anyhow error with a Caused by: list" 'Error: cannot read config.toml: No such file or directory (os error 2)

Caused by:
    0: config path is empty'
sq "c++ terminate" "terminate called after throwing an instance of 'std::invalid_argument'
  what():  thread count must be positive
Aborted (core dumped)"
sq "c# exception: the first line of a two-line message" "Unhandled exception. System.ObjectDisposedException: Cannot access a disposed object.
Object name: 'OrderCache'.
   at Acme.Orders.OrderCache.Get(String key)"
sq "the first line of a multi-line message alone" 'The shop could not find the `Warden::Proxy` instance on your request environment.'
sq "ruby exception line" "app/models/order.rb:22:in \`transition!': unknown state: shipped (ArgumentError)"
sq "ruby exit report before the error's, whose header names its line" "/g/app/services/payment_gateway.rb:33:in \`exit': exit (SystemExit)
	from /g/app/services/payment_gateway.rb:14:in \`rescue in charge'
	from /g/app/models/order.rb:11:in \`pay'
/g/app/models/order.rb:22:in \`transition!': unknown state: shipped (ArgumentError)
	from /g/app/models/order.rb:40:in \`pay'"
sq "a multi-line message printed on one line" "  Liquid Exception: gateway failure: 502 body: upstream timed out in index.md"
sq "php uncaught exception" 'PHP Fatal error:  Uncaught InvalidArgumentException: Widget id must be positive, got -3 in /var/www/src/Services/WidgetService.php:25'
sq "JSON log line" '{"level":"error","ts":"2026-11-29T10:00:00Z","msg":"cannot load config: bad toml"}'
sq "logfmt line" 'time=2026-11-29T10:00:00Z level=error msg="upstream db.internal:5432 unreachable"'
sq "go log line" '2026/11/29 10:00:00 cannot load config: open /etc/shop.toml: no such file or directory'
sq "python class: message" 'ValueError: count must be positive, got -1'
sq "an error code in the text" 'error[E0001]: POOL_ERR while draining'
sq "one message raised in two repositories" 'Widget not found'
sq "an error line whose record is a short one" '2026-11-29T10:00:00Z ERROR shutting down'
sq "an informational line whose text is a record's" '2026-11-29T10:00:00Z INFO shutting down' quiet
sq "informational lines only" '2026-11-29T10:00:00Z INFO shopd starting
2026-11-29T10:00:01Z INFO loading /etc/shop.toml
2026-11-29T10:00:02Z INFO shutting down' quiet
sq "a low-information error line" 'ERROR user login failed for bob' quiet
sq "text of no record" 'lorem ipsum dolor sit amet consectetur' quiet
sq "a short pattern inside a longer error line" '2026-11-29T10:00:00Z ERROR loading the full configuration of every module took longer than expected' quiet
sq "a short pattern at the start of a longer warning" 'warning: loading plugins from a folder nobody owns' quiet
# the lookup's reading and ranking of 9bc5ac0, ported to search.js:
# every command of a chained command line is evidence (after cd, VAR=value,
# sudo/env; redirections skipped), breaking a tie between two raise sites
sq "a chained command naming the file breaks a tie" "\$ cd /srv/shop && RAILS_ENV=production sudo bin/shop gate open >/tmp/out.log
The account is locked"
sq "two words of a command after ';' and a wrapper name the file" "\$ cd /srv/shop; sudo -u shop bin/shop gate unlock 2>&1 | tee unlock.log
The account is locked"
# a banner whose placeholder holds another record's message on the same line
sq "a banner with the message on its line" 'shopq: fatal error (at line 3, column 14 of file /home/dev/reports/nightly-widgets.jq): cannot iterate over shelves with a negative widget count'
# (trap) a wrapper that is no banner ("Failed to validate widget: %s")
# around another record's message: the wrapper's own record stays first
sq "a cause inside a wrapper that is no banner" 'Failed to validate widget: Widget not found'
# a warning's record on the first line, an error's on the second
sq "a warning line then an error line" 'This item is out of stock.
lookup of sku-42 failed'
# a raise site before its class's constructor or factory's body
sq "a raise site before its class's definition" 'inventory.exceptions.ShelfMissing: Shelf A-3 is missing'
sq "a factory's call before its body" 'Error: done() called twice in test/orders.spec.js'
# a placeholder that printed nothing: (.*?) for (.+?)
sq "an empty placeholder" "No vendored gem 'rake' was packed into the shop's bundle at /srv/shop/vendor."
sq "an empty placeholder in a message shorter than the pattern's minimum" "No vendored gem 'x' was packed into the shop's bundle at y."
# a line also tried as printed, for a record that holds the prefix
# stripping took off ("usage: %s PORT")
sq "a record holding the line's stripped prefix" 'usage: shopd PORT'
# of two lines, a raised error's record before a printed line's
sq "a printed line then a raised error" 'cannot create directory /var/lib/shop
thread count must be positive'
# an option table of a help text: informational, no error named
sq "help-table lines" '  -l, --lock-stock    The stock is locked for counting; try again after the count.
                      This environment is externally managed' quiet

# the lines as printed when stripping took a prefix off (normalize.c's
# q->raw), a tab-indented message naming a position (no Go frame), a
# raised error before the line logged on its way (IDX_RAISED), and
# symfony/console's exception block: its header's file and line (a site
# within 3 lines of one of two records of that file name), its class, the
# message cut at the terminal's width joined back; a block without header
sq "a line whose record holds the prefix stripping takes off" \
	'tool: error: Could not open file /tmp/a.txt: No such file or directory'
sq "a tab-indented line naming a position is no Go frame" \
	$'package example.com/in\n\tmain.go:3:8: use of internal package example.com/in/x/internal/y not allowed'
sq "a traceback's last line naming a freely named class" 'Traceback (most recent call last):
  File "/srv/app/inventory/api.py", line 20, in get_item
    raise Missing(sku)
inventory.api.Missing: Item ABC-1 not found'
sq "a java frame after a class not named like an error" $'com.acme.shop.Oops: order 42 is locked\n\tat com.acme.shop.Orders.lock(Orders.java:9)'
sq "a GNU location and level before the message" 'config/shop.yml:3:1: error: --store is required'
# argparse's way: a template in a local formatted with a dict, its
# %(value)r literal in the stored pattern (the loose pattern's lenient hit,
# before the console line that wraps it)
sq "a %(value)r placeholder, after the option it is about" "inventory: error: option --shelf: invalid int shelf value: 'A-3'"
sq "a text from a table of texts" 'OptionError: expected at most one shelf'
sq "a raise quoting the error it caught (mark_quoting)" \
	"invalid shelf configuration: unbalanced brackets in the shelf layout near '[a,b'"
sq "a printed value naming its record's file" \
	'VerbError: You must give at least one item to recount (see "inventory help recount")'
sq "a logged line, then the error raised" 'ERROR: could not find a version for shopkit==9.9
ERROR: no matching item found for shopkit==9.9'
SSMSG='The remote "backup" could not be reached, check the network settings and the credentials of the sync account.'
SSBOX=$(printf '%-79s\n' '' '  [RuntimeException]' "  ${SSMSG:0:75}" "  ${SSMSG:75}" '')
sq "a symfony/console block naming the line it was raised at" "
In SyncCommand.php line 17:
$SSBOX

sync:push [--force] [--] <remote>"
sq "a symfony/console block without header" "$SSBOX"
# the lookup of 4cb556f, ported to search.js: a pointer to the program's
# help ranks after an earlier line that tells something (the error, also a
# warning's); alone, it is the answer
SSHELP="zz: try 'zz --help' or 'zz --manual' for more information"
sq "a warning's line, then the pointer to the help" "zz: notes.txt: file exists, skipped
$SSHELP"
sq "the pointer to the help alone" "$SSHELP"
# a printed line around the message of an error value another record
# raised ranks after it; (trap) a raised line quoting another's message
# ("recovered from %s") stays first
sq "a print around a raised error's message on its line" 'Failed to validate widget: widgets must be an array'
sq "a panic quoting a recovered error's message" 'panic: recovered from item not found'
# a system call's prefix with a path ("stat /x/y: "), stripped like a
# timestamp; (trap) without a '/' it is part of the message
sq "a system call's prefix with its path" '2026/11/29 10:00:00 stat /srv/shop/catalog: catalog shelf-9 is not loaded'
sq "a system call's word without a path" 'stat catalog: catalog shelf-9 is not loaded'
# a URL in the command: its scheme names the protocol's file
# (fixture c/src/site-proto: one text in http.c and ftp.c)
sq "a URL's scheme in the command names the file" '$ zz -sS --max-filesize 10 -o /dev/null http://127.0.0.1:8080/big.bin
zz: (63) Maximum file size exceeded'
sq "another URL's scheme names another file" '$ zz ftp://files.example/pub/big.iso
zz: (63) Maximum file size exceeded'
# one text in two repositories' trees (acme/jvm and acme/csharp): the
# program of the pasted command names its repository (rank.c's
# program_names), either way
sq "the command's program names one repository" '$ jvm2 find X-1
No item with SKU X-1'
sq "the command's program names the other repository" '$ csharp find X-1
No item with SKU X-1'
# a match opening inside parentheses after other text is an aside, no
# answer; (trap) parentheses opening the line hold its message
sq "an aside in parentheses" '  shopkit==9.9 (cannot load engine config, using the defaults)' quiet
sq "parentheses around the whole line" '(cannot load engine config)'
# the lookup of 3ad0d0f: a line whose text only a definition has (an
# Error() method) ranks after another line's raise or print, and the
# pointer to the help after it is not demoted (the runtime's flag parser
# says the same); an Error() method's text around another error's message
# only formats it (fixture go/site-modload.go)
sq "a definition's text, the usage, then the pointer to the help" "flag provided but not defined: -frob
usage: shopd build [-o output] [build flags]
Run 'shopd help build' for details."
sq "a definition's text alone" 'flag provided but not defined: -frob'
sq "an Error() method's text around another error's message" 'main.go:3:8: cannot find module providing package example.com/x: module lookup disabled by GOPROXY=off'
sq "a definition's text, then a printed line" "missing key 'port' in section server
cannot open store /srv/shop.db: permission denied"
# the order of e35ed8e, a total one: the lines ordered by their best hits
# (a logged line of one file, its other line's log of the message another
# file raises: fixture python/inventory/site-init.py, site-manifest.py)
sq "a program's own line, then its log of a message another file raises" 'Writing ./manifest.json
Schema validation error, aborting
"./manifest.json" breaks the manifest schema:
 - name : a string is required'
# the place a message ends with, PHP's and less's ("in FILE on line N"):
# cut off, and a PHP level before it stripped (fixtures php/public/index.php,
# js/lib/indirect.js)
sq "PHP's warning with its place" 'PHP Warning:  PHP 8 is required in /var/www/shop/public/index.php on line 13'
sq "PHP's deprecation with its place" 'Deprecated: WidgetService::legacy() is deprecated in /var/www/shop/src/Services/WidgetService.php on line 52'
sq "a plain object's message with the input's place" 'NameError: config variable @x is undefined in /srv/app/site.cfg on line 1, column 3:'
# a class's template formatted when printed: the text alone answers the
# template, a traceback's frame the raise it names (fixture
# python/inventory/shelves.py)
sq "a class's template, the text alone" "inventory.shelves.ShelfNotFound: The 'oak' shelf was not found and is required by the application"
sq "a class's template, at the raise a frame names" 'Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
    find_shelf("oak", [], {})
  File "/srv/app/inventory/shelves.py", line 31, in find_shelf
    raise ShelfNotFound(req, requirers)
inventory.shelves.ShelfNotFound: The '"'"'oak'"'"' shelf was not found and is required by the application'
jq -n '$ARGS.positional' --args "${SST[@]}" >"$SS/q.json"
node "$TESTS/site/static_search.cjs" "$SS/site" "$SS/q.json" >"$SS/all.json" 2>"$SS/node.err"
check "site search: runs under node (every record tried)" test -s "$SS/all.json"
STATIC_ALL_CHUNKS=0 node "$TESTS/site/static_search.cjs" "$SS/site" "$SS/q.json" >"$SS/words.json" 2>>"$SS/node.err"
check "site search: runs under node (records sharing words)" test -s "$SS/words.json"
[ -s "$SS/node.err" ] && echo "    $(head -3 "$SS/node.err")"

# the first answer as one line: id, tier, captures and score (to 0.001:
# explain prints three decimals)
first() { jq -c '(.matches? // .)[0] // null | if . then [.id, .matchType, .captures, (.score * 1000 | round)] else null end'; }
# same A B: the same answer, the scores within 0.001
same() { [ "$(jq -n --argjson a "$1" --argjson b "$2" \
	'if $a == null or $b == null then $a == $b else $a[0:3] == $b[0:3] and ($a[3] - $b[3] | fabs) <= 1 end')" = true ]; }
SSAGREE=0 SSWORDS=0
for i in "${!SST[@]}"; do
	n=${SSN[$i]}
	printf '%s' "${SST[$i]}" | "$FL" explain --db "$SS/s.db" --json - >"$SS/e.json" 2>/dev/null
	[ -s "$SS/e.json" ] || echo '{"matches":[]}' >"$SS/e.json"
	e=$(first <"$SS/e.json")
	a=$(jq ".[$i]" "$SS/all.json" | first)
	w=$(jq ".[$i]" "$SS/words.json" | first)
	if same "$a" "$e"; then SSAGREE=$((SSAGREE + 1)); ok "site search: $n: explain's first answer"
	else bad "site search: $n: explain's first answer" "explain $e, static $a"; fi
	if same "$w" "$e"; then SSWORDS=$((SSWORDS + 1)); ok "site search: $n: the same from the records sharing words"
	else bad "site search: $n: the same from the records sharing words" "explain $e, static $w"; fi
	if [ -n "${SSQUIET[$i]}" ]; then
		check "site search: $n: no confident answer from explain nor static" [ "$(jq -s \
			'[.[0].matches[], .[1][]] | map(select(.score >= 0.9)) | length' "$SS/e.json" <(jq ".[$i]" "$SS/all.json"))" = 0 ]
	else
		check "site search: $n: a confident answer" [ "$(jq '.matches[0].score >= 0.9' "$SS/e.json")" = true ]
	fi
done
check "site search: $SSAGREE of ${#SST[@]} texts answered as explain answers them" [ "$SSAGREE" -eq "${#SST[@]}" ]
check "site search: $SSWORDS of ${#SST[@]} from the records sharing words" [ "$SSWORDS" -eq "${#SST[@]}" ]

# the static search against `faultline serve`'s /api/search on the same
# store: the same first answer for every text, shown with the same
# file:line (the record's filePath and lineNumber)
"$FL" serve --db "$SS/s.db" --no-site --listen 127.0.0.1:0 --cache-dir "$SS/cache" 2>"$SS/serve.log" &
SS_PID=$!
SS_PORT=""
for i in $(seq 300); do
	SS_PORT=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$SS/serve.log")
	[ -n "$SS_PORT" ] && break
	kill -0 "$SS_PID" 2>/dev/null || break
	sleep 0.1
done
check "site search: serve is up for the API comparison" test -n "$SS_PORT"
# first answer with its place: id, tier, captures, score, file:line
firstloc() { jq -c '(.matches? // .)[0] // null | if . then [.id, .matchType, .captures, (.score * 1000 | round), "\(.filePath):\(.lineNumber)"] else null end'; }
SSAPI=0 SSLOC=0 SSLOCN=0
for i in "${!SST[@]}"; do
	curl -s -G --max-time 20 --data-urlencode "q=${SST[$i]}" --data-urlencode limit=20 \
		"http://127.0.0.1:$SS_PORT/api/search" >"$SS/api.json" 2>/dev/null
	[ -s "$SS/api.json" ] || echo '{"matches":[]}' >"$SS/api.json"
	a=$(firstloc <"$SS/api.json")
	st=$(jq ".[$i]" "$SS/all.json" | firstloc)
	if same "$(jq -c '.[0:4]?' <<<"$st")" "$(jq -c '.[0:4]?' <<<"$a")"; then SSAPI=$((SSAPI + 1))
	else echo "    ${SSN[$i]}: api $a, static $st"; fi
	if [ "$a" != null ]; then
		SSLOCN=$((SSLOCN + 1))
		[ "$(jq -r '.[4]' <<<"$a")" = "$(jq -r '.[4]?' <<<"$st")" ] && SSLOC=$((SSLOC + 1))
	fi
done
kill -TERM "$SS_PID" 2>/dev/null; wait "$SS_PID" 2>/dev/null
check "site search: $SSAPI of ${#SST[@]} texts answered as serve's /api/search answers them" [ "$SSAPI" -eq "${#SST[@]}" ]
check "site search: $SSLOC of $SSLOCN first answers at the same file:line as the API's" \
	bash -c "[ $SSLOCN -gt 20 ] && [ $SSLOC -eq $SSLOCN ]"
