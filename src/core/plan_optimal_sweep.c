/*
 * The optimal strategy's second tiling search, the byte sweep, and the
 * portfolio that runs it with the first (plan_optimal_tile.c, the time
 * sweep).  Both decide whether the buffers tile the capacity C exactly,
 * with no byte free at any step (every time section's live bytes are 0 or
 * C: ta__opt_tile_applies).
 *
 * The time sweep fills, boundary after boundary, the bytes the ending
 * buffers free; its wrong choices show only when the buffers they moved
 * end, several boundaries later.  The byte sweep fills from the bottom up,
 * the bottom-left rule of perfect rectangle packing with every buffer's
 * lifetime fixed and only its offset free.  The placed buffers always fill
 * exactly the bytes under a skyline: one height per time section.  Take a
 * valley of the skyline: a segment [a, b) at height h whose neighbours both
 * stand higher (or are the ends, or sections where nothing lives).  Its
 * byte (a, h) is free, so some unplaced buffer covers it; every byte under
 * h is taken there, so it sits at offset exactly h; the section left of a
 * is taken at h, so the buffer starts at a; the one at b too, so it ends by
 * b.  Mirrored in time, the byte (b - 1, h) is covered by a buffer that
 * ends at b, starts at a or later and sits at h.  A node takes the valley
 * and the end with the fewest such candidates and branches on them only
 * (a placement keeps the skyline exact: the buffer's sections were all at
 * h): a plan exists iff one of them leads to one, so an exhausted search
 * proves that none does.
 *
 * Why it complements the time sweep: the buffers that the time sweep can
 * put at dozens of offsets within a freed set have one place here (the
 * bottom of a valley), and cuts in bytes, which give many buffers the same
 * lifetime and so many exact refills at a boundary, cost it nothing.
 * Pruning after a placement:
 *
 *  - a valley beside the placed buffer is covered along its bottom row by a
 *    chain of buffers at its height, the first starting at its left end,
 *    each next where the previous ends, the last ending at its right end:
 *    a reachability check over the boundaries (a DAG whose edges are the
 *    unplaced buffers that fit);
 *  - every unplaced buffer overlapping the placed one must still fit under
 *    C above the highest skyline over its lifetime, and every section's
 *    lowest free byte must have an unplaced buffer that can sit there;
 *  - pits (pit_ok): below the level of its higher neighbours, a range of
 *    sections is filled only by buffers that live within it;
 *  - the skyline depends only on the placed set (its height at a section is
 *    the placed bytes live there), so what is left to do depends only on
 *    which buffers are placed: a failed placed set is remembered (the
 *    optimal search's memo, keyed by a sum of per-buffer class keys), and
 *    the same set reached through other offsets fails at once.  Equal
 *    buffers (same lifetime, size and alignment) share a key, and only the
 *    first unplaced one of a class is a candidate.
 *
 * Candidates are tried in a dynamic order: first those whose top meets the
 * neighbouring skyline (the segment merges, fewer steps left in the
 * skyline) or the capacity, then by a per-run random rank; runs restart on
 * a Luby schedule and keep the memo.  The search's
 * state stays in opt_mem between calls, so the portfolio's slices resume it.
 */
#include "core/plan_optimal.h"

enum { S_FOUND, S_INFEASIBLE, S_LIMIT };

/* The Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), i >= 1. */
static uint64_t sluby(uint64_t i) {
    for (;;) {
        uint64_t k = 1;
        while (((uint64_t)1 << k) - 1 < i) k++;
        if (((uint64_t)1 << k) - 1 == i) return (uint64_t)1 << (k - 1);
        i -= ((uint64_t)1 << (k - 1)) - 1;
    }
}

/* Memo keys of this search live in the same table as the time sweep's:
 * a domain constant keeps the two key sets apart. */
static uint64_t skey1(uint64_t key) { return (key ^ 0x6A09E667F3BCC909ull) | 1; }
static uint64_t skey2(uint64_t key) { return ta__mix64(key ^ 0xB7E151628AED2A6Bull); }

static bool smemo_has(const opt_mem *M, uint64_t key) { return ta__opt_fail_has(M, skey1(key), skey2(key)); }
static void smemo_put(opt_mem *M, uint64_t key) { ta__opt_fail_put(M, skey1(key), skey2(key)); }

