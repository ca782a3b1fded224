/*
 * The optimal strategy's third tiling search: a beam search over the time
 * sweep's states (issue 14, item 2).  Like the time sweep
 * (plan_optimal_tile.c) it works boundary by boundary: in a tiling, the
 * bytes the buffers ending at boundary t free are exactly those the buffers
 * starting there take.  The time sweep is depth-first: at 300-500 buffers
 * every restart commits to one refill of each freed set and dies 40-60
 * placements deep, at the same boundary, for a choice made several
 * boundaries before.  This search keeps many alternatives alive instead:
 *
 * - it takes the boundaries strictly in time order.  A state after boundary
 *   t is the offsets of every buffer placed so far (all those starting at
 *   or before t: the same placed set for every state of a level), and what
 *   is left to do depends only on the offsets of the buffers live after t;
 * - a state's children are exact refills of the next boundary's freed set
 *   by the buffers starting there.  They are sampled: a few randomised
 *   depth-first dives per state, with the time sweep's checks (both sides
 *   of an offset are subset sums of what starts there, the rest of the
 *   freed set still partitions exactly, and a later freed set whose last
 *   ender is placed refills exactly); a dive stops at its first refill
 *   that the look-ahead accepts and no other state gave.  States whose
 *   dives all ran out of placements get dives 4x longer (up to 64x) while
 *   the next level is not full: a boundary where 20-odd buffers start
 *   needs them, most do not;
 * - a child is scored by a look-ahead on the later boundaries: the buffers
 *   live after t, in offset order, cut every later boundary b into
 *   stretches between buffers that live past b.  The interval of b's freed
 *   set that contains a run of placed enders lies within the run's
 *   stretch, so some subset sum of the sizes starting at b lies between
 *   the run's length and the stretch's: when none does, the child is
 *   dropped (sound).  A run whose own length is not such a sum must grow
 *   by just the right later enders: it costs a point;
 * - the W best distinct children become the next level: equal live offsets
 *   are one state (alike buffers share a key, so swapped twins are one), and
 *   so are mirror images when turning a tiling upside down gives one;
 * - W grows when a level dies out: 64, 256, 1,024, ... up to what the
 *   scratch holds, each round with new random choices, until a tiling is
 *   found or the node budget is spent.
 *
 * It only finds: a beam that dies proves nothing (its children were
 * sampled and cut), so it never answers "no tiling"; the time sweep
 * refutes.  Every tiling it returns is checked section by section before it
 * is returned.
 *
 * A node is one placement tried (as in the time sweep, whose node places
 * one buffer), plus one for every child scored: the look-ahead costs about
 * what a placement costs.
 *
 * Memory: no allocation; the scratch (ta__opt_beam_carve) holds the states
 * as 16-bit offsets in units of the gcd of the sizes (the subset sums only
 * run to 4,096 units, so they fit), 3 W of them (the current level and a
 * pool twice as large for the next), W capped so that they take at most
 * BEAM_BYTES_ITEM a buffer and BEAM_BYTES in all.  The per-boundary subset
 * sums are the time sweep's array (M->t_sums), which it rebuilds on every
 * call.
 */
#include "core/plan_optimal.h"

enum { B_FOUND, B_INFEASIBLE, B_LIMIT };

/* The states' storage: this many bytes a buffer, at most BEAM_BYTES in
 * all, and W at most BEAM_WMAX. */
#define BEAM_BYTES ((size_t)4 << 20)
#define BEAM_BYTES_ITEM ((size_t)8 << 10)
#define BEAM_WMAX 4096u
#define BEAM_WMIN 64u
#define BEAM_SUM_WORDS OPT_TILE_SUM_WORDS
/* Dives per parent (a dive stops at its first refill), distinct children
 * kept per parent, and the placements a dive may take for k starters. */
#define BEAM_DIVES 6u
#define BEAM_KIDS 4u
#define BEAM_DIVE_NODES(k) (8u * (k) + 64u)
#define BEAM_PASSES 4u

