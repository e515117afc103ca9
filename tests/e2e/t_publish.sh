# publish: export (layout, schema of every file, small manifest, inventory,
# monotonic version), import (round trip, corrupt data sets rejected as a whole with
# file and field named), kill safety of export, the static site (links,
# JSON-LD, page size, escaping, section order) and headless Chromium.

PB="$WORK/publish"
mkdir -p "$PB/t1/src" "$PB/t2/lib"
cat >"$PB/t1/src/app.py" <<'PY'
def load(path, name, lineno):
    if not path:
        raise ValueError("path must not be empty: <script>alert(1)</script>")
    if len(path) > 100:
        raise ValueError(f"cannot parse {name} at line {lineno}")
    raise KeyError("missing key & value")
PY
cat >"$PB/t1/src/main.go" <<'GO'
package main

import "errors"

var ErrClosed = errors.New("connection closed by peer")

func f() error { return errors.New("timeout of 500ms exceeded") }
GO
cat >"$PB/t2/lib/tool.c" <<'C'
void die(const char *fmt, ...);
int main(int argc, char **argv) {
	if (argc < 2)
		die("usage: tool FILE");
	die("cannot open %s: %s", argv[1], "x");
}
C
jqt() { jq -e "$@" >/dev/null; }
"$FL" scan "$PB/t1" --repo acme/widgets --db "$PB/a.db" >/dev/null 2>&1
"$FL" scan "$PB/t2" --repo zeta/tools --db "$PB/a.db" >/dev/null 2>&1
NREC=$("$FL" list --db "$PB/a.db" | wc -l)
check "publish: test store has records" [ "$NREC" -ge 6 ]

for c in export import site; do
	"$FL" "$c" --help >"$PB/h.txt" 2>&1
	check "$c --help exits 0 with usage" grep -q "usage: faultline $c" "$PB/h.txt"
done
"$FL" export --db "$PB/a.db" >/dev/null 2>&1; rc=$?
check "export without DIR is a usage error" [ $rc -eq 2 ]
"$FL" site --db "$PB/a.db" --data "$PB/x" "$PB/s" >/dev/null 2>&1; rc=$?
check "site --db with --data is a usage error" [ $rc -eq 2 ]

DS="$PB/ds"
"$FL" export --db "$PB/a.db" "$DS" >"$PB/o.txt" 2>"$PB/e.txt"; rc=$?
check "export exits 0" [ $rc -eq 0 ]
check "export: stderr empty" [ ! -s "$PB/e.txt" ]

# ---- schema of every exported file -----------------------------------------
ENTRY_KEYS='["id","repo","slug","errorCode","errorMessage","messagePattern","errorType","errorClass","httpStatus","severity","filePath","lineNumber","sourceCode","sourceCodeStart","sourceCodeEnd","githubUrl","documentation","triggerScenarios","commonSituations","solutions","exampleFix","handlingStrategy","validationCode","typeGuard","tryCatchPattern","preventionTips","tags","backgroundTag","analyzedSha","analyzedAt","contentChangedAt","schemaVersion"]'
REPO_KEYS='["repo","description","language","stars","sourceFiles","defaultBranch","analyzedSha","analyzedAt","errorCount"]'
ISO='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$'
# shellcheck disable=SC2016
ENTRY_OK='(keys_unsorted == $ek) and (.id|test("^[0-9a-f]{16}$")) and (.slug|test("^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"))
	and (.errorType|IN("exception","error_code","console","http","validation","panic"))
	and (.severity|IN("critical","error","warning","info")) and .schemaVersion == 2
	and (.analyzedSha|test("^[0-9a-f]{40}$")) and (.analyzedAt|test($iso)) and (.contentChangedAt|test($iso))
	and (.solutions|type=="array") and (.tags|all(test("^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")))
	and (.errorMessage|length>0) and (.messagePattern|length>0)'
check "manifest.json: schema" jqt --arg iso "$ISO" '(keys_unsorted == ["schemaVersion","datasetVersion","counts","files"])
	and .schemaVersion == 2 and (.datasetVersion|test($iso)) and (.counts|keys_unsorted == ["repos","errors"])
	and (.files|keys_unsorted == ["index","repos","inventory"])
	and .files.index.path == "/data/index.json" and .files.repos.path == "/data/repos.json"
	and .files.inventory.path == "/data/inventory.json"
	and (.files|to_entries|all(.value|keys_unsorted == ["path","bytes","sha256"] and (.sha256|test("^[0-9a-f]{64}$"))))' "$DS/manifest.json"
