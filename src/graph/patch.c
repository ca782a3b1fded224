/*
 * Patch-based execution, the planning half (patch.h): which prefix of the
 * graph runs band by band, with how many bands, and what that does to the
 * buffer requests.  The runtime half is src/runtime/runtime_patch.c; both
 * cut rows with patch.h's inline functions, so the buffers planned here are
 * exactly the rows the runtime writes.
 */
#include <string.h>

#include "common/util.h"
#include "graph/patch_int.h"

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

/* Per stage op k, the most rows any band holds of its output; the extra
 * MACs (every band's rows minus the layer's, times the MACs per row). */
static uint64_t stage_shape(const ta_patch_dag_op *dag, const uint64_t *row_macs, int32_t n, int32_t bands,
                            int32_t *max_rows) {
    int32_t rows[TA_PATCH_MAX_OPS][2];
    uint64_t extra = 0;
    for (int32_t k = 0; k < n; k++) max_rows[k] = 0;
    for (int32_t b = 0; b < bands; b++) {
        int32_t o0, o1;
        ta_patch_band(dag[n - 1].geo.out_h, bands, b, &o0, &o1);
        ta_patch_dag_rows(dag, n, o0, o1, rows);
        for (int32_t k = 0; k < n; k++) {
            const int32_t h = rows[k][1] > rows[k][0] ? rows[k][1] - rows[k][0] : 0;
            if (h > max_rows[k]) max_rows[k] = h;
            extra += (uint64_t)h * row_macs[k];
        }
    }
    for (int32_t k = 0; k < n; k++) extra -= (uint64_t)dag[k].geo.out_h * row_macs[k];
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

/* The stage's DAG (patch.h), each op's MACs per output row and the
 * tensors it reads by rows.  masks (or NULL): per op, which stages start
 * there (ta__patch_stage_mask), computed once per search. */
static ta_status geometry(const ta_graph *g, const int32_t *buffer_of, const uint64_t *masks, int32_t first,
                          int32_t last, ta_patch_dag_op *dag, uint64_t *rm, int32_t (*in)[2]) {
    if (first < 0 || last <= first || last - first >= TA_PATCH_MAX_OPS || (uint32_t)last >= g->subgraphs[0].n_ops)
        return TA_E_BAD_REQUEST;
    const uint64_t m = masks ? masks[first] : ta__patch_stage_mask(g, buffer_of, first, 0);
    if (!(m >> (last - first) & 1) || !ta__patch_dag_fill(g, first, last, dag)) return TA_E_BAD_REQUEST;
    for (int32_t k = first; k <= last; k++) {
        ta_patch_rows r;
        int32_t n_in;
        if (ta_patch_op_node(g, (uint32_t)k, &r, in[k - first], &n_in, &rm[k - first]) != TA_OK)
            return TA_E_BAD_REQUEST;
    }
    return TA_OK;
}

/* A stage's shape: its DAG, the tensors its ops read by rows, the most
 * rows each op's band holds. */
typedef struct {
    ta_patch_dag_op dag[TA_PATCH_MAX_OPS];
    int32_t in[TA_PATCH_MAX_OPS][2];
    int32_t max_rows[TA_PATCH_MAX_OPS];
} shape_t;

static ta_status shape_of(const ta_graph *g, const int32_t *buffer_of, const uint64_t *masks, const ta_patch_stage *st,
                          shape_t *sh) {
    uint64_t rm[TA_PATCH_MAX_OPS];
    const int32_t first = st->first_op, last = st->last_op, n = last - first + 1;
    if (first < 0 || n < 2 || n > TA_PATCH_MAX_OPS || st->bands < 2 || st->bands > TA_PATCH_MAX_BANDS ||
        geometry(g, buffer_of, masks, first, last, sh->dag, rm, sh->in) || st->bands > sh->dag[n - 1].geo.out_h)
        return TA_E_BAD_REQUEST;
    stage_shape(sh->dag, rm, n, st->bands, sh->max_rows);
    return TA_OK;
}

/* Applies one stage (its shape sh) to the requests and the roles: each
 * intermediate's request shrinks to its largest band, the stage inputs
 * (every tensor a stage op reads by rows from outside the stage) live to
 * the last stage op, the stage output from the first op's step (band b's
 * rows must survive band b + 1's ops).  TA_E_BAD_REQUEST when the stage
 * meets a buffer another stage shrank. */
static ta_status apply_shape(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_patch_stage *st,
                             const shape_t *sh, ta_request *reqs, const ta_buffer_origin *origin, const int32_t *map,
                             size_t n_req, uint8_t *role) {
    const int32_t first = st->first_op, last = st->last_op, n = last - first + 1;
    const ta_patch_dag_op *dag = sh->dag;
    const uint32_t ob = g->subgraphs[0].op_base;
    const int32_t s_first = lt->op_step[ob + (uint32_t)first], s_last = lt->op_step[ob + (uint32_t)last];
    if (s_first < 1 || s_last < s_first) return TA_E_BAD_REQUEST;
    const int64_t ro = request_of(map, origin, n_req, group_of(g, buffer_of, op_at(g, (uint32_t)last)->outputs[0]));
    if (ro < 0 || (role[ro] & R_MID)) return TA_E_BAD_REQUEST;
    for (int32_t k = 0; k + 1 < n; k++) {
        const int32_t t = op_at(g, (uint32_t)(first + k))->outputs[0];
        const int64_t r = request_of(map, origin, n_req, group_of(g, buffer_of, t));
        if (r < 0 || r == ro || role[r]) return TA_E_BAD_REQUEST;
        role[r] |= R_MID; /* marked as it goes: two intermediates in one buffer fail */
    }
    for (int32_t k = 0; k < n; k++)
        for (int32_t j = 0; j < dag[k].n_src; j++) {
            const ta_tensor *x = tensor_at(g, sh->in[k][j]);
            if (dag[k].src[j] >= 0 || !x || (x->flags & TA_TENSOR_CONST)) continue;
            const int64_t ri = request_of(map, origin, n_req, group_of(g, buffer_of, sh->in[k][j]));
            if (ri < 0 || ri == ro || (role[ri] & R_MID)) return TA_E_BAD_REQUEST;
            role[ri] |= R_IN;
            if (reqs[ri].last < s_last) reqs[ri].last = s_last;
        }
    for (int32_t k = 0; k + 1 < n; k++) {
        const int32_t t = op_at(g, (uint32_t)(first + k))->outputs[0];
        const int64_t r = request_of(map, origin, n_req, group_of(g, buffer_of, t));
        reqs[r].size = tensor_at(g, t)->bytes / (size_t)dag[k].geo.out_h * (size_t)sh->max_rows[k];
    }
    role[ro] |= R_OUT;
    if (reqs[ro].first > s_first) reqs[ro].first = s_first;
    return TA_OK;
}

/* Applies one stage (see apply_shape); TA_E_BAD_REQUEST too when the stage
 * is not one of g. */
static ta_status transform(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const uint64_t *masks,
                           const ta_patch_stage *st, ta_request *reqs, const ta_buffer_origin *origin, const int32_t *map,
                           size_t n_req, uint8_t *role) {
    shape_t sh;
    if (shape_of(g, buffer_of, masks, st, &sh)) return TA_E_BAD_REQUEST;
    return apply_shape(g, lt, buffer_of, st, &sh, reqs, origin, map, n_req, role);
}

/* A relation survives the stages unless it reads a stage input or an
 * intermediate, or writes into any of the stages' buffers. */
static bool relation_kept(const uint8_t *role, const ta_overlap *o) {
    return !((role[o->x] & (R_IN | R_MID)) || role[o->y]);
}

/* One stage on its own, for the interval search: its extra MACs and the
 * most live bytes over its steps (the step before its first op to its
 * last) with it applied. */
typedef struct {
    int32_t first, last, bands;
    size_t top;
    uint64_t extra;
} cand_t;

/* The candidates at most in the work block (the rest are not searched):
 * 40 per op (each (first, last) keeps only band counts that lower its top;
 * MobileNetV2 keeps 1,389 of its 2,640). */
#define K_MAX_CANDS 16384
static size_t max_cands(size_t ops) { return ops * 40 < K_MAX_CANDS ? ops * 40 : K_MAX_CANDS; }

/* The interval search's work: two live profiles, f and via, candidates. */
static size_t search_bytes(size_t ns, size_t ops) {
    return 2 * ns * sizeof(size_t) + (ops + 1) * (sizeof(uint64_t) + sizeof(int32_t)) + 16 +
           max_cands(ops) * sizeof(cand_t);
}

size_t ta_patch_work_bytes(const ta_graph *g, size_t n_req, int32_t n_steps) {
    const size_t ns = n_steps > 0 ? (size_t)n_steps : 0;
    const size_t ops = g && g->n_subgraphs ? g->subgraphs[0].n_ops : 0;
    return n_req * sizeof(ta_request) + n_req + ns + (ns + 1) * sizeof(size_t) +
           (g ? g->n_tensors : 0) * sizeof(int32_t) + 2 * sizeof(ta_patch_plan) + 64 + ops * sizeof(uint64_t) + 16 +
           n_req * (sizeof(ta_request) + 1) +
           search_bytes(ns, ops);
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
                   int32_t n_steps, size_t *delta, uint64_t *at_peak, uint8_t *mark) {
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
    if (mark) { /* the steps at the peak */
        size_t live = 0;
        for (size_t s = 0; s < ns; s++) live += delta[s], mark[s] = live == best;
    }
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
    uint8_t *at_peak; /* per step: at the current set's peak */
    uint64_t *masks;  /* per op: the stages starting there (ta__patch_stage_mask) */
    ta_request *cur_reqs; /* the requests and roles with the current set applied */
    uint8_t *cur_role;
} search_t;

/* The cost of a stage set: its requests transformed, their peak (false:
 * the set is not valid). */
static bool set_cost(const search_t *S, const ta_patch_plan *set, cost_t *c, uint8_t *mark) {
    memcpy(S->tmp, S->reqs, S->n_req * sizeof *S->tmp);
    memset(S->role, 0, S->n_req);
    for (uint32_t i = 0; i < set->n_stages; i++)
        if (transform(S->g, S->lt, S->buffer_of, S->masks, &set->stages[i], S->tmp, S->origin, S->map, S->n_req,
                      S->role))
            return false;
    c->extra = set->extra_macs;
    c->peak = peak(S->tmp, S->n_req, S->ov, S->n_ov, S->role, S->lt->n_steps, S->delta, &c->at_peak, mark);
    return true;
}

/* The cost of the set whose requests and roles are from (from_reqs,
 * from_role) plus stage st of shape sh, extra its MACs in all. */
static bool cost_plus(const search_t *S, const ta_request *from_reqs, const uint8_t *from_role, const ta_patch_stage *st,
                      const shape_t *sh, uint64_t extra, cost_t *c) {
    memcpy(S->tmp, from_reqs, S->n_req * sizeof *S->tmp);
    if (from_role) memcpy(S->role, from_role, S->n_req);
    else memset(S->role, 0, S->n_req);
    if (apply_shape(S->g, S->lt, S->buffer_of, st, sh, S->tmp, S->origin, S->map, S->n_req, S->role)) return false;
    c->extra = extra;
    c->peak = peak(S->tmp, S->n_req, S->ov, S->n_ov, S->role, S->lt->n_steps, S->delta, &c->at_peak, NULL);
    return true;
}

/* Greedy over stage sets under an extra-MAC cap: each round tries every
 * stage (ta_patch_stage_ends) and band count as a new stage (replacing the
 * chosen stages inside it: a longer stage or other bands), and keeps the
 * set with the lowest peak -- at an equal peak, fewer steps at it, then
 * fewer extra MACs -- while that improves.  A stage changes the live bytes
 * only over its steps (the step before its first op to its last), so only
 * stages spanning a step at the current peak are tried; and of the band
 * counts with one largest band (ceil(rows / bands)) only the smallest, the
 * one with the fewest halos.  *cur (empty on entry) gets the set; returns
 * its cost (start's when none helps). */
static cost_t greedy(const search_t *S, double cap, cost_t best, ta_patch_plan *cur) {
    const ta_graph *g = S->g;
    const uint32_t ob = g->subgraphs[0].op_base;
    const int32_t ns = S->lt->n_steps;
    for (int round = 0; round < 4 * TA_PATCH_MAX_STAGES; round++) {
        cost_t now;
        if (!set_cost(S, cur, &now, S->at_peak)) break;
        memcpy(S->cur_reqs, S->tmp, S->n_req * sizeof *S->tmp);
        memcpy(S->cur_role, S->role, S->n_req);
        ta_patch_stage pick = {-1, -1, 0, 0};
        cost_t pick_cost = best;
        for (int32_t first = 0; first < (int32_t)g->subgraphs[0].n_ops; first++) {
            int32_t lasts[TA_PATCH_MAX_OPS], nl = 0;
            for (int32_t i = 1; i < TA_PATCH_MAX_OPS; i++)
                if (S->masks[first] >> i & 1) lasts[nl++] = first + i;
            const int32_t s0 = S->lt->op_step[ob + (uint32_t)first] - 1;
            for (int32_t li = 0; li < nl; li++) {
                const int32_t last = lasts[li], n = last - first + 1, s1 = S->lt->op_step[ob + (uint32_t)last];
                bool spans = false;
                for (int32_t s = s0 < 0 ? 0 : s0; s <= s1 && s < ns && !spans; s++) spans = S->at_peak[s];
                shape_t sh;
                uint64_t rm[TA_PATCH_MAX_OPS];
                if (!spans || geometry(g, S->buffer_of, S->masks, first, last, sh.dag, rm, sh.in)) continue;
                const int32_t h = sh.dag[n - 1].geo.out_h;
                for (int32_t bands = 2; bands <= TA_PATCH_MAX_BANDS && bands <= h; bands++) {
                    if (bands > 2 && (h + bands - 1) / bands == (h + bands - 2) / (bands - 1)) continue;
                    const ta_patch_stage cand = {first, last, bands, stage_shape(sh.dag, rm, n, bands, sh.max_rows)};
                    if (!trial_set(cur, &cand, S->trial) || (double)S->trial->extra_macs > cap) continue;
                    cost_t c = {0, 0, 0};
                    /* a stage beside the chosen ones goes on top of them */
                    const bool okc = S->trial->n_stages == cur->n_stages + 1
                                         ? cost_plus(S, S->cur_reqs, S->cur_role, &cand, &sh, S->trial->extra_macs, &c)
                                         : set_cost(S, S->trial, &c, NULL);
                    if (okc && cost_less(&c, &pick_cost)) {
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


/* Live bytes per step of the last set_cost (its delta array). */
static void live_of(const search_t *S, size_t *live) {
    size_t v = 0;
    for (int32_t s = 0; s < S->lt->n_steps; s++) live[s] = v += S->delta[s];
}

/* Every stage and band count (as the greedy tries them) on its own, within
 * the cap, lowering the live bytes of its steps below the peak `base`;
 * ordered by first op.  Returns their count. */
static size_t candidates(const search_t *S, double cap, size_t base, size_t *live, cand_t *out, size_t room) {
    const ta_graph *g = S->g;
    const uint32_t ob = g->subgraphs[0].op_base;
    size_t nc = 0;
    for (int32_t first = 0; first < (int32_t)g->subgraphs[0].n_ops; first++) {
        int32_t lasts[TA_PATCH_MAX_OPS], nl = 0;
        for (int32_t i = 1; i < TA_PATCH_MAX_OPS; i++)
            if (S->masks[first] >> i & 1) lasts[nl++] = first + i;
        const int32_t s0 = S->lt->op_step[ob + (uint32_t)first] - 1;
        for (int32_t li = 0; li < nl; li++) {
            const int32_t last = lasts[li], n = last - first + 1, s1 = S->lt->op_step[ob + (uint32_t)last];
            shape_t sh;
            uint64_t rm[TA_PATCH_MAX_OPS];
            if (s0 < 0 || s1 >= S->lt->n_steps || geometry(g, S->buffer_of, S->masks, first, last, sh.dag, rm, sh.in))
                continue;
            const int32_t h = sh.dag[n - 1].geo.out_h;
            size_t best_top = base; /* per (first, last): only band counts that lower the top */
            for (int32_t bands = 2; bands <= TA_PATCH_MAX_BANDS && bands <= h && nc < room; bands++) {
                if (bands > 2 && (h + bands - 1) / bands == (h + bands - 2) / (bands - 1)) continue;
                const ta_patch_stage st = {first, last, bands, stage_shape(sh.dag, rm, n, bands, sh.max_rows)};
                if ((double)st.extra_macs > cap) break; /* more bands: more halos */
                cost_t c;
                if (!cost_plus(S, S->reqs, NULL, &st, &sh, st.extra_macs, &c)) continue;
                live_of(S, live);
                size_t top = 0;
                for (int32_t s = s0; s <= s1; s++)
                    if (live[s] > top) top = live[s];
                if (top >= best_top) continue;
                best_top = top;
                out[nc++] = (cand_t){first, last, bands, top, st.extra_macs};
            }
        }
    }
    return nc;
}

/* The interval search: the fewest extra MACs of disjoint stages keeping
 * every step's live bytes at most p, each op's step either in a stage
 * whose own top is at most p or at most p layer by layer (base_live);
 * f[i]: the least MACs for ops before i, via[i]: the candidate ending
 * there (-1: op i - 1 runs layer by layer).  Returns f[n_ops]. */
static uint64_t intervals(const search_t *S, const cand_t *c, size_t nc, const size_t *base_live, size_t p,
                          uint64_t *f, int32_t *via) {
    const ta_graph *g = S->g;
    const uint32_t n = g->subgraphs[0].n_ops, ob = g->subgraphs[0].op_base;
    for (uint32_t i = 0; i <= n; i++) f[i] = UINT64_MAX, via[i] = -2;
    f[0] = 0;
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const bool reach = f[i] != UINT64_MAX;
        const int32_t s = S->lt->op_step[ob + i];
        if (reach && (s < 0 || base_live[s] <= p) && f[i] < f[i + 1]) f[i + 1] = f[i], via[i + 1] = -1;
        for (; k < nc && c[k].first == (int32_t)i; k++)
            if (reach && c[k].top <= p && f[i] + c[k].extra < f[c[k].last + 1])
                f[c[k].last + 1] = f[i] + c[k].extra, via[c[k].last + 1] = (int32_t)k;
    }
    return f[n];
}

/* The smallest peak the interval search reaches within the cap (binary
 * search over it), as a stage set in *out (false: none below base). */
static bool interval_search(const search_t *S, double cap, size_t base, void *mem, ta_patch_plan *out) {
    const ta_graph *g = S->g;
    const uint32_t n = g->subgraphs[0].n_ops;
    const size_t ns = S->lt->n_steps > 0 ? (size_t)S->lt->n_steps : 0;
    size_t *base_live = mem, *live = base_live + ns;
    uint64_t *f = (uint64_t *)(live + ns);
    int32_t *via = (int32_t *)(f + n + 1);
    cand_t *c = (cand_t *)ta__align_up((uintptr_t)(via + n + 1), 8);
    ta_patch_plan none;
    memset(&none, 0, sizeof none);
    cost_t b0;
    if (!ns || !set_cost(S, &none, &b0, NULL)) return false;
    live_of(S, base_live);
    const size_t nc = candidates(S, cap, base, live, c, max_cands(n));
    if (!nc) return false;
    size_t lo = 0, hi = base;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((double)intervals(S, c, nc, base_live, mid, f, via) <= cap) hi = mid;
        else lo = mid + 1;
    }
    if (lo >= base || (double)intervals(S, c, nc, base_live, lo, f, via) > cap) return false;
    memset(out, 0, sizeof *out);
    for (int32_t i = (int32_t)n; i > 0;) {
        if (via[i] < -1) return false;
        if (via[i] == -1) {
            i--;
            continue;
        }
        const cand_t *k = &c[via[i]];
        if (out->n_stages >= TA_PATCH_MAX_STAGES) return false;
        out->stages[out->n_stages++] = (ta_patch_stage){k->first, k->last, k->bands, k->extra};
        out->extra_macs += k->extra;
        i = k->first;
    }
    for (uint32_t a = 0, z = out->n_stages; a + 1 < z; a++, z--) { /* into op order */
        const ta_patch_stage t = out->stages[a];
        out->stages[a] = out->stages[z - 1];
        out->stages[z - 1] = t;
    }
    return out->n_stages > 0;
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
    search_t S = {g, lt, buffer_of, reqs, origin, n_req, ov, n_ov, trial, (ta_request *)(cur + 1), NULL, NULL, NULL,
                  NULL, NULL, NULL, NULL};
    S.delta = (size_t *)(S.tmp + n_req);
    int32_t *map = (int32_t *)(S.delta + ((lt->n_steps > 0 ? (size_t)lt->n_steps : 0) + 1));
    S.map = map;
    S.role = (uint8_t *)(map + g->n_tensors);
    S.at_peak = S.role + n_req;
    const uint32_t n_ops = g->n_subgraphs ? g->subgraphs[0].n_ops : 0;
    S.masks = (uint64_t *)ta__align_up((uintptr_t)(S.at_peak + (lt->n_steps > 0 ? lt->n_steps : 0)), 8);
    for (uint32_t o = 0; o < n_ops; o++) S.masks[o] = ta__patch_stage_mask(g, buffer_of, (int32_t)o, 0);
    S.cur_reqs = (ta_request *)(void *)(S.masks + n_ops);
    S.cur_role = (uint8_t *)(S.cur_reqs + n_req);
    /* the request of every tensor's buffer, looked up once */
    for (uint32_t t = 0; t < g->n_tensors; t++) map[t] = -1;
    for (size_t i = 0; i < n_req; i++)
        if (origin[i].kind == TA_BUFFER_TENSOR && origin[i].index < g->n_tensors) map[origin[i].index] = (int32_t)i;
    memset(S.role, 0, n_req);
    cost_t base = {0, 0, 0};
    base.peak = peak(reqs, n_req, ov, n_ov, S.role, lt->n_steps, S.delta, &base.at_peak, NULL);
    out->macs = graph_macs(g);
    out->bytes_before = out->bytes_after = base.peak;
    if (!overhead_pct || !out->macs || g->n_subgraphs < 1) return TA_OK;
    /* The greedy spends its budget on the first stage that lowers the peak
     * most, which can leave nothing for the next: it runs under the cap and
     * under fractions of it; the interval search finds the set of disjoint
     * stages with the lowest peak it can see stage by stage, and the greedy
     * then goes on from it.  The best set wins (every one is within the
     * cap). */
    const double cap = (double)overhead_pct * (double)out->macs / 100.0;
    static const double k_fraction[] = {1.0, 0.5};
    cost_t best = base;
    for (size_t f = 0; f <= sizeof k_fraction / sizeof k_fraction[0]; f++) {
        memset(cur, 0, sizeof *cur);
        cost_t start = base;
        double cf = cap;
        if (f == 0) { /* the interval search's set, then the greedy from it */
            void *mem = (void *)ta__align_up((uintptr_t)(S.cur_role + n_req), 8);
            if (!interval_search(&S, cap, base.peak, mem, cur) || !set_cost(&S, cur, &start, NULL)) {
                memset(cur, 0, sizeof *cur);
                start = base;
            }
        } else {
            cf = k_fraction[f - 1] * cap;
        }
        const cost_t c = greedy(&S, cf, start, cur);
        if (cur->n_stages && c.peak < base.peak && cost_less(&c, &best)) {
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
        if (transform(g, lt, buffer_of, NULL, s, reqs, origin, NULL, n_req, role))
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch: ops %d..%d in %d bands is not a stage of this graph",
                               s->first_op, s->last_op, s->bands);
    }
    size_t kept = 0;
    for (size_t k = 0; k < *n_ov; k++)
        if (relation_kept(role, &ov[k])) ov[kept++] = ov[k];
    *n_ov = kept;
    return TA_OK;
}