struct ta__beam {
    uint32_t wmax;          /* W the slots allow */
    uint32_t *list;         /* items by (lo, hi, size desc, align desc, tie) */
    uint32_t *rnd;          /* per item: tie key of the round */
    uint32_t *hs, *hl;      /* items by end boundary (CSR) */
    uint32_t *left;         /* per boundary: enders not placed */
    uint64_t *z;            /* per item: its class's key */
    uint64_t *sums, sw;     /* per boundary: subset sums of the starting sizes (units):
                             M->t_sums, which the time sweep rebuilds on every call */
    size_t q;               /* the unit */
    uint32_t *live, nlive;  /* items live in the current section */
    uint32_t *plive;        /* items live before the current boundary (the parents') */
    uint32_t *ord, *tmp;    /* live items by offset; sort scratch */
    uint32_t *openb, nopen; /* later boundaries whose freed set is not complete */
    uint32_t *iv;           /* scratch: enders or starters by offset */
    size_t *seg;            /* scratch: free segments (start, end) */
    uint32_t *f_item;       /* dive frames: buffer, lowest offset allowed (equal ones) ... */
    size_t *f_ymin;
    uint64_t *f_r; /* ... rank of the last offset tried */
    uint8_t *f_tried;
    uint16_t *st;                                  /* 3 wmax states of m offsets (units) */
    uint32_t *cur, ncur;                           /* the level's states (slots) */
    uint8_t *pst;                                  /* per state: settled in this level (a child, or no refill) */
    uint32_t *p_slot, *p_score, *p_id, *p_tmp, np; /* the next level's pool */
    uint64_t *p_tie, *p_tie2;
    uint32_t *p_score2;
    uint32_t *freel, nfree; /* free slots */
    uint64_t *ht;           /* the next level's keys (open addressing; 0 empty) */
    uint32_t hmask;
    uint64_t seed;
    bool mirror;
};

static size_t beam_states(size_t m) {
    size_t bytes = m * BEAM_BYTES_ITEM < BEAM_BYTES ? m * BEAM_BYTES_ITEM : BEAM_BYTES;
    size_t w = bytes / (3 * 2 * (m ? m : 1));
    if (w > BEAM_WMAX) w = BEAM_WMAX;
    if (w < 16) w = 16;
    return w;
}

void ta__opt_beam_carve(ta__bump *b, const opt_counts *c, opt_mem *M) {
    M->bm = NULL;
    /* Only where the beam can run (ta__opt_tile_applies): its states are
     * up to 4 MB, most of optimal's scratch on problems of a few hundred
     * buffers, and most problems are no tiling question. */
    if (!c->tiling) return;
    size_t m = c->m, ns = 2 * m + 1, w = beam_states(m), p = 2 * w, h = 1;
    while (h < 4 * p) h <<= 1;
    ta__beam *B = ta__bump_take(b, 1, sizeof(ta__beam));
    M->bm = B;
    ta__beam tmp;
    if (!B) B = &tmp; /* counting only */
    B->wmax = (uint32_t)w;
    B->list = ta__bump_take(b, m, sizeof(uint32_t));
    B->rnd = ta__bump_take(b, m, sizeof(uint32_t));
    B->hs = ta__bump_take(b, ns + 2, sizeof(uint32_t));
    B->hl = ta__bump_take(b, m, sizeof(uint32_t));
    B->left = ta__bump_take(b, ns + 1, sizeof(uint32_t));
    B->z = ta__bump_take(b, m, sizeof(uint64_t));
    B->live = ta__bump_take(b, m + 1, sizeof(uint32_t));
    B->plive = ta__bump_take(b, m + 1, sizeof(uint32_t));
    B->ord = ta__bump_take(b, m + 1, sizeof(uint32_t));
    B->tmp = ta__bump_take(b, m + 1, sizeof(uint32_t));
    B->openb = ta__bump_take(b, ns + 1, sizeof(uint32_t));
    B->iv = ta__bump_take(b, 2 * m + 2, sizeof(uint32_t));
    B->seg = ta__bump_take(b, 4 * m + 4, sizeof(size_t));
    B->f_item = ta__bump_take(b, m + 1, sizeof(uint32_t));
    B->f_ymin = ta__bump_take(b, m + 1, sizeof(size_t));
    B->f_r = ta__bump_take(b, m + 1, sizeof(uint64_t));
    B->f_tried = ta__bump_take(b, m + 1, sizeof(uint8_t));
    B->st = ta__bump_take(b, 3 * w * m, sizeof(uint16_t));
    B->cur = ta__bump_take(b, w, sizeof(uint32_t));
    B->pst = ta__bump_take(b, w, sizeof(uint8_t));
    B->p_slot = ta__bump_take(b, p, sizeof(uint32_t));
    B->p_score = ta__bump_take(b, p, sizeof(uint32_t));
    B->p_id = ta__bump_take(b, p, sizeof(uint32_t));
    B->p_tmp = ta__bump_take(b, p, sizeof(uint32_t));
    B->p_tie = ta__bump_take(b, p, sizeof(uint64_t));
    B->p_tie2 = ta__bump_take(b, p, sizeof(uint64_t));
    B->p_score2 = ta__bump_take(b, p, sizeof(uint32_t));
    B->freel = ta__bump_take(b, 3 * w, sizeof(uint32_t));
    B->ht = ta__bump_take(b, h, sizeof(uint64_t));
    B->hmask = (uint32_t)(h - 1);
}

