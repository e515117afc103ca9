# Fixture projects of sphinx.conf's setup(), sourced in the scratch folder.
# mk DIR CONF INDEX: a project folder with conf.py and index.rst (printf formats)
mk() { mkdir -p "$1"; printf "$2" > "$1/conf.py"; printf "$3" > "$1/index.rst"; }
T='Title\n=====\n\n'
C="project = 'demo'\n"
mk ok "$C" "${T}Text.\n"
mkdir -p noconf; printf "${T}Text.\n" > noconf/index.rst
mk confexc "${C}import nosuchmod_re\n" "${T}Text.\n"
mk confsyntax "${C}extensions = [\n" "${T}Text.\n"
mk confexit "${C}import sys\nsys.exit(1)\n" "${T}Text.\n"
mk confname "${C}html_theme = theme_name\n" "${T}Text.\n"
mk langnone "${C}language = None\n" "${T}Text.\n"
mk numfigstr "${C}numfig = 'yes'\n" "${T}Text.\n"
mk suffix "${C}source_suffix = 1\n" "${T}Text.\n"
mk enumval "${C}latex_engine = 'nosuch'\n" "${T}Text.\n"
mk listtype "${C}html_css_files = 'style.css'\n" "${T}Text.\n"
mk primdom "${C}primary_domain = 'nosuch'\n" "${T}Text.\n"
mk needsphinx "${C}needs_sphinx = '9.0'\n" "${T}Text.\n"
mk needsext "${C}extensions = ['sphinx.ext.todo']\nneeds_extensions = {'sphinx.ext.todo': '99.0'}\n" "${T}Text.\n"
mk needsextmiss "${C}needs_extensions = {'sphinxcontrib.nosuch': '1.0'}\n" "${T}Text.\n"
mk extmiss "${C}extensions = ['nosuch_ext']\n" "${T}Text.\n"
mk extsetup "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['nosetup']\n" "${T}Text.\n"
printf 'X = 1\n' > extsetup/nosetup.py
mk extret "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['retext']\n" "${T}Text.\n"
printf 'def setup(app):\n    return 42\n' > extret/retext.py
mk extreq "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['reqext']\n" "${T}Text.\n"
printf 'def setup(app):\n    app.require_sphinx("99.0")\n' > extreq/reqext.py
mk extdir "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['dirext']\n" "${T}Text.\n"
printf 'from docutils.parsers.rst.directives.admonitions import Note\n\ndef setup(app):\n    app.add_directive("toctree", Note)\n' > extdir/dirext.py
mk extrole "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['roleext']\n" "${T}Text.\n"
printf 'from docutils.parsers.rst import roles\n\ndef setup(app):\n    app.add_role("abbr", roles.generic_custom_role)\n' > extrole/roleext.py
mk extcfg "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['cfgext']\n" "${T}Text.\n"
printf 'def setup(app):\n    app.add_config_value("html_theme", "x", "html")\n' > extcfg/cfgext.py
mk extevent "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['evext']\n" "${T}Text.\n"
printf 'def setup(app):\n    app.connect("build-done", print)\n' > extevent/evext.py
mk extmerged "${C}extensions = ['sphinxjp.themecore']\n" "${T}Text.\n"
mk extdomain "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['domext']\n" "${T}Text.\n"
printf 'def setup(app):\n    app.add_directive_to_domain("nosuchdomain", "thing", object)\n' > extdomain/domext.py
mk extbuilder "${C}import os, sys\nsys.path.insert(0, os.path.abspath('.'))\nextensions = ['bldext']\n" "${T}Text.\n"
printf 'from sphinx.builders.html import StandaloneHTMLBuilder\n\nclass B(StandaloneHTMLBuilder):\n    name = "html"\n\ndef setup(app):\n    app.add_builder(B)\n' > extbuilder/bldext.py
mk theme "${C}html_theme = 'nosuch_theme'\n" "${T}Text.\n"
mk themeopt "${C}html_theme_options = {'nosuch_option': 1}\n" "${T}Text.\n"
mk static "${C}html_static_path = ['_static']\n" "${T}Text.\n"
mk extra "${C}html_extra_path = ['_extra']\n" "${T}Text.\n"
mk logo "${C}html_logo = 'logo.png'\n" "${T}Text.\n"
mk favicon "${C}html_favicon = 'favicon.ico'\n" "${T}Text.\n"
mk mathr "${C}html_math_renderer = 'nosuch'\n" "${T}Text.\n"
mk sidebars "${C}html_sidebars = {'*': ['localtoc.html'], 'ind*': ['searchbox.html']}\n" "${T}Text.\n"
mk cssfile "${C}html_css_files = [('a.css', 'b', 'c')]\n" "${T}Text.\n"
mk latexdocs "${C}latex_documents = [('nosuch', 'demo.tex', 'Demo', 'me', 'manual')]\n" "${T}Text.\n"
mk latexbabel "${C}language = 'xx'\n" "${T}Text.\n"
mk manpages "${C}man_pages = [('nosuch', 'demo', 'Demo', ['me'], 1)]\n" "${T}Text.\n"
mk texinfo "${C}texinfo_documents = [('nosuch', 'demo', 'Demo', 'me', 'demo', 'x', 'Misc')]\n" "${T}Text.\n"
mkdir -p contents; printf "$C" > contents/conf.py; printf "${T}Text.\n" > contents/contents.rst
# documents
mk toc "$C" "${T}.. toctree::\n\n   nosuch\n"
mk tocglob "$C" "${T}.. toctree::\n   :glob:\n\n   chapters/*\n"
mk tocexcl "${C}exclude_patterns = ['old.rst']\n" "${T}.. toctree::\n\n   old\n"
printf 'Old\n===\n\nText.\n' > tocexcl/old.rst
mk tocdup "$C" "${T}.. toctree::\n\n   a\n   a\n"
printf 'A\n=\n\nText.\n' > tocdup/a.rst
mk tocself "$C" "${T}.. toctree::\n\n   index\n"
mk tocnotitle "$C" "${T}.. toctree::\n\n   a\n"
printf 'Just text, no title.\n' > tocnotitle/a.rst
mk orphan "$C" "${T}Text.\n"
printf 'A\n=\n\nText.\n' > orphan/a.rst
mk docrole "$C" "${T}See :doc:\`nosuch\`.\n"
mk refrole "$C" "${T}See :ref:\`nosuch-label\`.\n"
mk refnotitle "$C" "${T}.. _para:\n\nA paragraph.\n\nSee :ref:\`para\`.\n"
mk duplabel "$C" "${T}.. toctree::\n\n   a\n\n.. _intro:\n\nA\n-\n"
printf '.. _intro:\n\nB\n=\n\nText.\n' > duplabel/a.rst
mk dupobj "$C" "${T}.. py:function:: spam()\n\n.. py:function:: spam()\n"
mk dupterm "$C" "${T}.. glossary::\n\n   term\n      One.\n\n   term\n      Two.\n"
mk termrole "$C" "${T}See :term:\`nosuch\`.\n"
CB=".. code-block:: python\n   :caption: Code\n   :name: tab\n\n   x = 1\n\n"
mk numref "$C" "${T}${CB}See :numref:\`tab\`.\n"
mk numfmt "${C}numfig = True\n" "${T}${CB}See :numref:\`Listing {nosuch} <tab>\`.\n"
mk numrefnonum "${C}numfig = True\n" "${T}.. _sec:\n\nSection\n-------\n\nSee :numref:\`sec\`.\n"
mk numrefundef "${C}numfig = True\n" "${T}See :numref:\`nosuch-fig\`.\n"
mk nitpick "$C" "${T}See :py:func:\`nosuch_func\`.\n"
mk nitpickclass "$C" "${T}See :py:class:\`NoSuchClass\`.\n"
mk anyrole "$C" "${T}See :any:\`nosuch-thing\`.\n"
mk option "$C" "${T}.. option:: =bad\n\n   An option.\n"
mk image "$C" "${T}.. image:: nosuch.png\n"
mk figure "$C" "${T}.. figure:: pics/nosuch.png\n\n   Caption\n"
mk download "$C" "${T}Get :download:\`data.zip\`.\n"
mk lexer "$C" "${T}.. code-block:: nosuchlang\n\n   x = 1\n"
mk lexfail "$C" "${T}.. code-block:: python\n\n   def f(:\n      x = \$\n"
mk hllang "${C}highlight_language = 'nosuchlang'\n" "${T}::\n\n   x = 1\n"
mk emph "$C" "${T}.. code-block:: python\n   :emphasize-lines: 5\n\n   x = 1\n"
mk litmiss "$C" "${T}.. literalinclude:: nosuch.py\n"
mk litlines "$C" "${T}.. literalinclude:: code.py\n   :lines: 2-5\n"
mk litnolines "$C" "${T}.. literalinclude:: code.py\n   :lines: 10-\n"
printf 'x = 1\ny = 2\n' > litnolines/code.py
printf 'x = 1\ny = 2\n' > litlines/code.py
mk litstart "$C" "${T}.. literalinclude:: code.py\n   :start-after: NOSUCH MARKER\n"
printf 'x = 1\ny = 2\n' > litstart/code.py
mk litend "$C" "${T}.. literalinclude:: code.py\n   :end-before: NOSUCH MARKER\n"
printf 'x = 1\ny = 2\n' > litend/code.py
mk litpyobj "$C" "${T}.. literalinclude:: code.py\n   :pyobject: nosuch\n"
printf 'def spam():\n    pass\n' > litpyobj/code.py
mk litboth "$C" "${T}.. literalinclude:: code.py\n   :start-after: def\n   :start-at: def\n"
printf 'def spam():\n    pass\n' > litboth/code.py
mk litenc "$C" "${T}.. literalinclude:: code.py\n   :encoding: ascii\n"
printf '# caf\xc3\xa9\nx = 1\n' > litenc/code.py
mk litdedent "$C" "${T}.. literalinclude:: code.py\n   :dedent: 4\n"
printf 'x = 1\ny = 2\n' > litdedent/code.py
mk litemph "$C" "${T}.. literalinclude:: code.py\n   :emphasize-lines: 9\n"
printf 'x = 1\ny = 2\n' > litemph/code.py
mk litmatch "$C" "${T}.. literalinclude:: code.py\n   :lines: 1,3\n   :lineno-match:\n"
printf 'x = 1\ny = 2\nz = 3\n' > litmatch/code.py
mk acks "$C" "${T}.. acks::\n\n   Not a list.\n"
mk hlist "$C" "${T}.. hlist::\n\n   Not a list.\n"
mk autodoc "${C}extensions = ['sphinx.ext.autodoc']\n" "${T}.. automodule:: nosuchmod_re\n"
mk autofunc "${C}extensions = ['sphinx.ext.autodoc']\n" "${T}.. autofunction:: os.path.nosuch_func\n"
mk autonomod "${C}extensions = ['sphinx.ext.autodoc']\n" "${T}.. autofunction:: nosuch_func\n"
mk graphviz "${C}extensions = ['sphinx.ext.graphviz']\n" "${T}.. graphviz:: nosuch.dot\n"
mk gvdot "${C}extensions = ['sphinx.ext.graphviz']\ngraphviz_dot = 'nosuch-dot'\n" "${T}.. graphviz::\n\n   digraph { a -> b }\n"
mk intersphinx "${C}extensions = ['sphinx.ext.intersphinx']\nintersphinx_mapping = {1: ('https://example.invalid/', None)}\n" "${T}Text.\n"
mk intersphinx2 "${C}extensions = ['sphinx.ext.intersphinx']\nintersphinx_mapping = {'py': 'https://example.invalid/'}\n" "${T}Text.\n"
mk badenc "$C" "${T}Caf\xe9.\n"
mk cmdfile "$C" "${T}Text.\n"
mk index "$C" "${T}.. index:: single:\n"
mk todo "${C}extensions = ['sphinx.ext.todo']\n" "${T}.. todo:: later\n"
mk multi "$C" "${T}.. py:function:: a.spam()\n\n.. py:function:: b.spam()\n\nSee :py:func:\`.spam\`.\n"
mk extlinks "${C}extensions = ['sphinx.ext.extlinks']\nextlinks = {'issue': ('https://example.org/issues/%%s', 'issue %%s')}\nextlinks_detect_hardcoded_links = True\n" "${T}See https://example.org/issues/12 now.\n"
mk imgmath "${C}extensions = ['sphinx.ext.imgmath']\n" "${T}.. math::\n\n   x^2\n"
mk mdparser "${C}source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}\n" "${T}.. toctree::\n\n   a\n"
printf '# A\n' > mdparser/a.md
mk sidebarstr "${C}html_sidebars = {'index': 'localtoc.html'}\n" "${T}Text.\n"
touch afile
:
