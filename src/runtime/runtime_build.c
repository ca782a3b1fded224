/*
 * The runtime's work-block path: import the model, prepare every op,
 * lifetimes, rewrites and the plan, in a work block (runtime.c's steps
 * 1-5), then point the runtime into the arena and write the const image.
 * Also what needs the imported graph on a host: the init table's export
 * (ta_runtime_export_init) and the scratch requests (plan --header).
 *
 * Reached only through ta__work_path_full, which ta_runtime_options_default
 * and ta_runtime_options_for_ops put into the options: a firmware that
 * initialises from a budget header's init table and const blob
 * (ta_runtime_options_for_budget) links nothing of this file, nor what it
 * calls (the TFLite importer, the rewrites, lifetimes, every op's prepare).
 */
#include "runtime/runtime_int.h"
#include "tinyarena/rewrite.h"

/* ---- work carving --------------------------------------------------------- */

typedef struct {
    uint8_t *base;
    size_t cap, used;
    size_t peak; /* the most `used` reached (work can be given back, see release) */
} carve_t;

static void carve_init(carve_t *c, void *mem, size_t cap) {
    uintptr_t p = (uintptr_t)mem, q = (p + (ALIGN - 1)) & ~(uintptr_t)(ALIGN - 1);
    c->base = mem ? (uint8_t *)q : NULL;
    c->cap = mem && cap >= (size_t)(q - p) ? cap - (size_t)(q - p) : 0;
    c->used = 0;
    c->peak = 0;
}

static void *carve(carve_t *c, size_t count, size_t size) {
    size_t start = ta__align_up(c->used, ALIGN);
    if (size && count > SIZE_MAX / size) {
        c->used = SIZE_MAX;
        return NULL;
    }
    size_t bytes = count * size;
    if (start == SIZE_MAX || bytes > SIZE_MAX - start) {
        c->used = SIZE_MAX;
        return NULL;
    }
    c->used = start + bytes;
    if (c->used > c->peak) c->peak = c->used;
    if (!c->base || c->used > c->cap) return NULL;
    return c->base + start;
}

/* Gives back everything carved after the first `keep` bytes at p (which a
 * carve returned): the next carves reuse it; the peak stays counted. */
static void release(carve_t *c, const void *p, size_t keep) {
    c->used = (size_t)((const uint8_t *)p - c->base) + keep;
}

static size_t work_guess(const ta_runtime *rt) {
    ta_graph_limits lim;
    if (ta_tflite_graph_limits(&rt->model, &lim)) return 0;
    size_t b = ta_graph_bytes(&lim) + 4 * ALIGN;
    b += (size_t)lim.ops * (sizeof(ta__op_info) + sizeof(ta_scratch_request) + 4 + ALIGN);
    b += (size_t)(lim.tensors + lim.ops) * (sizeof(ta_request) + sizeof(ta_buffer_origin) + sizeof(size_t) + 16);
    b += (size_t)(lim.tensors + 2 * lim.ops) * 16 + 1024;
    /* rewrites: a second graph and per-op tables (pass 1), per-tensor groups (pass 2) */
    if (rt->opt.rewrites & TA_REWRITE_GRAPH_FLAGS)
        b += ta_graph_bytes(&lim) + (size_t)lim.ops * 40 + (size_t)lim.tensors * 8 + 8 * ALIGN;
    if (rt->opt.rewrites & TA_REWRITE_GRAPH_FLAGS)
        b += (size_t)lim.tensors * 24 + (size_t)lim.ops * 24 + 4 * ALIGN; /* DWINPLACE's profile */
    if (rt->opt.rewrites & (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_DWINPLACE | TA_REWRITE_CONCAT | TA_REWRITE_SLICE))
        b += (size_t)lim.tensors * (16 + sizeof(size_t)) + 7 * ALIGN;
    /* pass 3: one relation per op at most, a request index per tensor */
    if (rt->opt.rewrites & TA_REWRITE_OVERLAP)
        b += (size_t)lim.ops * sizeof(ta_overlap) + (size_t)lim.tensors * sizeof(int32_t) + 4 * ALIGN;
    return b;
}

/* Sets *need to the work bytes known so far and returns NO_MEMORY. */
static ta_status short_work(ta_runtime *rt, const carve_t *c, size_t extra, ta_diag *diag) {
    size_t need = ta__add_sat(ta__add_sat(c->used > c->peak ? c->used : c->peak, extra), 2 * ALIGN);
    size_t guess = work_guess(rt);
    rt->b.work_bytes = need > guess ? need : guess;
    return ta_diag_set(diag, TA_E_NO_MEMORY, "work block needs at least %zu bytes, has %zu", rt->b.work_bytes, c->cap);
}

/* A caller's const blob: its header must describe this model, and every op
 * record must be byte for byte what prepare derives now (one record at a
 * time, in a work slice of the largest record's size). */
static ta_status check_consts(ta_runtime *rt, const ta__built *w, carve_t *c, ta_diag *diag) {
    const uint8_t *k = (const uint8_t *)rt->opt.consts;
    const ta_graph *g = &w->g;
    ta_status hst = ta__rt_blob_header(rt, g->n_ops, g->n_tensors, w->image, diag);
    if (hst) return hst;
    size_t max_rec = 0;
    for (uint32_t o = 0; o < g->n_ops; o++)
        if (w->info[o].data_bytes > max_rec) max_rec = w->info[o].data_bytes;
    uint8_t *rec = carve(c, 1, ta__align_up(max_rec, REC_ALIGN));
    if (max_rec && !rec) return short_work(rt, c, 0, diag);
    size_t at = ta__rt_records_at(g->n_ops);
    for (uint32_t o = 0; o < g->n_ops; o++) {
        const size_t len = ta__align_up(w->info[o].data_bytes, REC_ALIGN);
        const ta_op *op = &g->ops[o];
        ta__op_info info;
        memset(rec, 0, len);
        ta_status st = ta__op_prepare_in(rt->opt.ops, g, op->subgraph, (uint32_t)op->index, rec, w->info[o].data_bytes, &info, diag);
        if (st) return st;
        if (ta__rd32(k + CONSTS_HDR + 4 * (size_t)o) != at || memcmp(k + at, rec, len) != 0)
            return ta_diag_set(diag, TA_E_BAD_REQUEST,
                               "const blob: op %u (%s) record differs from what this model derives (corrupted, or made by another tinyarena version)",
                               o, op->kind == TA_OP_CUSTOM && op->custom_name ? op->custom_name : ta_op_kind_str(op->kind));
        at += len;
    }
    return TA_OK;
}

/* A variable tensor's alignment in the tail: 16 under TFLM's rule, else
 * the rule's for its element type and what its ops declare. */
static size_t var_align(const ta_runtime *rt, const ta__built *w, uint32_t gi, const ta_tensor *tt) {
    if (rt->opt.align_rule.kind == TA_ALIGN_TFLM) return ALIGN;
    return ta_align_rule_buffer(rt->opt.align_rule, ta_dtype_size(tt->dtype), w->talign ? w->talign[gi] : 0, 0);
}

ta_status ta__rt_build_once(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, ta__patch_ctl *pc,
                            ta_diag *diag) {
    memset(w, 0, sizeof *w);
    carve_t c;
    carve_init(&c, work, work_bytes);
    /* 1. graph */
    ta_graph_limits lim;
    ta_status st = ta_tflite_graph_limits(&rt->model, &lim);
    if (st) return ta_diag_set(diag, st, "model: cannot size its graph");
    size_t gb = ta_graph_bytes(&lim);
    void *gmem = carve(&c, 1, gb);
    if (!gmem) return short_work(rt, &c, 0, diag);
    if ((st = ta_graph_init(&w->g, &lim, gmem, gb))) return ta_diag_set(diag, st, "graph init failed");
    if ((st = ta_tflite_import(&rt->model, &w->g, diag))) return st;
    if (w->g.n_subgraphs < 1) return ta_diag_set(diag, TA_E_MALFORMED, "model has no subgraph");
    if (rt->opt.subgraph != 0) return ta_diag_set(diag, TA_E_UNSUPPORTED, "only subgraph 0 can run");
    const uint32_t rw = rt->opt.rewrites;
    if (rw & ~TA_REWRITE_ALL) return ta_diag_set(diag, TA_E_INVALID_ARG, "unknown rewrite flags 0x%x", rw);
    if (rt->opt.planner == ta__rt_budget_plan && rt->opt.planner_ctx &&
        ((const ta_budget *)rt->opt.planner_ctx)->rewrites != rw) {
        char a[96], b[96];
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "budget table was planned with rewrites %s, the runtime applies %s",
                           ta_rewrite_names(((const ta_budget *)rt->opt.planner_ctx)->rewrites, a, sizeof a),
                           ta_rewrite_names(rw, b, sizeof b));
    }
    ta_op_kind_set inplace; /* the kinds of this op list that may run in place */
    ta_op_list_inplace_kinds(rt->opt.ops, &inplace);
    if (rw & TA_REWRITE_GRAPH_FLAGS) {
        /* the rewritten graph: same tensors, fewer or reordered ops */
        const size_t rb = ta_rewrite_graph_bytes(&w->g, rw);
        void *rmem = carve(&c, 1, rb);
        if (!rmem) return short_work(rt, &c, 0, diag);
        ta_graph g2;
        if ((st = ta_rewrite_graph(&w->g, rw, &inplace, rmem, rb, &g2, NULL, diag))) return st;
        release(&c, rmem, ta_rewrite_graph_keep_bytes(&w->g)); /* the rest was the rewrite's work */
        w->g = g2;
    }
    if (pc && w->g.n_subgraphs) ta__rt_patch_marks(&w->g, pc);
    /* Every subgraph's ops and tensors, by global index: subgraph 0 comes
     * first, so a model without control flow keeps its indices. */
    const ta_subgraph *sg = &w->g.subgraphs[0];
    const uint32_t n_ops = w->g.n_ops, n_t = w->g.n_tensors;
    w->n_tensors = n_t;
    w->n_io = (size_t)sg->n_inputs + sg->n_outputs;
    /* 2. prepare every op (size pass) */
    w->info = carve(&c, n_ops, sizeof *w->info);
    w->sreq = carve(&c, n_ops, sizeof *w->sreq);
    w->sreq_of_op = carve(&c, n_ops, sizeof *w->sreq_of_op);
    if (n_ops && (!w->info || !w->sreq || !w->sreq_of_op)) return short_work(rt, &c, 0, diag);
    for (uint32_t o = 0; o < n_ops; o++) {
        const ta_op *op = &w->g.ops[o];
        if ((st = ta__op_prepare_in(rt->opt.ops, &w->g, op->subgraph, (uint32_t)op->index, NULL, 0, &w->info[o], diag))) return st;
        w->records = ta__add_sat(w->records, ta__align_up(w->info[o].data_bytes, REC_ALIGN));
        w->tables = ta__add_sat(w->tables, w->info[o].table_bytes);
        w->sreq_of_op[o] = -1;
        if (w->info[o].state_bytes) {
            w->n_state_ops++;
            w->state_bytes = ta__add_sat(w->state_bytes, ta__align_up(w->info[o].state_bytes, ALIGN));
        }
        size_t sb = w->info[o].scratch_bytes;
        if (!sb) continue;
        w->n_sops++;
        w->sum_scratch += ta__align_up(sb, ALIGN);
        if (sb > w->max_scratch) w->max_scratch = sb;
        if (rt->opt.scratch == TA_SCRATCH_PLANNED) {
            w->sreq_of_op[o] = (int32_t)w->n_sreq;
            w->sreq[w->n_sreq++] = (ta_scratch_request){.subgraph = op->subgraph, .op = (uint32_t)op->index, .bytes = sb,
                                                        .align = ta__op_scratch_align(rt->opt.ops, op)};
        }
    }
    /* the alignment rule: what the op modules declare per tensor, and the
     * tail's alignment -- 16 under TFLM's rule, else the records' natural 8,
     * or more where a variable or the shared scratch region asks */
    const bool tflm = rt->opt.align_rule.kind == TA_ALIGN_TFLM;
    w->talign = carve(&c, w->g.n_tensors, sizeof *w->talign);
    if (w->g.n_tensors && !w->talign) return short_work(rt, &c, 0, diag);
    ta__op_operand_align(rt->opt.ops, &w->g, w->talign);
    w->tail_align = tflm ? ALIGN : TAIL_ALIGN;
    for (uint32_t o = 0; !tflm && rt->opt.scratch == TA_SCRATCH_SHARED && o < n_ops; o++) {
        const size_t sa = ta_align_rule_buffer(rt->opt.align_rule, 1, ta__op_scratch_align(rt->opt.ops, &w->g.ops[o]), 0);
        if (w->info[o].scratch_bytes && sa > w->tail_align) w->tail_align = sa;
    }
    for (uint32_t k = 0; !tflm && k < n_t; k++) {
        const ta_tensor *tt = &w->g.tensors[k];
        if (!(tt->flags & TA_TENSOR_VARIABLE) || (tt->flags & TA_TENSOR_CONST)) continue;
        const size_t va = var_align(rt, w, k, tt);
        if (va > w->tail_align) w->tail_align = va;
    }
    /* state and scratch sums at the tail's alignment */
    w->state_bytes = w->sum_scratch = 0;
    for (uint32_t o = 0; o < n_ops; o++) {
        if (w->info[o].state_bytes) w->state_bytes = ta__add_sat(w->state_bytes, ta__align_up(w->info[o].state_bytes, w->tail_align));
        if (w->info[o].scratch_bytes) w->sum_scratch += ta__align_up(w->info[o].scratch_bytes, w->tail_align);
    }
    /* control flow and resource variables: the flow block (runtime_subgraph.c) */
    w->flow = w->g.n_subgraphs > 1;
    for (uint32_t o = 0; o < n_ops && !w->flow; o++) w->flow = w->g.ops[o].kind == TA_OP_VAR_HANDLE;
    if (w->flow && (st = ta__rt_flow_bytes(rt, w, diag))) return st;
    /* variable tensors: persistent, in the tail */
    for (uint32_t k = 0; k < n_t; k++) {
        const ta_tensor *tt = &w->g.tensors[k];
        if (!(tt->flags & TA_TENSOR_VARIABLE) || (tt->flags & TA_TENSOR_CONST)) continue;
        if (tt->bytes > UINT32_MAX) return ta_diag_set(diag, TA_E_UNSUPPORTED, "variable tensor %u above 4 GiB", k);
        w->n_vars++;
        w->var_bytes = ta__add_sat(w->var_bytes, ta__align_up(tt->bytes, var_align(rt, w, k, tt)));
    }
    w->image = ta__add_sat(ta__rt_records_at(n_ops), w->records);
    if (w->image > UINT32_MAX) return ta_diag_set(diag, TA_E_UNSUPPORTED, "op records above 4 GiB");
    if (rt->opt.consts && (st = check_consts(rt, w, &c, diag))) return st;
    /* 3. lifetimes and requests */
    size_t lb = ta_lifetime_bytes(&w->g, w->n_sreq);
    void *lmem = carve(&c, 1, lb);
    if (!lmem) return short_work(rt, &c, 0, diag);
    if ((st = ta_lifetime_analyze(&w->g, w->sreq, w->n_sreq, lmem, lb, &w->lt, diag))) return st;
    /* A tensor that is read but that nothing writes (no writer, not an
     * input, constant or variable) starts "before step 0".  The validator
     * lets a custom op read one (its work memory, e.g. Vela's NPU scratch);
     * an op that runs here would read bytes nobody wrote (and poison mode
     * could not checksum them): refused, naming it. */
    for (uint32_t k = 0; k < n_t; k++) {
        const ta_tensor *tt = &w->g.tensors[k];
        const uint32_t gi = k;
        if (tt->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE | TA_TENSOR_ELIDED)) continue;
        if (w->lt.first[gi] < 0 && w->lt.last[gi] >= 0)
            return ta_diag_set(diag, TA_E_MALFORMED, "tensor %u '%s' is read but no op writes it", k, tt->name);
    }
    ta_lifetime_options lopt;
    memset(&lopt, 0, sizeof lopt);
    lopt.rule = rt->opt.align_rule;
    lopt.tensor_align = w->talign;
    lopt.n_tensor_align = w->g.n_tensors;
    if (rw & (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_DWINPLACE | TA_REWRITE_CONCAT | TA_REWRITE_SLICE)) {
        w->buffer_of = carve(&c, w->g.n_tensors, sizeof *w->buffer_of);
        w->buffer_at = carve(&c, w->g.n_tensors, sizeof *w->buffer_at);
        const size_t bb = ta_rewrite_buffers_bytes(&w->g);
        void *bmem = carve(&c, 1, bb);
        if ((w->g.n_tensors && (!w->buffer_of || !w->buffer_at)) || !bmem) return short_work(rt, &c, 0, diag);
        if ((st = ta_rewrite_buffers_at(&w->g, &w->lt, rw, &inplace, bmem, bb, w->buffer_of, w->buffer_at, NULL, diag)))
            return st;
        lopt.buffer_of = w->buffer_of;
        lopt.n_buffer_of = w->g.n_tensors;
        lopt.buffer_at = w->buffer_at;
    }
    const ta_lifetime_options *lo = &lopt;
    if ((st = ta_lifetime_requests(&w->g, &w->lt, lo, NULL, NULL, 0, &w->n_req, diag))) return st;
    w->reqs = carve(&c, w->n_req, sizeof *w->reqs);
    w->origin = carve(&c, w->n_req, sizeof *w->origin);
    w->offsets = carve(&c, w->n_req, sizeof *w->offsets);
    if (w->n_req && (!w->reqs || !w->origin || !w->offsets))
        return short_work(rt, &c, 0, diag);
    if ((st = ta_lifetime_requests(&w->g, &w->lt, lo, w->reqs, w->origin, w->n_req, &w->n_req, diag))) return st;
    /* the head's alignment: the tail's, or the largest buffer's */
    w->arena_align = w->tail_align;
    for (size_t i = 0; i < w->n_req; i++)
        if (w->reqs[i].align > w->arena_align) w->arena_align = w->reqs[i].align;
    if (w->arena_align > TA_ALIGN_RULE_MAX)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "a buffer asks %zu-byte alignment, above %u", w->arena_align, TA_ALIGN_RULE_MAX);
    /* 3b. OVERLAP: the relations the ops' walks tolerate, for a plan source
     * that takes them (a table's offsets already are what they are) */
    ta_overlap *ov = NULL;
    size_t n_ov = 0;
    if ((rw & TA_REWRITE_OVERLAP) && rt->opt.planner_overlaps) {
        ta_op_kind_set walks;
        ta_op_list_overlap_kinds(rt->opt.ops, &walks);
        const size_t cap = n_ops ? n_ops : 1, ob = ta_rewrite_overlaps_bytes(&w->g);
        ta_overlap *arr = carve(&c, cap, sizeof *arr);
        void *om = carve(&c, 1, ob);
        if (!arr || !om) return short_work(rt, &c, 0, diag);
        if ((st = ta_rewrite_overlaps_for(&w->g, &w->lt, rw, w->buffer_of, w->buffer_at, &walks, w->reqs, w->origin,
                                          w->n_req, om, ob, arr, cap, &n_ov, NULL, diag)))
            return st;
        release(&c, om, 0);
        ov = arr;
    }
    /* 3c. patch stages (patch.h): chosen on these requests, or given */
    memset(&rt->patch, 0, sizeof rt->patch);
    if (pc && (pc->choose || pc->plan.n_stages)) {
        const size_t pb = pc->choose ? ta_patch_work_bytes(&w->g, w->n_req, w->lt.n_steps) : w->n_req + 8; /* apply: a role per request */
        void *pm = carve(&c, 1, pb);
        if (!pm) return short_work(rt, &c, 0, diag);
        if (pc->choose && (st = ta_patch_choose(&w->g, &w->lt, w->buffer_of, w->reqs, w->origin, w->n_req, ov, n_ov,
                                                rt->opt.patch_overhead, pm, pb, &pc->plan, diag)))
            return st;
        if (pc->plan.n_stages && ta_patch_apply(&w->g, &w->lt, w->buffer_of, &pc->plan, w->reqs, w->origin, w->n_req, ov,
                                                &n_ov, pm, NULL) != TA_OK)
            pc->plan.n_stages = 0; /* not stages of this build: layer by layer */
        release(&c, pm, 0);
        rt->patch = pc->plan;
    }
    /* 4. plan */
    if (!rt->opt.planner) return ta_diag_set(diag, TA_E_INVALID_ARG, "no plan source (strategy or table)");
    size_t pneed = 0;
    if (n_ov) {
        if ((st = rt->opt.planner_overlaps(rt->opt.planner_ctx, w->reqs, w->n_req, ov, n_ov, NULL, 0, &pneed, NULL, NULL,
                                           diag)))
            return st;
    } else if ((st = rt->opt.planner(rt->opt.planner_ctx, w->reqs, w->n_req, NULL, 0, &pneed, NULL, NULL, diag))) {
        return st;
    }
    void *pmem = pneed ? carve(&c, 1, pneed) : NULL;
    if (pneed && !pmem) return short_work(rt, &c, 0, diag);
    if (n_ov) st = rt->opt.planner_overlaps(rt->opt.planner_ctx, w->reqs, w->n_req, ov, n_ov, pmem ? pmem : c.base, pneed,
                                            &pneed, w->offsets, &w->planned, diag);
    else st = rt->opt.planner(rt->opt.planner_ctx, w->reqs, w->n_req, pmem ? pmem : c.base, pneed, &pneed, w->offsets,
                              &w->planned, diag);
    if (st) return st;
    /* lower bound: most padded bytes live at one step.  A difference array
     * over the steps (in the planner's scratch, dead by now) keeps this
     * O(steps + buffers): scanning every buffer at every step was quadratic
     * in the op count (40k ops: seconds). */
    if (pmem) release(&c, pmem, 0);
    const size_t n_steps = w->lt.n_steps > 0 ? (size_t)w->lt.n_steps : 0;
    size_t *delta = carve(&c, n_steps + 1, sizeof *delta);
    if (!delta) return short_work(rt, &c, 0, diag);
    memset(delta, 0, (n_steps + 1) * sizeof *delta);
    for (size_t i = 0; i < w->n_req; i++) {
        const int32_t f = w->reqs[i].first < 0 ? 0 : w->reqs[i].first, l = w->reqs[i].last;
        if (l < f || (size_t)f >= n_steps) continue;
        const size_t end = (size_t)l + 1 < n_steps ? (size_t)l + 1 : n_steps;
        const size_t pad = ta_request_padded(&w->reqs[i]);
        delta[f] += pad; /* unsigned wrap-around cancels exactly in the running sum */
        delta[end] -= pad;
    }
    /* With relations the bound counts each related pair as its union
     * (plan.h, ta_plan_bound_overlaps).  The rewrite's pairs are live
     * together at exactly one step (X dies where Y is born) and each step
     * runs one op, so at most one pair per step: taking what the pair may
     * share off that step is the same bound, without linking the planning
     * core's version (the firmware's --rederive build has no planner). */
    for (size_t k = 0; k < n_ov; k++) {
        const ta_request *x = &w->reqs[ov[k].x], *y = &w->reqs[ov[k].y];
        const int32_t s = x->last;
        if (s < 0 || (size_t)s >= n_steps || y->first != s) continue;
        const size_t px = ta_request_padded(x), py = ta_request_padded(y);
        const int64_t dd = ov[k].d > 0 ? ov[k].d : 0;
        size_t uni = (uint64_t)dd + py > px ? (size_t)dd + py : px;
        if (uni > px + py) uni = px + py;
        delta[s] -= px + py - uni;
        delta[(size_t)s + 1] += px + py - uni;
    }
    for (size_t s = 0, live = 0; s < n_steps; s++) {
        live += delta[s];
        if (live > w->lower_bound) w->lower_bound = live;
    }
    rt->b.work_bytes = (c.peak > c.used ? c.peak : c.used) + 2 * ALIGN;
    return TA_OK;
}


/* Points the runtime into the arena from what build decided: the head
 * and the tail are placed (runtime.c), t is the tail's layout. */
static ta_status build_init(ta_runtime *rt, const ta__built *w, const ta__tail *t, uint8_t *head, uint8_t *tp,
                            ta_diag *diag) {
    /* every subgraph's tensors and ops by global index (subgraph 0 first) */
    const ta_subgraph *sg = &w->g.subgraphs[0];
    const uint32_t n_t = w->g.n_tensors, n_ops = w->g.n_ops;
    ta_status st;
    rt->head = head;
    rt->tail = tp;
    rt->n_tensors = n_t;
    rt->n_ops = n_ops;
    rt->flow = NULL;
    rt->ptrs = (void **)(tp + t->ptrs);
    rt->scratch_ptrs = (void **)(tp + t->sptrs);
    /* tensor pointers */
    for (uint32_t k = 0; k < n_t; k++) {
        const ta_tensor *tt = &w->g.tensors[k];
        rt->ptrs[k] = (tt->flags & TA_TENSOR_CONST) ? (void *)tt->data : NULL;
    }
    for (size_t i = 0; i < w->n_req; i++) {
        if (w->origin[i].kind != TA_BUFFER_TENSOR) continue;
        uint32_t gi = w->origin[i].index;
        if (gi >= n_t) continue;
        rt->ptrs[gi] = ta__rt_at(rt, w->offsets[i], ta_request_padded(&w->reqs[i]));
    }
    /* variable tensors: in the tail, set to their reset value (ta_runtime_reset) */
    rt->vars = (ta_var_rec *)(tp + t->vars);
    rt->n_vars = 0;
    {
        uint8_t *vd = tp + t->vars + ta__align_up(w->n_vars * sizeof(ta_var_rec), w->tail_align);
        for (uint32_t k = 0; k < n_t && w->n_vars; k++) {
            const ta_tensor *tt = &w->g.tensors[k];
            if (!(tt->flags & TA_TENSOR_VARIABLE) || (tt->flags & TA_TENSOR_CONST)) continue;
            ta_var_rec *v = &rt->vars[rt->n_vars++];
            v->data = vd;
            v->bytes = (uint32_t)tt->bytes;
            v->tensor = k;
            /* TFLM (MicroGraph::ResetVariableTensors): int8 state starts at its
             * zero point (real 0), every other type at all-zero bytes */
            v->fill = tt->dtype == TA_DTYPE_INT8 && tt->quant.count && tt->quant.zero_point
                          ? (uint8_t)(int8_t)tt->quant.zero_point[0]
                          : 0;
            rt->ptrs[k] = vd;
            vd += ta__align_up(tt->bytes, var_align(rt, w, k, tt));
        }
        if (!w->n_vars) rt->vars = NULL;
        ta__rt_reset_vars(rt);
    }
    /* members of a buffer group: their group's bytes */
    for (uint32_t k = 0; w->buffer_of && k < n_t; k++) {
        const int32_t r = w->buffer_of[k];
        if (r != (int32_t)k) rt->ptrs[k] = (uint8_t *)rt->ptrs[(uint32_t)r] + w->buffer_at[k];
    }
    /* the const image: the caller's blob (checked by build), or written here */
    if (rt->opt.consts) {
        rt->consts = (const uint8_t *)rt->opt.consts;
    } else {
        uint8_t *img = tp + t->image;
        size_t at = ta__rt_records_at(n_ops);
        const uint64_t hash = ta__rt_model_hash(rt);
        memset(img, 0, at);
        const uint32_t hdr[8] = {CONSTS_MAGIC, CONSTS_VERSION, (uint32_t)w->image, n_ops, n_t,
                                 (uint32_t)hash, (uint32_t)(hash >> 32), 0};
        for (int k = 0; k < 8; k++) ta__wr32(img + 4 * k, hdr[k]);
        for (uint32_t o = 0; o < n_ops; o++) {
            const size_t len = ta__align_up(w->info[o].data_bytes, REC_ALIGN);
            const ta_op *op = &w->g.ops[o];
            ta__wr32(img + CONSTS_HDR + 4 * (size_t)o, (uint32_t)at);
            memset(img + at, 0, len);
            if ((st = ta__op_prepare_in(rt->opt.ops, &w->g, op->subgraph, (uint32_t)op->index, img + at, w->info[o].data_bytes,
                                        &w->info[o], diag)))
                return st;
            at += len;
        }
        rt->consts = img;
    }
    /* scratch: one pointer per op that needs it, in op order */
    rt->n_scratch_ops = (uint32_t)w->n_sops;
    for (uint32_t o = 0, k = 0; o < n_ops; o++) {
        if (!w->info[o].scratch_bytes) continue;
        rt->scratch_ptrs[k++] = tp + t->shared;
    }
    /* Planned scratch: build made one request per such op, in op order, so
     * request index r is slot r (one pass, not a scan per op). */
    for (size_t i = 0; rt->opt.scratch != TA_SCRATCH_SHARED && i < w->n_req; i++)
        if (w->origin[i].kind == TA_BUFFER_SCRATCH && w->origin[i].index < w->n_sops)
            rt->scratch_ptrs[w->origin[i].index] = ta__rt_at(rt, w->offsets[i], ta_request_padded(&w->reqs[i]));
    /* op state: one pointer per op that keeps state, in op order; zeroed */
    rt->n_state_ops = (uint32_t)w->n_state_ops;
    rt->state_ptrs = w->n_state_ops ? (void **)(tp + t->state) : NULL;
    {
        uint8_t *sd = tp + t->state + ta__align_up(w->n_state_ops * sizeof(void *), w->tail_align);
        for (uint32_t o = 0, k = 0; o < n_ops && w->n_state_ops; o++) {
            if (!w->info[o].state_bytes) continue;
            rt->state_ptrs[k++] = sd;
            memset(sd, 0, w->info[o].state_bytes);
            sd += ta__align_up(w->info[o].state_bytes, w->tail_align);
        }
    }
    /* inputs and outputs */
    rt->inputs = (ta_io *)(tp + t->io);
    rt->outputs = rt->inputs + sg->n_inputs;
    rt->n_inputs = sg->n_inputs;
    rt->n_outputs = sg->n_outputs;
    for (uint32_t k = 0; k < sg->n_inputs + sg->n_outputs; k++) {
        int32_t ti = k < sg->n_inputs ? sg->inputs[k] : sg->outputs[k - sg->n_inputs];
        const ta_tensor *tt = ta_graph_tensor(&w->g, 0, ti);
        ta_io *io = &rt->inputs[k];
        memset(io, 0, sizeof *io);
        io->tensor = ti;
        if (!tt) continue;
        io->data = rt->ptrs[ti];
        io->bytes = tt->bytes;
        io->dtype = tt->dtype;
        io->rank = tt->rank;
        for (int32_t d = 0; d < tt->rank && d < TA_MAX_RANK; d++) io->shape[d] = tt->shape[d];
        io->scale = tt->quant.count && tt->quant.scale ? tt->quant.scale[0] : 0.0f;
        io->zero_point = tt->quant.count && tt->quant.zero_point ? (int32_t)tt->quant.zero_point[0] : 0;
    }
    /* poison tables: per planned buffer (tensor or scratch), sorted by address */
    rt->pbuf = NULL;
    rt->porder = NULL;
    rt->pgroup = NULL;
    rt->n_pbuf = 0;
    if (rt->opt.poison) {
        size_t n = w->n_req;
        rt->pbuf = (ta_poison_buf *)(tp + t->poison);
        rt->porder = (uint32_t *)(rt->pbuf + n);
        rt->n_pbuf = n;
        if (w->buffer_of || w->flow) {
            /* which record holds each tensor, so that an op writing into a
             * group (in place), or an output a subgraph's op writes after
             * its creation step, re-takes that record's checksum */
            rt->pgroup = (int32_t *)(rt->porder + n);
            for (uint32_t k = 0; k < n_t; k++) rt->pgroup[k] = -1;
            for (size_t i = 0; i < n; i++)
                if (w->origin[i].kind == TA_BUFFER_TENSOR && w->origin[i].index < n_t) rt->pgroup[w->origin[i].index] = (int32_t)i;
            for (uint32_t k = 0; w->buffer_of && k < n_t; k++) {
                const int32_t r = w->buffer_of[k];
                if (r != (int32_t)k) rt->pgroup[k] = rt->pgroup[(uint32_t)r];
            }
        }
        for (size_t i = 0; i < n; i++) {
            ta_poison_buf *pb = &rt->pbuf[i];
            pb->data = rt->head + w->offsets[i];
            pb->bytes = ta_request_padded(&w->reqs[i]); /* padding too: no kernel may write it */
            pb->first = w->reqs[i].first;
            pb->last = w->reqs[i].last;
            pb->sum = 0;
            pb->taken = 0;
            if (w->origin[i].kind == TA_BUFFER_TENSOR) pb->tensor = (int32_t)w->origin[i].index;
            else pb->tensor = -1 - (int32_t)w->sreq[w->origin[i].index].op;
            /* insertion sort by address */
            size_t j = i;
            while (j > 0 && rt->pbuf[rt->porder[j - 1]].data > pb->data) {
                rt->porder[j] = rt->porder[j - 1];
                j--;
            }
            rt->porder[j] = (uint32_t)i;
        }
    }
    if (w->flow) ta__rt_flow_init(rt, w, tp + t->flow);
    rt->state = TA__RT_READY;
    return TA_OK;
}

/* ---- poison mode (invoke) ------------------------------------------------ */

#define CANARY 0xA5

/* Fills every planned byte that holds no data needed at step s (data
 * written before s and still live at s) with the canary. */
static void poison_fill(ta_runtime *rt, int32_t s) {
    uint8_t *cur = rt->head, *end = rt->head + rt->b.planned;
    for (size_t k = 0; k < rt->n_pbuf; k++) {
        const ta_poison_buf *pb = &rt->pbuf[rt->porder[k]];
        if (!(pb->first < s && s <= pb->last) || !pb->bytes) continue;
        if (pb->data > cur) memset(cur, CANARY, (size_t)(pb->data - cur));
        if (pb->data + pb->bytes > cur) cur = pb->data + pb->bytes;
    }
    if (end > cur) memset(cur, CANARY, (size_t)(end - cur));
    /* With control flow, steps are not run once each in order: an IF runs
     * one branch (the other's steps are skipped), a WHILE runs its cond's
     * steps again after its body's.  A buffer dead at s was just filled
     * with canaries: what it held is no data any more.  A buffer live at s
     * that nothing wrote since (its creating call skipped, or a loop went
     * back past its start -- a subgraph run from two places is live from
     * its first call to its last) holds no data either: what it holds now
     * is what the ops from here on must leave, so its sum is taken here.
     * A value that was needed across such a gap reads canaries and shows
     * in the outputs. */
    for (size_t k = 0; rt->flow && k < rt->n_pbuf; k++) {
        ta_poison_buf *pb = &rt->pbuf[k];
        if (pb->tensor < 0) continue;
        if (!(pb->first < s && s <= pb->last)) {
            pb->taken = pb->first == s && pb->taken; /* created at s: check takes it */
            continue;
        }
        if (pb->taken) continue;
        pb->sum = ta__rt_fnv32(FNV32_START, pb->data, pb->bytes);
        pb->taken = 1;
    }
}

