/*
 * The optimal strategy's tiling search (plan_optimal.c calls it): decides
 * whether the buffers tile the capacity C exactly, with no byte free at
 * any step.  That is the question whenever every time section's live bytes
 * add up to C -- perfect packings, where the optimum is the lower bound and
 * the canonical search of decide() struggles: with a hundred buffers live
 * at once, the placement that makes a hole is often made a hundred
 * placements before the section bound sees it.
 *
 * In a tiling, the bytes a section boundary t frees (the buffers ending at
 * t) are exactly the bytes the buffers starting at t take: every byte is
 * covered on both sides, and a buffer live on both sides covers the same
 * byte on both.  So the search sweeps time: once every buffer ending at
 * boundary t is placed, the freed set F_t is known, and the buffers
 * starting at t must fill F_t exactly.  A node takes one such boundary and
 * one of its unplaced starting buffers, and tries it at every offset of
 * F_t's free part from which the rest can still be filled.  Every tiling
 * puts the buffer at one of them, so an exhausted search proves that no
 * tiling within C exists.
 *
 * Pruning: a candidate must leave a gap that the sizes starting at t can
 * fill (subset sums per boundary, precomputed); and when a placement puts
 * the last buffer ending at a later boundary t', F_t' is known, and each
 * of its intervals must be such a subset sum of the sizes starting at t'.
 * That catches a wrong order at t as soon as the buffers it moved end.
 *
 * Backjumping (conflict-directed): a failure at boundary t is explained by
 * the placements that shaped it -- the buffers ending at t (they make F_t)
 * and those already placed at t -- so the search returns straight to the
 * latest of them, past every placement in between that played no part (a
 * wrong order is usually found several boundaries after it was made).
 * Failed states are also remembered: a state is the set of placed buffers
 * with their offsets, hashed as a sum of per-buffer keys, where alike
 * buffers (same lifetime, size and alignment) share a key, so permutations
 * of equal buffers are one state and only the first of equal candidates is
 * tried.  These nogoods
 * stay valid across restarts: the search runs with a growing node budget,
 * and each restart shuffles the order of candidates that tie.
 */
#include "core/plan_optimal.h"

enum { T_FOUND, T_INFEASIBLE, T_LIMIT };

bool ta__opt_tile_applies(const opt_mem *M, size_t C) {
    if (M->nfx || !C) return false;
    for (uint32_t s = 0; s < M->ns; s++)
        if (M->total[s] && M->total[s] != C) return false;
    return true;
}

/* Can bytes `len` be made of sizes starting at boundary t (some subset)? */
static bool sum_ok(const opt_mem *M, uint32_t t, size_t len) {
    if (!len || !M->t_sw) return true;
    if (len % M->t_q) return false;
    size_t u = len / M->t_q;
    if (u >= 64 * M->t_sw) return false;
    return (M->t_sums[(size_t)t * M->t_sw + u / 64] >> (u % 64)) & 1;
}

/* ---- conflict sets: one bit per depth ---- */

static uint64_t *cs_of(opt_mem *M, uint32_t d) { return &M->t_cs[(size_t)d * M->t_w]; }

static void cs_clear(opt_mem *M, uint32_t d) {
    uint64_t *c = cs_of(M, d);
    for (uint64_t w = 0; w < M->t_w; w++) c[w] = 0;
}

static void cs_add(uint64_t *c, uint32_t dep) { c[dep / 64] |= (uint64_t)1 << (dep % 64); }

/* Adds the depths of the (placed) buffers ending at boundary t. */
static void cs_add_ending(opt_mem *M, uint64_t *c, uint32_t t) {
    for (uint32_t k = M->t_hs[t]; k < M->t_hs[t + 1]; k++) cs_add(c, M->t_dep[M->t_hl[k]]);
}

/* The buffers ending at boundary t (all placed), sorted by offset, into
 * t_iv[0..k); returns k. */
static uint32_t ending_sorted(opt_mem *M, uint32_t t) {
    uint32_t k = 0, *v = M->t_iv;
    for (uint32_t x = M->t_hs[t]; x < M->t_hs[t + 1]; x++) {
        uint32_t u = M->t_hl[x], j = k++;
        while (j > 0 && M->off[v[j - 1]] > M->off[u]) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = u;
    }
    return k;
}

/* A placed buffer's share of the state key: its class and its offset. */
static uint64_t zkey(const opt_mem *M, uint32_t u, size_t y) {
    return ta__mix64(M->t_z[u] ^ ((uint64_t)y * 0xD6E8FEB86659FD93ull));
}