/* ---- subset sums and exact partitions (as the time sweep's) ---- */

static bool sum_ok(const ta__beam *B, uint32_t t, size_t len) {
    if (!len) return true;
    if (len % B->q) return false;
    size_t u = len / B->q;
    if (u >= 64 * B->sw) return false;
    return (B->sums[(size_t)t * B->sw + u / 64] >> (u % 64)) & 1;
}

/* ---- the freed sets ---- */

/* Sorts ids[0..k) by offset (insertion: the lists are short). */
static void by_offset(const opt_mem *M, uint32_t *v, uint32_t k) {
    for (uint32_t i = 1; i < k; i++) {
        uint32_t u = v[i], j = i;
        while (j > 0 && M->off[v[j - 1]] > M->off[u]) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = u;
    }
}

/* The enders at boundary t (all placed), by offset, into iv; returns k. */
static uint32_t enders(opt_mem *M, uint32_t t) {
    ta__beam *B = M->bm;
    uint32_t k = 0;
    for (uint32_t x = B->hs[t]; x < B->hs[t + 1]; x++) B->iv[k++] = B->hl[x];
    by_offset(M, B->iv, k);
    return k;
}

/* Is the freed set of boundary t (every ender placed) exactly refillable
 * by the buffers starting there (none placed yet)? */
static bool future_ok(opt_mem *M, uint32_t t) {
    ta__beam *B = M->bm;
    if (t >= M->ns || !M->total[t] || !M->total[t - 1]) return true;
    uint32_t k = enders(M, t);
    ta__part_chk P;
    P.k = 0;
    bool exact = ta__opt_part_items(M, M->t_szl, B->q, t, &P); /* larger first: the check's sort is a pass */
    for (uint32_t i = 0; i < k;) {
        size_t a = M->off[B->iv[i]], e = a + M->size[B->iv[i]];
        for (i++; i < k && M->off[B->iv[i]] == e; i++) e += M->size[B->iv[i]];
        if (!sum_ok(B, t, e - a)) return false;
        if (exact) exact = ta__opt_part_seg(&P, B->q, a, e);
    }
    return !exact || ta__opt_part_run(&P);
}

/* The free segments at boundary t: the freed set minus the starters placed
 * (the whole height when nothing was live before t); returns their count. */
static uint32_t free_segs(opt_mem *M, uint32_t t, size_t C) {
    ta__beam *B = M->bm;
    bool whole = t == 0 || !M->total[t - 1];
    uint32_t k = whole ? 0 : enders(M, t), j = 0;
    uint32_t *v = B->iv, *w = B->iv + k;
    for (uint32_t x = M->lo_start[t]; x < M->lo_start[t + 1]; x++)
        if (M->off[B->list[x]] != NONE) w[j++] = B->list[x];
    by_offset(M, w, j);
    return ta__opt_free_segs(M, v, k, w, j, whole ? C : 0, B->seg);
}