/* After the op at step s: checksum what it wrote (buffers created at s and,
 * with rewrites, the groups its outputs were written into), verify
 * everything else live. */
/* True when buffer pb, dying at this op, shares bytes with one of the op's
 * outputs and the op runs the ROWS walk: an overlap the plan made on
 * purpose (the OVERLAP rewrite) that the op checked row by row before
 * writing (ta__op_invoke_checked), so its input's bytes may change under
 * it.  Any other op overwriting a live input is still reported. */
static bool overwritten_by_op(const ta_runtime *rt, uint32_t op, const uint8_t *rec, const ta_poison_buf *pb) {
    if (!ta__op_walks_rows(rt->opt.ops, rec)) return false;
    for (uint32_t k = 0, n = ta__op_output(rec, 0, NULL); k < n; k++) {
        int32_t t = -1;
        ta__op_output(rec, k, &t);
        if (t >= 0) t += (int32_t)ta__rt_op_tbase(rt, op);
        if (t < 0 || (uint32_t)t >= rt->n_tensors || !rt->ptrs[t]) continue;
        for (size_t i = 0; i < rt->n_pbuf; i++) {
            const ta_poison_buf *q = &rt->pbuf[i];
            if (q->data != (uint8_t *)rt->ptrs[t] || q == pb) continue;
            if (q->data < pb->data + pb->bytes && pb->data < q->data + q->bytes) return true;
        }
    }
    return false;
}

