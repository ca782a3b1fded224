/* Pass 2 of the rewrites: ALIAS, INPLACE, DWINPLACE, CONCAT, SLICE (rewrite.h). */
#include "rewrite_internal.h"

size_t ta_rewrite_buffers_bytes(const ta_graph *g) {
    if (!g) return 0;
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    const uint32_t n_t = g->n_subgraphs ? g->subgraphs[0].n_tensors : 0;
    (void)ta__bump_take(&b, n_t, sizeof(int32_t)); /* group_last */
    (void)ta__bump_take(&b, n_t, sizeof(uint16_t));
    (void)ta__bump_take(&b, n_t, sizeof(uint16_t));
    (void)ta__bump_take(&b, n_t, sizeof(uint32_t));
    return ta__bump_need(&b);
}

/* Steps, over subgraph 0's ops in execution order (groups only ever grow by
 * an op's fresh output joining an input's group, so they stay flat):
 *  1. every tensor starts as its own group; a group's "needed until" is the
 *     latest last step of its members, a graph output counting as forever;
 *  2. ALIAS: a RESHAPE-like op's output joins its input's group;
 *  3. INPLACE: an elementwise op's output joins the group of its first input
 *     that qualifies -- above all, a group needed until exactly this op's
 *     step (the op is its last reader and no member is a graph output);
 *  4. a joining tensor extends its group's "needed until". */
ta_status ta_rewrite_buffers(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, const ta_op_kind_set *inplace,
                             void *mem, size_t bytes, int32_t *buffer_of, ta_rewrite_stats *stats, ta_diag *d) {
    return ta_rewrite_buffers_at(g, lt, flags, inplace, mem, bytes, buffer_of, NULL, stats, d);
}

/* Whether group r (a global tensor index) holds a graph input: without
 * INPUTS, no output may be written over one.  A scan, run only when a join
 * is otherwise decided. */
static bool holds_input(const ta_graph *g, const int32_t *buffer_of, int32_t r) {
    const ta_subgraph *s = &g->subgraphs[0];
    for (uint32_t m = s->tensor_base; m < s->tensor_base + s->n_tensors; m++)
        if (buffer_of[m] == r && (g->tensors[m].flags & TA_TENSOR_INPUT)) return true;
    return false;
}

/* CONCAT at concatenation `op` (step `step`, fresh output yi, local): moves
 * the group of every input that qualifies (rewrite.h) into yi's buffer at
 * the input's slice.  Indices into buffer_of/at are global, `until` local.
 * Returns how many inputs joined. */
