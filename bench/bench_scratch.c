/* The scratch `optimal` asks for (ta_plan_scratch_bytes) on buffer lists,
 * and a plan run in exactly that much: on the CSV lists named (e.g. the
 * shared data's planning directory), model-like random lists (tests/gen_lists.h)
 * of 100 and 1,000 buffers and one tiling question (an event packing of
 * 300 buffers, tests/gen_packing.c), where the beam's states are carved.
 *
 *   bench_scratch [LIST.csv ...]
 *
 * The runs have a work budget of 20,000 units and no clock, so the arenas
 * printed are the same on any machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers_csv.h"
#include "cli.h"
#include "gen_lists.h"
#include "gen_packing.h"
#include "tinyarena/plan.h"

static void measure(const char *name, const ta_request *r, size_t n) {
    const ta_strategy *s = ta_strategy_find("optimal");
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.work_limit = 20000;
    size_t need = 0;
    if (ta_plan_scratch_bytes(s, r, n, &opt, &need)) {
        printf("%-36s %6zu  scratch_bytes failed\n", name, n);
        return;
    }
    void *scr = cli_xmalloc(need ? need : 1);
    size_t *off = cli_xcalloc(n ? n : 1, sizeof *off);
    ta_plan_result res;
    ta_diag d;
    ta_status st = ta_plan_run(s, r, n, &opt, scr, need, off, &res, &d);
    if (st)
        printf("%-36s %6zu %14zu  plan failed: %s\n", name, n, need, d.msg);
    else
        printf("%-36s %6zu %14zu %14zu\n", name, n, need, res.arena_bytes);
    free(off);
    free(scr);
}

int main(int argc, char **argv) {
    printf("%-36s %6s %14s %14s\n", "list", "n", "scratch B", "arena B");
    for (int i = 1; i < argc; i++) {
        buffer_list bl;
        if (!buffers_csv_read(argv[i], 0, &bl)) continue; /* it says why */
        const char *base = strrchr(argv[i], '/');
        measure(base ? base + 1 : argv[i], bl.reqs, bl.n);
        buffers_csv_free(&bl);
    }
    static ta_request r[1000];
    for (size_t n = 100; n <= 1000; n *= 10) {
        uint64_t state = 7 + n;
        gen_list_model_like(r, n, &state);
        char name[64];
        snprintf(name, sizeof name, "model-like %zu (gen_lists.h)", n);
        measure(name, r, n);
    }
    size_t k = gen_packing_events(r, NULL, 300, 16, 16384, 16, 0x5eed + 300000);
    measure("event packing 300 (a tiling)", r, k);
    return 0;
}
