/* optimal: an exact planner.  It proves the smallest arena, or reports the
 * gap it could not close within its limit.
 *
 * The search follows the ideas of MiniMalloc (Moffitt, ASPLOS 2024): a
 * depth-first search over *canonical* solutions, in which buffers are placed
 * in order of increasing offset, each at the lowest offset its already-placed
 * neighbours allow.  Any plan can be pushed down ("gravity") until it has
 * that form without growing, so searching canonical plans loses nothing.
 *
 * Steps of plan():
 *  1. Incumbent: the `best` heuristic's plan (so we never return worse).
 *  2. Bounds: lo = the most bytes live at one step, or more precisely per
 *     time section the free bytes live there plus the bytes fixed buffers
 *     cover there, and the end of every fixed buffer; rounded up to g, the
 *     gcd of every size, alignment and fixed offset (every canonical offset,
 *     hence the optimum, is a multiple of g).  hi = the incumbent.  If
 *     lo == hi we are done.
 *  3. Repeatedly decide "is there a plan within capacity C?" with a node
 *     budget, for C = lo first (tight capacities prune hardest and are where
 *     the answer usually is), then C = hi - g to improve the incumbent.  A
 *     found plan lowers hi; an exhausted search raises lo -- not just by g
 *     but to the smallest capacity at which any pruning test of that search
 *     would have passed (the IDA* trick: below it the search tree, and so its
 *     answer, is identical).  Budgets double after each round, and the round
 *     rotates through three static tie-break orders, because solver time is
 *     not monotone in C nor stable across orders.
 *  4. Report OPTIMAL when lo meets hi; otherwise GAP (the search improved on
 *     the incumbent) or TIMEOUT (it did not), with proven_bytes = lo.
 *
 * Limits: opt->time_limit_s (default 10 s) against opt->clock covers the
 * whole call, best's incumbent included (best gets half of it, or all of
 * it when the problem is too large to search);
 * opt->work_limit caps search nodes (best gets the same options and reads
 * work_limit as its own placement budget); with neither a clock
 * nor a work limit, time_limit_s x OPT_NODES_PER_S nodes.  res->work is
 * best's work plus the search nodes.
 *
 * The decision search (decide()):
 *   - state: for every unplaced buffer u, mo[u] = the lowest aligned offset
 *     above every placed neighbour that avoids the fixed buffers; per time
 *     section, the bytes still unplaced and the lowest mo among them;
 *   - a node picks the unplaced buffer with the smallest (mo, preorder rank)
 *     that is not below the previous placement (canonical order), places it
 *     at mo, and recurses;
 *   - dominance: a candidate at or above min(mo + size) over the unplaced
 *     buffers is skipped -- that buffer could drop into the gap below, so a
 *     smaller canonical plan exists elsewhere in the tree;
 *   - section bound: in every section, the unplaced bytes must fit between
 *     max(current offset, lowest mo there) and C (minus fixed buffers);
 *   - decomposition: when no unplaced buffer crosses a time cut, the two
 *     sides are independent; they are solved one after the other, and once
 *     a side is solved its choices are never revisited (a failure on the
 *     other side fails the node that split them);
 *   - memo: a failed partition state (unplaced set, their mo, the canonical
 *     floor) is remembered with the capacity below which it always fails.
 *
 * Fixed buffers are obstacles (pre-placed); the canonical position of a free
 * buffer is the lowest gap above its placed neighbours that clears them.
 * Zero-size buffers sit at 0 and take no part.  Everything is deterministic:
 * the search order depends only on the input and node counts; the clock only
 * decides when to stop.
 */
#include <string.h>

#include "core/core.h"

#define NIL UINT32_MAX
#define NONE SIZE_MAX
/* Problems with more sized buffers than this are not searched: the result
 * is best's plan, reported as a timeout at the incumbent.  Keeps scratch
 * sizing (which counts overlaps pairwise) and memory bounded. */
#define OPT_MAX_ITEMS 4096u
/* ... nor those with more overlapping pairs: overlap lists and the undo
 * trail grow with them (about 20 bytes a pair). */
#define OPT_MAX_PAIRS (1u << 20)
/* ... nor those whose search state would take more scratch than this. */
#define OPT_MAX_SCRATCH ((size_t)64 << 20)
#define OPT_HEURISTICS 3u
/* Search nodes per second assumed when there is no clock: the deterministic
 * work limit is time_limit_s times this. */
#define OPT_NODES_PER_S 1000000.0

/* A partition: a range of time sections whose unplaced buffers are solved
 * together.  The agenda is a linked stack of them in a pool that grows and
 * shrinks with the search depth, so undo is restoring two indices. */
typedef struct {
    uint32_t lo, hi;    /* sections [lo, hi) */
    uint32_t count;     /* unplaced buffers in it */
    uint32_t next;      /* next partition on the agenda */
    uint32_t start;     /* first frame that belongs to it (NIL: when it becomes current) */
    uint32_t floor_pre; /* canonical floor its first placement must exceed */
    size_t floor_off;
} part;

typedef struct {
    uint32_t head;     /* agenda head at entry (after popping completed partitions) */
    uint32_t pool_top; /* pool top at entry */
    uint32_t trail;    /* trail top before this frame's placement */
    uint32_t item;     /* placed buffer (NIL: none yet) */
    uint32_t last_pre; /* last tried candidate key (mo, pre) */
    uint32_t floor_pre;
    size_t last_mo, floor_off;
    size_t min_height; /* dominance bound at this node */
    size_t thr;        /* fails for every capacity below this */
    uint64_t key1, key2;
    bool cut;          /* no more alternatives: its partition was completed below */
} frame;

typedef struct {
    uint64_t key; /* 0: empty */
    uint64_t thr;
} memo_ent;

