/* The firmware's budget, computed on the host (see firmware.h). */
#include "firmware.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tinyarena/kernel_link.h"
#include "tinyarena/rewrite.h"

/* 16-byte aligned copy for blobs the runtime reads in place. */
static void *aligned_copy(const void *src, size_t n) {
    void *p = aligned_alloc(16, n ? (n + 15) & ~(size_t)15 : 16);
    if (!p) {
        cli_error("out of memory");
        exit(CLI_FAIL);
    }
    memcpy(p, src, n);
    return p;
}

/* fw_make and fw_make_patched: the runtime with options `opt` on the host;
 * with pe, also its plan as entries (the stages' requests). */
static bool fw_make_opt(const unsigned char *model, size_t len, ta_runtime_options opt, fw_budget *fw, fw_patch *pe,
                        ta_diag *d) {
    memset(fw, 0, sizeof *fw);
    fw->model = model;
    fw->model_len = len;
    ta_runtime rt;
    void *work = NULL, *arena = NULL, *tmp = NULL;
    size_t wb = 0;
    bool ok = ta_runtime_open(&rt, model, len, &opt, d) == TA_OK && cli_runtime_query(&rt, &work, &wb, &fw->in_arena, d) == TA_OK;
    if (ok) {
        arena = cli_xmalloc(fw->in_arena.total);
        memset(arena, 0, fw->in_arena.total); /* the invoke below reads the inputs */
        ok = ta_runtime_init(&rt, work, wb, arena, fw->in_arena.total, d) == TA_OK &&
             ta_runtime_export_consts(&rt, NULL, 0, &fw->consts_bytes, d) == TA_OK &&
             ta_runtime_export_init(&rt, NULL, 0, NULL, 0, &fw->init_bytes, d) == TA_OK;
    }
    if (ok && pe) {
        /* only a plan that runs stages needs the runtime's own entries */
        pe->patch = *ta_runtime_patch(&rt);
        pe->planned = ta_runtime_breakdown(&rt)->planned;
        pe->lower_bound = ta_runtime_breakdown(&rt)->lower_bound;
        ok = pe->patch.n_stages && ta_runtime_export_plan(&rt, work, wb, NULL, 0, &pe->n, d) == TA_OK;
        if (ok) {
            pe->entries = cli_xcalloc(pe->n ? pe->n : 1, sizeof *pe->entries);
            ok = ta_runtime_export_plan(&rt, work, wb, pe->entries, pe->n, &pe->n, d) == TA_OK;
        }
    }
    if (ok) {
        /* the kernel variants the target will call: one invoke with the
         * recorder on (the values do not matter, the parameters do); a
         * model the host cannot run keeps them all */
        uint32_t kv = 0;
        ta_diag id;
        ta_kernel_variants_record(&kv);
        const bool ran = ta_runtime_invoke(&rt, &id) == TA_OK;
        ta_kernel_variants_record(NULL);
        fw->kernels = ran ? kv : TA_KV_ALL;
        tmp = cli_xmalloc(fw->consts_bytes + fw->init_bytes + 16);
        ok = ta_runtime_export_consts(&rt, tmp, fw->consts_bytes, &fw->consts_bytes, d) == TA_OK;
        if (ok) fw->consts = aligned_copy(tmp, fw->consts_bytes);
        uint8_t *ib = (uint8_t *)tmp + ((fw->consts_bytes + 15) & ~(size_t)15);
        ok = ok && ta_runtime_export_init(&rt, work, wb, ib, fw->init_bytes, &fw->init_bytes, d) == TA_OK;
        if (ok) fw->init = aligned_copy(ib, fw->init_bytes);
    }
    free(tmp);
    free(work);
    free(arena);
    if (ok) {
        /* the runtime firmware runs: the table, both blobs, nothing built */
        ta_runtime_use_consts(&opt, fw->consts, fw->consts_bytes);
        ta_runtime_use_init(&opt, fw->init, fw->init_bytes);
        ok = ta_runtime_open(&rt, model, len, &opt, d) == TA_OK && ta_runtime_query(&rt, NULL, 0, &fw->fw, d) == TA_OK;
    }
    return ok;
}

bool fw_make(const unsigned char *model, size_t len, const ta_plan_table *table, uint32_t rewrites, ta_align_rule rule,
             fw_budget *fw, ta_diag *d) {
    ta_runtime_options opt = ta_runtime_options_default();
    ta_runtime_use_table(&opt, table);
    opt.rewrites = rewrites;
    opt.align_rule = rule;
    return fw_make_opt(model, len, opt, fw, NULL, d);
}

bool fw_make_patched(const unsigned char *model, size_t len, const char *strategy, uint32_t rewrites, ta_align_rule rule,
                     uint32_t pct, fw_budget *fw, fw_patch *pe, ta_diag *d) {
    memset(pe, 0, sizeof *pe);
    memset(fw, 0, sizeof *fw);
    ta_runtime_options opt = ta_runtime_options_default();
    if (!pct || ta_runtime_use_strategy(&opt, strategy)) return false;
    opt.rewrites = rewrites;
    opt.align_rule = rule;
    opt.patch_overhead = pct;
    const bool ok = fw_make_opt(model, len, opt, fw, pe, d);
    if (!ok) {
        fw_free(fw);
        fw_patch_free(pe);
    }
    return ok;
}