static ta_status poison_check(ta_runtime *rt, int32_t s, uint32_t op, ta_diag *diag) {
    for (size_t i = 0; i < rt->n_pbuf; i++) {
        ta_poison_buf *pb = &rt->pbuf[i];
        if (pb->tensor < 0 || pb->first != s) continue;
        pb->sum = ta__rt_fnv32(FNV32_START, pb->data, pb->bytes);
        pb->taken = 1;
    }
    const uint8_t *rec = ta__rt_op_record(rt, op);
    for (uint32_t k = 0, n = rt->pgroup ? ta__op_output(rec, 0, NULL) : 0; k < n; k++) {
        int32_t t = -1;
        ta__op_output(rec, k, &t);
        if (t >= 0) t += (int32_t)ta__rt_op_tbase(rt, op); /* the op's subgraph's tensors */
        if (t < 0 || (uint32_t)t >= rt->n_tensors || rt->pgroup[t] < 0) continue;
        ta_poison_buf *pb = &rt->pbuf[rt->pgroup[t]];
        pb->sum = ta__rt_fnv32(FNV32_START, pb->data, pb->bytes);
        pb->taken = 1;
    }
    for (size_t i = 0; i < rt->n_pbuf; i++) {
        ta_poison_buf *pb = &rt->pbuf[i];
        /* (not taken: filled with canaries since, control flow's steps
         * having gone past its end -- see poison_fill) */
        if (pb->tensor < 0 || !(pb->first < s && s <= pb->last) || !pb->taken) continue;
        if (ta__rt_fnv32(FNV32_START, pb->data, pb->bytes) != pb->sum) {
            if (pb->last == s && overwritten_by_op(rt, op, rec, pb)) continue;
            rt->poison.clobbered = true;
            rt->poison.tensor = pb->tensor;
            rt->poison.op = (int32_t)op;
            return ta_diag_set(diag, TA_E_OVERLAP, "poison: tensor %d (live steps %d..%d) was clobbered by op %u (%s)",
                               pb->tensor, pb->first, pb->last, op, ta__op_name_in(rt->opt.ops, ta__rt_op_record(rt, op)));
        }
    }
    return TA_OK;
}

