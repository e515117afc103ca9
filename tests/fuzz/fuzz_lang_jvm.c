/*
 * fuzz_lang_jvm.c — libFuzzer target for the JVM family: the first byte
 * picks the dialect (Java, Kotlin, Kotlin script, Scala), the rest is the
 * file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_jvm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
		"src/A.java", "src/A.kt", "build.gradle.kts", "src/A.scala"};
	return fuzz_scan_pick(&fl_lang_jvm, paths, 4, data, size);
}