static bool same_class(const opt_mem *M, uint32_t u, uint32_t v) {
    return M->hi[u] == M->hi[v] && M->size[u] == M->size[v] && M->align[u] == M->align[v];
}

/* ---- one dive: a refill of boundary t's freed set ---- */

/* The next untried offset for the starter at dive depth j (rank above
 * f_r[j]), placed; false: none left. */
static bool next_offset(opt_mem *M, uint32_t t, uint32_t j, size_t C, uint64_t seed) {
    ta__beam *B = M->bm;
    uint32_t u = B->f_item[j];
    uint64_t bits[BEAM_SUM_WORDS];
    for (;;) {
        uint32_t nseg = free_segs(M, t, C);
        ta__opt_rem_sums(M, B->list, t, u, bits);
        size_t sz = M->size[u], q = B->q, ymin = B->f_ymin[j];
        uint64_t br = UINT64_MAX;
        size_t by = NONE;
        uint32_t bg = 0;
        for (uint32_t g = 0; g < nseg; g++) {
            size_t a = B->seg[2 * g], e = B->seg[2 * g + 1];
            if (e - a < sz || (ymin != NONE && e <= ymin + 1)) continue;
            size_t top = (e - a - sz) / q;
            for (size_t k = ta__bits_next(bits, 0, top); k != SIZE_MAX; k = ta__bits_next(bits, k + 1, top)) {
                size_t y = a + k * q;
                if (ymin != NONE && y <= ymin) continue;
                if (!ta__bits_has(bits, (e - y - sz) / q) || y % M->align[u]) continue;
                /* exact fits first, then a hash of the offset (a new order
                 * for every dive) */
                uint64_t r = ta__mix64((uint64_t)y ^ seed) >> 1;
                if (e - a != sz) r |= (uint64_t)1 << 63;
                if (B->f_tried[j] && r <= B->f_r[j]) continue;
                if (r < br) {
                    br = r;
                    by = y;
                    bg = g;
                }
            }
        }
        if (by == NONE) return false;
        B->f_r[j] = br;
        B->f_tried[j] = 1;
        M->nodes++;
        M->off[u] = by;
        B->left[M->hi[u]]--;
        /* the rest of the freed set must still partition exactly */
        ta__part_chk P;
        P.k = 0;
        bool ok = true;
        if (ta__opt_part_items(M, M->t_szl, B->q, t, &P)) { /* the same set, larger first */
            bool all = true;
            for (uint32_t h = 0; h < nseg && all; h++) {
                size_t sa = B->seg[2 * h], se = B->seg[2 * h + 1];
                all = h == bg ? ta__opt_part_seg(&P, B->q, sa, by) && ta__opt_part_seg(&P, B->q, by + sz, se) : ta__opt_part_seg(&P, B->q, sa, se);
            }
            ok = !all || ta__opt_part_run(&P);
        }
        if (ok && !B->left[M->hi[u]]) ok = future_ok(M, M->hi[u]);
        if (ok) return true;
        B->left[M->hi[u]]++;
        M->off[u] = NONE;
        if (ta__opt_out_of_budget(M)) return false;
    }
}

static void undo(opt_mem *M, uint32_t u) {
    M->bm->left[M->hi[u]]++;
    M->off[u] = NONE;
}

/* A depth-first dive over the k starters at t (list[x0..x0+k)) in their
 * order, offsets in the order of `seed`, until M->nodes reaches `stop`.
 * Returns 1 with every starter placed, 0 when the whole tree was exhausted
 * (no further refill of this state exists), -1 at the stop (then nothing
 * is left placed).  resume: the previous call returned 1 and its refill
 * was rejected; go on to the next one. */
