/*
 * The optimal strategy's setup (plan_optimal.c describes the method):
 * sizing the search state and carving it from the scratch block, the
 * problem as time sections with their overlaps and fixed obstacles, and the
 * preorders the search tries candidates in.
 */
#include "core/plan_optimal.h"

/* ---- sizing ---------------------------------------------------------- */

static bool is_item(const ta_request *r) { return !ta__is_fixed(r) && ta_request_padded(r) > 0; }
static bool is_fx(const ta_request *r) { return ta__is_fixed(r) && ta_request_padded(r) > 0; }

/* The live bytes of the items at step t. */
static size_t live_at(const ta_request *r, size_t n, int64_t t) {
    size_t sum = 0;
    for (size_t j = 0; j < n; j++)
        if (is_item(&r[j]) && r[j].first <= t && t <= r[j].last) sum += ta_request_padded(&r[j]);
    return sum;
}

/* Can the problem be a tiling question: are the live bytes of every time
 * section (ta__opt_setup's: between consecutive firsts and lasts + 1 of the
 * items) 0 or one same total?  Then and only then ta__opt_tile_applies
 * holds at that total, and the tiling searches run.  Decided here, before
 * any scratch, so the carve can leave out what only they use.  Every
 * section starts at some item's first or last + 1, so the live bytes there
 * are every section's.  O(n m), as the counting below; most problems that
 * are not tiling questions show it at their first few points. */
static bool tiling_question(const ta_request *r, size_t n) {
    size_t height = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_item(&r[i])) continue;
        for (int k = 0; k < 2; k++) {
            size_t live = live_at(r, n, k ? (int64_t)r[i].last + 1 : r[i].first);
            if (!live) continue;
            if (!height) height = live;
            if (live != height) return false;
        }
    }
    return true;
}

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
    c->tiling = c->nfx == 0 && tiling_question(r, n);
    c->order = c->sweeps = c->tiling;
    size_t want = c->m * 1024, e = 1u << 12;
    while (e < want && e < (1u << 20)) e <<= 1;
    c->memo = e;
}

