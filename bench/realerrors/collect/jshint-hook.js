// Preload loaded after hook.js (only when $RE_HOOK_OUT is set, by the
// `node` wrapper that jshint.conf writes first on PATH), to VERIFY jshint's
// cases. A lint problem is neither an Error nor written where it is made:
// src/jshint.js's warning(code, token, a, b...) (and warningAt, error,
// errorAt, the lexer's and the scope manager's "warning"/"error" events,
// the style module's api.warn) builds a plain object {code, reason, line,
// ...} from src/messages.js's template (`msg.desc`) and pushes it on
// JSHINT.errors; the reporter prints it once linting is over. quit(code)
// (E041 "Unrecoverable syntax error.", E043 "Too many errors.", E059)
// throws a plain object that JSHINT()'s catch pushes. This hook records
// each pushed problem as hook.js's {kind:'new'} records: its final text
// (`reason`, as printed after "FILE: line N, col M, ") and the stack of
// the place that read the message's template (a getter on every `desc` of
// src/messages.js: inside warning() or quit()), cut to the call that
// passed the code: quit's caller, else the first frame outside that
// messaging machinery (warning, warningAt, error, errorAt, api.warn, the
// event listeners of JSHINT() that pass an event's code on, node's
// EventEmitter, Lexer#trigger, the scope manager's warning/error). The
// lexer's problems made with triggerAsync("warning"|"error", ...) are
// emitted later, from a check callback: the stack of the triggerAsync
// call is kept and used when that event is triggered. `frames` holds the
// passing call alone (an outer frame of the parser whose lines happen to
// hold the message's words is no raise of it); `stack` keeps the whole
// stack. The modules are required from the program's own install (the
// folder of process.argv[1]), the same files jshint then loads from
// require's cache.
'use strict';
const fs = require('fs');
const path = require('path');
const out = process.env.RE_HOOK_OUT;
let root = null;
try {
  const bin = fs.realpathSync(process.argv[1] || '');
  if (/\/jshint\/bin\/jshint$/.test(bin)) root = path.dirname(path.dirname(bin));
} catch (e) { /* not jshint */ }
if (out && root) {
  const fd = fs.openSync(out, 'a');
  const rec = (o) => { try { fs.writeSync(fd, JSON.stringify(o) + '\n'); } catch (e) { /* ignore */ } };
  const E = Error;
  const frames = () => {
    const o = {};
    const limit = E.stackTraceLimit;
    E.stackTraceLimit = 200;
    const prev = E.prepareStackTrace;
    E.prepareStackTrace = (e, cs) => cs.map((c) => ({
      file: c.getFileName(), line: c.getLineNumber(), fn: c.getFunctionName() }));
    E.captureStackTrace(o);
    const f = o.stack;
    E.stackTraceLimit = limit;
    E.prepareStackTrace = prev;
    return (f || []).filter((x) => x.file !== __filename && !/\/collect\/hook\.js$/.test(x.file || ''));
  };
  const src = path.join(root, 'src');
  const JSF = path.join(src, 'jshint.js');
  const LEX = path.join(src, 'lex.js');
  const SCM = path.join(src, 'scope-manager.js');
  // the messaging machinery: frames skipped from the innermost one on
  const plumbing = (x, outer) => {
    const f = x.file || '';
    if (f.startsWith('node:')) return true;
    if (f === JSF) {
      if (['warning', 'warningAt', 'error', 'errorAt', 'quit', 'warn'].includes(x.fn)) return true;
      // an event listener of JSHINT() that passes the event's code on
      // (lex.on("warning", function (ev) { warningAt.apply(null, [ev.code,
      // ...]) })), called by node's EventEmitter (the "fatal" one, which
      // calls quit("E041", ev), is quit's caller: taken above)
      if (!x.fn && outer && (outer.file || '').startsWith('node:events')) return true;
      return false;
    }
    if (f === LEX) return x.fn === 'trigger';
    if (f === SCM) return ['warning', 'error'].includes(x.fn);
    return false;
  };
  const cut = (fs_) => {
    // quit(code) raises its own code (E041, E043 from inside warning(),
    // E059): its caller passed it
    const q = fs_.findIndex((x) => !(x.file || '').startsWith('node:'));
    if (q >= 0 && fs_[q].file === JSF && fs_[q].fn === 'quit') {
      const c = fs_.slice(q + 1).find((x) => !(x.file || '').startsWith('node:'));
      return c ? [c] : fs_;
    }
    for (let i = 0; i < fs_.length; i++) {
      if (!plumbing(fs_[i], fs_[i + 1])) return fs_.slice(i, i + 1);
    }
    return fs_;
  };
  let asyncOrigin = null;     // the triggerAsync call of the event being triggered
  let last = null;            // {code, frames} of the last template read
  try {
    const Lexer = require(LEX).Lexer;
    const origAsync = Lexer.prototype.triggerAsync;
    const origTrigger = Lexer.prototype.trigger;
    const origins = new WeakMap();
    Lexer.prototype.triggerAsync = function triggerAsync(type, args, ...rest) {
      if (args && typeof args === 'object') origins.set(args, frames());
      return origAsync.call(this, type, args, ...rest);
    };
    Lexer.prototype.trigger = function trigger(type, args, ...rest) {
      const saved = asyncOrigin;
      // only the events that carry a code ("warning", "error"): a token
      // event ("Identifier", "String") is checked by listeners that pass
      // codes of their own (src/style.js's linter.warn("W103", ...))
      asyncOrigin = ((type === 'warning' || type === 'error') && args && typeof args === 'object' &&
                     origins.get(args)) || null;
      try {
        return origTrigger.call(this, type, args, ...rest);
      } finally {
        asyncOrigin = saved;
      }
    };
    const messages = require(path.join(src, 'messages.js'));
    for (const group of ['errors', 'warnings', 'info']) {
      for (const code of Object.keys(messages[group] || {})) {
        const m = messages[group][code];
        let desc = m.desc;
        Object.defineProperty(m, 'desc', {
          enumerable: true,
          configurable: true,
          get() {
            // a lexer event emitted from a triggerAsync callback: the
            // triggerAsync call (lex.js) is where the code was passed
            last = { code: m.code, frames: asyncOrigin || frames() };
            return desc;
          },
          set(v) { desc = v; },
        });
      }
    }
    const JSHINT = require(JSF).JSHINT;
    const wrap = (arr) => {
      if (!Array.isArray(arr) || arr.__reHooked) return arr;
      const push = arr.push;
      Object.defineProperty(arr, '__reHooked', { value: true });
      Object.defineProperty(arr, 'push', {
        value: function (...items) {
          for (const w of items) {
            if (w && typeof w.reason === 'string' && w.code) {
              const fr = last && last.code === w.code ? last.frames : frames();
              rec({ kind: 'new', cls: 'JSHintProblem', code: w.code, message: w.reason,
                    frames: cut(fr), stack: fr });
            }
          }
          return push.apply(this, items);
        },
      });
      return arr;
    };
    let errors = wrap(JSHINT.errors);
    Object.defineProperty(JSHINT, 'errors', {
      enumerable: true,
      configurable: true,
      get() { return errors; },
      set(v) { errors = wrap(v); },
    });
  } catch (e) {
    rec({ kind: 'hook-error', message: String(e && e.stack) });
  }
}
