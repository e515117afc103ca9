// Preload loaded after hook.js (only when $RE_HOOK_OUT is set, by the
// `yarnpkg` wrapper that yarn.conf writes first on PATH), to VERIFY yarn's
// cases. Debian's yarnpkg runs /usr/share/nodejs/yarn/lib/**/*.js, babel's
// output of the repository's src/**/*.js (other line numbers), each with a
// source map (FILE.js.map, sourceRoot ../src, sourcesContent = Debian's
// src/ file, which for 54 files carries Debian's patches). Like
// less-hook.js, this hook makes Error.prepareStackTrace an accessor: the
// function hook.js sets there gets stand-ins for V8's call sites whose
// getFileName/getLineNumber give, for a frame in lib/ with a map,
// (1) the original line of the generated line AND column (node's
// module.SourceMap findEntry) in Debian's src/ file, then (2) through the
// table yarn-linemap.py wrote ($RE_YARN_LINEMAP: {"src/REL.js": [tag line
// or 0 per Debian line]}), the tag's line in /tmp/re/src/yarn/src/REL.js.
// A line Debian changed (0 in the table) is named
// /tmp/re/work-yarn/debian-patched/src/REL.js, outside PREFIXMAP: never a
// case's line. A frame without a mapping keeps its lib/ name (no
// repository file: resolve.py ignores it).
'use strict';
const fs = require('fs');
const path = require('path');
const out = process.env.RE_HOOK_OUT;
const PKG = '/usr/share/nodejs/yarn/';
const LIB = PKG + 'lib/';
const SRC = '/tmp/re/src/yarn/';
const PATCHED = '/tmp/re/work-yarn/debian-patched/';
if (out) {
  const { SourceMap } = require('module');
  let table = {};
  try { table = JSON.parse(fs.readFileSync(process.env.RE_YARN_LINEMAP, 'utf8')); } catch (e) { table = {}; }
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let m = null;
      try {
        const raw = JSON.parse(fs.readFileSync(file + '.map', 'utf8'));
        m = { sm: new SourceMap(raw), root: raw.sourceRoot || '' };
      } catch (e) { m = null; }
      maps.set(file, m);
    }
    return maps.get(file);
  };
  let busy = false;
  const remap = (file, line, col) => {
    if (busy || !file || !file.startsWith(LIB) || !line) return null;
    busy = true;
    try {
      const m = mapOf(file);
      if (!m) return null;
      let e = m.sm.findEntry(line - 1, Math.max((col || 1) - 1, 0));
      if (!e || e.generatedLine !== line - 1 || !e.originalSource) {
        e = m.sm.findEntry(line - 1, 100000);
        if (!e || e.generatedLine !== line - 1 || !e.originalSource) return null;
      }
      const abs = path.resolve(path.dirname(file), m.root, e.originalSource);
      if (!abs.startsWith(PKG)) return null;
      const rel = abs.slice(PKG.length);
      let l = e.originalLine + 1;
      if (table[rel]) {
        const t = table[rel][l - 1];
        if (!t) return [PATCHED + rel, l];
        l = t;
      }
      return [SRC + rel, l];
    } catch (x) {
      return null;
    } finally {
      busy = false;
    }
  };
  const SITE = Symbol('yarn-hook site');
  const WRAP = Symbol('yarn-hook wrapper');
  const wrapSite = (c) => {
    if (!c || c[SITE] || typeof c.getFileName !== 'function') return c;
    const w = { [SITE]: true };
    for (const k of Object.getOwnPropertyNames(Object.getPrototypeOf(c))) {
      if (k !== 'constructor' && typeof c[k] === 'function') w[k] = (...a) => c[k](...a);
    }
    const r = remap(c.getFileName(), c.getLineNumber(), c.getColumnNumber());
    if (r) {
      w.getFileName = () => r[0];
      w.getLineNumber = () => r[1];
    }
    return w;
  };
  // babel's class helpers: `new MessageError(msg)` runs through
  // @babel/runtime/helpers/{construct,wrapNativeSuper}.js and the generated
  // _createSuperInternal of lib/errors.js (no source mapping) before the
  // class's constructor; those leading frames are taken off, so that the
  // recorded stack starts in src/errors.js, as an untranspiled class's would
  const lead = (cs) => {
    let i = 0;
    while (i < cs.length - 1) {
      const f = (cs[i] && typeof cs[i].getFileName === 'function' && cs[i].getFileName()) || '';
      if (f.startsWith('/usr/share/nodejs/@babel/runtime/') || f.startsWith(LIB) || f === __filename || /\/collect\/hook\.js$/.test(f)) i++;
      else break;
    }
    // (hook.js's own frame, first, is kept: hook.js filters it)
    const h = cs.length && cs[0] && typeof cs[0].getFileName === 'function' && /\/collect\/hook\.js$/.test(cs[0].getFileName() || '') ? [cs[0]] : [];
    return i ? h.concat(cs.slice(i)) : cs;
  };
  let wrapped = Error.prepareStackTrace;
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: true,
    enumerable: false,
    get() { return wrapped; },
    set(fn) {
      if (typeof fn === 'function' && !fn[WRAP]) {
        wrapped = function (e, cs) { return fn.call(this, e, Array.isArray(cs) ? lead(cs.map(wrapSite)) : cs); };
        wrapped[WRAP] = true;
      } else {
        wrapped = fn;
      }
    },
  });
}
