/* optimal above the exact limit (issue 14, item 3).
 *
 * The exact search (plan_optimal.c) counts overlapping pairs to size its
 * state, so it stops at OPT_MAX_ITEMS buffers, OPT_MAX_PAIRS pairs or
 * OPT_MAX_SCRATCH bytes.  Above that, opt_plan hands best's plan to
 * ta__opt_large, which improves it in three ways, with bounded scratch:
 *
 *  1. Time cuts.  Sorted by first step, the free buffers fall into parts:
 *     a part ends where none of its buffers is live past the next one's
 *     first step (fixed and empty buffers never stop a cut: fixed ones are
 *     obstacles to every part they meet).  Parts are independent and the
 *     arena is the largest part's.  The part at the top, when small (pf(n)
 *     free buffers, 4 pf(n) obstacles), is handed to the exact search as a
 *     problem of its own (ta_plan_run of `optimal` on it, best's offsets as
 *     its start, half of what is left of the limit); then the next part at
 *     the top, and so on.  What a part's search proves bounds the whole; a
 *     part proven optimal is not touched again.
 *  2. Windows.  A local search with a target capacity C below the arena A.
 *     Every free buffer ending above C is a violator; for each in turn, a
 *     window is taken out and re-packed against the rest, which is fixed
 *     (obstacles: every other buffer live beside one of the window's, at
 *     its offset, its lifetime clipped to the window's).  Windows, tried in
 *     turn until one helps: the violator's time neighbours (the nearest
 *     the top first); two hops out within 2 or 8 steps; slabs (every
 *     buffer whose whole lifetime lies within 4, 12 or 32 steps of the
 *     violator's); two hops out within 64 steps, as many as a part.  A
 *     re-pack is first fit and best fit in several orders (by offset, by
 *     size, violators first, seeded shuffles), then, for all but the
 *     first window, the exact search on the window with a node budget.  It
 *     is kept only when no buffer of the window rises above A and it
 *     lowers (violators above C, bytes above C) lexicographically, so the
 *     search never cycles and never gets worse.  When no violator is left
 *     the arena is at most C: C steps down, the step doubling after a
 *     success and halving after a pass without progress (from an eighth of
 *     the gap down to g).  The exact search on a slab is what closes the
 *     model-like lists: the buffers around the peak re-packed together.
 *  3. best.  After LG_IDLE passes without progress the windows hand their
 *     plan to best (its portfolio and local search, the plan as its start,
 *     the rest of the limit), then take it back, in turn until the limit.
 *     On dense lists (a hundred buffers live at a step) windows of a few
 *     dozen find nothing; there best keeps 7/8 of the limit to begin with.
 *
 * Every call is bounded: the clock's deadline (opt_plan's, which covers
 * best's run too) and a work budget (placements plus search nodes; with no
 * clock it is the only limit, so the result depends only on the input).
 * The scratch is linear in n plus one block for the sub-problems, sized
 * for pf(n) (ta__opt_large_bytes); nothing here allocates.  Every window's
 * plan is a valid plan of the whole (its obstacles are exactly the buffers
 * that overlap it in time, at their offsets), and ta_plan_run checks the
 * final one.
 */
#include "core/plan_optimal.h"

/* A sub-problem (a part, a slab, a window) has at most pf(n) free buffers
 * and 4 pf(n) obstacles (fixed buffers, or a window's rest): n / 80, from
 * 8 to 128, and 8 up to OPT_MAX_ITEMS buffers (those are here for their
 * pairs: dense lists).  The exact search's state for it is sized pairwise
 * (its memo alone takes 16 KB a free buffer), so the cap grows with n to
 * keep the scratch linear. */
#define LG_PF_MIN 8u
#define LG_PF_MAX 128u
static uint32_t pf_of(size_t n) {
    if (n <= OPT_MAX_ITEMS) return LG_PF_MIN; /* too many pairs, few buffers: dense, small blocks */
    size_t k = n / 80;
    return (uint32_t)(k < LG_PF_MIN ? LG_PF_MIN : k > LG_PF_MAX ? LG_PF_MAX : k);
}
#define LG_PART_FREE (L->pf)
#define LG_SUB_FIXED (4 * L->pf)
#define LG_SUB_MAX (5 * L->pf)
/* A window's free buffers: the narrow one, the wide ones. */
#define LG_WIN_NARROW 24u
#define LG_WIN_WIDE 48u
/* Exact search on a window: at most this many buffers in all, this many
 * nodes per free buffer. */