static void tplace(opt_mem *M, uint32_t u, size_t y, uint32_t d) {
    M->off[u] = y;
    M->t_dep[u] = d;
    M->t_key += zkey(M, u, y);
    M->t_left[M->hi[u]]--;
}

static void tunplace(opt_mem *M, uint32_t u) {
    M->t_key -= zkey(M, u, M->off[u]);
    M->off[u] = NONE;
    M->t_left[M->hi[u]]++;
}

static bool same_class(const opt_mem *M, uint32_t u, uint32_t v) {
    return M->hi[u] == M->hi[v] && M->size[u] == M->size[v] && M->align[u] == M->align[v];
}

static uint64_t tkey1(uint64_t key) { return key | 1; }
static uint64_t tkey2(uint64_t key) { return ta__mix64(key ^ 0x243F6A8885A308D3ull); }
static bool memo_has(const opt_mem *M, uint64_t key) { return ta__opt_fail_has(M, tkey1(key), tkey2(key)); }
static void memo_put(opt_mem *M, uint64_t key) { ta__opt_fail_put(M, tkey1(key), tkey2(key)); }

/* Order within each start boundary (the buffer a node places, unless one
 * has at most one offset left): the one that ends first (its end is the
 * next boundary it shapes: once the last buffer ending there is placed,
 * that freed set is checked, and a wrong offset shows while it is still
 * the latest decision), then larger first (fewer offsets, and the small
 * ones fill what is left); ties by a per-restart random key.  Larger first
 * used to come before the end: a wrong order of small buffers with late
 * ends then showed only after everything placed in between. */
