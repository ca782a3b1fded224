/* Planning across several memory regions (regions.h): the assignment of
 * buffers to regions, each region then planned by an ordinary strategy. */
#include <string.h>

#include "core/core.h"
#include "tinyarena/regions.h"

/* Everything one call works in, carved from the caller's scratch. */
typedef struct {
    const ta_strategy *s;
    const ta_request *reqs;
    size_t n, R;
    const ta_region_problem *p;
    const ta_plan_options *opt;
    uint32_t rorder[TA_MAX_REGIONS]; /* region indices by cost, then index */
    size_t *pad;
    uint64_t *w;
    uint32_t *pin;     /* per buffer: its region, or TA_REGION_ANY (fixed ones pinned) */
    uint32_t *tf, *tl; /* per buffer: compressed first and last (indices of distinct firsts) */
    size_t T;          /* distinct firsts */
    size_t *load;      /* R x T: bytes live per region at each compressed step */
    uint32_t *order, *tmp;
    uint32_t *cur, *best;   /* assignments */
    size_t *best_off;
    ta_request *sub;        /* one region's requests */
    size_t *sub_off;
    uint32_t *local;        /* global -> local index in the region being planned */
    uint32_t *members;      /* local -> global */
    ta_overlap *sub_ov;
    void *plan_scratch;
    size_t plan_scratch_bytes;
    size_t used[TA_MAX_REGIONS], bound[TA_MAX_REGIONS];
    bool proven_over[TA_MAX_REGIONS]; /* the last plan of the region proved it cannot be smaller */
    uint64_t work;
    ta__deadline dl;
} rg_ctx;

static uint64_t mul_sat(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }
static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static void carve(ta__bump *b, size_t n, size_t R, size_t nr, rg_ctx *c) {
    c->pad = ta__bump_take(b, n, sizeof(size_t));
    c->w = ta__bump_take(b, n, sizeof(uint64_t));
    c->pin = ta__bump_take(b, n, sizeof(uint32_t));
    c->tf = ta__bump_take(b, n, sizeof(uint32_t));
    c->tl = ta__bump_take(b, n, sizeof(uint32_t));
    c->load = ta__bump_take(b, R * (n ? n : 1), sizeof(size_t));
    c->order = ta__bump_take(b, n, sizeof(uint32_t));
    c->tmp = ta__bump_take(b, n, sizeof(uint32_t));
    c->cur = ta__bump_take(b, n, sizeof(uint32_t));
    c->best = ta__bump_take(b, n, sizeof(uint32_t));
    c->best_off = ta__bump_take(b, n, sizeof(size_t));
    c->sub = ta__bump_take(b, n, sizeof(ta_request));
    c->sub_off = ta__bump_take(b, n, sizeof(size_t));
    c->local = ta__bump_take(b, n, sizeof(uint32_t));
    c->members = ta__bump_take(b, n, sizeof(uint32_t));
    c->sub_ov = ta__bump_take(b, nr, sizeof(ta_overlap));
}

static size_t n_rel(const ta_plan_options *opt) { return opt && opt->overlaps ? opt->n_overlaps : 0; }

/* Above the 2^40-byte cap (never where size_t has 32 bits: a function, so
 * that compilers do not warn about the comparison there). */
static bool above_cap(uint64_t bytes) { return bytes > TA_PLAN_MAX_ARENA; }

static ta_status problem_check(const ta_request *reqs, size_t n, const ta_region_problem *p, ta_diag *d) {
    if (!p || !p->regions || p->n_regions == 0) return ta_diag_set(d, TA_E_INVALID_ARG, "regions: no region given");
    if (p->n_regions > TA_MAX_REGIONS)
        return ta_diag_set(d, TA_E_INVALID_ARG, "regions: %zu regions, at most %u", p->n_regions, TA_MAX_REGIONS);
    if (n && !reqs) return ta_diag_set(d, TA_E_INVALID_ARG, "regions: NULL requests");
    if (n > TA_PLAN_MAX_BUFFERS) return ta_diag_set(d, TA_E_OVERFLOW, "regions: %zu buffers, at most %u", n, TA_PLAN_MAX_BUFFERS);
    for (size_t k = 0; k < p->n_regions; k++)
        if (above_cap(p->regions[k].capacity))
            return ta_diag_set(d, TA_E_OVERFLOW, "region %zu: capacity %zu above the 2^40-byte cap", k, p->regions[k].capacity);
    if (p->pin)
        for (size_t i = 0; i < n; i++)
            if (p->pin[i] != TA_REGION_ANY && p->pin[i] >= p->n_regions)
                return ta_diag_set(d, TA_E_INVALID_ARG, "buffer %zu: pinned to region %u of %zu", i, p->pin[i], p->n_regions);
    return TA_OK;
}