#define LG_EXACT_WIN LG_SUB_MAX
#define LG_EXACT_NODES 400u
/* Window modes: 1-hop; 2-hop within 2 steps; 2-hop within 8 steps; slabs
 * of 4, 12 and 32 steps either side; 2-hop within 64 steps, as many as a
 * part. */
#define LG_MODES 7u
/* Passes in a row without progress before the windows give up and best's
 * local search takes the rest of the limit (dense lists: a hundred buffers
 * live at once, where re-packing a few dozen of them finds nothing). */
#define LG_IDLE 4u
/* More buffers than this live at a step on average, and a window (at most
 * LG_WIN_WIDE) cannot hold one step's: best keeps 7/8 of the limit. */
#define LG_DENSE 48.0

typedef struct {
    const ta_request *reqs;
    size_t n;
    size_t *off;        /* the current plan: the caller's offsets */
    ta__placer gp;      /* every sized buffer placed: time-neighbour queries */
    uint32_t *fmark;    /* per buffer: epoch at which it joined the window */
    uint32_t *xmark;    /* per buffer: epoch at which it became an obstacle */
    uint32_t epoch;
    uint32_t *list;     /* violators */
    uint32_t *cand;     /* window candidates ... */
    uint32_t *cord;     /* ... in the order taken ... */
    uint64_t *ckey;     /* ... by this key */
    uint32_t *tmp;      /* sort scratch (n) */
    uint32_t *part;     /* per buffer: its part (NIL: fixed or empty) */
    uint32_t *pids;     /* free sized buffers by first step, grouped by part */
    uint32_t *pstart;   /* part k is pids[pstart[k], pstart[k + 1]) */
    size_t *parena;     /* per part: the largest end of its buffers */
    uint8_t *pdone;     /* per part: 1 solved (exactly, within its budget), 2 proven optimal */
    size_t *boff;       /* best's plan, when the windows hand over to it */
    uint32_t np;
    /* the sub-problem: free buffers first, obstacles after */
    ta_request *sr;
    size_t *so, *sbest, *scur;
    uint32_t *sid, *sord, *stmp;
    uint64_t *skey;
    uint32_t kf, kx;
    uint32_t pf;        /* pf_of(n) */
    ta__placer sp;
    void *sub;
    size_t sub_bytes;
    /* limits */
    const ta_plan_options *opt;
    uint64_t deadline, spent, work_cap, rng;
    bool stop;
} lg_mem;

/* ---- scratch ------------------------------------------------------------ */

/* What ta_plan_run needs for the optimal strategy on any sub-problem of at
 * most LG_PART_FREE free buffers and LG_SUB_FIXED fixed ones: the search
 * state for the worst counts of that shape (every pair overlapping), best's
 * scratch, the bound's and the check's. */
static size_t sub_need(const lg_mem *L) {
    opt_counts c;
    memset(&c, 0, sizeof c);
    size_t m = LG_PART_FREE, x = LG_SUB_FIXED, k = LG_SUB_MAX;
    c.m = m;
    c.nfx = x;
    c.pairs = m * (m - 1) / 2;
    c.members = 2 * m * m;
    c.itfx = x * m;
    c.secfx = x * (2 * m + 1);
    size_t want = m * 1024, e = 1u << 12;
    while (e < want && e < (1u << 20)) e <<= 1;
    c.memo = e;
    c.search = true;
    size_t best_need = 0;
    ta_strategy_find("best")->scratch_bytes(NULL, k, NULL, &best_need);
    ta__bump b;
    opt_mem M;
    ta__bump_init(&b, NULL, 0);
    ta__bump_take(&b, best_need, 1);
    ta__opt_carve(&b, &c, &M);
    size_t need = ta__bump_need(&b);
    need = TA_MAX(need, ta_plan_bound_overlaps_scratch_bytes(k, 0));
    need = TA_MAX(need, ta_plan_check_overlaps_scratch_bytes(k, 0));
    return need;
}

