/*
 * Patch-based execution: which runs of ops form a stage (patch.h).  A stage
 * is a small DAG, not only a chain: elementwise ops run on a band's rows as
 * well as window ops do, and a residual ADD reads a tensor several ops back,
 * whose band (the union of what its readers need, ta_patch_dag_rows) is
 * kept across the ops in between.  The planning half that sizes buffers and
 * chooses stages is patch.c; the runtime's band loop is
 * src/runtime/runtime_patch.c.
 */
#include <string.h>

#include "graph/patch_int.h"

static const ta_op *op_at(const ta_graph *g, uint32_t o) { return ta_graph_op(g, 0, o); }

static const ta_tensor *tensor_at(const ta_graph *g, int32_t local) {
    return local >= 0 ? ta_graph_tensor(g, 0, local) : NULL;
}

static bool dims4(const ta_tensor *t) {
    if (!t || t->rank != 4 || t->shape[0] != 1) return false;
    for (int i = 1; i < 4; i++)
        if (t->shape[i] < 1) return false;
    return true;
}

/* The elementwise ops the band loop runs (their op modules have a band
 * form, runtime/ops/band_elem.c): how many inputs they read by rows. */
static int32_t elementwise_inputs(ta_op_kind k) {
    switch (k) {
    case TA_OP_ADD:
    case TA_OP_SUB:
    case TA_OP_MUL: return 2;
    case TA_OP_RELU:
    case TA_OP_RELU6:
    case TA_OP_RELU_N1_TO_1:
    case TA_OP_LOGISTIC:
    case TA_OP_TANH:
    case TA_OP_SILU: return 1;
    default: return 0;
    }
}

static bool same_dims(const ta_tensor *a, const ta_tensor *b) {
    return dims4(a) && dims4(b) && memcmp(a->shape, b->shape, 4 * sizeof a->shape[0]) == 0;
}

ta_status ta_patch_op_node(const ta_graph *g, uint32_t op, ta_patch_rows *rows, int32_t row_in[2], int32_t *n_row_in,
                           uint64_t *row_macs) {
    if (!g || !rows || !row_in || !n_row_in || g->n_subgraphs < 1 || op >= g->subgraphs[0].n_ops)
        return TA_E_INVALID_ARG;
    const ta_op *o = op_at(g, op);
    const int32_t ne = elementwise_inputs(o->kind);
    if (!ne) {
        ta_status st = ta_patch_op_rows(g, op, rows, row_macs);
        if (st) return st;
        row_in[0] = o->inputs[0], row_in[1] = -1;
        *n_row_in = 1;
        return TA_OK;
    }
    /* exactly the row inputs (no broadcasting: each has the output's shape) */
    if (o->n_outputs != 1 || o->n_inputs != (uint32_t)ne) return TA_E_UNSUPPORTED;
    const ta_tensor *out = tensor_at(g, o->outputs[0]);
    if (!dims4(out)) return TA_E_UNSUPPORTED;
    for (int32_t j = 0; j < ne; j++)
        if (!same_dims(tensor_at(g, o->inputs[j]), out)) return TA_E_UNSUPPORTED;
    *rows = (ta_patch_rows){out->shape[1], out->shape[1], 1, 0, 1, 1};
    row_in[0] = o->inputs[0];
    row_in[1] = ne > 1 ? o->inputs[1] : -1;
    *n_row_in = ne;
    if (row_macs) *row_macs = 0;
    return TA_OK;
}

/* Whether op i reads its input j by rows as a stage op. */
static bool row_input(const ta_op *o, uint32_t j) {
    return j == 0 || (j == 1 && elementwise_inputs(o->kind) == 2);
}

/* Op k's output as a stage intermediate: read at least once, only by rows,
 * by ops after k, not a graph output (nor constant, nor variable), op k's
 * only output, and in a buffer of its own.  *reader: the last op reading it. */
static bool intermediate_ok(const ta_graph *g, const int32_t *buffer_of, uint32_t k, int32_t *reader) {
    const ta_subgraph *sg = &g->subgraphs[0];
    const ta_op *ok = op_at(g, k);
    if (ok->n_outputs != 1) return false;
    const int32_t t = ok->outputs[0];
    const ta_tensor *tt = tensor_at(g, t);
    if (!tt || (tt->flags & (TA_TENSOR_OUTPUT | TA_TENSOR_CONST | TA_TENSOR_VARIABLE))) return false;
    uint32_t reads = 0;
    int32_t last = -1;
    for (uint32_t i = 0; i < sg->n_ops; i++) {
        const ta_op *o = op_at(g, i);
        for (uint32_t j = 0; j < o->n_inputs; j++) {
            if (o->inputs[j] != t) continue;
            if (i <= k || !row_input(o, j)) return false;
            reads++;
            last = (int32_t)i;
        }
        for (uint32_t j = 0; j < o->n_intermediates; j++)
            if (o->intermediates[j] == t) return false;
    }
    if (!reads) return false;
    *reader = last;
    if (!buffer_of) return true;
    const int32_t gi = (int32_t)sg->tensor_base + t;
    if (buffer_of[gi] != gi) return false;
    for (uint32_t u = 0; u < g->n_tensors; u++)
        if (buffer_of[u] == gi && (int32_t)u != gi) return false;
    return true;
}