void ta__opt_carve(ta__bump *b, const opt_counts *c, opt_mem *M) {
    size_t m = c->m, ns = 2 * m + 1, nfx = c->nfx;
    memset(M, 0, sizeof *M); /* what is not carved stays NULL */
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
    M->sm_n = ta__bump_take(b, ns, sizeof(uint32_t));
    M->sm_at = ta__bump_take(b, m + 1, sizeof(uint32_t));
    M->sm_pos = ta__bump_take(b, c->members + 1, sizeof(uint32_t));
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
    M->k_dyn = ta__bump_take(b, m, sizeof(uint64_t));
    M->pt_item = ta__bump_take(b, 8 * m + 64, sizeof(uint32_t));
    M->pt_old = ta__bump_take(b, 8 * m + 64, sizeof(uint32_t));
    M->pt_cap = (uint32_t)(8 * m + 64);
    M->order = ta__bump_take(b, 2 * m + nfx + 1, sizeof(uint32_t));
    M->tmp = ta__bump_take(b, 2 * m + nfx + 1, sizeof(uint32_t));
    M->off = ta__bump_take(b, m, sizeof(size_t));
    M->mo = ta__bump_take(b, m, sizeof(size_t));
    M->total = ta__bump_take(b, ns, sizeof(size_t));
    M->minmo = ta__bump_take(b, ns, sizeof(size_t));
    M->mcnt = ta__bump_take(b, ns, sizeof(uint32_t));
    {
        /* the minimum trail: up to ns entries a placement; beyond its
         * capacity a placement's undo rescans instead */
        size_t cap = m * ns < (1u << 18) ? m * ns : (1u << 18);
        if (cap < ns) cap = ns;
        M->mt_s = ta__bump_take(b, cap, sizeof(uint32_t));
        M->mt_cnt = ta__bump_take(b, cap, sizeof(uint32_t));
        M->mt_min = ta__bump_take(b, cap, sizeof(size_t));
        M->mt_cap = (uint32_t)cap;
    }
    M->a_min = ta__bump_take(b, ns, sizeof(size_t));
    M->a_cnt = ta__bump_take(b, ns, sizeof(uint32_t));
    M->lift = ta__bump_take(b, ns, sizeof(uint32_t));
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
    M->total0 = ta__bump_take(b, ns, sizeof(size_t));
    /* The tiling searches' arrays (about 0.5 MB at 1,000 buffers, plus m^2/8
     * bytes of conflict sets): only where they can run (see opt_counts). */
    if (c->sweeps) {
        M->t_list = ta__bump_take(b, m, sizeof(uint32_t));
        M->t_rnd = ta__bump_take(b, m, sizeof(uint32_t));
        M->t_hs = ta__bump_take(b, ns + 2, sizeof(uint32_t));
        M->t_hl = ta__bump_take(b, m, sizeof(uint32_t));
        M->t_dep = ta__bump_take(b, m, sizeof(uint32_t));
        M->t_left = ta__bump_take(b, ns + 1, sizeof(uint32_t));
        M->t_z = ta__bump_take(b, m, sizeof(uint64_t));
        M->t_w = (m + 64) / 64;
        M->t_cs = ta__bump_take(b, (m + 1) * M->t_w, sizeof(uint64_t));
        M->t_sums = ta__bump_take(b, (ns + 1) * (size_t)OPT_TILE_SUM_WORDS, sizeof(uint64_t));
        M->t_szl = ta__bump_take(b, m, sizeof(uint32_t));
        M->t_suf = ta__bump_take(b, (OPT_TILE_SUF + 1) * (size_t)OPT_TILE_SUM_WORDS, sizeof(uint64_t));
        M->t_iv = ta__bump_take(b, 2 * m + 2, sizeof(uint32_t));
        M->t_seg = ta__bump_take(b, 4 * m + 4, sizeof(size_t));
        M->t_py = ta__bump_take(b, 64 * OPT_TILE_SUM_WORDS, sizeof(size_t));
        M->t_pr = ta__bump_take(b, 64 * OPT_TILE_SUM_WORDS, sizeof(uint64_t));
        M->t_pg = ta__bump_take(b, 64 * OPT_TILE_SUM_WORDS, sizeof(uint32_t));
        M->t_pid = ta__bump_take(b, 64 * OPT_TILE_SUM_WORDS, sizeof(uint32_t));
        M->t_ptmp = ta__bump_take(b, 64 * OPT_TILE_SUM_WORDS, sizeof(uint32_t));
        {
            /* the time sweep's offset stack: one node's list at most 64 *
             * OPT_TILE_SUM_WORDS offsets (on event packings some hundred); a
             * node whose list no longer fits above its ancestors' enumerates
             * again at each re-entry, as before */
            size_t cc = 16 * m + 64 * (size_t)OPT_TILE_SUM_WORDS, sc = 8 * m + 64;
            M->t_cy = ta__bump_take(b, cc, sizeof(size_t));
            M->t_cr = ta__bump_take(b, cc, sizeof(uint64_t));
            M->t_cg = ta__bump_take(b, cc, sizeof(uint32_t));
            M->t_cseg = ta__bump_take(b, 2 * sc, sizeof(size_t));
            M->t_ccap = (uint32_t)cc;
            M->t_scap = (uint32_t)sc;
        }
        M->t_fr = ta__bump_take(b, m + 1, sizeof(tframe));
        M->s_h = ta__bump_take(b, ns, sizeof(size_t));
        M->s_off = ta__bump_take(b, m, sizeof(size_t));
        M->s_mh = ta__bump_take(b, m, sizeof(size_t));
        M->s_tv = ta__bump_take(b, 2 * c->pairs + 1, sizeof(uint32_t)); /* a path raises each pair's value at most once a side */
        M->s_to = ta__bump_take(b, 2 * c->pairs + 1, sizeof(size_t));
        M->s_hs = ta__bump_take(b, ns + 2, sizeof(uint32_t));
        M->s_hl = ta__bump_take(b, m, sizeof(uint32_t));
        M->s_acc = ta__bump_take(b, ns + 1, sizeof(size_t));
        M->s_list = ta__bump_take(b, m, sizeof(uint32_t));
        M->s_rnk = ta__bump_take(b, m, sizeof(uint32_t));
        M->s_z = ta__bump_take(b, m, sizeof(uint64_t));
        M->s_mark = ta__bump_take(b, ns + 1, sizeof(uint32_t));
        M->s_fr = ta__bump_take(b, m + 1, sizeof(sframe));
    }
    ta__opt_beam_carve(b, c, M); /* plan_optimal_beam.c */
    ta__opt_pq_carve(b, c, M);   /* plan_optimal_pq.c */
}

/* count_sizes, then drop the search when its state would be too large.
 * The limit counts the beam's states whenever nothing is fixed, as it did
 * when they were carved for every such problem, so which problems are
 * searched exactly stays as it was: counting only what is carved would
 * move some dense problems of 1,900-3,500 buffers from plan_optimal_large.c's
 * windows to the exact search, a change of strategy to measure on its own. */
