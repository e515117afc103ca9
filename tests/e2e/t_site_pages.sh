# The pages of the static site (lib/publish/site.c) on the fixture trees:
# an error page lists as related, beyond its own file, only records of the
# same kind (the same error code, error class or background), never ones
# that share a language or error type tag alone.

SP="$WORK/site-pages"
mkdir -p "$SP"
for l in c python; do
	cp -r "$TESTS/fixtures/$l" "$SP/t-$l"
	rm -f "$SP/t-$l/expected.tsv"
	"$FL" scan "$SP/t-$l" --repo "acme/$l" --db "$SP/s.db" >/dev/null 2>&1
done
"$FL" site --db "$SP/s.db" "$SP/site" >/dev/null 2>"$SP/site.err"
check "site pages: site rendered" test -f "$SP/site/index.html"
python3 - "$SP/site" >"$SP/related.txt" 2>&1 <<'PY'
import json, os, re, sys
site = sys.argv[1]
rec = lambda i: json.load(open(os.path.join(site, "data/errors", i + ".json")))["record"]
pages = bad = listed = 0
for i in os.listdir(os.path.join(site, "errors")):
    html = open(os.path.join(site, "errors", i, "index.html")).read()
    pages += 1
    sec = re.search(r'<section id="related">(.*?)</section>', html, re.S).group(1)
    if "Sharing tags" in sec:
        print("sharing tags on", i); bad += 1
    e = rec(i)
    for head, body in re.findall(r"<h3>(.*?)</h3><ul class=\"related\">(.*?)</ul>", sec, re.S):
        if head.startswith("In the same file"):
            continue
        for j in re.findall(r'href="/errors/([0-9a-f]{16})/"', body):
            o = rec(j)
            listed += 1
            shared = [k for k in ("errorCode", "errorClass", "backgroundTag") if e[k] and e[k] == o[k]]
            if not shared:
                print("unrelated", i, "->", j, head); bad += 1
print(pages, listed, bad)
PY
read -r sp_pages sp_listed sp_bad < <(tail -1 "$SP/related.txt")
check "site pages: related errors of other files share a code, class or background ($sp_listed on $sp_pages pages)" \
	bash -c "[ '${sp_pages:-0}' -gt 50 ] && [ '${sp_listed:-0}' -gt 10 ] && [ '${sp_bad:-1}' = 0 ]"
[ "${sp_bad:-1}" = 0 ] || head -3 "$SP/related.txt"

# repository pages: paginated by bytes (long messages and paths make fewer
# rows a page, none over 50 KB), every record on one page, no column empty
# on every row (C records have no code), a filter box run by a static script
mkdir -p "$SP/long"
for i in $(seq 1 12); do
	d="$SP/long/src/a-rather-long-folder-name-for-module-number-$i/and-a-deeper-one-still/with-a-third"
	mkdir -p "$d"
	{
		echo "void die(const char *fmt, ...);"
		echo "void f$i(int x) {"
		for j in $(seq 1 40); do
			echo "	if (x == $j) die(\"module $i cannot complete step $j because the configuration entry it reads holds a value outside of the range that this step accepts, see the manual\");"
		done
		echo "}"
	} >"$d/module_with_a_long_file_name_$i.c"
done
"$FL" scan "$SP/long" --repo acme/long --db "$SP/long.db" >/dev/null 2>&1
"$FL" site --db "$SP/long.db" "$SP/lsite" >/dev/null 2>&1
LR="$SP/lsite/repos/acme/long"
LN=$(jq -r .counts.errors "$SP/lsite/data/manifest.json")
check "repository pages: $LN long records over several pages" \
	bash -c "[ '$LN' -ge 400 ] && [ -f '$LR/page/2/index.html' ]"
check "repository pages: none over 50 KB" bash -c '! find "$1" -name index.html -size +50k | grep -q .' _ "$LR"
check "repository pages: every record on exactly one page" \
	test "$(cat "$LR/index.html" "$LR"/page/*/index.html | grep -o '<td><a href="/errors/[0-9a-f]*/"' | sort -u | wc -l)" -eq "$LN" \
	-a "$(cat "$LR/index.html" "$LR"/page/*/index.html | grep -o '<td><a href="/errors/' | wc -l)" -eq "$LN"
