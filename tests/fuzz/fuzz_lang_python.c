/*
 * fuzz_lang_python.c — libFuzzer target: scan arbitrary bytes as a python
 * file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_python;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan(&fl_lang_python, "fuzz/input.py", data, size);
}