const char *ta_region_name(const ta_region_problem *p, size_t k, char *buf, size_t cap) {
    if (p && k < p->n_regions && p->regions[k].name && p->regions[k].name[0]) return p->regions[k].name;
    ta_diag tmp;
    ta_diag_set(&tmp, TA_OK, "region %zu", k);
    if (cap) {
        size_t m = strlen(tmp.msg);
        if (m >= cap) m = cap - 1;
        memcpy(buf, tmp.msg, m);
        buf[m] = 0;
    }
    return buf;
}

ta_status ta_regions_scratch_bytes(const ta_strategy *s, const ta_request *reqs, size_t n, const ta_region_problem *p,
                                   const ta_plan_options *opt, size_t *bytes) {
    if (!s || !bytes || (n && !reqs) || !p || p->n_regions == 0 || p->n_regions > TA_MAX_REGIONS) return TA_E_INVALID_ARG;
    if (n > TA_PLAN_MAX_BUFFERS) return TA_E_OVERFLOW;
    /* The strategy's need on all n requests bounds its need on any subset
     * (every strategy's scratch grows with the buffers and their pairs) --
     * taken with and without the relations: a region may keep none of
     * them, and optimal searches (a larger scratch) only without. */
    ta_plan_options o = opt ? *opt : (ta_plan_options){0};
    o.start = NULL;
    size_t own = 0, bare = 0;
    ta_status st = ta_plan_scratch_bytes(s, reqs, n, &o, &own);
    if (st) return st;
    o.overlaps = NULL;
    o.n_overlaps = 0;
    if ((st = ta_plan_scratch_bytes(s, reqs, n, &o, &bare))) return st;
    if (bare > own) own = bare;
    /* except optimal's on a region that is a tiling question where the
     * whole list is not: it carves the beam's states only for those */
    if (s == &ta__strategy_optimal) {
        size_t sub = 0;
        if ((st = ta__opt_scratch_subsets(reqs, n, &o, &sub))) return st;
        if (sub > own) own = sub;
    }
    ta__bump b;
    rg_ctx c;
    ta__bump_init(&b, NULL, 0);
    carve(&b, n, p->n_regions, n_rel(opt), &c);
    size_t mine = ta__bump_need(&b);
    size_t chk = ta_regions_check_scratch_bytes(n, n_rel(opt));
    *bytes = ta__add_sat(ta__add_sat(mine, own > chk ? own : chk), 16);
    return *bytes == SIZE_MAX ? TA_E_OVERFLOW : TA_OK;
}

/* Gathers region k's members into c->sub (relations between members only). */
static size_t gather(rg_ctx *c, const uint32_t *region_of, uint32_t k, size_t *n_ov) {
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (region_of[i] != k) { c->local[i] = UINT32_MAX; continue; }
        c->local[i] = (uint32_t)m;
        c->members[m] = (uint32_t)i;
        c->sub[m++] = c->reqs[i];
    }
    size_t r = 0;
    for (size_t j = 0; j < n_rel(c->opt); j++) {
        const ta_overlap *o = &c->opt->overlaps[j];
        if (o->x >= c->n || o->y >= c->n || c->local[o->x] == UINT32_MAX || c->local[o->y] == UINT32_MAX) continue;
        c->sub_ov[r] = *o;
        c->sub_ov[r].x = c->local[o->x];
        c->sub_ov[r].y = c->local[o->y];
        r++;
    }
    *n_ov = r;
    return m;
}

/* Plans region k from assignment region_of into offsets; records its arena
 * and bound.  A strategy failure other than a too-small region is returned. */
