/*
 * fuzz_lang_php.c — libFuzzer target for the php scanner.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_php;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan(&fl_lang_php, "f.php", data, size);
}
