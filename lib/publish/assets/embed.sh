#!/bin/sh
# Regenerate ../assets.c from style.css and search.js (run after editing
# either): each line becomes a C string literal.
cd "$(dirname "$0")" || exit 1
lit() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$1"; }
{
	echo "/*"
	echo " * assets.c — the site's stylesheet and search script, generated from"
	echo " * lib/publish/assets/style.css and search.js by assets/embed.sh."
	echo " */"
	echo "const char pub_style_css[] ="
	lit style.css
	echo "\t;"
	echo "const char pub_search_js[] ="
	lit search.js
	echo "\t;"
} >../assets.c