static int dive(opt_mem *M, uint32_t t, size_t C, uint64_t seed, uint64_t stop, bool resume) {
    ta__beam *B = M->bm;
    uint32_t x0 = M->lo_start[t], k = M->lo_start[t + 1] - x0, j = 0;
    if (!k) return resume ? 0 : 1;
    if (resume)
        j = k - 1;
    else
        B->f_tried[0] = 0;
    for (;;) {
        if (M->nodes >= stop || ta__opt_out_of_budget(M)) {
            /* placed: 0..j-1, and j itself when it is being retried */
            for (uint32_t i = 0; i < j + (B->f_tried[j] ? 1u : 0u); i++) undo(M, B->f_item[i]);
            return -1;
        }
        if (!B->f_tried[j]) {
            uint32_t u = B->list[x0 + j];
            B->f_item[j] = u;
            B->f_ymin[j] = NONE;
            if (j && same_class(M, B->list[x0 + j - 1], u)) B->f_ymin[j] = M->off[B->list[x0 + j - 1]];
        } else {
            undo(M, B->f_item[j]);
        }
        if (next_offset(M, t, j, C, seed)) {
            if (++j == k) return 1;
            B->f_tried[j] = 0;
            continue;
        }
        if (M->nodes >= stop || ta__opt_out_of_budget(M)) {
            for (uint32_t i = 0; i < j; i++) undo(M, B->f_item[i]);
            return -1;
        }
        if (!j) return 0;
        j--;
    }
}

/* ---- states ---- */

static uint64_t zkey(const ta__beam *B, uint32_t u, size_t y) {
    return ta__mix64(B->z[u] ^ ((uint64_t)y * 0xD6E8FEB86659FD93ull));
}

static int cmp_off(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    return (M->off[a] > M->off[b]) - (M->off[a] < M->off[b]);
}

/* The look-ahead score of the state in M->off after boundary t (its live
 * items B->live): returns UINT32_MAX when some later freed set already has
 * a whole interval that its starters cannot fill, else the number of open
 * runs whose length is not a subset sum.  Also its key (mirror-folded). */
static uint32_t score(opt_mem *M, size_t C, uint64_t *key) {
    ta__beam *B = M->bm;
    uint32_t n = B->nlive, pen = 0;
    uint64_t k1 = 0, k2 = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = B->live[i];
        B->ord[i] = u;
        k1 += zkey(B, u, M->off[u]);
        if (B->mirror) k2 += zkey(B, u, C - M->off[u] - M->size[u]);
    }
    *key = (B->mirror && k2 < k1 ? k2 : k1) | 1;
    ta__sort_ids(B->ord, n, cmp_off, M, B->tmp);
    for (uint32_t o = 0; o < B->nopen; o++) {
        uint32_t b = B->openb[o];
        /* Items by offset, as W (lives past b), E (ends at b, placed) or U
         * (ends before b: its bytes just before b belong to a later buffer,
         * not placed yet).  Between two W (or the floor and the ceiling) is
         * a stretch [sa, se); an interval of b's freed set that contains a
         * run of E lies within the stretch, so its length is a subset sum
         * of b's starters between the run's length and the stretch's: when
         * none is, no refill exists (sound).  A run whose own length is not
         * such a sum must grow by just the right later enders: a point. */
        const uint64_t *bits = &B->sums[(size_t)b * B->sw];
        size_t sa = 0, at = 0, run = 0, top = C / B->q;
        uint32_t nr = 0;
        for (uint32_t i = 0; i <= n; i++) {
            uint32_t u = i < n ? B->ord[i] : NIL;
            int ty = i == n ? 0 : M->hi[u] > b ? 0 : M->hi[u] == b ? 1 : 2;
            if (ty == 1) {
                run += M->size[u];
            } else if (run) {
                B->seg[nr++] = run;
                run = 0;
            }
            if (!ty) {
                size_t span = (at - sa) / B->q;
                for (uint32_t r = 0; r < nr; r++) {
                    size_t len = B->seg[r] / B->q;
                    if (len > top || ta__bits_next(bits, len, span) == SIZE_MAX) return UINT32_MAX;
                    if (!ta__bits_has(bits, len)) pen++;
                }
                nr = 0;
                sa = at + (i < n ? M->size[u] : 0);
            }
            if (i < n) at += M->size[u];
        }
    }
    return pen;
}