check "inventory.json: schema" jqt --arg iso "$ISO" '(keys_unsorted == ["schemaVersion","datasetVersion","files"])
	and .schemaVersion == 2 and (.datasetVersion|test($iso))
	and (.files|length > 0 and all(keys_unsorted == ["path","bytes","sha256"] and (.path|startswith("/data/"))
		and (.sha256|test("^[0-9a-f]{64}$"))))
	and ([.files[].path] == ([.files[].path]|sort))' "$DS/inventory.json"
check "manifest.json: counts" jqt --argjson n "$NREC" '.counts.errors == $n and .counts.repos == 2' "$DS/manifest.json"
inventory_ok() { # manifest -> index, repos, inventory; inventory -> every other file
	local bad=0 path bytes sha f
	while read -r path bytes sha; do
		f="$DS/${path#/data/}"
		[ -f "$f" ] || { echo "    missing $f"; bad=1; continue; }
		[ "$(stat -c %s "$f")" = "$bytes" ] || { echo "    size $f"; bad=1; }
		[ "$(sha256sum "$f" | cut -d' ' -f1)" = "$sha" ] || { echo "    sha $f"; bad=1; }
	done < <(jq -r '.files[] | "\(.path) \(.bytes) \(.sha256)"' "$DS/manifest.json" "$DS/inventory.json")
	# every file of the data set is listed
	local listed unlisted
	listed=$(jq -r '.files[].path' "$DS/inventory.json" | sed 's|^/data/||' | sort)
	unlisted=$(cd "$DS" && find . -type f ! -name manifest.json ! -name inventory.json | sed 's|^\./||' | sort | comm -23 - <(echo "$listed"))
	[ -z "$unlisted" ] || { echo "    unlisted: $unlisted"; bad=1; }
	return $bad
}
check "manifest.json and inventory.json: every file listed with its size and sha256" inventory_ok
check "index.json: schema" jqt --arg iso "$ISO" --argjson n "$NREC" '(keys_unsorted == ["schemaVersion","datasetVersion","errors"])
	and .schemaVersion == 2 and (.datasetVersion|test($iso)) and (.errors|length == $n)
	and (.errors|all(keys_unsorted == ["id","repo","slug","code","msg","pattern","type","cls","tags","sev"]))' "$DS/index.json"
check "repos.json: schema" jqt --argjson rk "$REPO_KEYS" 'type=="array" and length==2 and all(keys_unsorted == $rk)
	and (map(.repo) == ["acme/widgets","zeta/tools"]) and all(.errorCount >= 1)' "$DS/repos.json"
