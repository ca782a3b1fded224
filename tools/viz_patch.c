/* The firmware plan with patch stages as a viz_plan (viz_patch.h).
 *
 * The runtime's entries (fw_make_patched) become requests in their own
 * order; each is tied back to the model plan's tensor or scratch request
 * for its name, kind and shape.  Then, per stage, the band loop's rows are
 * recomputed with patch.h's own functions (ta_patch_stage_valid,
 * ta_patch_band, ta_patch_dag_rows) -- the ones the planner and the runtime
 * use -- so the map draws the bytes each band really holds. */
#include "viz_patch.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emit_html.h"
#include "emit_svg.h"
#include "firmware.h"
#include "tinyarena/patch.h"

/* Entry e's origin and name: a tensor by its subgraph and index inside it
 * (the runtime's numbering, as fw_plan_make's entries) -- from the graph,
 * since inside a stage the runtime gives tensors buffers of their own that
 * the model plan groups -- and a scratch request by the model plan's. */
static ta_buffer_origin origin_of_entry(const model_plan *mp, const ta_budget_entry *e, const char **id) {
    *id = "?";
    if (e->kind == TA_BUDGET_SCRATCH) {
        for (size_t i = 0; i < mp->n; i++)
            if (mp->origin[i].kind == TA_BUFFER_SCRATCH && mp->origin[i].index == e->index) {
                *id = mp->ids[i];
                return mp->origin[i];
            }
        return (ta_buffer_origin){TA_BUFFER_SCRATCH, e->index};
    }
    const ta_graph *g = mp->g;
    for (uint32_t gi = 0; gi < g->n_tensors; gi++)
        if (g->tensors[gi].subgraph == e->subgraph && g->tensors[gi].index == (int32_t)e->index) {
            if (g->tensors[gi].name) *id = g->tensors[gi].name;
            return (ta_buffer_origin){TA_BUFFER_TENSOR, gi};
        }
    return (ta_buffer_origin){TA_BUFFER_TENSOR, 0};
}

/* The firmware buffer holding global tensor gi, or SIZE_MAX: its own entry,
 * else its group's under the model plan's buffer rewrites (the runtime
 * builds a stage's depthwise convs out of place, so inside a stage the
 * model plan's groups may be wider than the runtime's). */
static size_t entry_of_tensor(const viz_patch *z, const model_plan *mp, uint32_t gi) {
    for (size_t i = 0; i < z->mp.n; i++)
        if (z->mp.origin[i].kind == TA_BUFFER_TENSOR && z->mp.origin[i].index == gi) return i;
    const int32_t want = mp->buffer_of ? mp->buffer_of[gi] : (int32_t)gi;
    for (size_t i = 0; i < z->mp.n; i++) {
        const ta_buffer_origin *og = &z->mp.origin[i];
        if (og->kind != TA_BUFFER_TENSOR) continue;
        const int32_t have = mp->buffer_of ? mp->buffer_of[og->index] : (int32_t)og->index;
        if (have == want) return i;
    }
    return SIZE_MAX;
}

/* Roles and band bytes of stage k's buffers.  A band buffer's bands are
 * kept only when every one fits the entry: the entry is the runtime's
 * request for the largest band, so a band larger than it would mean the
 * picture and the plan disagree -- then the buffer is drawn whole. */
