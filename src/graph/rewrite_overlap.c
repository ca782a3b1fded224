/* Pass 3 of the rewrites: OVERLAP, relations from kernel walks (rewrite.h). */
#include "rewrite_internal.h"

size_t ta_rewrite_overlaps_bytes(const ta_graph *g) {
    return g ? (size_t)g->n_tensors * sizeof(int32_t) + 16 : 0;
}

/* TFLM's leading padding for SAME/VALID (ComputePaddingHeightWidth: the
 * total the output extent needs, halved, rounded down), or the explicit
 * amount a folded PAD left (rewrite pass 1).  The runtime's prepare computes
 * the same from the same options; the walk only needs the leading part. */
static int32_t lead_pad(const ta_op_options *o, bool w_axis, int32_t in, int32_t filter, int32_t stride, int32_t dil,
                        int32_t out) {
    if (o->padding == TA_PAD_EXPLICIT) return w_axis ? o->pad_left : o->pad_top;
    const int64_t total = ((int64_t)out - 1) * stride + ((int64_t)filter - 1) * dil + 1 - in;
    return total > 0 ? (int32_t)(total / 2) : 0;
}

/* The walk geometry of op k's input 0 -> output 0 (CONV_2D, AVERAGE_POOL_2D,
 * MAX_POOL_2D, all 4-D NHWC); false when the op is not one of them or its
 * shapes are not what its kernel takes (prepare refuses those anyway). */
bool ta__rw_walk_geometry(const ta_graph *g, const ta_op *op, ta_conv_geometry *cg) {
    const ta_tensor *x = tensor0(g, op->n_inputs ? op->inputs[0] : -1), *y = tensor0(g, op->n_outputs ? op->outputs[0] : -1);
    if (!x || !y || x->rank != 4 || y->rank != 4) return false;
    const ta_op_options *o = &op->opt;
    memset(cg, 0, sizeof *cg);
    cg->batches = x->shape[0];
    cg->in_h = x->shape[1];
    cg->in_w = x->shape[2];
    cg->in_c = x->shape[3];
    cg->out_h = y->shape[1];
    cg->out_w = y->shape[2];
    cg->out_c = y->shape[3];
    cg->stride_h = o->stride_h;
    cg->stride_w = o->stride_w;
    cg->dilation_h = 1;
    cg->dilation_w = 1;
    if (op->kind == TA_OP_CONV_2D) {
        const ta_tensor *f = tensor0(g, op->n_inputs > 1 ? op->inputs[1] : -1);
        if (!f || f->rank != 4) return false;
        cg->filter_h = f->shape[1];
        cg->filter_w = f->shape[2];
        cg->dilation_h = o->dilation_h > 0 ? o->dilation_h : 1;
        cg->dilation_w = o->dilation_w > 0 ? o->dilation_w : 1;
    } else if (op->kind == TA_OP_AVERAGE_POOL_2D || op->kind == TA_OP_MAX_POOL_2D) {
        cg->filter_h = o->filter_h;
        cg->filter_w = o->filter_w;
    } else {
        return false;
    }
    if (y->shape[0] != cg->batches || cg->filter_h < 1 || cg->filter_w < 1 || cg->stride_h < 1 || cg->stride_w < 1)
        return false;
    cg->pad_top = lead_pad(o, false, cg->in_h, cg->filter_h, cg->stride_h, cg->dilation_h, cg->out_h);
    cg->pad_left = lead_pad(o, true, cg->in_w, cg->filter_w, cg->stride_w, cg->dilation_w, cg->out_w);
    cg->in_elem = (int32_t)ta_dtype_size(x->dtype);
    cg->out_elem = (int32_t)ta_dtype_size(y->dtype);
    return cg->pad_top >= 0 && cg->pad_left >= 0;
}

/* For each op of a kind in `walks` (the kernels that run the ROWS walk,
 * walk.h, whenever their output overlaps their input): when input 0's
 * buffer and output 0's buffer are both planned, different, and meet at
 * exactly this op (the input's buffer dies at its step, the output's is
 * born there), the relation its walk tolerates.  The walk's d is between
 * the tensors' own bytes; the buffers may be larger (padding, a group's
 * larger member), so d is moved by those differences: the relation on the
 * requests then permits exactly the placements the walk permits on the
 * tensors (Y's bytes start its request, X's start its request). */