void fw_patch_free(fw_patch *pe) {
    free(pe->entries);
    memset(pe, 0, sizeof *pe);
}

void fw_free(fw_budget *fw) {
    free(fw->consts);
    free(fw->init);
    fw->consts = fw->init = NULL;
}

int fw_plan_make(const char *what, const loaded_model *lm, const ta_strategy *s, uint32_t rewrites, ta_align_rule rule,
                 fw_plan *p) {
    memset(p, 0, sizeof *p);
    p->rule = rule;
    ta_lifetime_options lopt;
    memset(&lopt, 0, sizeof lopt);
    lopt.rule = rule;
    lopt.offline_offsets = lm->offline;
    lopt.n_offline = lm->n_offline;
    ta_rewrite_stats rs;
    memset(&rs, 0, sizeof rs);
    const ta_graph *g = &lm->g;
    if (model_rewrite_graph(&lm->g, rewrites, &g, &p->g2, &p->g2mem, &rs, what)) return CLI_FAIL;
    ta_diag d;
    size_t n_scratch = 0;
    if (ta_runtime_scratch_requests(g, NULL, 0, &n_scratch, &d)) return cli_error("%s: %s", what, d.msg);
    p->scratch = cli_xcalloc(n_scratch ? n_scratch : 1, sizeof *p->scratch);
    if (n_scratch && ta_runtime_scratch_requests(g, p->scratch, n_scratch, &n_scratch, &d)) return cli_error("%s: %s", what, d.msg);
    if (model_plan_build_rewritten(&p->mp, g, &lopt, p->scratch, n_scratch, what, rewrites, &rs)) return CLI_FAIL;
    /* as plan --header: the rewrites that changed something */
    p->applied = rewrites;
    if (!rs.aliased) p->applied &= ~TA_REWRITE_ALIAS;
    if (!rs.in_place) p->applied &= ~TA_REWRITE_INPLACE;
    if (!rs.fused_pads) p->applied &= ~TA_REWRITE_FUSEPAD;
    if (!rs.reordered) p->applied &= ~TA_REWRITE_ORDER;
    if (!p->mp.n_overlaps) p->applied &= ~TA_REWRITE_OVERLAP;
    if (!rs.dw_in_place) p->applied &= ~TA_REWRITE_DWINPLACE;
    if (!rs.concat_in_place) p->applied &= ~TA_REWRITE_CONCAT;
    if (!rs.slice_views && !rs.slices_rejoined) p->applied &= ~TA_REWRITE_SLICE;
    if (!rs.silu_fused) p->applied &= ~TA_REWRITE_SILU;
    if (!rs.gathered) p->applied &= ~TA_REWRITE_GATHER;
    ta_plan_options popt;
    memset(&popt, 0, sizeof popt);
    popt.overlaps = p->mp.overlaps;
    popt.n_overlaps = p->mp.n_overlaps;
    popt.clock = cli_clock;
    if (lm->offline) popt.flags |= TA_PLAN_ALLOW_FIXED_CONFLICT;
    plan_outcome o = plan_report_run(s, p->mp.reqs, p->mp.n, &popt);
    if (o.st) {
        free(o.offsets);
        return cli_error("%s: strategy %s: %s", what, s->name, o.diag.msg);
    }
    p->res = o.res;
    const size_t n = p->mp.n;
    p->offsets = cli_xcalloc(n ? n : 1, sizeof *p->offsets);
    p->entries = cli_xcalloc(n ? n : 1, sizeof *p->entries);
    for (size_t i = 0; i < n; i++) {
        const ta_buffer_origin *og = &p->mp.origin[i];
        p->offsets[i] = (uint32_t)o.offsets[i];
        uint32_t idx = og->index;
        if (og->kind == TA_BUFFER_TENSOR) idx = (uint32_t)p->mp.g->tensors[og->index].index;
        p->entries[i] = (ta_budget_entry){og->kind == TA_BUFFER_TENSOR ? TA_BUDGET_TENSOR : TA_BUDGET_SCRATCH, 0, idx,
                                          p->offsets[i], (uint32_t)ta_request_padded(&p->mp.reqs[i]), p->mp.reqs[i].first,
                                          p->mp.reqs[i].last};
    }
    free(o.offsets);
    p->table = (ta_plan_table){p->offsets, n, p->res.arena_bytes};
    return CLI_OK;
}

void fw_plan_free(fw_plan *p) {
    model_plan_free(&p->mp);
    free(p->g2mem);
    free(p->scratch);
    free(p->offsets);
    free(p->entries);
    memset(p, 0, sizeof *p);
}