static uint32_t concat_join(const ta_graph *g, const ta_lifetimes *lt, const tensor_usage *u, int32_t *until,
                            int32_t *buffer_of, size_t *at, const ta_op *op, int32_t step, int32_t yi) {
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t base = s->tensor_base;
    const ta_tensor *y = tensor0(g, yi);
    if (!y || op->n_inputs < 1 || op->n_inputs > 64 || y->rank < 1 || y->rank > TA_MAX_RANK) return 0;
    const int32_t axis = op->opt.axis < 0 ? op->opt.axis + y->rank : op->opt.axis;
    if (axis < 0 || axis >= y->rank) return 0;
    for (int32_t d = 0; d < axis; d++)
        if (y->shape[d] != 1) return 0; /* a slice would be several ranges */
    const size_t es = ta_dtype_size(y->dtype);
    if (!es || y->dtype == TA_DTYPE_INT4) return 0;
    int64_t inner = 1;
    for (int32_t d = axis + 1; d < y->rank; d++) {
        if (y->shape[d] <= 0 || inner > ((int64_t)1 << 40)) return 0; /* no int64 overflow on hostile shapes */
        inner *= y->shape[d];
    }
    const int32_t ry = (int32_t)(base + (uint32_t)yi);
    uint64_t off = 0;
    uint32_t joined = 0;
    for (uint32_t i = 0; i < op->n_inputs; i++) {
        const int32_t xi = op->inputs[i];
        const ta_tensor *x = tensor0(g, xi);
        if (!x || x->rank != y->rank || x->shape[axis] < 0) return joined; /* prepare refuses it */
        for (int32_t d = 0; d < y->rank; d++)
            if (d != axis && x->shape[d] != y->shape[d]) return joined;
        if (inner > ((int64_t)1 << 40) || off > ((uint64_t)1 << 62)) return joined;
        const uint64_t xb = (uint64_t)x->shape[axis] * (uint64_t)inner * es, slice = off;
        off += xb;
        if (!ta_lifetime_is_planned(x) || x->dtype != y->dtype || x->bytes != xb || slice % 16) continue;
        if (x->flags & (TA_TENSOR_INPUT | TA_TENSOR_OUTPUT | TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) continue;
        if (x->dtype == TA_DTYPE_INT8 && !same_quant(x, y)) continue;
        bool once = true;
        for (uint32_t j = 0; j < op->n_inputs; j++) once &= j == i || op->inputs[j] != xi;
        const uint32_t gx = base + (uint32_t)xi;
        if (!once || u->producers[xi] != 1 || lt->first[gx] < 1 || lt->first[gx] >= step) continue;
        const int32_t r = buffer_of[gx];
        if (r == ry || at[gx] != 0) continue;
        bool inside = true;
        for (uint32_t m = base; m < base + s->n_tensors && inside; m++)
            if (buffer_of[m] == r) inside = at[m] + g->tensors[m].bytes <= xb;
        if (!inside) continue;
        for (uint32_t m = base; m < base + s->n_tensors; m++)
            if (buffer_of[m] == r) buffer_of[m] = ry, at[m] += (size_t)slice;
        if (until[r - (int32_t)base] > until[yi]) until[yi] = until[r - (int32_t)base];
        joined++;
    }
    return joined;
}

/* SLICE: whether STRIDED_SLICE `op` (output yi) reads one contiguous byte
 * range of its input; *off gets its start.  Resolution is the kernel's
 * (ta_strided_slice_resolve) for stride 1 without `offset`: begin from the
 * end when negative, clamped to [0, n], 0 under begin_mask; end likewise,
 * n under end_mask, start + 1 under shrink (start when start == n). */
static bool slice_view(const ta_graph *g, const ta_op *op, int32_t yi, uint64_t *off) {
    if (op->n_inputs != 4 || op->n_outputs != 1) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, yi);
    if (!x || !y || x->rank < 1 || x->rank > 5 || x->dtype != y->dtype) return false;
    const ta_op_options *o = &op->opt;
    if (o->ellipsis_mask || o->new_axis_mask || o->offset) return false;
    const int32_t r = x->rank;
    const int32_t *bv[3];
    for (int k = 0; k < 3; k++) {
        const ta_tensor *t = tensor0(g, op->inputs[1 + k]);
        if (!t || t->dtype != TA_DTYPE_INT32 || ta_tensor_elements(t) != (uint64_t)r) return false;
        bv[k] = const_data(t, (size_t)r * 4);
        if (!bv[k]) return false;
    }
    const size_t es = ta_dtype_size(x->dtype);
    if (!es || x->dtype == TA_DTYPE_INT4) return false;
    int64_t start[5], len[5];
    for (int32_t a = 0; a < r; a++) {
        int32_t b, e, s;
        memcpy(&b, (const unsigned char *)bv[0] + 4 * a, 4);
        memcpy(&e, (const unsigned char *)bv[1] + 4 * a, 4);
        memcpy(&s, (const unsigned char *)bv[2] + 4 * a, 4);
        const int64_t n = x->shape[a];
        if (s != 1 || n <= 0) return false;
        int64_t st = b < 0 ? (int64_t)b + n : b;
        st = st < 0 ? 0 : st > n ? n : st;
        if (o->begin_mask & (1 << a)) st = 0;
        int64_t sp;
        if (o->shrink_axis_mask & (1 << a)) {
            sp = st >= n ? st : st + 1;
        } else {
            sp = e < 0 ? (int64_t)e + n : e;
            sp = sp < 0 ? 0 : sp > n ? n : sp;
            if (o->end_mask & (1 << a)) sp = n;
        }
        start[a] = st;
        len[a] = sp > st ? sp - st : 0;
    }
    /* contiguous: one index per axis up to the first axis that keeps more,
     * whole axes after it */
    int32_t k = 0;
    while (k < r - 1 && len[k] == 1) k++;
    uint64_t elems = 1, at = 0, stride = 1;
    for (int32_t a = r - 1; a >= 0; a--) {
        if (a > k && (start[a] != 0 || len[a] != x->shape[a])) return false;
        at += (uint64_t)start[a] * stride;
        stride *= (uint64_t)x->shape[a];
        elems *= (uint64_t)len[a];
    }
    if (!elems || elems * es != y->bytes || ta_tensor_elements(y) != elems) return false;
    *off = at * es;
    return true;
}

