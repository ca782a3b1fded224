/*
 * Patch-based execution, the planning half (patch.h): which prefix of the
 * graph runs band by band, with how many bands, and what that does to the
 * buffer requests.  The runtime half is src/runtime/runtime_patch.c; both
 * cut rows with patch.h's inline functions, so the buffers planned here are
 * exactly the rows the runtime writes.
 */
#include <string.h>

#include "common/util.h"
#include "tinyarena/patch.h"

static const ta_op *op_at(const ta_graph *g, uint32_t o) { return ta_graph_op(g, 0, o); }

static const ta_tensor *tensor_at(const ta_graph *g, int32_t local) {
    return local >= 0 ? ta_graph_tensor(g, 0, local) : NULL;
}

/* TFLM's SAME padding (ComputePaddingHeightWidth): half the excess, the
 * smaller half first. */
static int64_t same_pad(int32_t stride, int32_t dilation, int32_t in, int32_t filter, int32_t out) {
    const int64_t eff = (int64_t)(filter - 1) * dilation + 1;
    const int64_t total = ((int64_t)out - 1) * stride + eff - in;
    return total > 0 ? total / 2 : 0;
}

static bool dims4(const ta_tensor *t) {
    if (!t || t->rank != 4) return false;
    for (int i = 0; i < 4; i++)
        if (t->shape[i] < 1) return false;
    return t->shape[0] == 1;
}

ta_status ta_patch_op_rows(const ta_graph *g, uint32_t op, ta_patch_rows *rows, uint64_t *row_macs) {
    if (!g || !rows || g->n_subgraphs < 1 || op >= g->subgraphs[0].n_ops) return TA_E_INVALID_ARG;
    const ta_op *o = op_at(g, op);
    const bool conv = o->kind == TA_OP_CONV_2D, dw = o->kind == TA_OP_DEPTHWISE_CONV_2D;
    const bool pool = o->kind == TA_OP_AVERAGE_POOL_2D || o->kind == TA_OP_MAX_POOL_2D;
    if ((!conv && !dw && !pool) || o->n_inputs < 1 || o->n_outputs < 1) return TA_E_UNSUPPORTED;
    const ta_tensor *in = tensor_at(g, o->inputs[0]), *out = tensor_at(g, o->outputs[0]);
    if (!dims4(in) || !dims4(out)) return TA_E_UNSUPPORTED;
    int32_t taps_h, taps_w, depth;
    if (pool) {
        taps_h = o->opt.filter_h, taps_w = o->opt.filter_w, depth = 1;
        if (o->opt.padding == TA_PAD_EXPLICIT) return TA_E_UNSUPPORTED;
    } else {
        const ta_tensor *w = o->n_inputs > 1 ? tensor_at(g, o->inputs[1]) : NULL;
        if (!w || w->rank != 4) return TA_E_UNSUPPORTED;
        taps_h = w->shape[1], taps_w = w->shape[2], depth = dw ? 1 : w->shape[3];
    }
    ta_patch_rows r;
    r.in_h = in->shape[1];
    r.out_h = out->shape[1];
    r.stride = o->opt.stride_h;
    r.dilation = pool || o->opt.dilation_h < 1 ? 1 : o->opt.dilation_h;
    r.taps = taps_h;
    if (taps_h < 1 || taps_w < 1 || depth < 1 || r.stride < 1) return TA_E_UNSUPPORTED;
    int64_t pad = 0;
    if (o->opt.padding == TA_PAD_EXPLICIT) pad = o->opt.pad_top;
    else if (o->opt.padding == TA_PAD_SAME) pad = same_pad(r.stride, r.dilation, r.in_h, r.taps, r.out_h);
    else if (o->opt.padding != TA_PAD_VALID) return TA_E_UNSUPPORTED;
    if (pad < 0 || pad > INT32_MAX) return TA_E_UNSUPPORTED;
    r.pad = (int32_t)pad;
    if (!ta_patch_rows_valid(&r)) return TA_E_UNSUPPORTED;
    *rows = r;
    if (row_macs) *row_macs = (uint64_t)out->shape[2] * (uint64_t)out->shape[3] * (uint64_t)taps_h * taps_w * depth;
    return TA_OK;
}

