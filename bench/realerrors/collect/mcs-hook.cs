// mcs.conf's recording hook for the Mono C# compiler (mcs 6.8.0.105).
// Compiled INTO the debug build of mcs/mcs (the same sources list plus
// this file, `-main:Mono.CSharp.RecordingDriver`; mcs.conf's header has
// the command), so that it reaches mcs's internal classes. Its Main is
// driver.cs's Driver.Main line for line, except that every message
// printer is a recording one: each message mcs prints (an error or a
// warning, from the command-line parser or the compiler) is first
// written, with the stack of that moment (System.Diagnostics.StackTrace
// with file:line from the .mdb, `mono --debug`), as one JSON line to
// $RE_HOOK_OUT in the format resolve.py reads:
//   {"kind":"new","cls":"Report.Error"|"Report.Warning"|...,"message":TEXT,"code":N,"level":"error"|"warning",
//    "frames":[{"file":PATH,"line":N,"fn":"Class.Method"}, ...]}
// innermost first, this file's own frames left out, frames without a
// source file (mscorlib) as "<dep>". The printing itself is mcs's own
// (ConsoleReportPrinter on stderr, the parser's StreamReportPrinter on
// stdout), so the output is unchanged. Report.cs's frames (Report.Error,
// Report.Warning, the printers) are the REPORTERS of mcs.conf: their caller
// passing the text is the line.
using System;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;

namespace Mono.CSharp
{
	static class HookLog
	{
		static string Esc (string s)
		{
			var sb = new StringBuilder ("\"");
			foreach (char c in s ?? "") {
				switch (c) {
				case '"': sb.Append ("\\\""); break;
				case '\\': sb.Append ("\\\\"); break;
				case '\n': sb.Append ("\\n"); break;
				case '\r': sb.Append ("\\r"); break;
				case '\t': sb.Append ("\\t"); break;
				default:
					if (c < ' ' || c > '~')
						sb.AppendFormat ("\\u{0:x4}", (int) c);
					else
						sb.Append (c);
					break;
				}
			}
			return sb.Append ('"').ToString ();
		}

		public static void Record (AbstractMessage msg)
		{
			string path = Environment.GetEnvironmentVariable ("RE_HOOK_OUT");
			if (string.IsNullOrEmpty (path))
				return;
			var t = new StackTrace (true);
			// "cls": the Report method the program called (the outermost
			// frame of class Report: Report.Error, Report.Warning...), a label
			string cls = null;
			for (int i = 0; i < t.FrameCount; i++) {
				MethodBase m = t.GetFrame (i).GetMethod ();
				if (m != null && m.DeclaringType == typeof (Report))
					cls = "Report." + m.Name;
			}
			var sb = new StringBuilder ();
			sb.Append ("{\"kind\":\"new\",\"cls\":").Append (cls == null ? "null" : Esc (cls));
			sb.Append (",\"message\":").Append (Esc (msg.Text));
			sb.Append (",\"code\":").Append (msg.Code);
			sb.Append (",\"level\":").Append (Esc (msg.IsWarning ? "warning" : "error"));
			sb.Append (",\"frames\":[");
			bool first = true;
			for (int i = 0; i < t.FrameCount; i++) {
				StackFrame f = t.GetFrame (i);
				MethodBase mb = f.GetMethod ();
				if (mb != null && mb.DeclaringType != null &&
				    (mb.DeclaringType == typeof (HookLog) || mb.DeclaringType == typeof (RecordingConsolePrinter) ||
				     mb.DeclaringType == typeof (RecordingStreamPrinter) || mb.DeclaringType == typeof (RecordingDriver)))
					continue;
				string file = f.GetFileName ();
				int line = f.GetFileLineNumber ();
				string fn = mb == null ? "?" : ((mb.ReflectedType != null ? mb.ReflectedType.Name + "." : "") + mb.Name);
				if (!first)
					sb.Append (",");
				first = false;
				if (string.IsNullOrEmpty (file) || line <= 0)
					sb.Append ("{\"file\":\"<dep>\",\"line\":0,\"fn\":").Append (Esc (fn)).Append ("}");
				else
					sb.Append ("{\"file\":").Append (Esc (file)).Append (",\"line\":").Append (line).Append (",\"fn\":").Append (Esc (fn)).Append ("}");
			}
			sb.Append ("]}\n");
			File.AppendAllText (path, sb.ToString ());
		}
	}

	class RecordingConsolePrinter : ConsoleReportPrinter
	{
		public override void Print (AbstractMessage msg, bool showFullPath)
		{
			HookLog.Record (msg);
			base.Print (msg, showFullPath);
		}
	}

	class RecordingStreamPrinter : StreamReportPrinter
	{
		public RecordingStreamPrinter (TextWriter writer) : base (writer)
		{
		}

		public override void Print (AbstractMessage msg, bool showFullPath)
		{
			HookLog.Record (msg);
			base.Print (msg, showFullPath);
		}
	}

	static class RecordingDriver
	{
		// driver.cs's Driver.Main, with recording printers
		public static int Main (string[] args)
		{
			Location.InEmacs = Environment.GetEnvironmentVariable ("EMACS") == "t";

			CommandLineParser cmd = new CommandLineParser (Console.Out);
			// the parser's own printer (a StreamReportPrinter on Console.Out)
			var report = (Report) typeof (CommandLineParser).GetField ("report", BindingFlags.Instance | BindingFlags.NonPublic).GetValue (cmd);
			typeof (Report).GetField ("printer", BindingFlags.Instance | BindingFlags.NonPublic).SetValue (report, new RecordingStreamPrinter (Console.Out));
			var settings = cmd.ParseArguments (args);
			if (settings == null)
				return 1;

			if (cmd.HasBeenStopped)
				return 0;

			// (Driver's Report property is private: ctx.Report is the same)
			var ctx = new CompilerContext (settings, new RecordingConsolePrinter ());
			Driver d = new Driver (ctx);

			if (d.Compile () && ctx.Report.Errors == 0) {
				if (ctx.Report.Warnings > 0) {
					Console.WriteLine ("Compilation succeeded - {0} warning(s)", ctx.Report.Warnings);
				}
				Environment.Exit (0);
				return 0;
			}

			Console.WriteLine ("Compilation failed: {0} error(s), {1} warnings",
				ctx.Report.Errors, ctx.Report.Warnings);
			Environment.Exit (1);
			return 1;
		}
	}
}
