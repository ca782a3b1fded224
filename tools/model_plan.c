#include "model_plan.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tinyarena/ops.h"
#include "tinyarena/runtime.h"

int model_rewrite_graph(const ta_graph *g, uint32_t rewrites, const ta_graph **graph, ta_graph *storage, void **mem,
                        ta_rewrite_stats *stats, const char *what) {
    *graph = g;
    *mem = NULL;
    if (!(rewrites & TA_REWRITE_GRAPH_FLAGS)) return CLI_OK;
    ta_diag d;
    size_t need = ta_rewrite_graph_bytes(g, rewrites);
    *mem = cli_xmalloc(need);
    ta_op_kind_set inplace; /* the runtime's: every op the CLI's runtime can run */
    ta_op_list_inplace_kinds(&ta_op_list_all, &inplace);
    ta_status st = ta_rewrite_graph(g, rewrites, &inplace, *mem, need, storage, stats, &d);
    if (st) return cli_error("%s: rewrite: %s: %s", what, ta_status_str(st), d.msg);
    *graph = storage;
    return CLI_OK;
}

int model_plan_build(model_plan *mp, const ta_graph *g, const ta_lifetime_options *opt,
                     const ta_scratch_request *scratch, size_t n_scratch, const char *what) {
    return model_plan_build_rewritten(mp, g, opt, scratch, n_scratch, what, 0, NULL);
}

