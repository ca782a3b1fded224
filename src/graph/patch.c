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

int32_t ta_patch_chain(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks) {
    if (!g || g->n_subgraphs < 1 || first < 0) return -1;
    const uint32_t n = g->subgraphs[0].n_ops;
    int32_t last = -1;
    for (uint32_t k = (uint32_t)first; k < n && k < (uint32_t)first + TA_PATCH_MAX_OPS; k++) {
        ta_patch_rows r;
        const ta_op *o = op_at(g, k);
        if (ta_patch_op_rows(g, k, &r, NULL) != TA_OK || (o->opt.in_place && !ignore_marks)) break;
        if (k == (uint32_t)first) {
            const ta_tensor *in = tensor_at(g, o->inputs[0]);
            if (in->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) break;
        } else if (!private_link(g, buffer_of, k - 1)) {
            break;
        }
        last = (int32_t)k;
    }
    return last > first ? last : -1;
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
static int64_t request_of(const int32_t *map, const ta_buffer_origin *origin, size_t n_req, int32_t gi) {
    if (map) return map[gi];
    for (size_t i = 0; i < n_req; i++)
        if (origin[i].kind == TA_BUFFER_TENSOR && (int32_t)origin[i].index == gi) return (int64_t)i;
    return -1;
}

/* What a request is to the stages applied so far (bits): a stage's input,
 * an intermediate (shrunk), a stage's output. */
enum { R_IN = 1, R_MID = 2, R_OUT = 4 };

static ta_status geometry(const ta_graph *g, int32_t first, int32_t last, ta_patch_rows *geo, uint64_t *rm) {
    for (int32_t k = first; k <= last; k++)
        if (ta_patch_op_rows(g, (uint32_t)k, &geo[k - first], &rm[k - first]) != TA_OK) return TA_E_BAD_REQUEST;
    return TA_OK;
}

/* Applies one stage to the requests and the roles: each intermediate's
 * request shrinks to its largest band, the stage input lives to the last
 * stage op, the stage output from the step before the first (band b's rows
 * must survive band b + 1's first ops).  TA_E_BAD_REQUEST when the stage is
 * not one of g or meets a buffer another stage shrank. */
static ta_status transform(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_patch_stage *st,
                           ta_request *reqs, const ta_buffer_origin *origin, const int32_t *map, size_t n_req,
                           uint8_t *role) {
    ta_patch_rows geo[TA_PATCH_MAX_OPS];
    uint64_t rm[TA_PATCH_MAX_OPS];
    int32_t max_rows[TA_PATCH_MAX_OPS];
    const int32_t first = st->first_op, last = st->last_op, n = last - first;
    if (first < 0 || n < 1 || n >= TA_PATCH_MAX_OPS || st->bands < 2 || st->bands > TA_PATCH_MAX_BANDS ||
        geometry(g, first, last, geo, rm) || st->bands > geo[n].out_h)
        return TA_E_BAD_REQUEST;
    stage_shape(geo, rm, n, st->bands, max_rows);
    const uint32_t ob = g->subgraphs[0].op_base;
    const int32_t s_first = lt->op_step[ob + (uint32_t)first], s_last = lt->op_step[ob + (uint32_t)last];
    if (s_first < 1 || s_last < s_first) return TA_E_BAD_REQUEST;
    const int64_t ri = request_of(map, origin, n_req, group_of(g, buffer_of, op_at(g, (uint32_t)first)->inputs[0]));
    const int64_t ro = request_of(map, origin, n_req, group_of(g, buffer_of, op_at(g, (uint32_t)last)->outputs[0]));
    if (ri < 0 || ro < 0 || ri == ro || (role[ri] & R_MID) || (role[ro] & R_MID)) return TA_E_BAD_REQUEST;
    for (int32_t k = 0; k < n; k++) {
        const int32_t t = op_at(g, (uint32_t)(first + k))->outputs[0];
        const int64_t r = request_of(map, origin, n_req, group_of(g, buffer_of, t));
        if (r < 0 || r == ri || r == ro || role[r]) return TA_E_BAD_REQUEST;
    }
    for (int32_t k = 0; k < n; k++) {
        const int32_t t = op_at(g, (uint32_t)(first + k))->outputs[0];
        const int64_t r = request_of(map, origin, n_req, group_of(g, buffer_of, t));
        reqs[r].size = tensor_at(g, t)->bytes / (size_t)geo[k].out_h * (size_t)max_rows[k];
        role[r] |= R_MID;
    }
    role[ri] |= R_IN;
    role[ro] |= R_OUT;
    if (reqs[ri].last < s_last) reqs[ri].last = s_last;
    if (reqs[ro].first > s_first - 1) reqs[ro].first = s_first - 1;
    return TA_OK;
}

/* A relation survives the stages unless it reads a stage input or an
 * intermediate, or writes into any of the stages' buffers. */
static bool relation_kept(const uint8_t *role, const ta_overlap *o) {
    return !((role[o->x] & (R_IN | R_MID)) || role[o->y]);
}

size_t ta_patch_work_bytes(const ta_graph *g, size_t n_req, int32_t n_steps) {
    const size_t ns = n_steps > 0 ? (size_t)n_steps : 0;
    return n_req * sizeof(ta_request) + n_req + (ns + 1) * sizeof(size_t) + (g ? g->n_tensors : 0) * sizeof(int32_t) +
           2 * sizeof(ta_patch_plan) + 64;
}

/* A trial set: the chosen stages minus those inside [first, last], plus
 * cand (false when cand meets a chosen stage only in part). */
static bool trial_set(const ta_patch_plan *chosen, const ta_patch_stage *cand, ta_patch_plan *out) {
    out->n_stages = 0;
    out->extra_macs = cand->extra_macs;
    for (uint32_t i = 0; i < chosen->n_stages; i++) {
        const ta_patch_stage *c = &chosen->stages[i];
        if (c->last_op < cand->first_op || c->first_op > cand->last_op) {
            out->stages[out->n_stages++] = *c;
            out->extra_macs += c->extra_macs;
        } else if (c->first_op < cand->first_op || c->last_op > cand->last_op) {
            return false;
        }
    }
    if (out->n_stages >= TA_PATCH_MAX_STAGES) return false;
    uint32_t i = out->n_stages++; /* in op order: the runtime meets them so */
    while (i > 0 && out->stages[i - 1].first_op > cand->first_op) {
        out->stages[i] = out->stages[i - 1];
        i--;
    }
    out->stages[i] = *cand;
    return true;
}

typedef struct {
    size_t peak;
    uint64_t at_peak, extra;
} cost_t;

static bool cost_less(const cost_t *a, const cost_t *b) {
    if (a->peak != b->peak) return a->peak < b->peak;
    if (a->at_peak != b->at_peak) return a->at_peak < b->at_peak;
    return a->extra < b->extra;
}

/* Peak live bytes over the steps, *at_peak how many steps reach it; each
 * kept relation's pair counted as its union at the step they meet (as
 * runtime_build.c's lower bound). */
static size_t peak(const ta_request *reqs, size_t n_req, const ta_overlap *ov, size_t n_ov, const uint8_t *role,
                   int32_t n_steps, size_t *delta, uint64_t *at_peak) {
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
        if (!relation_kept(role, &ov[k])) continue;
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
    uint64_t count = 0;
    for (size_t s = 0, live = 0; s < ns; s++) {
        live += delta[s];
        if (live > best) best = live, count = 0;
        if (live == best) count++;
    }
    *at_peak = count;
    return best;
}

/* One search's inputs and work. */
typedef struct {
    const ta_graph *g;
    const ta_lifetimes *lt;
    const int32_t *buffer_of;
    const ta_request *reqs;
    const ta_buffer_origin *origin;
    size_t n_req;
    const ta_overlap *ov;
    size_t n_ov;
    ta_patch_plan *trial;
    ta_request *tmp;
    size_t *delta;
    const int32_t *map;
    uint8_t *role;
} search_t;

/* Greedy over stage sets under an extra-MAC cap: each round tries every
 * chain and band count as a new stage (replacing the chosen stages inside
 * it: a longer chain or other bands), and keeps the set with the lowest
 * peak -- at an equal peak, fewer steps at it, then fewer extra MACs --
 * while that improves.  *cur (empty on entry) gets the set; returns its
 * cost (start's when none helps). */
static cost_t greedy(const search_t *S, double cap, cost_t best, ta_patch_plan *cur) {
    const ta_graph *g = S->g;
    for (int round = 0; round < 4 * TA_PATCH_MAX_STAGES; round++) {
        ta_patch_stage pick = {-1, -1, 0, 0};
        cost_t pick_cost = best;
        for (int32_t first = 0; first < (int32_t)g->subgraphs[0].n_ops; first++) {
            const int32_t top = ta_patch_chain(g, S->buffer_of, first, 0);
            ta_patch_rows geo[TA_PATCH_MAX_OPS];
            uint64_t rm[TA_PATCH_MAX_OPS];
            if (top < 0 || geometry(g, first, top, geo, rm)) continue;
            for (int32_t last = first + 1; last <= top; last++) {
                const int32_t n = last - first;
                for (int32_t bands = 2; bands <= TA_PATCH_MAX_BANDS && bands <= geo[n].out_h; bands++) {
                    int32_t mr[TA_PATCH_MAX_OPS];
                    const ta_patch_stage cand = {first, last, bands, stage_shape(geo, rm, n, bands, mr)};
                    if (!trial_set(cur, &cand, S->trial) || (double)S->trial->extra_macs > cap) continue;
                    memcpy(S->tmp, S->reqs, S->n_req * sizeof *S->tmp);
                    memset(S->role, 0, S->n_req);
                    bool ok = true;
                    for (uint32_t i = 0; ok && i < S->trial->n_stages; i++)
                        ok = transform(g, S->lt, S->buffer_of, &S->trial->stages[i], S->tmp, S->origin, S->map,
                                       S->n_req, S->role) == TA_OK;
                    if (!ok) continue;
                    cost_t c = {0, 0, S->trial->extra_macs};
                    c.peak = peak(S->tmp, S->n_req, S->ov, S->n_ov, S->role, S->lt->n_steps, S->delta, &c.at_peak);
                    if (cost_less(&c, &pick_cost)) {
                        pick = cand;
                        pick_cost = c;
                    }
                }
            }
        }
        if (pick.bands < 2 || !trial_set(cur, &pick, S->trial)) break;
        *cur = *S->trial;
        best = pick_cost;
    }
    return best;
}

ta_status ta_patch_choose(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_request *reqs,
                          const ta_buffer_origin *origin, size_t n_req, const ta_overlap *ov, size_t n_ov,
                          uint32_t overhead_pct, void *work, size_t work_bytes, ta_patch_plan *out, ta_diag *diag) {
    if (!g || !lt || !out || (n_req && (!reqs || !origin)) || (n_ov && !ov))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "patch: NULL argument");
    memset(out, 0, sizeof *out);
    if (work_bytes < ta_patch_work_bytes(g, n_req, lt->n_steps) || !work)
        return ta_diag_set(diag, TA_E_NO_MEMORY, "patch: work block too small");
    ta_patch_plan *trial = (ta_patch_plan *)(void *)ta__align_up((uintptr_t)work, 8), *cur = trial + 1;
    search_t S = {g, lt, buffer_of, reqs, origin, n_req, ov, n_ov, trial, (ta_request *)(cur + 1), NULL, NULL, NULL};
    S.delta = (size_t *)(S.tmp + n_req);
    int32_t *map = (int32_t *)(S.delta + ((lt->n_steps > 0 ? (size_t)lt->n_steps : 0) + 1));
    S.map = map;
    S.role = (uint8_t *)(map + g->n_tensors);
    /* the request of every tensor's buffer, looked up once */
    for (uint32_t t = 0; t < g->n_tensors; t++) map[t] = -1;
    for (size_t i = 0; i < n_req; i++)
        if (origin[i].kind == TA_BUFFER_TENSOR && origin[i].index < g->n_tensors) map[origin[i].index] = (int32_t)i;
    memset(S.role, 0, n_req);
    cost_t base = {0, 0, 0};
    base.peak = peak(reqs, n_req, ov, n_ov, S.role, lt->n_steps, S.delta, &base.at_peak);
    out->macs = graph_macs(g);
    out->bytes_before = out->bytes_after = base.peak;
    if (!overhead_pct || !out->macs || g->n_subgraphs < 1) return TA_OK;
    /* The greedy spends its budget on the first stage that lowers the peak
     * most, which can leave nothing for the next: it runs under the cap and
     * under fractions of it, and the best set wins (every one is within the
     * cap). */
    static const double k_fraction[] = {1.0, 0.75, 0.5, 0.35, 0.25};
    cost_t best = base;
    for (size_t f = 0; f < sizeof k_fraction / sizeof k_fraction[0]; f++) {
        memset(cur, 0, sizeof *cur);
        const cost_t c = greedy(&S, k_fraction[f] * (double)overhead_pct * (double)out->macs / 100.0, base, cur);
        if (cur->n_stages && cost_less(&c, &best)) {
            best = c;
            out->n_stages = cur->n_stages;
            memcpy(out->stages, cur->stages, sizeof out->stages);
            out->extra_macs = cur->extra_macs;
        }
    }
    out->bytes_after = best.peak;
    return TA_OK;
}

ta_status ta_patch_apply(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_patch_plan *p,
                         ta_request *reqs, const ta_buffer_origin *origin, size_t n_req, ta_overlap *ov, size_t *n_ov,
                         uint8_t *role, ta_diag *diag) {
    if (!g || !lt || !p || !n_ov || (n_req && (!reqs || !origin || !role)) || (*n_ov && !ov))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "patch: NULL argument");
    memset(role, 0, n_req);
    for (uint32_t i = 0; i < p->n_stages; i++) {
        const ta_patch_stage *s = &p->stages[i];
        if (s->last_op > ta_patch_chain(g, buffer_of, s->first_op, 0) ||
            transform(g, lt, buffer_of, s, reqs, origin, NULL, n_req, role))
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch: ops %d..%d in %d bands is not a stage of this graph",
                               s->first_op, s->last_op, s->bands);
    }
    size_t kept = 0;
    for (size_t k = 0; k < *n_ov; k++)
        if (relation_kept(role, &ov[k])) ov[kept++] = ov[k];
    *n_ov = kept;
    return TA_OK;
}