typedef struct {
    size_t m, nfx, pairs, members, itfx, secfx, memo;
    bool search;
} opt_counts;

typedef struct {
    /* problem (items = free buffers with a size, in input order) */
    const ta_request *reqs;
    uint32_t m, ns, nfx;
    uint32_t *id;               /* request index of item */
    size_t *size, *align;       /* padded size, alignment */
    uint32_t *lo, *hi;          /* sections [lo, hi) the item is live in */
    uint32_t *pre;              /* preorder rank (1..m) under the current heuristic */
    uint32_t *by_lo, *lo_start; /* items sorted by lo; first index per section */
    uint32_t *ov_start, *ov;    /* overlapping items (CSR) */
    uint32_t *sm_start, *sm;    /* items live in each section (CSR) */
    size_t *fx_off, *fx_end;    /* fixed buffers with a size */
    uint32_t *ifx_start, *ifx;  /* per item: overlapping fixed ones by offset */
    uint32_t *sfx_start, *sfx;  /* per section: fixed ones live in it by offset */
    uint32_t *fx_id;            /* request index of fixed buffer j */
    int64_t *pts, *pts_tmp;     /* section boundaries (time points) */
    uint64_t *k_tot, *k_w, *k_area; /* preorder keys */
    uint32_t *order, *tmp;
    /* search state */
    size_t *off, *mo, *total, *minmo;
    uint32_t *cut;
    uint32_t *nbr;              /* per item: unplaced items overlapping it */
    uint32_t *tr_item;
    size_t *tr_old;
    uint32_t tr_top;
    uint32_t *mark, epoch, *aff, naff;
    uint32_t *zc;
    frame *fr;
    part *pool;
    uint32_t pool_top, head;
    memo_ent *memo;
    size_t memo_mask;
    uint32_t heur;
    size_t *sol;
    /* limits */
    uint64_t nodes, node_cap;
    const ta_plan_options *opt;
    uint64_t deadline;
    bool timed_out;
} opt_mem;

/* ---- sizing ---------------------------------------------------------- */

static bool is_item(const ta_request *r) { return !ta__is_fixed(r) && ta_request_padded(r) > 0; }
static bool is_fx(const ta_request *r) { return ta__is_fixed(r) && ta_request_padded(r) > 0; }

/* Exact or upper-bound counts for every variable-size array.  Pairwise, so
 * O(n^2), which is why the search is capped at OPT_MAX_ITEMS. */
static void count_sizes(const ta_request *r, size_t n, opt_counts *c) {
    memset(c, 0, sizeof *c);
    size_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        c->m += is_item(&r[i]);
        c->nfx += is_fx(&r[i]);
        sum = ta__add_sat(sum, ta_request_padded(&r[i]));
        if (ta__is_fixed(&r[i])) sum = ta__add_sat(sum, r[i].fixed);
    }
    /* Search only when the pairwise counting below stays cheap and no sum
     * of sizes and offsets can come near overflowing size_t. */
    c->search = c->m > 0 && c->m + c->nfx <= OPT_MAX_ITEMS && n <= 4 * (size_t)OPT_MAX_ITEMS &&
                sum < SIZE_MAX / 4;
    if (!c->search) return;
    for (size_t i = 0; i < n; i++) {
        bool item = is_item(&r[i]);
        if (!item && !is_fx(&r[i])) continue;
        int64_t f = r[i].first, l = r[i].last;
        size_t pts = 0; /* time points (with multiplicity) inside [f, l] or (f, l+1) */
        for (size_t j = 0; j < n; j++) {
            if (!is_item(&r[j])) continue;
            int64_t a = r[j].first, b = (int64_t)r[j].last + 1;
            if (item) {
                pts += (a >= f && a <= l) + (b >= f && b <= l);
                if (j > i && ta__time_overlap(&r[i], &r[j])) c->pairs++;
            } else {
                pts += (a > f && a <= l) + (b > f && b <= l);
                if (ta__time_overlap(&r[i], &r[j])) c->itfx++;
            }
        }
        if (item) c->members += pts;
        else c->secfx += pts + 1;
    }
    if (c->pairs > OPT_MAX_PAIRS) {
        c->search = false;
        return;
    }
    size_t want = c->m * 1024, e = 1u << 12;
    while (e < want && e < (1u << 20)) e <<= 1;
    c->memo = e;
}