static void mark_stage(viz_patch *z, const model_plan *mp, uint32_t k) {
    const ta_patch_stage *st = &z->patch.stages[k];
    const ta_graph *g = mp->g;
    ta_patch_dag_op dag[TA_PATCH_MAX_OPS];
    const int32_t n = st->last_op - st->first_op + 1;
    if (n < 1 || n > TA_PATCH_MAX_OPS || st->bands < 1 || st->first_op < 0 ||
        (uint32_t)st->last_op >= g->subgraphs[0].n_ops ||
        /* the runtime chose the stage: only its rows are wanted here, and
         * the model plan's buffer groups are not the runtime's inside it */
        !ta_patch_stage_valid(g, NULL, st->first_op, st->last_op, 1, dag))
        return;
    const uint32_t base = g->subgraphs[0].tensor_base;
    for (int32_t j = 0; j < n; j++) {
        const ta_op *op = ta_graph_op(g, 0, (uint32_t)(st->first_op + j));
        for (int32_t s = 0; s < dag[j].n_src; s++) {
            if (dag[j].src[s] >= 0) continue;
            /* which input is read by rows: the first n_src planned ones from outside */
            for (uint32_t q = 0; q < op->n_inputs; q++) {
                if (op->inputs[q] < 0) continue;
                const ta_tensor *t = ta_graph_tensor(g, 0, op->inputs[q]);
                if (t->flags & TA_TENSOR_CONST) continue;
                const size_t e = entry_of_tensor(z, mp, base + (uint32_t)op->inputs[q]);
                if (e != SIZE_MAX && z->role[e] == VIZ_STAGE_NONE) {
                    z->role[e] = VIZ_STAGE_INPUT;
                    z->stage[e] = (int32_t)k;
                }
            }
        }
        const size_t e = entry_of_tensor(z, mp, base + (uint32_t)op->outputs[0]);
        if (e == SIZE_MAX) continue;
        z->stage[e] = (int32_t)k;
        z->role[e] = j == n - 1 ? VIZ_STAGE_OUTPUT : VIZ_STAGE_BAND;
        if (j == n - 1) continue;
        const ta_tensor *t = ta_graph_tensor(g, 0, op->outputs[0]);
        if (t->rank != 4 || t->shape[1] < 1) continue;
        const size_t row = t->bytes / (size_t)t->shape[1];
        const int32_t out_h = dag[n - 1].geo.out_h;
        size_t at = z->n_band_bytes;
        bool fits = true;
        for (int32_t b = 0; b < st->bands; b++) {
            int32_t o0, o1, rows[TA_PATCH_MAX_OPS][2];
            ta_patch_band(out_h, st->bands, b, &o0, &o1);
            ta_patch_dag_rows(dag, n, o0, o1, rows);
            const size_t bytes = rows[j][1] > rows[j][0] ? (size_t)(rows[j][1] - rows[j][0]) * row : 0;
            fits = fits && bytes <= ta_request_padded(&z->mp.reqs[e]);
            z->band_bytes[at + (size_t)b] = bytes;
        }
        if (fits) {
            z->band_at[e] = at;
            z->n_band_bytes += (size_t)st->bands;
            z->bands_drawn++;
        }
    }
}

