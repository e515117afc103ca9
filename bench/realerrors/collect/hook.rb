# Loaded with RUBYOPT=-r only to VERIFY corpus cases: records into the file
# named by $RE_HOOK_OUT, as JSON Lines, every raise (TracePoint :raise, with
# the raising frame first) and every $stdout/$stderr write with its caller
# locations and the exception being handled ($!).
require 'json'
if ENV['RE_HOOK_OUT']
  RE_HOOK_FILE = File.open(ENV['RE_HOOK_OUT'], 'a')
  RE_HOOK_FILE.sync = true
  def re_hook_frames(locs)
    (locs || []).map { |l| { file: (l.absolute_path || l.path), line: l.lineno, fn: l.label } }
  end
  TracePoint.new(:raise) do |tp|
    e = tp.raised_exception
    msg = begin; e.message.to_s; rescue StandardError; nil; end
    RE_HOOK_FILE.puts({ kind: 'raise', cls: e.class.name, message: msg,
                        frames: [{ file: File.expand_path(tp.path), line: tp.lineno, fn: tp.method_id.to_s }] +
                                re_hook_frames(caller_locations(2)) }.to_json)
  end.enable
  module ReHookWrite
    def write(*args)
      r = { kind: 'write', fd: fileno, text: args.join, frames: re_hook_frames(caller_locations(1)) }
      r[:handling] = re_hook_frames($!.backtrace_locations) if $! && $!.backtrace_locations
      RE_HOOK_FILE.puts(r.to_json)
      super
    end
  end
  $stdout.singleton_class.prepend(ReHookWrite)
  $stderr.singleton_class.prepend(ReHookWrite)
end
