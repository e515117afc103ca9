// Preload loaded after hook.js (only when $RE_HOOK_OUT is set, by the
// js-yaml-node wrapper that js-yaml.conf puts first on PATH), to VERIFY
// js-yaml's cases. js-yaml's YAMLException is an ES5 error class:
//   function YAMLException(reason, mark) { Error.call(this); ...
//     this.message = formatError(this, false);
//     Error.captureStackTrace(this, this.constructor); }
// hook.js's Proxy sees `Error.call(this)`, whose result is a fresh Error
// with an empty message, not the exception. This hook records, as hook.js's
// {kind:'new'} records, every Error-like object whose stack is captured by
// Error.captureStackTrace with a message already set: its final message and
// the construction stack (innermost first, this file's frame left out).
'use strict';
const fs = require('fs');
const out = process.env.RE_HOOK_OUT;
if (out) {
  const fd = fs.openSync(out, 'a');
  const rec = (o) => { try { fs.writeSync(fd, JSON.stringify(o) + '\n'); } catch (e) { /* ignore */ } };
  const E = Error;                     // hook.js's Proxy (or the original)
  const orig = E.captureStackTrace;    // the original function
  const OrigProto = E.prototype;
  const frames = () => {
    const o = {};
    const limit = E.stackTraceLimit;
    E.stackTraceLimit = 60;
    const prev = E.prepareStackTrace;
    E.prepareStackTrace = (e, cs) => cs.map((c) => ({
      file: c.getFileName(), line: c.getLineNumber(), fn: c.getFunctionName() }));
    orig.call(E, o);
    const f = o.stack;
    E.stackTraceLimit = limit;
    E.prepareStackTrace = prev;
    return (f || []).filter((x) => x.file !== __filename && !/\/collect\/hook\.js$/.test(x.file || ''));
  };
  E.captureStackTrace = function captureStackTrace(target, ...rest) {
    try {
      if (target && OrigProto.isPrototypeOf(target) && typeof target.message === 'string' && target.message) {
        const cls = (typeof target.name === 'string' && target.name) ||
          (target.constructor && target.constructor.name) || 'Error';
        rec({ kind: 'new', cls, message: target.message, frames: frames() });
      }
    } catch (e) { /* ignore */ }
    // the stack as the caller asked for it: without this wrapper's frame
    // (hook.js's own captureStackTrace(o) calls come through here too)
    return orig.call(this, target, rest.length && rest[0] ? rest[0] : captureStackTrace);
  };
}