int model_plan_build_rewritten(model_plan *mp, const ta_graph *g, const ta_lifetime_options *opt_in,
                               const ta_scratch_request *scratch, size_t n_scratch, const char *what,
                               uint32_t rewrites, ta_rewrite_stats *stats) {
    memset(mp, 0, sizeof *mp);
    mp->g = g;
    ta_diag d;
    size_t need = ta_lifetime_bytes(g, n_scratch);
    mp->lt_mem = cli_xmalloc(need);
    ta_status st = ta_lifetime_analyze(g, scratch, n_scratch, mp->lt_mem, need, &mp->lt, &d);
    if (st) return cli_error("%s: lifetime analysis: %s: %s", what, ta_status_str(st), d.msg);
    ta_lifetime_options lo;
    memset(&lo, 0, sizeof lo);
    if (opt_in) lo = *opt_in;
    /* the op modules' alignment declarations, as the runtime plans them */
    if (!lo.tensor_align) {
        mp->talign = cli_xcalloc(g->n_tensors ? g->n_tensors : 1, sizeof *mp->talign);
        if (ta_runtime_operand_align(g, mp->talign, g->n_tensors, &d)) return cli_error("%s: %s", what, d.msg);
        lo.tensor_align = mp->talign;
        lo.n_tensor_align = g->n_tensors;
    }
    const ta_lifetime_options *opt = &lo;
    if (rewrites & (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_DWINPLACE | TA_REWRITE_CONCAT | TA_REWRITE_SLICE)) {
        mp->buffer_of = cli_xcalloc(g->n_tensors, sizeof *mp->buffer_of);
        mp->buffer_at = cli_xcalloc(g->n_tensors, sizeof *mp->buffer_at);
        size_t bb = ta_rewrite_buffers_bytes(g);
        void *bm = cli_xmalloc(bb);
        ta_op_kind_set inplace;
        ta_op_list_inplace_kinds(&ta_op_list_all, &inplace);
        st = ta_rewrite_buffers_at(g, &mp->lt, rewrites, &inplace, bm, bb, mp->buffer_of, mp->buffer_at, stats, &d);
        free(bm);
        if (st) return cli_error("%s: rewrite: %s: %s", what, ta_status_str(st), d.msg);
        lo.buffer_of = mp->buffer_of;
        lo.n_buffer_of = g->n_tensors;
        lo.buffer_at = mp->buffer_at;
        opt = &lo;
    }
    size_t n = 0;
    st = ta_lifetime_requests(g, &mp->lt, opt, NULL, NULL, 0, &n, &d);
    if (st) return cli_error("%s: %s: %s", what, ta_status_str(st), d.msg);
    mp->reqs = cli_xcalloc(n, sizeof *mp->reqs);
    mp->origin = cli_xcalloc(n, sizeof *mp->origin);
    mp->ids = cli_xcalloc(n, sizeof *mp->ids);
    mp->scratch_names = cli_xcalloc(n_scratch ? n_scratch : 1, sizeof *mp->scratch_names);
    st = ta_lifetime_requests(g, &mp->lt, opt, mp->reqs, mp->origin, n, &mp->n, &d);
    if (st) return cli_error("%s: %s: %s", what, ta_status_str(st), d.msg);
    /* the bytes the buffers hold, before any padding: a tensor's (a group's
     * largest member's), a scratch request's */
    size_t *gmax = mp->buffer_of ? cli_xcalloc(g->n_tensors, sizeof *gmax) : NULL;
    for (uint32_t k = 0; gmax && k < g->n_tensors; k++) {
        const int32_t r = mp->buffer_of[k];
        /* a member at an offset (CONCAT) holds bytes up to its slice's end */
        const size_t reach = g->tensors[k].bytes + (mp->buffer_at ? mp->buffer_at[k] : 0);
        if (r >= 0 && (uint32_t)r < g->n_tensors && ta_lifetime_is_planned(&g->tensors[k]) && reach > gmax[r])
            gmax[r] = reach;
    }
    for (size_t i = 0; i < mp->n; i++) {
        const ta_buffer_origin *og = &mp->origin[i];
        size_t b = og->kind == TA_BUFFER_TENSOR ? g->tensors[og->index].bytes : scratch[og->index].bytes;
        if (gmax && og->kind == TA_BUFFER_TENSOR && gmax[og->index] > b) b = gmax[og->index];
        mp->unpadded += b;
    }
    free(gmax);
    if (rewrites & TA_REWRITE_OVERLAP) {
        /* pass 3: the relations the runtime's kernels tolerate (its op table
         * says which run the ROWS walk) */
        ta_op_kind_set walks;
        ta_op_list_overlap_kinds(&ta_op_list_all, &walks);
        const size_t cap = g->n_ops ? g->n_ops : 1, ob = ta_rewrite_overlaps_bytes(g);
        mp->overlaps = cli_xcalloc(cap, sizeof *mp->overlaps);
        void *om = cli_xmalloc(ob ? ob : 1);
        st = ta_rewrite_overlaps_for(g, &mp->lt, rewrites, mp->buffer_of, mp->buffer_at, &walks, mp->reqs, mp->origin, mp->n,
                                     om, ob, mp->overlaps, cap, &mp->n_overlaps, stats, &d);
        free(om);
        if (st) return cli_error("%s: rewrite: %s: %s", what, ta_status_str(st), d.msg);
    }
    for (size_t i = 0; i < mp->n; i++) {
        if (mp->origin[i].kind == TA_BUFFER_TENSOR) {
            mp->ids[i] = g->tensors[mp->origin[i].index].name;
        } else {
            uint32_t r = mp->origin[i].index;
            snprintf(mp->scratch_names[r], sizeof mp->scratch_names[r], "scratch%u:sg%u:op%u", r,
                     scratch[r].subgraph, scratch[r].op);
            mp->ids[i] = mp->scratch_names[r];
        }
    }
    for (uint32_t i = 0; i < g->n_tensors; i++) {
        const ta_tensor *t = &g->tensors[i];
        if (t->flags & TA_TENSOR_CONST) {
            mp->n_const++;
            mp->const_bytes += t->data_bytes ? t->data_bytes : t->bytes;
        } else if (t->flags & TA_TENSOR_VARIABLE) {
            mp->n_variable++;
            mp->variable_bytes += t->bytes;
        }
    }
    return CLI_OK;
}

void model_plan_free(model_plan *mp) {
    free(mp->lt_mem);
    free(mp->reqs);
    free(mp->origin);
    free(mp->ids);
    free(mp->scratch_names);
    free(mp->buffer_of);
    free(mp->talign);
    free(mp->overlaps);
    free(mp->buffer_at);
    memset(mp, 0, sizeof *mp);
}

void model_plan_summary(FILE *f, const model_plan *mp) {
    char b1[32], b2[32];
    size_t n_scratch = mp->lt.n_scratch;
    fprintf(f, "%u subgraph%s, %u ops, %u tensors: %zu planned", mp->g->n_subgraphs,
            mp->g->n_subgraphs == 1 ? "" : "s", mp->g->n_ops, mp->g->n_tensors, mp->n - n_scratch);
    if (n_scratch) fprintf(f, " (+%zu scratch)", n_scratch);
    fprintf(f, "\n  constant: %zu tensors, %s B (stay in flash); variable: %zu tensors, %s B\n", mp->n_const,
            fmt_bytes(mp->const_bytes, b1), mp->n_variable, fmt_bytes(mp->variable_bytes, b2));
}

