/* Firmware-style inference: one static arena of exactly the generated
 * budget, a precomputed plan (no planner code), only the kernels of the
 * model's ops (the header's op list), the op constants and the init table
 * read from the header's const arrays (flash), no malloc.  The only file
 * I/O is reading the model bytes (firmware would have them in flash). */
#include <stdio.h>
#include <string.h>

#include "model_budget.h" /* generated: tinyarena plan MODEL --header model_budget.h */
#include "tinyarena/runtime.h"

/* TFLM asks for 16-byte aligned model bytes; the arena needs no alignment. */
static _Alignas(16) unsigned char model[MODEL_BUDGET_MODEL_BYTES];
static unsigned char arena[MODEL_BUDGET_ARENA_BYTES];

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL.tflite\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    size_t len = f ? fread(model, 1, sizeof model, f) : 0;
    if (f) fclose(f);
    if (len != sizeof model) {
        fprintf(stderr, "%s: expected %u model bytes\n", argv[1], (unsigned)MODEL_BUDGET_MODEL_BYTES);
        return 1;
    }
    /* the model's ops only (the header's op list): no other kernel is linked;
     * plan, op constants and init table from the header, hash checked; no
     * work-block path: no importer, rewrite, lifetime analysis or prepare */
    ta_runtime_options opt = ta_runtime_options_for_budget(&model_budget, MODEL_BUDGET_OPS);
    ta_runtime rt;
    ta_diag d;
    if (ta_runtime_open(&rt, model, len, &opt, &d) ||
        ta_runtime_init(&rt, NULL, 0, arena, sizeof arena, &d)) { /* in place: nothing is built, no work block */
        fprintf(stderr, "init: %s\n", d.msg);
        return 1;
    }
    const ta_io *in = ta_runtime_input(&rt, 0);
    memset(in->data, 0, in->bytes); /* a flat grey frame */
    if (ta_runtime_invoke(&rt, &d)) {
        fprintf(stderr, "invoke: %s\n", d.msg);
        return 1;
    }
    const ta_io *out = ta_runtime_output(&rt, 0);
    printf("arena %u bytes (planned %u, persistent %u), %u planned buffers\n",
           (unsigned)sizeof arena, (unsigned)MODEL_BUDGET_BYTES,
           (unsigned)MODEL_BUDGET_PERSISTENT_BYTES, (unsigned)MODEL_BUDGET_COUNT);
#ifdef MODEL_BUDGET_CONST_BYTES /* headers since the const blob */
    printf("op constants: %u bytes of flash, read in place\n", (unsigned)MODEL_BUDGET_CONST_BYTES);
#endif
    for (size_t i = 0; i < out->bytes && out->dtype == TA_DTYPE_INT8; i++) {
        int q = ((const signed char *)out->data)[i];
        printf("output[%u] = %d (%.4f)\n", (unsigned)i, q, out->scale * (q - out->zero_point));
    }
    return 0;
}
