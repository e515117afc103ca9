#!/usr/bin/env bash
# Build every lexer's libFuzzer target with clang and run each for N seconds
# (default 600).  Seeds: the language's fixture tree.  Stops at the first
# crash, leak or timeout, leaving the reproducer in build-fuzz/.
#   usage: fuzz.sh [SECONDS] [LANG...]   (default: every language)
set -euo pipefail
SECONDS_EACH=${1:-600}
shift || true
ONLY="$*"
cd "$(dirname "$0")/.."
OUT=build-fuzz
mkdir -p "$OUT"
CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Ilib"
LIBSRC="lib/util.c lib/strmap.c lib/scan/lex.c lib/scan/sites.c"
LIBS="-lxxhash"
for src in tests/fuzz/fuzz_lang_*.c; do
	name=$(basename "$src" .c)
	lang=${name#fuzz_lang_}
	if [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $lang "; then
		continue
	fi
	echo "== $name: building"
	# a family is lib/scan/lang_NAME.c or a folder lib/scan/NAME/
	if [ -d "lib/scan/$lang" ]; then
		langsrc=$(ls lib/scan/"$lang"/*.c)
	else
		langsrc="lib/scan/lang_$lang.c"
	fi
	# shellcheck disable=SC2086
	clang $CFLAGS $LIBSRC $langsrc "$src" $LIBS -o "$OUT/$name"
	corpus="$OUT/corpus_$lang"
	mkdir -p "$corpus"
	seeds=""
	[ -d "tests/fixtures/$lang" ] && seeds="tests/fixtures/$lang"
	echo "== $name: fuzzing for ${SECONDS_EACH}s"
	(cd "$OUT" && "./$name" -max_total_time="$SECONDS_EACH" -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		"corpus_$lang" ${seeds:+"../$seeds"} 2>&1 | tail -n 12)
done
echo "fuzz: every target ran ${SECONDS_EACH}s without a crash"
