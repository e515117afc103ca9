<?php
// Recording hook for PHP programs (collect.sh, FAMILY=php), loaded with
// auto_prepend_file through phphook/hook.ini (PHP_INI_SCAN_DIR). A write
// filter on STDOUT and STDERR records, for every write, the text and the
// PHP stack of that write (debug_backtrace inside the filter: the fwrite
// call and its callers), and every Throwable found among the arguments of
// that stack (an exception being rendered) as a raise record (a write
// also carries the <error>/<warning> tag its message had, as `level`): its message
// and the place it was built (getFile/getLine, getTrace), inner
// (getPrevious) ones first. Output: JSON Lines in $RE_HOOK_OUT, the shape
// resolve.py reads. The program's own output is passed on unchanged.
if (getenv('RE_HOOK_OUT')) {
    class ReHookWriteFilter extends php_user_filter
    {
        public function filter($in, $out, &$consumed, bool $closing): int
        {
            while ($bucket = stream_bucket_make_writeable($in)) {
                re_hook_record($this->params, $bucket->data);
                $consumed += $bucket->datalen;
                stream_bucket_append($out, $bucket);
            }
            return PSFS_PASS_ON;
        }
    }

    function re_hook_emit(array $rec): void
    {
        file_put_contents(getenv('RE_HOOK_OUT'), json_encode($rec, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE) . "\n", FILE_APPEND);
    }

    function re_hook_frames(array $bt, int $from, ?string $file = null, ?int $line = null): array
    {
        // a frame's file:line is where its function was called; the function
        // holding that line is the next frame's
        $fr = [];
        if ($file !== null) {
            $fr[] = ['file' => $file, 'line' => $line, 'fn' => $bt[$from]['function'] ?? 'main'];
        }
        for ($i = $from; $i < count($bt); $i++) {
            if (!isset($bt[$i]['file'])) {
                continue;
            }
            $fr[] = ['file' => $bt[$i]['file'], 'line' => $bt[$i]['line'], 'fn' => $bt[$i + 1]['function'] ?? 'main'];
        }
        return $fr;
    }

    function re_hook_record($fd, string $text): void
    {
        static $seen = [];
        $bt = debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT);
        // the exceptions being rendered: any Throwable argument up the stack
        foreach ($bt as $f) {
            foreach ($f['args'] ?? [] as $a) {
                if (!($a instanceof Throwable)) {
                    continue;
                }
                $chain = [];
                for ($e = $a; $e; $e = $e->getPrevious()) {
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
        }
        // the level the program gave the message: a <error> or <warning>
        // console tag in a string argument up the stack (before formatting)
        $level = null;
        foreach ($bt as $f) {
            foreach ($f['args'] ?? [] as $a) {
                foreach ((array) $a as $s) {
                    if (is_string($s) && preg_match('/<(error|warning)>/', $s, $m)) {
                        $level = $level ?? $m[1];
                    }
                }
            }
        }
        // $bt[0] is this function, [1] the filter, [2] the fwrite call
        re_hook_emit(['kind' => 'write', 'fd' => $fd, 'text' => $text, 'level' => $level, 'frames' => re_hook_frames($bt, 2)]);
    }

    stream_filter_register('re_hook_write', 'ReHookWriteFilter');
    stream_filter_append(STDOUT, 're_hook_write', STREAM_FILTER_WRITE, 1);
    stream_filter_append(STDERR, 're_hook_write', STREAM_FILTER_WRITE, 2);
}