static bool same_class(const opt_mem *M, uint32_t u, uint32_t v) {
    return M->lo[u] == M->lo[v] && M->hi[u] == M->hi[v] && M->size[u] == M->size[v] && M->align[u] == M->align[v];
}

/* By start, then class (so equal buffers are neighbours), then index. */
static int cmp_class(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    if (M->lo[a] != M->lo[b]) return M->lo[a] < M->lo[b] ? -1 : 1;
    if (M->hi[a] != M->hi[b]) return M->hi[a] < M->hi[b] ? -1 : 1;
    if (M->size[a] != M->size[b]) return M->size[a] < M->size[b] ? -1 : 1;
    if (M->align[a] != M->align[b]) return M->align[a] < M->align[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* By end, then class, then index. */
static int cmp_class_hi(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    if (M->hi[a] != M->hi[b]) return M->hi[a] < M->hi[b] ? -1 : 1;
    return cmp_class(a, b, ctx);
}

/* A run's static order: in the first run larger first, then longer, ties
 * by input order; in every later run by the run's random key (s_off holds
 * it while new_run sorts).  Larger first piles the large buffers at the
 * bottom of every valley: right for cuts in bytes (the first run finds
 * most guillotine packings in a few hundred nodes), wrong for event
 * packings, which have them anywhere.  On 500,000 nodes (bench_sweep, seeds
 * 0-9 / 10-19): larger first in every run found 5 / 3 event packings of 10
 * at 150 buffers, 2 / 5 at 200, 0 / 0 at 300; random from the second run
 * on 9 / 9, 6 / 5, 2 / 1; and guillotine packings (300,000 nodes, 80-200
 * buffers) 40 of 40 against 36.  Random in every run, the first too: 40 of
 * 40 guillotine but a median of 17,369 nodes at 200 buffers against 228. */
static int cmp_static(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    if (M->s_round && M->s_off[a] != M->s_off[b]) return M->s_off[a] < M->s_off[b] ? -1 : 1;
    if (M->size[a] != M->size[b]) return M->size[a] > M->size[b] ? -1 : 1;
    uint32_t la = M->hi[a] - M->lo[a], lb = M->hi[b] - M->lo[b];
    if (la != lb) return la > lb ? -1 : 1;
    if (M->s_off[a] != M->s_off[b]) return M->s_off[a] < M->s_off[b] ? -1 : 1;
    return (a > b) - (a < b);
}

static uint64_t szkey(const opt_mem *M, uint32_t u) { return M->s_z[u]; }

/* Placing u raises its sections to exactly its top (they were all at its
 * offset), so every buffer overlapping it sees at least that top.  The
 * values it raises go on a trail (s_tv, s_to), for sunplace. */
static void splace(opt_mem *M, uint32_t u, size_t y) {
    size_t top = y + M->size[u];
    M->s_off[u] = y;
    M->s_key += szkey(M, u);
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) M->s_h[s] = top;
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++) {
        uint32_t v = M->ov[k];
        if (M->s_mh[v] < top) {
            M->s_tv[M->s_tn] = v;
            M->s_to[M->s_tn++] = M->s_mh[v];
            M->s_mh[v] = top;
        }
    }
}

/* Undoes splace(u), the latest placement still on (the sweep places and
 * removes in stack order): the skyline goes back, and so do the values u
 * raised, from the trail down to tr (the trail's top before u).  Every
 * unplaced buffer's value was exact before u and the skyline is as it
 * was, so it is exact again; a placed one's may stay stale, as it did
 * before: nothing reads it until its own removal recomputes it.
 * (Recomputing every neighbour over its lifetime instead was a fifth of
 * the byte sweep's instructions.) */
static void sunplace(opt_mem *M, uint32_t u, uint32_t tr) {
    M->s_key -= szkey(M, u);
    size_t y = M->s_off[u];
    M->s_off[u] = NONE;
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) M->s_h[s] = y;
    while (M->s_tn > tr) {
        M->s_tn--;
        M->s_mh[M->s_tv[M->s_tn]] = M->s_to[M->s_tn];
    }
    /* u's own value went stale while it was placed (it saw the tops of
     * the buffers placed beside it) */
    size_t t = 0;
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++)
        if (M->s_h[s] > t) t = M->s_h[s];
    M->s_mh[u] = t;
}

