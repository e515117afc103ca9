// Preload loaded after hook.js (only when $RE_HOOK_OUT is set, by the
// `node` wrapper that stylelint.conf writes first on PATH), to VERIFY
// stylelint's cases. stylelint's lint problems, invalid rule options,
// unknown rules and deprecated rules are not Errors: each is a postcss
// Warning, made by `result.warn(text, opts)` (postcss's Result.prototype.warn)
// from lib/utils/report.js, lib/utils/validateOptions.js,
// lib/reportUnknownRuleNames.js, lib/lintPostcssResult.js... This hook
// records every such call, as hook.js's {kind:'new'} records: the warning's
// text, as given, and the stack of the call (innermost first, this file's
// frame left out). postcss is taken from the program's own install (the
// folder of the script node runs, process.argv[1]).
'use strict';
const fs = require('fs');
const path = require('path');
const out = process.env.RE_HOOK_OUT;
if (out && process.argv[1]) {
  const fd = fs.openSync(out, 'a');
  const rec = (o) => { try { fs.writeSync(fd, JSON.stringify(o) + '\n'); } catch (e) { /* ignore */ } };
  const E = Error;
  const frames = () => {
    const o = {};
    const limit = E.stackTraceLimit;
    E.stackTraceLimit = 60;
    const prev = E.prepareStackTrace;
    E.prepareStackTrace = (e, cs) => cs.map((c) => ({
      file: c.getFileName(), line: c.getLineNumber(), fn: c.getFunctionName() }));
    E.captureStackTrace(o);
    const f = o.stack;
    E.stackTraceLimit = limit;
    E.prepareStackTrace = prev;
    return (f || []).filter((x) => x.file !== __filename && !/\/collect\/hook\.js$/.test(x.file || ''));
  };
  let Result = null;
  try {
    const from = path.dirname(fs.realpathSync(process.argv[1]));
    Result = require(require.resolve('postcss/lib/result', { paths: [from] }));
  } catch (e) { /* not a program using postcss */ }
  if (Result && Result.prototype && typeof Result.prototype.warn === 'function') {
    const warn = Result.prototype.warn;
    Result.prototype.warn = function (text, ...rest) {
      rec({ kind: 'new', cls: 'Warning', message: String(text), frames: frames() });
      return warn.call(this, text, ...rest);
    };
  }
}