/* The MACs of the whole subgraph 0, layer by layer: the windowed ops and
 * FULLY_CONNECTED (output elements x input depth). */
static uint64_t graph_macs(const ta_graph *g) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < g->subgraphs[0].n_ops; i++) {
        const ta_op *o = op_at(g, i);
        ta_patch_rows r;
        uint64_t rm;
        if (ta_patch_op_rows(g, i, &r, &rm) == TA_OK) {
            sum += rm * (uint64_t)r.out_h;
        } else if (o->kind == TA_OP_FULLY_CONNECTED && o->n_inputs > 1 && o->n_outputs > 0) {
            const ta_tensor *w = tensor_at(g, o->inputs[1]), *out = tensor_at(g, o->outputs[0]);
            if (w && out && w->rank == 2 && w->shape[1] > 0 && out->bytes)
                sum += (uint64_t)out->bytes / ta_dtype_size(out->dtype) * (uint64_t)w->shape[1];
        }
    }
    return sum;
}

/* The group (buffer) tensor t lives in. */
static int32_t group_of(const ta_graph *g, const int32_t *buffer_of, int32_t local) {
    const int32_t gi = (int32_t)g->subgraphs[0].tensor_base + local;
    return buffer_of ? buffer_of[gi] : gi;
}

/* Op k's output, read by op k + 1 alone (once, as its input 0), not a graph
 * output, and in a buffer of its own: an intermediate a band can shrink. */
static bool private_link(const ta_graph *g, const int32_t *buffer_of, uint32_t k) {
    const ta_subgraph *sg = &g->subgraphs[0];
    const int32_t t = op_at(g, k)->outputs[0];
    const ta_tensor *tt = tensor_at(g, t);
    if (op_at(g, k + 1)->inputs[0] != t || (tt->flags & (TA_TENSOR_OUTPUT | TA_TENSOR_CONST | TA_TENSOR_VARIABLE)))
        return false;
    uint32_t reads = 0;
    for (uint32_t i = 0; i < sg->n_ops; i++) {
        const ta_op *o = op_at(g, i);
        for (uint32_t j = 0; j < o->n_inputs; j++) reads += o->inputs[j] == t;
        for (uint32_t j = 0; j < o->n_intermediates; j++) reads += o->intermediates[j] == t;
    }
    if (reads != 1 || op_at(g, k)->n_outputs != 1) return false;
    if (!buffer_of) return true;
    const int32_t gi = (int32_t)sg->tensor_base + t;
    if (buffer_of[gi] != gi) return false;
    for (uint32_t u = 0; u < g->n_tensors; u++)
        if (buffer_of[u] == gi && (int32_t)u != gi) return false;
    return true;
}

int32_t ta_patch_prefix(const ta_graph *g, const int32_t *buffer_of, int ignore_marks) {
    if (!g || g->n_subgraphs < 1) return -1;
    const uint32_t n = g->subgraphs[0].n_ops;
    int32_t last = -1;
    for (uint32_t k = 0; k < n && k < TA_PATCH_MAX_OPS; k++) {
        ta_patch_rows r;
        const ta_op *o = op_at(g, k);
        if (ta_patch_op_rows(g, k, &r, NULL) != TA_OK || (o->opt.in_place && !ignore_marks)) break;
        if (k == 0) {
            const ta_tensor *in = tensor_at(g, o->inputs[0]);
            if (in->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) break;
        } else if (!private_link(g, buffer_of, k - 1)) {
            break;
        }
        last = (int32_t)k;
    }
    return last >= 1 ? last : -1;
}

/* The rows of every stage op's output a band computes: for band b of the
 * stage output, rows[k] = [lo, hi) of op k's output (k = 0 .. last). */