/* Can the bottom row of [a, b) at height g be covered by a chain of
 * unplaced buffers at offset g, from boundary a to boundary b? */
static bool chain_ok(opt_mem *M, uint32_t a, uint32_t b, size_t g, size_t C) {
    uint32_t ep = ++M->s_epoch;
    if (!ep) { /* wrapped: clear the marks */
        for (uint32_t s = 0; s <= M->ns; s++) M->s_mark[s] = 0;
        ep = M->s_epoch = 1;
    }
    M->s_mark[a] = ep;
    for (uint32_t x = a; x < b; x++) {
        if (M->s_mark[x] != ep) continue;
        for (uint32_t k = M->lo_start[x]; k < M->lo_start[x + 1]; k++) {
            uint32_t v = M->s_list[k];
            if (M->s_off[v] != NONE || M->hi[v] > b || M->size[v] > C - g || g % M->align[v]) continue;
            if (M->hi[v] == b) return true;
            M->s_mark[M->hi[v]] = ep;
        }
    }
    return false;
}

/* The skyline segment around section s: [*a, *b) at s's height. */
static void segment_of(const opt_mem *M, uint32_t s, uint32_t *a, uint32_t *b) {
    size_t g = M->s_h[s];
    uint32_t x = s, y = s + 1;
    while (x > 0 && M->s_h[x - 1] == g) x--;
    while (y < M->ns && M->s_h[y] == g) y++;
    *a = x;
    *b = y;
}

/* Is a segment [a, b) at height g < C a valley (no lower neighbour)?
 * Then its bottom row needs a chain. */
static bool valley_ok(opt_mem *M, uint32_t a, uint32_t b, size_t C) {
    size_t g = M->s_h[a];
    if (g >= C) return true;
    if (a > 0 && M->s_h[a - 1] < g) return true;
    if (b < M->ns && M->s_h[b] < g) return true;
    return chain_ok(M, a, b, g, C);
}

/* Pits.  Take the sections around s whose skyline is at most some level,
 * widened level by level: a range [a, b) whose outside neighbours both
 * stand higher, at least lam (C at the ends and at empty sections).  A
 * byte (x, y) with x in [a, b) and y < lam belongs to a buffer that cannot
 * reach outside [a, b): left of a (and right of b) the bytes below lam are
 * placed.  So at every section x of the range the unplaced buffers that
 * live within [a, b) must add up to lam - h[x] at least.  Checks every
 * level up to C (the last, where it is the volume, holds by itself). */
static bool pit_ok(opt_mem *M, uint32_t s, size_t C) {
    if (s >= M->ns || M->s_h[s] >= C) return true;
    uint32_t a, b, ns = M->ns;
    segment_of(M, s, &a, &b);
    size_t *acc = M->s_acc; /* over [a, b]: the confined buffers' bytes, as differences */
    for (uint32_t x = a; x <= b; x++) acc[x] = 0;
    for (uint32_t k = M->lo_start[a]; k < M->lo_start[b]; k++) {
        uint32_t v = M->s_list[k];
        if (M->s_off[v] != NONE || M->hi[v] > b) continue;
        acc[M->lo[v]] += M->size[v];
        acc[M->hi[v]] -= M->size[v];
    }
    for (;;) {
        size_t L = a > 0 ? M->s_h[a - 1] : C, R = b < ns ? M->s_h[b] : C, lam = L < R ? L : R;
        if (lam >= C) return true;
        size_t run = 0;
        for (uint32_t x = a; x < b; x++) {
            run += acc[x];
            if (M->s_h[x] < lam && run < lam - M->s_h[x]) return false;
        }
        /* the next level: take in the neighbours at lam.  A buffer
         * confined to [a, b) stays confined to the wider range, so only
         * the ones it newly confines are added (rescanning the whole range
         * at every level was two thirds of the byte sweep's instructions):
         * those starting left of a, and those ending right of b. */
        uint32_t a2 = a, b2 = b;
        while (a2 > 0 && M->s_h[a2 - 1] <= lam) a2--;
        while (b2 < ns && M->s_h[b2] <= lam) b2++;
        for (uint32_t x = a2; x < a; x++) acc[x] = 0;
        for (uint32_t x = b + 1; x <= b2; x++) acc[x] = 0;
        for (uint32_t k = M->lo_start[a2]; k < M->lo_start[a]; k++) {
            uint32_t v = M->s_list[k];
            if (M->s_off[v] != NONE || M->hi[v] > b2) continue;
            acc[M->lo[v]] += M->size[v];
            acc[M->hi[v]] -= M->size[v];
        }
        for (uint32_t k = M->s_hs[b + 1]; k < M->s_hs[b2 + 1]; k++) {
            uint32_t v = M->s_hl[k];
            if (M->s_off[v] != NONE || M->lo[v] < a) continue;
            acc[M->lo[v]] += M->size[v];
            acc[M->hi[v]] -= M->size[v];
        }
        a = a2;
        b = b2;
    }
}