static ta_status plan_region(rg_ctx *c, const uint32_t *region_of, uint32_t k, size_t *offsets, ta_diag *d) {
    size_t nov;
    size_t m = gather(c, region_of, k, &nov);
    ta_plan_options o = c->opt ? *c->opt : (ta_plan_options){0};
    o.start = NULL;
    o.overlaps = nov ? c->sub_ov : NULL;
    o.n_overlaps = nov;
    ta_plan_result r;
    c->work++;
    ta_status st = ta_plan_run(c->s, c->sub, m, &o, c->plan_scratch, c->plan_scratch_bytes, c->sub_off, &r, d);
    if (st) return st;
    for (size_t j = 0; j < m; j++) offsets[c->members[j]] = c->sub_off[j];
    c->used[k] = r.arena_bytes;
    c->bound[k] = r.lower_bound_bytes;
    c->proven_over[k] = r.lower_bound_bytes > c->p->regions[k].capacity ||
                        (r.proof == TA_PROOF_OPTIMAL && r.arena_bytes > c->p->regions[k].capacity);
    return TA_OK;
}

static double density(const rg_ctx *c, uint32_t i) { return c->pad[i] ? (double)c->w[i] / (double)c->pad[i] : 1e300; }

/* Orders: 0 density, 1 weight, 2 smallest first; ties by index. */
typedef struct {
    const rg_ctx *c;
    int kind;
} ord_ctx;
static int cmp_ord(uint32_t a, uint32_t b, const void *vctx) {
    const ord_ctx *o = vctx;
    const rg_ctx *c = o->c;
    if (o->kind == 0) {
        double da = density(c, a), db = density(c, b);
        if (da != db) return da > db ? -1 : 1;
    } else if (o->kind == 1) {
        if (c->w[a] != c->w[b]) return c->w[a] > c->w[b] ? -1 : 1;
    } else {
        if (c->pad[a] != c->pad[b]) return c->pad[a] < c->pad[b] ? -1 : 1;
    }
    return (a > b) - (a < b);
}

static size_t movable_order(rg_ctx *c, int kind) {
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->pin[i] == TA_REGION_ANY) c->order[m++] = (uint32_t)i;
    ord_ctx o = {c, kind};
    ta__sort_ids(c->order, m, cmp_ord, &o, c->tmp);
    return m;
}

static size_t max_load(const rg_ctx *c, uint32_t r, uint32_t i) {
    const size_t *L = c->load + (size_t)r * c->T;
    size_t mx = 0;
    for (uint32_t t = c->tf[i]; t <= c->tl[i]; t++)
        if (L[t] > mx) mx = L[t];
    return mx;
}
static void add_load(rg_ctx *c, uint32_t r, uint32_t i, bool add) {
    size_t *L = c->load + (size_t)r * c->T;
    for (uint32_t t = c->tf[i]; t <= c->tl[i]; t++) L[t] = add ? L[t] + c->pad[i] : L[t] - c->pad[i];
}
static bool fits_load(const rg_ctx *c, uint32_t r, uint32_t i) {
    return max_load(c, r, i) + c->pad[i] <= c->p->regions[r].capacity;
}

/* Loads from scratch for assignment a. */
static void loads_of(rg_ctx *c, const uint32_t *a) {
    memset(c->load, 0, c->R * c->T * sizeof(size_t));
    for (size_t i = 0; i < c->n; i++) add_load(c, a[i], (uint32_t)i, true);
}

static uint64_t cost_of(const rg_ctx *c, const uint32_t *a) {
    uint64_t s = 0;
    for (size_t i = 0; i < c->n; i++) s = add_sat(s, mul_sat(c->w[i], c->p->regions[a[i]].cost));
    return s;
}

/* The fill: pinned buffers first, then the movable ones in order[0..m),
 * each into the cheapest region whose live bytes leave room (the last
 * region by cost when none does). */
static void fill(rg_ctx *c, size_t m) {
    for (size_t i = 0; i < c->n; i++) c->cur[i] = c->pin[i];
    memset(c->load, 0, c->R * c->T * sizeof(size_t));
    for (size_t i = 0; i < c->n; i++)
        if (c->pin[i] != TA_REGION_ANY) add_load(c, c->pin[i], (uint32_t)i, true);
    for (size_t j = 0; j < m; j++) {
        uint32_t i = c->order[j], r = c->rorder[c->R - 1];
        for (size_t q = 0; q < c->R; q++)
            if (fits_load(c, c->rorder[q], i)) { r = c->rorder[q]; break; }
        c->cur[i] = r;
        add_load(c, r, i, true);
    }
}