void ta__opt_layout(const ta_request *reqs, size_t n, opt_counts *c) {
    count_sizes(reqs, n, c);
    if (!c->search) return;
    opt_counts lim = *c;
    lim.tiling = c->nfx == 0;
    lim.sweeps = true;
    ta__bump b;
    opt_mem M;
    ta__bump_init(&b, NULL, 0);
    ta__opt_carve(&b, &lim, &M);
    if (ta__bump_need(&b) > OPT_MAX_SCRATCH) c->search = false;
}

/* any_subset: the beam's states counted even when reqs[0..n) is no tiling
 * question, for a caller that plans subsets of it in this scratch. */
static ta_status opt_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, bool any_subset,
                             size_t *bytes) {
    if (ta__n_rel(opt)) return ta__opt_rel_scratch(reqs, n, opt, bytes); /* see opt_plan */
    const ta_strategy *best = ta_strategy_find("best");
    size_t best_need = 0;
    ta_status st = best->scratch_bytes(reqs, n, opt, &best_need);
    if (st) return st;
    opt_counts c;
    ta__opt_layout(reqs, n, &c);
    if (any_subset) c.tiling = c.order = c.sweeps = true;
    ta__bump b;
    opt_mem M;
    ta__bump_init(&b, NULL, 0);
    ta__bump_take(&b, best_need, 1);
    if (c.search) ta__opt_carve(&b, &c, &M);
    else if (c.m) ta__bump_take(&b, ta__opt_large_bytes(n), 1); /* plan_optimal_large.c */
    *bytes = ta__bump_need(&b);
    return *bytes == SIZE_MAX ? TA_E_OVERFLOW : TA_OK;
}

ta_status ta__opt_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    return opt_scratch(reqs, n, opt, false, bytes);
}

/* A subset can be a tiling question where the whole list is not (the
 * beam's states are carved only for those), so this is the whole list's
 * need with the beam counted: the subset's other arrays grow with its
 * buffers and pairs, which the whole list has more of. */
ta_status ta__opt_scratch_subsets(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    return opt_scratch(reqs, n, opt, true, bytes);
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
void ta__opt_setup(opt_mem *M, const ta_request *r, size_t n) {
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
        uint32_t at = 0;
        for (uint32_t i = 0; i < m; i++) {
            M->sm_at[i] = at;
            at += M->hi[i] - M->lo[i];
        }
        M->sm_at[m] = at;
        for (uint32_t s = 0; s < ns; s++)
            for (uint32_t x = M->sm_start[s]; x < M->sm_start[s + 1]; x++)
                M->sm_pos[M->sm_at[M->sm[x]] + s - M->lo[M->sm[x]]] = x;
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
    M->uniform = nfx == 0;
    for (uint32_t i = 1; i < m; i++) M->uniform &= M->align[i] == M->align[0];
    /* scratch arrives uninitialised: the section marks must start clear */
    for (uint32_t s = 0; s < ns; s++) M->mark[s] = 0;
    M->epoch = 0;
}

/* ---- preorders -------------------------------------------------------- */

typedef struct {
    const opt_mem *M;
    uint32_t heur;
    const uint64_t *tot; /* the T key */
} pre_ctx;

/* Static tie-break orders (all descending, then input order), the three
 * MiniMalloc rotates through: T = the largest section total the buffer
 * sits in, W = lifetime width, A = area (size x width). */
static int cmp_pre(uint32_t a, uint32_t b, const void *vctx) {
    const pre_ctx *c = vctx;
    const opt_mem *M = c->M;
    static const char *const keys[OPT_HEURISTICS] = {"TAW", "WAT", "TWA"};
    for (const char *k = keys[c->heur]; *k; k++) {
        const uint64_t *v = *k == 'T' ? c->tot : *k == 'W' ? M->k_w : M->k_area;
        if (v[a] != v[b]) return v[a] > v[b] ? -1 : 1;
    }
    return (a > b) - (a < b);
}

void ta__opt_preorder_keys(opt_mem *M) {
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

void ta__opt_set_heuristic(opt_mem *M, uint32_t heur) {
    M->heur = heur;
    for (uint32_t i = 0; i < M->m; i++) M->order[i] = i;
    pre_ctx c = {M, heur, M->k_tot};
    ta__sort_ids(M->order, M->m, cmp_pre, &c, M->tmp);
    for (uint32_t k = 0; k < M->m; k++) M->pre[M->order[k]] = k + 1; /* 0 = below all */
}

/* A piece's own order (plan_optimal.c, rerank): the same keys, with T read
 * from k_dyn, the bytes still unplaced where each item lives. */
void ta__opt_sort_dyn(opt_mem *M, uint32_t *ids, uint32_t k) {
    pre_ctx c = {M, M->heur, M->k_dyn};
    ta__sort_ids(ids, k, cmp_pre, &c, M->tmp);
}