/* After u went to the bottom of a valley at one of its ends: what it
 * changed must still be completable. */
static bool prune_ok(opt_mem *M, uint32_t u, size_t C) {
    /* every unplaced buffer overlapping u fits above the skyline */
    uint32_t ra = M->lo[u], rb = M->hi[u];
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++) {
        uint32_t v = M->ov[k];
        if (M->s_off[v] != NONE) continue;
        size_t top = M->s_mh[v], al = M->align[v];
        if (top > C - M->size[v]) return false;
        if (al > 1 && (top + al - 1) / al * al > C - M->size[v]) return false; /* the lowest aligned offset */
        if (M->lo[v] < ra) ra = M->lo[v];
        if (M->hi[v] > rb) rb = M->hi[v];
    }
    /* every section's lowest free byte is covered by some unplaced buffer
     * sitting exactly there: one live there whose lifetime is nowhere
     * higher, that fits and is aligned there.  Only sections where u or a
     * buffer it overlaps live can have lost their last such buffer. */
    for (uint32_t s = ra; s < rb; s++) {
        size_t g = M->s_h[s];
        if (g >= C) continue;
        bool ok = false;
        for (uint32_t k = M->sm_start[s]; k < M->sm_start[s + 1] && !ok; k++) {
            uint32_t v = M->sm[k];
            ok = M->s_off[v] == NONE && M->s_mh[v] == g && M->size[v] <= C - g && g % M->align[v] == 0;
        }
        if (!ok) return false;
    }
    /* the pits beside u and the one it now stands in */
    if (!pit_ok(M, M->hi[u], C) || (M->lo[u] > 0 && !pit_ok(M, M->lo[u] - 1, C)) || !pit_ok(M, M->lo[u], C))
        return false;
    /* the rest of the valley on either side of u (still a valley: u rose
     * beside it), and u's new segment */
    uint32_t a, b;
    if (M->hi[u] < M->ns) {
        segment_of(M, M->hi[u], &a, &b);
        if (!valley_ok(M, a, b, C)) return false;
    }
    if (M->lo[u] > 0) {
        segment_of(M, M->lo[u] - 1, &a, &b);
        if (!valley_ok(M, a, b, C)) return false;
    }
    segment_of(M, M->lo[u], &a, &b);
    return valley_ok(M, a, b, C);
}

/* The candidates of valley [a, b) at height g on one side: the buffers
 * starting at a and ending by b (left), or ending at b and starting at a
 * or later (right): by the bottom-left argument mirrored in time, the
 * byte (b - 1, g) is covered by a buffer that ends at b and sits at g.
 * *k0 and *k1: their range in s_list or s_hl. */
static const uint32_t *side_list(const opt_mem *M, bool right, uint32_t a, uint32_t b, uint32_t *k0, uint32_t *k1) {
    if (right) {
        *k0 = M->s_hs[b];
        *k1 = M->s_hs[b + 1];
        return M->s_hl;
    }
    *k0 = M->lo_start[a];
    *k1 = M->lo_start[a + 1];
    return M->s_list;
}

/* Is list[k] a candidate of valley [a, b) at g on that side (the first
 * unplaced one of its class: equal buffers are interchangeable)? */