static void band_rows(const ta_patch_rows *geo, int32_t last, int32_t bands, int32_t b, int32_t (*rows)[2]) {
    ta_patch_band(geo[last].out_h, bands, b, &rows[last][0], &rows[last][1]);
    for (int32_t k = last; k > 0; k--) {
        int32_t pad;
        ta_patch_in_rows(&geo[k], rows[k][0], rows[k][1], &rows[k - 1][0], &rows[k - 1][1], &pad);
    }
}

/* Per intermediate k < last, the most rows any band holds; the extra MACs. */
static uint64_t stage_shape(const ta_patch_rows *geo, const uint64_t *row_macs, int32_t last, int32_t bands,
                            int32_t *max_rows) {
    int32_t rows[TA_PATCH_MAX_OPS][2];
    uint64_t extra = 0;
    for (int32_t k = 0; k <= last; k++) max_rows[k] = 0;
    for (int32_t b = 0; b < bands; b++) {
        band_rows(geo, last, bands, b, rows);
        for (int32_t k = 0; k <= last; k++) {
            const int32_t h = rows[k][1] - rows[k][0];
            if (h > max_rows[k]) max_rows[k] = h;
            extra += (uint64_t)h * row_macs[k];
        }
    }
    for (int32_t k = 0; k <= last; k++) extra -= (uint64_t)geo[k].out_h * row_macs[k];
    return extra;
}

/* The request index of the buffer global tensor gi lives in (-1: none). */
static int64_t request_of(const ta_buffer_origin *origin, size_t n_req, int32_t gi) {
    for (size_t i = 0; i < n_req; i++)
        if (origin[i].kind == TA_BUFFER_TENSOR && (int32_t)origin[i].index == gi) return (int64_t)i;
    return -1;
}

/* What one stage does to the requests: sizes, lifetimes and the relations
 * to drop.  role per request: 0 untouched, 1 stage input, 2 intermediate,
 * 3 stage output. */
static ta_status transform(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of,
                           const ta_patch_rows *geo, int32_t last, int32_t bands, ta_request *reqs,
                           const ta_buffer_origin *origin, size_t n_req, uint8_t *role) {
    int32_t max_rows[TA_PATCH_MAX_OPS];
    uint64_t rm[TA_PATCH_MAX_OPS] = {0};
    stage_shape(geo, rm, last, bands, max_rows);
    const uint32_t ob = g->subgraphs[0].op_base;
    const int32_t s_first = lt->op_step[ob], s_last = lt->op_step[ob + (uint32_t)last];
    if (s_first < 0 || s_last < s_first) return TA_E_BAD_REQUEST;
    memset(role, 0, n_req);
    const int64_t ri = request_of(origin, n_req, group_of(g, buffer_of, op_at(g, 0)->inputs[0]));
    const int64_t ro = request_of(origin, n_req, group_of(g, buffer_of, op_at(g, (uint32_t)last)->outputs[0]));
    if (ri < 0 || ro < 0 || ri == ro) return TA_E_BAD_REQUEST;
    for (int32_t k = 0; k < last; k++) {
        const int32_t t = op_at(g, (uint32_t)k)->outputs[0];
        const int64_t r = request_of(origin, n_req, group_of(g, buffer_of, t));
        if (r < 0 || role[r]) return TA_E_BAD_REQUEST;
        const ta_tensor *tt = tensor_at(g, t);
        reqs[r].size = tt->bytes / (size_t)geo[k].out_h * (size_t)max_rows[k];
        role[r] = 2;
    }
    if (role[ri] || role[ro]) return TA_E_BAD_REQUEST;
    role[ri] = 1;
    role[ro] = 3;
    if (reqs[ri].last < s_last) reqs[ri].last = s_last;
    if (reqs[ro].first > s_first - 1) reqs[ro].first = s_first - 1;
    return TA_OK;
}

/* A relation survives the stage unless it reads the stage input or an
 * intermediate, or writes into one of the stage's buffers. */
static bool relation_kept(const uint8_t *role, const ta_overlap *o) {
    return !(role[o->x] == 1 || role[o->x] == 2 || role[o->y] != 0);
}