static void carve(ta__bump *b, const opt_counts *c, opt_mem *M) {
    size_t m = c->m, ns = 2 * m + 1, nfx = c->nfx;
    M->id = ta__bump_take(b, m, sizeof(uint32_t));
    M->size = ta__bump_take(b, m, sizeof(size_t));
    M->align = ta__bump_take(b, m, sizeof(size_t));
    M->lo = ta__bump_take(b, m, sizeof(uint32_t));
    M->hi = ta__bump_take(b, m, sizeof(uint32_t));
    M->pre = ta__bump_take(b, m, sizeof(uint32_t));
    M->by_lo = ta__bump_take(b, m, sizeof(uint32_t));
    M->lo_start = ta__bump_take(b, ns + 1, sizeof(uint32_t));
    M->ov_start = ta__bump_take(b, m + 1, sizeof(uint32_t));
    M->ov = ta__bump_take(b, 2 * c->pairs + 1, sizeof(uint32_t));
    M->sm_start = ta__bump_take(b, ns + 1, sizeof(uint32_t));
    M->sm = ta__bump_take(b, c->members + 1, sizeof(uint32_t));
    M->fx_off = ta__bump_take(b, nfx + 1, sizeof(size_t));
    M->fx_end = ta__bump_take(b, nfx + 1, sizeof(size_t));
    M->ifx_start = ta__bump_take(b, m + 1, sizeof(uint32_t));
    M->ifx = ta__bump_take(b, c->itfx + 1, sizeof(uint32_t));
    M->sfx_start = ta__bump_take(b, ns + 1, sizeof(uint32_t));
    M->sfx = ta__bump_take(b, c->secfx + 1, sizeof(uint32_t));
    M->fx_id = ta__bump_take(b, nfx + 1, sizeof(uint32_t));
    M->pts = ta__bump_take(b, 2 * m, sizeof(int64_t));
    M->pts_tmp = ta__bump_take(b, 2 * m, sizeof(int64_t));
    M->k_tot = ta__bump_take(b, m, sizeof(uint64_t));
    M->k_w = ta__bump_take(b, m, sizeof(uint64_t));
    M->k_area = ta__bump_take(b, m, sizeof(uint64_t));
    M->order = ta__bump_take(b, 2 * m + nfx + 1, sizeof(uint32_t));
    M->tmp = ta__bump_take(b, 2 * m + nfx + 1, sizeof(uint32_t));
    M->off = ta__bump_take(b, m, sizeof(size_t));
    M->mo = ta__bump_take(b, m, sizeof(size_t));
    M->total = ta__bump_take(b, ns, sizeof(size_t));
    M->minmo = ta__bump_take(b, ns, sizeof(size_t));
    M->cut = ta__bump_take(b, ns, sizeof(uint32_t));
    M->nbr = ta__bump_take(b, m, sizeof(uint32_t));
    M->tr_item = ta__bump_take(b, 2 * c->pairs + 1, sizeof(uint32_t));
    M->tr_old = ta__bump_take(b, 2 * c->pairs + 1, sizeof(size_t));
    M->mark = ta__bump_take(b, ns, sizeof(uint32_t));
    M->aff = ta__bump_take(b, ns, sizeof(uint32_t));
    M->zc = ta__bump_take(b, ns, sizeof(uint32_t));
    M->fr = ta__bump_take(b, m + 1, sizeof(frame));
    M->pool = ta__bump_take(b, 3 * m + 2, sizeof(part));
    M->memo = ta__bump_take(b, c->memo, sizeof(memo_ent));
    M->sol = ta__bump_take(b, m, sizeof(size_t));
}

/* count_sizes, then drop the search when its state would be too large. */
static void layout(const ta_request *reqs, size_t n, opt_counts *c) {
    count_sizes(reqs, n, c);
    if (!c->search) return;
    ta__bump b;
    opt_mem M;
    ta__bump_init(&b, NULL, 0);
    carve(&b, c, &M);
    if (ta__bump_need(&b) > OPT_MAX_SCRATCH) c->search = false;
}

static ta_status opt_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    const ta_strategy *best = ta_strategy_find("best");
    size_t best_need = 0;
    ta_status st = best->scratch_bytes(reqs, n, opt, &best_need);
    if (st) return st;
    opt_counts c;
    layout(reqs, n, &c);
    ta__bump b;
    opt_mem M;
    ta__bump_init(&b, NULL, 0);
    ta__bump_take(&b, best_need, 1);
    if (c.search) carve(&b, &c, &M);
    *bytes = ta__bump_need(&b);
    return *bytes == SIZE_MAX ? TA_E_OVERFLOW : TA_OK;
}

/* ---- problem setup ---------------------------------------------------- */

static int cmp_i64_ctx(uint32_t a, uint32_t b, const void *ctx) {
    const int64_t *v = ctx;
    return (v[a] > v[b]) - (v[a] < v[b]);
}

static int cmp_fx_off(uint32_t a, uint32_t b, const void *ctx) {
    const size_t *v = ctx;
    return (v[a] > v[b]) - (v[a] < v[b]);
}

/* Index of time point t in the sorted unique points (t must be present). */
static uint32_t point_index(const int64_t *pts, uint32_t np, int64_t t) {
    uint32_t lo = 0, hi = np;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pts[mid] < t) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Builds items, sections and every static list.  Steps: 1. items and fixed
 * buffers; 2. time points = every first and last+1 of an item, sorted and
 * deduplicated: section k is [pts[k], pts[k+1]); 3. item section ranges and
 * the by-lo order; 4. overlap lists; 5. section members; 6. fixed lists. */
