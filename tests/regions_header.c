/* Compiled by tests/cli_regions.sh against a header emitted by
 * `tinyarena plan MODEL --region FAST:... --region SLOW:... --header`: runs
 * the model as firmware does across two memories -- one static array per
 * region of exactly the header's <P>_REGION_*_BYTES, the header's init
 * table and const blob (no work block, no planner), ta_runtime_init_regions
 * -- and writes each output's raw bytes, for comparison with TFLM.
 *   regions_header MODEL.tflite OUTDIR [INPUT.raw ...] */
#include <stdio.h>
#include <string.h>

#include TA_HEADER
#include "header_io.h"

static _Alignas(16) unsigned char model[BUDGET_MODEL_BYTES];
static unsigned char fast[BUDGET_REGION_FAST_BYTES]; /* on a board: the TCM's section */
static unsigned char slow[BUDGET_REGION_SLOW_BYTES]; /* the large, slow RAM's */

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    if (header_io_model(argv[1], model, sizeof model)) return 1;
    const size_t len = sizeof model;
    ta_runtime_options opt = ta_runtime_options_for_budget(&budget, BUDGET_OPS);
    ta_runtime_use_regions(&opt, &budget_regions);
    ta_arena_region ar[BUDGET_REGIONS];
    ar[BUDGET_REGION_FAST] = (ta_arena_region){fast, sizeof fast};
    ar[BUDGET_REGION_SLOW] = (ta_arena_region){slow, sizeof slow};
    ta_runtime rt;
    ta_diag d;
    ta_arena_breakdown b;
    /* one byte short in FAST: refused with one line, before anything is written */
    ar[BUDGET_REGION_FAST].bytes--;
    if (ta_runtime_open(&rt, model, len, &opt, &d) || ta_runtime_query(&rt, NULL, 0, &b, &d))
        return fprintf(stderr, "regions_header: query: %s\n", d.msg), 1;
    if (ta_runtime_init_regions(&rt, NULL, 0, ar, BUDGET_REGIONS, &d) != TA_E_NO_MEMORY)
        return fprintf(stderr, "regions_header: a short FAST region was accepted\n"), 1;
    printf("short FAST region: %s\n", d.msg);
    ar[BUDGET_REGION_FAST].bytes++;
    if (ta_runtime_init_regions(&rt, NULL, 0, ar, BUDGET_REGIONS, &d))
        return fprintf(stderr, "regions_header: init: %s\n", d.msg), 1;
    if (header_io_inputs(&rt, argc, argv)) return 1;
    if (ta_runtime_invoke(&rt, &d)) return fprintf(stderr, "regions_header: invoke: %s\n", d.msg), 1;
    if (header_io_outputs(&rt, argv[2])) return 1;
    printf("regions_header: %s: FAST %zu B + SLOW %zu B, outputs written\n", argv[1], sizeof fast, sizeof slow);
    return 0;
}