static bool is_cand(const opt_mem *M, const uint32_t *list, uint32_t k0, uint32_t k, bool right, uint32_t a,
                    uint32_t b, size_t g, size_t C) {
    uint32_t u = list[k];
    if (M->s_off[u] != NONE || M->size[u] > C - g || g % M->align[u]) return false;
    if (right ? M->lo[u] < a : M->hi[u] > b) return false;
    return !(k > k0 && same_class(M, list[k - 1], u) && M->s_off[list[k - 1]] == NONE);
}

/* Candidates on one side of valley [a, b) at g (at most `stop` counted).
 * (Counting only those that pass prune_ok once placed took 5x the
 * placements for the same problems solved.) */
static uint32_t count_cands(const opt_mem *M, bool right, uint32_t a, uint32_t b, size_t g, size_t C, uint32_t stop) {
    uint32_t k0, k1, n = 0;
    const uint32_t *list = side_list(M, right, a, b, &k0, &k1);
    for (uint32_t k = k0; k < k1 && n < stop; k++) n += is_cand(M, list, k0, k, right, a, b, g, C);
    return n;
}

/* The node's segment and side: any valley (a segment whose neighbours both
 * stand higher) has its bottom-left byte covered by a buffer that starts
 * there and sits exactly at its height, and its bottom-right byte by one
 * that ends there, not only the lowest valley.  So branch where that buffer
 * has the fewest candidates (a forced one first, a dead valley at once),
 * ties to the leftmost (earliest in time), then the left side: the search
 * then fills time roughly in order.  (Ties to the lowest valley first, as
 * before, proved 8 of 10 event packings at 150 buffers, 4 of 10 at 200 and
 * 1 of 10 at 300 against 9, 5 and 2; ties at random 2 of 10 at 150.)
 * False when the skyline is at C everywhere. */
static bool choose(const opt_mem *M, size_t C, sframe *f) {
    uint32_t ns = M->ns, bn = UINT32_MAX;
    bool any = false;
    for (uint32_t a = 0; a < ns;) {
        size_t g = M->s_h[a];
        uint32_t b = a + 1;
        while (b < ns && M->s_h[b] == g) b++;
        if (g < C && (a == 0 || M->s_h[a - 1] > g) && (b == ns || M->s_h[b] > g)) {
            for (int side = 0; side < 2 && bn; side++) {
                uint32_t n = count_cands(M, side == 1, a, b, g, C, bn);
                if (!any || n < bn) {
                    bn = n;
                    f->t0 = a;
                    f->t1 = b;
                    f->h = g;
                    f->right = side == 1;
                    any = true;
                }
            }
            if (!bn) break;
        }
        a = b;
    }
    return any;
}

/* The next candidate at node f: the one with the least rank above
 * f->last; NIL when none is left.  Rank: merges first (its top meets the
 * skyline beside the valley on its side, or on both sides when it spans
 * the valley, or C), then the run's order. */
static uint32_t next_cand(const opt_mem *M, const sframe *f, size_t C, uint64_t *rank) {
    uint32_t best = NIL, k0, k1;
    uint64_t br = UINT64_MAX;
    size_t left = f->t0 > 0 ? M->s_h[f->t0 - 1] : C, right = f->t1 < M->ns ? M->s_h[f->t1] : C;
    size_t near = f->right ? right : left, far = f->right ? left : right;
    const uint32_t *list = side_list(M, f->right, f->t0, f->t1, &k0, &k1);
    for (uint32_t k = k0; k < k1; k++) {
        if (!is_cand(M, list, k0, k, f->right, f->t0, f->t1, f->h, C)) continue;
        uint32_t u = list[k];
        size_t top = f->h + M->size[u];
        bool spans = M->lo[u] == f->t0 && M->hi[u] == f->t1;
        uint64_t prio = 2;
        if (top == C || top == near || (spans && top == far)) prio = 1;
        if (spans && top == near && top == far) prio = 0;
        uint64_t r = (prio << 32) + M->s_rnk[u] + 1;
        if (r > f->last && r < br) {
            br = r;
            best = u;
        }
    }
    *rank = br;
    return best;
}

/* A new run: nothing placed, the static order reshuffled (the first run
 * keeps the input order among ties). */