static void setup(opt_mem *M, const ta_request *r, size_t n) {
    M->reqs = r;
    uint32_t m = 0, nfx = 0;
    uint32_t *fx_id = M->fx_id;
    for (size_t i = 0; i < n; i++) {
        if (is_item(&r[i])) {
            M->id[m] = (uint32_t)i;
            M->size[m] = ta_request_padded(&r[i]);
            M->align[m] = ta__align_of(&r[i]);
            m++;
        } else if (is_fx(&r[i])) {
            M->fx_off[nfx] = r[i].fixed;
            M->fx_end[nfx] = r[i].fixed + ta_request_padded(&r[i]);
            fx_id[nfx++] = (uint32_t)i;
        }
    }
    M->m = m;
    M->nfx = nfx;
    /* 2. points */
    int64_t *pv = M->pts, *tv = M->pts_tmp;
    uint32_t *ord = M->order;
    for (uint32_t i = 0; i < m; i++) {
        tv[2 * i] = r[M->id[i]].first;
        tv[2 * i + 1] = (int64_t)r[M->id[i]].last + 1;
    }
    for (uint32_t k = 0; k < 2 * m; k++) ord[k] = k;
    ta__sort_ids(ord, 2 * m, cmp_i64_ctx, tv, M->tmp);
    uint32_t np = 0;
    for (uint32_t k = 0; k < 2 * m; k++) {
        int64_t v = tv[ord[k]];
        if (np == 0 || v != pv[np - 1]) pv[np++] = v;
    }
    uint32_t ns = np - 1; /* np >= 2 since m >= 1 and last+1 > first */
    M->ns = ns;
    /* 3. ranges */
    for (uint32_t i = 0; i < m; i++) {
        const ta_request *q = &r[M->id[i]];
        M->lo[i] = point_index(pv, np, q->first);
        M->hi[i] = point_index(pv, np, (int64_t)q->last + 1);
    }
    for (uint32_t s = 0; s <= ns; s++) M->lo_start[s] = 0;
    for (uint32_t i = 0; i < m; i++) M->lo_start[M->lo[i] + 1]++;
    for (uint32_t s = 0; s < ns; s++) M->lo_start[s + 1] += M->lo_start[s];
    {
        uint32_t *fill = M->cut; /* ns entries of scratch as cursors */
        for (uint32_t s = 0; s < ns; s++) fill[s] = M->lo_start[s];
        for (uint32_t i = 0; i < m; i++) M->by_lo[fill[M->lo[i]]++] = i;
    }
    /* 4. overlaps: two items overlap iff their section ranges intersect */
    uint32_t e = 0;
    for (uint32_t i = 0; i < m; i++) {
        M->ov_start[i] = e;
        for (uint32_t j = 0; j < m; j++)
            if (j != i && M->lo[j] < M->hi[i] && M->lo[i] < M->hi[j]) M->ov[e++] = j;
    }
    M->ov_start[m] = e;
    /* 5. section members */
    for (uint32_t s = 0; s <= ns; s++) M->sm_start[s] = 0;
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) M->sm_start[s + 1]++;
    for (uint32_t s = 0; s < ns; s++) M->sm_start[s + 1] += M->sm_start[s];
    {
        uint32_t *fill = M->cut;
        for (uint32_t s = 0; s < ns; s++) fill[s] = M->sm_start[s];
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) M->sm[fill[s]++] = i;
    }
    /* 6. fixed lists, each sorted by offset */
    uint32_t *fo = M->order; /* fixed ids sorted by offset */
    for (uint32_t j = 0; j < nfx; j++) fo[j] = j;
    ta__sort_ids(fo, nfx, cmp_fx_off, M->fx_off, M->tmp);
    e = 0;
    for (uint32_t i = 0; i < m; i++) {
        M->ifx_start[i] = e;
        for (uint32_t k = 0; k < nfx; k++) {
            uint32_t j = fo[k];
            if (ta__time_overlap(&r[M->id[i]], &r[fx_id[j]])) M->ifx[e++] = j;
        }
    }
    M->ifx_start[m] = e;
    e = 0;
    for (uint32_t s = 0; s < ns; s++) {
        M->sfx_start[s] = e;
        int64_t a = pv[s], b = pv[s + 1] - 1; /* section s is steps [a, b] */
        for (uint32_t k = 0; k < nfx; k++) {
            uint32_t j = fo[k];
            const ta_request *q = &r[fx_id[j]];
            if (q->first <= b && a <= q->last) M->sfx[e++] = j;
        }
    }
    M->sfx_start[ns] = e;
    /* scratch arrives uninitialised: the section marks must start clear */
    for (uint32_t s = 0; s < ns; s++) M->mark[s] = 0;
    M->epoch = 0;
}

/* ---- preorders -------------------------------------------------------- */

typedef struct {
    const opt_mem *M;
    uint32_t heur;
} pre_ctx;

/* Static tie-break orders (all descending, then input order), the three
 * MiniMalloc rotates through: T = the largest section total the buffer
 * sits in, W = lifetime width, A = area (size x width). */
static int cmp_pre(uint32_t a, uint32_t b, const void *vctx) {
    const pre_ctx *c = vctx;
    const opt_mem *M = c->M;
    static const char *const keys[OPT_HEURISTICS] = {"TAW", "WAT", "TWA"};
    for (const char *k = keys[c->heur]; *k; k++) {
        const uint64_t *v = *k == 'T' ? M->k_tot : *k == 'W' ? M->k_w : M->k_area;
        if (v[a] != v[b]) return v[a] > v[b] ? -1 : 1;
    }
    return (a > b) - (a < b);
}

static void preorder_keys(opt_mem *M) {
    for (uint32_t s = 0; s < M->ns; s++) M->total[s] = 0;
    for (uint32_t i = 0; i < M->m; i++)
        for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) M->total[s] += M->size[i];
    for (uint32_t i = 0; i < M->m; i++) {
        uint64_t t = 0;
        for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) t = TA_MAX(t, (uint64_t)M->total[s]);
        const ta_request *q = &M->reqs[M->id[i]];
        uint64_t w = (uint64_t)((int64_t)q->last - q->first + 1);
        M->k_tot[i] = t;
        M->k_w[i] = w;
        M->k_area[i] = M->size[i] && w > UINT64_MAX / M->size[i] ? UINT64_MAX : w * M->size[i];
    }
}

static void set_heuristic(opt_mem *M, uint32_t heur) {
    M->heur = heur;
    for (uint32_t i = 0; i < M->m; i++) M->order[i] = i;
    pre_ctx c = {M, heur};
    ta__sort_ids(M->order, M->m, cmp_pre, &c, M->tmp);
    for (uint32_t k = 0; k < M->m; k++) M->pre[M->order[k]] = k + 1; /* 0 = below all */
}

/* ---- search primitives ------------------------------------------------- */

/* Lowest offset >= a (aligned for item i) clear of the fixed buffers that
 * overlap i in time.  The list is sorted by offset, so one pass suffices: a
 * fixed buffer skipped as "above" means all later ones are above too. */
