# Installing (issue 22): `make install PREFIX=... DESTDIR=...` puts the
# binary, libfaultline.a with faultline.h and faultline.pc, a manual page per
# command made from its --help, and the bash, zsh and fish completions in
# place; `make uninstall` removes them.  Runs the Makefile on the build
# folder of the binary under test, whose prefix it puts back afterwards.

# the writers the build runs: wrong usage is exit 2
"$FL" help --man frobnicate >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "help --man of no command: exit 2, nothing on stdout" bash -c "[ $rc -eq 2 ] && [ ! -s '$WORK/o.txt' ] && grep -q \"^faultline: help: 'frobnicate' is not a command\" '$WORK/e.txt'"
"$FL" help --completion tcsh >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
check "help --completion of another shell: exit 2" bash -c "[ $rc -eq 2 ] && [ ! -s '$WORK/o.txt' ] && grep -q 'bash, zsh or fish' '$WORK/e.txt'"
"$FL" help --completion >/dev/null 2>&1; rc=$?
check "help --completion without a shell: exit 2" [ $rc -eq 2 ]

inst_build=$(dirname "$FL")
inst_src=$(readlink -f "$TESTS/..")
if [ ! -f "$inst_build/build.ninja" ] || [ ! -f "$inst_src/Makefile" ]; then
	echo "skip - install: $FL is not in a meson build folder of this source tree"
else
inst_prefix=$(meson introspect --buildoptions "$inst_build" |
	jq -r '.[] | select(.name == "prefix") | .value')
stage="$WORK/stage"
mkdir -p "$stage"
P="$stage/opt/fl"
make -s -C "$inst_src" install BUILD="$inst_build" PREFIX=/opt/fl DESTDIR="$stage" \
	>"$WORK/inst.out" 2>&1; rc=$?
check "make install PREFIX DESTDIR: exit 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/    /' "$WORK/inst.out" | tail -20

# what `faultline help` lists is what has a page
cmds=$("$FL" help | sed -n '/^commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
check "the command list is read from faultline help" [ "$(echo "$cmds" | wc -l)" -ge 15 ]
pages=$(cd "$P/share/man/man1" 2>/dev/null && ls | sed -n 's/^faultline-\(.*\)\.1$/\1/p')
check "a manual page for each command, no other" [ "$(echo "$cmds" | sort)" = "$(echo "$pages" | sort)" ]
libdir=$(dirname "$(find "$P" -name libfaultline.a | head -1)")
for f in bin/faultline include/faultline.h share/man/man1/faultline.1 \
	share/bash-completion/completions/faultline share/zsh/site-functions/_faultline \
	share/fish/vendor_completions.d/faultline.fish; do
	check "installed: \$PREFIX/$f" [ -s "$P/$f" ]
done
check "installed: libfaultline.a under \$PREFIX/lib" bash -c "case '$libdir' in '$P'/lib*) [ -s '$libdir/libfaultline.a' ];; *) false;; esac"
check "installed: faultline.pc beside it" [ -s "$libdir/pkgconfig/faultline.pc" ]
check "faultline.pc names the prefix, not the staging folder" grep -qx 'prefix=/opt/fl' "$libdir/pkgconfig/faultline.pc"
out=$("$P/bin/faultline" --version 2>&1)
check "the installed binary runs" [ "$out" = "faultline 0.1.0" ]

# a program built against the staged library, through pkg-config
cat >"$WORK/prog.c" <<'EOF'
#include <faultline.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	fl_store *st = NULL;
	fl_err err;
	if (argc < 2 || fl_store_open(argv[1], false, &st, &err) < 0)
		return 1;
	char *re = fl_regex_escape("a.b");
	printf("%s %s\n", FL_VERSION, re);
	free(re);
	fl_store_close(st);
	return 0;
}
EOF
flags=$(PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_PATH="$libdir/pkgconfig" \
	pkg-config --cflags --libs faultline 2>"$WORK/pc.err"); rc=$?