static void new_run(opt_mem *M, size_t C) {
    uint32_t m = M->m;
    for (uint32_t i = 0; i < m; i++) {
        M->s_off[i] = M->s_round ? ta__mix64(M->s_rng += 0x9E3779B97F4A7C15ull) : i;
        M->tmp[i] = i;
    }
    uint32_t *ord = M->tmp, *tmp = M->tmp + m;
    ta__sort_ids(ord, m, cmp_static, M, tmp);
    for (uint32_t i = 0; i < m; i++) M->s_rnk[ord[i]] = i;
    for (uint32_t i = 0; i < m; i++) M->s_off[i] = NONE;
    for (uint32_t s = 0; s < M->ns; s++) M->s_h[s] = M->total[s] ? 0 : C;
    for (uint32_t i = 0; i < m; i++) M->s_mh[i] = 0; /* items live in nonempty sections only */
    M->s_tn = 0;
    M->s_key = 0;
    M->s_d = 0;
    M->s_fr[0].init = false;
    M->s_fr[0].item = NIL;
    M->s_run = 0;
    M->s_run_cap = (100u + 2u * (uint64_t)m) * sluby(M->s_round + 1);
    M->s_round++;
}

void ta__opt_sweep_init(opt_mem *M, size_t C) {
    uint32_t m = M->m;
    for (uint32_t i = 0; i < m; i++) {
        M->s_z[i] = ta__mix64(((uint64_t)M->lo[i] << 40) ^ ((uint64_t)M->hi[i] << 12) ^ 0x3C6EF372FE94F82Bull) +
                    ta__mix64((uint64_t)M->size[i] * 0x9E3779B97F4A7C15ull + M->align[i] + 0xA54FF53A5F1D36F1ull);
        M->s_list[i] = i;
    }
    ta__sort_ids(M->s_list, m, cmp_class, M, M->tmp);
    /* items by end boundary */
    for (uint32_t t = 0; t <= M->ns + 1; t++) M->s_hs[t] = 0;
    for (uint32_t i = 0; i < m; i++) {
        M->s_hs[M->hi[i] + 1]++;
        M->s_hl[i] = i;
    }
    for (uint32_t t = 0; t <= M->ns; t++) M->s_hs[t + 1] += M->s_hs[t];
    ta__sort_ids(M->s_hl, m, cmp_class_hi, M, M->tmp);
    for (uint32_t s = 0; s <= M->ns; s++) M->s_mark[s] = 0;
    M->s_epoch = 0;
    M->s_round = 0;
    M->s_rng = 0x5EE9B17Eull;
    M->s_d = 0;
    M->s_run = 0;
    M->s_run_cap = 0; /* the first call starts a run */
}

int ta__opt_sweep(opt_mem *M, size_t C, uint64_t node_cap) {
    uint32_t m = M->m;
    M->nodes = 0;
    M->node_cap = node_cap;
    if (!M->s_run_cap) new_run(M, C);
    sframe *F = M->s_fr;
    for (;;) {
        if (ta__opt_out_of_budget(M)) return S_LIMIT;
        if (M->s_run >= M->s_run_cap) new_run(M, C); /* restart; the memo stays */
        uint32_t d = M->s_d;
        sframe *f = &F[d];
        if (!f->init) {
            f->item = NIL;
            f->last = 0;
            f->key = M->s_key;
            f->init = true;
            if (d == m || !choose(M, C, f)) {
                /* all placed: the skyline is at C everywhere */
                for (uint32_t i = 0; i < m; i++) M->off[i] = M->s_off[i];
                M->s_run_cap = 0; /* a later call starts over */
                return S_FOUND;
            }
            if (smemo_has(M, f->key)) {
                goto fail;
            }
        }
        if (f->item != NIL) {
            sunplace(M, f->item, f->tr);
            f->item = NIL;
        }
        {
            uint64_t r;
            uint32_t u = next_cand(M, f, C, &r);
            if (u == NIL) goto fail;
            M->nodes++;
            M->s_run++;
            f->last = r;
            f->tr = M->s_tn;
            splace(M, u, f->h);
            f->item = u;
            if (!prune_ok(M, u, C)) {
                continue;
            }
            M->s_d = d + 1;
            F[d + 1].init = false;
            F[d + 1].item = NIL;
            continue;
        }
    fail:
        /* every candidate failed: no plan extends this placed set */
        smemo_put(M, f->key);
        f->init = false;
        if (d == 0) {
            M->s_run_cap = 0;
            return S_INFEASIBLE;
        }
        M->s_d = d - 1;
    }
}

