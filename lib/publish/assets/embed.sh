#!/bin/sh
# Regenerate ../assets.c from style.css, search.js and filter.js (run after editing
# either): each line becomes a C string literal.
cd "$(dirname "$0")" || exit 1
lit() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$1"; }
{
	echo "/*"
	echo " * assets.c — the site's stylesheet, search and filter scripts, generated"
	echo " * from lib/publish/assets/style.css, search.js and filter.js by assets/embed.sh."
	echo " */"
	echo "const char pub_style_css[] ="
	lit style.css
	echo "\t;"
	echo "const char pub_search_js[] ="
	lit search.js
	echo "\t;"
	echo "const char pub_filter_js[] ="
	lit filter.js
	echo "\t;"
} >../assets.c