static void carve(ta__bump *b, size_t n, lg_mem *L) {
    L->pf = pf_of(n);
    memset(&L->gp, 0, sizeof L->gp);
    memset(&L->sp, 0, sizeof L->sp);
    ta__placer_carve(&L->gp, b, n);
    L->fmark = ta__bump_take(b, n, sizeof(uint32_t));
    L->xmark = ta__bump_take(b, n, sizeof(uint32_t));
    L->list = ta__bump_take(b, n, sizeof(uint32_t));
    L->cand = ta__bump_take(b, n, sizeof(uint32_t));
    L->cord = ta__bump_take(b, n, sizeof(uint32_t));
    L->ckey = ta__bump_take(b, n, sizeof(uint64_t));
    L->tmp = ta__bump_take(b, n, sizeof(uint32_t));
    L->part = ta__bump_take(b, n, sizeof(uint32_t));
    L->pids = ta__bump_take(b, n, sizeof(uint32_t));
    L->pstart = ta__bump_take(b, n + 1, sizeof(uint32_t));
    L->parena = ta__bump_take(b, n, sizeof(size_t));
    L->pdone = ta__bump_take(b, n, 1);
    L->boff = ta__bump_take(b, n, sizeof(size_t));
    L->sr = ta__bump_take(b, LG_SUB_MAX, sizeof(ta_request));
    L->so = ta__bump_take(b, LG_SUB_MAX, sizeof(size_t));
    L->sbest = ta__bump_take(b, LG_SUB_MAX, sizeof(size_t));
    L->scur = ta__bump_take(b, LG_SUB_MAX, sizeof(size_t));
    L->sid = ta__bump_take(b, LG_SUB_MAX, sizeof(uint32_t));
    L->sord = ta__bump_take(b, LG_SUB_MAX, sizeof(uint32_t));
    L->stmp = ta__bump_take(b, LG_SUB_MAX, sizeof(uint32_t));
    L->skey = ta__bump_take(b, LG_SUB_MAX, sizeof(uint64_t));
    ta__placer_carve(&L->sp, b, LG_SUB_MAX);
    L->sub_bytes = sub_need(L);
    L->sub = ta__bump_take(b, L->sub_bytes, 1);
}

size_t ta__opt_large_bytes(size_t n) {
    ta__bump b;
    lg_mem L;
    memset(&L, 0, sizeof L);
    ta__bump_init(&b, NULL, 0);
    carve(&b, n, &L);
    return ta__bump_need(&b);
}

/* ---- helpers ------------------------------------------------------------ */

static bool is_free(const ta_request *r) { return !ta__is_fixed(r) && ta_request_padded(r) > 0; }

static size_t end_of(const lg_mem *L, uint32_t i) { return L->off[i] + L->gp.pad[i]; }

static uint64_t next_rng(lg_mem *L) { return ta__rng_next(&L->rng); }

static bool out_of_time(lg_mem *L) {
    if (L->stop) return true;
    if (L->spent >= L->work_cap) L->stop = true;
    else if (L->opt && L->opt->clock && L->opt->clock(L->opt->clock_ctx) >= L->deadline) L->stop = true;
    return L->stop;
}

static void new_epoch(lg_mem *L) {
    if (++L->epoch == 0) {
        memset(L->fmark, 0, L->n * sizeof *L->fmark);
        memset(L->xmark, 0, L->n * sizeof *L->xmark);
        L->epoch = 1;
    }
}

/* Sorts ids[0..k) by key descending (stable). */
static int cmp_key_desc(uint32_t a, uint32_t b, const void *ctx) {
    const uint64_t *key = ctx;
    return (key[a] < key[b]) - (key[a] > key[b]);
}

/* (violators above C, bytes above C) of the window's free buffers at offsets o. */
static void score(const lg_mem *L, const size_t *o, size_t C, uint32_t *viol, uint64_t *exc) {
    *viol = 0;
    *exc = 0;
    for (uint32_t j = 0; j < L->kf; j++) {
        size_t e = o[j] + L->sp.pad[j];
        if (e > C) {
            ++*viol;
            *exc += e - C;
        }
    }
}

/* The sub-problem of the window: sr[0..kf) are the free buffers sid[0..kf)
 * (the caller put them there), sr[kf..kf+kx) the obstacles: every other
 * sized buffer live beside one of them, fixed at its offset, its lifetime
 * clipped to the window's.  Returns false when there are too many. */
static bool add_obstacles(lg_mem *L) {
    int32_t a = INT32_MAX, z = INT32_MIN;
    for (uint32_t j = 0; j < L->kf; j++) {
        const ta_request *r = &L->reqs[L->sid[j]];
        a = TA_MIN(a, r->first);
        z = TA_MAX(z, r->last);
    }
    L->kx = 0;
    for (uint32_t j = 0; j < L->kf; j++) {
        size_t k = ta__placer_overlapping(&L->gp, L->sid[j], false);
        L->spent += k + 1;
        for (size_t h = 0; h < k; h++) {
            uint32_t u = L->gp.hits[h];
            if (L->fmark[u] == L->epoch || L->xmark[u] == L->epoch) continue;
            if (L->kf + L->kx >= LG_SUB_MAX) return false;
            L->xmark[u] = L->epoch;
            uint32_t s = L->kf + L->kx++;
            L->sid[s] = u;
            ta_request r = L->reqs[u];
            r.fixed = L->off[u];
            r.first = TA_MAX(r.first, a);
            r.last = TA_MIN(r.last, z);
            L->sr[s] = r;
        }
    }
    return true;
}

