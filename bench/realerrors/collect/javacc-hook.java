import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * javacc.conf's recording driver (bench/realerrors): runs javacc, jjtree or
 * jjdoc (the first argument names which; the others are the command's)
 * through their main(), with System.out and System.err replaced by streams
 * that pass every byte on and, for every complete printed line, append to
 * the file RE_JAVACC_TRACE one block in the JVM's form: "javacc.RePrint: LINE"
 * and the stack of the write that ended the line ("\tat" lines; the
 * driver's and java.io's own frames left out). javacc prints its messages
 * with System.out/err.print(ln) (JavaCCErrors.parse_error, semantic_error,
 * warning; Main's own println), so that stack is the statement that
 * printed the message and its callers.
 */
public class JavaccReHook {
    static PrintStream trace;

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
            StringBuilder s = new StringBuilder();
            s.append("javacc.RePrint: ").append(text).append('\n');
            for (StackTraceElement e : new Throwable().getStackTrace()) {
                String c = e.getClassName();
                if (c.startsWith("JavaccReHook") || c.startsWith("java.io.") || c.startsWith("sun.nio.cs.")) continue;
                s.append("\tat ").append(c).append('.').append(e.getMethodName())
                 .append('(').append(e.getFileName()).append(':').append(e.getLineNumber()).append(")\n");
            }
            trace.print(s);
            trace.flush();
        }
    }

    public static void main(String[] args) throws Exception {
        trace = new PrintStream(new FileOutputStream(System.getenv("RE_JAVACC_TRACE"), true), true, "UTF-8");
        final Recorder out = new Recorder(new FileOutputStream(java.io.FileDescriptor.out));
        final Recorder err = new Recorder(new FileOutputStream(java.io.FileDescriptor.err));
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.flush(); System.err.flush();
            if (out.line.size() > 0) out.emit();
            if (err.line.size() > 0) err.emit();
        }));
        String tool = args[0];
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        // the classes /usr/bin/javacc, jjtree and jjdoc run (a JVM trace
        // the tool prints shows their frame, then this driver's)
        if (tool.equals("jjtree")) {
            jjtree.main(rest);
        } else if (tool.equals("jjdoc")) {
            jjdoc.main(rest);
        } else {
            javacc.main(rest);
        }
    }
}
