/* fuzz_lang_php.c — libFuzzer target for the php scanner. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_php;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fl_src src = {.path = "f.php", .text = (const char *)data, .len = size};
	fl_sites *s = fl_sites_new();
	fl_lang_php.scan(NULL, &src, s);
	fl_sites_free(s);
	return 0;
}
