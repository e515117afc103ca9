# Fixtures of docutils.conf's setup(): one small reST file a case, each
# made to draw one system message first (sourced in the scratch folder).
P='Para.\n\n'
printf "${P}.. foo::\n\n   body\n" > unknown_directive.rst
printf "${P}Some :bar:\`x\` text.\n" > unknown_role.rst
printf "${P}Title here\n====\n\nText.\n" > underline_short.rst
printf "${P}=====\nTitle here\n=====\n\nText.\n" > overline_short.rst
printf "=========\nTitle\n---------\n\nText.\n" > overline_mismatch.rst
printf "${P}Line one\n   indented line\n" > unexpected_indent.rst
printf "${P}   quoted\nunindented\n" > blockquote_unindent.rst
printf "${P}term\n   definition\nnext line\n" > deflist_unindent.rst
printf "${P}- item one\nnot an item\n" > bullet_unindent.rst
printf "${P}1. item one\nnot an item\n" > enum_unindent.rst
printf "${P}.. note:: text\nnot markup\n" > explicit_unindent.rst
printf "${P}Some *emphasis without end.\n" > emphasis.rst
printf "${P}Some **strong without end.\n" > strong.rst
printf "${P}Some \`\`literal without end.\n" > literal.rst
printf "${P}Some \`interpreted without end.\n" > interpreted.rst
printf "${P}Some |sub without end.\n" > subref.rst
printf "${P}Some _\`target without end.\n" > inline_target.rst
printf "${P}+-----+-----+\n| a   | b   |\n+-----+\n| c   | d   |\n+-----+-----+\n" > grid_malformed.rst
printf "${P}=====  =====\na      b\n=====  =====\nc      d   e\n=====  =====\n" > simple_malformed.rst
printf "${P}.. _dup:\n\nA\n\n.. _dup:\n\nB\n" > dup_target.rst
printf "${P}See \`nowhere\`_.\n" > unknown_target.rst
printf "${P}See \`one\`__ and \`two\`__.\n\n__ http://example.com/\n" > anon_mismatch.rst
printf "${P}See [#]_ and [#]_.\n\n.. [#] Only one.\n" > footnote_auto.rst
printf "${P}See [9]_.\n" > footnote_missing.rst
printf "${P}See [CIT2001]_.\n" > citation_missing.rst
printf "${P}Uses |nosub| here.\n" > undefined_sub.rst
printf "${P}.. |empty| replace::\n\nUses |empty|.\n" > empty_sub.rst
printf "${P}.. |x| replace:: one\n.. |x| replace:: two\n\nUses |x|.\n" > dup_sub.rst
printf "${P}.. _a: b_\n\nSee a_.\n" > indirect_missing.rst
printf "${P}.. _a: b_\n.. _b: a_\n\nSee a_.\n" > indirect_circular.rst
printf "${P}See [*]_ and [*]_.\n\n.. [*] One.\n" > footnote_sym.rst
printf "Title\n=====\n\nSub\n---\n\nSub2\n=====\n\nA\n^\n\nText.\n\nB\n~\n" > title_inconsistent.rst
printf "${P}- item\n\n  Title\n  =====\n\n  text\n" > unexpected_title.rst
printf "${P}.. image::\n" > image_noarg.rst
printf "${P}.. code:: python\n   :foo: 1\n\n   x = 1\n" > code_badopt.rst
printf "${P}.. image:: pic.png\n   :width: abc\n" > image_width.rst
printf "${P}.. image:: pic.png\n   :align: middle\n" > image_align.rst
printf "${P}.. image:: pic.png\n   :scale: -5\n" > image_scale.rst
printf "${P}.. note::\n" > note_empty.rst
printf "${P}.. list-table::\n\n   * - a\n     - b\n   * - c\n" > listtable_rows.rst
printf "${P}.. list-table::\n\n   Just text.\n" > listtable_nolist.rst
printf "${P}.. csv-table::\n   :file: missing.csv\n" > csv_missing.rst
printf "${P}.. csv-table::\n   :header-rows: 3\n\n   a, b\n   c, d\n" > csv_header.rst
printf "${P}.. csv-table::\n   :widths: 1 2 3\n\n   a, b\n" > csv_widths.rst
printf "${P}.. csv-table::\n   :delim: ab\n\n   a, b\n" > csv_delim.rst
printf "${P}.. csv-table::\n\n   \"a, b\n" > csv_parse.rst
printf "${P}.. include:: missing.rst\n" > include_missing.rst
printf "${P}.. include:: inc.rst\n   :start-after: NOPE\n" > include_startafter.rst
printf "${P}.. include:: inc.rst\n   :end-before: NOPE\n" > include_endbefore.rst
printf "${P}.. include:: inc.rst\n   :encoding: nosuchenc\n" > include_encoding.rst
printf "${P}.. include:: <nosuch.txt>\n" > include_std.rst
printf 'Included text.\n' > inc.rst
printf "${P}.. raw:: html\n\n   <b>x</b>\n" > raw.rst
printf "${P}.. raw:: html\n" > raw_empty.rst
printf "${P}.. raw:: html\n   :file: missing.html\n" > raw_file.rst
printf "${P}.. raw:: html\n   :file: inc.rst\n\n   <b>x</b>\n" > raw_both.rst
printf "${P}.. date::\n" > date_context.rst
printf "${P}.. replace:: x\n" > replace_context.rst
printf "${P}.. |u| unicode:: 0xZZZZ\n\n|u|\n" > unicode_bad.rst
printf "${P}.. table:: T\n\n   Just text.\n" > table_notable.rst
printf "${P}.. class:: !!!\n\nText.\n" > class_bad.rst
printf "${P}.. role:: custom(nosuchrole)\n\n:custom:\`x\`\n" > role_base.rst
printf "${P}.. role::\n" > role_noarg.rst
printf "${P}.. figure:: pic.png\n   :figwidth: abc\n" > figure_width.rst
printf "${P}.. contents::\n   :depth: x\n" > contents_depth.rst
printf "${P}.. sectnum::\n   :depth: -x\n" > sectnum_depth.rst
printf "${P}.. topic::\n" > topic_noarg.rst
printf "${P}.. sidebar:: S\n" > sidebar_empty.rst
printf "${P}.. admonition::\n\n   body\n" > admonition_notitle.rst
printf "${P}.. math::\n" > math_empty.rst
printf "${P}.. code:: nosuchlang\n\n   x = 1\n" > code_lexer.rst
printf "${P}.. code:: python\n   :number-lines: x\n\n   x = 1\n" > code_numlines.rst
printf "${P}.. target-notes::\n   :class: !!\n" > targetnotes.rst
printf "${P}.. meta::\n   :keywords x\n" > meta_bad.rst
printf "${P}.. title::\n" > title_noarg.rst
printf "${P}.. default-role:: nosuchrole\n" > default_role.rst
printf "${P}.. epigraph::\n" > epigraph.rst
printf "${P}.. compound::\n" > compound.rst
printf "${P}.. container::\n" > container.rst
printf "${P}.. parsed-literal::\n" > parsed_literal.rst
printf "${P}.. line-block::\n" > lineblock.rst
printf "${P}.. _malformed target: \n" > target_malformed.rst
printf "${P}.. [#] \n" > footnote_empty.rst
printf "${P}Text :sup: \n\n:rfc:\`abc\`\n" > rfc_bad.rst
printf "${P}:pep:\`x\`\n" > pep_bad.rst
printf "${P}:raw:\`x\`\n" > raw_role.rst
printf "${P}:code:\`x\`\n\n.. role:: c(code)\n   :language: nosuchlang\n\n:c:\`x = 1\`\n" > code_role.rst
printf "${P}* a\n* b\n\n  Title\n  -----\n" > section_in_list.rst
printf "Title\n=====\n\nText\n\n-----\n\nA\n=\n" > transition_end.rst
printf "${P}----------\n\nText.\n" > transition_start.rst
printf "${P}:field:\n  text\n :other: x\n" > field_indent.rst
printf "${P}-a  one\n--bad-opt  two\n- x\n" > option_list.rst
printf "${P}| line one\n|   line two\n  not\n" > lineblock_unindent.rst
printf "${P}>>> print(1)\n1\nnot doctest\n   indented\n" > doctest.rst
printf 'Para.\n\n\xff\xfe bad bytes\n' > latin.rst
printf '[general]\nreport_level: foo\n' > badreport.conf
printf '[general]\ninput_encoding: nosuch\n' > badenc.conf
printf '[general]\ntab_width: abc\n' > badtab.conf
printf 'report_level: 1\n' > nosection.conf
printf '[html writers]\nstylesheet_path: nosuch.css\nembed_stylesheet: yes\n' > badcss.conf
printf '[general]\nhalt_level: x\n' > badhalt.conf
printf '[general]\nstrip_classes: !!\n' > badstrip.conf
printf '[general]\ntrim_footnote_reference_space: maybe\n' > badbool.conf
printf '[general]\nreport: 1\n  bad continuation\n[' > broken.conf
printf 'Text.\n' > ok.rst
printf "${P}Line one\nline two\n   indented\n" > unexpected_indent.rst
printf "${P}=====  =====  =====\na      b      c\n=====  =====  =====\nc      dddddddd  e\n=====  =====  =====\n" > simple_malformed.rst
printf "${P}.. |u| unicode:: 0x110000\n\n|u|\n" > unicode_bad.rst
printf "Text.\n\n----------\n" > transition_end.rst
printf "Text.\n\n----------\n\n----------\n\nMore.\n" > transition_adjacent.rst
printf "${P}Some :emphasis:\`x\`_ text.\n" > role_and_ref.rst
printf "${P}Some :emphasis:\`x\`:strong: text.\n" > two_roles.rst
printf "${P}.. |x| note:: hi\n\nUses |x|.\n" > sub_invalid.rst
printf "${P}.. |x|\n" > sub_nocontent.rst
printf "${P}.. figure:: pic.png\n\n   - item\n" > figure_caption.rst
printf "${P}.. note::\n\n   .. contents::\n" > contents_context.rst
printf "${P}.. csv-table::\n   :file: inc.rst\n\n   a, b\n" > csv_both.rst
printf "${P}.. list-table::\n\n   * a\n   * b\n" > listtable_twolevel.rst
printf "${P}.. list-table::\n   :stub-columns: 3\n\n   * - a\n     - b\n" > listtable_stub.rst
printf "${P}.. include:: inc.rst\n   :parser: nosuch\n" > include_parser.rst
printf "${P}.. role:: r\n   :nosuch: x\n" > role_option.rst
printf "${P}Math :math:\`x^2\`.\n" > math_role.rst
printf "${P}.. image:: pic.png\n" > image.rst
printf "${P}.. raw:: latex\n   :file: /etc\n" > raw_dir.rst
printf "${P}.. [1] One.\n.. [1] Two.\n\nSee [1]_.\n" > dup_footnote.rst
printf "${P}.. sectnum::\n   :start: x\n" > sectnum_start.rst
printf 'PEP: x\nTitle: T\n\nText.\n' > pep_number.rst
