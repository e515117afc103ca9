package jflex;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * jflex.conf's recording driver (bench/realerrors): runs jflex.Main.main
 * with System.out and System.err replaced by streams that pass every byte
 * on and, for every complete printed line written under Out.error,
 * Out.warning or Out.requestBugReport (or outside jflex.Out: a JVM trace),
 * append to RE_JFLEX_TRACE one block in the JVM's form: "jflex.RePrint: LINE"
 * and the stack of the write ("\tat" lines; the driver's and java.io's own
 * frames left out). Out.println's progress lines ("Reading", "Constructing
 * NFA", statistics) are left out. record(t), called by the patched copies of
 * ScannerException's and MacroException's constructors put first on the
 * classpath, appends "CLASS: MESSAGE" and the construction stack.
 */
public class JflexReHook {
    static PrintStream trace;

    static synchronized void block(String head, StackTraceElement[] st) {
        StringBuilder s = new StringBuilder(head).append('\n');
        for (StackTraceElement e : st) {
            String c = e.getClassName();
            if (c.startsWith("jflex.JflexReHook") || c.startsWith("java.io.") || c.startsWith("sun.nio.cs.")) continue;
            s.append("\tat ").append(c).append('.').append(e.getMethodName())
             .append('(').append(e.getFileName()).append(':').append(e.getLineNumber()).append(")\n");
        }
        trace.print(s);
        trace.flush();
    }

    public static void record(Throwable t) {
        if (trace == null) return;
        block(t.getClass().getName() + ": " + t.getMessage(), t.getStackTrace());
    }

    static final class Recorder extends OutputStream {
        final OutputStream real;
        final ByteArrayOutputStream line = new ByteArrayOutputStream();
        Recorder(OutputStream real) { this.real = real; }

        @Override public synchronized void write(int b) throws IOException {
            real.write(b);
            take((byte) b);
        }
        @Override public synchronized void write(byte[] b, int off, int len) throws IOException {
            real.write(b, off, len);
            for (int i = off; i < off + len; i++) take(b[i]);
        }
        @Override public void flush() throws IOException { real.flush(); }

        void take(byte b) {
            if (b == '\n') { emit(); } else { line.write(b); }
        }
        synchronized void emit() {
            String text = new String(line.toByteArray(), StandardCharsets.UTF_8).replace("\r", "");
            line.reset();
            if (text.trim().isEmpty()) return;
            StackTraceElement[] st = new Throwable().getStackTrace();
            boolean inOut = false, message = false;
            for (StackTraceElement e : st) {
                if (e.getClassName().equals("jflex.Out")) {
                    inOut = true;
                    String m = e.getMethodName();
                    if (m.equals("error") || m.equals("warning") || m.equals("requestBugReport")) message = true;
                }
            }
            if (inOut && !message) return;
            block("jflex.RePrint: " + text, st);
        }
    }

    public static void main(String[] args) throws Exception {
        trace = new PrintStream(new FileOutputStream(System.getenv("RE_JFLEX_TRACE"), true), true, "UTF-8");
        final Recorder out = new Recorder(new FileOutputStream(java.io.FileDescriptor.out));
        final Recorder err = new Recorder(new FileOutputStream(java.io.FileDescriptor.err));
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.flush(); System.err.flush();
            if (out.line.size() > 0) out.emit();
            if (err.line.size() > 0) err.emit();
        }));
        Main.main(args);
    }
}
