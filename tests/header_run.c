/* Compiled by tests/header_run.sh against a header emitted by
 * `tinyarena plan MODEL --header`: runs the model from a static arena of
 * exactly the header's size with the header's table as the plan (no planner
 * call) and only the header's ops (<P>_OPS), and writes each output's raw
 * bytes, for comparison with TFLM.
 *   header_run MODEL.tflite OUTDIR [INPUT.raw ...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include TA_HEADER
#include "header_io.h"
#include "tinyarena/runtime.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define P(x) CAT(TA_PREFIX, x)

static _Alignas(16) unsigned char model[P(_MODEL_BYTES)];
static unsigned char arena[P(_ARENA_BYTES)];

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    if (header_io_model(argv[1], model, sizeof model)) return 1;
    const size_t len = sizeof model;
#ifdef TA_OPS /* the header's op list: the model runs with its own ops only */
    ta_runtime_options opt = ta_runtime_options_for_ops(TA_OPS);
#else /* a header from before the op list */
    ta_runtime_options opt = ta_runtime_options_default();
#endif
    ta_runtime_use_budget(&opt, &TA_BUDGET);
#ifdef TA_OPS
    /* with an init table, the firmware's options: no work-block path */
    ta_runtime_options run = TA_BUDGET.init && TA_BUDGET.consts ? ta_runtime_options_for_budget(&TA_BUDGET, TA_OPS) : opt;
#else
    ta_runtime_options run = opt;
#endif
    ta_runtime rt;
    ta_diag d;
    if (ta_runtime_open(&rt, model, len, &run, &d) || ta_runtime_init(&rt, NULL, 0, arena, sizeof arena, &d))
        return fprintf(stderr, "header_run: init: %s\n", d.msg), 1;
    if (header_io_inputs(&rt, argc, argv)) return 1;
    if (ta_runtime_invoke(&rt, &d)) return fprintf(stderr, "header_run: invoke: %s\n", d.msg), 1;
    if (header_io_outputs(&rt, argv[2])) return 1;
    /* Init from the init table compared each record with the checksum the
     * CLI took; re-derive them here too (the work-block path without the
     * init table runs prepare and compares every record byte for byte), so
     * that a build for another ABI (header_abi: -m32) still proves the
     * 64-bit CLI's blob is what its own prepare derives. */
    ta_runtime_use_init(&opt, NULL, 0);
    ta_arena_breakdown b;
    ta_status st = ta_runtime_open(&rt, model, len, &opt, &d);
    size_t wb = ta_runtime_work_bytes(&rt);
    void *work = NULL;
    for (int i = 0; i < 8 && !st; i++) {
        free(work);
        work = malloc(wb);
        st = ta_runtime_query(&rt, work, wb, &b, &d);
        if (st != TA_E_NO_MEMORY || b.work_bytes <= wb) break;
        wb = b.work_bytes;
        st = TA_OK;
    }
    free(work);
    if (st) return fprintf(stderr, "header_run: the const blob re-derived: %s\n", d.msg), 1;
    printf("header_run: %s: arena %zu B (planned %u), outputs written, const blob re-derived\n", argv[1], sizeof arena,
           P(_BYTES));
    return 0;
}