static bool ht_add(ta__beam *B, uint64_t key) {
    uint32_t h = (uint32_t)(ta__mix64(key) & B->hmask);
    for (;;) {
        if (B->ht[h] == key) return false;
        if (!B->ht[h]) {
            B->ht[h] = key;
            return true;
        }
        h = (h + 1) & B->hmask;
    }
}

static int cmp_pool(uint32_t a, uint32_t b, const void *ctx) {
    const ta__beam *B = ctx;
    if (B->p_score[a] != B->p_score[b]) return B->p_score[a] < B->p_score[b] ? -1 : 1;
    return (B->p_tie[a] > B->p_tie[b]) - (B->p_tie[a] < B->p_tie[b]);
}

/* Keeps the w best of the pool, best first; the others' slots are freed. */
static void prune_pool(ta__beam *B, uint32_t w) {
    uint32_t n = B->np, keep = n < w ? n : w;
    for (uint32_t i = 0; i < n; i++) B->p_id[i] = i;
    ta__sort_ids(B->p_id, n, cmp_pool, B, B->p_tmp);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = B->p_id[i];
        B->p_tmp[i] = B->p_slot[s];
        B->p_score2[i] = B->p_score[s];
        B->p_tie2[i] = B->p_tie[s];
    }
    for (uint32_t i = keep; i < n; i++) B->freel[B->nfree++] = B->p_tmp[i];
    for (uint32_t i = 0; i < keep; i++) {
        B->p_slot[i] = B->p_tmp[i];
        B->p_score[i] = B->p_score2[i];
        B->p_tie[i] = B->p_tie2[i];
    }
    B->np = keep;
}

/* Order within each start boundary (the order a dive places them in): the
 * one that ends first (its freed set is checked soonest), then larger
 * first, then the round's tie key; equal buffers end up next to each other. */