/* Peak live bytes over the steps, each kept relation's pair counted as its
 * union at the step they meet (as runtime_build.c's lower bound). */
static size_t peak(const ta_request *reqs, size_t n_req, const ta_overlap *ov, size_t n_ov, const uint8_t *role,
                   int32_t n_steps, size_t *delta) {
    const size_t ns = n_steps > 0 ? (size_t)n_steps : 0;
    memset(delta, 0, (ns + 1) * sizeof *delta);
    for (size_t i = 0; i < n_req; i++) {
        const int32_t f = reqs[i].first < 0 ? 0 : reqs[i].first, l = reqs[i].last;
        if (l < f || (size_t)f >= ns) continue;
        const size_t end = (size_t)l + 1 < ns ? (size_t)l + 1 : ns, pad = ta_request_padded(&reqs[i]);
        delta[f] += pad;
        delta[end] -= pad;
    }
    for (size_t k = 0; k < n_ov; k++) {
        if (role && !relation_kept(role, &ov[k])) continue;
        const ta_request *x = &reqs[ov[k].x], *y = &reqs[ov[k].y];
        const int32_t s = x->last;
        if (s < 0 || (size_t)s >= ns || y->first != s) continue;
        const size_t px = ta_request_padded(x), py = ta_request_padded(y);
        const int64_t dd = ov[k].d > 0 ? ov[k].d : 0;
        size_t uni = (uint64_t)dd + py > px ? (size_t)dd + py : px;
        if (uni > px + py) uni = px + py;
        delta[s] -= px + py - uni;
        delta[(size_t)s + 1] += px + py - uni;
    }
    size_t best = 0;
    for (size_t s = 0, live = 0; s < ns; s++) {
        live += delta[s];
        if (live > best) best = live;
    }
    return best;
}

size_t ta_patch_work_bytes(size_t n_req, int32_t n_steps) {
    const size_t ns = n_steps > 0 ? (size_t)n_steps : 0;
    return n_req * sizeof(ta_request) + n_req + (ns + 1) * sizeof(size_t) + 32;
}

static ta_status geometry(const ta_graph *g, int32_t last, ta_patch_rows *geo, uint64_t *rm) {
    for (int32_t k = 0; k <= last; k++)
        if (ta_patch_op_rows(g, (uint32_t)k, &geo[k], &rm[k]) != TA_OK) return TA_E_BAD_REQUEST;
    return TA_OK;
}

ta_status ta_patch_choose(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_request *reqs,
                          const ta_buffer_origin *origin, size_t n_req, const ta_overlap *ov, size_t n_ov,
                          uint32_t overhead_pct, int32_t max_last, void *work, size_t work_bytes, ta_patch_stage *out,
                          ta_diag *diag) {
    if (!g || !lt || !out || (n_req && (!reqs || !origin)) || (n_ov && !ov))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "patch: NULL argument");
    memset(out, 0, sizeof *out);
    out->first_op = out->last_op = -1;
    if (work_bytes < ta_patch_work_bytes(n_req, lt->n_steps) || !work)
        return ta_diag_set(diag, TA_E_NO_MEMORY, "patch: work block too small");
    ta_request *copy = work;
    uint8_t *role = (uint8_t *)(copy + n_req);
    size_t *delta = (size_t *)ta__align_up((uintptr_t)(role + n_req), sizeof(size_t));
    const size_t before = peak(reqs, n_req, ov, n_ov, NULL, lt->n_steps, delta);
    out->macs = graph_macs(g);
    out->bytes_before = out->bytes_after = before;
    int32_t top = ta_patch_prefix(g, buffer_of, 0);
    if (max_last >= 0 && top > max_last) top = max_last;
    if (top < 1 || !overhead_pct || !out->macs) return TA_OK;
    ta_patch_rows geo[TA_PATCH_MAX_OPS];
    uint64_t rm[TA_PATCH_MAX_OPS];
    if (geometry(g, top, geo, rm)) return TA_OK;
    size_t best = before;
    uint64_t best_extra = 0;
    for (int32_t last = 1; last <= top; last++) {
        for (int32_t n = 2; n <= TA_PATCH_MAX_BANDS && n <= geo[last].out_h; n++) {
            int32_t mr[TA_PATCH_MAX_OPS];
            const uint64_t extra = stage_shape(geo, rm, last, n, mr);
            if ((double)extra * 100.0 > (double)overhead_pct * (double)out->macs) continue;
            memcpy(copy, reqs, n_req * sizeof *copy);
            if (transform(g, lt, buffer_of, geo, last, n, copy, origin, n_req, role)) continue;
            const size_t cost = peak(copy, n_req, ov, n_ov, role, lt->n_steps, delta);
            if (cost < best || (cost == best && out->bands && extra < best_extra)) {
                best = cost;
                best_extra = extra;
                out->first_op = 0;
                out->last_op = last;
                out->bands = n;
                out->extra_macs = extra;
                out->bytes_after = cost;
            }
        }
    }
    return TA_OK;
}