bool viz_patch_make(viz_patch *z, const loaded_model *lm, const model_plan *mp, const ta_strategy *s, uint32_t applied,
                    ta_align_rule rule, uint32_t pct, const char *name, const char *about) {
    memset(z, 0, sizeof *z);
    fw_budget fw;
    fw_patch pe;
    ta_diag d;
    if (!fw_make_patched(lm->bytes, lm->len, s->name, applied, rule, pct, &fw, &pe, &d)) return false;
    z->patch = pe.patch;
    z->firmware_arena = fw.fw.total_in_place;
    fw_free(&fw);
    const size_t n = pe.n;
    z->mp = *mp;
    ta_request *reqs = cli_xcalloc(n ? n : 1, sizeof *reqs);
    ta_buffer_origin *origin = cli_xcalloc(n ? n : 1, sizeof *origin);
    const char **ids = cli_xcalloc(n ? n : 1, sizeof *ids);
    z->o.offsets = cli_xcalloc(n ? n : 1, sizeof *z->o.offsets);
    z->role = cli_xcalloc(n ? n : 1, sizeof *z->role);
    z->stage = cli_xcalloc(n ? n : 1, sizeof *z->stage);
    z->band_at = cli_xcalloc(n ? n : 1, sizeof *z->band_at);
    size_t naive = 0, nb = 0;
    for (size_t i = 0; i < n; i++) {
        const ta_budget_entry *e = &pe.entries[i];
        /* the entry's size is already padded: the request keeps it as is */
        reqs[i] = ta_request_make(e->size, e->first, e->last);
        z->o.offsets[i] = e->offset;
        naive += e->size;
        origin[i] = origin_of_entry(mp, e, &ids[i]);
        z->stage[i] = -1;
        z->band_at[i] = SIZE_MAX;
    }
    for (uint32_t k = 0; k < z->patch.n_stages; k++) nb += (size_t)(z->patch.stages[k].last_op - z->patch.stages[k].first_op + 1) *
                                                         (size_t)z->patch.stages[k].bands;
    z->band_bytes = cli_xcalloc(nb ? nb : 1, sizeof *z->band_bytes);
    z->mp.reqs = reqs;
    z->mp.origin = origin;
    z->mp.ids = ids;
    z->mp.n = n;
    fw_patch_free(&pe);
    for (uint32_t k = 0; k < z->patch.n_stages; k++) mark_stage(z, mp, k);
    /* the outcome: the runtime's planned bytes are the arena of this plan */
    z->o.s = s;
    z->o.st = TA_OK;
    z->o.res.arena_bytes = z->patch.bytes_after;
    z->o.res.naive_bytes = naive;
    z->vp = viz_plan_of_model(&z->mp, &z->o, 1, 0, name, about);
    z->vp.patch = z;
    /* the bound and its step: the most bytes live at once over the entries */
    viz_time vt;
    viz_time_build(&z->vp, &vt);
    z->o.res.lower_bound_bytes = vt.max_live;
    for (int32_t t = vt.lo; t <= vt.hi; t++)
        if (vt.live[t - vt.lo] == vt.max_live) {
            z->o.res.peak_step = t;
            break;
        }
    viz_time_free(&vt);
    size_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (z->o.offsets[i] + reqs[i].size > top) top = z->o.offsets[i] + reqs[i].size;
    /* the runtime's planned bytes cover every entry; a larger end would be a
     * plan the picture cannot stand for */
    if (top > z->o.res.arena_bytes) z->o.res.arena_bytes = top;
    return true;
}

void viz_patch_free(viz_patch *z) {
    free((void *)z->mp.reqs);
    free((void *)z->mp.origin);
    free((void *)z->mp.ids);
    free(z->o.offsets);
    free(z->role);
    free(z->stage);
    free(z->band_at);
    free(z->band_bytes);
    memset(z, 0, sizeof *z);
}

void viz_patch_stage_text(const viz_patch *z, uint32_t k, char *buf, size_t len) {
    const ta_patch_stage *st = &z->patch.stages[k];
    const ta_graph *g = z->mp.g;
    const ta_op *a = ta_graph_op(g, 0, (uint32_t)st->first_op), *b = ta_graph_op(g, 0, (uint32_t)st->last_op);
    snprintf(buf, len, "ops %d..%d (%s .. %s), grid %dx1", st->first_op, st->last_op, a ? ta_op_kind_str(a->kind) : "?",
             b ? ta_op_kind_str(b->kind) : "?", st->bands);
}

int viz_patch_emit(viz_plan *vp, const char *svg, const char *html, const loaded_model *lm, const ta_strategy *s,
                   uint32_t applied, ta_align_rule rule, uint32_t pct) {
    if (!svg && !html) return CLI_OK;
    viz_patch z;
    const bool patched = pct && !vp->o[vp->chosen].st &&
                         viz_patch_make(&z, lm, vp->mp, s, applied, rule, pct, vp->name, vp->about);
    vp->firmware = patched ? &z.vp : NULL;
    int rc = svg ? emit_svg_file(svg, vp) : CLI_OK;
    if (!rc && html) rc = emit_html_file(html, vp);
    vp->firmware = NULL;
    if (patched) viz_patch_free(&z);
    return rc;
}
