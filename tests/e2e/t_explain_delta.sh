# The lookup index in segments (issue 21): after a rescan of one small
# repository, explain answers from the base index and a delta over that
# repository (STORE.lookup.delta), without writing the base again: the new
# message is found, the removed one is not.

ddb="$WORK/delta.db"
for l in python c; do
	cp -r "$TESTS/fixtures/$l" "$WORK/dl-$l"
	rm -f "$WORK/dl-$l/expected.tsv"
	"$FL" scan "$WORK/dl-$l" --repo "acme/$l" --db "$ddb" >/dev/null 2>&1
done
mkdir -p "$WORK/dl-small/app"
cat >"$WORK/dl-small/app/vault.py" <<'EOF'
def open_vault(path):
    if not path:
        raise ValueError("the vault door is jammed shut")
    return path


def seal_vault(v):
    if v is None:
        raise RuntimeError("cannot seal a vault that was never opened")
    return v


def count_coins(v):
    if v < 0:
        raise ValueError("a vault cannot hold negative coins")
    return v
EOF
"$FL" scan "$WORK/dl-small" --repo acme/small --db "$ddb" >/dev/null 2>&1

# dl_top TEXT: the first answer's file:line, or "none"
dl_top() {
	"$FL" explain --db "$ddb" --json "$1" 2>/dev/null |
		jq -r '.matches[0] // {} | "\(.filePath // "none"):\(.lineNumber // "")"'
}
check "explain delta: the base is built" [ "$(dl_top 'ValueError: the vault door is jammed shut')" = "app/vault.py:3" ]
check "explain delta: no delta while the base is current" [ ! -e "$ddb.lookup.delta" ]
base_before=$(stat -c '%i %Y %s' "$ddb.lookup")

# the rescan: one record removed, one added, one changed
cat >"$WORK/dl-small/app/vault.py" <<'EOF'
def open_vault(path):
    if not path:
        raise ValueError("the vault door is jammed shut")
    return path


def count_coins(v):
    if v < 0:
        raise ValueError("a vault cannot hold negative coins or debts")
    return v


def polish_coins(v):
    if not v:
        raise LookupError("no coins left to polish in the vault")
    return v
EOF
sleep 1 # a rewritten base would show in its mtime
"$FL" scan "$WORK/dl-small" --repo acme/small --db "$ddb" >/dev/null 2>&1
check "explain delta: the new message is found" \
	[ "$(dl_top 'LookupError: no coins left to polish in the vault')" = "app/vault.py:15" ]
check "explain delta: the delta file exists" [ -s "$ddb.lookup.delta" ]
check "explain delta: the base was not rewritten" [ "$(stat -c '%i %Y %s' "$ddb.lookup")" = "$base_before" ]
got=$("$FL" explain --db "$ddb" --json 'RuntimeError: cannot seal a vault that was never opened' 2>/dev/null |
	jq -r '[.matches[] | select(.repo == "acme/small")] | length')
check "explain delta: the removed message is not found" [ "$got" = 0 ]
check "explain delta: the changed message at its new text" \
	[ "$(dl_top 'ValueError: a vault cannot hold negative coins or debts')" = "app/vault.py:9" ]
check "explain delta: an unchanged record still answers" \
	[ "$(dl_top 'ValueError: the vault door is jammed shut')" = "app/vault.py:3" ]
# the other repositories' records, from the base
check "explain delta: the base's records answer" \
	[ "$(dl_top 'Traceback (most recent call last):
  File "/srv/app/inventory/api.py", line 16, in get_item
    raise HTTPException(status_code=404, detail=f"Item {sku} not found")
fastapi.exceptions.HTTPException: Item ABC-1 not found')" = "inventory/api.py:16" ]
n=$("$FL" explain --db "$ddb" --json 'no coins left to polish in the vault' | jq -r '.datasetVersion')
check "explain delta: datasetVersion is the store's" bash -c "[ -n '$n' ] && [ '$n' != null ]"
printf 'INFO start\nLookupError: no coins left to polish in the vault\nERROR shopd: invalid port '"'"'abc'"'"'\n' >"$WORK/dl.log"
out=$("$FL" grep-log --db "$ddb" --json "$WORK/dl.log" 2>/dev/null | jq -r '.filePath' | tr '\n' ' ')
check "explain delta: grep-log finds both segments' records" bash -c "echo '$out' | grep -q 'app/vault.py' && echo '$out' | grep -q 'src/main.c'"
