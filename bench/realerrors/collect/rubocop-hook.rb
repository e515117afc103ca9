# Loaded after hook.rb (only when $RE_HOOK_OUT is set, by the `rubocop`
# wrapper that rubocop.conf writes first on PATH), to VERIFY rubocop's
# cases. An offense is neither raised nor written where it is made: a cop
# calls add_offense(node, message: ...) (or add_global_offense), which
# builds an Offense that a formatter prints later. This hook wraps
# RuboCop::Cop::Base#add_offense and #add_global_offense (a module prepended
# to the class as soon as it is opened) and records, for each offense the
# call added, its final message (as the formatter prints it after the
# severity) with the caller's stack, innermost first, in hook.rb's JSON
# Lines format as a construction record ({kind: 'new'}); resolve.py reads
# it like an exception's construction. A message the cop did not pass is
# the one Base#find_message got from the cop's `message` method or MSG.
# The recorded message is the cop's, before Base#annotate put the cop's
# name (and any details or style guide link) around it (`annotated` keeps
# the Offense's message): `Metrics/MethodLength` is also in the
# `# rubocop:disable` comments of RuboCop's own source, and resolve.py
# would take such a frame for the one holding the text.
# Kernel#warn does not go through $stderr.write while $stderr is the
# original STDERR (Ruby writes it directly), so hook.rb does not see
# RuboCop's `warn "..."` lines: Warning.warn, which Kernel#warn calls, is
# wrapped too and recorded as hook.rb's write records (fd 2).
if ENV['RE_HOOK_OUT'] && defined?(RE_HOOK_FILE)
  module ReRubocopHook
    def re_hook_offense(before, locs)
      offs = instance_variable_get(:@current_offenses)
      return unless offs.is_a?(Array) && offs.size > before

      # the construction is the add_offense call: the stack is kept up to
      # the first frame outside Base/Cop (the cop's, or its mixin's, call),
      # so that an outer frame whose lines happen to hold the text (the
      # cop's callback a few lines under its MSG constant) is not taken
      # for it; `stack` keeps the whole stack
      cut = locs.index { |l| !l.path.to_s.end_with?('/rubocop/cop/base.rb', '/rubocop/cop/cop.rb') }
      mine = cut ? locs[0..cut] : locs
      raw = @re_hook_raw_message
      offs[before..].each do |o|
        full = begin; o.message.to_s; rescue StandardError; nil; end
        msg = raw.is_a?(String) && full && full.include?(raw) ? raw : full
        RE_HOOK_FILE.puts({ kind: 'new', cls: 'RuboCop::Cop::Offense', message: msg, annotated: full,
                            cop: (o.cop_name rescue nil),
                            frames: re_hook_frames(mine), stack: re_hook_frames(locs) }.to_json)
      end
    end

    def annotate(message)
      @re_hook_raw_message = message
      super
    end

    def add_offense(*args, **kw, &blk)
      @re_hook_raw_message = nil
      offs = instance_variable_get(:@current_offenses)
      before = offs.is_a?(Array) ? offs.size : 0
      r = super
      re_hook_offense(before, caller_locations(1))
      r
    end

    def add_global_offense(*args, **kw, &blk)
      @re_hook_raw_message = nil
      offs = instance_variable_get(:@current_offenses)
      before = offs.is_a?(Array) ? offs.size : 0
      r = super
      re_hook_offense(before, caller_locations(1))
      r
    end
  end

  module ReRubocopWarn
    def warn(msg, *rest, **kw)
      # Kernel#warn's own frame (<internal:warning>) left out
      locs = caller_locations(1).reject { |l| l.path.to_s.start_with?('<internal:') }
      RE_HOOK_FILE.puts({ kind: 'write', fd: 2, text: msg.to_s, frames: re_hook_frames(locs) }.to_json)
      super
    end
  end
  Warning.singleton_class.prepend(ReRubocopWarn)

  RE_RUBOCOP_TP = TracePoint.new(:class) do |tp|
    if tp.self.is_a?(Class) && tp.self.name == 'RuboCop::Cop::Base'
      tp.self.prepend(ReRubocopHook)
      RE_RUBOCOP_TP.disable
    end
  end
  RE_RUBOCOP_TP.enable
end
