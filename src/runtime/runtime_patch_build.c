/*
 * Patch-based execution, the runtime's planning (patch.h): the work path's
 * build, which runs runtime_build.c's single build once to three times to
 * decide the stages.  Apart from runtime_patch.c (the band loop invoke
 * runs), so a firmware initialising from an init table links none of it.
 */
#include "runtime/runtime_int.h"

/* Clears the DWINPLACE marks and sets patch_apart (no INPLACE join) on
 * the ops a patch build asks for (see patch_ctl): a stage runs its
 * depthwise convs out of place and its elementwise ops beside their inputs,
 * band by band. */
static void apart(ta_graph *g, int32_t o) {
    ta_op *op = (ta_op *)ta_graph_op(g, 0, (uint32_t)o);
    op->opt.in_place = false;
    op->opt.patch_apart = true;
}

void ta__rt_patch_marks(ta_graph *g, ta__patch_ctl *pc) {
    const int32_t n = (int32_t)g->subgraphs[0].n_ops;
    pc->chains = false;
    /* control flow (runtime_subgraph.c) numbers steps across subgraphs; the
     * band loop assumes subgraph 0's step o + 1: no stages there */
    if (g->n_subgraphs > 1) return;
    /* variables take an init table's flow section, which a table with
     * stages does not carry (runtime_init_stages.c): no stages there either */
    for (uint32_t o = 0; o < g->n_ops; o++)
        if (g->ops[o].kind == TA_OP_VAR_HANDLE) return;
    for (int32_t f = 0; f < n; f++) {
        const int32_t l = ta_patch_chain(g, NULL, f, 1);
        if (l < 0) continue;
        pc->chains = true;
        for (int32_t o = f; o <= l && pc->clear == 1; o++) apart(g, o);
    }
    for (uint32_t i = 0; pc->clear == 2 && i < pc->plan.n_stages; i++)
        for (int32_t o = pc->plan.stages[i].first_op; o >= 0 && o <= pc->plan.stages[i].last_op && o < n; o++)
            apart(g, o);
}

/* A build of plan p without its stages from `from` on (cut) or without
 * stage `drop` alone (cut < 0); *t gets its control. */
static ta_status build_without(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, const ta_patch_plan *p,
                               int32_t cut, int32_t drop, ta__patch_ctl *t, size_t *need, ta_diag *diag) {
    memset(t, 0, sizeof *t);
    t->clear = 2;
    for (uint32_t j = 0; j < p->n_stages; j++) {
        if ((cut >= 0 && (int32_t)j >= cut) || (int32_t)j == drop) continue;
        t->plan.stages[t->plan.n_stages++] = p->stages[j];
        t->plan.extra_macs += p->stages[j].extra_macs;
    }
    t->plan.macs = p->macs;
    const ta_status st = ta__rt_build_once(rt, work, work_bytes, w, t, diag);
    if (rt->b.work_bytes > *need) *need = rt->b.work_bytes;
    return st;
}

/* The choice saw the depthwise convs of every candidate stage out of place,
 * layer by layer too, so it can keep stages that only win back what that
 * cost.  The shortest prefix of the stages (in op order) that plans no
 * more bytes is kept, then each of its stages, last first, is dropped when
 * a build without it (its depthwise convs in place again) plans no more.
 * On return w is the build init will use. */
static ta_status prune(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, const ta__patch_ctl *k,
                       size_t *need, ta_diag *diag) {
    ta__patch_ctl cur = *k, t;
    size_t kept = w->planned;
    bool stale = false; /* w is not cur's build */
    ta_status st = TA_OK;
    for (int32_t m = 1; m < (int32_t)cur.plan.n_stages; m++) {
        st = build_without(rt, work, work_bytes, w, &cur.plan, m, -1, &t, need, diag);
        if (st == TA_E_NO_MEMORY) return st; /* query and init must decide alike: the caller grows the work block */
        stale = true;
        if (!st && t.plan.n_stages && w->planned <= kept) {
            cur = t, kept = w->planned, stale = false;
            break;
        }
    }
    for (int32_t i = (int32_t)cur.plan.n_stages - 1; i >= 0 && cur.plan.n_stages > 1; i--) {
        st = build_without(rt, work, work_bytes, w, &cur.plan, -1, i, &t, need, diag);
        if (st == TA_E_NO_MEMORY) return st;
        stale = true;
        if (!st && t.plan.n_stages && w->planned <= kept) cur = t, kept = w->planned, stale = false;
    }
    if (!stale) return TA_OK;
    ta__patch_ctl again = {.clear = 2, .plan = cur.plan};
    st = ta__rt_build_once(rt, work, work_bytes, w, &again, diag);
    if (rt->b.work_bytes > *need) *need = rt->b.work_bytes;
    return st;
}

/* Steps 1-5 with patch-based execution considered (patch.h): layer by
 * layer first; then, when the graph starts with a chain a stage can take,
 * a build with the depthwise convs of that chain out of place chooses a
 * stage, and a build with only the chosen stage's out of place plans it
 * (then prune may drop stages).
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
        uint64_t base;
        ta_status st = ta__rt_init_frame(table, tb, &base, diag);
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
            st = prune(rt, work, work_bytes, w, &k, &need, diag);
            rt->patch.bytes_before = layered;
            rt->patch.bytes_after = w->planned;
            rt->b.work_bytes = need;
            return st;
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

