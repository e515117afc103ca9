/*
 * fuzz_lang_rust.c — libFuzzer target: scan the input as a .rs file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_rust;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan(&fl_lang_rust, "fuzz/input.rs", data, size);
}