/* A STRIDED_SLICE's begin, end and strides (inputs 1-3): constant int32
 * vectors of r elements each, their bytes in bv[0..2]. */
static bool slice_vectors(const ta_graph *g, const ta_op *op, int32_t r, const unsigned char *bv[3]) {
    for (int k = 0; k < 3; k++) {
        const ta_tensor *t = tensor0(g, op->inputs[1 + k]);
        if (!t || t->dtype != TA_DTYPE_INT32 || ta_tensor_elements(t) != (uint64_t)r) return false;
        bv[k] = const_data(t, (size_t)r * 4);
        if (!bv[k]) return false;
    }
    return true;
}

/* A STRIDED_SLICE whose walk is a forward gather (walk.h ta_walk_gather):
 * constant int32 begin, end and strides, every stride positive, no
 * ellipsis or new-axis mask, a non-empty output of the input's dtype.
 * Resolution is the kernel's (ta_strided_slice_resolve) for positive
 * strides: begin from the end when negative, clamped to [0, n], 0 under
 * begin_mask; end likewise (+ begin with `offset`), n under end_mask,
 * begin + 1 under shrink.  *first gets the first element's byte offset. */
static bool slice_first(const ta_graph *g, const ta_op *op, uint64_t *first) {
    if (op->n_inputs != 4 || op->n_outputs != 1) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, op->outputs[0]);
    if (!x || !y || x->rank < 1 || x->rank > 5 || x->dtype != y->dtype) return false;
    const ta_op_options *o = &op->opt;
    if (o->ellipsis_mask || o->new_axis_mask) return false;
    const size_t es = ta_dtype_size(x->dtype);
    if (!es || x->dtype == TA_DTYPE_INT4) return false;
    const int32_t r = x->rank;
    const unsigned char *bv[3];
    if (!slice_vectors(g, op, r, bv)) return false;
    uint64_t at = 0, stride = 1, elems = 1;
    for (int32_t a = r - 1; a >= 0; a--) {
        int32_t b, e, s;
        memcpy(&b, bv[0] + 4 * a, 4);
        memcpy(&e, bv[1] + 4 * a, 4);
        memcpy(&s, bv[2] + 4 * a, 4);
        const int64_t n = x->shape[a];
        if (s <= 0 || n <= 0) return false;
        int64_t st = b < 0 ? (int64_t)b + n : b;
        st = st < 0 ? 0 : st > n ? n : st;
        if (o->begin_mask & (1 << a)) st = 0;
        int64_t sp;
        if (o->shrink_axis_mask & (1 << a)) {
            sp = st >= n ? st : st + 1;
        } else {
            sp = (int64_t)e + (o->offset ? st : 0);
            if (sp < 0) sp += n;
            sp = sp < 0 ? 0 : sp > n ? n : sp;
            if (o->end_mask & (1 << a)) sp = n;
        }
        if (sp <= st || st >= n) return false; /* an empty output has no walk */
        elems *= (uint64_t)((sp - st + s - 1) / s);
        at += (uint64_t)st * stride;
        stride *= (uint64_t)n;
    }
    if (elems * es != y->bytes || ta_tensor_elements(y) != elems) return false;
    *first = at * es;
    return true;
}

bool ta__rw_slice_box(const ta_graph *g, const ta_op *op, int64_t *st, int64_t *sp) {
    if (op->kind != TA_OP_STRIDED_SLICE || op->n_inputs != 4 || op->n_outputs != 1) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, op->outputs[0]);
    if (!x || !y || x->rank < 1 || x->rank > 5 || y->rank != x->rank || x->dtype != y->dtype) return false;
    const ta_op_options *o = &op->opt;
    if (o->ellipsis_mask || o->new_axis_mask || o->shrink_axis_mask) return false;
    const int32_t r = x->rank;
    const unsigned char *bv[3];
    if (!slice_vectors(g, op, r, bv)) return false;
    /* the kernel's resolution for stride 1 (slice_first above) */
    for (int32_t a = 0; a < r; a++) {
        int32_t b, e, sd;
        memcpy(&b, bv[0] + 4 * a, 4);
        memcpy(&e, bv[1] + 4 * a, 4);
        memcpy(&sd, bv[2] + 4 * a, 4);
        const int64_t n = x->shape[a];
        if (sd != 1 || n <= 0) return false;
        int64_t lo = b < 0 ? (int64_t)b + n : b;
        lo = lo < 0 ? 0 : lo > n ? n : lo;
        if (o->begin_mask & (1 << a)) lo = 0;
        int64_t hi = (int64_t)e + (o->offset ? lo : 0);
        if (hi < 0) hi += n;
        hi = hi < 0 ? 0 : hi > n ? n : hi;
        if (o->end_mask & (1 << a)) hi = n;
        if (hi <= lo || y->shape[a] != hi - lo) return false;
        st[a] = lo;
        sp[a] = hi;
    }
    return true;
}

