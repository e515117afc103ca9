/*
 * fuzz_lang_go.c — libFuzzer target: scan the input as a .go file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_go;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan(&fl_lang_go, "fuzz/input.go", data, size);
}
