/* Test-side helpers for running a model through ta_runtime and checking it
 * against TFLM's recorded outputs (test_runtime, test_op_cases).  Tests may
 * malloc; the library under test never does. */
#ifndef TA_TEST_RUNTIME_HARNESS_H
#define TA_TEST_RUNTIME_HARNESS_H
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "tinyarena/runtime.h"

/* The model bytes as firmware keeps them, in flash: the file mapped
 * PROT_READ, so a write into the model anywhere in open, query, init,
 * invoke, reset or export faults (SIGSEGV fails the test).  The mapping is
 * page-aligned, more than the 16 bytes the reader asks.  NULL when the
 * file cannot be mapped (or is empty). */
static inline unsigned char *ta_test_map_readonly(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    struct stat sb;
    void *p = MAP_FAILED;
    if (fstat(fd, &sb) == 0 && sb.st_size > 0) p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return NULL;
    *len = (size_t)sb.st_size;
    return p;
}

/* ta_runtime_open, then ta_runtime_query with a work area grown to what the
 * query asks (at most 6 tries).  *work (malloc'ed, the caller frees it,
 * whatever the status) and *work_bytes are the last area tried; *b is the
 * query's breakdown. */
static inline ta_status ta_test_open_query(ta_runtime *rt, const unsigned char *model, size_t len,
                                           const ta_runtime_options *opt, ta_arena_breakdown *b, void **work,
                                           size_t *work_bytes, ta_diag *d) {
    *work = NULL;
    *work_bytes = 0;
    ta_status st = ta_runtime_open(rt, model, len, opt, d);
    if (st) return st;
    size_t wb = ta_runtime_work_bytes(rt);
    *work = wb ? malloc(wb) : NULL;
    for (int i = 0; i < 6; i++) {
        st = ta_runtime_query(rt, *work, wb, b, d);
        if (st != TA_E_NO_MEMORY) break;
        wb = b->work_bytes;
        free(*work);
        *work = malloc(wb);
    }
    *work_bytes = wb;
    return st;
}

/* 1 when every output of rt holds the bytes of dir/tflm_outputK.bin; else
 * prints one line per differing output (label, when not NULL, names the
 * mode) and returns 0. */
static inline int ta_test_outputs_match(const ta_runtime *rt, const char *dir, const char *label) {
    char path[2048];
    int ok = 1;
    for (uint32_t k = 0; k < ta_runtime_output_count(rt); k++) {
        const ta_io *out = ta_runtime_output(rt, k);
        size_t len = 0;
        /* a directory name too long for path reads no reference: a mismatch */
        unsigned char *ref = snprintf(path, sizeof path, "%s/tflm_output%u.bin", dir, k) < (int)sizeof path
                                 ? ta_test_read_file(path, &len)
                                 : NULL;
        if (!ref || len != out->bytes || memcmp(ref, out->data, len) != 0) {
            size_t diff = 0, first = 0;
            for (size_t i = 0; ref && i < len && i < out->bytes; i++)
                if (ref[i] != ((unsigned char *)out->data)[i]) {
                    if (!diff) first = i;
                    diff++;
                }
            fprintf(stderr, "%s%s%s%s: output %u differs from TFLM (%zu of %zu bytes, first at %zu; ours %zu bytes)\n",
                    dir, label ? " [" : "", label ? label : "", label ? "]" : "", k, diff, len, first, out->bytes);
            ok = 0;
        }
        free(ref);
    }
    return ok;
}
#endif
