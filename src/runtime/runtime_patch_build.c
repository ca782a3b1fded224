/*
 * Patch-based execution, the runtime's planning (patch.h): the work path's
 * build, which runs runtime_build.c's single build once to three times to
 * decide the stages.  Apart from runtime_patch.c (the band loop invoke
 * runs), so a firmware initialising from an init table links none of it.
 */
#include "runtime/runtime_int.h"

/* Clears the DWINPLACE marks a patch build asks for (see patch_ctl): a
 * stage runs its depthwise convs out of place, band by band. */
void ta__rt_patch_marks(ta_graph *g, ta__patch_ctl *pc) {
    const int32_t n = (int32_t)g->subgraphs[0].n_ops;
    pc->chains = false;
    /* control flow (runtime_subgraph.c) numbers steps across subgraphs; the
     * band loop assumes subgraph 0's step o + 1: no stages there */
    if (g->n_subgraphs > 1) return;
    for (int32_t f = 0; f < n; f++) {
        const int32_t l = ta_patch_chain(g, NULL, f, 1);
        if (l < 0) continue;
        pc->chains = true;
        for (int32_t o = f; o <= l && pc->clear == 1; o++) ((ta_op *)ta_graph_op(g, 0, (uint32_t)o))->opt.in_place = false;
    }
    for (uint32_t i = 0; pc->clear == 2 && i < pc->plan.n_stages; i++)
        for (int32_t o = pc->plan.stages[i].first_op; o >= 0 && o <= pc->plan.stages[i].last_op && o < n; o++)
            ((ta_op *)ta_graph_op(g, 0, (uint32_t)o))->opt.in_place = false;
}

/* Steps 1-5 with patch-based execution considered (patch.h): layer by
 * layer first; then, when the graph starts with a chain a stage can take,
 * a build with the depthwise convs of that chain out of place chooses a
 * stage, and a build with only the chosen stage's out of place plans it.
 * The stage is kept only when that plan is smaller, else layer by layer is
 * built again (the last build is the one init uses).  Deterministic, so
 * query and init decide the same. */
ta_status ta__rt_patch_build(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, ta_diag *diag) {
    /* An init table (the options', or the budget's whose plan the runtime
     * checks) decides: its entries were planned with its stages applied,
     * so they match only requests with the same stages. */
    size_t tb = 0;
    const uint8_t *table = ta__rt_stage_table(rt, &tb);
    if (table) {
        ta__patch_ctl k = {.clear = 2};
        ta_status st = ta__rt_init_frame(table, tb, diag);
        if (!st) st = ta__rt_init_stages(table, &k.plan, diag);
        if (st || !k.plan.n_stages) return st ? st : ta__rt_build_once(rt, work, work_bytes, w, NULL, diag);
        const ta_patch_plan want = k.plan;
        if ((st = ta__rt_build_once(rt, work, work_bytes, w, &k, diag))) return st;
        if (k.plan.n_stages != want.n_stages)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: its patch stages are not chains of this model's graph");
        rt->patch.bytes_before = want.bytes_before;
        rt->patch.bytes_after = w->planned;
        return TA_OK;
    }
    if (!rt->opt.patch_overhead || !rt->opt.planner_overlaps) return ta__rt_build_once(rt, work, work_bytes, w, NULL, diag);
    /* A const blob fixes the records, and a stage's depthwise convs have
     * other records (out of place): the trial builds do not check it, the
     * build kept does, and one the stages do not match falls back to layer
     * by layer. */
    const void *consts = rt->opt.consts;
    rt->opt.consts = NULL;
    ta__patch_ctl a = {.clear = 0};
    ta_status st = ta__rt_build_once(rt, work, work_bytes, w, &a, diag);
    size_t need = rt->b.work_bytes;
    const size_t layered = w->planned;
    ta__patch_ctl b = {.clear = 1, .choose = true};
    if (!st && a.chains) {
        st = ta__rt_build_once(rt, work, work_bytes, w, &b, diag);
        if (rt->b.work_bytes > need) need = rt->b.work_bytes;
    }
    rt->opt.consts = consts;
    if (!st && a.chains && b.plan.n_stages) {
        ta__patch_ctl k = {.clear = 2, .plan = b.plan};
        st = ta__rt_build_once(rt, work, work_bytes, w, &k, diag);
        if (rt->b.work_bytes > need) need = rt->b.work_bytes;
        if (!st && k.plan.n_stages && w->planned < layered) {
            rt->patch.bytes_before = layered;
            rt->patch.bytes_after = w->planned;
            rt->b.work_bytes = need;
            return TA_OK;
        }
        if (st == TA_E_NO_MEMORY) { /* query and init must decide alike: the caller grows the work block */
            rt->b.work_bytes = need;
            return st;
        }
    }
    if (st == TA_E_NO_MEMORY) {
        rt->b.work_bytes = need;
        return st;
    }
    st = ta__rt_build_once(rt, work, work_bytes, w, &a, diag);
    if (rt->b.work_bytes < need) rt->b.work_bytes = need;
    return st;
}

