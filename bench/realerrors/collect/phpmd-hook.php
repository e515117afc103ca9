<?php
// Recording hook for PHPMD (collect/phpmd.conf), loaded as
// auto_prepend_file by the conf's `phpmd` wrapper in the hooked run.
// It loads phphook/hook.php (writes to the STDOUT/STDERR streams, with
// their stacks) and adds what PHPMD's rule violations need: a rule reports
// a violation with `$this->addViolation($node, $args)`, whose text (the
// rule's message from its ruleset XML, `{0}`... replaced by the args) is
// made in RuleViolation's constructor and printed much later by a
// renderer, on no stack of that construction. So PHPMD\RuleViolation is
// loaded here from the installed file with one call added at the end of
// the line that closes the `if (is_array($violationMessage))` block (the
// same lines), which records the final description and the stack of the
// `new RuleViolation(...)` as a construction record ("new"); being eval'd,
// the constructor's own frame is no installed file's, so the frames start
// at AbstractRule::addViolation (the conf's REPORTERS) and its caller, the
// rule's own `$this->addViolation(...)` line.
require __DIR__ . '/phphook/hook.php';

if (getenv('RE_HOOK_OUT')) {
    function re_md_new(string $cls, string $message): void
    {
        re_hook_emit(['kind' => 'new', 'cls' => $cls, 'message' => $message,
            'frames' => re_hook_frames(debug_backtrace(), 1)]);
    }

    spl_autoload_register(static function (string $class): void {
        if ($class !== 'PHPMD\\RuleViolation') {
            return;
        }
        $code = file_get_contents('/usr/share/php/PHPMD/RuleViolation.php');
        $code = preg_replace('/(\$this->description = \$violationMessage;\n\s*\})/',
            '$1 \\re_md_new(__CLASS__, (string) $this->description);', $code, 1, $n);
        if ($n === 1) {
            eval('?>' . $code);
        }
    }, true, true);
}
