/*
 * The runtime's own plan as budget table entries (ta_runtime_export_plan):
 * what `plan --header` writes when the plan runs patch stages, whose
 * requests (an intermediate sized to its largest band, the stage input and
 * output living across the stage) only the runtime's build makes.  Apart
 * from runtime_build.c: only a host that writes headers links it.
 */
#include "runtime/runtime_int.h"

ta_status ta_runtime_export_plan(ta_runtime *rt, void *work, size_t work_bytes, ta_budget_entry *out, size_t cap,
                                 size_t *n, ta_diag *diag) {
    if (!rt || !n) return ta_diag_set(diag, TA_E_INVALID_ARG, "export plan: NULL argument");
    if (rt->state != TA__RT_READY) return ta_diag_set(diag, TA_E_STATE, "export plan before init");
    if (!rt->opt.work_path || rt->rg.n || rt->flow)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "export plan: needs the work-block path, one arena and no control flow");
    /* the build again, as export_init: the requests, their origins and offsets */
    const ta_runtime_options keep = rt->opt;
    const ta_arena_breakdown kb = rt->b;
    const ta_patch_plan kp = rt->patch;
    rt->opt.init = NULL;
    ta__built w;
    ta_status st = ta__rt_patch_build(rt, work, work_bytes, &w, diag);
    rt->opt = keep;
    const size_t wneed = rt->b.work_bytes;
    rt->b = kb;
    if (st == TA_E_NO_MEMORY) rt->b.work_bytes = wneed;
    const bool same = rt->patch.n_stages == kp.n_stages;
    rt->patch = kp;
    if (st) return st;
    if (!same || w.planned != rt->b.planned)
        return ta_diag_set(diag, TA_E_STATE, "export plan: the build does not give the plan the runtime was initialised with");
    *n = w.n_req;
    if (!out) return TA_OK;
    if (cap < w.n_req) return ta_diag_set(diag, TA_E_NO_MEMORY, "export plan: %zu entries, room for %zu", w.n_req, cap);
    for (size_t i = 0; i < w.n_req; i++) {
        const ta_buffer_origin *og = &w.origin[i];
        uint32_t sg = 0, idx = og->index;
        if (og->kind == TA_BUFFER_TENSOR) {
            const ta_tensor *t = &w.g.tensors[og->index];
            sg = t->subgraph;
            idx = (uint32_t)t->index;
        } else if (w.lt.scratch) {
            sg = w.lt.scratch[og->index].subgraph;
        }
        if (w.offsets[i] > UINT32_MAX || ta_request_padded(&w.reqs[i]) > UINT32_MAX)
            return ta_diag_set(diag, TA_E_UNSUPPORTED, "export plan: buffer %zu lies past 4 GiB", i);
        out[i] = (ta_budget_entry){og->kind == TA_BUFFER_TENSOR ? TA_BUDGET_TENSOR : TA_BUDGET_SCRATCH, (uint16_t)sg, idx,
                                   (uint32_t)w.offsets[i], (uint32_t)ta_request_padded(&w.reqs[i]), w.reqs[i].first,
                                   w.reqs[i].last};
    }
    return TA_OK;
}
