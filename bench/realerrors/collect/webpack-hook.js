// webpack.conf's recording addition, preloaded after hook.js (NODE_OPTIONS)
// by the conf's `webpack` wrapper in the hooked run only.
// webpack checks every configuration and plugin options object with
// schema-utils' validate() (lib/validateSchema.js, lib/util/create-schema-
// validation.js), whose ValidationError is built inside schema-utils
// (Debian's /usr/share/nodejs/schema-utils, a dependency): hook.js records
// that construction with schema-utils' frames first, which resolve.py does
// not count as the program's. Here schema-utils' exported validate() is
// wrapped (the module object webpack gets from require's cache) and, when
// it throws, the error's final message is recorded as a construction
// record ({kind:'new'}, hook.js's format) whose frames start at the
// caller of validate(): webpack's own call passing the schema and the
// "Webpack"/plugin name. Its frames are cut after the first one outside
// lib/validateSchema.js and lib/util/create-schema-validation.js (the call
// that asked for the check: lib/webpack.js's getValidateSchema()(schema,
// options), a plugin's validate(options)); the outer frames (webpack(),
// webpack-cli's loading of the config) hold nothing of the text, and the
// whole stack stays in the record as `all_frames`. Nothing is printed;
// the program runs unchanged.
'use strict';
const fs = require('fs');
const out = process.env.RE_HOOK_OUT;
if (out) {
  const rec = (o) => { try { fs.appendFileSync(out, JSON.stringify(o) + '\n'); } catch (e) { /* ignore */ } };
  const frames = () => {
    const o = {};
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 60;
    const prev = Error.prepareStackTrace;
    Error.prepareStackTrace = (e, cs) => cs.map((c) => ({
      file: c.getFileName(), line: c.getLineNumber(), fn: c.getFunctionName() }));
    Error.captureStackTrace(o);
    const f = o.stack;
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prev;
    return (f || []).filter((x) => x.file !== __filename);
  };
  let su = null;
  try { su = require('/usr/share/nodejs/schema-utils'); } catch (e) { /* ignore */ }
  if (su && typeof su.validate === 'function') {
    const orig = su.validate;
    su.validate = function validate(...args) {
      try {
        return orig.apply(this, args);
      } catch (e) {
        let m = '';
        try { m = String(e && e.message); } catch (x) { /* ignore */ }
        const all = frames();
        const i = all.findIndex((x) => !/\/lib\/(validateSchema|util\/create-schema-validation)\.js$/.test(x.file || ''));
        rec({ kind: 'new', cls: (e && e.name) || 'ValidationError', message: m,
          frames: i < 0 ? all : all.slice(0, i + 1), all_frames: all });
        throw e;
      }
    };
  }
}
