"""fakelib.py — what the fake providers (fake_openai.py, fake_cmd.py) share:
reading a faultline prompt (its phase and the records of the batch), the
test's script of behaviours, the answer a behaviour gives, and the log.

Standard library only.  Nothing here is product code: it plays a model.

Prompt, as the fakes read it (enrich.md): one line "Phase: NAME" (enrich,
defend or verify) and, for each record of the batch, one line that starts
with {"id":"<16 lowercase hex>" holding the record as compact JSON.

Script (a JSON file), read by both fakes:

    script    := behaviour | [behaviour, ...] | {
                   "sequence": [behaviour, ...],   consumed one per call
                   "default":  behaviour,          after the sequence
                   "phases":   {"defend": script-without-phases/by_id, ...},
                   "by_id":    {"<id>": [behaviour, ...] | behaviour, ...}
                 }
    behaviour := "NAME" | "delay:MS:NAME" | {
                   "do": "NAME",
                   "delay_ms": N,          wait before answering
                   "retry_after": N,       rate_limit: Retry-After (default 1)
                   "set": {field: value},  merged into every answered record
                   "set_by_id": {"<id>": {field: value}}
                 }

A list is consumed one behaviour per call, then its last one repeats; with
"sequence" and "default", the default repeats once the sequence is used up
(no sequence: the default always).  A call is matched, first, against
"by_id" (the first id of the prompt that has an entry there: that id's own
sequence), then "phases" (that phase's own sequence), then the top level.
Every sequence keeps its own counter.

Behaviours (names shared by both fakes; how each one is delivered is the
fake's own: an HTTP status, an exit status...):
  good            the answer, whole
  preamble        "Sure! Here are the records:\n" + answer
  preamble_brace  a preamble holding a "{" that is not the answer
  fenced          the answer in a ```json fence
  truncated       the answer cut in the middle
  garbage         "I cannot help with that."
  empty           {"records": []}
  change_message  the answer also sets "errorMessage": "changed"
  bad_enum        defend: handlingStrategy "sometimes"; verify: severity
                  "sometimes"; enrich: handlingStrategy "sometimes" (a
                  field outside the phase)
  bad_type        enrich: solutions a string; defend: preventionTips a
                  string; verify: tags ["Not A Tag"]
  missing_one     the last record of the prompt is left out
  extra_id        one more record, with an id not in the prompt
  rate_limit, unavailable, server_error, fail, hang, drop (openai),
  hang_child (command): the fake's own failure modes.
Verify's "good" answer is {"records": []} (no patch) unless "set" or
"set_by_id" give fields: then the records carry those fields only.
"""

import datetime
import fcntl
import json
import os
import re
import threading

PHASES = ("enrich", "defend", "verify")

BEHAVIOURS = {
    "good", "preamble", "preamble_brace", "fenced", "truncated", "garbage",
    "empty", "change_message", "bad_enum", "bad_type", "missing_one",
    "extra_id", "rate_limit", "unavailable", "server_error", "fail", "hang",
    "drop", "hang_child",
}

_ID_LINE = re.compile(r'^\s*\{"id":"([0-9a-f]{16})"')
_PHASE_LINE = re.compile(r'^\s*Phase:\s*([A-Za-z]+)\s*$', re.M)


class ScriptError(Exception):
    pass


class PromptError(Exception):
    pass


def parse_prompt(text):
    """(phase, [record dict ...]) of a prompt; PromptError when the prompt
    has no or several Phase: lines, an unknown phase, or no record."""
    phases = _PHASE_LINE.findall(text)
    if not phases:
        raise PromptError("no 'Phase:' line in the prompt")
    if len(set(p.lower() for p in phases)) > 1:
        raise PromptError("several 'Phase:' lines in the prompt: %s" % ", ".join(phases))
    phase = phases[0].lower()
    if phase not in PHASES:
        raise PromptError("unknown phase %r in the prompt" % phases[0])
    records = []
    seen = set()
    dec = json.JSONDecoder()
    for line in text.split("\n"):
        m = _ID_LINE.match(line)
        if not m:
            continue
        try:
            rec, _ = dec.raw_decode(line.strip())
            if not isinstance(rec, dict):
                raise ValueError("not an object")
        except ValueError as e:
            raise PromptError("record line for %s is not a JSON object: %s" % (m.group(1), e))
        if rec["id"] in seen:
            raise PromptError("record %s appears twice in the prompt" % rec["id"])
        seen.add(rec["id"])
        records.append(rec)
    if not records:
        raise PromptError("no record line ({\"id\":\"<16 hex>\"...) in the prompt")
    return phase, records


