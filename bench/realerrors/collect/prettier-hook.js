// prettier.conf's second preload (after hook.js, hooked run only):
// prettier 2.8.8's npm package is esbuild bundles without source maps, so
// every frame hook.js records in cli.js, index.js or bin-prettier.js is
// named by its repository file and line through the table
// $RE_PRETTIER_MAP (prettier-map.py: each bundled module's tokens aligned with its source
// file's at the tag). The frame's column picks the token: the mapped token
// at or before it on that line, else the first after it. A frame in a
// bundled dependency (a node_modules/... module) becomes
// INSTALLED/node_modules/..., a dependency's; any other frame (the minified
// parser-*.js, third-party.js, an unmapped line) keeps its bundle name,
// which is no program file.
'use strict';
const fs = require('fs');
const inst = '/tmp/re/npm/prettier/node_modules/prettier/';
const srcRoot = '/tmp/re/src/prettier/';
let map = null;
const mapFile = process.env.RE_PRETTIER_MAP;
const getMap = () => { if (!map) map = JSON.parse(fs.readFileSync(mapFile, 'utf8')); return map; };
const locate = (file, line, col) => {
  if (!file || !file.startsWith(inst)) return null;
  const b = file.slice(inst.length);
  const m = getMap();
  if (!m.lines[b]) return null;
  for (const [first, last, p] of m.deps[b]) {
    if (line >= first && line <= last) return { file: inst + p, line };
  }
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
          getFileName: () => (r ? r.file : f),
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
