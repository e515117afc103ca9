# Attacks on a published data set and on a site folder (issue #18): files
# the inventory does not list (a symlink to a private folder), symlinked,
# huge (sparse) and FIFO data set files, records whose filePath leaves the
# repository, and pages torn while a site is re-rendered.  Plus, as
# regressions, the attacks that already held: traversal in inventory paths
# and tampered files.  Every command is bounded by `timeout`; servers listen
# on 127.0.0.1 and are stopped by the test.

AD="$WORK/attack-ds"
mkdir -p "$AD/tree/src"
cat >"$AD/tree/src/app.py" <<'PY'
def load(path):
    if not path:
        raise ValueError("path must not be empty")
    raise KeyError("missing key in the config")
PY
"$FL" scan "$AD/tree" --repo acme/attack --db "$AD/a.db" >/dev/null 2>&1
"$FL" export --db "$AD/a.db" "$AD/ds" >/dev/null 2>&1
check "attack-ds: a real export to attack" [ -f "$AD/ds/manifest.json" ]
AD_ONE=$(jq -r '.errors[0].id' "$AD/ds/index.json")

# the private folder an attacker links to
mkdir -p "$AD/secret-dir"
echo "PRIVATE KEY 0123456789" >"$AD/secret-dir/id_rsa"

ad_fresh() { rm -rf "$AD/bad"; cp -r "$AD/ds" "$AD/bad"; }
ad_manifest() { # DIR: recompute the manifest's sizes and hashes of index, repos, inventory
	local m="$1/manifest.json" key f
	for key in index repos inventory; do
		f="$1/$key.json"
		jq -c --arg k "$key" --argjson b "$(stat -L -c %s "$f")" --arg s "$(sha256sum "$f" | cut -d' ' -f1)" \
			'.files[$k].bytes = $b | .files[$k].sha256 = $s' "$m" >"$m.new" && mv "$m.new" "$m"
	done
}
ad_rehash() { # DIR REL...: the inventory's size and sha256 of each REL recomputed, then the manifest's
	local d=$1 rel
	shift
	for rel in "$@"; do
		jq -c --arg p "/data/$rel" --argjson b "$(stat -c %s "$d/$rel")" --arg s "$(sha256sum "$d/$rel" | cut -d' ' -f1)" \
			'(.files[] | select(.path == $p)) |= (.bytes = $b | .sha256 = $s)' \
			"$d/inventory.json" >"$d/inventory.json.new" && mv "$d/inventory.json.new" "$d/inventory.json"
	done
	ad_manifest "$d"
}
ad_inv_set() { # DIR REL BYTES: the inventory says REL has BYTES bytes (sha256 kept), manifest rehashed
	jq -c --arg p "/data/$2" --argjson b "$3" '(.files[] | select(.path == $p) | .bytes) = $b' \
		"$1/inventory.json" >"$1/inventory.json.new" && mv "$1/inventory.json.new" "$1/inventory.json"
	ad_manifest "$1"
}
# ad_refused NAME REGEX CMD...: CMD (bounded to 60 s) exits 1 with a
# "faultline: ..." error matching REGEX, prints nothing on stdout, and the
# import store is unchanged
ad_refused() {
	local n=$1 re=$2 before after rc
	shift 2
	before=$("$FL" list --db "$AD/b.db" --json 2>/dev/null | sha256sum)
	timeout 60 "$@" >"$AD/o.txt" 2>"$AD/e.txt"; rc=$?
	after=$("$FL" list --db "$AD/b.db" --json 2>/dev/null | sha256sum)
	if [ $rc -eq 1 ] && grep -Eq "^faultline: .*$re" "$AD/e.txt" && [ ! -s "$AD/o.txt" ] && [ "$before" = "$after" ] &&
		! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$AD/e.txt"; then
		ok "$n"
	else
		bad "$n" "rc=$rc: $(head -c 600 "$AD/e.txt")"
	fi
}
"$FL" import --db "$AD/b.db" "$AD/ds" >/dev/null 2>&1
check "attack-ds: the untouched data set imports" [ "$("$FL" list --db "$AD/b.db" | wc -l)" -ge 2 ]

