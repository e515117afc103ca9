#!/usr/bin/env bash
# `make run`: scan TARGET into the default store, print the summary and a
# few records.
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