/* Plans every region of c->cur in cost order; a region over its capacity
 * gives its least dense movable buffer to the next region by cost that has
 * room by live bytes (else the last), and is planned again.  *over gets the
 * region that cannot fit (UINT32_MAX: all fit). */
static ta_status repair(rg_ctx *c, size_t *offsets, uint32_t *over, ta_diag *d) {
    *over = UINT32_MAX;
    for (size_t q = 0; q < c->R; q++) {
        const uint32_t k = c->rorder[q];
        for (;;) {
            ta_status st = plan_region(c, c->cur, k, offsets, d);
            if (st) return st;
            if (c->used[k] <= c->p->regions[k].capacity) break;
            uint32_t victim = UINT32_MAX;
            if (q + 1 < c->R)
                for (size_t i = 0; i < c->n; i++)
                    if (c->cur[i] == k && c->pin[i] == TA_REGION_ANY && c->pad[i] &&
                        (victim == UINT32_MAX || density(c, (uint32_t)i) < density(c, victim)))
                        victim = (uint32_t)i;
            if (victim == UINT32_MAX) { *over = k; return TA_OK; }
            uint32_t to = c->rorder[c->R - 1];
            for (size_t q2 = q + 1; q2 < c->R; q2++)
                if (fits_load(c, c->rorder[q2], victim)) { to = c->rorder[q2]; break; }
            add_load(c, k, victim, false);
            add_load(c, to, victim, true);
            c->cur[victim] = to;
        }
    }
    return TA_OK;
}

/* The fractional cost bound (regions.h). */
static uint64_t cost_bound(rg_ctx *c) {
    uint32_t cmin = UINT32_MAX;
    for (size_t k = 0; k < c->R; k++) cmin = TA_MIN(cmin, c->p->regions[k].cost);
    uint64_t base = 0;
    for (size_t i = 0; i < c->n; i++)
        base = add_sat(base, mul_sat(c->w[i], c->pin[i] != TA_REGION_ANY ? c->p->regions[c->pin[i]].cost : cmin));
    if (c->n > 4096) return base; /* the per-step packing is O(n x steps): skipped on large problems */
    size_t m = movable_order(c, 0);
    /* pinned live bytes per region and step */
    memset(c->load, 0, c->R * c->T * sizeof(size_t));
    for (size_t i = 0; i < c->n; i++)
        if (c->pin[i] != TA_REGION_ANY) add_load(c, c->pin[i], (uint32_t)i, true);
    double worst = 0;
    for (uint32_t t = 0; t < c->T; t++) {
        double room[TA_MAX_REGIONS], extra = 0;
        for (size_t q = 0; q < c->R; q++) {
            uint32_t k = c->rorder[q];
            size_t L = c->load[(size_t)k * c->T + t], cap = c->p->regions[k].capacity;
            room[q] = cap > L ? (double)(cap - L) : 0;
        }
        size_t q = 0;
        for (size_t j = 0; j < m; j++) {
            uint32_t i = c->order[j];
            if (c->tf[i] > t || c->tl[i] < t || !c->pad[i]) continue;
            double left = (double)c->pad[i];
            while (left > 0) {
                while (q < c->R && room[q] <= 0) q++;
                uint32_t k = c->rorder[q < c->R ? q : c->R - 1];
                double take = q < c->R && room[q] < left ? room[q] : left;
                extra += take / (double)c->pad[i] * (double)c->w[i] * (double)(c->p->regions[k].cost - cmin);
                if (q < c->R) room[q] -= take;
                left -= take;
            }
        }
        if (extra > worst) worst = extra;
    }
    /* floor, and a little under for rounding: the bound must never exceed a real cost */
    double b = (double)base + worst * (1.0 - 1e-12) - 1.0;
    if (b <= (double)base) return base;
    return b >= 1.8e19 ? UINT64_MAX : (uint64_t)b;
}