static size_t fixfit(const opt_mem *M, uint32_t i, size_t a) {
    size_t sz = M->size[i];
    for (uint32_t k = M->ifx_start[i]; k < M->ifx_start[i + 1]; k++) {
        uint32_t j = M->ifx[k];
        if (M->fx_off[j] >= a + sz) break;
        if (M->fx_end[j] > a) a = ta__align_up(M->fx_end[j], M->align[i]);
    }
    return a;
}

static void mark_range(opt_mem *M, uint32_t lo, uint32_t hi) {
    for (uint32_t s = lo; s < hi; s++)
        if (M->mark[s] != M->epoch) {
            M->mark[s] = M->epoch;
            M->aff[M->naff++] = s;
        }
}

static void begin_marks(opt_mem *M) {
    M->naff = 0;
    if (++M->epoch == 0) { /* wrapped: clear */
        for (uint32_t s = 0; s < M->ns; s++) M->mark[s] = 0;
        M->epoch = 1;
    }
}

static void recompute_minmo(opt_mem *M) {
    for (uint32_t k = 0; k < M->naff; k++) {
        uint32_t s = M->aff[k];
        size_t v = NONE;
        for (uint32_t x = M->sm_start[s]; x < M->sm_start[s + 1]; x++) {
            uint32_t u = M->sm[x];
            if (M->off[u] == NONE && M->mo[u] < v) v = M->mo[u];
        }
        M->minmo[s] = v;
    }
}

/* Bytes of [level, cap) covered by the fixed buffers of section s (their
 * union: with TA_PLAN_ALLOW_FIXED_CONFLICT they may overlap each other). */
static size_t fixed_cover(const opt_mem *M, uint32_t s, size_t level, size_t cap) {
    size_t cov = 0, reach = level;
    for (uint32_t k = M->sfx_start[s]; k < M->sfx_start[s + 1]; k++) {
        uint32_t j = M->sfx[k];
        size_t a = TA_MAX(M->fx_off[j], reach), b = TA_MIN(M->fx_end[j], cap);
        if (b > a) {
            cov += b - a;
            reach = b;
        }
    }
    return cov;
}

/* Section bound over [lo, hi) with every remaining buffer at or above `o`.
 * Returns the smallest capacity the bound could accept (<= C: passes). */
static size_t section_need(const opt_mem *M, uint32_t lo, uint32_t hi, size_t o, size_t C) {
    size_t need = 0;
    for (uint32_t s = lo; s < hi; s++) {
        if (!M->total[s]) continue;
        size_t level = TA_MAX(o, M->minmo[s]);
        size_t req = level + M->total[s];
        if (M->sfx_start[s] != M->sfx_start[s + 1]) req += fixed_cover(M, s, level, C);
        if (req > need) need = req;
    }
    return need;
}

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- the decision search ---------------------------------------------- */

enum { R_FOUND, R_INFEASIBLE, R_LIMIT };

static bool out_of_budget(opt_mem *M) {
    if (M->nodes >= M->node_cap) return true;
    if (M->opt && M->opt->clock && (M->nodes & 255) == 1 &&
        M->opt->clock(M->opt->clock_ctx) >= M->deadline) {
        M->timed_out = true;
        return true;
    }
    return false;
}

/* Resets the state to "nothing placed" and builds the initial agenda: the
 * partitions between time cuts that no buffer crosses. */
static void reset_state(opt_mem *M) {
    uint32_t m = M->m, ns = M->ns;
    for (uint32_t s = 0; s < ns; s++) {
        M->total[s] = 0;
        M->cut[s] = 0;
    }
    for (uint32_t i = 0; i < m; i++) {
        M->off[i] = NONE;
        M->mo[i] = fixfit(M, i, 0);
        M->nbr[i] = M->ov_start[i + 1] - M->ov_start[i];
        for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) M->total[s] += M->size[i];
        for (uint32_t s = M->lo[i]; s + 1 < M->hi[i]; s++) M->cut[s]++;
    }
    begin_marks(M);
    mark_range(M, 0, ns);
    recompute_minmo(M);
    M->tr_top = 0;
    /* agenda: pieces in time order, the first on top */
    M->pool_top = 0;
    M->head = NIL;
    uint32_t first = NIL, prev = NIL, a = 0;
    for (uint32_t s = 0; s < ns; s++) {
        if (s + 1 < ns && M->cut[s]) continue;
        uint32_t cnt = M->lo_start[s + 1] - M->lo_start[a];
        if (cnt) {
            part *p = &M->pool[M->pool_top];
            p->lo = a;
            p->hi = s + 1;
            p->count = cnt;
            p->next = NIL;
            p->start = NIL;
            p->floor_off = 0;
            p->floor_pre = 0;
            if (prev != NIL) M->pool[prev].next = M->pool_top;
            else first = M->pool_top;
            prev = M->pool_top++;
        }
        a = s + 1;
    }
    M->head = first;
}

/* Marks for a rescan the sections of item v whose lowest mo was `was`: v
 * held it (possibly tied) and is leaving or rising, so the minimum may rise.
 * Sections whose minimum is lower than `was` cannot change. */
static void mark_min_holder(opt_mem *M, uint32_t v, size_t was) {
    for (uint32_t s = M->lo[v]; s < M->hi[v]; s++)
        if (M->minmo[s] == was && M->mark[s] != M->epoch) {
            M->mark[s] = M->epoch;
            M->aff[M->naff++] = s;
        }
}

/* Places item u (at mo[u]) for frame F in partition P.  Returns the section
 * bound's need (<= C: the placement survives). Records zero cuts in zc. */