check "repos/*.json: every record of the schema" jqt -s --argjson ek "$ENTRY_KEYS" --arg iso "$ISO" \
	"all(.[]; type==\"array\" and all($ENTRY_OK))" "$DS"/repos/*/*.json
check "errors/*.json: {record, datasetVersion}, records of the schema" jqt -s --argjson ek "$ENTRY_KEYS" --arg iso "$ISO" \
	"all(.[]; keys_unsorted == [\"record\",\"datasetVersion\"] and (.datasetVersion|test(\$iso)) and (.record|$ENTRY_OK))" "$DS"/errors/*.json
check "errors/: one file per record" [ "$(find "$DS/errors" -name '*.json' | wc -l)" -eq "$NREC" ]
check "search/summary.json" jqt --argjson n "$NREC" '. == {"entryCount":$n,"tokenShards":256,"metaChunk":2000,"weightScale":100}' "$DS/search/summary.json"
check "search/tokens: 256 shards of token -> [weight, [indexes]]" jqt -s --argjson n "$NREC" 'length == 256 and all(.[]; to_entries|all(
	(.key|test("^[^A-Z ]+$")) and (.value|length==2) and (.value[0]|type=="number" and . >= 100)
	and (.value[1]|all(type=="number" and . >= 0 and . < $n))))' "$DS"/search/tokens/*.json
check "search/ids: id -> index" jqt -s --argjson n "$NREC" '[.[]|to_entries[]] | length == $n and all(.value < $n)' "$DS"/search/ids/*.json
check "search/norms.json and meta/0.json" jqt -s --argjson n "$NREC" '(.[0]|length==$n and all(type=="number")) and (.[1]|length==$n)' \
	"$DS/search/norms.json" "$DS/search/meta/0.json"
check "search/codes.json: code -> indexes" jqt 'type=="object" and all(.[]; type=="array")' "$DS/search/codes.json"
check "search shard of a token by FNV-1a" bash -c '
	tok=widget; h=2166136261
	for ((i=0;i<${#tok};i++)); do c=$(printf "%d" "'"'"'${tok:i:1}"); h=$(( ((h ^ c) * 16777619) & 0xffffffff )); done
	jq -e ".widget == null" "$1/search/tokens/$(printf %02x $((h % 256))).json" >/dev/null &&
	tok=connection; h=2166136261
	for ((i=0;i<${#tok};i++)); do c=$(printf "%d" "'"'"'${tok:i:1}"); h=$(( ((h ^ c) * 16777619) & 0xffffffff )); done
	jq -e ".connection[1]|length == 1" "$1/search/tokens/$(printf %02x $((h % 256))).json" >/dev/null' _ "$DS"

# ---- round trip ----------------------------------------------------------------
V1=$(jq -r .datasetVersion "$DS/manifest.json")
"$FL" import --db "$PB/b.db" "$DS" >/dev/null 2>"$PB/e.txt"; rc=$?
check "import exits 0" [ $rc -eq 0 ]
check "import: same records" cmp -s <("$FL" list --db "$PB/a.db" --json) <("$FL" list --db "$PB/b.db" --json)
"$FL" export --db "$PB/b.db" "$PB/ds2" >/dev/null 2>&1
strip_version() { # data set -> normalized listing of its files
	(cd "$1" && find . -type f ! -name manifest.json ! -name inventory.json | LC_ALL=C sort | while read -r f; do
		echo "== $f"; sed 's/"datasetVersion":"[^"]*"/"datasetVersion":"V"/' "$f"; echo; done
	 jq -c 'del(.datasetVersion) | .files.index.sha256 = "x" | .files.inventory.sha256 = "x"' "$1/manifest.json"
	 jq -c 'del(.datasetVersion) | .files |= map(if (.path|test("^/data/(index|errors/)")) then .sha256 = "x" else . end)' "$1/inventory.json")
}
check "export -> import -> export: identical but the version" cmp -s <(strip_version "$DS") <(strip_version "$PB/ds2")
"$FL" export --db "$PB/a.db" "$DS" >/dev/null 2>&1
V2=$(jq -r .datasetVersion "$DS/manifest.json")
check "datasetVersion increases" [ "$V2" \> "$V1" ]
mkdir -p "$PB/notds" && echo keep >"$PB/notds/precious.txt"
"$FL" export --db "$PB/a.db" "$PB/notds" >/dev/null 2>"$PB/e.txt"; rc=$?
check "export refuses to replace a folder that is not a data set" test $rc -eq 1 -a -f "$PB/notds/precious.txt"

# ---- corrupt data sets -----------------------------------------------------------
hash_manifest() { # DIR: recompute the manifest's sizes and hashes
	local m="$1/manifest.json" key f
	for key in index repos inventory; do
		f="$1/$key.json"
		jq -c --arg k "$key" --argjson b "$(stat -c %s "$f")" --arg s "$(sha256sum "$f" | cut -d' ' -f1)" \
			'.files[$k].bytes = $b | .files[$k].sha256 = $s' "$m" >"$m.new" && mv "$m.new" "$m"
	done
}
rehash() { # DIR: recompute the inventory's and the manifest's sizes and hashes
	local inv="$1/inventory.json" path
	jq -r '.files[].path' "$inv" | while read -r path; do
		local f="$1/${path#/data/}"
		printf '%s\t%s\t%s\n' "$path" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
	done | jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | {path: .[0], bytes: (.[1]|tonumber), sha256: .[2]})' >"$1/files.new"
	jq -c --slurpfile f "$1/files.new" '.files = $f[0]' "$inv" >"$inv.new" && mv "$inv.new" "$inv"
	rm -f "$1/files.new"
	hash_manifest "$1"
}
bad_import() { # NAME EXPECTED-REGEX: import $PB/bad must fail naming the problem, store unchanged
	local before after
	before=$("$FL" list --db "$PB/b.db" --json | sha256sum)
	"$FL" import --db "$PB/b.db" "$PB/bad" >"$PB/o.txt" 2>"$PB/e.txt"; local rc=$?
	after=$("$FL" list --db "$PB/b.db" --json | sha256sum)
	if [ $rc -eq 1 ] && grep -Eq "$2" "$PB/e.txt" && [ "$before" = "$after" ] && [ ! -s "$PB/o.txt" ]; then
		ok "import rejects $1"
	else
		bad "import rejects $1" "rc=$rc: $(cat "$PB/e.txt")"
	fi
}
fresh_bad() { rm -rf "$PB/bad"; cp -r "$DS" "$PB/bad"; }
ONE=$(jq -r '.errors[0].id' "$DS/index.json")
fresh_bad; sed -i 's/"severity":"error"/"severity":"errox"/' "$PB/bad/errors/$ONE.json"
bad_import "a file whose sha256 differs" "errors/$ONE.json: sha256"
fresh_bad; truncate -s -20 "$PB/bad/index.json"
bad_import "a truncated file" "index.json: bytes"
fresh_bad; jq -c '.schemaVersion = 3' "$DS/manifest.json" >"$PB/bad/manifest.json"
bad_import "a wrong schemaVersion" "manifest.json: schemaVersion"
fresh_bad; jq -c '.[0:1] + .' "$DS/repos/acme/widgets.json" >"$PB/bad/repos/acme/widgets.json"; rehash "$PB/bad"
bad_import "duplicate ids" "repos/acme/widgets.json: record [0-9a-f]{16}: id: duplicate"
fresh_bad; jq -c '.[0].severity = "fatal"' "$DS/repos/acme/widgets.json" >"$PB/bad/repos/acme/widgets.json"; rehash "$PB/bad"
bad_import "an invalid record" "repos/acme/widgets.json: \[0\] record [0-9a-f]{16}: severity"
fresh_bad; jq -c 'map(select(.repo != "zeta/tools"))' "$DS/repos.json" >"$PB/bad/repos.json"; rehash "$PB/bad"
bad_import "records of a repository missing from repos.json" "repos/zeta/tools.json: .*not in repos.json"
fresh_bad; jq -c '.record.documentation = "changed"' "$DS/errors/$ONE.json" >"$PB/bad/errors/$ONE.json"; rehash "$PB/bad"
bad_import "errors/{id}.json disagreeing with its repository file" "errors/$ONE.json: record.documentation: differs"
fresh_bad; rm "$PB/bad/search/norms.json"
bad_import "a listed file that is missing" "search/norms.json: listed in inventory.json"
fresh_bad; jq -c '.files[0].bytes += 1' "$DS/inventory.json" >"$PB/bad/inventory.json"
bad_import "a changed inventory the manifest does not vouch for" "inventory.json: (bytes|sha256): .*manifest.json"
fresh_bad; jq -c --arg p "/data/errors/$ONE.json" '(.files[] | select(.path == $p) | .sha256) = ("0" * 64)' "$DS/inventory.json" >"$PB/bad/inventory.json"
hash_manifest "$PB/bad"
bad_import "a file whose sha256 the inventory does not list" "errors/$ONE.json: sha256: is [0-9a-f]{64}, inventory.json says 0{64}"
fresh_bad; jq -c '.files[1] = {"path": "/data/../x", "bytes": 1, "sha256": ("0" * 64)}' "$DS/inventory.json" >"$PB/bad/inventory.json"
hash_manifest "$PB/bad"
bad_import "an inventory listing a path outside the data set" "inventory.json: files\[1\].path: '/data/../x'"
fresh_bad; jq -c --arg p "/data/errors/$ONE.json" '.files |= map(select(.path != $p))' "$DS/inventory.json" >"$PB/bad/inventory.json"
hash_manifest "$PB/bad"
bad_import "a record file the inventory does not list" "errors/$ONE.json: not listed in inventory.json"

# ---- killing an export ------------------------------------------------------------
verify_ds() { rm -f "$PB/v.db"; "$FL" import --db "$PB/v.db" "$1" >/dev/null 2>&1; }
VK=$(jq -r .datasetVersion "$DS/manifest.json")
# strace kills the export with SIGKILL as it enters the Nth call of the
# given renames (strace counts each system call apart): the swap is one
# renameat2 RENAME_EXCHANGE, then a rename() moves the previous data set,
# now under the temporary name, to its backup (on a file system without
# the exchange: rename() DIR to its backup, then rename() the new one in)
kill_at() { bash -c '"$@" >/dev/null 2>&1; echo $?' _ strace -f -qq -o /dev/null -e trace="$1" \
	-e inject="$1":signal=KILL:when="$2" "$FL" export --db "$PB/a.db" "$DS" 2>/dev/null; }
rc=$(kill_at renameat2,rename,renameat 1)
check "export killed before the swap dies by SIGKILL" [ $rc -eq 137 ]
check "killed before the swap: previous data set intact" verify_ds "$DS"
check "killed before the swap: same version" [ "$(jq -r .datasetVersion "$DS/manifest.json")" = "$VK" ]
rc=$(kill_at rename,renameat 1)
check "export killed between the renames dies by SIGKILL" [ $rc -eq 137 ]
check "killed between the renames: the previous data set is whole beside DIR" \
	bash -c 'for b in "$1".tmp-* "$1".bak-*; do [ "$(jq -r .datasetVersion "$b/manifest.json" 2>/dev/null)" = "$2" ] && exit 0; done; exit 1' _ "$DS" "$VK"
if [ -d "$DS" ]; then # swapped by the exchange: never without a data set in place
	check "killed between the renames: the new data set is whole in place" verify_ds "$DS"
fi
"$FL" export --db "$PB/a.db" "$DS" >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && verify_ds "$DS"; check "the next export recovers and succeeds" [ $? -eq 0 ]
check "no temporary or backup folder is left" bash -c '! ls -d "$1".tmp-* "$1".bak-* >/dev/null 2>&1' _ "$DS"
check "version still increases after a kill" [ "$(jq -r .datasetVersion "$DS/manifest.json")" \> "$VK" ]
# kills at arbitrary moments of a bigger export
mkdir -p "$PB/big"
for i in $(seq 1 40); do
	{ echo "def f$i(x):"; for j in $(seq 1 60); do echo "    if x == $j: raise ValueError(\"failure $i number $j in module\")"; done; } >"$PB/big/m$i.py"
done
"$FL" scan "$PB/big" --repo big/tree --db "$PB/big.db" >/dev/null 2>&1
"$FL" export --db "$PB/big.db" "$PB/bigds" >/dev/null 2>&1
BIGN=$(jq -r .counts.errors "$PB/bigds/manifest.json")
check "manifest.json stays small: $BIGN records, $(stat -c %s "$PB/bigds/manifest.json") bytes" \
	test "$BIGN" -ge 2000 -a "$(stat -c %s "$PB/bigds/manifest.json")" -lt 1024
check "manifest.json does not grow with the records" \
	test $(($(stat -c %s "$PB/bigds/manifest.json") - $(stat -c %s "$DS/manifest.json"))) -lt 16
KOK=1
for d in 0.05 0.15 0.3 0.45 0.6 0.8; do
	"$FL" export --db "$PB/big.db" "$PB/bigds" >/dev/null 2>&1 &
	kp=$!
	sleep "$d"; kill -9 "$kp" 2>/dev/null; wait "$kp" 2>/dev/null
	if [ -d "$PB/bigds" ]; then
		verify_ds "$PB/bigds" || { KOK=0; echo "    kill after ${d}s: data set damaged"; }
	else
		ok=0
		for b in "$PB"/bigds.bak-*; do verify_ds "$b" && ok=1; done
		[ $ok = 1 ] || { KOK=0; echo "    kill after ${d}s: no whole backup"; }
		"$FL" export --db "$PB/big.db" "$PB/bigds" >/dev/null 2>&1 || KOK=0
	fi
done
check "kill -9 at any moment leaves a whole data set" [ $KOK = 1 ]

# ---- the site -----------------------------------------------------------------------
SITE="$PB/site"
"$FL" site --db "$PB/a.db" --base-url https://example.test "$SITE" >"$PB/o.txt" 2>"$PB/e.txt"; rc=$?
check "site exits 0" [ $rc -eq 0 ]
check "site: one page per error" [ "$(find "$SITE/errors" -name index.html | wc -l)" -eq "$NREC" ]
check "site: pages" test -f "$SITE/index.html" -a -f "$SITE/search/index.html" -a -f "$SITE/repos/acme/widgets/index.html" \
	-a -f "$SITE/llms.txt" -a -f "$SITE/robots.txt" -a -f "$SITE/sitemap.xml" -a -f "$SITE/data/manifest.json"
links_ok() { # every internal link and asset resolves to a file of the site
	local bad=0 n=0 u f
	while read -r u; do
		n=$((n + 1))
		u=${u%%#*}; u=${u%%\?*}
		f="$SITE$u"
		case $u in */) f="${f}index.html" ;; esac
		[ -f "$f" ] || { [ -f "$f/index.html" ] && continue; echo "    broken: $u"; bad=1; }
	done < <(grep -rhoE '(href|src)="/[^/"][^"]*"|(href|src)="/"' --include='*.html' "$SITE" | sed -E 's/^(href|src)="//; s/"$//' | sort -u)
	[ $n -gt 10 ] && [ $bad -eq 0 ]
}
check "site: every internal link resolves" links_ok
sitemap_ok() {
	local bad=0 u
	for u in $(grep -ohE '<loc>[^<]+</loc>' "$SITE/sitemap.xml" "$SITE"/sitemaps/*.xml "$SITE"/sitemaps/repos/*/*.xml | sed -E 's|</?loc>||g'); do
		case $u in https://example.test/*) ;; *) echo "    $u"; bad=1; continue ;; esac
		u=${u#https://example.test}; f="$SITE$u"; case $u in */) f="${f}index.html" ;; esac
		[ -f "$f" ] || { echo "    sitemap: $u"; bad=1; }
	done
	return $bad
}
check "site: sitemap index, one sitemap per repository, every URL resolves" sitemap_ok
check "site: sitemap index lists each repository" grep -q "sitemaps/repos/zeta/tools.xml" "$SITE/sitemap.xml"
check "site: robots.txt points at the sitemap" grep -q "^Sitemap: https://example.test/sitemap.xml" "$SITE/robots.txt"
check "site: llms.txt lists the repositories" grep -q "acme/widgets" "$SITE/llms.txt"
jsonld_ok() {
	local bad=0 p
	for p in "$SITE"/errors/*/index.html; do
		sed -n 's|.*<script type="application/ld+json">\(.*\)</script>.*|\1|p' "$p" |
			jq -e '."@context" == "https://schema.org" and ."@graph"[0]."@type" == "TechArticle"
				and ."@graph"[1]."@type" == "FAQPage" and (."@graph"[1].mainEntity|length >= 2)
				and (."@graph"[0].url|startswith("https://example.test/errors/"))' >/dev/null || { echo "    $p"; bad=1; }
	done
	return $bad
}
check "site: JSON-LD of every error page parses (TechArticle + FAQPage)" jsonld_ok
check "site: error pages under 50 KB" bash -c '! find "$1/errors" -name index.html -size +50k | grep -q .' _ "$SITE"
check "site: no web fonts" bash -c '! grep -rqiE "@font-face|fonts\.(googleapis|gstatic)|\.woff" "$1" --include="*.html" --include="*.css"' _ "$SITE"
XSS=$("$FL" list --db "$PB/a.db" --json | jq -r 'select(.errorMessage|contains("<script>")) | .id')
XP="$SITE/errors/$XSS/index.html"
check "site: a message with <script> shows as text" grep -q 'path must not be empty: &lt;script&gt;alert(1)&lt;/script&gt;' "$XP"
check "site: no raw <script>alert anywhere" bash -c '! grep -rq "<script>alert" "$1" --include="*.html"' _ "$SITE"
check "site: & escaped" grep -rq 'missing key &amp; value' "$SITE/errors"
check "site: canonical URL" grep -q "<link rel=\"canonical\" href=\"https://example.test/errors/$XSS/\">" "$XP"
check "site: JSON twin" grep -q "<link rel=\"alternate\" type=\"application/json\" href=\"/data/errors/$XSS.json\">" "$XP"
order_ok() { # h1 (the message), meaning, source, solutions, defensive, triggers, related, footer
	local last=0 pat pos
	for pat in '<h1 class="message" id="message">' 'id="meaning"' 'id="source"' 'permalink' 'id="solutions"' \
		'id="defensive"' '<details' 'id="triggers"' 'id="related"' '<footer' 'static analysis' 'JSON record'; do
		pos=$(grep -boF -- "$pat" "$1" | cut -d: -f1 | awk -v l="$last" '$1 > l { print; exit }')
		[ -n "$pos" ] && [ "$pos" -gt "$last" ] || { echo "    order: $pat"; return 1; }
		last=$pos
	done
}
check "site: error page sections in order" order_ok "$XP"
# (an element holding the whole message: the heading; the source line and
# the pattern hold it too, inside code)
check "site: the error page shows the message once" \
	test "$(sed -n '/<article/,/<\/article>/p' "$XP" | grep -oF '>path must not be empty: &lt;script&gt;alert(1)&lt;/script&gt;<' | wc -l)" -eq 1
# a record with no defensive pattern: no empty box
NODEF="$PB/nodef"
rm -rf "$NODEF"; cp -r "$DS" "$NODEF"
ND_REPO=$(jq -r --arg id "$XSS" '.record.repo' "$DS/errors/$XSS.json")
ND_CLEAR='.handlingStrategy = null | .validationCode = null | .typeGuard = null | .tryCatchPattern = null | .preventionTips = []'
jq -c --arg id "$XSS" "map(if .id == \$id then $ND_CLEAR else . end)" "$DS/repos/$ND_REPO.json" >"$NODEF/repos/$ND_REPO.json"
jq -c ".record |= ($ND_CLEAR)" "$DS/errors/$XSS.json" >"$NODEF/errors/$XSS.json"
rehash "$NODEF"
"$FL" site --data "$NODEF" "$PB/site-nodef" >/dev/null 2>"$PB/e.txt"
check "site: a record without defensive patterns has no Defensive patterns box" \
	bash -c 'test -f "$1" && ! grep -q "id=\"defensive\"" "$1" && ! grep -qi "defensive pattern" "$1"' _ "$PB/site-nodef/errors/$XSS/index.html"
check "site: a record with one keeps the box" grep -q 'id="defensive"' "$XP"
check "site: source window with line numbers" grep -q 'class="ln hl" data-n="3"' "$XP"
check "site: repository page table, without the Code column no record of the page fills" \
	bash -c 'grep -q "<thead><tr><th>Message</th><th>Type</th><th>Severity</th>" "$1" && ! grep -q "<th>Code</th>" "$1"' _ "$SITE/repos/acme/widgets/index.html"
# rendering again from an unchanged store writes nothing (no page, no data
# file: the data set is not exported again under a new version); how long
# it takes is a benchmark's question (bench_publish), not a test's: a timed
# check here failed under a loaded host (0.09 s, then 0.17 s)
RS="$PB/site-again"
"$FL" site --db "$PB/a.db" --base-url https://example.test "$RS" >"$PB/r1.txt" 2>&1
find "$RS" -type f -printf '%p %i %T@\n' | sort >"$PB/r1.lst"
sleep 1.1
"$FL" site --db "$PB/a.db" --base-url https://example.test "$RS" >"$PB/r2.txt" 2>&1
find "$RS" -type f -printf '%p %i %T@\n' | sort >"$PB/r2.lst"
check "site again from an unchanged store: no file written (inodes and mtimes kept)" cmp -s "$PB/r1.lst" "$PB/r2.lst"
check "site again from an unchanged store: says 0 files changed" grep -q ', 0 files changed;' "$PB/r2.txt"
"$FL" scan "$PB/t2" --repo zeta/tools2 --db "$PB/a.db" >/dev/null 2>&1
"$FL" site --db "$PB/a.db" --base-url https://example.test "$RS" >"$PB/r3.txt" 2>&1
check "site again after the store changed: the new records are published" \
	bash -c 'test -f "$1/repos/zeta/tools2/index.html" && jq -e ".counts.repos == 3" "$1/data/manifest.json" >/dev/null' _ "$RS"
"$FL" site --data "$DS" "$PB/site2" >/dev/null 2>&1; rc=$?
check "site --data DIR exits 0" test $rc -eq 0 -a -f "$PB/site2/data/manifest.json"
# without --base-url: no canonical URL on a made-up address, no sitemap
# (its URLs must be absolute); links and JSON-LD URLs are paths
check "site without --base-url: no canonical URL" bash -c '! grep -rq "rel=\"canonical\"" "$1" --include="*.html"' _ "$PB/site2"
check "site without --base-url: no absolute URL of the site on any page" \
	bash -c '! grep -rqE "https?://[a-z.]*faultline" "$1" --include="*.html" --include="*.txt"' _ "$PB/site2"
check "site without --base-url: no sitemap, robots.txt names none" \
	bash -c '! test -e "$1/sitemap.xml" && ! test -e "$1/sitemaps" && ! grep -q Sitemap "$1/robots.txt"' _ "$PB/site2"
"$FL" site --data "$DS" --base-url https://example.test "$PB/site2" >/dev/null 2>&1
"$FL" site --data "$DS" "$PB/site2" >/dev/null 2>&1
check "site without --base-url after one with it: the sitemaps go" \
	bash -c '! test -e "$1/sitemap.xml" && ! grep -rq "https://example.test" "$1" --include="*.html"' _ "$PB/site2"
fresh_bad; rm "$PB/bad/search/norms.json"
"$FL" site --data "$PB/bad" "$PB/site3" >/dev/null 2>"$PB/e.txt"; rc=$?
grep -q "norms.json" "$PB/e.txt"; check "site --data of a bad data set fails naming it" test $rc -eq 1 -a $? -eq 0

# ---- a repository with more records than a page shows; rendering again ---------------
BSITE="$PB/bigsite"
"$FL" site --data "$PB/bigds" --base-url https://example.test "$BSITE" >/dev/null 2>"$PB/e.txt"; rc=$?
check "site of $BIGN records in one repository exits 0" [ $rc -eq 0 ]
NPAGES=$(( (BIGN + 199) / 200 ))
RP="$BSITE/repos/big/tree"
check "repository pages: $NPAGES pages of 200 rows" test -f "$RP/index.html" -a -f "$RP/page/2/index.html" \
	-a -f "$RP/page/$NPAGES/index.html" -a ! -e "$RP/page/$((NPAGES + 1))" -a ! -e "$RP/page/1"
check "repository pages: 200 rows on the first, the rest on the last" \
	test "$(grep -o '<tr><td>' "$RP/index.html" | wc -l)" -eq 200 \
	-a "$(grep -o '<tr><td>' "$RP/page/$NPAGES/index.html" | wc -l)" -eq $((BIGN - 200 * (NPAGES - 1)))
check "repository pages: every record on exactly one page" \
	test "$(cat "$RP/index.html" "$RP"/page/*/index.html | grep -o 'href="/errors/[0-9a-f]*/"' | sort | uniq | wc -l)" -eq "$BIGN" \
	-a "$(cat "$RP/index.html" "$RP"/page/*/index.html | grep -o '<td><a href="/errors/' | wc -l)" -eq "$BIGN"
check "repository pages: canonical URL of each page" grep -q '<link rel="canonical" href="https://example.test/repos/big/tree/page/2/">' "$RP/page/2/index.html"
check "repository pages: previous and next" bash -c 'grep -q "rel=\"prev\" href=\"/repos/big/tree/\"" "$1" && grep -q "rel=\"next\" href=\"/repos/big/tree/page/3/\"" "$1"' _ "$RP/page/2/index.html"
check "repository pages: the sitemap lists every page" test "$(grep -o '<loc>https://example.test/repos/big/tree/[^<]*</loc>' "$BSITE/sitemaps/repos/big/tree.xml" | wc -l)" -eq "$NPAGES"
SITE_KEEP=$SITE
SITE=$BSITE
check "repository pages: every internal link resolves" links_ok
check "repository pages: every sitemap URL resolves" sitemap_ok
# the same folder rendered from a smaller data set: what is gone goes
"$FL" site --data "$DS" --base-url https://example.test "$BSITE" >/dev/null 2>"$PB/e.txt"; rc=$?
check "rendering again into the same folder exits 0" [ $rc -eq 0 ]
check "rendering again: only the current records' pages are left" \
	test "$(find "$BSITE/errors" -name index.html | wc -l)" -eq "$NREC" -a ! -e "$BSITE/repos/big" -a ! -e "$BSITE/sitemaps/repos/big"
check "rendering again: every internal link resolves" links_ok
check "rendering again: every sitemap URL resolves" sitemap_ok
SITE=$SITE_KEEP

# ---- headless Chromium ---------------------------------------------------------------
. "$TESTS/browser/browser.sh"