/* The overflow message (regions.h). */
static ta_status overflow(rg_ctx *c, uint32_t k, ta_diag *d) {
    char nb[24];
    size_t cap = c->p->regions[k].capacity, one = 0, lb = 0;
    ta_plan_options o = c->opt ? *c->opt : (ta_plan_options){0};
    o.start = NULL;
    ta_plan_result r;
    ta_diag tmp;
    if (ta_plan_run(c->s, c->reqs, c->n, &o, c->plan_scratch, c->plan_scratch_bytes, c->sub_off, &r, &tmp) == TA_OK) {
        one = r.arena_bytes;
        lb = r.lower_bound_bytes;
    }
    return ta_diag_set(d, TA_E_NO_MEMORY,
                       "region %s overflows by %zu bytes (plan %zu, capacity %zu); %zu bytes in one region fit; no plan fits below %zu bytes in total",
                       ta_region_name(c->p, k, nb, sizeof nb), c->used[k] - cap, c->used[k], cap, one, lb);
}

static void keep(rg_ctx *c, const size_t *offsets) {
    memcpy(c->best, c->cur, c->n * sizeof(uint32_t));
    memcpy(c->best_off, offsets, c->n * sizeof(size_t));
}

/* best's single moves: each buffer, densest first, into a cheaper region
 * when both plans still fit. */
static ta_status improve(rg_ctx *c, size_t *offsets, uint64_t *best_cost, ta_diag *d) {
    size_t m = movable_order(c, 0);
    memcpy(c->cur, c->best, c->n * sizeof(uint32_t));
    memcpy(offsets, c->best_off, c->n * sizeof(size_t));
    loads_of(c, c->cur);
    for (size_t j = 0; j < m && !ta__deadline_hit(&c->dl); j++) {
        uint32_t i = c->order[j], from = c->cur[i];
        for (size_t q = 0; q < c->R; q++) {
            uint32_t to = c->rorder[q];
            if (to == from || c->p->regions[to].cost >= c->p->regions[from].cost || !fits_load(c, to, i)) continue;
            c->cur[i] = to;
            ta_status st = plan_region(c, c->cur, to, offsets, d);
            if (st) return st;
            bool ok = c->used[to] <= c->p->regions[to].capacity;
            if (ok && (st = plan_region(c, c->cur, from, offsets, d))) return st;
            if (ok) { /* the source only lost a buffer; a heuristic may still place it worse */
                ok = c->used[from] <= c->p->regions[from].capacity;
            }
            if (ok) {
                add_load(c, from, i, false);
                add_load(c, to, i, true);
                *best_cost = cost_of(c, c->cur);
                keep(c, offsets);
                break;
            }
            c->cur[i] = from;
            memcpy(offsets, c->best_off, c->n * sizeof(size_t));
        }
    }
    memcpy(c->cur, c->best, c->n * sizeof(uint32_t));
    return TA_OK;
}

/* optimal's exhaustive search over the movable buffers (order[0..m)),
 * cheapest region first, pruned by cost and by live bytes. */
typedef struct {
    rg_ctx *c;
    size_t *offsets;
    size_t m;
    uint64_t best_cost, *suffix_min; /* suffix_min[j]: least cost of order[j..m) */
    uint64_t leaves, leaf_cap;
    bool found, unproven, stopped;
    ta_status err;
    ta_diag *d;
} dfs_ctx;

static void dfs(dfs_ctx *x, size_t j, uint64_t cost) {
    rg_ctx *c = x->c;
    if (x->err || x->stopped) return;
    if (x->found && add_sat(cost, x->suffix_min[j]) >= x->best_cost) return;
    if (j == x->m) {
        if (++x->leaves > x->leaf_cap || ta__deadline_hit(&c->dl)) { x->stopped = true; return; }
        for (size_t k = 0; k < c->R; k++) {
            ta_status st = plan_region(c, c->cur, (uint32_t)k, x->offsets, x->d);
            if (st) { x->err = st; return; }
            if (c->used[k] > c->p->regions[k].capacity) {
                if (!c->proven_over[k]) x->unproven = true;
                return;
            }
        }
        x->found = true;
        x->best_cost = cost;
        keep(c, x->offsets);
        return;
    }
    uint32_t i = c->order[j];
    for (size_t q = 0; q < c->R; q++) {
        uint32_t k = c->rorder[q];
        if (!fits_load(c, k, i)) continue;
        c->cur[i] = k;
        add_load(c, k, i, true);
        dfs(x, j + 1, add_sat(cost, mul_sat(c->w[i], c->p->regions[k].cost)));
        add_load(c, k, i, false);
        if (x->err || x->stopped) return;
    }
}

