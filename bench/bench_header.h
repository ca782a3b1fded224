/* Reading what `tinyarena plan --header` emitted, for the benchmarks that
 * measure firmware figures from the real headers (bench_fw_arena,
 * bench_align). */
#ifndef TA_BENCH_HEADER_H
#define TA_BENCH_HEADER_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of the k-th (0-based) `#define NAME N` line of text, or 0 (the
 * 64-bit figure is the first of a pair, the 32-bit one the second). */
static inline size_t bench_define_of(const char *text, const char *name, int k) {
    char key[128];
    snprintf(key, sizeof key, "#define %s ", name);
    for (const char *p = text; (p = strstr(p, key)); p += strlen(key))
        if (k-- == 0) return (size_t)strtoull(p + strlen(key), NULL, 10);
    return 0;
}
#endif
