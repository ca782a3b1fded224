/* A host program built against an installed / embedded tinyarena: plans a
 * model (greedy) and runs it once, writing output 0's bytes to a file.
 *   consumer MODEL.tflite INPUT.raw OUTPUT.bin */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tinyarena/runtime.h"

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = aligned_alloc(16, ((size_t)n + 15) & ~(size_t)15);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    size_t len, in_len;
    unsigned char *model = slurp(argv[1], &len), *input = slurp(argv[2], &in_len);
    if (!model || !input) return 2;
    ta_runtime rt;
    ta_diag d;
    ta_runtime_options opt = ta_runtime_options_default();
    if (ta_runtime_use_strategy(&opt, "greedy") || ta_runtime_open(&rt, model, len, &opt, &d)) return 1;
    size_t work = ta_runtime_work_bytes(&rt);
    void *wm = malloc(work);
    ta_arena_breakdown b;
    ta_status st;
    while ((st = ta_runtime_query(&rt, wm, work, &b, &d)) == TA_E_NO_MEMORY && b.work_bytes > work)
        wm = realloc(wm, work = b.work_bytes);
    if (st) {
        fprintf(stderr, "query: %s\n", d.msg);
        return 1;
    }
    void *arena = malloc(b.total);
    if (ta_runtime_init(&rt, wm, work, arena, b.total, &d)) {
        fprintf(stderr, "init: %s\n", d.msg);
        return 1;
    }
    free(wm);
    const ta_io *in = ta_runtime_input(&rt, 0);
    if (in->bytes != in_len) return 1;
    memcpy(in->data, input, in_len);
    if (ta_runtime_invoke(&rt, &d)) {
        fprintf(stderr, "invoke: %s\n", d.msg);
        return 1;
    }
    const ta_io *out = ta_runtime_output(&rt, 0);
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(out->data, 1, out->bytes, f) != out->bytes || fclose(f)) return 1;
    printf("planned %zu B, arena %zu B, output %zu B\n", b.planned, b.total, out->bytes);
    free(arena);
    free(model);
    free(input);
    return 0;
}