/* Before the first op: the checksums of what is live from the start. */
static void poison_start(ta_runtime *rt) {
    memset(&rt->poison, 0, sizeof rt->poison);
    for (size_t i = 0; i < rt->n_pbuf; i++) {
        ta_poison_buf *pb = &rt->pbuf[i];
        pb->taken = pb->tensor >= 0 && pb->first == 0;
        if (pb->taken) pb->sum = ta__rt_fnv32(FNV32_START, pb->data, pb->bytes);
    }
}

/* ---- init table export ---------------------------------------------------- */

ta_status ta_runtime_export_init(ta_runtime *rt, void *work, size_t work_bytes, void *out, size_t cap, size_t *bytes,
                                 ta_diag *diag) {
    if (!rt || !bytes) return ta_diag_set(diag, TA_E_INVALID_ARG, "export init: NULL argument");
    if (rt->state != TA__RT_READY) return ta_diag_set(diag, TA_E_STATE, "export init before init");
    if (rt->opt.poison) return ta_diag_set(diag, TA_E_UNSUPPORTED, "export init: not in poison mode");
    if (rt->rg.n) return ta_diag_set(diag, TA_E_UNSUPPORTED, "export init: not across regions (export from one arena)");
    /* control flow or variables: a version 2 table with a flow section
     * (runtime_flow_table.c); patch stages: version 3 (runtime_init_stages.c).
     * The patch build plans no stage in a graph with either (patch.h), so a
     * table never needs both. */
    const uint32_t n_stages = rt->patch.n_stages;
    if (rt->flow && n_stages)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "export init: patch stages with control flow or variables (plan it with patch overhead 0)");
    const uint64_t base = ta__rt_init_table_bytes(rt->n_tensors, rt->n_ops, (uint64_t)rt->n_inputs + rt->n_outputs);
    /* the flow section's size needs the graph, rebuilt below, so a size
     * query counts the subgraphs from the op records' host (rt->flow) */
    const uint64_t need = base + (rt->flow ? FLOW_HDR + (uint64_t)FLOW_SG * rt->flow->n_sg + (uint64_t)FLOW_VAR * rt->flow->n_vars : 0) +
                          ta__rt_init_stage_bytes(n_stages);
    if (need > UINT32_MAX) return ta_diag_set(diag, TA_E_UNSUPPORTED, "init table above 4 GiB");
    *bytes = (size_t)need;
    if (!out) return TA_OK;
    if (cap < need) return ta_diag_set(diag, TA_E_NO_MEMORY, "init table needs %zu bytes, has %zu", (size_t)need, cap);
    if ((uintptr_t)out % 4) return ta_diag_set(diag, TA_E_MISALIGNED, "export init: output is not 4-byte aligned");
    /* the graph again: which tensors are constants and variables, their bytes,
     * and every record's length */
    const ta_runtime_options keep = rt->opt;
    rt->opt.init = NULL; /* the work-block path, whatever initialised it */
    ta__built w;
    const ta_arena_breakdown kb = rt->b;
    ta_status st = ta__rt_patch_build(rt, work, work_bytes, &w, diag); /* whatever the options say */
    rt->opt = keep;
    const size_t wneed = rt->b.work_bytes;
    rt->b = kb;
    if (st == TA_E_NO_MEMORY) rt->b.work_bytes = wneed;
    if (st) return st;
    const ta_subgraph *sg = &w.g.subgraphs[0];
    if (w.g.n_tensors != rt->n_tensors || w.g.n_ops != rt->n_ops || rt->patch.n_stages != n_stages)
        return ta_diag_set(diag, TA_E_STATE, "export init: the runtime was initialised from another model");
    uint8_t *o = (uint8_t *)out;
    memset(o, 0, (size_t)need);
    const uint64_t hash = ta__rt_model_hash(rt);
    if (rt->flow && ta__rt_flow_section_bytes(rt, &w) != need - base)
        return ta_diag_set(diag, TA_E_STATE, "export init: the runtime was initialised from another model");
    const uint32_t hdr[12] = {INIT_MAGIC, rt->flow ? INIT_VERSION_FLOW : n_stages ? INIT_VERSION_PATCH : INIT_VERSION, (uint32_t)need,
                              rt->n_tensors, rt->n_ops, rt->n_inputs,
                              rt->n_outputs, (uint32_t)w.planned, rt->opt.rewrites, (uint32_t)rt->opt.scratch,
                              (uint32_t)hash, (uint32_t)(hash >> 32)};
    for (int i = 0; i < 12; i++) ta__wr32(o + 4 * i, hdr[i]);
    ta__wr32(o + INIT_RULE_AT, ta_align_rule_code(rt->opt.align_rule));
    ta__wr32(o + INIT_HEAD_ALIGN_AT, (uint32_t)w.arena_align);
    ta__wr32(o + INIT_TAIL_ALIGN_AT, (uint32_t)w.tail_align);
    for (uint32_t k = 0; k < rt->n_tensors; k++) {
        const ta_tensor *tt = &w.g.tensors[k]; /* every subgraph's, by global index */
        uint8_t *e = o + INIT_HDR + (size_t)INIT_TENSOR * k;
        const uint8_t *p = (const uint8_t *)rt->ptrs[k];
        if (!p) continue; /* AT_NONE: elided, or no op touches it */
        if (tt->flags & TA_TENSOR_CONST) {
            ta__wr32(e, AT_MODEL);
            ta__wr32(e + 4, (uint32_t)(p - rt->model.bytes));
            ta__wr32(e + 8, (uint32_t)tt->data_bytes);
        } else if (tt->flags & TA_TENSOR_VARIABLE) {
            uint32_t fill = 0;
            for (uint32_t v = 0; v < rt->n_vars; v++)
                if (rt->vars[v].tensor == k) fill = rt->vars[v].fill;
            ta__wr32(e, AT_VAR | fill << 8 | ta__rt_log2(var_align(rt, &w, sg->tensor_base + k, tt)) << 16);
            ta__wr32(e + 4, (uint32_t)tt->bytes);
        } else {
            const size_t al = ta_align_rule_buffer(rt->opt.align_rule, ta_dtype_size(tt->dtype), w.talign[sg->tensor_base + k], 0);
            ta__wr32(e, AT_HEAD | ta__rt_log2(al) << 16);
            ta__wr32(e + 4, (uint32_t)(p - rt->head));
            ta__wr32(e + 8, ta__rt_stage_tensor_bytes(rt, &w, k, tt->bytes)); /* a stage's intermediate: one band */
        }
    }
    uint8_t *ops = o + INIT_HDR + (size_t)INIT_TENSOR * rt->n_tensors;
    for (uint32_t k = 0, slot = 0; k < rt->n_ops; k++) {
        const uint8_t *rec = ta__rt_op_record(rt, k);
        ta__wr32(ops + INIT_OP * (size_t)k, ta__rt_fnv32(FNV32_START, rec, ta__align_up(w.info[k].data_bytes, REC_ALIGN)));
        uint32_t so = NO_SCRATCH;
        if (w.info[k].scratch_bytes && slot < rt->n_scratch_ops) {
            const uint8_t *sp = (const uint8_t *)rt->scratch_ptrs[slot++];
            if (rt->opt.scratch == TA_SCRATCH_PLANNED) so = (uint32_t)(sp - rt->head);
        }
        ta__wr32(ops + INIT_OP * (size_t)k + 4, so);
    }
    uint8_t *io = ops + (size_t)INIT_OP * rt->n_ops;
    for (uint32_t j = 0; j < rt->n_inputs + rt->n_outputs; j++) {
        const ta_io *x = &rt->inputs[j];
        uint8_t *q = io + INIT_IO * (size_t)j;
        uint32_t sc;
        memcpy(&sc, &x->scale, 4);
        ta__wr32(q, (uint32_t)x->tensor);
        ta__wr32(q + 4, (uint32_t)x->dtype);
        ta__wr32(q + 8, (uint32_t)x->rank);
        for (int32_t d = 0; d < x->rank && d < TA_MAX_RANK; d++) ta__wr32(q + 12 + 4 * (size_t)d, (uint32_t)x->shape[d]);
        ta__wr32(q + 44, sc);
        ta__wr32(q + 48, (uint32_t)x->zero_point);
        ta__wr32(q + 52, (uint32_t)x->bytes);
    }
    if (rt->flow) ta__rt_flow_section_write(rt, &w, o + base);
    if (n_stages) ta__rt_init_write_stages(o + base, &rt->patch);
    ta__wr32(o + INIT_SUM_AT, ta__rt_init_sum(o, (size_t)need));
    return TA_OK;
}