/* The stage op (first .. k - 1) whose output is t, or -1. */
static int32_t producer_in(const ta_graph *g, int32_t first, int32_t k, int32_t t) {
    for (int32_t p = first; p < k; p++)
        if (op_at(g, (uint32_t)p)->n_outputs && op_at(g, (uint32_t)p)->outputs[0] == t) return p;
    return -1;
}

int32_t ta_patch_stage_ends(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks,
                            int32_t *lasts, int32_t cap) {
    if (!g || g->n_subgraphs < 1 || first < 0 || !lasts || cap < 1) return 0;
    const uint32_t n = g->subgraphs[0].n_ops;
    int32_t count = 0, reach = -1; /* reach: the last op reading an intermediate so far */
    bool anchored = false;         /* a window or binary op so far */
    for (uint32_t k = (uint32_t)first; k < n && k < (uint32_t)first + TA_PATCH_MAX_OPS; k++) {
        ta_patch_rows r;
        int32_t in[2], n_in;
        const ta_op *o = op_at(g, k);
        if (ta_patch_op_node(g, k, &r, in, &n_in, NULL) != TA_OK) break;
        if (o->kind == TA_OP_DEPTHWISE_CONV_2D && o->opt.in_place && !ignore_marks) break;
        bool ok = true;
        for (int32_t j = 0; j < n_in; j++) {
            /* a stage input (from outside) is held whole; a variable's bytes
             * change under the stage */
            const ta_tensor *x = tensor_at(g, in[j]);
            if (!x || (producer_in(g, first, (int32_t)k, in[j]) < 0 && (x->flags & TA_TENSOR_VARIABLE))) ok = false;
        }
        if (!ok) break;
        if (elementwise_inputs(o->kind) != 1) anchored = true;
        if (k > (uint32_t)first && reach <= (int32_t)k && anchored && count < cap) lasts[count++] = (int32_t)k;
        /* for a later last, op k's output is an intermediate */
        int32_t reader;
        if (!intermediate_ok(g, buffer_of, k, &reader)) break;
        if (reader > reach) reach = reader;
    }
    return count;
}

int32_t ta_patch_chain(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks) {
    int32_t lasts[TA_PATCH_MAX_OPS];
    const int32_t c = ta_patch_stage_ends(g, buffer_of, first, ignore_marks, lasts, TA_PATCH_MAX_OPS);
    return c ? lasts[c - 1] : -1;
}

uint64_t ta__patch_stage_mask(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks) {
    int32_t lasts[TA_PATCH_MAX_OPS];
    const int32_t c = ta_patch_stage_ends(g, buffer_of, first, ignore_marks, lasts, TA_PATCH_MAX_OPS);
    uint64_t m = 0;
    for (int32_t i = 0; i < c; i++) m |= (uint64_t)1 << (lasts[i] - first);
    return m;
}

bool ta__patch_dag_fill(const ta_graph *g, int32_t first, int32_t last, ta_patch_dag_op *dag) {
    for (int32_t k = first; k <= last; k++) {
        int32_t in[2], n_in;
        ta_patch_dag_op *d = &dag[k - first];
        if (ta_patch_op_node(g, (uint32_t)k, &d->geo, in, &n_in, NULL) != TA_OK) return false;
        d->n_src = n_in;
        d->src[0] = d->src[1] = -1;
        for (int32_t j = 0; j < n_in; j++) {
            const int32_t p = producer_in(g, first, k, in[j]);
            d->src[j] = p < 0 ? -1 : p - first;
        }
    }
    return true;
}

bool ta_patch_stage_valid(const ta_graph *g, const int32_t *buffer_of, int32_t first, int32_t last, int ignore_marks,
                          ta_patch_dag_op *dag) {
    if (!g || first < 0 || last <= first || last - first >= TA_PATCH_MAX_OPS ||
        !(ta__patch_stage_mask(g, buffer_of, first, ignore_marks) >> (last - first) & 1))
        return false;
    return !dag || ta__patch_dag_fill(g, first, last, dag);
}