static void load_free(lg_mem *L) {
    for (uint32_t j = 0; j < L->kf; j++) L->sr[j] = L->reqs[L->sid[j]];
}

/* One placement run of the window: obstacles first (at their offsets),
 * then the free buffers in order ord[0..kf) (indices into the window). */
static void run_order(lg_mem *L, const uint32_t *ord, ta__fit fit) {
    uint32_t k = L->kf + L->kx, *seq = L->stmp;
    for (uint32_t j = 0; j < L->kx; j++) seq[j] = L->kf + j;
    for (uint32_t j = 0; j < L->kf; j++) seq[L->kx + j] = ord[j];
    ta__placer_reset(&L->sp);
    L->sp.work = 0;
    ta__placer_run(&L->sp, seq, k, fit);
    L->spent += L->sp.work + k;
}

static void write_back(lg_mem *L, const size_t *o) {
    for (uint32_t j = 0; j < L->kf; j++) L->off[L->sid[j]] = o[j];
}

/* The exact search on the sub-problem sr[0..kf+kx) from its current
 * offsets, with `nodes` search nodes and at most `secs` of the clock.
 * Leaves the plan in sbest; returns false on any failure (then sbest is
 * not used).  *proven receives the search's lower bound, *opt_proof
 * whether it proved its arena optimal. */
static bool exact(lg_mem *L, uint64_t nodes, double secs, size_t *proven, bool *opt_proof) {
    uint32_t k = L->kf + L->kx;
    for (uint32_t j = 0; j < k; j++) L->scur[j] = j < L->kf ? L->off[L->sid[j]] : L->sr[j].fixed;
    opt_counts c;
    ta__opt_layout(L->sr, k, &c);
    if (!c.search) return false; /* (never for these sizes: kept as a guard) */
    ta_plan_options so;
    memset(&so, 0, sizeof so);
    so.flags = L->opt ? L->opt->flags : 0;
    so.start = L->scur;
    so.work_limit = nodes ? nodes : 1;
    so.time_limit_s = secs > 1e-6 ? secs : 1e-6;
    if (L->opt && L->opt->clock) {
        so.clock = L->opt->clock;
        so.clock_ctx = L->opt->clock_ctx;
    }
    ta_plan_result r;
    ta_status st = ta_plan_run(&ta__strategy_optimal, L->sr, k, &so, L->sub, L->sub_bytes, L->sbest, &r, NULL);
    if (st) return false;
    L->spent += r.work + k;
    *proven = r.proven_bytes;
    *opt_proof = r.proof == TA_PROOF_OPTIMAL;
    return true;
}

static double secs_left(const lg_mem *L) {
    if (!L->opt || !L->opt->clock) return 1e6;
    uint64_t now = L->opt->clock(L->opt->clock_ctx);
    return now >= L->deadline ? 0.0 : (double)(L->deadline - now) * 1e-6;
}

/* ---- 1. time cuts ------------------------------------------------------- */

/* Groups the free sized buffers of by_first[0..n) (every buffer, sorted by
 * first step) into parts: a part ends where none of its buffers is live
 * past the next one's first step.  Fixed and empty buffers get NIL and
 * stay out (they never stop a cut).  pids receives the free buffers by
 * part, pstart (np + 1 entries) where each part starts; returns np. */
static uint32_t group_parts(const ta_request *reqs, const uint32_t *by_first, size_t n, uint32_t *of, uint32_t *pids,
                            uint32_t *pstart) {
    uint32_t k = 0, np = 0;
    int32_t reach = INT32_MIN;
    for (size_t t = 0; t < n; t++) {
        uint32_t i = by_first[t];
        of[i] = NIL;
        if (!is_free(&reqs[i])) continue;
        if (k == 0 || reqs[i].first > reach) pstart[np++] = k;
        reach = k == 0 ? reqs[i].last : TA_MAX(reach, reqs[i].last);
        pids[k++] = i;
        of[i] = np - 1;
    }
    pstart[np] = k;
    return np;
}