static size_t place(opt_mem *M, frame *F, uint32_t u, size_t C, uint32_t *nzc) {
    part *P = &M->pool[F->head];
    size_t o = M->mo[u], top = o + M->size[u];
    F->item = u;
    F->trail = M->tr_top;
    M->off[u] = o;
    P->count--;
    begin_marks(M);
    mark_min_holder(M, u, o);
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++) {
        uint32_t v = M->ov[k];
        if (M->off[v] != NONE) continue;
        M->nbr[v]--;
        size_t a = ta__align_up(top, M->align[v]);
        if (a <= M->mo[v]) continue;
        M->tr_item[M->tr_top] = v;
        M->tr_old[M->tr_top++] = M->mo[v];
        mark_min_holder(M, v, M->mo[v]);
        M->mo[v] = fixfit(M, v, a);
    }
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) M->total[s] -= M->size[u];
    uint32_t z = 0;
    for (uint32_t s = M->lo[u]; s + 1 < M->hi[u]; s++)
        if (--M->cut[s] == 0) M->zc[z++] = s;
    *nzc = z;
    recompute_minmo(M);
    return section_need(M, P->lo, P->hi, o, C);
}

/* Undoes frame F's placement.  No rescans: undoing only lowers mo values
 * and returns u to the unplaced set, so each minimum is a plain min. */
static void unplace(opt_mem *M, frame *F) {
    uint32_t u = F->item;
    M->head = F->head;
    M->pool_top = F->pool_top;
    M->pool[F->head].count++;
    M->off[u] = NONE;
    size_t mu = M->mo[u];
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) {
        M->total[s] += M->size[u];
        if (mu < M->minmo[s]) M->minmo[s] = mu;
    }
    for (uint32_t s = M->lo[u]; s + 1 < M->hi[u]; s++) M->cut[s]++;
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++)
        if (M->off[M->ov[k]] == NONE) M->nbr[M->ov[k]]++;
    while (M->tr_top > F->trail) {
        M->tr_top--;
        uint32_t v = M->tr_item[M->tr_top];
        size_t was = M->tr_old[M->tr_top];
        M->mo[v] = was;
        for (uint32_t s = M->lo[v]; s < M->hi[v]; s++)
            if (was < M->minmo[s]) M->minmo[s] = was;
    }
}

/* After frame F placed u, splits its partition at the new zero cuts when
 * that leaves at least two non-empty pieces; the pieces go on the agenda in
 * time order with the placement as their canonical floor. */
static void decompose(opt_mem *M, frame *F, uint32_t u, uint32_t nzc) {
    const part P = M->pool[F->head];
    uint32_t cnt[64], bounds[65];
    /* pieces [bounds[k], bounds[k+1]); more than 63 cuts at once: merge the
     * tail into one piece (still independent of the others, just coarser) */
    uint32_t np = 0;
    bounds[0] = P.lo;
    for (uint32_t k = 0; k < nzc && np < 63; k++) bounds[++np] = M->zc[k] + 1;
    bounds[++np] = P.hi;
    uint32_t nonempty = 0;
    for (uint32_t k = 0; k < np; k++) {
        uint32_t c = 0;
        for (uint32_t x = M->lo_start[bounds[k]]; x < M->lo_start[bounds[k + 1]]; x++)
            c += M->off[M->by_lo[x]] == NONE;
        cnt[k] = c;
        nonempty += c > 0;
    }
    if (nonempty < 2) return;
    uint32_t next = P.next, last_created = NIL;
    for (uint32_t k = np; k-- > 0;) {
        if (!cnt[k]) continue;
        part *q = &M->pool[M->pool_top];
        q->lo = bounds[k];
        q->hi = bounds[k + 1];
        q->count = cnt[k];
        q->next = next;
        q->start = last_created == NIL ? P.start : NIL; /* the last piece completes P */
        q->floor_off = M->off[u];
        q->floor_pre = M->pre[u];
        last_created = next = M->pool_top++;
    }
    M->head = next;
}

/* Is there a plan with every buffer inside [0, C)?  R_FOUND fills M->sol;
 * R_INFEASIBLE sets *thr to a capacity below which none exists. */