check "pkg-config --cflags --libs faultline" bash -c "[ $rc -eq 0 ] && [[ '$flags' == *-lfaultline* ]]"
# the build's compiler, and its sanitizers when it has some: a library
# built with ASan and UBSan links only with their runtimes
inst_cc=$(jq -r '.[0].command' "$inst_build/compile_commands.json" 2>/dev/null | awk '{ print $1 }')
[ -n "$inst_cc" ] && command -v "$inst_cc" >/dev/null || inst_cc=cc
inst_san=$(meson introspect --buildoptions "$inst_build" |
	jq -r '.[] | select(.name == "b_sanitize") | .value | if type == "array" then join(",") else . end')
san_flags=""
[ -n "$inst_san" ] && [ "$inst_san" != none ] && san_flags="-fsanitize=$inst_san"
# shellcheck disable=SC2086
"$inst_cc" -std=c11 -Wall -Werror $san_flags -o "$WORK/prog" "$WORK/prog.c" $flags >"$WORK/cc.out" 2>&1; rc=$?
check "a C program compiles and links against the staged header and library" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/    /' "$WORK/cc.out" | head -10
out=$("$WORK/prog" "$WORK/prog.db" 2>&1)
[ "$out" = "0.1.0 a\\.b" ] || echo "    prog printed: $out"
check "and runs (opens a store, escapes a regex)" [ "$out" = "0.1.0 a\\.b" ]

