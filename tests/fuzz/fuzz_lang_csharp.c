/*
 * fuzz_lang_csharp.c — libFuzzer target for the C# language file.
 */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_csharp;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fl_src src = {.path = "src/A.cs", .text = (const char *)data,
		      .len = size};
	fl_sites *s = fl_sites_new();
	fl_lang_csharp.scan(NULL, &src, s);
	fl_sites_free(s);
	return 0;
}