/* A PAD / PADV2 whose walk is a backward scatter (walk.h
 * ta_walk_pad_backward): constant int32 paddings [rank, 2] (what prepare
 * reads), none negative, rank 1..5, output of the input's dtype and the
 * padded shape, a non-empty input.  *first gets the byte offset of the
 * input's first element in the output (the padding before it). */
static bool pad_first(const ta_graph *g, const ta_op *op, uint64_t *first) {
    if (op->n_inputs < 2 || op->n_outputs != 1) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, op->outputs[0]), *pt = tensor0(g, op->inputs[1]);
    if (!x || !y || !pt || x->dtype != y->dtype || x->rank < 1 || x->rank > 5 || y->rank != x->rank) return false;
    const size_t es = ta_dtype_size(x->dtype);
    if (es != 1 && es != 2 && es != 4 && es != 8) return false;
    if (x->dtype == TA_DTYPE_INT4 || pt->dtype != TA_DTYPE_INT32 || ta_tensor_elements(pt) != 2u * (uint64_t)x->rank)
        return false;
    const unsigned char *pv = const_data(pt, 8u * (size_t)x->rank);
    if (!pv || !x->bytes) return false;
    uint64_t at = 0;
    for (int32_t a = 0; a < x->rank; a++) {
        int32_t before, after;
        memcpy(&before, pv + 8 * a, 4);
        memcpy(&after, pv + 8 * a + 4, 4);
        if (before < 0 || after < 0 || x->shape[a] <= 0 || (int64_t)x->shape[a] + before + after != y->shape[a])
            return false;
        at = at * (uint64_t)y->shape[a] + (uint64_t)before;
    }
    *first = at * es;
    return true;
}

ta_status ta_rewrite_overlaps(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of,
                              const size_t *buffer_at, const ta_op_kind_set *walks, const ta_request *reqs, const ta_buffer_origin *origin,
                              size_t n_req, void *mem, size_t bytes, ta_overlap *out, size_t cap, size_t *n_out,
                              ta_rewrite_stats *stats, ta_diag *d) {
    return ta_rewrite_overlaps_for(g, lt, TA_REWRITE_ALL, buffer_of, buffer_at, walks, reqs, origin, n_req, mem, bytes,
                                   out, cap, n_out, stats, d);
}

/* Whether a tensor of group `r` (global index; buffer_of NULL: r alone) is
 * a graph input. */
static bool group_has_input(const ta_graph *g, const int32_t *buffer_of, uint32_t r) {
    if (!buffer_of) return (g->tensors[r].flags & TA_TENSOR_INPUT) != 0;
    const ta_subgraph *s = &g->subgraphs[0];
    for (uint32_t m = s->tensor_base; m < s->tensor_base + s->n_tensors; m++)
        if (buffer_of[m] == (int32_t)r && (g->tensors[m].flags & TA_TENSOR_INPUT)) return true;
    return false;
}

/* The geometry of CONCATENATION `op` for its input j, as its kernel runs it
 * (prepare's checks: one dtype, each input the output's dims off the axis,
 * the extents summing to the output's): *outer steps, and per step the
 * bytes of the inputs before j, of j, and after j.  false otherwise. */