static int cmp_first_val(uint32_t a, uint32_t b, const void *ctx) {
    const ta_request *r = ctx;
    return (r[a].first > r[b].first) - (r[a].first < r[b].first);
}

ta_status ta_regions_plan(const ta_strategy *s, const ta_request *reqs, size_t n, const ta_region_problem *p,
                          const ta_plan_options *opt, void *scratch, size_t scratch_bytes, uint32_t *region_of,
                          size_t *offsets, ta_region_result *res, ta_diag *d) {
    if (!s || !res || (n && (!region_of || !offsets))) return ta_diag_set(d, TA_E_INVALID_ARG, "regions: NULL argument");
    ta_status st = problem_check(reqs, n, p, d);
    if (st) return st;
    size_t need;
    if ((st = ta_regions_scratch_bytes(s, reqs, n, p, opt, &need))) return ta_diag_set(d, st, "regions: cannot size scratch");
    if (!scratch || scratch_bytes < need)
        return ta_diag_set(d, TA_E_NO_MEMORY, "regions: strategy %s needs %zu scratch bytes, has %zu", s->name, need,
                           scratch ? scratch_bytes : 0);
    rg_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.reqs = reqs;
    c.n = n;
    c.R = p->n_regions;
    c.p = p;
    c.opt = opt;
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    carve(&b, n, c.R, n_rel(opt), &c);
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "regions: scratch too small");
    c.plan_scratch = b.base + ta__align_up(b.used, 16);
    c.plan_scratch_bytes = b.cap - ta__align_up(b.used, 16);
    /* the requests themselves, checked once as ta_plan_run would (fixed
     * buffers may only collide across regions, so that is left to each
     * region's own check) */
    uint32_t flags = (opt ? opt->flags : 0) | TA_PLAN_ALLOW_FIXED_CONFLICT;
    if ((st = ta_plan_requests_check(reqs, n, flags, c.plan_scratch, c.plan_scratch_bytes, NULL, d))) return st;
    for (uint32_t k = 0; k < c.R; k++) c.rorder[k] = k;
    for (size_t a = 1; a < c.R; a++) /* insertion sort by cost, stable */
        for (size_t q = a; q > 0 && p->regions[c.rorder[q - 1]].cost > p->regions[c.rorder[q]].cost; q--) {
            uint32_t t = c.rorder[q];
            c.rorder[q] = c.rorder[q - 1];
            c.rorder[q - 1] = t;
        }
    for (size_t i = 0; i < n; i++) {
        c.pad[i] = ta_request_padded(&reqs[i]);
        c.w[i] = p->weight ? p->weight[i] : c.pad[i];
        c.pin[i] = p->pin ? p->pin[i] : TA_REGION_ANY;
        if (c.pin[i] == TA_REGION_ANY && ta__is_fixed(&reqs[i])) c.pin[i] = c.rorder[c.R - 1];
        c.order[i] = (uint32_t)i;
    }
    /* compressed time: the distinct first steps (live bytes only grow there) */
    ta__sort_ids(c.order, n, cmp_first_val, reqs, c.tmp);
    for (size_t j = 0; j < n; j++) {
        uint32_t i = c.order[j];
        if (j == 0 || reqs[i].first != reqs[c.order[j - 1]].first) c.tmp[c.T++] = (uint32_t)j;
        c.tf[i] = (uint32_t)(c.T - 1);
    }
    for (size_t i = 0; i < n; i++) { /* last distinct first <= last: binary search */
        size_t lo = c.tf[i], hi = c.T - 1;
        while (lo < hi) {
            size_t mid = (lo + hi + 1) / 2;
            if (reqs[c.order[c.tmp[mid]]].first <= reqs[i].last) lo = mid;
            else hi = mid - 1;
        }
        c.tl[i] = (uint32_t)lo;
    }
    if (c.T == 0) c.T = 1;
    ta__deadline_start(&c.dl, opt, opt && opt->time_limit_s > 0 ? opt->time_limit_s : 10.0);

    const bool search = !strcmp(s->name, "best") || !strcmp(s->name, "optimal");
    uint64_t best_cost = UINT64_MAX;
    uint32_t over = UINT32_MAX;
    bool any = false;
    for (int kind = 0; kind < (search ? 3 : 1); kind++) {
        size_t m = movable_order(&c, kind);
        fill(&c, m);
        uint32_t ov;
        if ((st = repair(&c, offsets, &ov, d))) return st;
        if (ov != UINT32_MAX) {
            if (over == UINT32_MAX) over = ov;
            continue;
        }
        uint64_t cost = cost_of(&c, c.cur);
        if (!any || cost < best_cost) {
            best_cost = cost;
            keep(&c, offsets);
            any = true;
        }
    }
    if (!any) {
        /* the first order's failure, planned again for its figures */
        size_t m = movable_order(&c, 0);
        fill(&c, m);
        if ((st = repair(&c, offsets, &over, d))) return st;
        return overflow(&c, over == UINT32_MAX ? c.rorder[c.R - 1] : over, d);
    }
    if (search && (st = improve(&c, offsets, &best_cost, d))) return st;
    ta_proof proof = TA_PROOF_NONE;
    if (!strcmp(s->name, "optimal")) {
        uint64_t suffix[TA_REGIONS_EXACT_MAX + 1];
        size_t m = movable_order(&c, 0);
        if (m <= TA_REGIONS_EXACT_MAX) {
            dfs_ctx x = {&c, offsets, m, best_cost, suffix, 0, opt && opt->work_limit ? opt->work_limit : 2000, true,
                         false, false, TA_OK, d};
            uint32_t cmin = UINT32_MAX;
            for (size_t k = 0; k < c.R; k++) cmin = TA_MIN(cmin, p->regions[k].cost);
            suffix[m] = 0;
            for (size_t j = m; j-- > 0;) suffix[j] = add_sat(suffix[j + 1], mul_sat(c.w[c.order[j]], cmin));
            uint64_t pinned = 0;
            for (size_t i = 0; i < n; i++) {
                c.cur[i] = c.pin[i];
                if (c.pin[i] != TA_REGION_ANY) pinned = add_sat(pinned, mul_sat(c.w[i], p->regions[c.pin[i]].cost));
            }
            memset(c.load, 0, c.R * c.T * sizeof(size_t));
            for (size_t i = 0; i < n; i++)
                if (c.pin[i] != TA_REGION_ANY) add_load(&c, c.pin[i], (uint32_t)i, true);
            dfs(&x, 0, pinned);
            if (x.err) return x.err;
            best_cost = x.best_cost;
            if (!x.stopped && !x.unproven) proof = TA_PROOF_OPTIMAL;
        }
        if (proof == TA_PROOF_NONE) proof = TA_PROOF_GAP;
    } else if (search) {
        proof = TA_PROOF_GAP;
    }
    memcpy(region_of, c.best, n * sizeof(uint32_t));
    memcpy(offsets, c.best_off, n * sizeof(size_t));

    memset(res, 0, sizeof *res);
    res->cost = best_cost;
    res->cost_bound = cost_bound(&c);
    if (res->cost_bound > res->cost) res->cost_bound = res->cost; /* a proven optimum is its own bound */
    if (proof == TA_PROOF_OPTIMAL) res->cost_bound = res->cost;
    if (res->cost_bound == res->cost) proof = TA_PROOF_OPTIMAL;
    res->proof = proof;
    /* per region figures, and the validator over the final plan */
    for (size_t k = 0; k < c.R; k++) {
        size_t nov;
        size_t m = gather(&c, region_of, (uint32_t)k, &nov);
        res->n_buffers[k] = m;
        if ((st = ta_plan_bound_overlaps(c.sub, m, nov ? c.sub_ov : NULL, nov, c.plan_scratch, c.plan_scratch_bytes,
                                         &res->lower_bound_bytes[k], NULL)))
            return ta_diag_set(d, st, "regions: bound of region %zu failed", k);
        for (size_t j = 0; j < m; j++) {
            size_t e = c.best_off[c.members[j]] + c.pad[c.members[j]];
            if (j == 0 || e > res->used_bytes[k]) res->used_bytes[k] = e;
            res->accessed_bytes[k] = add_sat(res->accessed_bytes[k], c.w[c.members[j]]);
        }
        if (!m) res->used_bytes[k] = 0;
    }
    if ((st = ta_plan_bound_overlaps(reqs, n, n_rel(opt) ? opt->overlaps : NULL, n_rel(opt), c.plan_scratch,
                                     c.plan_scratch_bytes, &res->total_bound_bytes, NULL)))
        return ta_diag_set(d, st, "regions: bound failed");
    res->work = c.work;
    return ta_regions_check(reqs, n, p, opt, region_of, offsets, c.plan_scratch, c.plan_scratch_bytes, d);
}

