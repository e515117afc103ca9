/*
 * fuzz_lang_jvm.c — libFuzzer target for the JVM family: the first byte
 * picks the dialect (Java, Kotlin, Kotlin script, Scala), the rest is the
 * file.
 */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_jvm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {"src/A.java", "src/A.kt",
					    "build.gradle.kts", "src/A.scala"};
	const char *path = paths[0];
	if (size > 0) {
		path = paths[data[0] % 4];
		data++;
		size--;
	}
	fl_src src = {.path = path, .text = (const char *)data, .len = size};
	fl_sites *s = fl_sites_new();
	fl_lang_jvm.scan(NULL, &src, s);
	fl_sites_free(s);
	return 0;
}