static bool concat_blocks(const ta_graph *g, const ta_op *op, uint32_t j, uint64_t *outer, uint64_t *before,
                          uint64_t *mine, uint64_t *after) {
    const ta_tensor *y = tensor0(g, op->outputs[0]);
    if (!y || y->rank < 1 || op->n_inputs > 64) return false;
    const int32_t axis = op->opt.axis < 0 ? op->opt.axis + y->rank : op->opt.axis;
    const size_t es = ta_dtype_size(y->dtype);
    if (axis < 0 || axis >= y->rank || !es || y->dtype == TA_DTYPE_INT4) return false;
    uint64_t o = 1, inner = 1, sum = 0;
    for (int32_t a = 0; a < axis; a++) o *= (uint64_t)(y->shape[a] > 0 ? y->shape[a] : 0);
    for (int32_t a = axis + 1; a < y->rank; a++) inner *= (uint64_t)(y->shape[a] > 0 ? y->shape[a] : 0);
    *before = *mine = *after = 0;
    for (uint32_t i = 0; i < op->n_inputs; i++) {
        const ta_tensor *t = tensor0(g, op->inputs[i]);
        if (!t || t->dtype != y->dtype || t->rank != y->rank || t->shape[axis] < 0) return false;
        for (int32_t a = 0; a < y->rank; a++)
            if (a != axis && t->shape[a] != y->shape[a]) return false;
        const uint64_t b = (uint64_t)t->shape[axis] * inner * es;
        sum += (uint64_t)t->shape[axis];
        *(i < j ? before : i == j ? mine : after) += b;
    }
    *outer = o;
    return sum == (uint64_t)y->shape[axis] && *mine && o;
}

/* The relation op's kernel walk tolerates between its input xi's request
 * (X) and its output's (Y), under the conditions of rewrite.h; false when
 * none. */
static bool pair_relation(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, const int32_t *buffer_of,
                          const size_t *buffer_at, const ta_request *reqs, const int32_t *req_of, const ta_op *op,
                          int32_t step, uint32_t xi, ta_overlap *res) {
    (void)lt;
    const uint32_t base = g->subgraphs[0].tensor_base;
    if (op->inputs[xi] < 0 || op->outputs[0] < 0) return false;
    uint32_t xt = base + (uint32_t)op->inputs[xi], yt = base + (uint32_t)op->outputs[0];
    if (xt >= g->n_tensors || yt >= g->n_tensors) return false;
    const uint32_t x_own = xt, y_own = yt;
    if (buffer_of) xt = (uint32_t)buffer_of[xt], yt = (uint32_t)buffer_of[yt];
    /* The relation below is for requests that start with the walked
     * tensors.  A view at an offset (SLICE, CONCAT: buffer_at) does not,
     * and an output that is a slice of a larger buffer (a CONCAT member)
     * shares its request with bytes the walk does not write: leave such
     * pairs alone. */
    if (buffer_at && buffer_at[y_own]) return false;
    /* An input at an offset in its group (a view, or a depthwise conv's
     * output at its input's end) is fine: the group dies here, so its
     * other bytes are free, unless this op reads them too. */
    const size_t ax = buffer_at ? buffer_at[x_own] : 0;
    for (uint32_t i = 0; i < op->n_inputs; i++) {
        const int32_t t = op->inputs[i];
        if (i == xi || t < 0 || base + (uint32_t)t >= g->n_tensors) continue;
        if ((buffer_of ? (uint32_t)buffer_of[base + (uint32_t)t] : base + (uint32_t)t) == xt) return false;
    }
    if (yt != y_own && yt < g->n_tensors && g->tensors[yt].bytes > g->tensors[y_own].bytes) return false;
    if (xt >= g->n_tensors || yt >= g->n_tensors || req_of[xt] < 0 || req_of[yt] < 0 || req_of[xt] == req_of[yt])
        return false;
    /* the walk writes over X: a graph input's bytes only with INPUTS */
    if (!(flags & TA_REWRITE_INPUTS) && group_has_input(g, buffer_of, xt)) return false;
    const ta_request *rx = &reqs[req_of[xt]], *ry = &reqs[req_of[yt]];
    if (rx->last != step || ry->first != step || rx->fixed != TA_NO_OFFSET || ry->fixed != TA_NO_OFFSET) return false;
    const ta_tensor *x = tensor0(g, op->inputs[xi]), *y = tensor0(g, op->outputs[0]);
    ta_overlap rel;
    if (op->kind == TA_OP_PAD || op->kind == TA_OP_PADV2) {
        /* a backward walk: Y may start `first` bytes below X's start
         * (TA_OVERLAP_ABOVE, offsets only: request sizes do not enter),
         * moved by X's offset in its group */
        uint64_t first = 0;
        if (!pad_first(g, op, &first) || ta_walk_pad_backward(x->bytes, y->bytes, first, &rel, NULL) != TA_OK)
            return false;
        *res = (ta_overlap){(uint32_t)req_of[xt], (uint32_t)req_of[yt], TA_OVERLAP_ABOVE, rel.d + (int64_t)ax};
        return true;
    }
    if (op->kind == TA_OP_STRIDED_SLICE) {
        uint64_t first = 0;
        if (!slice_first(g, op, &first) || ta_walk_gather(x->bytes, y->bytes, first, &rel, NULL) != TA_OK) return false;
    } else if (op->kind == TA_OP_CONCATENATION) {
        uint64_t outer, before, mine, after;
        if (!concat_blocks(g, op, xi, &outer, &before, &mine, &after) || outer * mine != x->bytes ||
            outer * (before + mine + after) != y->bytes ||
            ta_walk_concat(outer, before, mine, after, &rel, NULL) != TA_OK)
            return false;
    } else {
        ta_conv_geometry cg;
        if (xi != 0 || !ta__rw_walk_geometry(g, op, &cg) || ta_walk_conv2d(&cg, TA_CONV_WALK_ROWS, &rel, NULL) != TA_OK)
            return false;
    }
    if (rel.d >= (int64_t)x->bytes) return false; /* the walk tolerates no overlap */
    const int64_t dd = rel.d + (int64_t)(ta_request_padded(rx) - ax - x->bytes) - (int64_t)(ta_request_padded(ry) - y->bytes);
    *res = (ta_overlap){(uint32_t)req_of[xt], (uint32_t)req_of[yt], TA_OVERLAP_BELOW, dd};
    return true;
}