ta_status ta_patch_apply(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_patch_stage *s,
                         ta_request *reqs, const ta_buffer_origin *origin, size_t n_req, ta_overlap *ov, size_t *n_ov,
                         ta_diag *diag) {
    if (!g || !lt || !s || !n_ov || (n_req && (!reqs || !origin)) || (*n_ov && !ov))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "patch: NULL argument");
    if (s->bands < 2) return TA_OK;
    ta_patch_rows geo[TA_PATCH_MAX_OPS];
    uint64_t rm[TA_PATCH_MAX_OPS];
    if (s->first_op != 0 || s->last_op < 1 || s->last_op > ta_patch_prefix(g, buffer_of, 0) ||
        s->bands > TA_PATCH_MAX_BANDS || geometry(g, s->last_op, geo, rm) || s->bands > geo[s->last_op].out_h)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch: ops %d..%d in %d bands is not a stage of this graph",
                           s->first_op, s->last_op, s->bands);
    const int32_t last = s->last_op;
    const int64_t ri = request_of(origin, n_req, group_of(g, buffer_of, op_at(g, 0)->inputs[0]));
    const int64_t ro = request_of(origin, n_req, group_of(g, buffer_of, op_at(g, (uint32_t)last)->outputs[0]));
    if (ri < 0 || ro < 0 || ri == ro) return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch: stage tensors without requests");
    int32_t max_rows[TA_PATCH_MAX_OPS];
    stage_shape(geo, rm, last, s->bands, max_rows);
    const uint32_t obase = g->subgraphs[0].op_base;
    const int32_t s_first = lt->op_step[obase], s_last = lt->op_step[obase + (uint32_t)last];
    if (s_first < 0 || s_last < s_first) return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch: stage ops never run");
    int64_t inter[TA_PATCH_MAX_OPS];
    for (int32_t k = 0; k < last; k++) {
        const int32_t t = op_at(g, (uint32_t)k)->outputs[0];
        inter[k] = request_of(origin, n_req, group_of(g, buffer_of, t));
        if (inter[k] < 0 || inter[k] == ri || inter[k] == ro)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch: intermediate %d without a buffer of its own", t);
        reqs[inter[k]].size = tensor_at(g, t)->bytes / (size_t)geo[k].out_h * (size_t)max_rows[k];
    }
    if (reqs[ri].last < s_last) reqs[ri].last = s_last;
    if (reqs[ro].first > s_first - 1) reqs[ro].first = s_first - 1;
    size_t kept = 0;
    for (size_t k = 0; k < *n_ov; k++) {
        bool x_in = ov[k].x == (uint32_t)ri, y_in = ov[k].y == (uint32_t)ri || ov[k].y == (uint32_t)ro;
        for (int32_t j = 0; j < last; j++) {
            x_in |= ov[k].x == (uint32_t)inter[j];
            y_in |= ov[k].y == (uint32_t)inter[j];
        }
        if (!x_in && !y_in) ov[kept++] = ov[k];
    }
    *n_ov = kept;
    return TA_OK;
}