ta_status ta_rewrite_buffers_at(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags,
                                const ta_op_kind_set *inplace, void *mem, size_t bytes, int32_t *buffer_of,
                                size_t *buffer_at, ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !lt || !buffer_of) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: NULL argument");
    if (flags & ~TA_REWRITE_ALL) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: unknown flags 0x%x", flags);
    if (lt->n_tensors != g->n_tensors || lt->n_ops != g->n_ops)
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: lifetimes are of another graph");
    for (uint32_t t = 0; t < g->n_tensors; t++) buffer_of[t] = (int32_t)t;
    for (uint32_t t = 0; buffer_at && t < g->n_tensors; t++) buffer_at[t] = 0;
    if (!buffer_at) flags &= ~(uint32_t)(TA_REWRITE_CONCAT | TA_REWRITE_SLICE);
    if (!g->n_subgraphs || !(flags & (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_DWINPLACE | TA_REWRITE_CONCAT |
                                      TA_REWRITE_SLICE)))
        return TA_OK;
    const size_t need = ta_rewrite_buffers_bytes(g);
    if (!mem || bytes < need) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, mem ? bytes : 0);
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t base = s->tensor_base;
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    int32_t *until = ta__bump_take(&b, s->n_tensors, sizeof(int32_t));
    tensor_usage u;
    u.uses = ta__bump_take(&b, s->n_tensors, sizeof(uint16_t));
    u.producers = ta__bump_take(&b, s->n_tensors, sizeof(uint16_t));
    u.last_user = ta__bump_take(&b, s->n_tensors, sizeof(uint32_t));
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, bytes);
    ta__rw_count_usage(g, &u);
    for (uint32_t t = 0; t < s->n_tensors; t++)
        until[t] = (g->tensors[base + t].flags & TA_TENSOR_OUTPUT) ? INT32_MAX : lt->last[base + t];
    uint32_t aliased = 0, in_place = 0, dw_in_place = 0, concat_in_place = 0, slice_views = 0;
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        const int32_t step = lt->op_step[s->op_base + k];
        if (control_flow(op) || op->n_outputs != 1 || op->n_inputs < 1 || step < 0) continue;
        const int32_t yi = op->outputs[0];
        const ta_tensor *y = tensor0(g, yi);
        /* the output: planned, fresh (its own group), written by this op only */
        if (!y || !ta_lifetime_is_planned(y) || buffer_of[base + (uint32_t)yi] != (int32_t)(base + (uint32_t)yi) ||
            u.producers[yi] != 1 || lt->first[base + (uint32_t)yi] != step)
            continue;
        if (op->kind == TA_OP_STRIDED_SLICE) {
            uint64_t off = 0;
            const int32_t xi = op->inputs[0];
            const ta_tensor *x = tensor0(g, xi);
            if (!(flags & TA_REWRITE_SLICE) || !x || !ta_lifetime_is_planned(x) || xi == yi ||
                ((x->flags & TA_TENSOR_INPUT) && (y->flags & TA_TENSOR_OUTPUT)) || !slice_view(g, op, yi, &off) ||
                off % 16)
                continue;
            const int32_t r = buffer_of[base + (uint32_t)xi];
            buffer_of[base + (uint32_t)yi] = r;
            buffer_at[base + (uint32_t)yi] = buffer_at[base + (uint32_t)xi] + (size_t)off;
            if (until[yi] > until[r - (int32_t)base]) until[r - (int32_t)base] = until[yi];
            slice_views++;
            continue;
        }
        if (op->kind == TA_OP_CONCATENATION) {
            if (flags & TA_REWRITE_CONCAT) concat_in_place += concat_join(g, lt, &u, until, buffer_of, buffer_at, op, step, yi);
            continue;
        }
        int32_t join = -1;
        const bool reshape = ta__rw_alias_candidate(g, op);
        const bool dw = op->kind == TA_OP_DEPTHWISE_CONV_2D && op->opt.in_place;
        if (dw) {
            /* marked by pass 1: joins when the input's buffer dies here */
            if (flags & TA_REWRITE_DWINPLACE) {
                const int32_t xi = op->inputs[0];
                const ta_tensor *x = tensor0(g, xi);
                if (x && ta_lifetime_is_planned(x) && xi != yi &&
                    until[buffer_of[base + (uint32_t)xi] - (int32_t)base] == step)
                    join = xi;
            }
        } else if (reshape) {
            if (flags & TA_REWRITE_ALIAS) join = op->inputs[0];
        } else if ((flags & TA_REWRITE_INPLACE) && !op->opt.patch_apart) {
            for (uint32_t i = 0; i < op->n_inputs && join < 0; i++) {
                if (!ta__rw_inplace_candidate(g, inplace, op, i)) continue;
                const int32_t r = buffer_of[base + (uint32_t)op->inputs[i]] - (int32_t)base;
                /* a broadcast other input must not be in the bytes written */
                const int32_t o = op->n_inputs == 2 ? op->inputs[1 - i] : -1;
                if (o >= 0 && !same_shape(tensor0(g, o), y) && buffer_of[base + (uint32_t)o] == r + (int32_t)base)
                    continue;
                if (until[r] == step) join = op->inputs[i];
            }
        }
        if (join < 0) continue;
        const int32_t r = buffer_of[base + (uint32_t)join];
        /* ALIAS only reads its input's bytes; INPLACE and DWINPLACE write
         * over them, a graph input's only with INPUTS */
        if (!reshape && !(flags & TA_REWRITE_INPUTS) && holds_input(g, buffer_of, r)) continue;
        buffer_of[base + (uint32_t)yi] = r;
        /* over the input's bytes, wherever they sit in the group (a slice) */
        if (buffer_at) buffer_at[base + (uint32_t)yi] = buffer_at[base + (uint32_t)join];
        /* A depthwise conv's output ends where its input ends (the kernel's
         * _end form), when that keeps 16-byte alignment: the front it frees
         * is where the next op's overlapping walk (pass 3) can write. */
        if (dw && buffer_at && tensor0(g, join)->bytes >= y->bytes) {
            const size_t gap = tensor0(g, join)->bytes - y->bytes;
            if (gap % 16 == 0) buffer_at[base + (uint32_t)yi] += gap;
        }
        const int32_t ry = until[yi];
        if (ry > until[r - (int32_t)base]) until[r - (int32_t)base] = ry;
        if (dw) dw_in_place++;
        else if (reshape) aliased++;
        else in_place++;
    }
    if (stats) {
        stats->aliased += aliased;
        stats->in_place += in_place;
        stats->dw_in_place += dw_in_place;
        stats->concat_in_place += concat_in_place;
        stats->slice_views += slice_views;
    }
    return TA_OK;
}