ta_status ta_rewrite_overlaps_for(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, const int32_t *buffer_of,
                                  const size_t *buffer_at, const ta_op_kind_set *walks, const ta_request *reqs,
                                  const ta_buffer_origin *origin, size_t n_req, void *mem, size_t bytes, ta_overlap *out,
                                  size_t cap, size_t *n_out, ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !lt || !n_out || (n_req && (!reqs || !origin)) || (cap && !out))
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite overlaps: NULL argument");
    *n_out = 0;
    if (lt->n_tensors != g->n_tensors || lt->n_ops != g->n_ops)
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite overlaps: lifetimes are of another graph");
    if (!g->n_subgraphs || !walks) return TA_OK;
    const size_t need = ta_rewrite_overlaps_bytes(g);
    if (!mem || bytes < need) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite overlaps needs %zu bytes, has %zu", need, mem ? bytes : 0);
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    int32_t *req_of = ta__bump_take(&b, g->n_tensors, sizeof(int32_t));
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite overlaps needs %zu bytes, has %zu", need, bytes);
    for (uint32_t t = 0; t < g->n_tensors; t++) req_of[t] = -1;
    for (size_t i = 0; i < n_req; i++)
        if (origin[i].kind == TA_BUFFER_TENSOR && origin[i].index < g->n_tensors) req_of[origin[i].index] = (int32_t)i;
    const ta_subgraph *s = &g->subgraphs[0];
    size_t n = 0;
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        const int32_t step = lt->op_step[s->op_base + k];
        if (!ta_op_kind_set_has(walks, op->kind) || step < 0 || op->n_inputs < 1 || op->n_outputs != 1) continue;
        ta_overlap rel = {0, 0, 0, 0};
        bool has = false;
        if (op->kind == TA_OP_CONCATENATION) {
            /* one input may lie inside the output: the largest one that
             * dies here (it saves its bytes) */
            uint64_t best = 0;
            for (uint32_t j = 0; j < op->n_inputs && j < 64; j++) {
                ta_overlap r;
                const ta_tensor *xj = tensor0(g, op->inputs[j]);
                if (xj && xj->bytes > best && pair_relation(g, lt, flags, buffer_of, buffer_at, reqs, req_of, op, step, j, &r)) {
                    rel = r;
                    best = xj->bytes;
                    has = true;
                }
            }
        } else {
            has = pair_relation(g, lt, flags, buffer_of, buffer_at, reqs, req_of, op, step, 0, &rel);
        }
        if (!has) continue;
        if (n < cap) out[n] = rel;
        n++;
    }
    *n_out = n;
    if (stats) stats->overlapped += (uint32_t)n;
    if (n > cap) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite overlaps: %zu relations, room for %zu", n, cap);
    return TA_OK;
}
