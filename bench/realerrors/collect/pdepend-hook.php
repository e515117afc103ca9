<?php
// Recording hook for PDepend (collect/pdepend.conf), loaded as
// auto_prepend_file by the conf's `pdepend` wrapper in the hooked run.
// It loads phphook/hook.php (writes to the STDOUT/STDERR streams, with
// their stacks) and adds what PDepend needs: PDepend prints everything with
// `echo`/`printf` (TextUI/Command.php, TextUI/ResultPrinter.php), which goes
// through PHP's output layer, not the STDOUT stream; so, as in
// phpunit-hook.php, an output buffer with a chunk size of 1 (its handler
// runs during every echo argument, inside the printing frame) records each
// output with its PHP stack as a write record on fd 1. The help, usage,
// version, workaround and statistics texts and the progress lines
// (Command's print* methods: printHelp, printUsage, printVersion,
// printWorkarounds, printStatistics, printLogOptions...; ResultPrinter) are what
// PDepend prints around an error, not the error: their writes keep level
// null, every other write of the program is marked `level: "error"`, so
// that resolve.py reads the error line before the help text printed above
// it ("Unknown option '--x' given." comes after the whole help). The output
// is passed on unchanged.
require __DIR__ . '/phphook/hook.php';

if (getenv('RE_HOOK_OUT')) {
    function re_pd_output(string $buf, int $phase): string
    {
        if ($buf === '') {
            return $buf;
        }
        $bt = debug_backtrace();
        $level = 'error';
        foreach ($bt as $f) {
            $cls = $f['class'] ?? '';
            if (($cls === 'PDepend\\TextUI\\Command' && str_starts_with($f['function'], 'print'))
                || $cls === 'PDepend\\TextUI\\ResultPrinter') {
                $level = null;
                break;
            }
        }
        // $bt[0] is this handler, called where the output was made (its
        // file:line is the echo's; a printf's frame follows, fileless)
        re_hook_emit(['kind' => 'write', 'fd' => 1, 'text' => $buf, 'level' => $level, 'frames' => re_hook_frames($bt, 0)]);
        return $buf;
    }

    ob_start('re_pd_output', 1);

    // An exception nobody catches (ExtensionManager's, for an extension
    // class of the configuration file) is reported by PHP itself as
    // "Uncaught CLS: MSG in FILE:LINE\nStack trace:\n#0 FILE(LINE): FN()..."
    // (no stream write, no handler): at shutdown that report
    // (error_get_last) is written as a raise record at FILE:LINE, where the
    // exception was built, with the printed frames (#i's function holds
    // #(i-1)'s line).
    register_shutdown_function(static function (): void {
        $err = error_get_last();
        if (!$err || $err['type'] !== E_ERROR
            || !preg_match('/^Uncaught ([^:\s]+): (.*) in (\/\S+):(\d+)\nStack trace:\n(.*)$/s', $err['message'], $m)) {
            return;
        }
        preg_match_all('/^#\d+ (\/[^(]+)\((\d+)\): ([^\n]*?)(?:\(\))?$/m', $m[5], $t, PREG_SET_ORDER);
        $fn = static function (int $i) use ($t): string {
            return isset($t[$i]) ? preg_replace('/^.*(->|::)/', '', $t[$i][3]) : 'main';
        };
        $frames = [['file' => $m[3], 'line' => (int) $m[4], 'fn' => $fn(0)]];
        foreach ($t as $i => $f) {
            $frames[] = ['file' => $f[1], 'line' => (int) $f[2], 'fn' => $fn($i + 1)];
        }
        re_hook_emit(['kind' => 'raise', 'cls' => $m[1], 'message' => $m[2], 'frames' => $frames, 'via' => 'uncaught']);
    });
}
