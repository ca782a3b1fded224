/* bench_rewrite: going below the bound.  For every model of
 * models/MANIFEST.tsv, planned from its .tflite (tensors only: TFLM's buffer
 * list), the lower bound and the optimal arena under TFLM's rules, then the
 * same with every rewrite (rewrite.h: alias, inplace, fusepad, order) and
 * what each applied to.
 *
 *   bench_rewrite [DATA_DIR [TIME_LIMIT_S]]
 *
 * DATA_DIR defaults to $TINYARENA_DATA, then ../shared.  Prints one row per
 * model, then the rows that save bytes as a Markdown table (the README's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_load.h"
#include "model_plan.h"
#include "plan_report.h"
#include "tinyarena/rewrite.h"

typedef struct {
    char name[64];
    size_t bufs, bound, arena, bufs_rw, bound_rw, arena_rw;
    bool proven, proven_rw;
    ta_rewrite_stats st;
} row_t;

/* optimal on one plan: arena, bound, proof */
static bool plan_optimal(const model_plan *mp, const ta_plan_options *base, bool offline, size_t *bound, size_t *arena,
                         bool *proven) {
    ta_plan_options opt = *base;
    if (offline) opt.flags |= TA_PLAN_ALLOW_FIXED_CONFLICT;
    plan_outcome o = plan_report_run(ta_strategy_find("optimal"), mp->reqs, mp->n, &opt);
    free(o.offsets);
    if (o.st) return false;
    *bound = o.res.lower_bound_bytes;
    *arena = o.res.arena_bytes;
    *proven = o.res.proof == TA_PROOF_OPTIMAL;
    return true;
}

static bool bench_model(const char *path, const char *file, const ta_plan_options *opt, row_t *r) {
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%.*s", (int)(strlen(file) > 7 ? strlen(file) - 7 : strlen(file)), file);
    loaded_model lm;
    bool ok = false;
    if (model_load(path, &lm) == CLI_OK) {
        ta_lifetime_options lo = {.align = 16, .offline_offsets = lm.offline, .n_offline = lm.n_offline};
        model_plan mp, mr;
        memset(&mp, 0, sizeof mp);
        memset(&mr, 0, sizeof mr);
        const ta_graph *g = NULL;
        ta_graph g2;
        void *g2mem = NULL;
        ok = model_plan_build(&mp, &lm.g, &lo, NULL, 0, path) == CLI_OK &&
             plan_optimal(&mp, opt, lm.offline != NULL, &r->bound, &r->arena, &r->proven) &&
             model_rewrite_graph(&lm.g, TA_REWRITE_ALL, &g, &g2, &g2mem, &r->st, path) == CLI_OK &&
             model_plan_build_rewritten(&mr, g, &lo, NULL, 0, path, TA_REWRITE_ALL, &r->st) == CLI_OK &&
             plan_optimal(&mr, opt, lm.offline != NULL, &r->bound_rw, &r->arena_rw, &r->proven_rw);
        r->bufs = mp.n;
        r->bufs_rw = mr.n;
        model_plan_free(&mp);
        model_plan_free(&mr);
        free(g2mem);
    }
    model_unload(&lm);
    return ok;
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    if (!data || !*data) data = "../shared";
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.time_limit_s = argc > 2 ? atof(argv[2]) : 10.0;
    opt.clock = cli_clock;
    model_manifest mf;
    if (!model_manifest_read(data, &mf)) {
        fprintf(stderr, "bench_rewrite: no %s/models/MANIFEST.tsv (pass DATA_DIR or set TINYARENA_DATA)\n", data);
        return 1;
    }
    printf("below the bound: TFLM's rules vs every rewrite (data %s; tensors only; optimal, time limit %.1f s)\n", data,
           opt.time_limit_s);
    printf("%-46s %5s %12s %12s %5s %12s %12s %10s %7s  %s\n", "model", "bufs", "bound", "optimal", "bufs", "bound_rw",
           "optimal_rw", "saved", "saved%", "alias/inplace/fusepad/order/dw/concat/slice");
    row_t rows[64];
    size_t nr = 0;
    size_t tot = 0, tot_rw = 0;
    for (size_t i = 0; i < mf.n && nr < sizeof rows / sizeof rows[0]; i++) {
        const char *file = mf.files[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/models/%s", data, file);
        row_t *r = &rows[nr];
        if (!bench_model(path, file, &opt, r)) {
            printf("%-46s (cannot plan)\n", r->name);
            continue;
        }
        char a[32], b[32], c[32], d[32], e[32];
        const size_t saved = r->arena > r->arena_rw ? r->arena - r->arena_rw : 0;
        printf("%-46s %5zu %12s %12s %5zu %12s %12s %10s %6.1f%%  %u/%u/%u/%u/%u/%u/%u/%u%s\n", r->name, r->bufs, fmt_bytes(r->bound, a),
               fmt_bytes(r->arena, b), r->bufs_rw, fmt_bytes(r->bound_rw, c), fmt_bytes(r->arena_rw, d), fmt_bytes(saved, e),
               r->arena ? 100.0 * (double)saved / (double)r->arena : 0.0, r->st.aliased, r->st.in_place, r->st.fused_pads,
               r->st.reordered, r->st.dw_in_place, r->st.concat_in_place, r->st.slice_views, r->st.silu_fused,
               r->proven && r->proven_rw ? "" : " (not proven)");
        tot += r->arena;
        tot_rw += r->arena_rw;
        nr++;
    }
    model_manifest_free(&mf);
    char a[32], b[32];
    printf("%zu models: optimal arenas sum %s B under TFLM's rules, %s B rewritten\n", nr, fmt_bytes(tot, a),
           fmt_bytes(tot_rw, b));
    printf("\n| model | TFLM rules: bound | optimal | rewritten: bound | optimal | saved | aliased / in place / pads fused / "
           "reordered / depthwise in place / concatenation inputs in place / slice views / silu fused |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nr; i++) {
        const row_t *r = &rows[i];
        if (r->arena_rw >= r->arena) continue;
        char c[32], c2[32], d[32], e[32], g[32];
        const size_t saved = r->arena - r->arena_rw;
        printf("| %s | %s | %s | %s | %s | %s B (%.1f%%) | %u / %u / %u / %u / %u / %u / %u / %u |\n", r->name, fmt_bytes(r->bound, c),
               fmt_bytes(r->arena, c2), fmt_bytes(r->bound_rw, d), fmt_bytes(r->arena_rw, e), fmt_bytes(saved, g),
               100.0 * (double)saved / (double)r->arena, r->st.aliased, r->st.in_place, r->st.fused_pads, r->st.reordered,
               r->st.dw_in_place, r->st.concat_in_place, r->st.slice_views, r->st.silu_fused);
    }
    return 0;
}