# ---- script ---------------------------------------------------------------

def parse_behaviour(b):
    """A behaviour as a dict {"do": NAME, ...}; ScriptError when malformed."""
    if isinstance(b, str):
        m = re.fullmatch(r"delay:(\d+):(\w+)", b)
        b = {"do": m.group(2), "delay_ms": int(m.group(1))} if m else {"do": b}
    if not isinstance(b, dict) or not isinstance(b.get("do"), str):
        raise ScriptError("a behaviour is a name or an object with \"do\": %r" % (b,))
    if b["do"] not in BEHAVIOURS:
        raise ScriptError("unknown behaviour %r (known: %s)" % (b["do"], ", ".join(sorted(BEHAVIOURS))))
    for k in b:
        if k not in ("do", "delay_ms", "retry_after", "set", "set_by_id"):
            raise ScriptError("unknown key %r in behaviour %r" % (k, b))
    for k in ("delay_ms", "retry_after"):
        if k in b and (not isinstance(b[k], int) or b[k] < 0):
            raise ScriptError("%s must be an integer >= 0: %r" % (k, b))
    if "set" in b and not isinstance(b["set"], dict):
        raise ScriptError("\"set\" must be an object: %r" % (b,))
    if "set_by_id" in b and not (isinstance(b["set_by_id"], dict)
                                 and all(isinstance(v, dict) for v in b["set_by_id"].values())):
        raise ScriptError("\"set_by_id\" must map ids to objects: %r" % (b,))
    return dict(b)


class Seq:
    """One sequence of behaviours with the default that follows it."""

    def __init__(self, spec, where):
        if isinstance(spec, list):
            if not spec:
                raise ScriptError("%s: an empty list" % where)
            self.items = [parse_behaviour(x) for x in spec]
            self.default = self.items[-1]
        elif isinstance(spec, dict) and ("sequence" in spec or "default" in spec):
            seq = spec.get("sequence", [])
            if not isinstance(seq, list):
                raise ScriptError("%s: \"sequence\" must be a list" % where)
            self.items = [parse_behaviour(x) for x in seq]
            if "default" in spec:
                self.default = parse_behaviour(spec["default"])
            elif self.items:
                self.default = self.items[-1]
            else:
                raise ScriptError("%s: neither a sequence nor a default" % where)
        else:
            self.items = []
            self.default = parse_behaviour(spec)

    def at(self, k):
        return self.items[k] if k < len(self.items) else self.default


class Script:
    """The parsed script.  pick(key_of, phase, ids) gives (counter key,
    behaviour); the caller owns the counters (a dict: in memory for the
    server, in the --state file for the command)."""

    def __init__(self, spec):
        self.by_id = {}
        self.phases = {}
        if isinstance(spec, dict) and ("by_id" in spec or "phases" in spec):
            rest = {k: v for k, v in spec.items() if k not in ("by_id", "phases")}
            for k in rest:
                if k not in ("sequence", "default"):
                    raise ScriptError("unknown key %r in the script" % k)
            for i, s in spec.get("by_id", {}).items():
                if not re.fullmatch(r"[0-9a-f]{16}", i):
                    raise ScriptError("by_id: %r is not a 16-hex id" % i)
                self.by_id[i] = Seq(s, "by_id." + i)
            for p, s in spec.get("phases", {}).items():
                if p not in PHASES:
                    raise ScriptError("phases: unknown phase %r" % p)
                self.phases[p] = Seq(s, "phases." + p)
            self.top = Seq(rest, "script") if rest else Seq("good", "script")
        else:
            if isinstance(spec, dict):
                for k in spec:
                    if k not in ("sequence", "default", "do", "delay_ms", "retry_after",
                                 "set", "set_by_id"):
                        raise ScriptError("unknown key %r in the script" % k)
            self.top = Seq(spec, "script")

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            try:
                spec = json.load(f)
            except ValueError as e:
                raise ScriptError("%s: not JSON: %s" % (path, e))
        return cls(spec)

    def pick(self, counters, phase, ids):
        """Consumes one behaviour: increments counters[key]."""
        for i in ids:
            if i in self.by_id:
                key, seq = "id:" + i, self.by_id[i]
                break
        else:
            if phase in self.phases:
                key, seq = "phase:" + phase, self.phases[phase]
            else:
                key, seq = "all", self.top
        k = counters.get(key, 0)
        counters[key] = k + 1
        return key, k, seq.at(k)


