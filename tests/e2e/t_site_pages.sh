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