ta_status ta_runtime_operand_align(const ta_graph *g, uint32_t *out, size_t n, ta_diag *diag) {
    if (!g || (!out && g->n_tensors) || n != g->n_tensors)
        return ta_diag_set(diag, TA_E_INVALID_ARG, "operand align: NULL argument, or not one entry per tensor");
    ta__op_operand_align(&ta_op_list_all, g, out);
    return TA_OK;
}

ta_status ta_runtime_scratch_requests(const ta_graph *g, ta_scratch_request *out, size_t cap, size_t *n,
                                      ta_diag *diag) {
    if (!g || !n || (cap && !out)) return TA_E_INVALID_ARG;
    *n = 0;
    if (!g->n_subgraphs) return TA_OK;
    for (uint32_t o = 0; o < g->n_ops; o++) { /* every subgraph's (global op order) */
        const ta_op *op = &g->ops[o];
        ta__op_info info;
        ta_status st = ta__op_prepare(g, op->subgraph, (uint32_t)op->index, NULL, 0, &info, diag);
        if (st) return st;
        if (!info.scratch_bytes) continue;
        if (*n < cap)
            out[*n] = (ta_scratch_request){.subgraph = op->subgraph, .op = (uint32_t)op->index, .bytes = info.scratch_bytes,
                                           .align = ta__op_scratch_align(&ta_op_list_all, op)};
        ++*n;
    }
    return *n > cap && out ? TA_E_NO_MEMORY : TA_OK;
}


const struct ta__work_path ta__work_path_full = {ta_tflite_open, work_guess, ta__rt_patch_build, build_init, ta__rt_budget_plan, ta_rewrite_names, poison_start, poison_fill, poison_check};