/* One search of the portfolio and its slice: run(M, C, cap) searches on at
 * most cap nodes (and the deadline) and returns S_FOUND, S_INFEASIBLE or
 * S_LIMIT.  The slice is nodes + per_item * m nodes when nodes is not 0,
 * else `share` of the nodes left; with a clock, `share` of the time left
 * either way.  A search that resumes (the byte sweep: its state lives in
 * opt_mem) can appear more than once. */
typedef struct {
    int (*run)(opt_mem *M, size_t C, uint64_t cap);
    uint64_t nodes, per_item;
    double share;
} tile_slice;

/* Five slices: the byte sweep briefly (its first run, larger buffers
 * first, solves guillotine packings in a few hundred nodes, where the time
 * sweep needs hundreds of thousands), the order search
 * (plan_optimal_pq.c) with 7/8 of what is left (it finds most event
 * packings of 150-500 buffers in well under a million nodes, where the
 * others fail at 300 and more, and the others found none of the 500-buffer
 * packings it missed on 10 M nodes, so more of its time found 17 of 20
 * instead of 15; on guillotine packings it is the weakest, hence after the
 * byte sweep), the time sweep with 7/16 of what is
 * left, the beam (plan_optimal_beam.c; its nodes cost a fifth to a tenth
 * of the time sweep's CPU, so under a clock it gets far more of them) with
 * 7/8 of what is left then, the byte sweep with the rest.  The time sweep
 * gets one long slice because it cannot resume: it starts over at each
 * call, so slices that alternate and grow (4x, a quarter to the byte
 * sweep) cost it 3 of its 15 event packings on 3 M nodes (bench_sweep);
 * the byte sweep resumes, so its two slices are one search.  A new search
 * is one more entry. */
static const tile_slice PORTFOLIO[] = {
    {ta__opt_sweep, 3000, 60, 1.0},
    {ta__opt_pq, 0, 0, 7.0 / 8},
    {ta__opt_tile, 0, 0, 7.0 / 16},
    {ta__opt_beam, 0, 0, 7.0 / 8},
    {ta__opt_sweep, 0, 0, 1.0},
};

/* Runs slice sl on at most `cap` nodes and, with a clock, until its share
 * of the time left (the deadline is put back after). */
static int slice(opt_mem *M, size_t C, const tile_slice *sl, uint64_t cap) {
    uint64_t keep = M->deadline;
    bool clock = M->opt && M->opt->clock;
    if (clock) {
        uint64_t now = M->opt->clock(M->opt->clock_ctx);
        if (now < keep) M->deadline = now + (uint64_t)((double)(keep - now) * sl->share);
    }
    int r = sl->run(M, C, cap);
    M->deadline = keep;
    if (clock && M->timed_out && M->opt->clock(M->opt->clock_ctx) < keep) M->timed_out = false;
    return r;
}

int ta__opt_tile_portfolio(opt_mem *M, size_t C, uint64_t node_cap) {
    ta__opt_sweep_init(M, C);
    uint64_t spent = 0;
    size_t k, n = sizeof PORTFOLIO / sizeof PORTFOLIO[0];
    for (k = 0; k < n; k++) {
        const tile_slice *sl = &PORTFOLIO[k];
        uint64_t left = node_cap - spent, cap = left;
        if (sl->nodes) {
            uint64_t want = sl->nodes + sl->per_item * (uint64_t)M->m;
            cap = want < left ? want : left;
        } else if (sl->share < 1.0 && left != UINT64_MAX) {
            cap = (uint64_t)((double)left * sl->share);
        }
        int r = slice(M, C, sl, cap);
        spent += M->nodes;
        if (r != S_LIMIT) {
            M->nodes = spent;
            return r;
        }
        if (M->timed_out || spent >= node_cap) break;
    }
    M->nodes = spent;
    return S_LIMIT;
}