static int cmp_item(uint32_t a, uint32_t b, const void *ctx) {
    const opt_mem *M = ctx;
    const ta__beam *B = M->bm;
    if (M->lo[a] != M->lo[b]) return M->lo[a] < M->lo[b] ? -1 : 1;
    if (M->hi[a] != M->hi[b]) return M->hi[a] < M->hi[b] ? -1 : 1;
    if (M->size[a] != M->size[b]) return M->size[a] > M->size[b] ? -1 : 1;
    if (M->align[a] != M->align[b]) return M->align[a] > M->align[b] ? -1 : 1;
    if (B->rnd[a] != B->rnd[b]) return B->rnd[a] < B->rnd[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* One beam run of width w (at most the slots' wmax).  Returns B_FOUND
 * (offsets in M->off) or B_LIMIT (the beam died out or the budget ran
 * out). */
static int run(opt_mem *M, size_t C, uint32_t w) {
    ta__beam *B = M->bm;
    uint32_t m = M->m, ns = M->ns, slots = 3 * B->wmax, pcap = 2 * w;
    for (uint32_t i = 0; i < m; i++) M->off[i] = NONE;
    for (uint32_t b = 0; b <= ns; b++) B->left[b] = B->hs[b + 1] - B->hs[b];
    B->nfree = 0;
    for (uint32_t s = slots; s-- > 0;) B->freel[B->nfree++] = s;
    B->cur[0] = B->freel[--B->nfree]; /* the root: nothing placed */
    memset(&B->st[(size_t)B->cur[0] * m], 0, (size_t)m * sizeof *B->st);
    B->ncur = 1;
    B->nlive = 0;
    for (uint32_t t = 0; t < ns; t++) {
        uint32_t x0 = M->lo_start[t], k = M->lo_start[t + 1] - x0;
        /* the parents' live set (before t); then the live set after t: minus
         * the enders of t, plus its starters */
        uint32_t nprev = B->nlive, nl = 0;
        for (uint32_t i = 0; i < nprev; i++) B->plive[i] = B->live[i];
        for (uint32_t i = 0; i < nprev; i++)
            if (M->hi[B->plive[i]] > t) B->live[nl++] = B->plive[i];
        for (uint32_t x = x0; x < x0 + k; x++) B->live[nl++] = B->list[x];
        B->nlive = nl;
        if (!k) continue;
        /* later boundaries whose freed set is still open after t */
        for (uint32_t x = x0; x < x0 + k; x++) B->left[M->hi[B->list[x]]]--;
        B->nopen = 0;
        for (uint32_t b = t + 1; b < ns; b++)
            if (B->left[b] && M->total[b] && M->total[b - 1] && B->hs[b + 1] > B->hs[b]) B->openb[B->nopen++] = b;
        for (uint32_t x = x0; x < x0 + k; x++) B->left[M->hi[B->list[x]]]++;
        B->np = 0;
        for (uint32_t i = 0; i <= B->hmask; i++) B->ht[i] = 0;
        /* Passes: every parent gets a few short dives; those whose dives
         * all ran out of placements (neither a refill nor a proof that
         * none exists) get longer ones while the pool is not full: a hard
         * boundary (20-odd starters) needs them, the easy ones do not. */
        for (uint32_t pi = 0; pi < B->ncur; pi++) B->pst[pi] = 0;
        for (uint32_t pass = 0; pass < BEAM_PASSES; pass++) {
            bool open = false;
            for (uint32_t pi = 0; pi < B->ncur; pi++) {
                if (B->pst[pi]) continue;
                const uint16_t *ps = &B->st[(size_t)B->cur[pi] * m];
                for (uint32_t i = 0; i < nprev; i++) M->off[B->plive[i]] = (size_t)ps[B->plive[i]] * B->q;
                uint64_t pseed = ta__mix64(B->seed ^ ((uint64_t)t << 32) ^ ((uint64_t)pass << 24) ^ pi);
                uint32_t got = 0, dives = pass ? 2u : BEAM_DIVES;
                for (uint32_t dv = 0; dv < dives && got < BEAM_KIDS && !B->pst[pi]; dv++) {
                    /* a dive goes on past refills the look-ahead rejects
                     * (or that another parent already gave) to the next */
                    uint64_t stop = M->nodes + (BEAM_DIVE_NODES(k) << (2 * pass)), dseed = ta__mix64(pseed + dv);
                    for (bool resume = false;; resume = true) {
                        int r = dive(M, t, C, dseed, stop, resume);
                        if (r == 0) { /* no (further) refill of this parent */
                            B->pst[pi] = 1;
                            break;
                        }
                        if (r < 0) {
                            if (ta__opt_out_of_budget(M)) return B_LIMIT;
                            break;
                        }
                        if (ta__opt_out_of_budget(M)) return B_LIMIT;
                        M->nodes++; /* the look-ahead */
                        uint64_t key;
                        uint32_t sc = score(M, C, &key);
                        if (sc == UINT32_MAX || !ht_add(B, key)) continue;
                        got++;
                        if (B->np == pcap) prune_pool(B, w);
                        uint32_t s = B->freel[--B->nfree];
                        uint16_t *cs = &B->st[(size_t)s * m];
                        memcpy(cs, ps, (size_t)m * sizeof *cs);
                        for (uint32_t x = x0; x < x0 + k; x++) cs[B->list[x]] = (uint16_t)(M->off[B->list[x]] / B->q);
                        B->p_slot[B->np] = s;
                        B->p_score[B->np] = sc;
                        B->p_tie[B->np] = ta__mix64(key ^ B->seed);
                        B->np++;
                        for (uint32_t x = x0; x < x0 + k; x++) undo(M, B->list[x]);
                        break;
                    }
                }
                if (got) B->pst[pi] = 1;
                if (ta__opt_out_of_budget(M)) return B_LIMIT;
                open = open || !B->pst[pi];
            }
            if (!open || B->np >= w) break;
        }
        for (uint32_t pi = 0; pi < B->ncur; pi++) B->freel[B->nfree++] = B->cur[pi];
        if (!B->np) return B_LIMIT; /* the beam died out */
        prune_pool(B, w);
        for (uint32_t i = 0; i < B->np; i++) B->cur[i] = B->p_slot[i];
        B->ncur = B->np;
        for (uint32_t x = x0; x < x0 + k; x++) B->left[M->hi[B->list[x]]]--;
    }
    const uint16_t *bs = &B->st[(size_t)B->cur[0] * m];
    for (uint32_t i = 0; i < m; i++) M->off[i] = (size_t)bs[i] * B->q;
    return B_FOUND;
}

/* Is M->off a tiling of C: aligned, within C, and at every section the
 * live buffers, by offset, follow each other from 0 to C with no gap or
 * overlap?  (A found tiling is a proof only if it is one.) */
static bool is_tiling(opt_mem *M, size_t C) {
    ta__beam *B = M->bm;
    for (uint32_t i = 0; i < M->m; i++)
        if (M->off[i] == NONE || M->off[i] % M->align[i] || M->off[i] + M->size[i] > C) return false;
    for (uint32_t s = 0; s < M->ns; s++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < M->m; i++)
            if (M->lo[i] <= s && s < M->hi[i]) B->ord[n++] = i;
        if (!n) continue;
        ta__sort_ids(B->ord, n, cmp_off, M, B->tmp);
        size_t at = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (M->off[B->ord[i]] != at) return false;
            at += M->size[B->ord[i]];
        }
        if (at != C) return false;
    }
    return true;
}

int ta__opt_beam(opt_mem *M, size_t C, uint64_t node_cap) {
    ta__beam *B = M->bm;
    uint32_t m = M->m, ns = M->ns;
    M->nodes = 0;
    M->node_cap = node_cap;
    if (!B || M->nfx) return B_LIMIT;
    for (uint32_t i = 0; i < m; i++)
        B->z[i] = ta__mix64(((uint64_t)M->lo[i] << 40) ^ ((uint64_t)M->hi[i] << 12) ^ 0x1F83D9ABFB41BD6Bull) +
                  ta__mix64((uint64_t)M->size[i] * 0x9E3779B97F4A7C15ull + M->align[i] + 0x5BE0CD19137E2179ull);
    for (uint32_t b = 0; b <= ns + 1; b++) B->hs[b] = 0;
    for (uint32_t i = 0; i < m; i++) B->hs[M->hi[i] + 1]++;
    for (uint32_t b = 0; b <= ns; b++) B->hs[b + 1] += B->hs[b];
    for (uint32_t b = 0; b <= ns; b++) B->left[b] = B->hs[b];
    for (uint32_t i = 0; i < m; i++) B->hl[B->left[M->hi[i]]++] = i;
    /* the unit and the subset sums of the sizes starting at every boundary:
     * the time sweep's tables, which the beam reads in place */
    if (!ta__opt_tile_sums(M, C) || C / M->t_q + 1 > 65535) return B_LIMIT; /* offsets too fine */
    B->q = M->t_q;
    B->sw = M->t_sw;
    B->sums = M->t_sums;
    B->mirror = true;
    for (uint32_t i = 0; i < m; i++) B->mirror = B->mirror && C % M->align[i] == 0;
    uint64_t rng = 0xBEA5EEDull;
    for (uint32_t w = BEAM_WMIN < B->wmax ? BEAM_WMIN : B->wmax, round = 0;; round++) {
        for (uint32_t i = 0; i < m; i++) {
            B->rnd[i] = round ? (uint32_t)ta__rng_next(&rng) : i;
            B->list[i] = M->by_lo[i];
        }
        B->seed = ta__rng_next(&rng);
        ta__sort_ids(B->list, m, cmp_item, M, B->tmp);
        if (run(M, C, w) == B_FOUND) {
            if (is_tiling(M, C)) return B_FOUND;
            return B_LIMIT; /* cannot happen; never report a wrong tiling */
        }
        if (ta__opt_out_of_budget(M)) return B_LIMIT;
        w = w <= B->wmax / 4 ? 4 * w : B->wmax;
    }
}
