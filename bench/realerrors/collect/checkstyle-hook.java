// Compiled by checkstyle.conf's setup() with a copy of the installed
// source's api/LocalizedMessage.java (INST), whose main constructor gets one
// call to CheckstyleReHook.record(this) appended on its last line (line
// 144: line numbers unchanged); the two classes go first on the launcher's
// classpath (JAVA_CLASSPATH) in the hooked run only.  Each violation a check
// makes (a LocalizedMessage built under AbstractCheck.log,
// AbstractFileSetCheck.log, Checker.processFile, TranslationCheck: its
// first frame outside LocalizedMessage) is written to
// $RE_CS_TRACE in the JVM's form ("CLASS: MESSAGE" and "\tat" lines, the
// construction stack), which javastack2hook.py reads; the audit's own
// messages (DefaultLogger's "Starting audit...", Main's error counter,
// PackageObjectFactory's text of a CheckstyleException, which its printed
// stack shows anyway) are not written.
package com.puppycrawl.tools.checkstyle.api;

import java.io.FileWriter;
import java.io.IOException;

final class CheckstyleReHook {
    private CheckstyleReHook() {
    }

    static void record(LocalizedMessage m) {
        final String out = System.getenv("RE_CS_TRACE");
        if (out == null) {
            return;
        }
        final StackTraceElement[] st = new Throwable().getStackTrace();
        // the maker: the first frame outside LocalizedMessage's constructors
        boolean check = false;
        for (StackTraceElement s : st) {
            final String c = s.getClassName();
            if (c.endsWith(".CheckstyleReHook") || c.endsWith(".LocalizedMessage")) {
                continue;
            }
            check = c.endsWith(".AbstractCheck") || c.endsWith(".AbstractFileSetCheck")
                || c.endsWith(".TranslationCheck")
                || c.endsWith(".Checker") && "processFile".equals(s.getMethodName());
            break;
        }
        if (!check) {
            return;
        }
        final StringBuilder b = new StringBuilder();
        b.append("com.puppycrawl.tools.checkstyle.api.LocalizedMessage: ")
            .append(m.getMessage().split("\n", 2)[0]).append('\n');
        for (StackTraceElement s : st) {
            if (s.getClassName().endsWith(".CheckstyleReHook")) {
                continue;
            }
            b.append("\tat ").append(s.getClassName()).append('.').append(s.getMethodName())
                .append('(').append(s.getFileName()).append(':').append(s.getLineNumber()).append(")\n");
        }
        try (FileWriter w = new FileWriter(out, true)) {
            w.write(b.toString());
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
