<?php
// Recording hook for PHPUnit (collect/phpunit.conf), loaded as
// auto_prepend_file by the conf's `phpunit` wrapper in the hooked run.
// It loads phphook/hook.php (writes to the STDOUT/STDERR streams) and adds
// what PHPUnit needs: PHPUnit prints with `print`/`printf` (its Printer
// writes to no stream by default, Command::exitWithErrorMessage prints),
// which goes through PHP's output layer, not the STDOUT stream; so an
// output buffer with a chunk size of 1 (its handler runs during every
// print, inside the printing frame) records each output with its PHP stack
// (debug_backtrace in the handler: frame 0 is the print's file:line) as a
// write record on fd 1, and every Throwable among the arguments of that
// stack, plus the exception a TestFailure argument holds (a test's error,
// failure or warning being printed; an ExceptionWrapper is unwrapped to the
// exception it wraps), as raise records at getFile():getLine() with
// getTrace(), the shape phphook/hook.php writes. The output is passed on
// unchanged.
require __DIR__ . '/phphook/hook.php';

if (getenv('RE_HOOK_OUT')) {
    function re_pu_throwable($e): void
    {
        static $seen = [];
        $chain = [];
        for (; $e; $e = $e->getPrevious()) {
            array_unshift($chain, $e);
        }
        foreach ($chain as $e) {
            if (isset($seen[spl_object_id($e)])) {
                continue;
            }
            $seen[spl_object_id($e)] = true;
            re_hook_emit(['kind' => 'raise', 'cls' => get_class($e), 'message' => $e->getMessage(),
                'frames' => re_hook_frames($e->getTrace(), 0, $e->getFile(), $e->getLine())]);
        }
    }

    function re_pu_output(string $buf, int $phase): string
    {
        if ($buf === '') {
            return $buf;
        }
        $bt = debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT);
        foreach ($bt as $f) {
            foreach ($f['args'] ?? [] as $a) {
                if (is_object($a) && method_exists($a, 'thrownException') && !($a instanceof Throwable)) {
                    $a = $a->thrownException();
                }
                if (!($a instanceof Throwable)) {
                    continue;
                }
                if (method_exists($a, 'getOriginalException') && $a->getOriginalException()) {
                    re_pu_throwable($a->getOriginalException());
                }
                re_pu_throwable($a);
            }
        }
        // $bt[0] is this handler, called where the output was made (its
        // file:line is the print's; a printf's frame follows, fileless)
        re_hook_emit(['kind' => 'write', 'fd' => 1, 'text' => $buf, 'level' => null, 'frames' => re_hook_frames($bt, 0)]);
        return $buf;
    }

    // PHPUnit turns a broken data provider or a test class without tests
    // into an ErrorTestCase/WarningTestCase that carries the message and
    // throws it only when that test runs (ErrorTestCase::runTest): the text
    // is made where the test case is built. These two classes are loaded
    // here from the installed file with one call added at the start of
    // their constructor (same lines), which records the message and the
    // stack of the `new` as a construction record ("new"); being eval'd,
    // their own frames are no installed file's.
    function re_pu_new(string $cls, string $message): void
    {
        re_hook_emit(['kind' => 'new', 'cls' => $cls, 'message' => $message,
            'frames' => re_hook_frames(debug_backtrace(), 1)]);
    }

    spl_autoload_register(static function (string $class): void {
        $short = ['PHPUnit\\Framework\\ErrorTestCase' => 'ErrorTestCase', 'PHPUnit\\Framework\\WarningTestCase' => 'WarningTestCase'][$class] ?? null;
        if ($short === null) {
            return;
        }
        $code = file_get_contents('/usr/share/php/PHPUnit/Framework/' . $short . '.php');
        $code = preg_replace('/^<\?php declare\(strict_types=1\);/', '', $code, 1, $n1);
        $code = preg_replace('/(public function __construct\(string \$message = \'\'\)\n\s*\{)/', '$1 \\re_pu_new(__CLASS__, $message);', $code, 1, $n2);
        if ($n1 === 1 && $n2 === 1) {
            eval($code);
        }
    }, true, true);

    ob_start('re_pu_output', 1);
}
