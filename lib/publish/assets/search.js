/* faultline search: the HTTP API when served by `faultline serve`,
 * else the static search/ shards of the data set (dataset.md, lookup.md),
 * read and ranked as `faultline explain` reads and ranks the same text:
 * the lines of a pasted output as lib/lookup/normalize.c reads them, a
 * pattern confirmed on a line as match.c and lookup.c's confirm do,
 * confidence, order, scores and evidence as rank.c gives them, and the
 * tiers of lookup.c.  It works on the text's UTF-8 bytes (a string of one
 * character per byte), so lengths and offsets are the C code's. */
(function () {
  'use strict';
  var D = '/data/';
  var opts = { allChunks: 4 };
  var known = {}; /* entries read so far, by index */
  var cache = {};
  function getJSON(u) {
    if (!cache[u]) {
      cache[u] = fetch(u).then(function (r) {
        if (!r.ok) throw new Error(r.status + ' ' + u);
        return r.json();
      });
    }
    return cache[u];
  }
  function utf8(s) {
    var b = new TextEncoder().encode(s), out = '';
    for (var i = 0; i < b.length; i += 4096) out += String.fromCharCode.apply(null, b.subarray(i, i + 4096));
    return out;
  }
  function text16(b) {
    var a = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) a[i] = b.charCodeAt(i);
    return new TextDecoder().decode(a);
  }
  function lower(s) { return s.replace(/[A-Z]+/g, function (x) { return x.toLowerCase(); }); }
  function push(v, s) { if (s && v.length < 256 && v.indexOf(s) < 0) v.push(s); }
  function isLetter(c) { return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c >= 0x80; }
  function isHex(c) { return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70); }
  function isSpace(c) { return c === 32 || (c >= 9 && c <= 13); }
  /* the tokenizer of lib/lookup/tokens.c */
  function blank(s) {
    var n = s.length, m = new Uint8Array(n), i, k, c;
    for (i = 0; i < n; i++) {
      c = s.charCodeAt(i);
      if (c === 123 || (c === 36 && i + 1 < n && s.charCodeAt(i + 1) === 123)) {
        k = i + 1;
        while (k < n && s[k] !== '}' && s[k] !== '{' && k - i < 80) k++;
        if (k < n && s[k] === '}') { m.fill(1, i, k + 1); i = k; continue; }
      }
      if (c === 37 && i + 1 < n) {
        k = i + 1;
        if (s[k] === '(') { while (k < n && s[k] !== ')' && k - i < 40) k++; k++; }
        while (k < n && '-+ #0123456789.*lhzjtqL'.indexOf(s[k]) >= 0 && k - i < 20) k++;
        if (k < n && isLetter(s.charCodeAt(k)) && s.charCodeAt(k) < 0x80) { m.fill(1, i, k + 1); i = k; continue; }
      }
      if (c === 39 || c === 34 || c === 96) {
        if (c === 39 && i > 0 && isLetter(s.charCodeAt(i - 1)) && i + 1 < n && isLetter(s.charCodeAt(i + 1))) continue;
        /* `value' (GNU tools, mcs) ends at its apostrophe (tokens.c) */
        var close = c;
        k = i + 1;
        while (k < n && s.charCodeAt(k) !== close && s[k] !== '\n') {
          if (c === 96 && s.charCodeAt(k) === 39 &&
              !(isLetter(s.charCodeAt(k - 1)) && k + 1 < n && isLetter(s.charCodeAt(k + 1)))) close = 39;
          else k++;
        }
        if (k < n && s.charCodeAt(k) === close && !wholeLine(s, n, i, k)) { m.fill(1, i, k + 1); i = k; continue; }
      }
      if (!isSpace(c) && (i === 0 || isSpace(s.charCodeAt(i - 1)) || !isLetter(s.charCodeAt(i - 1)))) {
        var slash = 0, hex = 1, digits = 0, ch;
        k = i;
        while (k < n && !isSpace(s.charCodeAt(k)) && '"\',;)('.indexOf(s[k]) < 0) {
          ch = s.charCodeAt(k);
          if (ch === 47 || ch === 92) slash = 1;
          if (!isHex(ch)) hex = 0; else if (ch >= 48 && ch <= 57) digits++;
          k++;
        }
        var len = k - i, ws = i === 0 || isSpace(s.charCodeAt(i - 1));
        if ((slash && ws) || (hex && len >= 8 && digits > 0) ||
            (len > 2 && s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X'))) {
          m.fill(1, i, k); i = k - 1; continue;
        }
      }
      if (c >= 48 && c <= 57) m[i] = 1;
    }
    return m;
  }
  /* the quotes at i and k hold their whole line, but for spaces and a
   * final period: its words are the text (tokens.c's whole_line) */
  function wholeLine(s, n, i, k) {
    for (var a = i; a > 0 && s[a - 1] !== '\n'; a--) if (!isSpace(s.charCodeAt(a - 1))) return false;
    for (var b = k + 1; b < n && s[b] !== '\n'; b++) if (!isSpace(s.charCodeAt(b)) && s[b] !== '.') return false;
    return k > i + 1;
  }
  /* the distinct tokens of a text (bytes), at most max, cut at 63 bytes */
  function tokens(text, max) {
    text = text.slice(0, 65536);
    var m = blank(text), out = [], i = 0, n = text.length;
    while (i < n && out.length < max) {
      while (i < n && (m[i] || !isLetter(text.charCodeAt(i)))) i++;
      var st = i;
      while (i < n && !m[i] && isLetter(text.charCodeAt(i))) i++;
      if (i - st < 2) continue;
      var t = lower(text.slice(st, Math.min(i, st + 63)));
      if (out.indexOf(t) < 0) out.push(t);
    }
    return out;
  }
  function fnv(b) {
    var h = 0x811c9dc5;
    for (var i = 0; i < b.length; i++) { h ^= b.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
    return h >>> 0;
  }
  function hex2(n) { return (n < 16 ? '0' : '') + n.toString(16); }

  /* ---- the lines of a pasted text: lib/lookup/normalize.c ---------------- */
  function skipSpaces(s) { return s.replace(/^[ \t]+/, ''); }
  /* the rest after HH:MM:SS[.frac], else null */
  function timePart(s) {
    var m = /^\d\d:\d\d:\d\d(?:[.,]\d*)?/.exec(s);
    return m ? s.slice(m[0].length) : null;
  }
  function stripTimestamp(s) {
    var br = s[0] === '[', p = br ? s.slice(1) : s, q, t;
    if (/^\d{4}([-\/])\d\d\1\d\d/.test(p)) {
      q = p.slice(10);
      if (q[0] === ' ' || (q[0] === 'T' && p[4] === '-')) { t = timePart(q.slice(1)); if (t !== null) q = t; }
    } else q = timePart(p);
    if (q === null) return s;
    q = q.replace(/^(?:Z|[+-]\d\d:?(?:\d\d)?)/, '');
    if (br) { if (q[0] !== ']') return s; q = q.slice(1); }
    return q.replace(/^(?:[ |\t]|- )*/, '');
  }
  var LEVELS = ['error', 'err', 'fatal', 'critical', 'crit', 'warn', 'warning', 'info', 'debug', 'trace',
    'panic', 'severe', 'notice', 'alert', 'emerg', 'emergency', 'fail', 'failed', 'e', 'w', 'f'];
  /* "[ERROR] ", "WARN: ", "<E> "; a capitalised word alone is text */
  function stripLevel(s) {
    var m = /^([[<]?)([A-Za-z]+)([\]>]?)(:?)[ \t]/.exec(s);
    if (!m || m[2].length > 9 || LEVELS.indexOf(lower(m[2])) < 0) return s;
    var br = !!m[1];
    if (br !== !!m[3] || (m[2].length === 1 && !br) || (!br && !m[4] && /[a-z]/.test(m[2]))) return s;
    return skipSpaces(s.slice(m[0].length));
  }
  /* PHP's levels: "PHP Warning:  ", "PHP Fatal error:  ", "Parse error: "
   * (normalize.c's strip_php_level) */
  function stripPhpLevel(s) {
    var m = /^(?:PHP )?(?:Fatal error|Parse error|Warning|Notice|Deprecated|Recoverable fatal error|Catchable fatal error|Strict Standards):[ \t]/.exec(s);
    return m ? skipSpaces(s.slice(m[0].length)) : s;
  }
  /* "<13>", "Nov 29 12:00:00 host prog[123]: " */
  function stripSyslog(s) {
    var p = s.replace(/^<\d+>/, '');
    if (!/^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) /.test(p)) return p;
    var m = /^.{4} ?\d* /.exec(p), t = m && timePart(p.slice(m[0].length));
    if (t === null || t[0] !== ' ') return p;
    var q = t.slice(1);
    m = /^[^ ]* [^ :]+:/.exec(q);
    return m ? skipSpaces(q.slice(m[0].length)) : q;
  }
  var KINDS = ['fatal: ', 'error: ', 'warning: ', 'Error: ', 'ERROR: ', 'FATAL: ', 'panic: ',
    'npm error ', 'npm ERR! ', 'npm warn ', 'usage: '];
  function kindPrefix(s) {
    for (var k = 0; k < KINDS.length; k++)
      if (s.length > KINDS[k].length && s.startsWith(KINDS[k])) return s.slice(KINDS[k].length);
    return null;
  }
  /* "fatal: ", "prog: error: " */
  function stripProg(s) {
    var r = kindPrefix(s), m;
    if (r === null && (m = /^[^ :]{1,64}: /.exec(s))) r = kindPrefix(s.slice(m[0].length));
    return r === null ? s : r;
  }
  /* a system call's error as Go's os.PathError and others print it:
   * "stat /x/y: directory not found": the message is what follows (the
   * line as printed stays in q.raw) */
  var SYSCALLS = ['open ', 'stat ', 'lstat ', 'fstat ', 'read ', 'write ', 'mkdir ', 'remove ', 'unlink ',
    'chdir ', 'readlink ', 'chmod ', 'chown ', 'truncate ', 'readdir '];
  function stripSyscall(s) {
    for (var k = 0; k < SYSCALLS.length; k++) {
      if (!s.startsWith(SYSCALLS[k])) continue;
      var p = SYSCALLS[k].length, e = p;
      while (e < s.length && s[e] !== ' ' && s[e] !== '\t') e++;
      /* a path: a '/' in it, then ": " and a message */
      if (e - p < 2 || s[e - 1] !== ':' || s[e] !== ' ' || s.slice(p, e).indexOf('/') < 0 || e + 1 >= s.length) return s;
      return s.slice(e + 1);
    }
    return s;
  }
  /* a diagnostic's location, GNU style ("src/a.c:12:5: error: ...",
   * "gen/gen.go:3: running ..."): the file the program read, stripped when
   * a level follows it or it names a file (a folder in it, or an
   * extension); "127.0.0.1:80: " and "12:30:05: " are no files */
  function stripLocation(s) {
    var p = 0, dot = -1, slash = false, c, k;
    while (p < s.length && (c = s[p]) !== ':' && c !== ' ' && c !== '\t') {
      if (c === '/') { slash = true; dot = -1; } else if (c === '.') dot = p;
      p++;
    }
    var ext = dot >= 0 && p - dot >= 2 && p - dot <= 9 && /[A-Za-z]/.test(s.slice(dot + 1, p));
    /* a linter's compact form: "a.css: line 1, col 17, error - ", and
     * without a level ("a.js: line 1, col 10, Missing semicolon.",
     * "stdin: line 1, ...") */
    var lint = p > 0 && (ext || s.slice(0, p) === 'stdin') ?
      /^: line [0-9]+, col [0-9]+, (?:[A-Za-z]+ - )?(?=[^ ])/.exec(s.slice(p)) : null;
    if (lint) return s.slice(p + lint[0].length);
    if (p === 0 || s[p] !== ':' || !/[0-9]/.test(s[p + 1] || '')) return s;
    var u = s.indexOf('://'), file = (slash && !(u >= 0 && u < p)) || ext;
    for (k = 0; k < 2 && s[p] === ':' && /[0-9]/.test(s[p + 1] || ''); k++) {
      p++;
      while (/[0-9]/.test(s[p] || '')) p++;
    }
    if (s[p] !== ':' || s[p + 1] !== ' ') return s;
    var q = skipSpaces(s.slice(p + 1));
    return file || stripLevel(q) !== q ? q : s;
  }
  /* a line's message: what follows its timestamps, levels and prefixes */
  function stripLine(s) {
    var p = skipSpaces(s);
    for (var round = 0; round < 8; round++) {
      var q = skipSpaces(stripSyscall(skipSpaces(stripProg(stripLevel(stripPhpLevel(stripLocation(stripTimestamp(stripSyslog(p)))))))));
      if (q === p) break;
      p = q;
    }
    return p;
  }
  /* glog: "E1129 12:00:00.123456  1234 file.cc:123] msg" */
  function stripGlog(s, q) {
    if (!/^[IWEF]\d{4} /.test(s)) return s;
    var t = timePart(s.slice(6)), b = t === null ? -1 : t.indexOf('] ');
    if (b < 0 || b > 80) return s;
    var f = b ? t.lastIndexOf(' ', b - 1) + 1 : 0, colon = t.indexOf(':', f);
    if (colon >= 0 && colon < b) { push(q.paths, t.slice(f, colon)); pushSite(q, t.slice(f, colon), t.slice(colon + 1, b)); }
    return t.slice(b + 2);
  }
  /* the place a message ends with, PHP's and less's ("... in
   * /src/Cart.php on line 12", "... in /src/a.less on line 1, column
   * 12:"): cut off, the place kept as evidence (normalize.c's
   * where_suffix) */
  function whereSuffix(q, m) {
    var w = / in ([^ ]+) on line ([0-9]{1,9})(?:, column [0-9]+)?[:.]?$/.exec(m);
    if (!w || w.index === 0 || !/[\/.]/.test(w[1]) || m.lastIndexOf(' on line ') !== w.index + 4 + w[1].length) return m;
    push(q.paths, w[1]);
    pushSite(q, w[1], w[2]);
    return m.slice(0, w.index);
  }
  /* a frame's line, "path:line", to q.sites (normalize.c's push_site) */
  function pushSite(q, path, digits) {
    if (path && path.length <= 500 && /^[0-9]{1,9}$/.test(digits)) push(q.sites, path + ':' + digits);
  }
  /* the path of the first "path:line" in s, and the line as a site */
  function pathAt(q, s) {
    var i = s.search(/:\d/), b = i;
    if (i < 0) return;
    while (b > 0 && ' (\t"\''.indexOf(s[b - 1]) < 0) b--;
    if (s.slice(b, i).indexOf('.') >= 0) {
      push(q.paths, s.slice(b, i));
      pushSite(q, s.slice(b, i), /^[0-9]*/.exec(s.slice(i + 1))[0]);
    }
  }
  /* a JVM frame's file in its class's package ("at java.base/java.lang.
   * Integer.parseInt(Integer.java:662)": java/lang/Integer.java, line 662);
   * false when the frame is not of that form (normalize.c's push_jvm_frame) */
  function jvmFrame(q, name, inner) {
    var fl = inner.search(/[:)]/);
    if (fl < 0 || inner[fl] !== ':' || !/[0-9]/.test(inner[fl + 1] || '')) return false;
    var file = inner.slice(0, fl);
    if (file.indexOf('.') < 0 || /[\/ ]/.test(file) || name.indexOf(' ') >= 0) return false;
    name = name.slice(name.lastIndexOf('/') + 1);
    var method = name.lastIndexOf('.'), cls = method > 0 ? name.lastIndexOf('.', method - 1) : -1;
    if (cls <= 0 || cls + 1 + fl > 480) return false;
    var path = name.slice(0, cls).split('.').join('/') + '/' + file;
    push(q.paths, path);
    pushSite(q, path, /^[0-9]*/.exec(inner.slice(fl + 1))[0]);
    return true;
  }
  /* a Ruby frame after "from ": "path.rb:12:in `m'" */
  function rubyFrame(s) {
    var c = s.indexOf('.rb:');
    if (c < 0 || !/[0-9]/.test(s[c + 4] || '') || s.slice(0, c).indexOf(' ') >= 0) return false;
    var e = c + 4;
    while (/[0-9]/.test(s[e] || '')) e++;
    return e === s.length || s.startsWith(':in ', e);
  }
  /* the length of a leading "pkg.SomeError:", else 0: a name ending like
   * an error class (or in "error" after a module path: re.error); loose,
   * where only a class can stand (a traceback's last line, after
   * `Exception in thread "x"`, a line a Java frame follows), any name */
  function classPrefix(s, loose) {
    var c = /^[A-Za-z0-9_.$:]*/.exec(s)[0].replace(/:+$/, ''), n = c.length;
    if (n < 4 || s[n] !== ':' || (n + 1 < s.length && s[n + 1] !== ' ')) return 0;
    var l = Math.max(c.lastIndexOf('.'), c.lastIndexOf(':')), last = c.slice(l + 1);
    if (loose && /^[A-Za-z_]/.test(last)) return n;
    if (l >= 0 && last.length >= 5 && /error$/i.test(last)) return n;
    return /(?:Error|Exception|Panic|Warning|Fault|Failure|Interrupt|Exit)$/.test(c) ? n : 0;
  }
  /* s, whole, a qualified name of an error class ("java.io.EOFException":
   * a Java exception without a message, as its toString() prints it) */
  function bareErrorClass(s) {
    return s.length < 256 && /^[A-Za-z0-9_$.]*\.[A-Za-z0-9_$.]*$/.test(s) && s[s.length - 1] !== '.' &&
      classPrefix(s + ':') === s.length;
  }
  /* the line s is a Java frame: "\tat pkg.Cls.m(File.java:10)" */
  function javaFrame(s) {
    return s !== undefined && (s[0] === ' ' || s[0] === '\t') && /^[ \t]+at [^\n]*\(/.test(s);
  }
  function addClass(q, s) {
    var l = Math.max(s.lastIndexOf('.'), s.lastIndexOf(':')), d = s.lastIndexOf('$');
    push(q.classes, s);
    if (l >= 0) { push(q.classes, s.slice(l + 1)); push(q.modules, s.slice(0, l)); }
    /* a nested class as the JVM names it: Outer$Inner */
    if (d > l && d + 1 < s.length) push(q.classes, s.slice(d + 1));
  }
  function jsonLine(q, line, first) {
    var o;
    try { o = JSON.parse(text16(line)); } catch (e) { return; }
    if (!o || typeof o !== 'object' || Array.isArray(o)) return;
    ['msg', 'message', 'error', 'err', 'error_message', 'exception', '@message', 'text'].forEach(function (k) {
      var v = Object.prototype.hasOwnProperty.call(o, k) ? o[k] : null;
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        if (typeof v.type === 'string') addClass(q, utf8(v.type));
        v = typeof v.message === 'string' ? v.message : v.msg;
      }
      if (typeof v === 'string') push(first, utf8(v));
    });
    if (typeof o.code === 'string') push(q.codes, utf8(o.code));
  }
  /* logfmt: msg="..." err="..." error=word */
  function logfmt(line, first) {
    ['msg=', 'message=', 'error=', 'err='].forEach(function (k) {
      for (var p = line.indexOf(k); p >= 0; p = line.indexOf(k, p + k.length)) {
        if (p > 0 && line[p - 1] !== ' ') continue;
        var v = line.slice(p + k.length), out = '';
        if (v[0] !== '"') { push(first, v.split(' ')[0]); break; }
        for (var i = 1; i < v.length && v[i] !== '"'; i++) {
          if (v[i] === '\\' && i + 1 < v.length) { i++; out += v[i] === 'n' ? '\n' : v[i] === 't' ? '\t' : v[i]; }
          else out += v[i];
        }
        push(first, out);
        break;
      }
    });
  }
  /* the level a line's stripped prefix names: 0 informational, 1 warning, 2 other */
  function lineLevel(pre) {
    /* the whole word (normalize.c's line_level): `debugger.rb`,
     * `Lint/Debugger` are no level; `warning`, `information` are */
    var m = /(?:^|[^A-Za-z])(warn(?:ing)?|info(?:rmation[A-Za-z]*)?|debug(?:ging)?|trace|notice|verbose|deprecated)(?![A-Za-z])/i.exec(pre);
    return !m ? 2 : /^(warn|deprecated)/i.test(m[1]) ? 1 : 0;
  }
  /* does it name an error level ("ERROR", "[E]", "fatal: ")? */
  function namesError(pre) {
    var re = /[A-Za-z]+/g, w, k, words = ['error', 'err', 'fatal', 'crit', 'panic', 'severe', 'alert', 'emerg', 'fail', 'e'];
    while ((w = re.exec(pre))) {
      var l = lower(w[0]);
      for (k = 0; k < words.length; k++)
        if (l === words[k] || (words[k].length > 1 && l.startsWith(words[k])))
          return l.length > 1 || w[0] === 'E';
    }
    return false;
  }
  /* a Go stack frame's path line ("\t/src/app/main.go:21 +0x1d"), not a
   * message naming a position ("\tmain.go:3:8: use of internal package") */
  function goFrame(sp) {
    var g = sp.indexOf('.go:'), e;
    if (g < 0 || !/[0-9]/.test(sp[g + 4] || '')) return false;
    for (e = g + 4; /[0-9]/.test(sp[e] || ''); e++);
    return e === sp.length || sp.startsWith(' +0x', e);
  }
  /* a line of a help text's option table ("  -v, --version   show the
   * version") or its description's continuation in a column 20 or more
   * spaces in (tabs to 8): what a program does, not what went wrong */
  function helpLine(line, sp) {
    var col = 0, n = line.length - sp.length, gap;
    for (var i = 0; i < n; i++) col += line[i] === '\t' ? 8 - col % 8 : 1;
    if (col >= 20) return true;
    /* (a lone "-" too: the option that reads standard input) */
    if (!col || sp[0] !== '-' || !(/[A-Za-z0-9-]/.test(sp[1] || '') || sp.slice(1, 3) === '  ')) return false;
    if ((gap = sp.indexOf('  ')) < 0) return false;
    return /^[ \t]*[A-Za-z([]/.test(sp.slice(gap));
  }
  /* ---- symfony/console exception blocks: normalize.c's unbox ------------- */
  /* "In NAME line N:" header, a padding line, "  [Class]" (optional), the
   * message's lines cut at the terminal's width (two blanks in front), a
   * padding line; a block without header only with its padding intact */
  function boxLines(t) {
    return t.split('\n').map(function (s) {
      if (s && s[s.length - 1] === '\r') s = s.slice(0, -1);
      return { s: s, raw: s.length, len: s.replace(/[ \t]+$/, '').length };
    });
  }
  /* the header's file and its "file:line" site ('' for "line n/a"), else null */
  function boxHeader(l) {
    var m = /^ *In ([^ ]+) line (\d+|n\/a):$/.exec(l.s.slice(0, l.len));
    if (!m) return null;
    return { name: m[1], site: /^\d/.test(m[2]) ? m[1] + ':' + m[2] : '' };
  }
  /* "  [Class]" / "  [Class (code)]": the class, else null */
  function boxClass(l) {
    var s = l.s.slice(0, l.len), m;
    if (l.len < 5 || s[2] !== '[' || s[l.len - 1] !== ']') return null;
    m = /^[A-Za-z0-9_\\]+/.exec(s.slice(3, l.len - 1));
    if (!m || (3 + m[0].length !== l.len - 1 && s[3 + m[0].length] !== ' ')) return null;
    return m[0];
  }
  /* the block whose first padding line is lines[b]: { end: its closing
   * padding line, msg: the message, its cut lines joined }, else null */
  function boxBody(lines, b, hdr, q) {
    var n = lines.length, L, k, full = 0, maxraw = 0, padded, first, cls, i, out = '';
    if (b >= n || lines[b].len) return null;
    L = lines[b].raw; k = b + 1; padded = L >= 6;
    while (k < n && lines[k].len > 2 && lines[k].s.startsWith('  ')) {
      if (lines[k].raw !== L) padded = false;
      maxraw = Math.max(maxraw, lines[k].raw);
      k++;
    }
    if (k === b + 1 || k >= n || lines[k].len) return null;
    if (lines[k].raw !== L) padded = false;
    if (!hdr && !padded) return null;
    if (!padded) L = maxraw + 2; /* a paste that lost the padding: the longest line */
    first = b + 1;
    if ((cls = boxClass(lines[first])) !== null) { addClass(q, cls); first++; }
    for (i = first; i < k; i++) if (lines[i].len - 2 === L - 4) full++;
    for (i = first; i < k; i++) {
      var s = lines[i].s.slice(2, lines[i].len), pn = s.length, nx, last, join = false;
      out += s;
      if (i + 1 === k) break;
      nx = lines[i + 1].s[2];
      last = pn ? s[pn - 1] : ' ';
      if (pn === L - 4) join = nx !== ' ' ? !('.:!?'.indexOf(last) >= 0 && /[A-Z]/.test(nx)) : full >= 2;
      else if (pn + 1 === L - 4 && padded && full >= 2 && nx !== ' ') { join = true; out += ' '; }
      if (!join) out += '\n';
    }
    return { end: k, msg: out };
  }
  /* the text with every block replaced by its message's lines (the
   * headers' files to q.paths, sites to q.sites, messages to first), else null */
  function unbox(t, q, first) {
    if (t.indexOf('\n  ') < 0) return null;
    var lines = boxLines(t), n = lines.length, out = '', any = false, i = 0, h, b;
    while (i < n) {
      h = boxHeader(lines[i]);
      b = h ? boxBody(lines, i + 1, true, q) : !lines[i].len ? boxBody(lines, i, false, q) : null;
      if (!b) {
        out += lines[i].s;
        if (++i < n) out += '\n';
        continue;
      }
      if (h) { push(q.paths, h.name); push(q.sites, h.site); }
      push(first, b.msg);
      out += b.msg;
      any = true;
      i = b.end + 1;
      if (i < n) out += '\n';
    }
    return any ? out : null;
  }
  /* words before ": " that say what a line is, or label a part of it:
   * no program's name (normalize.c's argv0_prefix) */
  var ARGV0_LABELS = ['error', 'fatal', 'warning', 'warn', 'note', 'hint', 'info', 'debug', 'trace',
    'notice', 'panic', 'usage', 'caused', 'cause', 'reason', 'details', 'detail', 'message', 'msg',
    'help', 'tip', 'see', 'at', 'in', 'from', 'to', 'and', 'or', 'critical', 'crit', 'severe', 'alert',
    'emerg', 'err', 'failed', 'failure', 'status', 'code', 'expected', 'got', 'found', 'actual',
    'value', 'line', 'file', 'path', 'http', 'https', 'ftp'];
  /* the text's words that read as a name of a file or folder (normalize.c's
   * text_names): 8 to 64 letters, digits, '-', '_', a '-' or '_' between
   * two of them, or 6 or more in brackets with a capital inside, not a
   * path's part nor a flag's; the first 16 */
  function textNames(s) {
    var names = [], p = 0, e, w, joined, c;
    var wordc = function (ch) { return /[A-Za-z0-9_-]/.test(ch); };
    while (p < s.length && names.length < 16) {
      c = p > 0 ? s[p - 1] : '';
      if (!/[A-Za-z]/.test(s[p]) || (p > 0 && /[A-Za-z0-9_\-\/.]/.test(c))) { p++; continue; }
      e = p; joined = false;
      while (e < s.length && wordc(s[e])) {
        if ((s[e] === '-' || s[e] === '_') && e > p && /[A-Za-z0-9]/.test(s[e - 1]) && /[A-Za-z0-9]/.test(s[e + 1] || '')) joined = true;
        e++;
      }
      w = s.slice(p, e);
      /* a lint rule's name in brackets, in capitals within ("[WhitespaceAround]") */
      var rule = p > 0 && c === '[' && s[e] === ']' && w.length >= 6 && /[a-z][A-Z]/.test(w);
      if (((joined && w.length >= 8) || rule) && w.length <= 64 && s[e] !== '/' && s[e] !== '.' && s[e] !== '=' &&
          !(s[e] === ':' && s[e + 1] === ':') && names.indexOf(w) < 0) names.push(w);
      p = e < s.length ? e + 1 : e;
    }
    return names;
  }
  /* fl_normalize: the messages to look up, most likely first, and the
   * evidence around them */
  function normalize(text) {
    var q = { clean: '', messages: [], classes: [], paths: [], modules: [], codes: [], errorLevel: [],
              informational: false, program: null, command: null, argv0: null, sites: [], framesLast: false };
    var first = [], rest = [[], [], []], causes = [], errs = [], inTb = false, caused = false, rustNext = false, exitStack = false;
    var tbStart = 0, causeStart = -1; /* the last traceback's sites, those before "Caused by:" */
    var rawOf = []; /* [a stripped line, the line as printed] */
    var lines = text.replace(/\x1b\[[^@-~]*[@-~]?|\x1b\][^\x07]*\x07?|\x1b|\0/g, '');
    var unboxed = unbox(lines, q, first); /* symfony/console blocks */
    lines = (unboxed === null ? lines : unboxed).split('\n');
    for (var li = 0; li < lines.length; li++) {
      var line = lines[li].replace(/[\r ]+$/, ''), sp = skipSpaces(line), indented = sp !== line, m, r, cn, i;
      if (!sp) { if (q.clean) q.clean += '\n'; continue; }
      if (q.program === null && /^usage:/i.test(sp)) {
        /* the program, and the command of it that was run ("usage: go
         * mod tidy [-e]": up to 3 words in lower case before the
         * options) */
        m = /^[^ \t[]*(?:[ \t]+[a-z][a-z0-9_-]*(?![^ \t])){0,3}/.exec(skipSpaces(sp.slice(6)))[0];
        if (m && m[0] !== '-' && m[0] !== '<') q.program = m;
      }
      if ((m = /^(?:\$|\xe2\x9d\xaf) [ \t]*/.exec(sp))) { /* a pasted command: evidence */
        if (m[0].length < sp.length && q.command === null) q.command = sp.slice(m[0].length);
        continue;
      }
      /* Ruby's report of an `exit` ("x.rb:33:in `exit': exit (SystemExit)")
       * and its frames: the way the program chose to end, not where the
       * error was raised (no sites; the files still evidence) */
      if (!indented) exitStack = / \(SystemExit\)$/.test(sp) && rubyFrame(sp) && sp.indexOf(':in ') >= 0;
      if (exitStack && indented && sp.startsWith('from ') && rubyFrame(sp.slice(5))) {
        push(q.paths, sp.slice(5, sp.indexOf('.rb:') + 3));
        continue;
      }
      if (exitStack) continue;
      /* the header of Ruby's report of an uncaught exception ("x.rb:24:in
       * `setup': msg (Class)") names the line that raised it */
      if (!indented && rubyFrame(sp) && sp.indexOf(':in ') >= 0) pathAt(q, sp.slice(0, sp.indexOf(':in ')));
      if (sp.startsWith('Traceback (most recent call last)')) { inTb = true; q.framesLast = true; tbStart = q.sites.length; continue; }
      if (sp.startsWith('File "')) {
        if ((i = sp.indexOf('"', 6)) >= 0) {
          push(q.paths, sp.slice(6, i));
          if (sp.startsWith('", line ', i)) pushSite(q, sp.slice(6, i), /^[0-9]*/.exec(sp.slice(i + 8))[0]);
        }
        if ((i = sp.indexOf(', in ')) >= 0) push(q.modules, sp.slice(i + 5));
        continue;
      }
      if (inTb && indented) continue;
      if (sp.startsWith('at ') && indented) {
        if ((i = sp.indexOf('(')) >= 0) {
          if (!jvmFrame(q, sp.slice(3, i), sp.slice(i + 1))) pathAt(q, sp.slice(i + 1));
          var dot = sp.lastIndexOf('.', i - 1);
          if (dot >= 3) push(q.modules, sp.slice(3, dot));
        } else pathAt(q, sp.slice(3));
        continue;
      }
      if (/^(?:goroutine |\.\.\. |note: run with `RUST_BACKTRACE|stack backtrace:|\[stack trace\])/.test(sp)) continue;
      if (line[0] === '\t' && goFrame(sp)) { pathAt(q, sp); continue; }
      if (indented && sp.startsWith('from ') && rubyFrame(sp.slice(5))) { pathAt(q, sp.slice(5)); continue; }
      /* the program a message line names first, as C tools print argv[0]
       * ("ls: cannot access ...": normalize.c's argv0_prefix) */
      if (q.argv0 === null && !indented && (m = /^[a-z][a-z0-9._+-]{1,31}(?=: [^ ])/.exec(sp)) &&
          ARGV0_LABELS.indexOf(m[0]) < 0) q.argv0 = m[0];
      if ((m = /^code: (['"])/.exec(sp))) {
        if ((i = sp.indexOf(m[1], 7)) >= 0) push(q.codes, sp.slice(7, i));
        continue;
      }
      if (sp[0] === '{') jsonLine(q, sp, first);
      if (/msg=|err=|error=/.test(sp)) logfmt(sp, first);
      var msg = stripLine(stripGlog(stripLine(line), q)), pre = line.slice(0, line.length - msg.length);
      msg = whereSuffix(q, msg);
      /* JavaScript's "Error: msg" over its stack's frames: the class of
       * `new Error(...)` (normalize.c) */
      if (sp.startsWith('Error: ') && msg === sp.slice(7) && javaFrame(lines[li + 1])) addClass(q, 'Error');
      var help = helpLine(line, sp), level = help ? 0 : lineLevel(pre), named = !help && namesError(pre);
      /* "prog: message", the program's name before it as C tools print
       * their diagnostics, says it is an error (not a file's name "x.js:
       * ...", nor before a level word: "prog: WARNING: ...") */
      if (!named && !help && !indented && level === 2 && q.argv0 && q.argv0.indexOf('.') < 0 &&
          sp.startsWith(q.argv0 + ': ')) {
        var afterProg = sp.slice(q.argv0.length + 2), lw = afterProg.indexOf(':');
        named = !(lw >= 0 && lw <= 12 && lineLevel(afterProg.slice(0, lw)) !== 2);
      }
      if (q.clean) q.clean += '\n';
      q.clean += msg;
      if (!msg) continue;
      if ((i = msg.indexOf('panicked at ')) >= 0 && msg.startsWith("thread '")) { /* Rust */
        var a = msg.slice(i + 12);
        if (a[0] !== "'") { pathAt(q, a); rustNext = true; }
        else if ((i = a.indexOf("', ", 1)) >= 0) { push(first, a.slice(1, i)); pathAt(q, a.slice(i + 3)); }
        continue;
      }
      if (rustNext) { rustNext = false; push(first, msg); continue; }
      if (msg.startsWith('Caused by:')) {
        if (causeStart < 0) causeStart = q.sites.length;
        if (!(r = skipSpaces(msg.slice(10)))) { caused = true; continue; }
        while ((cn = classPrefix(r))) { addClass(q, r.slice(0, cn)); r = skipSpaces(r.slice(cn + 1)); }
        push(causes, r);
        continue;
      }
      if (caused && indented) { /* "0: msg" */
        push(causes, (m = /^\d+:/.exec(msg)) ? skipSpaces(msg.slice(m[0].length)) : msg);
        continue;
      }
      caused = false;
      var loose = inTb || javaFrame(lines[li + 1]);
      if (msg.startsWith('Exception in thread "') && (i = msg.indexOf('"', 21)) >= 0) {
        msg = skipSpaces(msg.slice(i + 1));
        loose = true;
      }
      if (msg.startsWith('panic: ')) {
        msg = msg.slice(7);
        if ((i = msg.indexOf(' [recovered]')) >= 0) msg = msg.slice(0, i);
      }
      if ((cn = classPrefix(msg, loose))) { /* Class: message, Wrapper: Cause: message */
        r = msg;
        var outer = msg.slice(0, cn);
        do { addClass(q, r.slice(0, cn)); r = skipSpaces(r.slice(cn + 1)); } while ((cn = classPrefix(r)));
        if (bareErrorClass(r)) { /* Wrapper: java.io.EOFException: the wrapper was thrown */
          addClass(q, r);
          push(first, outer);
        } else {
          push(first, r);
        }
        inTb = false;
        continue;
      }
      if (inTb) { /* a traceback's last line without a message: the class */
        inTb = false;
        if (/^[A-Za-z0-9_.]*$/.test(msg)) { addClass(q, msg); push(first, msg); continue; }
      }
      push(rest[level], msg);
      /* the line as printed, when stripping took a prefix off: a record
       * may hold the prefix ("jq: error: %s at %s, line %d:") */
      if (msg !== sp && sp.length <= 4096) rawOf.push([msg, sp]);
      if (named) push(errs, msg);
    }
    /* wrappers' messages, then error lines, a chain's causes, warnings,
     * informational lines */
    first.concat(rest[2], causes, rest[1], rest[0]).forEach(function (s) { push(q.messages, s); });
    q.raw = q.messages.map(function (m) {
      for (var k = 0; k < rawOf.length; k++) if (rawOf[k][0] === m) return rawOf[k][1];
      return '';
    });
    q.errorLevel = q.messages.map(function (s, k) { return k < 64 && errs.indexOf(s) >= 0; });
    q.informational = !first.length && !rest[2].length && !causes.length && !rest[1].length && rest[0].length > 0;
    q.clean = q.clean.replace(/\n+$/, '');
    q.names = textNames(q.clean);
    /* the frames of the error printed, from its innermost (normalize.c's
     * sites_block) */
    q.sitesBlock = q.framesLast ? q.sites.length - tbStart : causeStart >= 0 ? causeStart : q.sites.length;
    return q;
  }
  /* lines over 8 KB: their first and last 4 KB */
  function cutLines(t) {
    return t.split('\n').map(function (l) {
      if (l.length <= 8192) return l;
      var h = 4096, e = l.length - 4096, k;
      for (k = 0; k < 3 && (l.charCodeAt(h) & 0xC0) === 0x80; k++) h--;
      for (k = 0; k < 3 && (l.charCodeAt(e) & 0xC0) === 0x80; k++) e++;
      return l.slice(0, h) + '\xe2\x80\xa6' + l.slice(e);
    }).join('\n');
  }

  /* ---- a pattern against a text: match.c, and lookup.c's confirm ---------- */
  var META = '.*+?^${}()|[]\\';
  /* literal segments and (.+?) gaps: gaps[k] before segs[k], the last after */
  function parseProg(pat) {
    var segs = [], gaps = [0], cur = null, lit = 0, c;
    for (var i = 0; i < pat.length;) {
      if (pat.startsWith('(.+?)', i)) {
        if (cur !== null) { segs.push(cur); gaps.push(0); cur = null; }
        gaps[gaps.length - 1]++;
        i += 5;
        continue;
      }
      c = pat[i];
      if (c === '\\') {
        c = pat[i + 1];
        if (c === undefined || (META.indexOf(c) < 0 && '/-# "\':!<>=,@%&~`;'.indexOf(c) < 0)) return null;
        i += 2;
      } else if (META.indexOf(c) >= 0) return null;
      else i++;
      if (cur === null) { if (segs.length === 64) return null; cur = ''; }
      cur += c;
      lit++;
    }
    if (cur !== null) { segs.push(cur); gaps.push(0); }
    return segs.length ? { segs: segs, gaps: gaps, literal: lit } : null;
  }
  /* Python's %(name) and Ruby's %<name> forms records.md leaves literal
   * (%(value)r, %(n)5d, %<source>s) as (.+?) too, and with ws a line break
   * with the white space around it as \s+ (1: the lenient pass) or (.+?)
   * (2: the segments the factors come from); null
   * when none, or when fewer than 6 literal characters are left (match.c's
   * fl_pattern_loose) */
  var WS_RUN = /[ \t\r\n]+/y;
  function loosePattern(pat, ws) {
    if (pat.indexOf('%\\(') < 0 && pat.indexOf('%<') < 0 && (!ws || pat.indexOf('\n') < 0)) return null;
    var out = '', any = false, lit = 0, i = 0, m;
    var rx = /^%(?:\\\(\w+\\\)|<\w+>)(?:[#0\- 1-9]|\\[+.]){0,12}[diouxXeEfFgGcrsa]/;
    while (i < pat.length) {
      /* a message's line breaks and the white space around them, printed
       * on one line: any white space (for the factors' segments, a hole) */
      WS_RUN.lastIndex = i;
      if (ws && (m = WS_RUN.exec(pat)) && m[0].indexOf('\n') >= 0) {
        i += m[0].length;
        out += ws === 2 ? '(.+?)' : i < pat.length ? '\\s+' : '';
        any = true;
        continue;
      }
      if (pat[i] === '%' && (m = rx.exec(pat.slice(i, i + 80)))) { out += '(.+?)'; any = true; i += m[0].length; continue; }
      if (pat.startsWith('(.+?)', i)) { out += '(.+?)'; i += 5; continue; }
      if (pat[i] === '\\' && i + 1 < pat.length) { out += pat.substr(i, 2); i += 2; } else out += pat[i++];
      lit++;
    }
    return any && lit >= 6 ? out : null;
  }
  /* any other regex's longest literal run ('' when under 3 bytes or in an alternation) */
  function factorRun(pat) {
    var best = '', cur = '', i = 0, c, n, lit;
    for (;;) {
      c = pat[i]; n = pat[i + 1]; lit = null;
      if (c === '\\' && n !== undefined) {
        if (META.indexOf(n) >= 0 || 'dDwWsSbBAzZGnrtfveaxuUpPkgQEhHRXNK0123456789'.indexOf(n) < 0) lit = n;
        i += 2;
      } else if (c !== undefined && META.indexOf(c) < 0) { lit = c; i++; }
      else if (c !== undefined) { if ('?*{'.indexOf(c) >= 0) cur = cur.slice(0, -1); i++; }
      if (lit !== null) { cur += lit; continue; }
      if (cur.length > best.length) best = cur;
      cur = '';
      if (c === undefined) break;
      if (c === '|') return '';
    }
    return best.length >= 3 ? best : '';
  }
  /* the literal window lookup.c's index finds an entry by when its literal
   * runs are all short (index.c's choose_factors: the first longest
   * segment, or a regex's longest run); '' when it has a run of 12 bytes
   * or more (a window of its own) or none of 3 */
  function shortFactor(x) {
    var f = x.prog ? x.prog.segs.reduce(function (a, b) { return b.length > a.length ? b : a; }) : factorRun(x.pattern);
    return f.length >= 3 && f.length < 12 ? f : '';
  }
  function shift(m, d) {
    m.caps = m.caps.map(function (c) { return [c[0] + d, c[1] + d]; });
    m.start += d;
    m.end += d;
    return m;
  }
  /* the first segment's start for a match whose first segment is earliest
   * at s0 and whose second starts at s1: the last that leaves the first gap
   * room and follows a byte outside a word (match.c's last_first_segment) */
  function lastFirstSegment(p, t, s0, s1) {
    var l = p.segs[0].length, best = s0, last = s1 - p.gaps[1] - l;
    for (var k = t.indexOf(p.segs[0], s0 + 1); k >= 0 && k <= last; k = t.indexOf(p.segs[0], k + 1))
      if (!/[A-Za-z0-9_]/.test(t[k - 1])) best = k;
    return best;
  }
  /* each segment at its earliest place, but the first (lastFirstSegment);
   * a trailing gap captures the rest of the line */
  function matchSlice(p, t) {
    var caps = [], n = p.segs.length, prev = 0, start = 0, s;
    for (var i = 0; i < n; i++) {
      var from = i ? prev + p.gaps[i] : p.gaps[0];
      if (from > t.length || (s = t.indexOf(p.segs[i], from)) < 0) return null;
      if (i === 1 && !p.gaps[0]) {
        start = lastFirstSegment(p, t, start, s);
        prev = start + p.segs[0].length;
      }
      if (i) caps.push([prev, s]);
      else if (p.gaps[0]) caps.push([0, s]);
      else start = s;
      prev = s + p.segs[i].length;
    }
    var end = prev, trail = p.gaps[n];
    if (trail) {
      if (t.length - prev < trail) return null;
      var stop = t.length;
      while (stop > prev + trail && (t[stop - 1] === '\r' || t[stop - 1] === ' ')) stop--;
      caps.push([prev, stop]);
      end = prev + trail;
    }
    return { caps: caps, start: start, end: end };
  }
  /* the length of a line's message, its prefixes stripped */
  function messageLength(line) {
    var head = line.slice(0, 511);
    return line.length - head.length + stripLine(head).length;
  }
  /* gaps do not cross lines: the lines holding the first segment, leftmost
   * first; a short pattern of bound bytes at most is not tried on a line
   * whose message it cannot span 60% of (lookup.c's try_factor) */
  function progMatch(p, t, bound) {
    if (p.segs.some(function (s) { return s.indexOf('\n') >= 0; })) return matchSlice(p, t);
    for (var from = 0; from < t.length;) {
      var s = t.indexOf(p.segs[0], from);
      if (s < 0) return null;
      var ls = s ? t.lastIndexOf('\n', s - 1) + 1 : 0, le = t.indexOf('\n', s);
      if (le < 0) le = t.length;
      var m = !(bound && bound < 0.6 * messageLength(t.slice(ls, le))) && matchSlice(p, t.slice(ls, le));
      if (m) return shift(m, ls);
      from = le + 1;
    }
    return null;
  }
  var regexes = {};
  function regexMatch(pat, t) {
    var re = regexes[pat], m;
    if (re === undefined) {
      try { re = new RegExp(pat, 'd'); } catch (e) { re = null; }
      regexes[pat] = re;
    }
    if (!re || !(m = re.exec(t))) return null;
    var caps = m.indices.slice(1).filter(Boolean), end = m.index + m[0].length, last = caps[caps.length - 1];
    /* a pattern ending with a lazy placeholder: its capture is the rest of
     * the line (match.c's fl_regex_match, as progMatch) */
    if (last && last[1] === end && /(^|[^\\])\(\.[+*]\?\)$/.test(pat)) {
      var stop = t.indexOf('\n', last[0]);
      if (stop < 0) stop = t.length;
      while (stop > last[1] && (t[stop - 1] === '\r' || t[stop - 1] === ' ')) stop--;
      caps[caps.length - 1] = [last[0], stop];
    }
    return { caps: caps, start: m.index, end: end };
  }
  /* a hit of entry x in text t: how much of its line's message it spans */
  function confirm(x, t, pat) {
    var m = pat ? regexMatch(pat, t) : x.prog ? progMatch(x.prog, t, x.bound) : regexMatch(x.pattern, t);
    if (!m) return null;
    var ls = m.start ? t.lastIndexOf('\n', m.start - 1) + 1 : 0, le = t.indexOf('\n', m.end);
    if (le < 0) le = t.length;
    var head = t.slice(ls, Math.min(le, ls + 511));
    var msgStart = Math.min(ls + head.length - stripLine(head).length, m.start);
    /* a trailing placeholder stands for the rest of its line, a leading
     * one for a value of at most 64 bytes */
    var coverEnd = m.end, c0 = m.caps[0];
    m.caps.forEach(function (c) { if (c[1] > coverEnd && c[1] <= le) coverEnd = c[1]; });
    var covered = coverEnd - m.start;
    if (c0 && c0[0] === m.start && c0[1] - c0[0] > 64 && covered > c0[1] - c0[0] - 64) covered -= c0[1] - c0[0] - 64;
    var coverage = le > msgStart ? Math.min(1, covered / (le - msgStart)) : 1;
    /* a short pattern inside a longer message is a coincidence; a class
     * raised without a message is no other error of that class */
    if (x.literal < 12 && coverage < 0.6) return null;
    /* so is a message that starts with a word found inside one */
    if (m.start > 0 && /^[A-Za-z0-9]/.test(x.msg) && /[A-Za-z0-9]/.test(t[m.start]) && /[A-Za-z0-9]/.test(t[m.start - 1])) return null;
    if (x.cls && x.cls === x.msg && !/^[ \t\r:]*$/.test(t.slice(m.end, le))) return null;
    return { x: x, coverage: coverage, at: m.start, end: m.end, caps: m.caps, text: t, ev: 0, lenient: false };
  }

  /* would lookup.c's index have tried x on t?  The segments its factor is
   * chosen from (every one of 12 bytes or more, else the first longest, of
   * 3 bytes at least) in t, on a line long enough for the pattern's literal
   * part when it is tried line by line (try_factor's minlen, less the
   * placeholders a lenient match leaves empty) */
  function factorSeen(x, t) {
    if (!x.fsegs) {
      var lp = x.looseSegs && parseProg(x.looseSegs);
      var segs = lp ? lp.segs : x.prog ? x.prog.segs : [factorRun(x.pattern)];
      var best = segs.reduce(function (a, b) { return b.length > a.length ? b : a; });
      x.fsegs = (best.length >= 12 ? segs.filter(function (g) { return g.length >= 12; }) : [best])
        .filter(function (g) { return g.length >= 3; });
      x.minlen = x.prog && x.pattern.indexOf('\n') < 0 ? x.prog.literal : 0;
    }
    return x.fsegs.some(function (g) {
      for (var at = t.indexOf(g); at >= 0; at = t.indexOf(g, at + 1)) {
        var ls = at ? t.lastIndexOf('\n', at - 1) + 1 : 0, le = t.indexOf('\n', at);
        if ((le < 0 ? t.length : le) - ls >= x.minlen) return true;
      }
      return false;
    });
  }
  /* the 16 failed entries with the longest literal (lookup.c's failed_add) */
  function failedAdd(failed, x, pos) {
    var at = failed.length, i;
    if (at === 16) {
      for (at = 0, i = 1; i < 16; i++) if (failed[i].x.literal < failed[at].x.literal) at = i;
      if (failed[at].x.literal >= x.literal) return;
    }
    failed[at] = { x: x, pos: pos };
  }

  /* ---- evidence, confidence and order: lib/lookup/rank.c ------------------ */
  function pathAgrees(e, s) {
    var a = e.length, b = s.length;
    if (b >= a) return s.slice(b - a) === e && (b === a || s[b - a - 1] === '/' || s[b - a - 1] === '\\');
    return e.slice(a - b) === s && e[a - b - 1] === '/';
  }
  /* 2 one path a suffix of the other, 1 they end alike in two whole
   * components or more (a file as installed), 0 neither (rank.c's
   * fl_lk_path_agreement) */
  function pathAgreement(e, s) {
    if (pathAgrees(e, s)) return 2;
    var a = e.length, b = s.length, i = 0, whole = 0, x, y, sep;
    for (; i < a && i < b; i++) {
      x = e[a - 1 - i]; y = s[b - 1 - i];
      sep = (x === '/' || x === '\\') && (y === '/' || y === '\\');
      if (x !== y && !sep) break;
      if (sep) whole++;
    }
    return whole >= 2 ? 1 : 0;
  }
  function base(p) { return p.slice(p.lastIndexOf('/') + 1); }
  /* 2 equal, 1 one starts the other (4+ characters), or the component is
   * the word after a prefix of up to 3 letters ("dist", mdist.py) */
  function wordVsComponent(w, c) {
    w = lower(w); c = lower(c);
    var m = Math.min(w.length, c.length);
    if (w === c) return 2;
    if (m >= 4 && w.slice(0, m) === c.slice(0, m)) return 1;
    return w.length >= 4 && c.length > w.length && c.length - w.length <= 3 && c.slice(c.length - w.length) === w ? 1 : 0;
  }
  /* a word against a folder, a file name without its extension (the file
   * alone: fileOnly), or a part of one (which says less) */
  function wordVsPath(w, path, fileOnly) {
    var best = 0, comps = path.split('/');
    comps.forEach(function (c, k) {
      var dot = c.lastIndexOf('.');
      if (k < comps.length - 1 && fileOnly) return;
      if (k === comps.length - 1 && dot > 0) c = c.slice(0, dot);
      var r = wordVsComponent(w, c);
      c.split(/[_-]/).forEach(function (part) {
        if (!r && part && part.length < c.length && wordVsComponent(w, part)) r = 1;
      });
      best = Math.max(best, r);
    });
    return best;
  }
  /* the program's name (unless skipProg) and its subcommands and flags,
   * not values or paths: the program names its command-line file at most
   * (one point), a flag the file or folder it names whole (one), a
   * subcommand two; one more when another word names a part of it too.
   * Every command of a chained line counts ("cd x && tool sub", "a | b",
   * "x; y"), after its VAR=value words and wrappers ("sudo tool"); setup
   * builtins ("cd", "export") and redirections say nothing */
  var WRAPPERS = ['sudo', 'env', 'time', 'nice', 'exec', 'command', 'nohup', 'xargs', 'doas'];
  var SETUP = ['cd', 'pushd', 'popd', 'export', 'set', 'source', 'unset', 'mkdir', 'echo'];
  /* the words of a command line, each with whether it is its command's
   * program: every command of a chained line, after its VAR=value words
   * and wrappers; setup builtins and their words, redirections and their
   * files are none (rank.c's cmd_word) */
  function cmdWords(cmd) {
    var out = [], prog = true, nextCmd = false, p = 0, n = cmd.length;
    function blankAt(k) { return cmd[k] === ' ' || cmd[k] === '\t'; }
    while (p < n) {
      if (nextCmd) { prog = true; nextCmd = false; }
      while (p < n && blankAt(p)) p++;
      var s = p;
      while (p < n && !blankAt(p)) p++;
      var len = p - s, c0 = cmd[s], c1 = cmd[s + 1];
      if (!len) break;
      if (c0 === '>' || c0 === '<' || (c0 === '2' && c1 === '>')) { /* a redirection and its file */
        if (len === 1 || (len === 2 && c1 === '>') || (len === 2 && c0 === '2')) {
          while (p < n && blankAt(p)) p++;
          while (p < n && !blankAt(p)) p++;
        }
        continue;
      }
      if (c0 === '|' || c0 === ';' || c0 === '&') { prog = true; continue; }
      if (cmd[s + len - 1] === ';') { len--; nextCmd = true; }
      var w = cmd.slice(s, s + len);
      if (prog && w.indexOf('=') >= 0 && /^[A-Za-z_]/.test(w)) continue;
      if (prog && WRAPPERS.indexOf(w) >= 0) continue;
      if (prog && SETUP.indexOf(w) >= 0) {
        while (p < n && ';&|'.indexOf(cmd[p]) < 0) p++;
        continue;
      }
      out.push({ w: w, prog: prog });
      prog = false;
    }
    return out;
  }
  function commandEvidence(cmd, skipProg, path) {
    var best = 0, words = 0;
    cmdWords(cmd).forEach(function (cw) {
      var w = cw.w, c0 = w[0], wasProg = cw.prog, r;
      if (wasProg && skipProg) return;
      var cap = wasProg || c0 === '-' ? 1 : 2;
      if (wasProg) w = base(w);
      else w = w.replace(/^-+/, '').split('=')[0];
      /* a URL: its scheme names the protocol's file ("http://...": http.c) */
      var colon = wasProg ? -1 : w.indexOf(':');
      if (colon >= 0 && w.startsWith('//', colon + 1)) w = w.slice(0, colon);
      if (w.length < 3 || /[^A-Za-z0-9_-]/.test(w)) return;
      r = wordVsPath(w, path, wasProg);
      if (c0 === '-' && r < 2) r = 0;
      r = Math.min(r, cap);
      if (r > 0) words++;
      best = Math.max(best, r);
    });
    return best + (words > 1 ? 1 : 0);
  }
  function evidence(x, path, q) {
    var ev = 0, i, last = x.cls, m, re = /[:.](?=[^:])/g;
    var best = 0, ag, pts;
    for (i = 0; path && i < q.paths.length && best < 4; i++) {
      ag = pathAgreement(path, q.paths[i]);
      pts = ag === 2 ? 4 : ag === 1 ? 3 : base(path) === base(q.paths[i]) ? 2 : 0;
      if (pts > best) best = pts;
    }
    ev += best;
    while ((m = re.exec(x.cls))) last = x.cls.slice(m.index + 1);
    if (x.cls && (q.classes.indexOf(x.cls) >= 0 || q.classes.indexOf(last) >= 0)) ev += 3;
    for (i = 0; path && i < q.modules.length; i++) {
      last = q.modules[i].slice(q.modules[i].lastIndexOf('.') + 1);
      if (last.length >= 3 && path.indexOf(last) >= 0) { ev += 1; break; }
    }
    /* a pasted command's words after its program (which names every file
     * of its repository alike), and the program a usage text names */
    if (path && q.command) ev += commandEvidence(q.command, true, path);
    if (path && q.program) ev += commandEvidence(q.program, false, path);
    /* the program that printed it (its line's "ls: ", the pasted
     * command's first word) is its file's name (rank.c's
     * program_names_file) */
    /* a name the text says is a folder or file of its path (rank.c) */
    for (i = 0; path && q.names && i < q.names.length; i++) {
      var parts = path.split('/'), f = parts[parts.length - 1], dot = f.lastIndexOf('.');
      if (dot > 0) parts[parts.length - 1] = f.slice(0, dot);
      if (parts.indexOf(q.names[i]) >= 0) { ev += 1; break; }
      /* the file of its class: the name and one capitalized word more
       * ("[WhitespaceAround]": WhitespaceAroundCheck.java) */
      f = parts[parts.length - 1];
      if (f.length > q.names[i].length && f.indexOf(q.names[i]) === 0 &&
          /^[A-Z][a-z]+$/.test(f.slice(q.names[i].length))) { ev += 1; break; }
    }
    if (path && programNamesFile(q, path, x.meta.repo)) ev += 1;
    return ev;
  }
  /* not a program that names the repository, its owner or name: it names
   * every file of it alike */
  function programFile(w, path, repo) {
    var b = base(path), dot = b.lastIndexOf('.'), parts = lower(repo || '').split('/');
    if (dot > 0) b = b.slice(0, dot);
    if (parts.indexOf(lower(w)) >= 0) return false;
    return w.length >= 2 && b === w;
  }
  /* the program word is the repository's name or owner, a version's
   * digits after it or not ("pip3" of pypa/pip: rank.c's program_repo) */
  function programRepo(w, repo) {
    if (!repo || !w || w.length < 2) return false;
    var parts = lower(repo).split('/'), lw = lower(w), dw = lw.replace(/(..)[0-9]+$/, '$1');
    return parts.indexOf(lw) >= 0 || parts.indexOf(dw) >= 0;
  }
  /* the program that printed the text names the record's repository or
   * its file (rank.c's program_names) */
  function programNames(q, path, repo) {
    if (q.argv0 && programRepo(q.argv0, repo)) return true;
    if (path && programNamesFile(q, path, repo)) return true;
    return cmdWords(q.command || '').some(function (cw) { return cw.prog && programRepo(base(cw.w), repo); });
  }
  function programNamesFile(q, path, repo) {
    if (q.argv0 && programFile(q.argv0, path, repo)) return true;
    return cmdWords(q.command || '').some(function (cw) { return cw.prog && programFile(base(cw.w), path, repo); });
  }

  /* a point when a placeholder's name is in the value it captured, in
   * the last part of a path ({gemfile} for ".../Gemfile.nothere"):
   * messages of {...} fields only (lookup.c named_captures) */
  function namedCaptures(h) {
    var msg = h.x.msg, fields, k, names, name, v;
    if (!h.caps || !h.caps.length || !h.text || msg.indexOf('{') < 0 || msg.indexOf('%') >= 0 ||
        msg.indexOf('$') >= 0) return 0;
    fields = msg.match(/\{[^{}]*\}/g) || [];
    if (fields.length !== h.caps.length) return 0;
    for (k = 0; k < fields.length; k++) {
      names = fields[k].match(/[A-Za-z]+/g) || [];
      name = '';
      names.forEach(function (nm) { if (nm.length >= 4) name = nm; });
      if (!name) continue;
      v = h.text.slice(h.caps[k][0], h.caps[k][1]);
      /* a name that says a file holding a file's name or path
       * (lookup.c's file_word, file_value) */
      if (names.some(function (nm) { return /^(file|fname|filename|path|filepath|fpath)$/i.test(nm); }) && v.indexOf(' ') < 0 &&
          (v.indexOf('/') >= 0 || /[^.]\.[A-Za-z0-9]{1,5}$/.test(v))) return 1;
      v = v.slice(v.lastIndexOf('/') + 1);
      if (lower(v).indexOf(lower(name)) >= 0) return 1;
    }
    return 0;
  }
  /* a wrapper that names the line the error was raised at, or a frame of
   * a stack (q.sites, "file:line"), names a record of that file within 3
   * lines of it: the depth of the innermost frame that does (0: the
   * innermost; rank.c's fl_lk_site_rank), else -1.  A point of evidence
   * (rank.c's site_evidence) and the first key of a line's order. */
  function siteRank(rec, path, q) {
    for (var k = 0; rec && k < q.sites.length; k++) {
      var s = q.sites[q.framesLast ? q.sites.length - 1 - k : k], colon = s.lastIndexOf(':');
      if (colon < 0 || colon >= 512) continue;
      if (pathAgreement(path, s.slice(0, colon)) && Math.abs(parseInt(s.slice(colon + 1), 10) - rec.lineNumber) <= 3) return k;
    }
    return -1;
  }
  /* does the match at `at` of text open inside parentheses that follow
   * other text of its line ("rich==13.4.2 (Unable to locate actual module
   * version, ...)")?  An aside of the line, not its error */
  function parenthetical(text, at) {
    var i = at, before = 0;
    while (i > 0 && text[i - 1] === ' ') i--;
    if (i === 0 || text[i - 1] !== '(') return false;
    i--;
    while (i > 0 && text[i - 1] !== '\n' && before < 3) {
      i--;
      if (text[i] !== ' ' && text[i] !== '\t') before++;
    }
    return before >= 3;
  }
  /* does class cls, as a record holds it ("ParseException",
   * "org.x.ParseException", "mod::Error"), end in the name c? */
  function classIs(cls, c) {
    if (cls.length < c.length || cls.slice(cls.length - c.length) !== c) return false;
    return cls.length === c.length || /[.:]/.test(cls[cls.length - c.length - 1]);
  }
  /* does the line of message pos, as printed, name class cls (its last
   * component) just before the message: "Error: x", taken for a level
   * (rank.c's class_printed)? */
  function classPrinted(q, pos, cls) {
    if (!cls || pos >= q.raw.length || pos >= q.messages.length || !q.raw[pos]) return false;
    var raw = q.raw[pos], msg = q.messages[pos];
    if (raw.length <= msg.length + 2 || raw.slice(raw.length - msg.length) !== msg) return false;
    var pre = raw.slice(0, raw.length - msg.length).replace(/ +$/, '');
    if (pre.slice(-1) !== ':') return false;
    pre = pre.slice(0, -1);
    var last = cls.replace(/^.*[.:](?=[^:])/, '');
    if (!last || pre.slice(-last.length) !== last) return false;
    return pre.length === last.length || !/[A-Za-z0-9_]/.test(pre[pre.length - last.length - 1]);
  }
  /* confident: enough information in the record's literal text (in units of
   * the idf of a word of one record), less on a line logged as an error, or
   * a frame naming its file; none for informational lines nor an aside
   * in parentheses without evidence */
  function judge(h, q, unit) {
    h.info = h.x.norm / (1.5 * unit);
    /* (not on an OS error's text and little more: rank.c's RANK_OWN_LITERAL_MIN) */
    h.strong = (h.info >= (h.pos < 64 && q.errorLevel[h.pos] ? 0.8 / 1.5 : 1) && h.x.rlit >= 6) || h.ev >= 4;
    h.covers = h.coverage >= 0.5;
    h.warn = h.x.warn;
    h.raised = h.x.raised;
    h.def = h.x.def;
    /* the language table's late_text: Rust's and Go's error texts are
     * formatted when printed */
    h.late = h.def && /\.(rs|go)$/.test(h.path || '');
    h.printedCls = classPrinted(q, h.pos, h.x.cls);
    if ((q.informational || (h.text && parenthetical(h.text, h.at))) && h.ev < 4) { h.strong = false; h.info = 0; }
  }
  /* other lines of a pasted output raising records of the same file,
   * confidently (rank.c's nearby) */
  function nearby(hits) {
    if (hits.length < 2 || hits.length > 256) return;
    hits.forEach(function (h) {
      var lines = [];
      hits.forEach(function (o) { if (h.path && o.strong && o.path === h.path && o.pos !== h.pos && lines.indexOf(o.pos) < 0) lines.push(o.pos); });
      h.near = Math.min(2, lines.length);
    });
    hits.forEach(function (h) { h.ev += h.near; });
  }
  /* two neighbouring placeholders, neither the first nor the last, each
   * holding an odd number of double quotes (lookup.c's split_quote) */
  function splitQuote(h) {
    if (!h.text || !h.caps || h.caps.length < 4) return false;
    var prev = false, k, odd;
    for (k = 1; k + 1 < h.caps.length; k++) {
      odd = (h.text.slice(h.caps[k][0], h.caps[k][1]).split('"').length - 1) % 2 === 1;
      if (odd && prev) return true;
      prev = odd;
    }
    return false;
  }
  /* of two hits on one line of the text, the better: spanning it, an
   * exact match before one with empty placeholders, a raise site before
   * the text's definition, then by literal text, evidence, the class
   * its line printed and coverage */
  function cmpSameLine(a, b) {
    /* the record at the line a frame or header names first, the
     * innermost frame's before another (rank.c's cmp_same_line) */
    var sa = a.siteRank >= 0, sb = b.siteRank >= 0;
    if (sa !== sb) return sa ? -1 : 1;
    if (sa && a.siteRank !== b.siteRank) return a.siteRank - b.siteRank;
    /* the program that printed it names the repository or the file
     * (rank.c) */
    if (!!a.prog !== !!b.prog) return a.prog ? -1 : 1;
    /* a raise quoting another's message: the text printed is its own */
    if (!!a.quotes !== !!b.quotes) return a.quotes ? -1 : 1;
    /* of two quoting it, the one whose placeholder is named for the error
     * it holds */
    if (!!a.quotesErr !== !!b.quotesErr) return a.quotesErr ? -1 : 1;
    if (a.covers !== b.covers) return b.covers - a.covers;
    if (a.lenient !== b.lenient) return a.lenient - b.lenient;
    /* a text formatted when the error is printed (a Rust Display arm, a
     * Go Error() method) is written by its definition, first, before a
     * text of as many literal bytes (the lines that build it: rank.c);
     * else the raise before the text's definition */
    if (!!a.def !== !!b.def) {
      var late = a.def ? a.late : b.late;
      if (!late || a.x.rlit === b.x.rlit) return late ? (a.def ? -1 : 1) : (a.def ? 1 : -1);
    }
    /* of two such definitions, the one whose value a hit builds in its
     * own folder (rank.c's built_near) */
    if (a.def && !!a.builtNear !== !!b.builtNear) return a.builtNear ? -1 : 1;
    /* a match that cuts a quoted value in two (lookup.c's split_quote) */
    var qa = splitQuote(a), qb = splitQuote(b);
    if (qa !== qb) return qa ? 1 : -1;
    return (b.x.rlit - a.x.rlit) ||
      (b.ev - a.ev) || (b.printedCls - a.printedCls) || (b.coverage - a.coverage) || (a.x.entry - b.x.entry);
  }
  /* of two lines of the text, by their best hits: an error's before a
   * warning's, a raised or printed line before another line's text whose
   * only record is a definition, a raised error's before a printed
   * line's, else the earlier */
  function cmpLines(a, b) {
    /* a line whose record a frame names first (rank.c's cmp_lines) */
    return ((b.siteRank >= 0) - (a.siteRank >= 0)) || (a.warn - b.warn) || (a.def - b.def) ||
      (b.raised - a.raised) || (a.pos - b.pos);
  }
  /* the order of the answers, a total one (rank.c's cmp_hit): a message
   * before its wrapper, the confident first, then the lines of the text in
   * the order of their best hits, on one line the better hit first */
  function cmpHit(a, b) {
    return (a.wraps - b.wraps) || (b.strong - a.strong) || (a.lineRank - b.lineRank) || cmpSameLine(a, b);
  }
  /* each hit's lineRank: the lines ordered by their best hits (rank.c's rank_lines) */
  function rankLines(hits) {
    var within = hits.slice().sort(function (a, b) {
      return (a.pos - b.pos) || (a.wraps - b.wraps) || (b.strong - a.strong) || cmpSameLine(a, b);
    });
    var best = within.filter(function (h, i) { return i === 0 || h.pos !== within[i - 1].pos; }), rankOf = {};
    best.sort(function (a, b) { return (a.wraps - b.wraps) || (b.strong - a.strong) || cmpLines(a, b); });
    best.forEach(function (h, r) { rankOf[h.pos] = r; });
    hits.forEach(function (h) { h.lineRank = rankOf[h.pos]; });
  }
  /* the characters of the OS error texts in message m, at most 255
   * (index.c's fl_idx_os_text_len) */
  var OS_TEXTS = ['No such file or directory', 'Permission denied', 'Is a directory', 'Not a directory',
    'File exists', 'Directory not empty', 'Too many levels of symbolic links',
    'No space left on device', 'Read-only file system', 'Operation not permitted',
    'Input/output error', 'Bad file descriptor', 'Broken pipe', 'Connection refused',
    'Connection reset by peer', 'Resource temporarily unavailable', 'Invalid argument',
    'Device or resource busy', 'No such device or address',
    'Text file busy', 'File name too long', 'Too many open files',
    'Invalid cross-device link', 'Function not implemented', 'Network is unreachable',
    'Connection timed out', 'No route to host', 'Address already in use',
    'Cannot allocate memory', 'Argument list too long', 'Exec format error',
    'No such process', 'Operation not supported'];
  function osTextLen(m) {
    var n = 0;
    OS_TEXTS.forEach(function (t) {
      for (var p = m.indexOf(t); p >= 0; p = m.indexOf(t, p + t.length)) n += t.length;
    });
    return Math.min(255, n);
  }
  function sortHits(hits) {
    rankLines(hits);
    return hits.sort(cmpHit);
  }
  /* a factory's body beside a call of it raising the same text: the body
   * is the definition (rank.c's factory_bodies) */
  function factoryBodies(hits) {
    if (hits.length < 2 || hits.length > 256) return;
    hits.forEach(function (c) {
      if (!c.x.call) return;
      hits.forEach(function (h) { if (!h.x.call && h.x.pattern === c.x.pattern) h.def = true; });
    });
  }
  /* a late definition with a hit of its text built in its own folder
   * (rank.c's built_near) */
  function builtNear(hits) {
    if (hits.length < 2 || hits.length > 256) return;
    var dir = function (p) { return (p || '').slice(0, Math.max(0, (p || '').lastIndexOf('/'))); };
    hits.forEach(function (d) {
      d.builtNear = !!d.def && !!d.late && hits.some(function (b) {
        return !b.def && b.pos === d.pos && b.x.pattern === d.x.pattern && dir(b.path) === dir(d.path);
      });
    });
  }
  function cmpScore(a, b) { return (b.score - a.score) || (b.ev - a.ev) || (a.x.entry - b.x.entry); }
  /* a value a placeholder printed that names the hit's file or folder
   * whole, as a program with a file per command prints the command's name:
   * two points (rank.c's captures_name_files) */
  function captureNamesFile(h) {
    return (h.caps || []).some(function (c) {
      var w = h.text ? h.text.slice(c[0], c[1]) : '';
      if (w.length >= 2 && (w[0] === '"' || w[0] === "'") && w[w.length - 1] === w[0]) w = w.slice(1, -1);
      return w.length >= 3 && w.length <= 40 && /^[A-Za-z0-9_-]+$/.test(w) && wordVsPath(lower(w), lower(h.path || ''), false) === 2;
    });
  }
  /* scores: confident hits in [0.9, 1), the others below as their
   * information and coverage say, or no answer under 0.4 */
  function rank(hits) {
    hits.forEach(function (h) { if (captureNamesFile(h)) h.ev += 2; });
    nearby(hits);
    factoryBodies(hits);
    builtNear(hits);
    var out = [];
    sortHits(hits).forEach(function (h) {
      if (h.strong) {
        h.score = Math.min(0.999, 0.9 + 0.06 * Math.min(1, h.x.rlit / 200) + 0.02 * h.coverage + 0.019 * Math.min(1, h.ev / 10));
      } else {
        var cov = Math.min(1, h.coverage / 0.5);
        h.score = h.info >= 1 ? 0.4 + 0.499 * cov : 0.899 * h.info * cov;
        if (h.score < 0.4) return;
      }
      if (out.length && h.score > out[out.length - 1].score) h.score = out[out.length - 1].score;
      out.push(h);
    });
    return out;
  }

  /* ---- the tiers: lookup.c ------------------------------------------------- */
  /* a hit inside a banner's placeholder on its line, not confident alone,
   * still ranks before the banner with this much information */
  var WRAPPED_INFO_MIN = 0.5;
  var HELP_ENDS = ['for more information', 'for more info', 'for details', 'for more details', 'for usage',
    'for a list', 'for help', 'for the list'];
  var BANNER_WORDS = ['error', 'errors', 'fatal', 'warning', 'warn', 'exception', 'panic', 'err', 'failure', 'critical',
    'uncaught', 'unhandled', 'caught', 'line', 'file', 'column', 'col'];
  async function staticSearch(text, repo, limit) {
    var sum = await getJSON(D + 'search/summary.json');
    var N = sum.entryCount, W = sum.weightScale || 100, C = sum.metaChunk || 2000;
    var unit = Math.log((N + 1) / 2) + 1;
    var q = normalize(cutLines(utf8(text)));
    function meta(ix) {
      return getJSON(D + 'search/meta/' + Math.floor(ix / C) + '.json').then(function (a) { return a[ix % C]; });
    }
    /* what lookup.c's index keeps of a record, and of its first line when
     * its message has several (index.c's add_part), once per page */
    function entry(ix, e) {
      /* the pattern as matched: without the blank lines and spaces the
       * message starts with (index.c) */
      var raw = utf8(e.pattern), pat = raw.replace(/^[\n\r \t]+/, '') || raw;
      var prog = parseProg(pat), msg = utf8(e.msg), tags = e.tags || [];
      /* index.c's flags: a warning's record (below an error's), the
       * text's definition (a class, a template), a factory's call */
      var warn = !!e.sev && ['error', 'fatal', 'critical'].indexOf(e.sev) < 0;
      var def = tags.indexOf('definition') >= 0, call = !def && tags.indexOf('factory-call') >= 0;
      var raised = e.type === 'exception' || e.type === 'panic'; /* not printed or logged */
      var x = { ix: ix, entry: ix, meta: e, pattern: pat, prog: prog, loose: loosePattern(pat), looseWs: loosePattern(pat, 1), looseSegs: loosePattern(pat, 2), literal: prog ? prog.literal : Math.min(64, factorRun(pat).length),
                msg: msg, cls: e.cls ? utf8(e.cls) : '', norm: norms[ix] / W, part: null, warn: warn, def: def, call: call, raised: raised };
      /* the literal a hit ranks on: without the OS error texts its
       * message quotes (index.h's fl_idx_rank_literal) */
      x.rlit = Math.max(0, x.literal - osTextLen(e.msg ? utf8(e.msg) : ''));
      var pl = raw.split('\n'), ml = msg.split('\n'), k, p; /* index.c's add_part: the stored pattern's lines */
      for (k = 0; pl.length > 1 && pl.length === ml.length && k + 1 < pl.length; k++) {
        if (!(p = skipSpaces(pl[k]))) continue;
        if ((prog = parseProg(p)) && prog.literal >= 12)
          x.part = { ix: ix, entry: N + ix, whole: x, meta: e, pattern: p, prog: prog, literal: prog.literal,
                     msg: msg, cls: x.cls, toks: tokens(skipSpaces(ml[k]), 256), norm: null, warn: warn, def: def, call: call, raised: raised,
                     rlit: Math.max(0, prog.literal - osTextLen(ml[k])) };
        break;
      }
      [x, x.part].forEach(function (y) {
        if (!y) return;
        y.factor = shortFactor(y);
        y.maxlen = y.prog && y.prog.segs.length === 1 && !y.prog.gaps[0] ? y.literal + y.prog.gaps[1] : 0;
      });
      return x;
    }
    async function entries(ixs, everyRepo) {
      var es = await Promise.all(ixs.map(meta));
      return ixs.map(function (ix, k) { return known[ix] || (known[ix] = entry(ix, es[k])); })
        .filter(function (x) { return everyRepo || !repo || x.meta.repo === repo; });
    }
    function postings(toks) {
      return Promise.all(toks.map(function (t) {
        var k = text16(t);
        return getJSON(D + 'search/tokens/' + hex2(fnv(t) % 256) + '.json').then(function (s) {
          return Object.prototype.hasOwnProperty.call(s, k) ? s[k] : null;
        }, function () { return null; });
      }));
    }
    /* the file of each hit's record (errors/{id}.json), and its evidence */
    async function withEvidence(hits) {
      var recs = await Promise.all(hits.map(function (h) {
        return getJSON(D + 'errors/' + h.x.meta.id + '.json').then(function (d) { return d.record; }, function () { return null; });
      }));
      hits.forEach(function (h, k) {
        h.rec = recs[k];
        h.path = recs[k] && recs[k].filePath ? utf8(recs[k].filePath) : '';
        h.ev = evidence(h.x, h.path, q);
        h.prog = programNames(q, h.path, h.x.meta.repo);
        h.siteRank = siteRank(h.rec, h.path, q);
        h.ev += h.siteRank >= 0 ? 1 : 0;
        h.capEv = namedCaptures(h);
        h.ev += h.capEv;
      });
      return hits;
    }
    var norms = await getJSON(D + 'search/norms.json');

    /* an error code named in the text */
    var words = q.codes.slice(), re = /(^|[^A-Za-z0-9_])([A-Z][A-Z0-9_]{2,126})(?![A-Za-z0-9_])/g, m;
    while ((m = re.exec(q.clean)) && words.length < 512) words.push(m[2]);
    var hits = [], type = 'exact-code';
    if (words.length) {
      var codes = await getJSON(D + 'search/codes.json'), ixs = [], posOf = {};
      /* the message that holds the code as a word, else one past the
       * last: the lines keep their order (lookup.c's code_pos) */
      var codePos = function (w) {
        for (var k = 0; k < q.messages.length; k++) {
          var m = q.messages[k], i = -1;
          while ((i = m.indexOf(w, i + 1)) >= 0)
            if ((i === 0 || !/[A-Za-z0-9]/.test(m[i - 1])) && !/[A-Za-z0-9]/.test(m[i + w.length] || '')) return k;
        }
        return q.messages.length;
      };
      /* an errno name names no record (lookup.c's errno_name) */
      var ERRNO = ['ENOENT', 'EACCES', 'EPERM', 'EEXIST', 'EISDIR', 'ENOTDIR', 'ENOTEMPTY', 'ELOOP',
        'ENOSPC', 'EROFS', 'EIO', 'EBADF', 'EPIPE', 'ECONNREFUSED', 'ECONNRESET', 'EAGAIN',
        'EINVAL', 'EBUSY', 'ENXIO', 'ENODEV', 'ETXTBSY', 'ENAMETOOLONG', 'EMFILE', 'ENFILE',
        'EXDEV', 'ENOSYS', 'ENETUNREACH', 'ETIMEDOUT', 'EHOSTUNREACH', 'EADDRINUSE', 'ENOMEM',
        'E2BIG', 'ENOEXEC', 'ESRCH', 'ENOTSUP', 'EOPNOTSUPP', 'ENOTCONN', 'EINTR'];
      words.forEach(function (w) {
        if (ERRNO.indexOf(w) < 0 && Object.prototype.hasOwnProperty.call(codes, w)) codes[w].forEach(function (ix) {
          if (ixs.indexOf(ix) < 0) { ixs.push(ix); posOf[ix] = codePos(w); }
        });
      });
      hits = await withEvidence((await entries(ixs)).map(function (x) {
        return { x: x, score: 1, pos: posOf[x.ix], coverage: 0, strong: false, covers: false, wraps: false, warn: false, raised: false, def: false,
                 lenient: false, caps: [] };
      }));
      sortHits(hits);
      /* of one line's hits, those whose message shares more words with
       * the text first, the order kept among equals; the lines keep
       * theirs (lookup.c's sort_by_words) */
      var shared = function (msg) {
        var seen = [], n = 0, t = lower(q.clean);
        (msg.match(/[A-Za-z]+/g) || []).forEach(function (w) {
          w = lower(w);
          if (w.length < 4 || w.length >= 32 || seen.indexOf(w) >= 0 || seen.length >= 16) return;
          seen.push(w);
          if (new RegExp('(^|[^a-z])' + w + '(?![a-z])').test(t)) n++;
        });
        return n;
      };
      hits = hits.map(function (h, k) { return { h: h, k: k, w: shared(h.x.msg) }; })
        .sort(function (a, b) { return a.h.pos !== b.h.pos ? a.k - b.k : (b.w - a.w) || (a.k - b.k); }).map(function (e) { return e.h; });
    }
    if (!hits.length) {
      hits = await patternTier();
      type = 'pattern';
      if (hits.length && !hits[0].strong && !q.informational) {
        var ents = hits.map(function (h) { return h.x.entry; });
        /* a help pointer follows the error a pattern hit matched; merged
         * by score, on a tie the pattern hit first, and the pattern hits
         * in rank's order (lookup.c's add_fuzzy) */
        var fz = (await fuzzyTier()).filter(function (h) { return ents.indexOf(h.x.entry) < 0 && !helpHint(h.x.msg); }).sort(cmpScore);
        var merged = [], a = 0, b = 0;
        while (a < hits.length || b < fz.length)
          merged.push(b >= fz.length || (a < hits.length && hits[a].score >= fz[b].score) ? hits[a++] : fz[b++]);
        hits = merged;
      }
      if (hits.length && hits[0].fuzzy) type = 'fuzzy';
    }
    if (!hits.length && !q.informational) {
      hits = await fuzzyTier();
      type = 'fuzzy';
    }
    return hits.slice(0, limit).map(function (h) {
      var e = h.x.meta;
      return { id: e.id, repo: e.repo, slug: e.slug, code: e.code, message: e.msg, score: h.score,
               matchType: h.fuzzy ? 'fuzzy' : type, filePath: h.rec ? h.rec.filePath : undefined,
               lineNumber: h.rec ? h.rec.lineNumber : undefined,
               captures: h.caps.map(function (c) { return text16(h.text.slice(c[0], c[1])); }) };
    });

    /* every message of the text, then the whole text, against every
     * record as explain does when the data set is small (opts.allChunks
     * meta chunks at most), else against those sharing most of their words
     * with it, or two rare ones (a multi-line message's first line): the
     * 300 sharing the most weight */
    async function patternTier() {
      var texts = q.messages.slice(), cands = [], k;
      if (texts.indexOf(q.clean) < 0) texts.push(q.clean);
      var raws = q.raw.filter(Boolean);
      /* the classes a stack names, for the records that know only their
       * class (lookup.c's class_at_frames) */
      var clss = q.sites.length ? q.classes.filter(function (c) { return c && !/[.:$]/.test(c); }) : [];
      if (Math.ceil(N / C) <= opts.allChunks) for (k = 0; k < N; k++) cands.push(k);
      else cands = await likely(texts.concat(raws, clss));
      var joined = texts.concat(raws, clss).join('\n');
      function may(x) { /* its longest literal segment (of its loose pattern) is in the text */
        var p = x.looseSegs ? parseProg(x.looseSegs) || x.prog : x.prog;
        return !p || joined.indexOf(p.segs.reduce(function (a, b) { return b.length > a.length ? b : a; })) >= 0;
      }
      var xs = [], parts = [], es = await entries(cands, true), bounded = {};
      /* a short pattern is bounded when every one found by its window is */
      es.forEach(function (x) {
        [x, x.part].forEach(function (y) { if (y && y.factor) bounded[y.factor] = bounded[y.factor] !== false && y.maxlen > 0; });
      });
      es.forEach(function (x) {
        [x, x.part].forEach(function (y) { if (y) y.bound = bounded[y.factor] ? y.maxlen : 0; });
        if (repo && x.meta.repo !== repo) return;
        if (may(x)) xs.push(x);
        if (x.part && may(x.part)) parts.push(x.part);
      });
      await Promise.all(parts.map(function (p) {
        return p.norm !== null || postings(p.toks).then(function (ps) {
          p.norm = ps.reduce(function (s, w) { return s + (w ? w[0] / W : 0); }, 0);
        });
      }));
      xs = xs.concat(parts);
      var hits = [], done = {}, failed = [];
      function tryText(t, ti) {
        xs.forEach(function (x) {
          if (done[x.entry]) return;
          var h = confirm(x, t);
          /* Python's %(value)r, literal in the stored pattern: its loose
           * pattern, a lenient hit (lookup.c's try_factor) */
          if (!h && x.loose && (h = confirm(x, t, x.loose))) h.lenient = true;
          if (h) { done[x.entry] = 1; h.pos = ti; hits.push(h); }
          else if (x.literal >= 12 && factorSeen(x, t)) failedAdd(failed, x, ti);
        });
      }
      texts.forEach(function (t, ti) {
        tryText(t, ti);
        /* the line as printed, for records that hold its prefix */
        if (ti < q.raw.length && q.raw[ti]) tryText(q.raw[ti], ti);
      });
      /* a record that knows only its class, its text made elsewhere, is
       * the answer to a stack that names its class and whose frame names
       * its line, on the first message's line (lookup.c's
       * class_at_frames) */
      var byClass = [];
      await withEvidence(hits);
      /* a message matched at a line a frame of the error printed names:
       * answered already; one matched only at a frame of another error
       * of a chain (a cause's traceback) leaves the error printed to a
       * record of its class at a frame of its own stack.  The data set
       * holds a record's own line only: a frame that names one of its
       * other lines is evidence to explain alone (rank.c's
       * site_names_entry) */
      var best = Infinity, whole = false;
      hits.forEach(function (h) {
        if (h.siteRank >= 0 && h.siteRank < best) best = h.siteRank;
        /* a record of the whole message printed that no frame names:
         * the message has its record (not its definition: the frame
         * names the raise) */
        judge(h, q, unit);
        if (h.siteRank < 0 && h.strong && h.covers && !h.def) whole = true;
      });
      if (best < q.sitesBlock || whole) clss = [];
      clss.forEach(function (c) {
        xs.forEach(function (x) {
          if (done[x.entry] || !x.cls || x.msg !== c || !classIs(x.cls, c)) return;
          var h = confirm(x, c);
          if (h) { done[x.entry] = 1; h.pos = 0; byClass.push(h); }
        });
      });
      await withEvidence(byClass);
      byClass.forEach(function (h) {
        if (h.siteRank >= 0 && (best === Infinity || h.siteRank < q.sitesBlock)) hits.push(h);
        else done[h.x.entry] = 0;
      });
      await withEvidence(hits);
      hits.forEach(function (h) {
        judge(h, q, unit);
        if (h.pos === q.messages.length) h.pos = posOfLine(h.at);
      });
      if (!q.informational) (await lenientPass(hits, failed)).forEach(function (h) { done[h.x.entry] = 1; });
      /* a line's part whose whole record matched too is dropped */
      hits = hits.filter(function (h) { return !h.x.whole || !done[h.x.whole.entry]; });
      markWrappers(hits);
      markQuoting(hits);
      return rank(hits);
    }
    /* A placeholder that printed nothing fails the stored pattern, whose
     * (.+?) needs a character: when no confident hit spans its line, the
     * entries whose literal was found but whose pattern failed, and the
     * fuzzy tier's best 8 of each of the first 4 messages, each of those
     * messages that no confident hit spans, are tried on
     * their message with (.*?) (lookup.c's lenient_pass); a match is a
     * pattern hit after the exact ones.  Returns the hits added. */
    async function lenientPass(hits, failed) {
      var added = [], ti, answered = []; /* the messages a confident hit spans */
      hits.forEach(function (h) { if (h.strong && h.covers && h.pos < 20) answered[h.pos] = true; });
      function attempt(x, ti) {
        var pat = x.looseWs || x.pattern;
        if (ti >= q.messages.length || pat.indexOf('(.+?)') < 0) return;
        /* an answer once, at its first message */
        if (hits.some(function (h) { return h.x.entry === x.entry; })) return;
        var h = confirm(x, q.messages[ti], pat.split('(.+?)').join('(.*?)'));
        if (!h) return;
        h.pos = ti;
        h.lenient = true;
        hits.push(h);
        added.push(h);
      }
      failed.forEach(function (f) { if (f.pos < 20 && !answered[f.pos]) attempt(f.x, f.pos); });
      for (ti = 0; ti < q.messages.length && ti < 4; ti++)
        if (!answered[ti]) (await fuzzyText(q.messages[ti])).slice(0, 8).forEach(function (h) { attempt(h.x, ti); });
      await withEvidence(added);
      added.forEach(function (h) { judge(h, q, unit); });
      return added;
    }
    /* a hit wraps a message (ranks after it) when a placeholder of it
     * captured the whole of a message another confident hit matches, it
     * is the first line alone of a multi-line record (a banner) with a
     * later line matching another record, or it points to the program's
     * help after an earlier line that tells something (lookup.c's
     * mark_wrappers) */
    function markWrappers(hits) {
      hits.forEach(function (a) { a.wraps = false; });
      if (hits.length < 2 || hits.length > 256) return;
      hits.forEach(function (a) {
        if (helpHint(a.x.msg))
          a.wraps = hits.some(function (b) {
            /* (not after a definition's text alone: the runtime may say
             * "flag provided but not defined" as the program's Error()
             * method does) */
            return b.pos < a.pos && !b.def && (b.strong || b.info >= WRAPPED_INFO_MIN) && !helpHint(b.x.msg);
          });
        if (a.x.whole && !a.wraps) {
          /* a record ending with a line that is a placeholder alone wraps
           * any message, another record's first line too */
          var any = endsWithPlaceholder(a.x.whole.msg);
          /* (not when a frame names a's line and none b's: a raised what
           * was printed, b is the cause it quotes) */
          a.wraps = hits.some(function (b) {
            return b.strong && b.pos > a.pos && !(a.siteRank >= 0 && !(b.siteRank >= 0)) &&
              (any || !b.x.whole) && (b.x.whole || b.x) !== a.x.whole;
          });
        }
        a.caps.forEach(function (c) {
          var cap = a.text.slice(c[0], c[1]);
          a.wraps = a.wraps || hits.some(function (b) {
            if (b === a) return false;
            /* a frame names a's line and none b's: a raised it */
            if (a.siteRank >= 0 && !(b.siteRank >= 0)) return false;
            /* b says nothing of its own: an OS error's text (lookup.c's
             * OWN_LITERAL_MIN) */
            if (b.x.rlit < 6) return false;
            if (b.pos === a.pos) {
              /* on the same line: b's message inside the placeholder of a
               * banner, or of a line that prints an error value b made
               * (b raised; a line that raises is no banner, but an Error()
               * method's text around another error's only formats it;
               * nor when the text's evidence points at b's file more
               * than at a's: a raise of a's words outside the tree
               * printed it). A banner that says nothing of its own: b need
               * only be informative */
              if (!b.strong && (b.info < WRAPPED_INFO_MIN || !bannerOnly(a.x.msg))) return false;
              /* (the evidence of the text, not of values named like
               * their placeholders) */
              return holdsOnLine(a, c, b) && (!a.raised || a.def || b.ev - (b.capEv || 0) > a.ev - (a.capEv || 0)) &&
                (b.raised || bannerOnly(a.x.msg));
            }
            if (!b.strong) return false;
            var m = b.pos !== a.pos && q.messages[b.pos];
            return !!m && m.length <= cap.length && cap.indexOf(m) >= 0;
          });
        });
      });
    }
    /* does a's placeholder c, on b's line, hold b's text: b's last literal
     * run inside it, or (one matched the line as printed, the other its
     * message) a's placeholder ending with b's line from b's match on
     * (lookup.c's holds_on_line) */
    function holdsOnLine(a, c, b) {
      var l = lastLiteral(b), cap = a.text.slice(c[0], c[1]);
      var rest = b.text.slice(b.at).split('\n')[0];
      var inside = b.text === a.text ? l[0] >= c[0] && l[1] <= c[1] : rest.length > 0 && cap.endsWith(rest);
      return inside && l[1] > l[0];
    }
    /* a raise whose last placeholder holds, on its line, the whole text of
     * another confident hit, from the placeholder's start, quotes that
     * message in its own ('invalid config: %s' % e around PyYAML's "while
     * parsing a flow node"): the text printed is its own; confident, first
     * on its line, when its own words are informative enough to be no
     * coincidence; not around a raise of its own class, whose reason its
     * placeholder takes (lookup.c's mark_quoting) */
    function markQuoting(hits) {
      hits.forEach(function (a) { a.quotes = false; a.quotesErr = false; });
      if (hits.length < 2 || hits.length > 256) return;
      hits.forEach(function (a) {
        if (!a.raised || a.def || a.wraps || !a.text || !a.caps.length || a.info < WRAPPED_INFO_MIN) return;
        var c = a.caps[a.caps.length - 1];
        /* (or ending its line, advice on the next lines after it) */
        var eol = c[1] < a.end && a.text[c[1]] === '\n';
        if ((c[1] < a.end && !eol) || c[0] >= c[1]) return;
        a.quotes = hits.some(function (b) {
          if (b === a || !b.strong || b.pos !== a.pos) return false;
          var same = b.text === a.text;
          if (!same && !eol) return false;
          if (a.x.cls && a.x.cls === b.x.cls) return false;
          /* b's whole match, from the placeholder's start (a quote before
           * it aside): the placeholder is b's message */
          var cs = c[0];
          if (same && cs < b.at && b.at - cs === 1 && '"\'`'.indexOf(a.text[cs]) >= 0) cs++;
          return (!same || b.at === cs) && holdsOnLine(a, c, b);
        });
        if (a.quotes) {
          a.strong = true;
          a.quotesErr = quotesAsError(a);
        }
      });
    }
    /* is the last placeholder of a's message named for an error ({exc},
     * {te.args[0]}, Go's %w)?  (lookup.c's quotes_as_error) */
    function quotesAsError(a) {
      var fields = a.x.msg.match(/\{[^{}]*\}|%[-+ #0-9.]*[a-zA-Z]/g) || [], f, words;
      if (!fields.length || fields.length !== a.caps.length) return false;
      f = fields[fields.length - 1];
      if (f === '%w') return true;
      if (f[0] !== '{') return false;
      words = f.match(/(^|[^!:A-Za-z0-9_])[A-Za-z0-9_]+/g) || [];
      return words.some(function (w) {
        return /^(e|ex|exc|err|error|exception|cause|args)$/i.test(w.replace(/^[^A-Za-z0-9_]/, ''));
      });
    }
    /* does msg point to the program's help ("try 'curl --help' or 'curl
     * --manual' for more information", "Run 'go help %s' for details.")?
     * Such a line follows the error it is printed for */
    function helpHint(msg) {
      var l = lower(msg);
      if (l.indexOf('help') < 0 || l.indexOf('\n') >= 0) return false;
      return HELP_ENDS.some(function (e) { return l.indexOf(e) >= 0; });
    }
    /* does msg's last line with text hold a placeholder alone ("{msg}",
     * "${getErrorMessage(error)}", "%s")? */
    function endsWithPlaceholder(msg) {
      var n = msg.length, s, l, i;
      while (n && (msg[n - 1] === '\n' || msg[n - 1] === ' ' || msg[n - 1] === '\t')) n--;
      for (s = n; s && msg[s - 1] !== '\n'; s--);
      while (s < n && (msg[s] === ' ' || msg[s] === '\t')) s++;
      l = msg.slice(s, n);
      if (l.length >= 2 && l[l.length - 1] === '}' && (l[0] === '{' || ((l[0] === '$' || l[0] === '#') && l[1] === '{'))) {
        for (i = 1; i + 1 < l.length; i++) if (l[i] === '}' && l[i + 1] !== ')' && l[i + 1] !== '}') return false;
        return true;
      }
      return l.length === 2 && l[0] === '%' && /[A-Za-z]/.test(l[1]);
    }
    /* where the last literal part of h's match lies in its text, [start,
     * end) (a leading placeholder may have swallowed text before it) */
    function lastLiteral(h) {
      var end = h.end, k = h.caps.length, ls = h.at;
      while (k > 0 && h.caps[k - 1][1] === end && h.caps[k - 1][0] < end) { end = h.caps[k - 1][0]; k--; }
      for (var i = 0; i < k; i++) if (h.caps[i][1] <= end && h.caps[i][1] > ls) ls = h.caps[i][1];
      return [ls, end];
    }
    /* a message whose literal words only say that an error happened and
     * where: short words, level words, the program's name before ':' */
    function bannerOnly(msg) {
      var toks = tokens(msg, 32), first = /^[A-Za-z0-9_-]*/.exec(msg)[0].length;
      var named = first > 0 && msg[first] === ':';
      if (toks.length >= 32) return false;
      return toks.every(function (t, i) {
        return t.length <= 2 || (i === 0 && named && t.length === first) || BANNER_WORDS.indexOf(t) >= 0;
      });
    }
    async function likely(texts) {
      var seen = Object.create(null), inter = {};
      texts.forEach(function (t) { tokens(t, 4096).forEach(function (k) { seen[k] = 1; }); });
      (await postings(Object.keys(seen))).forEach(function (p) {
        if (p) p[1].forEach(function (ix) { inter[ix] = (inter[ix] || 0) + p[0]; });
      });
      function whole(ix) { return inter[ix] >= 0.9 * norms[ix]; }
      return Object.keys(inter).map(Number).filter(function (ix) { return inter[ix] >= Math.min(0.5 * norms[ix], 2 * unit * W); })
        .sort(function (a, b) { return whole(b) - whole(a) || inter[b] - inter[a] || a - b; }).slice(0, 300);
    }
    /* the message whose text is the line of the whole text at offset at */
    function posOfLine(at) {
      var c = q.clean, ls = at ? c.lastIndexOf('\n', at - 1) + 1 : 0, le = c.indexOf('\n', at);
      var k = q.messages.indexOf(c.slice(ls, le < 0 ? c.length : le));
      return k < 0 ? q.messages.length : k;
    }
    /* idf-weighted word overlap with the first of the first four messages
     * that has an answer: at least 0.4, and sharing the weight of a rare
     * word and a middling one */
    async function fuzzyTier() {
      var texts = q.messages.length ? q.messages.slice(0, 4) : [q.clean], hits = [];
      for (var i = 0; i < texts.length && !hits.length; i++) hits = await fuzzyText(texts[i]);
      return hits;
    }
    async function fuzzyText(text) {
      var toks = tokens(text, 128), qn = 0, inter = {}, ixs = [];
      if (!toks.length || !N) return [];
      (await postings(toks)).forEach(function (p) {
        var w = p ? p[0] / W : Math.log(N + 1) + 1;
        qn += w;
        if (p) p[1].forEach(function (ix) { inter[ix] = (inter[ix] || 0) + w; });
      });
      Object.keys(inter).forEach(function (ix) {
        var x = inter[ix], s = x / (qn + norms[ix] / W - x);
        if (s >= 0.4 && x >= 1.8 * unit) ixs.push(+ix);
      });
      var hits = await withEvidence((await entries(ixs)).map(function (x) {
        var s = inter[x.ix] / (qn + x.norm - inter[x.ix]);
        return { x: x, score: s >= 0.9 ? 0.899 : s, fuzzy: true, caps: [] };
      }));
      return hits.sort(cmpScore);
    }
  }

  var apiState = null; /* null unknown, true, false */
  async function apiSearch(text, repo, limit) {
    if (apiState === false) return null;
    try {
      var u = '/api/search?q=' + encodeURIComponent(text) + '&repo=' + encodeURIComponent(repo) + '&limit=' + limit;
      var r = await fetch(u, { headers: { Accept: 'application/json' } });
      var ct = r.headers.get('content-type') || '';
      if (!r.ok || ct.indexOf('json') < 0) { apiState = false; return null; }
      var j = await r.json();
      if (!j || !Array.isArray(j.matches)) { apiState = false; return null; }
      apiState = true;
      return j.matches;
    } catch (e) { apiState = false; return null; }
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function render(list, matches, source) {
    list.textContent = '';
    matches.forEach(function (m) {
      var li = el('li');
      li.appendChild(el('span', 'score', Math.round(m.score * 100) + '% · ' + m.matchType));
      var a = el('a', 'title');
      a.href = '/errors/' + encodeURIComponent(m.id) + '/';
      if (m.code) { a.appendChild(el('code', null, m.code)); a.appendChild(document.createTextNode(' ')); }
      a.appendChild(document.createTextNode(m.message));
      li.appendChild(a);
      var meta = m.repo + (m.filePath ? ' · ' + m.filePath + (m.lineNumber ? ':' + m.lineNumber : '') : '');
      if (m.captures && m.captures.length) meta += ' · values: ' + m.captures.join(', ');
      li.appendChild(el('div', 'meta', meta));
      list.appendChild(li);
    });
    list.setAttribute('data-source', source);
  }

  async function run(text, repo) {
    var status = document.getElementById('status'), list = document.getElementById('results');
    text = text.trim();
    if (!text) { status.textContent = ''; list.textContent = ''; return; }
    status.textContent = 'Searching…';
    var limit = 20, source = 'api';
    var matches = await apiSearch(text, repo, limit);
    if (!matches) {
      source = 'static';
      try { matches = await staticSearch(text, repo, limit); }
      catch (e) { status.textContent = 'Search failed: ' + e.message; return; }
    }
    render(list, matches, source);
    status.textContent = matches.length ? matches.length + (matches.length === 1 ? ' match' : ' matches')
      : 'No confident match. Try the exact message, without values specific to your run.';
  }

  /* under node (tests/site/static_search.cjs): the static search alone */
  if (typeof module === 'object' && module.exports) module.exports = { staticSearch: staticSearch, normalize: normalize, options: opts };
  if (typeof document === 'undefined') return;
  document.addEventListener('DOMContentLoaded', function () {
    var form = document.getElementById('search-form');
    if (!form) return;
    var q = document.getElementById('q'), repo = document.getElementById('repo');
    var params = new URLSearchParams(location.search);
    if (params.get('q')) q.value = params.get('q');
    if (params.get('repo')) repo.value = params.get('repo');
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var p = new URLSearchParams();
      p.set('q', q.value);
      if (repo.value) p.set('repo', repo.value);
      history.replaceState(null, '', '?' + p.toString());
      run(q.value, repo.value);
    });
    q.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
    });
    if (q.value) run(q.value, repo.value);
  });
})();
