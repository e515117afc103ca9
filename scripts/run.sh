#!/usr/bin/env bash
# `make run`: scan TARGET into the default store, print the summary and a
# few records, look one of their messages up as a user would paste it, and
# say where the store is and what to try next.
set -eu
FL=$1
TARGET=$2
"$FL" --help
echo
summary=$("$FL" scan "$TARGET")
printf '%s\n' "$summary"
# the records of the repository just scanned (the store may hold others)
repo=$(printf '%s\n' "$summary" | sed -n 's/^scanned \([^ ]*\) at .*/\1/p' | head -n 1)
echo
echo "A few records (faultline list --repo $repo):"
"$FL" list --repo "$repo" | head -n 10
# a message as the program would print it: its placeholders filled in
msg=$("$FL" list --repo "$repo" --json | jq -r 'select(.errorType != "console") | .errorMessage' |
	head -n 1 | sed -e 's/%[-0-9.]*[a-z]\{1,3\}/42/g' -e 's/{[^}]*}/42/g' -e 's/\${[^}]*}/42/g')
if [ -n "$msg" ]; then
	echo
	echo "Looking an error text up (faultline explain '$msg'):"
	"$FL" explain --limit 1 "$msg" | head -n 25 || true
fi
store=${FAULTLINE_DB:-${XDG_DATA_HOME:-$HOME/.local/share}/faultline/faultline.db}
echo
echo "The records are in $store (remove it, with its -wal and -shm files, to start over)."
echo "Next: paste an error you hit into \`faultline explain '...'\`, annotate a log with" \
	"\`faultline grep-log FILE\`, browse with \`faultline serve\`, or have a model write" \
	"the explanations with \`faultline enrich\` (faultline help CMD for each)."
