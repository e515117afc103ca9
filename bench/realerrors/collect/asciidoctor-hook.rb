# Loaded after hook.rb (only when $RE_HOOK_OUT is set, by the `asciidoctor`
# wrapper that asciidoctor.conf writes first on PATH), to VERIFY
# asciidoctor's cases. Asciidoctor reports a document's problems with
# `logger.warn/error/info ...` calls; its Logger (lib/asciidoctor/logging.rb,
# a ::Logger) writes the line through Ruby's LogDevice, so hook.rb's record
# of that write carries the whole stack, and resolve.py, walking it outward
# from the logger call, can stop at an outer frame whose lines happen to
# hold two printed words (the parser's `when :sidebar` / `build_block`
# lines for "unterminated sidebar block").
# This hook wraps ::Logger#add (a module prepended to ::Logger, so the
# frame of Asciidoctor::Logger#add in logging.rb, the conf's REPORTERS, is
# on the stack) and records, for each line an Asciidoctor::Logger is about
# to write, the text exactly as it will be written, as a hook.rb write
# record (fd 2) whose frames stop at the first frame outside ::Logger and
# logging.rb: the program's `logger.X` call (`stack` keeps the whole
# stack). The record comes before hook.rb's record of the same write.
# A message given as a block (`logger.info { ... }`) is computed here once
# and passed on as the message: the written text is the same.
if ENV['RE_HOOK_OUT'] && defined?(RE_HOOK_FILE)
  require 'logger'
  module ReAsciidoctorLoggerHook
    def add(severity, message = nil, progname = nil, &blk)
      sev = severity || ::Logger::UNKNOWN
      if defined?(::Asciidoctor::Logger) && is_a?(::Asciidoctor::Logger) && @logdev && sev >= level
        if message.nil?
          if blk
            message = blk.call
            blk = nil
          else
            message = progname
            progname = nil
          end
        end
        text = format_message(format_severity(sev), Time.now, progname || @progname, message)
        locs = caller_locations(1)
        cut = locs.index do |l|
          p = l.path.to_s
          !(p.end_with?('/logger.rb', '/asciidoctor/logging.rb') || p.include?('/logger/'))
        end
        mine = cut ? locs[0..cut] : locs
        RE_HOOK_FILE.puts({ kind: 'write', fd: 2, via: 'Asciidoctor::Logger', text: text,
                            frames: re_hook_frames(mine), stack: re_hook_frames(locs) }.to_json)
      end
      super(severity, message, progname, &blk)
    end
  end
  ::Logger.prepend(ReAsciidoctorLoggerHook)
end