void model_plan_step_label(const model_plan *mp, int32_t step, char *buf, size_t len) {
    const ta_graph *g = mp->g;
    for (uint32_t i = 0; i < g->n_ops; i++) {
        if (mp->lt.op_step[i] != step) continue;
        const ta_op *op = &g->ops[i];
        const char *kind = op->kind == TA_OP_CUSTOM || op->kind == TA_OP_OTHER ? (op->custom_name ? op->custom_name : ta_op_kind_str(op->kind))
                                                                               : ta_op_kind_str(op->kind);
        if (g->n_subgraphs > 1) snprintf(buf, len, "subgraph %u op %d %s", op->subgraph, op->index, kind);
        else snprintf(buf, len, "op %d %s", op->index, kind);
        return;
    }
    if (step <= 0) snprintf(buf, len, "the inputs");
    else snprintf(buf, len, "subgraph entry");
}

/* qsort over indices into g_peak_reqs: largest first, then by index, so
 * the order is the stable one (an insertion sort was quadratic in the live
 * set: thousands of graph outputs). */
static const ta_request *g_peak_reqs;
static int cmp_live(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    size_t sa = g_peak_reqs[a].size, sb = g_peak_reqs[b].size;
    if (sa != sb) return sa > sb ? -1 : 1;
    return (a > b) - (a < b);
}

void model_plan_peak(FILE *f, const model_plan *mp, const ta_plan_result *res) {
    char label[96], b1[32], b2[32];
    int32_t step = res->peak_step;
    model_plan_step_label(mp, step, label, sizeof label);
    size_t *live = cli_xcalloc(mp->n, sizeof *live), k = 0;
    for (size_t i = 0; i < mp->n; i++)
        if (mp->reqs[i].first <= step && step <= mp->reqs[i].last && mp->reqs[i].size) live[k++] = i;
    g_peak_reqs = mp->reqs;
    qsort(live, k, sizeof *live, cmp_live);
    fprintf(f, "largest live set: %s B at step %d (%s), %zu buffers:\n", fmt_bytes(res->lower_bound_bytes, b1), step,
            label, k);
    for (size_t i = 0; i < k && i < 12; i++) {
        const ta_request *r = &mp->reqs[live[i]];
        char shape[64] = "";
        if (mp->origin[live[i]].kind == TA_BUFFER_TENSOR)
            model_plan_shape(&mp->g->tensors[mp->origin[live[i]].index], shape, sizeof shape);
        /* Keep each line within 80 columns: long tensor names are cut. */
        char head[96];
        int used = snprintf(head, sizeof head, "  %12s B  %-14s [%d,%d]  ", fmt_bytes(r->size, b2), shape, r->first,
                            r->last);
        int room = 80 - used;
        const char *id = mp->ids[live[i]];
        if (room < 8) room = 8;
        if ((int)strlen(id) <= room) fprintf(f, "%s%s\n", head, id);
        else fprintf(f, "%s%.*s...\n", head, room - 3, id);
    }
    if (k > 12) fprintf(f, "  ... and %zu more\n", k - 12);
    free(live);
}

void model_plan_shape(const ta_tensor *t, char *buf, size_t len) {
    size_t o = 0;
    buf[0] = '\0';
    if (t->rank == 0) {
        snprintf(buf, len, "scalar");
        return;
    }
    for (int32_t i = 0; i < t->rank && o + 12 < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "x" : "", t->shape[i]);
}

void model_plan_verbose(FILE *f, const model_plan *mp, const size_t *offsets) {
    fprintf(f, "%-5s %-44s %-18s %-8s %10s %6s %6s %10s\n", "id", "name", "shape", "dtype", "bytes", "first",
            "last", "offset");
    for (size_t i = 0; i < mp->n; i++) {
        char shape[64] = "-";
        const char *dtype = "-";
        if (mp->origin[i].kind == TA_BUFFER_TENSOR) {
            const ta_tensor *t = &mp->g->tensors[mp->origin[i].index];
            model_plan_shape(t, shape, sizeof shape);
            dtype = ta_dtype_str(t->dtype);
        }
        fprintf(f, "%-5zu %-44.44s %-18s %-8s %10zu %6d %6d %10zu\n", i, mp->ids[i], shape, dtype, mp->reqs[i].size,
                mp->reqs[i].first, mp->reqs[i].last, offsets ? offsets[i] : 0);
    }
}
