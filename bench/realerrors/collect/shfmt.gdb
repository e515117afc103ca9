# shfmt's parser (mvdan.cc/sh/v3/syntax) reports a shell-variant error with
# p.langErr(pos, "arrays", LangBash, LangMirBSDKorn), which stores a
# LangError value; its Error() method writes the text with a bytes.Buffer
# when main prints it, so neither errors.New, fmt.Errorf nor fmt.Sprintf
# sees it.  Loaded after gdb-go.gdb by the wrapper shfmt.conf's setup()
# writes: a stop inside langErr (parser.go:866, the LangError literal)
# composes the text LangError.Error() will print after the position
# (feature + " are a "/" is a " + the variants joined by "/" + " feature",
# LangVariant.String()'s names) and logs it as an @@NEW block with `bt`,
# which gdb2hook.py turns into a construction record.  The breakpoint's
# path is the debug build's GOPATH copy of the tag (shfmt.conf).
python
import gdb
import json
_SHFMT_LANGS = {0: "bash", 1: "posix", 2: "mksh", 3: "bats", 4: "auto"}
class _ShfmtLangErr(gdb.Breakpoint):
    def stop(self):
        f = gdb.selected_frame()
        feat = f.read_var("feature")
        n = int(feat["len"])
        s = bytes(gdb.selected_inferior().read_memory(int(feat["str"]), n)).decode("utf-8", "replace") if n else ""
        langs = f.read_var("langs")
        names = [_SHFMT_LANGS.get(int(langs["array"][i]), "unknown shell language variant")
                 for i in range(int(langs["len"]))]
        text = s + (" are a " if s.endswith("s") else " is a ") + "/".join(names) + " feature"
        gdb.write("@@NEW\n$1 = %s\n" % json.dumps(text))
        gdb.execute("bt")
        return False
_ShfmtLangErr("/tmp/re/bld/shfmt/gopath/src/mvdan.cc/sh/v3/syntax/parser.go:866")
end