# ad_serve LOG ARGS...: serve on a kernel-picked loopback port (AD_PID, AD_URL);
# 1 when it did not come up (exited, or no port within 30 s)
ad_serve() {
	local log=$1 i port=""
	shift
	: >"$log"
	"$FL" serve --listen 127.0.0.1:0 --cache-dir "$AD/cache" "$@" 2>"$log" &
	AD_PID=$!
	for i in $(seq 300); do
		port=$(sed -n 's|^faultline: listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")
		[ -n "$port" ] && break
		kill -0 "$AD_PID" 2>/dev/null || break
		sleep 0.1
	done
	AD_URL="http://127.0.0.1:$port"
	[ -n "$port" ]
}
ad_serve_stop() {
	kill -TERM "$AD_PID" 2>/dev/null
	local i
	for i in $(seq 100); do
		kill -0 "$AD_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$AD_PID" 2>/dev/null
	wait "$AD_PID" 2>/dev/null
	AD_PID=
}
AD_PID=
trap 'if [ -n "$AD_PID" ]; then kill -KILL "$AD_PID" 2>/dev/null; fi; rm -rf "$WORK"' EXIT
ad_code() { curl -s --max-time 10 -o "$AD/body" -w '%{http_code}' "$1"; }

# ---- bug 1: an unlisted symlink to a private folder ---------------------------------
ad_fresh
ln -s "$AD/secret-dir" "$AD/bad/priv"
ad_refused "attack-ds: import refuses an unlisted symlink to a folder outside" \
	"bad/priv: a symbolic link" "$FL" import --db "$AD/b.db" "$AD/bad"
rm -rf "$AD/site1"
ad_refused "attack-ds: site --data refuses it" "bad/priv: a symbolic link" \
	"$FL" site --data "$AD/bad" "$AD/site1"
check "attack-ds: site --data copied nothing of the private folder" \
	bash -c "! grep -rqs 'PRIVATE KEY' '$AD/site1'"
if ad_serve "$AD/serve1.err" --data "$AD/bad"; then
	code=$(ad_code "$AD_URL/data/priv/id_rsa")
	bad "attack-ds: serve --data refuses it" "it started; /data/priv/id_rsa answered $code"
	ad_serve_stop
else
	wait "$AD_PID" 2>/dev/null; rc=$?
	AD_PID=
	check "attack-ds: serve --data refuses it (exit 1, names the link)" \
		bash -c "[ $rc -eq 1 ] && grep -q 'bad/priv: a symbolic link' '$AD/serve1.err'"
fi
check "attack-ds: the private file is in no cache" bash -c "! grep -rqs 'PRIVATE KEY' '$AD/cache'"

# other kinds of unlisted entries: a symlink to a file, a FIFO, a socket
ad_fresh
ln -s "$AD/secret-dir/id_rsa" "$AD/bad/errors/id_rsa"
ad_refused "attack-ds: import refuses an unlisted symlink to a file in a subfolder" \
	"bad/errors/id_rsa: a symbolic link" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
mkfifo "$AD/bad/search/pipe"
ad_refused "attack-ds: import refuses an unlisted FIFO (and does not hang)" \
	"bad/search/pipe: a FIFO" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$AD/bad/sock" 2>/dev/null
if [ -S "$AD/bad/sock" ]; then
	ad_refused "attack-ds: import refuses an unlisted socket" "bad/sock: a socket" \
		"$FL" import --db "$AD/b.db" "$AD/bad"
fi

# a site built from a good data set never follows a link added to it afterwards
rm -rf "$AD/site2"
timeout 60 "$FL" site --data "$AD/ds" "$AD/site2" >/dev/null 2>&1
check "attack-ds: site --data of a good data set" [ -f "$AD/site2/data/manifest.json" ]
check "attack-ds: the site's data/ holds exactly the listed files" bash -c "
	diff <(cd '$AD/site2/data' && find . -type f | sed 's|^\./||' | sort) \
	     <( (jq -r '.files[].path' '$AD/ds/inventory.json' | sed 's|^/data/||'; echo manifest.json; echo inventory.json) | sort)"
echo unlisted >"$AD/ds/unlisted.txt"
timeout 60 "$FL" site --data "$AD/ds" "$AD/site2" >/dev/null 2>&1
check "attack-ds: an unlisted regular file is not copied into the site" [ ! -e "$AD/site2/data/unlisted.txt" ]
rm -f "$AD/ds/unlisted.txt"

# serve --data --no-site serves the data set files: a link added while it runs
if ad_serve "$AD/serve2.err" --data "$AD/ds" --no-site; then
	check "attack-ds: serve --data --no-site serves the manifest" [ "$(ad_code "$AD_URL/data/manifest.json")" = 200 ]
	ln -s "$AD/secret-dir" "$AD/ds/priv"
	echo unlisted >"$AD/ds/unlisted.txt"
	code=$(ad_code "$AD_URL/data/priv/id_rsa")
	check "attack-ds: serve --no-site: a symlink added later is not followed (404)" \
		bash -c "[ '$code' = 404 ] && ! grep -q 'PRIVATE KEY' '$AD/body'"
	check "attack-ds: serve --no-site: an unlisted file is not served (404)" \
		[ "$(ad_code "$AD_URL/data/unlisted.txt")" = 404 ]
	rm -f "$AD/ds/priv" "$AD/ds/unlisted.txt"
	ad_serve_stop
else
	bad "attack-ds: serve --data --no-site of a good data set starts" "$(cat "$AD/serve2.err")"
fi
# serve --data with its site: the private folder never reaches /data/
ad_fresh
rm -rf "$AD/cache"
if ad_serve "$AD/serve3.err" --data "$AD/bad"; then
	ln -s "$AD/secret-dir" "$AD/bad/priv"
	code=$(ad_code "$AD_URL/data/priv/id_rsa")
	check "attack-ds: serve --data: a symlink added after start-up is not served (404)" \
		bash -c "[ '$code' = 404 ] && ! grep -q 'PRIVATE KEY' '$AD/body'"
	ad_serve_stop
else
	bad "attack-ds: serve --data of a good data set starts" "$(cat "$AD/serve3.err")"
fi

# ---- links and FIFOs in the site folder being built ------------------------------------
# a link there would have pages written, and stale ones removed, elsewhere
mkdir -p "$AD/victim"
echo "victim file" >"$AD/victim/keep.txt"
rm -rf "$AD/site6" && mkdir -p "$AD/site6"
ln -s "$AD/victim" "$AD/site6/errors"
ad_refused "attack-ds: site refuses a site folder whose errors/ is a link elsewhere" \
	"site6/errors: a symbolic link" "$FL" site --data "$AD/ds" "$AD/site6"
check "attack-ds: the link's target is untouched (nothing removed or written)" \
	bash -c "[ \"\$(ls '$AD/victim')\" = keep.txt ] && grep -q 'victim file' '$AD/victim/keep.txt'"
ad_refused "attack-ds: site --db refuses it too" "site6/errors: a symbolic link" \
	"$FL" site --db "$AD/a.db" "$AD/site6"
rm -rf "$AD/site6" && mkdir -p "$AD/site6"
ln -s "$AD/victim/keep.txt" "$AD/site6/index.html"
ad_refused "attack-ds: site refuses a page that is a link elsewhere" \
	"site6/index.html: a symbolic link" "$FL" site --data "$AD/ds" "$AD/site6"
check "attack-ds: the linked file is not overwritten" grep -q 'victim file' "$AD/victim/keep.txt"
rm -rf "$AD/site6" && mkdir -p "$AD/site6"
mkfifo "$AD/site6/robots.txt"
ad_refused "attack-ds: site refuses a FIFO in the site folder (no hang)" \
	"site6/robots.txt: a FIFO" "$FL" site --data "$AD/ds" "$AD/site6"
rm -rf "$AD/site6"

# ---- symlinked listed files and folders ----------------------------------------------
ad_fresh
cp "$AD/bad/index.json" "$AD/index-copy.json"
rm "$AD/bad/index.json" && ln -s "$AD/index-copy.json" "$AD/bad/index.json"
ad_refused "attack-ds: a listed index.json that is a symlink (same bytes) is refused" \
	"bad/index.json: a symbolic link" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
cp "$AD/bad/errors/$AD_ONE.json" "$AD/err-copy.json"
rm "$AD/bad/errors/$AD_ONE.json" && ln -s "$AD/err-copy.json" "$AD/bad/errors/$AD_ONE.json"
ad_refused "attack-ds: a listed record file that is a symlink is refused" \
	"bad/errors/$AD_ONE.json: a symbolic link" "$FL" import --db "$AD/b.db" "$AD/bad"
rm -rf "$AD/site3"
ad_refused "attack-ds: site --data refuses a symlinked listed file" \
	"bad/errors/$AD_ONE.json: a symbolic link" "$FL" site --data "$AD/bad" "$AD/site3"
ad_fresh
mv "$AD/bad/search" "$AD/search-elsewhere" && ln -s "$AD/search-elsewhere" "$AD/bad/search"
ad_refused "attack-ds: a symlinked folder of listed files is refused" \
	"bad/search: a symbolic link" "$FL" import --db "$AD/b.db" "$AD/bad"
rm -rf "$AD/search-elsewhere"
ad_fresh
rm "$AD/bad/manifest.json" && ln -s "$AD/ds/manifest.json" "$AD/bad/manifest.json"
ad_refused "attack-ds: a symlinked manifest.json is refused" \
	"bad/manifest.json: a symbolic link" "$FL" import --db "$AD/b.db" "$AD/bad"

# ---- bug 3: huge (sparse) files ---------------------------------------------------------
AD_T=$((1 << 40))
AD_6G=$((6 << 30))
ad_fresh
truncate -s 1T "$AD/bad/search/norms.json"
ad_inv_set "$AD/bad" search/norms.json "$AD_T"
ad_refused "attack-ds: a listed 1 TB sparse file is refused before it is read (no abort)" \
	"bad/search/norms.json: $AD_T bytes, over the limit of [0-9]+ bytes of a data set file" \
	"$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
truncate -s 6G "$AD/bad/search/norms.json"
ad_refused "attack-ds: a 6 GiB file listed with its old size: both sizes, exact" \
	"bad/search/norms.json: bytes: is $AD_6G, inventory.json says [0-9]+" \
	"$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
truncate -s 6G "$AD/bad/repos/acme/attack.json"
ad_inv_set "$AD/bad" repos/acme/attack.json "$AD_6G"
ad_refused "attack-ds: a listed 6 GiB record file is refused with its 64-bit size" \
	"bad/repos/acme/attack.json: $AD_6G bytes, over the limit" \
	"$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
truncate -s 1T "$AD/bad/index.json"
jq -c --argjson b "$AD_T" '.files.index.bytes = $b' "$AD/ds/manifest.json" >"$AD/bad/manifest.json"
ad_refused "attack-ds: a 1 TB index.json the manifest vouches for is refused" \
	"bad/index.json: $AD_T bytes, over the limit" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
truncate -s 1T "$AD/bad/manifest.json"
ad_refused "attack-ds: a 1 TB manifest.json is refused" "bad/manifest.json: $AD_T bytes, over the limit" \
	"$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
truncate -s 1T "$AD/bad/search/norms.json"
ad_inv_set "$AD/bad" search/norms.json "$AD_T"
rm -rf "$AD/site4"
ad_refused "attack-ds: site --data refuses the 1 TB file too" "over the limit" \
	"$FL" site --data "$AD/bad" "$AD/site4"

# ---- FIFOs in place of data set files ----------------------------------------------------
ad_fresh
rm "$AD/bad/search/norms.json" && mkfifo "$AD/bad/search/norms.json"
ad_refused "attack-ds: a FIFO in place of a listed file is refused (no hang)" \
	"bad/search/norms.json: a FIFO" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
rm "$AD/bad/index.json" && mkfifo "$AD/bad/index.json"
ad_refused "attack-ds: a FIFO in place of index.json is refused (no hang)" \
	"bad/index.json: a FIFO" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
rm "$AD/bad/manifest.json" && mkfifo "$AD/bad/manifest.json"
ad_refused "attack-ds: a FIFO in place of manifest.json is refused (no hang)" \
	"bad/manifest.json: a FIFO" "$FL" import --db "$AD/b.db" "$AD/bad"

ad_fresh
rm "$AD/bad/manifest.json" && mkfifo "$AD/bad/manifest.json"
rm -rf "$AD/cache"
ad_serve "$AD/serve5.err" --data "$AD/bad"
kill -0 "$AD_PID" 2>/dev/null && kill -KILL "$AD_PID" # still there after 30 s: hung (or serving)
wait "$AD_PID" 2>/dev/null; rc=$?
AD_PID=
check "attack-ds: serve --data refuses a FIFO manifest.json (exit 1, no hang)" \
	bash -c "[ $rc -eq 1 ] && grep -q 'bad/manifest.json: a FIFO' '$AD/serve5.err'"

# ---- records whose filePath leaves the repository -------------------------------------
# ad_filepath VALUE-AS-JSON: the first record of the repository file and its
# errors/{id}.json get that filePath, sizes and hashes made to agree
ad_filepath() {
	ad_fresh
	local rf="$AD/bad/repos/acme/attack.json" ef="$AD/bad/errors/$AD_ONE.json"
	jq -c --argjson v "$1" '(.[] | select(.id == "'"$AD_ONE"'") | .filePath) = $v' "$AD/ds/repos/acme/attack.json" >"$rf"
	jq -c --argjson v "$1" '.record.filePath = $v' "$AD/ds/errors/$AD_ONE.json" >"$ef"
	ad_rehash "$AD/bad" repos/acme/attack.json "errors/$AD_ONE.json"
}
for v in '"../../etc/passwd"' '"src/../../x.py"' '"src/./app.py"' '"src//app.py"' '"/etc/passwd"' \
	'"src/app.py/"' '"src/a\nb.py"' '"src/a\rb.py"' '"."' '".."'; do
	ad_filepath "$v"
	ad_refused "attack-ds: import refuses a record with filePath $v" \
		"record $AD_ONE: filePath: " "$FL" import --db "$AD/b.db" "$AD/bad"
done
ad_filepath '"src/../../etc/passwd"'
rm -rf "$AD/site5"
ad_refused "attack-ds: site --data refuses a filePath with .. segments" \
	"record $AD_ONE: filePath: " "$FL" site --data "$AD/bad" "$AD/site5"
rm -rf "$AD/cache"
if ad_serve "$AD/serve4.err" --data "$AD/bad"; then
	bad "attack-ds: serve --data refuses a filePath with .. segments" "it started"
	ad_serve_stop
else
	wait "$AD_PID" 2>/dev/null; rc=$?
	AD_PID=
	check "attack-ds: serve --data refuses a filePath with .. segments (exit 1, names record and field)" \
		bash -c "[ $rc -eq 1 ] && grep -q 'record $AD_ONE: filePath: ' '$AD/serve4.err'"
fi
ad_filepath '"src/..hidden/app..py"'
timeout 60 "$FL" import --db "$AD/c.db" "$AD/bad" >/dev/null 2>"$AD/e.txt"; rc=$?
check "attack-ds: a filePath with '..' inside a name (not a segment) is fine" [ $rc -eq 0 ]

# ---- regressions: attacks that already held ----------------------------------------------
for p in '/data/../x' '/data/errors/../../x' '../x' '/data/./index.json' '/data//index.json' '/data/a\\b'; do
	ad_fresh
	jq -c --arg p "$p" '.files[1] = {"path": $p, "bytes": 1, "sha256": ("0" * 64)}' "$AD/ds/inventory.json" >"$AD/bad/inventory.json"
	ad_manifest "$AD/bad"
	ad_refused "attack-ds: an inventory path '$p' is refused" "inventory.json: files\[1\].path: " \
		"$FL" import --db "$AD/b.db" "$AD/bad"
done
ad_fresh
sed -i 's/"severity":"error"/"severity":"errox"/' "$AD/bad/errors/$AD_ONE.json"
ad_refused "attack-ds: a tampered record file (sha256 differs) is refused" \
	"bad/errors/$AD_ONE.json: sha256: is [0-9a-f]{64}, inventory.json says" "$FL" import --db "$AD/b.db" "$AD/bad"
ad_fresh
printf ' ' >>"$AD/bad/search/norms.json"
ad_refused "attack-ds: a grown file is refused naming both sizes" \
	"bad/search/norms.json: bytes: is [0-9]+, inventory.json says [0-9]+" "$FL" import --db "$AD/b.db" "$AD/bad"

# ---- torn pages: re-rendering a site that is being read -----------------------------------
# Every page changes between the two base URLs; a reader polls pages while
# the site is rendered again and again (its data/ copied in, or exported,
# again each time): never an empty or missing file, and a page is a new
# file (rename), not the old one rewritten.
AS="$AD/site-live"
rm -rf "$AS"
timeout 60 "$FL" site --data "$AD/ds" --base-url https://a.example "$AS" >/dev/null 2>&1
AD_PAGE="$AS/errors/$AD_ONE/index.html"
check "attack-ds: a site to re-render" bash -c "[ -s '$AD_PAGE' ] && [ -s '$AS/index.html' ]"
ino1=$(stat -c %i "$AD_PAGE")
timeout 60 "$FL" site --data "$AD/ds" --base-url https://b.example "$AS" >/dev/null 2>&1
ino2=$(stat -c %i "$AD_PAGE")
check "attack-ds: a changed page is replaced by rename (new inode), not rewritten in place" \
	bash -c "[ '$ino1' != '$ino2' ] && grep -q 'https://b.example' '$AD_PAGE'"
python3 - "$AS" "$AD_PAGE" >"$AD/reader.txt" 2>&1 <<'PY' &
import os, sys, time
site, page = sys.argv[1], sys.argv[2]
files = [page, os.path.join(site, "index.html"), os.path.join(site, "data/manifest.json"),
         os.path.join(site, "search/index.html")]
stop = os.path.join(site, "..", "reader.stop")
reads = torn = 0
end = time.time() + 60
while not os.path.exists(stop) and time.time() < end:
    for f in files:
        try:
            with open(f, "rb") as fh:
                if len(fh.read()) == 0:
                    torn += 1
        except FileNotFoundError:
            torn += 1
        reads += 1
print(reads, torn)
PY
AD_READER=$!
rm -f "$AD/reader.stop"
for i in 1 2 3 4 5 6; do
	timeout 60 "$FL" site --data "$AD/ds" --base-url https://a.example "$AS" >/dev/null 2>&1
	timeout 60 "$FL" site --db "$AD/a.db" --base-url https://b.example "$AS" >/dev/null 2>&1
done
touch "$AD/reader.stop"
wait "$AD_READER"
read -r ad_reads ad_torn <"$AD/reader.txt"
check "attack-ds: a reader during 12 re-renders never saw an empty or missing page ($ad_reads reads)" \
	bash -c "[ '${ad_reads:-0}' -gt 100 ] && [ '${ad_torn:-1}' = 0 ]"
check "attack-ds: no temporary files left in the site" \
	bash -c "[ -z \"\$(find '$AS' -name '*.tmp*' -print -quit)\" ]"
trap 'rm -rf "$WORK"' EXIT