uint32_t ta__opt_large_parts(const ta_request *reqs, size_t n, uint32_t *of, uint32_t *ids) {
    ta__iota(ids, n);
    ta__sort_by_step(ids, n, reqs, false, ids + n);
    /* (pids and pstart go to the second half, which the sort is done with) */
    uint32_t *pids = ids + n, *pstart = ids + 2 * n;
    return group_parts(reqs, ids, n, of, pids, pstart);
}

/* The parts of the problem and each one's arena. */
static void find_parts(lg_mem *L) {
    L->np = group_parts(L->reqs, L->gp.tree, L->n, L->part, L->pids, L->pstart);
    for (uint32_t q = 0; q < L->np; q++) {
        size_t a = 0;
        for (uint32_t x = L->pstart[q]; x < L->pstart[q + 1]; x++) a = TA_MAX(a, end_of(L, L->pids[x]));
        L->parena[q] = a;
        L->pdone[q] = 0;
    }
}

/* Solves the parts at the top exactly while they are small; returns the
 * proven lower bound of the whole it found (0: none). */
static size_t solve_parts(lg_mem *L, size_t top_fixed) {
    size_t proven = 0;
    while (!out_of_time(L)) {
        uint32_t p = NIL;
        size_t top = top_fixed, done_top = 0;
        for (uint32_t q = 0; q < L->np; q++) {
            if (L->pdone[q]) done_top = TA_MAX(done_top, L->parena[q]);
            else if (p == NIL || L->parena[q] > L->parena[p]) p = q;
            top = TA_MAX(top, L->parena[q]);
        }
        if (p == NIL || L->parena[p] < top || done_top >= top) break;
        uint32_t cnt = L->pstart[p + 1] - L->pstart[p];
        L->pdone[p] = 1;
        if (cnt > LG_PART_FREE) break; /* the largest part is big: windows do it */
        new_epoch(L);
        L->kf = cnt;
        for (uint32_t j = 0; j < cnt; j++) {
            L->sid[j] = L->pids[L->pstart[p] + j];
            L->fmark[L->sid[j]] = L->epoch;
        }
        load_free(L);
        if (!add_obstacles(L)) continue;
        uint64_t left = L->work_cap - L->spent;
        size_t pb = 0;
        bool is_opt = false;
        if (!exact(L, left / 2, secs_left(L) / 2, &pb, &is_opt)) continue;
        write_back(L, L->sbest);
        size_t a = 0;
        for (uint32_t j = 0; j < cnt; j++) a = TA_MAX(a, end_of(L, L->sid[j]));
        L->parena[p] = a;
        proven = TA_MAX(proven, pb);
        if (is_opt) L->pdone[p] = 2;
    }
    /* a part proven optimal is never a window's */
    for (uint32_t q = 0; q < L->np; q++)
        if (L->pdone[q] == 2)
            for (uint32_t x = L->pstart[q]; x < L->pstart[q + 1]; x++) L->part[L->pids[x]] = NIL;
    return proven;
}

/* ---- 2. windows --------------------------------------------------------- */

static bool movable(const lg_mem *L, uint32_t u) { return L->part[u] != NIL; }

/* Frees v and the first `take` candidates (in cord order) into the window
 * and loads them; every other buffer stays an obstacle. */
static void load_window(lg_mem *L, uint32_t v, uint32_t take) {
    new_epoch(L);
    L->kf = 0;
    L->sid[L->kf++] = v;
    L->fmark[v] = L->epoch;
    for (uint32_t c = 0; c < take; c++) {
        uint32_t u = L->cand[L->cord[c]];
        L->sid[L->kf++] = u;
        L->fmark[u] = L->epoch;
    }
    load_free(L);
}

/* Builds the window around violator v (mode: see LG_MODES) into sid /
 * sr; returns false when it cannot be built. */
/* A slab: v and every movable buffer whose whole lifetime lies within
 * rad steps of v's, up to LG_PART_FREE, the nearest the top first; the
 * buffers crossing the slab's edges are its obstacles. */
static bool build_slab(lg_mem *L, uint32_t v, int32_t rad) {
    new_epoch(L);
    const ta_request *rv = &L->reqs[v];
    int64_t wa = (int64_t)rv->first - rad, wz = (int64_t)rv->last + rad;
    /* gp.tree is every buffer by first step: the first one at or after wa */
    size_t lo = 0, hi = L->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((int64_t)L->reqs[L->gp.tree[mid]].first < wa) lo = mid + 1;
        else hi = mid;
    }
    uint32_t nc = 0;
    L->fmark[v] = L->epoch;
    for (size_t t = lo; t < L->n && (int64_t)L->reqs[L->gp.tree[t]].first <= wz; t++) {
        uint32_t u = L->gp.tree[t];
        L->spent++;
        if (u == v || !movable(L, u) || (int64_t)L->reqs[u].last > wz) continue;
        L->ckey[nc] = ((uint64_t)end_of(L, u) << 8) | (next_rng(L) & 0xFF);
        L->cord[nc] = nc;
        L->cand[nc++] = u;
    }
    ta__sort_ids(L->cord, nc, cmp_key_desc, L->ckey, L->tmp);
    uint32_t take = TA_MIN(nc, LG_PART_FREE - 1);
    load_window(L, v, take);
    return add_obstacles(L);
}

