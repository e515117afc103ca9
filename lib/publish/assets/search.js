/* faultline search: the HTTP API when served by `faultline serve`,
 * else the static search/ shards of the data set (dataset.md, lookup.md). */
(function () {
  'use strict';
  var D = '/data/';
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
        k = i + 1;
        while (k < n && s.charCodeAt(k) !== c && s[k] !== '\n') k++;
        if (k < n && s.charCodeAt(k) === c) { m.fill(1, i, k + 1); i = k; continue; }
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
  function tokens(text) {
    var m = blank(text), out = [], seen = {}, i = 0, n = text.length;
    while (i < n && out.length < 256) {
      while (i < n && (m[i] || !isLetter(text.charCodeAt(i)))) i++;
      var st = i;
      while (i < n && !m[i] && isLetter(text.charCodeAt(i))) i++;
      if (i - st < 2) continue;
      var t = text.slice(st, i).replace(/[A-Z]/g, function (x) { return x.toLowerCase(); });
      if (!seen[t]) { seen[t] = 1; out.push(t); }
    }
    return out;
  }
  function fnv(s) {
    var b = new TextEncoder().encode(s), h = 0x811c9dc5;
    for (var i = 0; i < b.length; i++) { h ^= b[i]; h = Math.imul(h, 0x01000193) >>> 0; }
    return h >>> 0;
  }
  function hex2(n) { return (n < 16 ? '0' : '') + n.toString(16); }
  function literalLength(p) {
    return p.replace(/\(\.\+\?\)/g, '').replace(/\\(.)/g, '$1').length;
  }

  async function staticSearch(text, repo, limit) {
    var sum = await getJSON(D + 'search/summary.json');
    var N = sum.entryCount, W = sum.weightScale || 100, C = sum.metaChunk || 2000;
    var hits = {};
    var codeCands = text.match(/\b[A-Z][A-Z0-9_]{2,}\b|\bE[A-Z]+\b|\bE\d{4}\b/g) || [];
    if (codeCands.length) {
      var codes = await getJSON(D + 'search/codes.json');
      codeCands.forEach(function (c) {
        if (Object.prototype.hasOwnProperty.call(codes, c))
          codes[c].forEach(function (ix) { hits[ix] = { score: 1, matchType: 'exact-code', captures: [] }; });
      });
    }
    var qt = tokens(text), qn = 0, inter = {};
    var shards = await Promise.all(qt.map(function (t) {
      return getJSON(D + 'search/tokens/' + hex2(fnv(t) % 256) + '.json').catch(function () { return {}; });
    }));
    var norms = qt.length ? await getJSON(D + 'search/norms.json') : [];
    qt.forEach(function (t, i) {
      var p = Object.prototype.hasOwnProperty.call(shards[i], t) ? shards[i][t] : null;
      var w = p ? p[0] : Math.round((Math.log(N + 1) + 1) * W);
      qn += w;
      if (p) p[1].forEach(function (ix) { inter[ix] = (inter[ix] || 0) + w; });
    });
    var fuzzy = Object.keys(inter).map(function (ix) {
      var x = inter[ix];
      return [+ix, x / (qn + norms[ix] - x)];
    }).sort(function (a, b) { return b[1] - a[1]; });
    var cands = fuzzy.slice(0, 300).map(function (f) { return f[0]; });
    Object.keys(hits).forEach(function (ix) { cands.push(+ix); });
    var chunks = {};
    cands.forEach(function (ix) { chunks[Math.floor(ix / C)] = 1; });
    var metas = {};
    await Promise.all(Object.keys(chunks).map(function (k) {
      return getJSON(D + 'search/meta/' + k + '.json').then(function (arr) { metas[k] = arr; });
    }));
    function meta(ix) { return metas[Math.floor(ix / C)][ix % C]; }
    fuzzy.slice(0, 300).forEach(function (f) {
      var ix = f[0], e = meta(ix);
      if (hits[ix]) return;
      var re = null, m = null;
      try {
        re = new RegExp(e.pattern);
        m = re.exec(text);
        /* a trailing (.+?) captures one character unless the match is
         * anchored at the end of the line: prefer that reading */
        var full = m && new RegExp('(?:' + e.pattern + ')$', 'm').exec(text);
        if (full) m = full;
      } catch (err) { m = null; }
      if (m) {
        var lit = literalLength(e.pattern);
        hits[ix] = { score: 0.9 + 0.0999 * Math.min(1, lit / Math.max(1, m[0].length)),
                     matchType: 'pattern', captures: m.slice(1) };
      } else if (f[1] >= 0.4) {
        hits[ix] = { score: Math.min(0.899, f[1]), matchType: 'fuzzy', captures: [] };
      }
    });
    var out = Object.keys(hits).map(function (ix) {
      var e = meta(+ix), h = hits[ix];
      return { id: e.id, repo: e.repo, slug: e.slug, code: e.code, message: e.msg,
               score: h.score, matchType: h.matchType, captures: h.captures };
    }).filter(function (r) { return !repo || r.repo === repo; });
    out.sort(function (a, b) { return b.score - a.score || (a.id < b.id ? -1 : 1); });
    return out.slice(0, limit);
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