size_t ta_regions_check_scratch_bytes(size_t n, size_t n_overlaps) {
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    ta__bump_take(&b, n, sizeof(ta_request));
    ta__bump_take(&b, n, sizeof(size_t));
    ta__bump_take(&b, n, sizeof(uint32_t));
    ta__bump_take(&b, n_overlaps, sizeof(ta_overlap));
    size_t own = ta__bump_need(&b), chk = ta_plan_check_overlaps_scratch_bytes(n, n_overlaps);
    return ta__add_sat(ta__add_sat(own, chk), 16);
}

ta_status ta_regions_check(const ta_request *reqs, size_t n, const ta_region_problem *p, const ta_plan_options *opt,
                           const uint32_t *region_of, const size_t *offsets, void *scratch, size_t scratch_bytes,
                           ta_diag *d) {
    ta_status st = problem_check(reqs, n, p, d);
    if (st) return st;
    if (n && (!region_of || !offsets)) return ta_diag_set(d, TA_E_INVALID_ARG, "regions check: NULL argument");
    const size_t nr = n_rel(opt);
    if (!scratch || scratch_bytes < ta_regions_check_scratch_bytes(n, nr))
        return ta_diag_set(d, TA_E_NO_MEMORY, "regions check needs %zu scratch bytes, has %zu",
                           ta_regions_check_scratch_bytes(n, nr), scratch ? scratch_bytes : 0);
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    ta_request *sub = ta__bump_take(&b, n, sizeof(ta_request));
    size_t *off = ta__bump_take(&b, n, sizeof(size_t));
    uint32_t *local = ta__bump_take(&b, n, sizeof(uint32_t));
    ta_overlap *ov = ta__bump_take(&b, nr, sizeof(ta_overlap));
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "regions check: scratch too small");
    void *rest = b.base + ta__align_up(b.used, 16);
    size_t rest_bytes = b.cap - ta__align_up(b.used, 16);
    for (size_t i = 0; i < n; i++) {
        if (region_of[i] >= p->n_regions)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "buffer %zu: in region %u of %zu", i, region_of[i], p->n_regions);
        if (p->pin && p->pin[i] != TA_REGION_ANY && p->pin[i] != region_of[i])
            return ta_diag_set(d, TA_E_BAD_REQUEST, "buffer %zu: pinned to region %u, placed in %u", i, p->pin[i], region_of[i]);
    }
    for (uint32_t k = 0; k < p->n_regions; k++) {
        size_t m = 0, r = 0;
        for (size_t i = 0; i < n; i++) {
            local[i] = region_of[i] == k ? (uint32_t)m : UINT32_MAX;
            if (region_of[i] == k) {
                sub[m] = reqs[i];
                off[m++] = offsets[i];
            }
        }
        for (size_t j = 0; j < nr; j++) {
            const ta_overlap *o = &opt->overlaps[j];
            if (o->x >= n || o->y >= n) return ta_diag_set(d, TA_E_BAD_REQUEST, "overlap relation %zu names no buffer", j);
            if (local[o->x] == UINT32_MAX || local[o->y] == UINT32_MAX) continue;
            ov[r] = *o;
            ov[r].x = local[o->x];
            ov[r].y = local[o->y];
            r++;
        }
        ta_diag sd;
        st = ta_plan_check_overlaps(sub, m, r ? ov : NULL, r, off, p->regions[k].capacity, opt ? opt->flags : 0, rest,
                                    rest_bytes, &sd);
        if (st) {
            char nb[24];
            return ta_diag_set(d, st, "region %s: %s", ta_region_name(p, k, nb, sizeof nb), sd.msg);
        }
    }
    return TA_OK;
}