static int decide(opt_mem *M, size_t C, size_t *thr, size_t *arena) {
    reset_state(M);
    frame *fr = M->fr;
    uint32_t d = 0;
    frame *F;
    /* root-level section bound (no placement yet) */
    {
        size_t need = section_need(M, 0, M->ns, 0, C);
        if (need > C) {
            *thr = need;
            return R_INFEASIBLE;
        }
    }
enter:
    F = &fr[d];
    while (M->head != NIL && M->pool[M->head].count == 0) {
        /* partition completed: its frames keep their choices for good */
        part *p = &M->pool[M->head];
        for (uint32_t i = p->start; i < d; i++) fr[i].cut = true;
        M->head = p->next;
    }
    if (M->head == NIL) {
        size_t a = 0;
        for (uint32_t i = 0; i < M->m; i++) {
            M->sol[i] = M->off[i];
            a = TA_MAX(a, M->off[i] + M->size[i]);
        }
        *arena = a;
        return R_FOUND;
    }
    {
        part *P = &M->pool[M->head];
        F->head = M->head;
        F->pool_top = M->pool_top;
        F->item = NIL;
        F->thr = SIZE_MAX;
        F->cut = false;
        if (P->start == NIL) P->start = d;
        if (d > 0 && fr[d - 1].head == M->head) {
            F->floor_off = M->off[fr[d - 1].item];
            F->floor_pre = M->pre[fr[d - 1].item];
        } else {
            F->floor_off = P->floor_off;
            F->floor_pre = P->floor_pre;
        }
        M->nodes++;
        if (out_of_budget(M)) return R_LIMIT;
        /* scan: dominance bound, dead buffers, memo key */
        size_t minh = SIZE_MAX, maxh = 0;
        uint64_t h1 = mix64(F->floor_off * 0x9E3779B97F4A7C15ull + F->floor_pre + ((uint64_t)M->heur << 56));
        uint64_t h2 = mix64(h1 ^ 0x5851F42D4C957F2Dull);
        bool stuck = false;
        for (uint32_t x = M->lo_start[P->lo]; x < M->lo_start[P->hi]; x++) {
            uint32_t u = M->by_lo[x];
            if (M->off[u] != NONE) continue;
            size_t h = M->mo[u] + M->size[u];
            minh = TA_MIN(minh, h);
            maxh = TA_MAX(maxh, h);
            /* below the canonical floor with no unplaced neighbour to lift
             * it: it can never be placed (MiniMalloc's "hatless" case) */
            if (!M->nbr[u] && (M->mo[u] < F->floor_off || (M->mo[u] == F->floor_off && M->pre[u] < F->floor_pre)))
                stuck = true;
            uint64_t z = mix64(((uint64_t)u << 40) ^ (uint64_t)M->mo[u] ^ 0xD6E8FEB86659FD93ull);
            h1 += z;
            h2 += mix64(z ^ 0xA0761D6478BD642Full);
        }
        F->min_height = minh;
        F->key1 = 0; /* not worth remembering: the scan finds it again */
        if (stuck) goto fail; /* at any capacity: thr stays SIZE_MAX */
        if (maxh > C) {
            F->thr = maxh;
            goto fail;
        }
        F->key1 = h1 | 1; /* 0 marks an empty memo slot */
        F->key2 = h2;
        for (uint64_t k = 0; k < 4; k++) {
            const memo_ent *e = &M->memo[(h2 + k) & M->memo_mask];
            if (e->key == F->key1) {
                if (e->thr > C) {
                    F->thr = e->thr;
                    F->key1 = 0;
                    goto fail;
                }
                break;
            }
        }
        F->last_mo = F->floor_off;
        F->last_pre = F->floor_pre;
    }
next:
    F = &fr[d];
    {
        const part *P = &M->pool[F->head];
        /* the smallest (mo, pre) above the last one tried, below min_height */
        uint32_t best = NIL;
        size_t bmo = SIZE_MAX;
        uint32_t bpre = UINT32_MAX;
        for (uint32_t x = M->lo_start[P->lo]; x < M->lo_start[P->hi]; x++) {
            uint32_t u = M->by_lo[x];
            if (M->off[u] != NONE) continue;
            size_t mu = M->mo[u];
            uint32_t pu = M->pre[u];
            if (mu >= F->min_height) continue;
            if (mu < F->last_mo || (mu == F->last_mo && pu <= F->last_pre)) continue;
            if (mu < bmo || (mu == bmo && pu < bpre)) {
                best = u;
                bmo = mu;
                bpre = pu;
            }
        }
        if (best == NIL) goto fail;
        F->last_mo = bmo;
        F->last_pre = bpre;
        uint32_t nzc = 0;
        size_t need = place(M, F, best, C, &nzc);
        if (need > C) {
            unplace(M, F);
            F->item = NIL;
            if (need < F->thr) F->thr = need;
            M->nodes++;
            if (out_of_budget(M)) return R_LIMIT;
            /* no unplaced neighbour: any later sibling strands it below the floor */
            if (!M->nbr[best]) goto fail;
            goto next;
        }
        if (nzc) decompose(M, F, best, nzc);
        d++;
        goto enter;
    }
fail:
    F = &fr[d];
    if (!F->cut && F->key1) {
        /* A local failure (nothing completed below it): this partition
         * state fails for every capacity below thr.  4-way bucket; replace
         * the same key, else an empty slot, else one chosen by the key. */
        memo_ent *slot = NULL;
        for (uint64_t k = 0; k < 4; k++) {
            memo_ent *q = &M->memo[(F->key2 + k) & M->memo_mask];
            if (q->key == F->key1) {
                slot = q;
                break;
            }
            if (!slot && q->key == 0) slot = q;
        }
        if (!slot) slot = &M->memo[(F->key2 + (F->key1 >> 62)) & M->memo_mask];
        if (slot->key != F->key1 || slot->thr < F->thr) {
            slot->key = F->key1;
            slot->thr = F->thr;
        }
    }
    if (d == 0) {
        *thr = F->thr;
        return R_INFEASIBLE;
    }
    {
        size_t t = F->thr;
        d--;
        F = &fr[d];
        if (t < F->thr) F->thr = t;
        uint32_t was = F->item;
        unplace(M, F);
        F->item = NIL;
        if (F->cut || !M->nbr[was]) goto fail; /* cut, or hatless (as above) */
        goto next;
    }
}

/* ---- driver ------------------------------------------------------------ */

