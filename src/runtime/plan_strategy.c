/*
 * Plan source for the runtime: a named planner strategy.  Kept apart from
 * runtime.c so that a firmware build that uses a generated budget table
 * (ta_runtime_use_table) links no planner code at all.
 */
#include <string.h>

#include "tinyarena/runtime.h"

/* With relations (the OVERLAP rewrite's) every strategy takes them through
 * ta_plan_options; ta_plan_run validates the plan against them. */
static ta_status strategy_plan_overlaps(void *ctx, const ta_request *reqs, size_t n, const ta_overlap *ov, size_t n_ov,
                                        void *work, size_t work_bytes, size_t *work_need, size_t *offsets,
                                        size_t *arena_bytes, ta_diag *diag) {
    const ta_strategy *s = (const ta_strategy *)ctx;
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.overlaps = ov;
    opt.n_overlaps = n_ov;
    const ta_plan_options *po = n_ov ? &opt : NULL;
    size_t need = 0;
    ta_status st = ta_plan_scratch_bytes(s, reqs, n, po, &need);
    if (st) return ta_diag_set(diag, st, "planner %s: cannot size its scratch", s->name);
    *work_need = need;
    if (!offsets) return TA_OK;
    if (work_bytes < need) return ta_diag_set(diag, TA_E_NO_MEMORY, "planner %s needs %zu bytes of work", s->name, need);
    ta_plan_result res;
    st = ta_plan_run(s, reqs, n, po, work, work_bytes, offsets, &res, diag);
    if (st) return st;
    *arena_bytes = res.arena_bytes;
    return TA_OK;
}

static ta_status strategy_plan(void *ctx, const ta_request *reqs, size_t n, void *work, size_t work_bytes,
                               size_t *work_need, size_t *offsets, size_t *arena_bytes, ta_diag *diag) {
    return strategy_plan_overlaps(ctx, reqs, n, NULL, 0, work, work_bytes, work_need, offsets, arena_bytes, diag);
}

ta_status ta_runtime_use_strategy(ta_runtime_options *opt, const char *name) {
    if (!opt || !name) return TA_E_INVALID_ARG;
    const ta_strategy *s = ta_strategy_find(name);
    if (!s) return TA_E_UNKNOWN_STRATEGY;
    opt->planner = strategy_plan;
    opt->planner_overlaps = strategy_plan_overlaps;
    opt->planner_ctx = (void *)s;
    return TA_OK;
}
