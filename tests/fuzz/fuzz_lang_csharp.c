/*
 * fuzz_lang_csharp.c — libFuzzer target for the C# language file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_csharp;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan(&fl_lang_csharp, "src/A.cs", data, size);
}