check "repository pages: no Code column when no record of the page has a code" \
	bash -c '! grep -q "<th>Code</th>" "$1/index.html" && grep -q "<th>Message</th>" "$1/index.html"' _ "$LR"
check "repository pages: a filter box and its script (no external resource)" \
	bash -c 'grep -q "id=\"filter\"" "$1/repos/acme/long/index.html" && grep -q "src=\"/assets/filter.js\"" "$1/repos/acme/long/index.html" && test -s "$1/assets/filter.js" && ! grep -qE "https?://" "$1/assets/filter.js"' _ "$SP/lsite"
# the filter itself, under node with a minimal DOM of the page's rows
cat >"$SP/filter.cjs" <<'JS'
const fs = require("fs");
const html = fs.readFileSync(process.argv[2], "utf8");
const rows = [...html.matchAll(/<tr><td>(.*?)<\/tr>/g)].map(m => ({ textContent: m[1].replace(/<[^>]*>/g, " "), hidden: false, getAttribute: () => null }));
let handler = null;
const box = { value: "", hidden: true, parentNode: { hidden: true }, addEventListener: (e, f) => { handler = f; } };
const count = { textContent: "" };
global.document = {
	getElementById: id => id === "filter" ? box : id === "filter-count" ? count : null,
	querySelector: () => ({ tBodies: [{ rows }] }),
};
eval(fs.readFileSync(process.argv[3], "utf8"));
const res = {};
for (const q of ["step 7 ", "MODULE 3 cannot", "module_with_a_long_file_name_10.c", "console", "nothing-like-this"]) {
	box.value = q; handler();
	res[q] = rows.filter(r => !r.hidden).length;
}
console.log(JSON.stringify({ rows: rows.length, shown: !box.hidden, res }));
JS
node "$SP/filter.cjs" "$LR/index.html" "$SP/lsite/assets/filter.js" >"$SP/filter.json" 2>&1
check "repository pages: the filter keeps the rows holding every word, by message, file or type" \
	jq -e '.shown and .rows > 10 and .res["nothing-like-this"] == 0 and .res["console"] == .rows
		and .res["step 7 "] >= 1 and .res["step 7 "] < .rows and .res["MODULE 3 cannot"] >= 1 and .res["MODULE 3 cannot"] < .rows
		and .res["module_with_a_long_file_name_10.c"] >= 1 and .res["module_with_a_long_file_name_10.c"] < .rows' "$SP/filter.json" >/dev/null

# progress on a terminal only: under a pseudo-terminal (script) a fresh
# rendering says it exports and counts the error pages when that takes
# over a quarter of a second; with stderr in a file, nothing
mkdir -p "$SP/many"
for i in $(seq 1 40); do
	{ echo "def f$i(x):"; for j in $(seq 1 60); do echo "    if x == $j: raise ValueError(\"failure $i number $j in module\")"; done; } >"$SP/many/m$i.py"
done
"$FL" scan "$SP/many" --repo acme/many --db "$SP/many.db" >/dev/null 2>&1
"$FL" site --db "$SP/many.db" "$SP/msite1" >"$SP/m1.out" 2>"$SP/m1.err"
check "site progress: nothing on stderr when it is no terminal" test ! -s "$SP/m1.err" -a -s "$SP/m1.out"
if command -v script >/dev/null 2>&1; then
	script -qfec "$(printf '%q ' "$FL" site --db "$SP/many.db" "$SP/msite2")" "$SP/m2.tty" >/dev/null 2>&1 </dev/null
	check "site progress: on a terminal, the export is announced" grep -q "faultline: site: exporting the data set" "$SP/m2.tty"
	m2s=$(sed -nE 's/.* in ([0-9.]+) s,.*/\1/p' "$SP/m2.tty")
	check "site progress: on a terminal, the error pages counted (rendered in ${m2s:-?} s)" \
		bash -c "awk -v t='${m2s:-0}' 'BEGIN { exit !(t < 1) }' || grep -qE 'faultline: site: [0-9]+ of [0-9]+ error pages' '$SP/m2.tty'"
	if grep -qE 'faultline: site: [0-9]+ of [0-9]+ error pages' "$SP/m2.tty"; then
		check "site progress: the progress line is cleared before the summary" grep -q $'\r\033\[Krendered' "$SP/m2.tty"
	fi
fi
