// Preload (node -r) used only to VERIFY corpus cases: records, into the
// file named by $RE_HOOK_OUT, the construction stack of every Error,
// TypeError, RangeError, SyntaxError and ReferenceError the program builds
// and the call stack of every process.stdout/stderr write, as JSON Lines
// {kind:'new'|'write', cls, message, fd, text, frames:[{file,line,fn}]}.
'use strict';
const fs = require('fs');
const out = process.env.RE_HOOK_OUT;
if (out) {
  const fd = fs.openSync(out, 'a');
  const rec = (o) => { try { fs.writeSync(fd, JSON.stringify(o) + '\n'); } catch (e) { /* ignore */ } };
  const OrigError = Error;
  const frames = () => {
    const o = {};
    const limit = OrigError.stackTraceLimit;
    OrigError.stackTraceLimit = 60;
    const prev = OrigError.prepareStackTrace;
    OrigError.prepareStackTrace = (e, cs) => cs.map((c) => ({
      file: c.getFileName(), line: c.getLineNumber(), fn: c.getFunctionName() }));
    OrigError.captureStackTrace(o);
    const f = o.stack;
    OrigError.stackTraceLimit = limit;
    OrigError.prepareStackTrace = prev;
    return (f || []).filter((x) => x.file !== __filename);
  };
  const made = [];
  for (const name of ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError']) {
    const T = global[name];
    const P = new Proxy(T, {
      construct(t, args, nt) {
        const e = Reflect.construct(t, args, nt);
        const r = { kind: 'new', cls: (nt && nt.name) || name, message: e.message, frames: frames() };
        made.push([e, r]);
        return e;
      },
      apply(t, self, args) {
        const e = Reflect.apply(t, self, args);
        made.push([e, { kind: 'new', cls: name, message: e.message, frames: frames() }]);
        return e;
      },
    });
    global[name] = P;
  }
  const flush = () => {
    for (const [e, r] of made.splice(0)) {
      let m = r.message;
      try { m = String(e.message); } catch (x) { /* ignore */ }
      r.message = m;
      try { if (typeof e.messageTemplate === 'string') r.messageTemplate = e.messageTemplate; } catch (x) { /* ignore */ }
      rec(r);
    }
  };
  for (const [stream, n] of [[process.stdout, 1], [process.stderr, 2]]) {
    const w = stream.write;
    stream.write = function (chunk, ...rest) {
      flush();
      rec({ kind: 'write', fd: n, text: String(chunk), frames: frames() });
      return w.call(this, chunk, ...rest);
    };
  }
  process.on('exit', flush);
}