static bool build_window(lg_mem *L, uint32_t v, uint32_t mode, size_t C) {
    if (mode >= 3 && mode <= 5) return build_slab(L, v, mode == 3 ? 4 : mode == 4 ? 12 : 32);
    new_epoch(L);
    uint32_t cap = TA_MIN(mode == 0 ? LG_WIN_NARROW : mode == 6 ? LG_PART_FREE : LG_WIN_WIDE, LG_PART_FREE);
    int32_t rad = mode == 1 ? 2 : mode == 2 ? 8 : 64;
    const ta_request *rv = &L->reqs[v];
    int64_t wa = (int64_t)rv->first - rad, wz = (int64_t)rv->last + rad;
    /* candidates: the violator's time neighbours, and in the wide modes
     * theirs within rad steps of it */
    uint32_t nc = 0;
    L->fmark[v] = L->epoch;
    size_t k = ta__placer_overlapping(&L->gp, v, false);
    L->spent += k + 1;
    for (size_t h = 0; h < k; h++) {
        uint32_t u = L->gp.hits[h];
        if (L->fmark[u] == L->epoch || !movable(L, u)) continue;
        L->fmark[u] = L->epoch;
        L->cand[nc++] = u;
    }
    if (mode > 0) {
        uint32_t n1 = nc;
        for (uint32_t c = 0; c < n1 && nc < 8 * cap; c++) {
            k = ta__placer_overlapping(&L->gp, L->cand[c], false);
            L->spent += k + 1;
            for (size_t h = 0; h < k && nc < 8 * cap; h++) {
                uint32_t u = L->gp.hits[h];
                const ta_request *r = &L->reqs[u];
                if (L->fmark[u] == L->epoch || !movable(L, u)) continue;
                if ((int64_t)r->last < wa || (int64_t)r->first > wz) continue;
                L->fmark[u] = L->epoch;
                L->cand[nc++] = u;
            }
        }
    }
    /* the nearest the top first: those are what must move (ties: the
     * violators, then a seeded coin, so passes differ) */
    for (uint32_t c = 0; c < nc; c++) {
        uint32_t u = L->cand[c];
        L->ckey[c] = ((uint64_t)end_of(L, u) << 8) | (next_rng(L) & 0xFF);
        L->cord[c] = c;
    }
    uint32_t take = TA_MIN(nc, cap - 1);
    ta__sort_ids(L->cord, nc, cmp_key_desc, L->ckey, L->tmp);
    /* the rest go back to being obstacles */
    load_window(L, v, take);
    if (!add_obstacles(L)) return false;
    /* obstacles above C cannot let the window go below it: take them in
     * while there is room (one round: their own neighbours stay fixed) */
    uint32_t more = 0;
    for (uint32_t j = 0; j < L->kx && L->kf + more < cap; j++) {
        uint32_t u = L->sid[L->kf + j];
        if (end_of(L, u) > C && movable(L, u)) L->cand[more++] = u;
    }
    if (more) {
        for (uint32_t j = 0; j < more; j++) L->sid[L->kf++] = L->cand[j];
        new_epoch(L);
        for (uint32_t j = 0; j < L->kf; j++) L->fmark[L->sid[j]] = L->epoch;
        load_free(L);
        if (!add_obstacles(L)) return false;
    }
    return true;
}

/* Re-packs the window; keeps the best re-pack that improves (violators,
 * bytes above C) with nothing above A.  Returns true when it improved. */