static int cmp_tile(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    if (M->lo[a] != M->lo[b]) return M->lo[a] < M->lo[b] ? -1 : 1;
    if (M->hi[a] != M->hi[b]) return M->hi[a] < M->hi[b] ? -1 : 1;
    if (M->size[a] != M->size[b]) return M->size[a] > M->size[b] ? -1 : 1;
    if (M->align[a] != M->align[b]) return M->align[a] > M->align[b] ? -1 : 1;
    if (M->t_rnd[a] != M->t_rnd[b]) return M->t_rnd[a] < M->t_rnd[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* A freed set's key: its boundary and its intervals in order.  A
 * boundary's search fails or not by its freed set alone when nothing else
 * is blamed (tsearch's fail), so failures are remembered by this key. */
static uint64_t shape_seed(uint32_t t) { return ta__mix64(0x51A9E0F1ull ^ ((uint64_t)t << 20)); }
static uint64_t shape_add(uint64_t key, size_t a, size_t e) {
    return ta__mix64(key ^ ((uint64_t)a * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)e << 1));
}

/* ---- exact partition: can the sizes fill the segments exactly? ---- */

#define PART_STEPS 512u /* a check that takes longer is given up (taken as possible) */

static bool part_rec(ta__part_chk *P, uint32_t i) {
    if (i == P->n) return true;
    if (++P->steps > PART_STEPS) return true;
    if (i + 1 == P->n) { /* the last size: any room that holds it (what the loop below finds first) */
        for (uint32_t j = 0; j < P->k; j++)
            if (P->rem[j] >= P->sz[i]) return true;
        return false;
    }
    /* segments with the same room are interchangeable: a room equal to an
     * earlier one is skipped.  An equal earlier room also holds sz[i], so
     * only the rooms that did (seen) are compared, not every earlier one. */
    uint32_t seen[TA__PART_MAX], ns = 0;
    for (uint32_t j = 0; j < P->k; j++) {
        uint32_t r = P->rem[j];
        if (r < P->sz[i]) continue;
        bool dup = false;
        for (uint32_t z = 0; z < ns && !dup; z++) dup = seen[z] == r;
        if (dup) continue;
        seen[ns++] = r;
        P->rem[j] -= P->sz[i];
        bool ok = part_rec(P, i + 1);
        P->rem[j] += P->sz[i];
        if (ok) return true;
    }
    return false;
}

bool ta__opt_part_run(ta__part_chk *P) {
    for (uint32_t i = 1; i < P->n; i++)
        for (uint32_t j = i; j > 0 && P->sz[j - 1] < P->sz[j]; j--) {
            uint32_t x = P->sz[j];
            P->sz[j] = P->sz[j - 1];
            P->sz[j - 1] = x;
        }
    P->steps = 0;
    return part_rec(P, 0);
}

bool ta__opt_part_items(const opt_mem *M, const uint32_t *list, size_t q, uint32_t t, ta__part_chk *P) {
    P->n = 0;
    for (uint32_t x = M->lo_start[t]; x < M->lo_start[t + 1]; x++) {
        uint32_t u = list[x];
        if (M->off[u] != NONE) continue;
        if (P->n == TA__PART_MAX) return false;
        P->sz[P->n++] = (uint32_t)(M->size[u] / q);
    }
    return true;
}

uint32_t ta__opt_free_segs(const opt_mem *M, const uint32_t *v, uint32_t k, const uint32_t *w, uint32_t j, size_t C,
                           size_t *seg) {
    bool whole = C != 0;
    uint32_t p = 0, ns = 0;
    for (uint32_t i = 0; whole || i < k;) {
        size_t a, e;
        if (whole) {
            a = 0;
            e = C;
        } else {
            a = M->off[v[i]];
            e = a + M->size[v[i]];
            for (i++; i < k && M->off[v[i]] == e; i++) e += M->size[v[i]];
        }
        for (; p < j && M->off[w[p]] < e; p++) {
            size_t o = M->off[w[p]];
            if (o > a) {
                seg[2 * ns] = a;
                seg[2 * ns + 1] = o;
                ns++;
            }
            a = o + M->size[w[p]];
        }
        if (a < e) {
            seg[2 * ns] = a;
            seg[2 * ns + 1] = e;
            ns++;
        }
        if (whole) break;
    }
    return ns;
}

bool ta__opt_part_seg(ta__part_chk *P, size_t q, size_t a, size_t e) {
    if (e <= a) return true;
    if (P->k == TA__PART_MAX) return false;
    P->rem[P->k++] = (uint32_t)((e - a) / q);
    return true;
}

/* Is F_t, the bytes freed at boundary t (a boundary where buffers start;
 * every buffer ending there placed), exactly fillable by the buffers
 * starting there? */
static bool future_ok(opt_mem *M, uint32_t t) {
    if (t >= M->ns || !M->total0[t] || !M->total0[t - 1]) return true;
    uint32_t k = ending_sorted(M, t);
    const uint32_t *v = M->t_iv;
    ta__part_chk P;
    P.k = 0;
    bool exact = ta__opt_part_items(M, M->t_szl, M->t_q, t, &P);
    uint64_t key = shape_seed(t);
    for (uint32_t i = 0; i < k;) {
        size_t a = M->off[v[i]], e = a + M->size[v[i]];
        for (i++; i < k && M->off[v[i]] == e; i++) e += M->size[v[i]];
        if (!sum_ok(M, t, e - a)) return false;
        if (exact) exact = ta__opt_part_seg(&P, M->t_q, a, e);
        key = shape_add(key, a, e);
    }
    if (memo_has(M, key)) return false; /* this freed set failed before */
    return !exact || ta__opt_part_run(&P);
}

/* The free segments of F_t at boundary t (F_t minus the buffers placed at
 * t), into t_seg as (start, end) pairs; returns their number.  Adds the
 * depths that shape them to c. */
static uint32_t free_segs(opt_mem *M, uint32_t t, size_t C, uint64_t *c) {
    uint32_t k = 0, j = 0;
    bool whole = t == 0 || !M->total0[t - 1];
    if (!whole) {
        cs_add_ending(M, c, t);
        k = ending_sorted(M, t);
    }
    uint32_t *v = M->t_iv, *w = M->t_iv + k; /* placed at t, by offset */
    for (uint32_t x = M->lo_start[t]; x < M->lo_start[t + 1]; x++) {
        uint32_t u = M->t_list[x];
        if (M->off[u] == NONE) continue;
        cs_add(c, M->t_dep[u]);
        uint32_t q = j++;
        while (q > 0 && M->off[w[q - 1]] > M->off[u]) {
            w[q] = w[q - 1];
            q--;
        }
        w[q] = u;
    }
    return ta__opt_free_segs(M, v, k, w, j, whole ? C : 0, M->t_seg);
}

void ta__opt_rem_sums(const opt_mem *M, const uint32_t *list, uint32_t t, uint32_t xu, uint64_t *bits) {
    for (uint64_t w = 0; w < M->t_sw; w++) bits[w] = 0;
    bits[0] = 1;
    for (uint32_t x = M->lo_start[t]; x < M->lo_start[t + 1]; x++) {
        uint32_t u = list[x];
        if (u == xu || M->off[u] != NONE) continue;
        ta__bits_add(bits, M->t_sw, M->size[u] / M->t_q);
    }
}


/* Sorts ids[0..n) (0..n-1 on entry) by rank r[id], ties by id: what a
 * stable sort by rank gives, in a merge sort whose comparison is inline
 * (through ta__sort_ids' callback it was a tenth of the search's
 * instructions: a node enumerates some hundred offsets).  tmp: n ids. */
static bool rank_lt(const uint64_t *r, uint32_t a, uint32_t b) { return r[a] < r[b] || (r[a] == r[b] && a < b); }

static void sort_by_rank(uint32_t *ids, uint32_t n, const uint64_t *r, uint32_t *tmp) {
    const uint32_t run = 16;
    for (uint32_t lo = 0; lo < n; lo += run) {
        uint32_t hi = lo + run < n ? lo + run : n;
        for (uint32_t i = lo + 1; i < hi; i++) {
            uint32_t v = ids[i], j = i;
            for (; j > lo && rank_lt(r, v, ids[j - 1]); j--) ids[j] = ids[j - 1];
            ids[j] = v;
        }
    }
    uint32_t *src = ids, *dst = tmp;
    for (uint32_t w = run; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = rank_lt(r, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint32_t *sw = src;
        src = dst;
        dst = sw;
    }
    if (src != ids)
        for (uint32_t i = 0; i < n; i++) ids[i] = src[i];
}

/* Offsets for u in the free segments (t_seg) above ymin from which the
 * rest of the segment can be filled (bits: the subset sums of the other
 * unplaced buffers starting at its boundary); stops counting at `stop`. */
static uint32_t count_pos(const opt_mem *M, uint32_t u, uint32_t nseg, size_t ymin, const uint64_t *bits,
                          uint32_t stop) {
    size_t sz = M->size[u], q = M->t_q;
    uint32_t n = 0;
    for (uint32_t g = 0; g < nseg && n < stop; g++) {
        size_t a = M->t_seg[2 * g], e = M->t_seg[2 * g + 1];
        if (e - a < sz) continue;
        size_t top = (e - a - sz) / q;
        for (size_t k = ta__bits_next(bits, 0, top); k != SIZE_MAX && n < stop; k = ta__bits_next(bits, k + 1, top)) {
            size_t y = a + k * q;
            if (ymin != NONE && y <= ymin) continue;
            if (ta__bits_has(bits, (e - y - sz) / q) && !(y % M->align[u])) n++;
        }
    }
    return n;
}

/* One depth-first run within the node budget.  Depth d places the d-th
 * buffer: at boundary F[d].t, the first unplaced buffer starting there, at
 * each offset of F_t's free part from which the rest can still be filled. */
static int tsearch(opt_mem *M, size_t C) {
    tframe *F = M->t_fr;
    uint32_t m = M->m, d = 0, t = 0;
    const size_t q = M->t_q;
    /* two buffers of subset sums: count_pos fills cur; the chosen
     * buffer's stay in best for its node's first enumeration */
    uint64_t bits_a[OPT_TILE_SUM_WORDS], bits_b[OPT_TILE_SUM_WORDS];
    uint64_t *cur = bits_a, *best = bits_b;
    for (uint32_t i = 0; i < m; i++) M->off[i] = NONE;
    for (uint32_t b = 0; b <= M->ns; b++) M->t_left[b] = M->t_hs[b + 1] - M->t_hs[b];
    M->t_key = 0;
enter:
    M->nodes++;
    if (ta__opt_out_of_budget(M)) return T_LIMIT;
    if (d == m) return T_FOUND;
    cs_clear(M, d);
    F[d].key = M->t_key;
    F[d].on = false;
    F[d].tried = false;
    F[d].built = false;
    F[d].cached = false;
    F[d].ymin = NONE;
    F[d].item = NIL;
    F[d].t = d ? F[d - 1].t : 0;
    if (memo_has(M, M->t_key)) {
        uint64_t *c = cs_of(M, d); /* a remembered failure: blame everything */
        for (uint32_t k = 0; k < d; k++) cs_add(c, k);
        F[d].item = NIL;
        goto fail;
    }
    /* The boundary to work on: among those whose freed set is known (every
     * buffer ending there placed) and still has buffers to place, the one
     * whose next buffer ends first.  A boundary need not wait for the
     * earlier ones to be complete: its starters go into its own freed set,
     * whose bytes no buffer placed elsewhere can take, so the order of
     * boundaries is free, and running ahead along the short-lived buffers
     * completes the freed sets they shape soonest.  (The buffer with the
     * least start always qualifies: all that ends at its start began
     * earlier and is placed.) */
    {
        uint32_t bh = UINT32_MAX;
        t = NIL;
        for (uint32_t b = 0; b < M->ns; b++) {
            if (M->t_left[b]) continue;
            uint32_t x = M->lo_start[b];
            while (x < M->lo_start[b + 1] && M->off[M->t_list[x]] != NONE) x++;
            if (x < M->lo_start[b + 1] && M->hi[M->t_list[x]] < bh) {
                bh = M->hi[M->t_list[x]];
                t = b;
            }
        }
    }
    F[d].t = t;
    {
        /* the buffer with the fewest offsets left (the first of equal
         * ones: an equal buffer before it goes lower, so twins are never
         * tried swapped) */
        uint32_t nseg = free_segs(M, t, C, cs_of(M, d)), bu = NIL, bn = UINT32_MAX;
        size_t by = NONE;
        /* Each candidate's count needs the subset sums of the others: the
         * sums of those after it (suffix sums, t_suf, built once) plus
         * those before it, instead of all the others anew per candidate
         * (a fifth of the search's instructions; the loop usually stops
         * after a few candidates, whose "before" is short).  Beyond
         * OPT_TILE_SUF unplaced buffers, anew. */
        const uint32_t x0 = M->lo_start[t], x1 = M->lo_start[t + 1];
        const uint64_t sw = M->t_sw;
        uint32_t nu = 0;
        for (uint32_t x = x0; x < x1; x++) nu += M->off[M->t_list[x]] == NONE;
        bool suf = nu <= OPT_TILE_SUF;
        if (suf) {
            uint64_t *sfx = M->t_suf + (size_t)nu * sw;
            for (uint64_t w = 0; w < sw; w++) sfx[w] = 0;
            sfx[0] = 1;
            for (uint32_t x = x1, j = nu; x-- > x0;) {
                uint32_t v = M->t_list[x];
                if (M->off[v] != NONE) continue;
                j--;
                uint64_t *dst = M->t_suf + (size_t)j * sw;
                for (uint64_t w = 0; w < sw; w++) dst[w] = dst[w + sw];
                ta__bits_add(dst, sw, M->size[v] / q);
            }
        }
        for (uint32_t x = x0, i = 0; x < x1 && bn > 1; x++) {
            uint32_t u = M->t_list[x];
            if (M->off[u] != NONE) continue;
            i++; /* u is the i-th unplaced one: t_suf[i] holds the sums after it */
            size_t ymin = NONE;
            if (x > x0 && same_class(M, M->t_list[x - 1], u)) {
                if (M->off[M->t_list[x - 1]] == NONE) continue;
                ymin = M->off[M->t_list[x - 1]];
            }
            if (suf) {
                const uint64_t *sfx = M->t_suf + (size_t)i * sw;
                for (uint64_t w = 0; w < sw; w++) cur[w] = sfx[w];
                for (uint32_t z = x0; z < x; z++) {
                    uint32_t v = M->t_list[z];
                    if (M->off[v] == NONE) ta__bits_add(cur, sw, M->size[v] / q);
                }
            } else {
                ta__opt_rem_sums(M, M->t_list, t, u, cur);
            }
            uint32_t n = count_pos(M, u, nseg, ymin, cur, 2);
            if (n < bn && (n < 2 || bu == NIL)) {
                bn = n;
                bu = u;
                by = ymin;
                uint64_t *keep = cur; /* keep u's sums */
                cur = best;
                best = keep;
            }
        }
        if (bu == NIL || !bn) {
            F[d].item = NIL;
            goto fail;
        }
        F[d].item = bu;
        F[d].ymin = by;
        F[d].nseg = nseg; /* t_seg holds them until the node's first enumeration */
    }
next: {
    tframe *f = &F[d];
    uint64_t *c = cs_of(M, d);
    uint32_t u = f->item;
    t = f->t;
    if (f->on) {
        tunplace(M, u);
        f->on = false;
    }
    size_t sz = M->size[u];
    const size_t *seg = M->t_seg;
    uint32_t nseg = f->nseg, p0 = 0, p1 = 0;
    if (f->cached) {
        /* re-entered: the state at t is what it was at the first try (all
         * placed since is undone), so are its segments and offsets */
        seg = M->t_cseg + 2 * (size_t)f->s0;
        p0 = f->ci;
        p1 = f->c1;
    } else {
        const uint64_t *bits = best; /* the first try: count_pos left them */
        if (f->built) {
            nseg = free_segs(M, t, C, c);
            ta__opt_rem_sums(M, M->t_list, t, u, cur);
            bits = cur;
        }
        /* the untried offsets, by rank: those where the buffer fills its
         * segment exactly first (a refill of one freed range by one buffer
         * is common), then by offset in the first run, by a hash of it
         * after restarts */
        uint32_t np = 0;
        for (uint32_t g = 0; g < nseg; g++) {
            size_t a = seg[2 * g], e = seg[2 * g + 1];
            if (e - a < sz || (f->ymin != NONE && e <= f->ymin + 1)) continue;
            size_t top = (e - a - sz) / q;
            for (size_t k = ta__bits_next(bits, 0, top); k != SIZE_MAX; k = ta__bits_next(bits, k + 1, top)) {
                size_t y = a + k * q;
                if (f->ymin != NONE && y <= f->ymin) continue;
                if (!ta__bits_has(bits, (e - y - sz) / q) || y % M->align[u]) continue;
                uint64_t r = M->t_seed ? ta__mix64((uint64_t)y ^ M->t_seed) >> 1 : (uint64_t)y;
                if (e - a != sz) r |= (uint64_t)1 << 63; /* exact fits first */
                if (f->tried && r <= f->r) continue;
                if (!d && M->t_mirror && 2 * y + sz > C) continue; /* its mirror image is tried */
                M->t_py[np] = y;
                M->t_pr[np] = r;
                M->t_pg[np] = g;
                M->t_pid[np] = np;
                np++;
            }
        }
        /* Tried in rank order, always: a node that is re-entered skips every
         * rank up to the last one tried, so an order that is not by rank (the
         * first run's enumeration puts a segment's exact fit after a lower
         * segment's other offsets) would skip offsets never tried -- a false
         * "no tiling" (test_optimal_beam's random problems found it). */
        if (M->t_seed) {
            sort_by_rank(M->t_pid, np, M->t_pr, M->t_ptmp);
        } else {
            /* the first run's ranks are the offsets, exact fits first:
             * enumerated by offset, so a stable split is the sort */
            uint32_t ne = 0;
            for (uint32_t i = 0; i < np; i++) ne += !(M->t_pr[i] >> 63);
            for (uint32_t i = 0, a = 0, b = ne; i < np; i++) M->t_pid[M->t_pr[i] >> 63 ? b++ : a++] = i;
        }
        p1 = np;
        if (!f->built) {
            /* Keep the list and the segments on the offset stack, above
             * the parent's: every child fails back into this node with the
             * same state, and enumerating, sorting and the subset sums
             * again at each re-entry was a large share of a node's cost
             * (the re-entries are not nodes).  Too little room: enumerate
             * again then, as before. */
            uint32_t cb = d ? F[d - 1].c1 : 0, sb = d ? F[d - 1].s1 : 0;
            f->built = true;
            f->c1 = cb;
            f->s1 = sb;
            if (np <= M->t_ccap - cb && nseg <= M->t_scap - sb) {
                for (uint32_t pi = 0; pi < np; pi++) {
                    uint32_t id = M->t_pid[pi];
                    M->t_cy[cb + pi] = M->t_py[id];
                    M->t_cr[cb + pi] = M->t_pr[id];
                    M->t_cg[cb + pi] = M->t_pg[id];
                }
                for (uint32_t h = 0; h < 2 * nseg; h++) M->t_cseg[2 * (size_t)sb + h] = seg[h];
                f->cached = true;
                f->c1 = cb + np;
                f->s0 = sb;
                f->s1 = sb + nseg;
                seg = M->t_cseg + 2 * (size_t)sb;
                p0 = cb;
                p1 = cb + np;
            }
        }
    }
    /* The sizes the rest of F_t must be made of: the unplaced buffers
     * starting at t but u, the same at every offset tried (read larger
     * first, so the check's sort finds them sorted); false: too many to
     * check. */
    ta__part_chk P0;
    P0.n = 0;
    bool items_ok = true;
    for (uint32_t x = M->lo_start[t]; x < M->lo_start[t + 1] && items_ok; x++) {
        uint32_t v = M->t_szl[x];
        if (v == u || M->off[v] != NONE) continue;
        if (P0.n == TA__PART_MAX) items_ok = false;
        else P0.sz[P0.n++] = (uint32_t)(M->size[v] / q);
    }
    /* ... and the rooms: the segments in units, the same at every offset
     * but for the one split (a division less a room a try).  More than
     * TA__PART_MAX rooms: not checked (the adders refuse). */
    uint32_t room[TA__PART_MAX + 1];
    bool rooms_ok = nseg <= TA__PART_MAX + 1;
    for (uint32_t h = 0; h < nseg && rooms_ok; h++) room[h] = (uint32_t)((seg[2 * h + 1] - seg[2 * h]) / q);
    for (uint32_t pi = p0; pi < p1; pi++) {
        size_t y;
        uint32_t g;
        uint64_t br;
        if (f->cached) {
            y = M->t_cy[pi];
            g = M->t_cg[pi];
            br = M->t_cr[pi];
            if (f->tried && br <= f->r) continue; /* as the enumeration skips them */
        } else {
            uint32_t id = M->t_pid[pi];
            y = M->t_py[id];
            g = M->t_pg[id];
            br = M->t_pr[id];
        }
        f->r = br;
        f->tried = true;
        /* the rest of F_t must still be fillable by the rest (checked
         * before u is placed: it reads only the sizes and the rooms, and
         * most offsets fail it) */
        bool ok = true;
        if (items_ok && rooms_ok) {
            /* the rooms in segment order, g's two pieces (the nonempty
             * ones) in its place; part_rec leaves the sizes alone */
            size_t sa = seg[2 * g], se = seg[2 * g + 1];
            uint32_t k = nseg - 1 + (y > sa) + (se > y + sz);
            if (k <= TA__PART_MAX) {
                uint32_t *rm = P0.rem;
                for (uint32_t h = 0; h < g; h++) *rm++ = room[h];
                if (y > sa) *rm++ = (uint32_t)((y - sa) / q);
                if (se > y + sz) *rm++ = (uint32_t)((se - y - sz) / q);
                for (uint32_t h = g + 1; h < nseg; h++) *rm++ = room[h];
                P0.k = k;
                P0.steps = 0;
                ok = part_rec(&P0, 0);
            }
        }
        if (!ok) continue;
        tplace(M, u, y, d);
        f->on = true;
        if (!M->t_left[M->hi[u]] && !future_ok(M, M->hi[u])) {
            /* the bytes freed at u's end cannot be refilled: blame their makers */
            cs_add_ending(M, c, M->hi[u]);
            tunplace(M, u);
            f->on = false;
            continue;
        }
        f->ci = pi + 1;
        d++;
        goto enter;
    }
    goto fail;
}
fail: {
    uint64_t *c = cs_of(M, d);
    c[d / 64] &= ~((uint64_t)1 << (d % 64));
    memo_put(M, F[d].key);
    if (d == 0) return T_INFEASIBLE;
    if (F[d - 1].t != F[d].t && F[d].t > 0 && M->total0[F[d].t - 1]) {
        /* the boundary's first node, failed for its freed set's sake only:
         * remember the freed set */
        uint32_t t0 = F[d].t;
        uint64_t *e = cs_of(M, m); /* spare row: the depths of the buffers ending at t0 */
        for (uint64_t w = 0; w < M->t_w; w++) e[w] = 0;
        cs_add_ending(M, e, t0);
        bool only = true;
        for (uint64_t w = 0; w < M->t_w && only; w++) only = !(c[w] & ~e[w]);
        if (only) {
            uint32_t k = ending_sorted(M, t0);
            const uint32_t *v = M->t_iv;
            uint64_t key = shape_seed(t0);
            for (uint32_t i = 0; i < k;) {
                size_t a = M->off[v[i]], b = a + M->size[v[i]];
                for (i++; i < k && M->off[v[i]] == b; i++) b += M->size[v[i]];
                key = shape_add(key, a, b);
            }
            memo_put(M, key);
        }
    }
    uint32_t p = d - 1;
    uint64_t *pc = cs_of(M, p);
    if ((c[p / 64] >> (p % 64)) & 1) {
        for (uint64_t w = 0; w < M->t_w; w++) pc[w] |= c[w];
        d = p;
        goto next;
    }
    /* the parent's placement played no part: it fails for the same reason */
    for (uint64_t w = 0; w < M->t_w; w++) pc[w] = c[w];
    tunplace(M, F[p].item);
    F[p].on = false;
    d = p;
    goto fail;
}
}

/* By start, then larger first. */
static int cmp_lo_size(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    if (M->lo[a] != M->lo[b]) return M->lo[a] < M->lo[b] ? -1 : 1;
    if (M->size[a] != M->size[b]) return M->size[a] > M->size[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* Subset sums (in units of t_q) of the sizes starting at every boundary. */
size_t ta__opt_unit(const opt_mem *M, size_t C) {
    size_t q = C;
    for (uint32_t i = 0; i < M->m; i++) {
        size_t a = q, b = M->size[i];
        while (b) {
            size_t r = a % b;
            a = b;
            b = r;
        }
        q = a;
    }
    return q;
}

bool ta__opt_tile_sums(opt_mem *M, size_t C) {
    size_t q = ta__opt_unit(M, C);
    M->t_q = q;
    /* items by start, larger first: the partition checks sort their sizes
     * that way, and read in this order they are sorted already */
    for (uint32_t i = 0; i < M->m; i++) M->t_szl[i] = M->by_lo[i];
    ta__sort_ids(M->t_szl, M->m, cmp_lo_size, M, M->tmp);
    size_t units = C / q + 1;
    M->t_sw = units <= 64 * (size_t)OPT_TILE_SUM_WORDS ? (units + 63) / 64 : 0;
    if (!M->t_sw) return false;
    for (uint32_t t = 0; t <= M->ns; t++) {
        uint64_t *bits = &M->t_sums[(size_t)t * M->t_sw];
        for (uint64_t w = 0; w < M->t_sw; w++) bits[w] = 0;
        bits[0] = 1;
        if (t == M->ns) continue;
        for (uint32_t x = M->lo_start[t]; x < M->lo_start[t + 1]; x++) {
            ta__bits_add(bits, M->t_sw, M->size[M->by_lo[x]] / q);
        }
    }
    return true;
}

/* The Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), i >= 1: restart budgets
 * that waste at most a log factor against the best fixed budget. */
static uint64_t luby(uint64_t i) {
    for (;;) {
        uint64_t k = 1;
        while (((uint64_t)1 << k) - 1 < i) k++;
        if (((uint64_t)1 << k) - 1 == i) return (uint64_t)1 << (k - 1);
        i -= ((uint64_t)1 << (k - 1)) - 1;
    }
}

int ta__opt_tile(opt_mem *M, size_t C, uint64_t node_cap) {
    uint32_t m = M->m, ns = M->ns;
    for (uint32_t i = 0; i < m; i++) {
        M->t_z[i] = ta__mix64(((uint64_t)M->lo[i] << 40) ^ ((uint64_t)M->hi[i] << 12) ^ 0x8CB92BA72F3D8DD7ull) +
                    ta__mix64((uint64_t)M->size[i] * 0x9E3779B97F4A7C15ull + M->align[i]);
        M->t_list[i] = M->by_lo[i];
    }
    for (uint32_t s = 0; s < ns; s++) M->total0[s] = M->total[s];
    /* buffers by end boundary */
    for (uint32_t b = 0; b <= ns + 1; b++) M->t_hs[b] = 0;
    for (uint32_t i = 0; i < m; i++) M->t_hs[M->hi[i] + 1]++;
    for (uint32_t b = 0; b <= ns; b++) M->t_hs[b + 1] += M->t_hs[b];
    for (uint32_t b = 0; b <= ns; b++) M->t_left[b] = M->t_hs[b];
    for (uint32_t i = 0; i < m; i++) M->t_hl[M->t_left[M->hi[i]]++] = i;
    ta__opt_tile_sums(M, C);
    /* Turning a tiling upside down (offset y to C - y - size) gives a
     * tiling when every offset stays aligned: then the first buffer placed
     * need only be tried in the lower half. */
    M->t_mirror = true;
    for (uint32_t i = 0; i < m; i++) M->t_mirror = M->t_mirror && C % M->align[i] == 0;
    if (!M->t_sw) return T_LIMIT; /* offsets too fine to enumerate */
    uint64_t base = 200u + 4u * m;
    uint64_t spent = 0, run = base, rng = 0x7A11E5u;
    for (uint32_t round = 0;; round++) {
        /* restart: shuffle the ties (the first run keeps the input order) */
        for (uint32_t i = 0; i < m; i++) M->t_rnd[i] = round ? (uint32_t)ta__mix64(rng += 0x9E3779B97F4A7C15ull) : i;
        M->t_seed = round ? ta__mix64(rng += 0x9E3779B97F4A7C15ull) | 1 : 0;
        ta__sort_ids(M->t_list, m, cmp_tile, M, M->tmp);
        M->nodes = 0;
        uint64_t left = node_cap - spent;
        M->node_cap = run < left ? run : left;
        int r = tsearch(M, C);
        spent += M->nodes;
        if (r != T_LIMIT) {
            M->nodes = spent;
            return r;
        }
        if (M->timed_out || spent >= node_cap) break;
        run = base * luby(round + 2);
    }
    M->nodes = spent;
    return T_LIMIT;
}