# ---- answers --------------------------------------------------------------

def model_fields(phase, rec):
    """The fields a well-behaved model writes for rec in phase; the text
    depends on the record so that a test can tell the values landed."""
    msg = rec.get("errorMessage") or "?"
    where = "%s:%s" % (rec.get("filePath") or "?", rec.get("lineNumber"))
    if phase == "enrich":
        return {
            "documentation": "Model text for %s" % msg,
            "triggerScenarios": "Raised at %s when the check for %s fails" % (where, msg),
            "commonSituations": "Seen by callers of %s" % where,
            "solutions": ["First fix for %s" % msg, "Second fix for %s" % msg],
            "exampleFix": "// before\ncall();\n// after\nif (ok) call(); /* %s */" % rec["id"],
        }
    if phase == "defend":
        return {
            "handlingStrategy": "validation",
            "validationCode": "if (!valid(input)) return fail(\"%s\");" % msg,
            "typeGuard": None,
            "tryCatchPattern": "try { call(); } catch (e) { /* %s */ }" % msg,
            "preventionTips": ["Check the input before %s" % where, "Log %s" % rec["id"]],
        }
    return {}


def answer_object(phase, records, b):
    """The {"records": [...]} answer behaviour b gives for the batch."""
    name = b["do"]
    out = []
    if name != "empty":
        for rec in records:
            f = dict(model_fields(phase, rec))
            f.update(b.get("set", {}))
            f.update(b.get("set_by_id", {}).get(rec["id"], {}))
            if phase == "verify" and not f and name not in ("change_message", "bad_enum", "bad_type"):
                continue
            if name == "change_message":
                f["errorMessage"] = "changed"
            elif name == "bad_enum":
                if phase == "verify":
                    f["severity"] = "sometimes"
                f["handlingStrategy"] = "sometimes"
            elif name == "bad_type":
                if phase == "enrich":
                    f["solutions"] = "just one string"
                elif phase == "defend":
                    f["preventionTips"] = "just one string"
                else:
                    f["tags"] = ["Not A Tag"]
            out.append(dict({"id": rec["id"]}, **f))
        if name == "missing_one" and out:
            last = records[-1]["id"]
            out = [r for r in out if r["id"] != last]
        if name == "extra_id":
            out.append(dict({"id": "00000000deadbeef"}, **model_fields(phase, {"id": "00000000deadbeef"})))
    return {"records": out}


def answer_text(phase, records, b):
    """The text the model gives (a chat message's content, a command's
    stdout before any envelope) for the text-shaped behaviours."""
    name = b["do"]
    if name == "garbage":
        return "I cannot help with that."
    body = json.dumps(answer_object(phase, records, b), ensure_ascii=False)
    if name == "preamble":
        return "Sure! Here are the records:\n" + body
    if name == "preamble_brace":
        return "Here is the answer as {\"records\": [...]}, one object per record:\n" + body
    if name == "fenced":
        return "```json\n" + body + "\n```"
    if name == "truncated":
        return body[: len(body) // 2]
    return body


def tokens(text):
    """A stable stand-in for a token count."""
    return max(1, len(text) // 4)


# ---- log ------------------------------------------------------------------

class Log:
    """One JSON object per line, appended under a lock (threads) and an
    flock (processes), flushed per line."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    def write(self, entry):
        if not self.path:
            return
        entry = dict({"time": now_iso()}, **entry)
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        with self.lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                os.write(fd, line)
            finally:
                os.close(fd)


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