static bool repack(lg_mem *L, size_t C, size_t A, uint32_t mode) {
    uint32_t k = L->kf + L->kx, kf = L->kf;
    for (uint32_t j = 0; j < k; j++) L->so[j] = j < kf ? L->off[L->sid[j]] : L->sr[j].fixed;
    ta__placer_init(&L->sp, L->sr, k, L->so);
    uint32_t v0;
    uint64_t e0;
    /* (sp.pad is filled by init; score reads it) */
    score(L, L->so, C, &v0, &e0);
    for (uint32_t j = 0; j < kf; j++) L->sbest[j] = L->so[j];
    uint32_t bv = v0;
    uint64_t be = e0;
    bool better = false;
    uint32_t *ord = L->sord;
    for (uint32_t t = 0; t < 8 && !out_of_time(L); t++) {
        for (uint32_t j = 0; j < kf; j++) ord[j] = j;
        if (t == 0 || t == 1) { /* by offset: gravity, keeping the order */
            for (uint32_t j = 0; j < kf; j++) L->skey[j] = UINT64_MAX - L->off[L->sid[j]];
        } else if (t == 2 || t == 3) { /* largest first */
            for (uint32_t j = 0; j < kf; j++) L->skey[j] = L->sp.pad[j];
        } else if (t == 4) { /* violators first, largest first */
            for (uint32_t j = 0; j < kf; j++)
                L->skey[j] = ((uint64_t)(L->off[L->sid[j]] + L->sp.pad[j] > C) << 62) | L->sp.pad[j];
        } else { /* seeded shuffles */
            for (uint32_t j = 0; j < kf; j++) L->skey[j] = next_rng(L);
        }
        ta__sort_ids(ord, kf, cmp_key_desc, L->skey, L->stmp);
        run_order(L, ord, (t & 1) ? TA_FIT_BEST : TA_FIT_FIRST);
        uint32_t vv;
        uint64_t ee;
        size_t top = 0;
        for (uint32_t j = 0; j < kf; j++) top = TA_MAX(top, L->so[j] + L->sp.pad[j]);
        score(L, L->so, C, &vv, &ee);
        if (top <= A && (vv < bv || (vv == bv && ee < be))) {
            bv = vv;
            be = ee;
            better = true;
            for (uint32_t j = 0; j < kf; j++) L->sbest[j] = L->so[j];
            if (!vv) break;
        }
    }
    if (better) {
        write_back(L, L->sbest);
        return true;
    }
    /* nothing greedy does: the exact search on the window, when it is
     * small and nothing fixed in it is above C */
    if (mode == 0 || k > LG_EXACT_WIN || out_of_time(L)) return false;
    for (uint32_t j = 0; j < L->kx; j++)
        if (L->sr[kf + j].fixed + L->sp.pad[kf + j] > C) return false;
    size_t pb;
    bool is_opt;
    uint64_t left = L->work_cap - L->spent;
    uint64_t nodes = TA_MIN(left, (uint64_t)LG_EXACT_NODES * kf);
    if (!exact(L, nodes, secs_left(L), &pb, &is_opt)) return false;
    uint32_t vv;
    uint64_t ee;
    score(L, L->sbest, C, &vv, &ee);
    if (vv < v0 || (vv == v0 && ee < e0)) {
        write_back(L, L->sbest);
        return true;
    }
    return false;
}

/* The local search, until the limit, the floor, or LG_IDLE passes in a
 * row without progress (then it returns true: stuck). */
static bool windows(lg_mem *L, size_t lo, size_t g, size_t proven) {
    size_t A = ta_plan_arena_bytes(L->reqs, L->n, L->off);
    size_t floor_ = TA_MAX(lo, proven);
    size_t step = TA_MAX(g, (A - TA_MIN(A, floor_)) / 8 / g * g);
    uint32_t stall = 0, idle = 0;
    while (A > floor_ && !out_of_time(L)) {
        size_t C = A - TA_MIN(A, step);
        if (C < floor_) C = floor_;
        if (C >= A) break;
        uint32_t nv = 0;
        for (size_t i = 0; i < L->n; i++)
            if (is_free(&L->reqs[i]) && end_of(L, (uint32_t)i) > C) L->list[nv++] = (uint32_t)i;
        L->spent += L->n / 16 + 1;
        bool unmovable = false;
        for (uint32_t j = 0; j < nv; j++) unmovable |= !movable(L, L->list[j]);
        if (unmovable) { /* above C inside a part proven optimal */
            if (step == g) break;
            step = TA_MAX(g, step / 2 / g * g);
            continue;
        }
        bool progress = false;
        uint32_t rot = nv ? (uint32_t)(next_rng(L) % nv) : 0;
        for (uint32_t x = 0; x < nv && !out_of_time(L); x++) {
            uint32_t v = L->list[(x + rot) % nv];
            if (end_of(L, v) <= C) continue;
            /* at the finest step the wide windows come first in turn */
            uint32_t m0 = stall % LG_MODES;
            for (uint32_t mm = 0; mm < LG_MODES && !out_of_time(L); mm++) {
                uint32_t mode = (m0 + mm) % LG_MODES;
                if (!build_window(L, v, mode, C)) continue;
                if (repack(L, C, A, mode)) {
                    progress = true;
                    break;
                }
            }
        }
        size_t a2 = ta_plan_arena_bytes(L->reqs, L->n, L->off);
        idle = progress ? 0 : idle + 1;
        if (a2 <= C) {
            A = a2;
            step = TA_MIN(step * 2, TA_MAX(g, (A - TA_MIN(A, floor_)) / 2 / g * g));
            stall = 0;
        } else if (!progress) {
            if (idle >= LG_IDLE) return true;
            if (step > g) step = TA_MAX(g, step / 2 / g * g);
            else stall++;
        }
    }
    return false;
}