static size_t gcd_sz(size_t a, size_t b) {
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static size_t round_up_to(size_t x, size_t g) {
    size_t r = x % g;
    return !r ? x : x > SIZE_MAX - (g - r) ? SIZE_MAX : x + (g - r);
}

static ta_status opt_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                          size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d) {
    const ta_strategy *best = ta_strategy_find("best");
    size_t best_need = 0;
    ta_status st = best->scratch_bytes(reqs, n, opt, &best_need);
    if (st) return st;
    opt_counts c;
    layout(reqs, n, &c);
    ta__bump b;
    opt_mem M;
    memset(&M, 0, sizeof M);
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    void *best_scratch = ta__bump_take(&b, best_need, 1);
    if (c.search) carve(&b, &c, &M);
    if (b.fail) return TA_E_NO_MEMORY;
    /* The time limit covers the whole call, incumbent included.  Without a
     * clock a fixed node budget stands in for it, so results never depend
     * on the machine. */
    double limit_s = opt && opt->time_limit_s > 0 ? opt->time_limit_s : 10.0;
    uint64_t work_cap = opt && opt->work_limit ? opt->work_limit : 0;
    if (opt && opt->clock) M.deadline = opt->clock(opt->clock_ctx) + (uint64_t)(limit_s * 1e6);
    else if (!work_cap) work_cap = (uint64_t)(limit_s * OPT_NODES_PER_S);
    if (!work_cap) work_cap = UINT64_MAX;

    /* 1. the incumbent.  With a clock, best gets half the limit, so the
     * search always keeps the other half; its time counts against ours. */
    ta_plan_options bopt;
    const ta_plan_options *bo = opt;
    if (opt && opt->clock) {
        bopt = *opt;
        bopt.time_limit_s = c.search ? limit_s / 2 : limit_s; /* no search to come: all of it */
        bo = &bopt;
    }
    if (opt && opt->start) {
        memcpy(offsets, opt->start, n * sizeof *offsets); /* the caller's incumbent */
        res->work = 0;
    } else {
        st = best->plan(reqs, n, bo, best_scratch, best_need, offsets, res, d);
        if (st) return st;
    }
    uint64_t best_work = res->work;
    size_t hi = ta_plan_arena_bytes(reqs, n, offsets), incumbent = hi;

    /* 2. bounds.  The core's bound (most padded bytes live at one step) is
     * not valid when fixed buffers may overlap each other: it counts their
     * shared bytes twice.  The section bound below is always valid. */
    size_t lb = res->fixed_conflicts ? 0 : res->lower_bound_bytes, g = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p = ta_request_padded(&reqs[i]);
        if (p) g = gcd_sz(g, p);
        if (ta__align_of(&reqs[i]) > 1) g = gcd_sz(g, ta__align_of(&reqs[i]));
        if (ta__is_fixed(&reqs[i])) {
            g = gcd_sz(g, reqs[i].fixed);
            lb = TA_MAX(lb, reqs[i].fixed + p);
        }
    }
    if (!g) g = 1;
    res->work = best_work;
    res->proof = TA_PROOF_OPTIMAL;
    res->proven_bytes = hi;
    if (c.m == 0) return TA_OK; /* only fixed and empty buffers: nothing to choose */
    size_t lo = round_up_to(lb, g);
    if (!c.search) {
        if (lo < hi) {
            res->proof = TA_PROOF_TIMEOUT;
            res->proven_bytes = lo;
        }
        return TA_OK;
    }
    setup(&M, reqs, n);
    preorder_keys(&M); /* also leaves every section's free bytes in total[] */
    /* In each section, the free buffers need total[s] bytes that no fixed
     * buffer live there covers, and every fixed buffer lies inside the arena. */
    for (uint32_t s = 0; s < M.ns; s++)
        lb = TA_MAX(lb, M.total[s] + fixed_cover(&M, s, 0, SIZE_MAX));
    lo = round_up_to(lb, g);
    if (lo >= hi) return TA_OK;

    /* 3. search */
    M.memo_mask = c.memo - 1;
    memset(M.memo, 0, c.memo * sizeof(memo_ent));
    M.opt = opt;
    uint64_t budget = 64u * M.m, spent = 0;
    uint32_t heur = 0;
    size_t up = lo + (hi - lo) / 2; /* the upper probe; clamped below */
    for (;;) {
        /* Round: C = lo (a plan there is optimal; an exhausted search raises
         * lo, and we retry at once), then the upper probe C = up, where a
         * plan improves the incumbent.  The probe bisects towards lo after
         * a success and backs off towards hi after running out of budget:
         * plans are often quick to find well below the incumbent but slow
         * right at lo.  Then the next tie-break order; budgets double after
         * every full rotation. */
        int phase = 0;
        while (lo < hi && phase < 2) {
            size_t C = lo;
            if (phase == 1) {
                up = up / g * g;
                if (up <= lo) up = lo + g;
                if (up >= hi) up = hi - g;
                if (up <= lo) break;
                C = up;
            }
            set_heuristic(&M, heur);
            M.nodes = 0;
            uint64_t left = work_cap - spent;
            M.node_cap = budget < left ? budget : left;
            size_t thr = 0, arena = 0;
            int r = decide(&M, C, &thr, &arena);
            spent += M.nodes;
            if (r == R_FOUND) {
                for (uint32_t i = 0; i < M.m; i++) offsets[M.id[i]] = M.sol[i];
                hi = ta_plan_arena_bytes(reqs, n, offsets);
                up = lo + (hi - lo) / 2;
            } else if (r == R_INFEASIBLE) {
                lo = TA_MIN(hi, TA_MAX(lo + g, round_up_to(thr, g))); /* thr <= hi: hi is feasible */
                up = lo + (hi - lo) / 2;
                phase = 0;
                continue;
            } else if (M.timed_out || spent >= work_cap) {
                break;
            } else if (phase == 1) {
                up += (hi - up) / 2;
            }
            phase++;
        }
        if (lo >= hi || M.timed_out || spent >= work_cap) break;
        heur = (heur + 1) % OPT_HEURISTICS;
        if (heur == 0 && budget < UINT64_MAX / 2) budget *= 2;
    }
    res->work = best_work + spent;
    if (lo >= hi) {
        res->proof = TA_PROOF_OPTIMAL;
        res->proven_bytes = hi;
    } else {
        res->proof = hi < incumbent ? TA_PROOF_GAP : TA_PROOF_TIMEOUT;
        res->proven_bytes = lo;
    }
    return TA_OK;
}

const ta_strategy ta__strategy_optimal = {
    "optimal", "exact search (canonical placements, section bounds, cuts); proves the smallest arena",
    opt_scratch, opt_plan};
