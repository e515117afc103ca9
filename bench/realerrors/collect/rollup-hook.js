// rollup.conf's second preload (after hook.js, hooked run only): Debian's
// rollup 3.15.0 is rollup's own build of the tag's TypeScript (tsc, then
// bundled) without source maps, so every frame hook.js records in
// /usr/share/nodejs/rollup/dist/ is named by its repository file and line
// through the table $RE_ROLLUP_MAP (rollup-map.py: each bundled module's
// tokens aligned with its source file's at the tag). The frame's column
// picks the token: the mapped token at or before it on that line, else the
// first after it. Any other frame (a bundled dependency: acorn,
// magic-string, picomatch, colorette..., or an unmapped line) keeps its
// bundle name, which is no program file. An async frame without a file
// (V8's "at async Promise.all") gets "file": null, which resolve.py reads.
// A warning is a plain object handed to the CLI's batchWarnings().add
// (cli/run/batchWarnings.ts), no Error: the hook adds one call at the start
// of add's first line in the loaded dist/shared/loadConfigFile.js (no line
// moves) that records the warning's message with the stack of that call
// (mapped the same way) as a "new" record of class RollupWarning, so the
// this.warn(...)/onwarn(...) line that raised it is on a recorded stack;
// add itself is one of the conf's REPORTERS.
'use strict';
const fs = require('fs');
const inst = '/usr/share/nodejs/rollup/dist/';
const srcRoot = '/tmp/re/src/rollup/';
let map = null;
const origCapture = Error.captureStackTrace;
const mapFile = process.env.RE_ROLLUP_MAP;
const getMap = () => { if (!map) map = JSON.parse(fs.readFileSync(mapFile, 'utf8')); return map; };
const locate = (file, line, col) => {
  if (!file || !file.startsWith(inst)) return null;
  const b = file.slice(inst.length);
  const m = getMap();
  if (!m.lines[b]) return null;
  const ents = m.lines[b][String(line)];
  if (!ents || !ents.length) return null;
  const c0 = (col || 1) - 1;
  let best = null;
  for (const e of ents) if (e[0] <= c0 && (!best || e[0] > best[0])) best = e;
  if (!best) best = ents[0];
  return { file: srcRoot + best[1], line: best[2] };
};
if (process.env.RE_HOOK_OUT && mapFile) {
  const E = Error;
  const orig = E.captureStackTrace;
  E.captureStackTrace = function (o, fn) {
    const p = E.prepareStackTrace;
    if (typeof p === 'function' && String(p).includes('getFunctionName()') && o && Object.keys(o).length === 0) {
      E.prepareStackTrace = (e, cs) => p(e, cs.filter((c) => c.getFileName() !== __filename).map((c) => {
        const f = c.getFileName();
        const l = c.getLineNumber();
        const r = locate(f, l, c.getColumnNumber());
        return {
          getFileName: () => (r ? r.file : (f || null)),
          getLineNumber: () => (r ? r.line : l),
          getFunctionName: () => c.getFunctionName(),
        };
      }));
      try { orig.call(this, o, fn); void o.stack; } finally { E.prepareStackTrace = p; }
      return undefined;
    }
    return orig.call(this, o, fn);
  };
}
if (process.env.RE_HOOK_OUT && mapFile) {
  const Mod = require('module');
  const compile = Mod.prototype._compile;
  const target = inst + 'shared/loadConfigFile.js';
  Mod.prototype._compile = function (content, filename) {
    if (filename === target) {
      content = content.replace(/(\n        add\(warning\) \{\n            )(count \+= 1;)/,
        '$1globalThis.__reRollupWarn && globalThis.__reRollupWarn(warning); $2');
    }
    return compile.call(this, content, filename);
  };
  const out = process.env.RE_HOOK_OUT;
  globalThis.__reRollupWarn = (w) => {
    try {
      const E = Error;
      const o = {};
      const limit = E.stackTraceLimit;
      const prev = E.prepareStackTrace;
      E.stackTraceLimit = 60;
      E.prepareStackTrace = (e, cs) => cs.filter((c) => c.getFileName() !== __filename).map((c) => {
        const f = c.getFileName();
        const l = c.getLineNumber();
        const r = locate(f, l, c.getColumnNumber());
        return { file: r ? r.file : (f || null), line: r ? r.line : l, fn: c.getFunctionName() };
      });
      origCapture.call(E, o);
      const frames = o.stack;
      E.stackTraceLimit = limit;
      E.prepareStackTrace = prev;
      fs.appendFileSync(out, JSON.stringify({ kind: 'new', cls: 'RollupWarning', message: String(w && w.message), frames }) + '\n');
    } catch (x) { /* ignore */ }
  };
}
