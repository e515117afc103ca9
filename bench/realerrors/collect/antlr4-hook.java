package org.antlr.v4;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;

import org.antlr.v4.Tool;
import org.antlr.v4.tool.ANTLRMessage;
import org.antlr.v4.tool.ErrorType;

/**
 * antlr4.conf's recording driver (bench/realerrors): runs a command as
 * org.antlr.v4.Tool's main does (Tool.java:167-191), with a Tool whose error() and
 * warning() (every message ErrorManager.emit hands on: Tool.java:954-972)
 * first append the message, rendered as DefaultToolListener prints it, and
 * the stack of that call in the JVM's form ("CLASS: TEXT", "\tat" lines)
 * to the file RE_ANTLR_TRACE, then print it as the installed Tool does.
 * The driver's own two frames are left out of each stack.
 */
public class AntlrReHook {
    static PrintStream trace;

    static void record(Tool tool, ANTLRMessage msg) {
        try {
            String text = tool.errMgr.getMessageTemplate(msg).render();
            if (tool.errMgr.formatWantsSingleLineMessage()) {
                text = text.replace('\n', ' ');
            }
            StringBuilder b = new StringBuilder();
            b.append(msg.getClass().getName()).append(": ").append(text.split("\n", 2)[0]).append('\n');
            StackTraceElement[] st = new Throwable().getStackTrace();
            for (int i = 2; i < st.length; i++) {
                StackTraceElement s = st[i];
                b.append("\tat ").append(s.getClassName()).append('.').append(s.getMethodName())
                 .append('(').append(s.getFileName()).append(':').append(s.getLineNumber()).append(")\n");
            }
            trace.print(b);
            trace.flush();
        } catch (RuntimeException e) {
            // a message the template cannot render is printed (or not) by Tool itself
        }
    }

    public static void main(String[] args) throws IOException {
        trace = new PrintStream(new FileOutputStream(System.getenv("RE_ANTLR_TRACE"), true), true, "UTF-8");
        Tool antlr = new Tool(args) {
            @Override
            public void error(ANTLRMessage msg) { record(this, msg); super.error(msg); }
            @Override
            public void warning(ANTLRMessage msg) { record(this, msg); super.warning(msg); }
        };
        // what the installed Tool's main does for the cases' commands (none
        // asks for -Xlog): help without arguments, else the grammars, then
        // the exit status by the errors counted
        if (args.length == 0) {
            antlr.help();
            antlr.exit(0);
        }
        antlr.processGrammarsOnCommandLine();
        antlr.exit(antlr.errMgr.getNumErrors() > 0 ? 1 : 0);
    }
}
