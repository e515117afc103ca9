// Preload loaded after hook.js (only when $RE_HOOK_OUT is set, by the
// `node` wrapper that less.conf writes first on PATH), to VERIFY less's
// (lessc's) cases. Two things hook.js cannot do for less:
// 1. The npm package runs lib/**/*.js, compiled by tsc from the
//    repository's packages/less/src/**/*.js: other line numbers. Every
//    lib file ships its source map (FILE.js.map, "sources" pointing to
//    ../src/...). This hook makes Error.prepareStackTrace an accessor: the
//    function hook.js sets there gets stand-ins for V8's call sites whose
//    getFileName/getLineNumber give, for a frame in lib/ with a map, its
//    source file in the tag's tree (/tmp/re/src/less/packages/less/src/...)
//    and the original line of the generated line AND column (node's module.SourceMap
//    findEntry): hook.js's records (Error constructions, writes) come out
//    in source lines. A frame without a mapping keeps its lib/ name (no
//    repository file: resolve.py ignores it).
// 2. less reports most errors as plain objects (`throw { type: 'Name',
//    message: ... }`, `error(msg)` -> `throw new LessError(...)`, an ES5
//    class whose message is set after `Error.call(this)`), or rejects a
//    promise with one: hook.js's Proxy sees none of them. This hook opens an
//    in-process inspector session with Debugger.setPauseOnExceptions
//    ('all'): at every throw (caught or not) and promise rejection it
//    records {kind:'raise', cls, message, frames} with the thrown value's
//    `message` (its `type` as cls) and the paused call frames, mapped the
//    same way, then resumes. A rethrow of the same value comes later in the
//    file, so resolve.py's first-seen rule keeps the original throw.
'use strict';
const fs = require('fs');
const path = require('path');
const url = require('url');
const out = process.env.RE_HOOK_OUT;
const LIB = '/tmp/re/npm/less/node_modules/less/lib/';
const PKG = '/tmp/re/npm/less/node_modules/less/';
const SRC = '/tmp/re/src/less/packages/less/';
if (out) {
  const fd = fs.openSync(out, 'a');
  const rec = (o) => { try { fs.writeSync(fd, JSON.stringify(o) + '\n'); } catch (e) { /* ignore */ } };
  const { SourceMap } = require('module');
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let m = null;
      try { m = new SourceMap(JSON.parse(fs.readFileSync(file + '.map', 'utf8'))); } catch (e) { m = null; }
      maps.set(file, m);
    }
    return maps.get(file);
  };
  // generated (file, 1-based line, 1-based column) -> [file, line] in the tag's tree
  let busy = false;
  const remap = (file, line, col) => {
    if (busy || !file || !file.startsWith(LIB) || !line) return null;
    busy = true;
    try {
      const m = mapOf(file);
      if (!m) return null;
      let e = m.findEntry(line - 1, Math.max((col || 1) - 1, 0));
      if (!e || e.generatedLine !== line - 1 || !e.originalSource) {
        // a column before the line's first segment: the line's last segment
        e = m.findEntry(line - 1, 100000);
        if (!e || e.generatedLine !== line - 1 || !e.originalSource) return null;
      }
      let s = e.originalSource;
      s = s.startsWith('file:') ? url.fileURLToPath(s) : path.resolve(path.dirname(file), s);
      if (!s.startsWith(PKG)) return null;
      return [SRC + s.slice(PKG.length), e.originalLine + 1];
    } catch (x) {
      return null;
    } finally {
      busy = false;
    }
  };
  // 1. CallSite objects are V8's (read-only methods): Error.prepareStackTrace
  // becomes an accessor whose setter wraps the function given (hook.js's
  // frames()) so that it receives stand-ins, mapped, for the call sites
  const SITE = Symbol('less-hook site');
  const WRAP = Symbol('less-hook wrapper');
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
  let pst = Error.prepareStackTrace;
  let wrapped = pst;
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: true,
    enumerable: false,
    get() { return wrapped; },
    set(fn) {
      pst = fn;
      // (a wrapper set back, as hook.js's frames() does with the previous
      // value, is not wrapped again)
      if (typeof fn === 'function' && !fn[WRAP]) {
        wrapped = function (e, cs) { return fn.call(this, e, Array.isArray(cs) ? cs.map(wrapSite) : cs); };
        wrapped[WRAP] = true;
      } else {
        wrapped = fn;
      }
    },
  });
  // the current stack, mapped, innermost first (this file's frames left out)
  const here = () => {
    const o = {};
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 60;
    const prev = Error.prepareStackTrace;
    Error.prepareStackTrace = (e, cs) => cs.map((c) => {
      const r = remap(c.getFileName(), c.getLineNumber(), c.getColumnNumber());
      return { file: r ? r[0] : c.getFileName(), line: r ? r[1] : c.getLineNumber(), fn: c.getFunctionName() };
    });
    Error.captureStackTrace(o);
    const f = o.stack;
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prev;
    return (Array.isArray(f) ? f : []).filter((x) => x.file !== __filename && !/\/collect\/hook\.js$/.test(x.file || ''));
  };
  // 2. LessError (lib/less/less-error.js) is an ES5 class: `Error.call(this)`
  // (hook.js records an empty Error), then `this.message = e.message`. A
  // setter for `message` on its prototype records each LessError's text with
  // the stack of its construction (the `new LessError({...})` of a parse
  // error the parser hands to its callback, of a plugin loader's error...),
  // as {kind:'new', cls:'LessError'}, and keeps the text as the object's own
  // property, as the constructor would.
  try {
    const LE = require(LIB + 'less/less-error.js').default;
    if (typeof LE === 'function' && LE.prototype) {
      Object.defineProperty(LE.prototype, 'message', {
        configurable: true,
        get() { return ''; },
        set(v) {
          Object.defineProperty(this, 'message', { value: v, writable: true, enumerable: true, configurable: true });
          if (typeof v === 'string' && v) rec({ kind: 'new', cls: 'LessError', message: v, frames: here() });
        },
      });
    }
  } catch (e) { /* ignore */ }
  // 2b. A parse error's text is often not thrown where it is written: a
  // parser rule backtracks with parserInput.restore('Expected \')\'') and
  // parserInput keeps the message of the furthest such restore
  // (lib/less/parser/parser-input.js), which parse() later puts in a
  // `new LessError({ message: endInfo.furthestPossibleErrorMessage })`.
  // The factory is wrapped (parser.js calls parser_input_1.default() at
  // run time): restore() keeps, with the rule input.js uses, the stack of
  // the restore call that set the furthest message, and end() records it,
  // as {kind:'new', cls:'ParseMessage'}, when end() returns that message
  // (so before the LessError that repeats it).
  try {
    const PI = require(LIB + 'less/parser/parser-input.js');
    const make = PI.default;
    if (typeof make === 'function') {
      PI.default = function () {
        const pi = make.apply(this, arguments);
        let furthest = 0;
        let msg;
        let at = null;
        const { start, restore, end } = pi;
        pi.start = function () { furthest = 0; return start.apply(this, arguments); };
        pi.restore = function (m) {
          if (pi.i > furthest || (pi.i === furthest && m && !msg)) {
            furthest = pi.i;
            msg = m;
            at = m ? here() : null;
          }
          return restore.apply(this, arguments);
        };
        pi.end = function () {
          const r = end.apply(this, arguments);
          if (r && r.furthestPossibleErrorMessage && r.furthestPossibleErrorMessage === msg && at) {
            rec({ kind: 'new', cls: 'ParseMessage', message: msg, frames: at });
          }
          return r;
        };
        return pi;
      };
    }
  } catch (e) { /* ignore */ }
  // 3. every throw and rejection, with its message and the paused frames
  let inspector = null;
  try { inspector = require('inspector'); } catch (e) { inspector = null; }
  if (inspector && inspector.Session) {
    const session = new inspector.Session();
    session.connect();
    const urls = new Map();
    session.on('Debugger.scriptParsed', (m) => { urls.set(m.params.scriptId, m.params.url); });
    session.on('Debugger.paused', (m) => {
      try {
        const p = m.params;
        if (p.reason === 'exception' || p.reason === 'promiseRejection') {
          let message = null;
          let cls = p.data && (p.data.className || p.data.type);
          const d = p.data || {};
          if (d.type === 'string' && typeof d.value === 'string') {
            message = d.value;
          } else if (d.objectId) {
            session.post('Runtime.getProperties', { objectId: d.objectId, ownProperties: false }, (err, res) => {
              if (err || !res) return;
              for (const q of res.result || []) {
                if (q.name === 'message' && q.value && typeof q.value.value === 'string') message = q.value.value;
                if (q.name === 'type' && q.value && typeof q.value.value === 'string') cls = q.value.value + 'Error';
              }
            });
          }
          const frames = [];
          for (const c of p.callFrames || []) {
            let file = c.url || urls.get(c.location.scriptId) || '';
            if (file.startsWith('file://')) file = url.fileURLToPath(file);
            let line = c.location.lineNumber + 1;
            const r = remap(file, line, c.location.columnNumber + 1);
            if (r) { file = r[0]; line = r[1]; }
            frames.push({ file, line, fn: c.functionName || null });
          }
          if (typeof message === 'string' && message) {
            rec({ kind: 'raise', cls: cls || 'Error', message, reason: p.reason, frames });
          }
        }
      } catch (e) { /* ignore */ }
      session.post('Debugger.resume');
    });
    session.post('Debugger.enable');
    session.post('Debugger.setPauseOnExceptions', { state: 'all' });
  }
}