# the pages: NAME and SYNOPSIS as in --help, every option, no groff warning
man_text() { MANWIDTH=250 man -l "$1" 2>/dev/null | sed 's/\xe2\x88\x92/-/g; s/\xe2\x80\x90/-/g'; }
norm() { tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
for c in $cmds; do
	page="$P/share/man/man1/faultline-$c.1"
	man_text "$page" >"$WORK/man.txt"
	summary=$("$FL" help | awk -v c="$c" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
	name=$(sed -n '/^NAME/{n;p;q}' "$WORK/man.txt" | norm)
	check "faultline-$c(1) NAME: the summary of faultline help" [ "$name" = "faultline-$c - $summary" ]
	"$FL" "$c" --help >"$WORK/h.txt"
	want=$(sed -n '/^usage:/,/^$/p' "$WORK/h.txt" | sed 's/^usage: //' | norm)
	got=$(sed -n '/^SYNOPSIS/,/^[A-Z]/p' "$WORK/man.txt" | sed '1d;$d' | norm)
	check "faultline-$c(1) SYNOPSIS: the usage of $c --help" [ "$want" = "$got" ]
	opts=$(sed -n '/^options:/,/^$/p' "$WORK/h.txt" | grep -o '^  --[a-z][a-z-]*' | sed 's/^  //')
	miss=""
	for o in $opts; do
		sed -n '/^OPTIONS/,/^[A-Z]/p' "$WORK/man.txt" | grep -q -- "^ *$o\\b" || miss="$miss $o"
	done
	check "faultline-$c(1) OPTIONS: every option of --help${miss:+ (missing:$miss)}" [ -z "$miss" ]
	check "faultline-$c(1): DESCRIPTION, EXAMPLES, EXIT STATUS, SEE ALSO" bash -c "
		grep -q '^DESCRIPTION' '$WORK/man.txt' && grep -q '^EXAMPLES' '$WORK/man.txt' &&
		grep -q '^EXIT STATUS' '$WORK/man.txt' && grep -q '^SEE ALSO' '$WORK/man.txt'"
done
warn=""
for page in "$P"/share/man/man1/*.1; do
	[ -n "$(groff -man -Tutf8 -ww -z "$page" 2>&1)" ] && warn="$warn $(basename "$page")"
done
check "groff -ww: no warning in any page${warn:+ (warnings in:$warn)}" [ -z "$warn" ]
man_text "$P/share/man/man1/faultline.1" >"$WORK/man.txt"
check "faultline(1) lists every command and its page" bash -c "
	for c in $(echo $cmds); do grep -q \"faultline-\$c(1)\" '$WORK/man.txt' || exit 1; done"
man_text "$P/share/man/man1/faultline-explain.1" >"$WORK/man.txt"
check "faultline-explain(1) EXIT STATUS: the help's (3 with no match)" bash -c "
	sed -n '/^EXIT STATUS/,/^[A-Z]/p' '$WORK/man.txt' | grep -q '3 with no confident match'"
check "man finds the pages under MANPATH" bash -c "MANPATH='$P/share/man' man -w faultline-scan | grep -q 'faultline-scan.1'"

# bash: commands, a command's options, files for a FILE, folders for a DIR
bc="$P/share/bash-completion/completions/faultline"
complete_bash() {
	(cd "$WORK/cdir" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		_faultline; [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$@" | sort | tr '\n' ' ')
}
mkdir -p "$WORK/cdir/sub"
: >"$WORK/cdir/store.db"
check "bash: faultline sc<TAB> is scan" [ "$(complete_bash faultline sc)" = "scan " ]
check "bash: faultline gr<TAB> is grep-log" [ "$(complete_bash faultline gr)" = "grep-log " ]
got=$(complete_bash faultline scan --)
want=$( ("$FL" scan --help | sed -n '/^options:/,/^$/p' | grep -o '^  --[a-z][a-z-]*' | sed 's/^  //'; echo --help) | sort | tr '\n' ' ')
check "bash: faultline scan --<TAB> is scan's options" [ "$got" = "$want" ]
check "bash: faultline scan --in<TAB> is --include-tests" [ "$(complete_bash faultline scan --in)" = "--include-tests " ]
check "bash: faultline list --db <TAB> offers files" [ "$(complete_bash faultline list --db '')" = "store.db sub " ]
check "bash: faultline list --db=<TAB> offers files" [ "$(complete_bash faultline list --db =)" = "store.db sub " ]
check "bash: faultline list --db=st<TAB> is store.db" [ "$(complete_bash faultline list --db = st)" = "store.db " ]
check "bash: faultline export <TAB> offers folders only" [ "$(complete_bash faultline export '')" = "sub " ]
check "bash: faultline explain --limit <TAB> offers nothing" [ -z "$(complete_bash faultline explain --limit '')" ]
check "bash: faultline queue <TAB> is add" [ "$(complete_bash faultline queue '')" = "add " ]
check "bash: faultline help se<TAB> is serve" [ "$(complete_bash faultline help se)" = "serve " ]

# zsh and fish: the scripts parse; fish completes as bash does
check "zsh -n _faultline" zsh -n "$P/share/zsh/site-functions/_faultline"
check "fish -n faultline.fish" fish -n "$P/share/fish/vendor_completions.d/faultline.fish"
fc="$P/share/fish/vendor_completions.d/faultline.fish"
got=$(cd "$WORK/cdir" && fish -c "source '$fc'; complete -C 'faultline sc'" 2>&1 | cut -f1)
check "fish: faultline sc<TAB> is scan" [ "$got" = "scan" ]
got=$(cd "$WORK/cdir" && fish -c "source '$fc'; complete -C 'faultline scan --'" 2>&1 | cut -f1 | sort | tr '\n' ' ')
check "fish: faultline scan --<TAB> is scan's options" [ "$got" = "$want" ]
got=$(cd "$WORK/cdir" && fish -c "source '$fc'; complete -C 'faultline export '" 2>&1 | cut -f1 | tr '\n' ' ')
check "fish: faultline export <TAB> offers folders" [ "$got" = "sub/ " ]

make -s -C "$inst_src" uninstall BUILD="$inst_build" >"$WORK/uninst.out" 2>&1; rc=$?
check "make uninstall: exit 0" [ $rc -eq 0 ]
left=$(find "$stage" -mindepth 1 | head -5)
check "make uninstall leaves nothing behind${left:+ (left: $left)}" [ -z "$left" ]
meson configure "$inst_build" -Dprefix="$inst_prefix" >/dev/null 2>&1
fi
