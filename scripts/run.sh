#!/usr/bin/env bash
# `make run`: scan TARGET into the default store, print the summary and a
# few records.
set -eu
FL=$1
TARGET=$2
"$FL" --help
echo
"$FL" scan "$TARGET"
echo
echo "A few records (faultline list):"
"$FL" list | head -n 10