/* ---- entry --------------------------------------------------------------- */

double ta__opt_large_best_share(const ta_request *reqs, size_t n) {
    /* buffers live at a step on average: lifetimes summed over the span */
    int64_t a = INT64_MAX, z = INT64_MIN;
    double steps = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_free(&reqs[i])) continue;
        a = TA_MIN(a, (int64_t)reqs[i].first);
        z = TA_MAX(z, (int64_t)reqs[i].last);
        steps += (double)((int64_t)reqs[i].last - reqs[i].first + 1);
    }
    if (z < a) return 0.5;
    return steps / (double)(z - a + 1) > LG_DENSE ? 0.875 : 0.5;
}

ta_status ta__opt_large(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *mem, size_t bytes,
                        void *best_mem, size_t best_bytes, size_t *offsets, size_t lo, size_t g, uint64_t deadline,
                        uint64_t work_cap, ta_plan_result *res) {
    ta__bump b;
    lg_mem L;
    memset(&L, 0, sizeof L);
    ta__bump_init_aligned(&b, mem, bytes);
    carve(&b, n, &L);
    if (b.fail) return TA_E_NO_MEMORY;
    L.reqs = reqs;
    L.n = n;
    L.off = offsets;
    L.opt = opt;
    L.deadline = deadline;
    L.work_cap = work_cap;
    L.rng = 0x1A2B3C4D5E6F7081ull ^ (opt ? opt->seed : 0);
    memset(L.fmark, 0, n * sizeof *L.fmark);
    memset(L.xmark, 0, n * sizeof *L.xmark);
    size_t incumbent = ta_plan_arena_bytes(reqs, n, offsets);
    ta__placer_init(&L.gp, reqs, n, offsets);
    ta__placer_reset(&L.gp);
    size_t top_fixed = 0;
    for (size_t i = 0; i < n; i++)
        if (L.gp.pad[i]) {
            ta__placer_place(&L.gp, (uint32_t)i, offsets[i]);
            if (ta__is_fixed(&reqs[i])) top_fixed = TA_MAX(top_fixed, end_of(&L, (uint32_t)i));
        }
    L.spent += n;
    find_parts(&L);
    size_t proven = lo;
    if (L.np > 1) {
        size_t pp = solve_parts(&L, top_fixed); /* (not inside TA_MAX: it evaluates twice) */
        proven = TA_MAX(proven, pp);
    }
    /* the windows; when they are stuck, best's local search from their
     * plan (its own portfolio too: it keeps the smallest), then the
     * windows again (other seeds), in turn until the limit */
    const ta_strategy *best = ta_strategy_find("best");
    while (windows(&L, lo, g, proven) && !out_of_time(&L)) {
        size_t before = ta_plan_arena_bytes(reqs, n, offsets);
        ta_plan_options bo;
        memset(&bo, 0, sizeof bo);
        if (opt) bo = *opt;
        bo.start = offsets;
        bo.work_limit = L.work_cap == UINT64_MAX ? 0 : L.work_cap - L.spent;
        bo.time_limit_s = secs_left(&L);
        ta_plan_result br = *res;
        if (best->plan(reqs, n, &bo, best_mem, best_bytes, L.boff, &br, NULL)) break;
        L.spent += br.work;
        if (ta_plan_arena_bytes(reqs, n, L.boff) < before) memcpy(offsets, L.boff, n * sizeof *offsets);
    }
    /* (windows() knows the arena at its last full pass; a pass cut short
     * by the limit may have lowered it since) */
    size_t A = ta_plan_arena_bytes(reqs, n, offsets);
    res->work += L.spent;
    ta__opt_conclude(res, proven, A, incumbent);
    return TA_OK;
}
