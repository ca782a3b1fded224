/*
 * The optimal strategy's internals (plan_optimal.c: the search and the
 * driver; plan_optimal_setup.c: sizing its scratch, the problem in
 * sections and the preorders).  plan_optimal.c's header comment describes
 * the method.
 */
#ifndef TA_CORE_PLAN_OPTIMAL_H
#define TA_CORE_PLAN_OPTIMAL_H

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
/* The tiling search's subset sums per boundary: up to 64 x this many units
 * of the capacity (above it the check is skipped). */
#define OPT_TILE_SUM_WORDS 64u
/* The time sweep keeps suffix subset sums of a boundary's unplaced
 * buffers when they are at most this many. */
#define OPT_TILE_SUF 64u
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
    uint32_t ptrail;   /* rank-trail top before it */
    uint32_t mtrail;   /* minimum-trail top before it (UINT32_MAX: trail full, rescan on undo) */
    uint32_t item;     /* placed buffer (NIL: none yet) */
    uint32_t last_pre; /* last tried candidate key (mo, pre) */
    uint32_t first;    /* the entry scan's first candidate, not tried yet (NIL: scan) */
    uint32_t floor_pre;
    size_t last_mo, floor_off;
    size_t min_height; /* dominance bound at this node */
    size_t thr;        /* fails for every capacity below this */
    uint64_t key1, key2;
    bool cut;          /* no more alternatives: its partition was completed below */
} frame;

/* A node of the tiling search (plan_optimal_tile.c): its boundary, the
 * buffer it places, whether it is placed now, whether any offset was tried
 * and the rank of the last, the offset an equal buffer took (NONE: none),
 * the placed set's key at entry. */
typedef struct {
    uint32_t t, item;
    bool on, tried;
    bool built;  /* its offsets were enumerated (at its first try) */
    bool cached; /* ... and kept on the offset stack (t_cy..): [ci, c1) the untried by rank, its free
                  * segments at [s0, s1) of t_cseg; c1, s1 the stack's top above it either way */
    uint64_t r;
    size_t ymin;
    uint64_t key;
    uint32_t ci, c1, s0, s1, nseg;
} tframe;

/* A node of the byte sweep (plan_optimal_sweep.c): the lowest skyline
 * segment [t0, t1) at height h, the buffer placed there now (NIL: none),
 * the rank of the last candidate tried (0: none), the placed set's key at
 * entry, whether the node was entered, and the side it branches at. */
typedef struct {
    uint32_t t0, t1, item, tr; /* tr: the s_mh trail's top before item was placed */
    bool init, right; /* right: the candidates end at t1 (else start at t0) */
    size_t h;
    uint64_t last, key;
} sframe;

typedef struct {
    uint64_t key; /* 0: empty */
    uint64_t thr;
} memo_ent;

typedef struct {
    size_t m, nfx, pairs, members, itfx, secfx, memo;
    bool search;
    bool tiling; /* no fixed buffers and every section's live bytes 0 or the
                    same: ta__opt_tile_applies can hold, so the beam is carved */
    bool order;  /* the same, for the order search's scratch (plan_optimal_pq.c);
                    kept apart because the size limit counts the beam for every
                    problem with nothing fixed, but the order search only for
                    real tiling questions */
    bool sweeps; /* the time and the byte sweep's arrays (t_*, s_*): set with
                    tiling, and by callers that size for any problem of a
                    shape (the size limit, plan_optimal_large.c's parts) */
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
    uint32_t *sm_start, *sm;    /* items live in each section (CSR); the unplaced
                                   ones first, sm_n[s] of them (place, unplace) */
    uint32_t *sm_n;             /* per section: unplaced members */
    uint32_t *sm_at, *sm_pos;   /* item u's index in sm for section s:
                                   sm_pos[sm_at[u] + s - lo[u]] */
    size_t *fx_off, *fx_end;    /* fixed buffers with a size */
    uint32_t *ifx_start, *ifx;  /* per item: overlapping fixed ones by offset */
    uint32_t *sfx_start, *sfx;  /* per section: fixed ones live in it by offset */
    uint32_t *fx_id;            /* request index of fixed buffer j */
    int64_t *pts, *pts_tmp;     /* section boundaries (time points) */
    uint64_t *k_tot, *k_w, *k_area; /* preorder keys */
    uint64_t *k_dyn;            /* per item: T key of its piece when last re-ranked */
    uint32_t *pt_item, *pt_old, pt_top, pt_cap; /* rank trail (undo of re-ranking) */
    uint32_t *order, *tmp;
    /* search state */
    size_t *off, *mo, *total, *minmo;
    uint32_t *mcnt;             /* per section: unplaced members at minmo (a lower bound, >= 1 while any) */
    uint32_t *mt_s, *mt_cnt;    /* minimum trail: section, its minmo and mcnt before a placement */
    size_t *mt_min;
    uint32_t mt_top, mt_cap;
    size_t *a_min;              /* per touched section (aff order): minmo, mcnt at a placement's start */
    uint32_t *a_cnt;
    uint32_t *lift;             /* per section of the item being placed: items it lifts there */
    bool uniform;               /* no fixed buffer and one alignment: a lifted buffer lands at the top */
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
    /* tiling search (plan_optimal_tile.c) */
    size_t *total0;             /* per section: live bytes */
    uint32_t *t_list, *t_rnd;   /* items by start section in candidate order; tie keys */
    uint32_t *t_hs, *t_hl;      /* items by end boundary (CSR) */
    uint32_t *t_dep, *t_left;   /* per item: depth placed at; per boundary: unplaced items ending there */
    uint64_t *t_z, t_key;       /* per item: its class's key; the placed set's */
    uint64_t t_seed;            /* offset ranks: 0 = by offset, else hashed with it */
    bool t_mirror;              /* the mirror image of a tiling is one */
    uint64_t *t_cs, t_w;        /* per depth: conflict set (t_w words a depth) */
    uint64_t *t_sums, t_sw;     /* per boundary: subset sums of the starting sizes (t_sw words; 0: none) */
    uint32_t *t_szl;            /* items by start section, larger first (ta__opt_tile_sums) */
    uint64_t *t_suf;            /* scratch: suffix subset sums, OPT_TILE_SUF + 1 rows of OPT_TILE_SUM_WORDS */
    size_t t_q;                 /* the unit of t_sums */
    uint32_t *t_iv;             /* scratch: buffers by offset */
    size_t *t_seg;              /* scratch: free segments (start, end) */
    size_t *t_py;               /* scratch: a node's offsets to try ... */
    uint64_t *t_pr;             /* ... their ranks ... */
    uint32_t *t_pg, *t_pid, *t_ptmp; /* ... their segments, their order */
    size_t *t_cy, *t_cseg;      /* offset stack: per depth its offsets by rank (y, rank, segment) and segments */
    uint64_t *t_cr;
    uint32_t *t_cg, t_ccap, t_scap; /* ... capacities: offsets, segment pairs */
    tframe *t_fr;
    /* byte sweep (plan_optimal_sweep.c); its state lives on between slices */
    size_t *s_h, *s_off;        /* per section: skyline height; per item: offset (NONE: unplaced) */
    size_t *s_mh;               /* per item: the highest skyline over its lifetime */
    uint32_t *s_tv, s_tn;       /* trail of the s_mh values placements raised: items, count ... */
    size_t *s_to;               /* ... their values before */
    size_t *s_acc;              /* scratch: per boundary, bytes of buffers confined to a range */
    uint32_t *s_list, *s_rnk;   /* items by (lo, class); per item: its rank in this run */
    uint32_t *s_hs, *s_hl;      /* items by (hi, class): first index per end boundary; the list */
    uint64_t *s_z;              /* per item: its class's key */
    uint32_t *s_mark, s_epoch;  /* per boundary: reached in the current chain check */
    sframe *s_fr;
    uint32_t s_d, s_round;      /* depth; runs so far (0: not started) */
    uint64_t s_key, s_rng, s_run, s_run_cap;
    /* beam search (plan_optimal_beam.c): its own block */
    struct ta__beam *bm;
    /* order search (plan_optimal_pq.c): its own block */
    struct ta__pqs *pq;
    /* limits */
    uint64_t nodes, node_cap;
    const ta_plan_options *opt;
    uint64_t deadline;
    bool timed_out;
} opt_mem;

/* Has the search spent its node cap, or (checked every 256 nodes) reached
 * the clock's deadline?  The latter sets M->timed_out. */
static inline bool ta__opt_out_of_budget(opt_mem *M) {
    if (M->nodes >= M->node_cap) return true;
    if (M->opt && M->opt->clock && (M->nodes & 255) == 1 && M->opt->clock(M->opt->clock_ctx) >= M->deadline) {
        M->timed_out = true;
        return true;
    }
    return false;
}

/* The tiling searches' failure memo (plan_optimal_tile.c and
 * plan_optimal_sweep.c share M->memo): a failed state stored under its
 * check key k1 (odd, so never the empty 0) in one of four slots from k2.
 * When all four are taken, the put overwrites one picked by k1's top bits. */
static inline bool ta__opt_fail_has(const opt_mem *M, uint64_t k1, uint64_t k2) {
    for (uint64_t k = 0; k < 4; k++)
        if (M->memo[(k2 + k) & M->memo_mask].key == k1) return true;
    return false;
}

static inline void ta__opt_fail_put(opt_mem *M, uint64_t k1, uint64_t k2) {
    memo_ent *slot = NULL;
    for (uint64_t k = 0; k < 4; k++) {
        memo_ent *q = &M->memo[(k2 + k) & M->memo_mask];
        if (q->key == k1) return;
        if (!slot && q->key == 0) slot = q;
    }
    if (!slot) slot = &M->memo[(k2 + (k1 >> 62)) & M->memo_mask];
    slot->key = k1;
    slot->thr = SIZE_MAX;
}

/* Concludes a search's result: OPTIMAL when what it proved (lo: no arena
 * below it exists) meets the arena hi it holds, else GAP (hi is below the
 * incumbent it started from) or TIMEOUT, with proven_bytes = lo. */
static inline void ta__opt_conclude(ta_plan_result *res, size_t lo, size_t hi, size_t incumbent) {
    if (lo >= hi) {
        res->proof = TA_PROOF_OPTIMAL;
        res->proven_bytes = hi;
    } else {
        res->proof = hi < incumbent ? TA_PROOF_GAP : TA_PROOF_TIMEOUT;
        res->proven_bytes = lo;
    }
}

/* plan_optimal_setup.c */
/* Counts what the search state takes for reqs[0..n) into *c (c->search:
 * the problem is searched at all). */
void ta__opt_layout(const ta_request *reqs, size_t n, opt_counts *c);
/* Carves M's arrays for c from b (base NULL: counts the bytes only). */
void ta__opt_carve(ta__bump *b, const opt_counts *c, opt_mem *M);
/* The strategy's scratch_bytes. */
ta_status ta__opt_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes);
/* The problem: items, fixed buffers, time sections and overlaps. */
void ta__opt_setup(opt_mem *M, const ta_request *r, size_t n);
/* The preorder keys; leaves every section's free bytes in M->total. */
void ta__opt_preorder_keys(opt_mem *M);
/* The preorder rank of every item under heuristic `heur`. */
void ta__opt_set_heuristic(opt_mem *M, uint32_t heur);
/* Sorts ids[0..k) by the current heuristic with k_dyn as its T key. */
void ta__opt_sort_dyn(opt_mem *M, uint32_t *ids, uint32_t k);

/* plan_optimal_state.c */
/* Resets the search state to "nothing placed", with the initial agenda
 * (the partitions between time cuts no buffer crosses). */
void ta__opt_reset(opt_mem *M);
/* Places item u at mo[u] for frame F; returns the section bound's need
 * (<= C: the placement survives) and the new zero cuts in M->zc (*nzc). */
size_t ta__opt_place(opt_mem *M, frame *F, uint32_t u, size_t C, uint32_t *nzc);
/* Undoes frame F's placement (the last one not undone). */
void ta__opt_unplace(opt_mem *M, frame *F);
/* Splits F's partition at the zero cuts after placing u (pieces re-ranked). */
void ta__opt_decompose(opt_mem *M, frame *F, uint32_t u, uint32_t nzc);
/* The section bound over sections [lo, hi) with every remaining buffer at
 * or above o: the smallest capacity it accepts (<= C: passes). */
size_t ta__opt_section_need(const opt_mem *M, uint32_t lo, uint32_t hi, size_t o, size_t C);
/* Bytes of [level, cap) the fixed buffers of section s cover (their union). */
size_t ta__opt_fixed_cover(const opt_mem *M, uint32_t s, size_t level, size_t cap);

/* plan_optimal_large.c: problems the search above does not take (more than
 * OPT_MAX_ITEMS buffers, OPT_MAX_PAIRS pairs or OPT_MAX_SCRATCH bytes; no
 * overlap relations).  Scratch it needs for n requests: linear in n plus a
 * block for its sub-problems sized by n (a few MB at most). */
size_t ta__opt_large_bytes(size_t n);
/* Improves offsets[] (a valid plan of reqs[0..n) above lo, the bound
 * rounded to g, the gcd of sizes and alignments) by exact search on the
 * small parts between time cuts and a local search of re-packed windows,
 * until the clock reaches deadline (when opt->clock) or work_cap work units
 * are spent.  Adds its work to res->work and sets res->proof and
 * res->proven_bytes (OPTIMAL when the arena meets what it proved, else GAP
 * when it improved on the plan it was given, TIMEOUT when not).  mem:
 * ta__opt_large_bytes(n) bytes; best_mem: best's scratch for these
 * requests (when the windows are stuck, best's local search goes on from
 * their plan).  Returns TA_OK, or TA_E_NO_MEMORY. */
ta_status ta__opt_large(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *mem, size_t bytes,
                        void *best_mem, size_t best_bytes, size_t *offsets, size_t lo, size_t g, uint64_t deadline,
                        uint64_t work_cap, ta_plan_result *res);
/* The share of the time limit best gets before ta__opt_large: 1/2, or 7/8
 * on dense lists (more buffers live at a step on average than a window
 * holds), where best's local search does better than the windows. */
double ta__opt_large_best_share(const ta_request *reqs, size_t n);
/* The time cuts it decomposes at (for tests): of[i] = the part of free
 * sized buffer i, numbered in order of time; NIL for fixed and empty ones,
 * which never stop a cut.  ids: 3 n + 1 entries of scratch.  Returns the
 * number of parts. */
uint32_t ta__opt_large_parts(const ta_request *reqs, size_t n, uint32_t *of, uint32_t *ids);

/* plan_optimal_rel.c: the search with overlap relations (opt->overlaps).
 * Scratch bytes and the whole strategy call for such problems. */
ta_status ta__opt_rel_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes);
ta_status ta__opt_rel_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                           size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d);

/* plan_optimal_tile.c */
/* Does the tiling search decide capacity C exactly: no fixed buffers, and
 * every section's live bytes (M->total after ta__opt_preorder_keys) are 0
 * or C?  Then a plan within C leaves no byte free at any step. */
bool ta__opt_tile_applies(const opt_mem *M, size_t C);
/* Bit sets of subset sums (bit k: k units), sw 64-bit words. */
static inline bool ta__bits_has(const uint64_t *b, size_t k) { return (b[k / 64] >> (k % 64)) & 1; }
/* The first set bit at or after k, at most top (else SIZE_MAX). */
static inline size_t ta__bits_next(const uint64_t *b, size_t k, size_t top) {
    while (k <= top) {
        uint64_t w = b[k / 64] >> (k % 64);
        if (w) {
            k += (size_t)__builtin_ctzll(w);
            return k <= top ? k : SIZE_MAX;
        }
        k = (k / 64 + 1) * 64;
    }
    return SIZE_MAX;
}
/* bits |= bits << k (adds one item of k units to the sums). */
static inline void ta__bits_add(uint64_t *bits, uint64_t sw, size_t k) {
    size_t ws = k / 64, bs = k % 64;
    if (ws >= sw) return;
    if (!bs) {
        for (size_t w = sw; w-- > ws;) bits[w] |= bits[w - ws];
        return;
    }
    /* top down, so every word read is still the old one; the lowest word
     * written has no word below it to carry from (one branch less a word:
     * a tenth of the time sweep's instructions were here) */
    for (size_t w = sw - 1; w > ws; w--) bits[w] |= bits[w - ws] << bs | bits[w - ws - 1] >> (64 - bs);
    bits[ws] |= bits[0] << bs;
}
/* The gcd of C and every item's size (C when there are none): the unit
 * every offset of a tiling within C is a multiple of. */
size_t ta__opt_unit(const opt_mem *M, size_t C);
/* The tiling searches' unit and subset sums: M->t_q = the gcd of C and
 * every size, M->t_sums[t] = the subset sums (units) of the sizes starting
 * at boundary t, M->t_sw words each; M->t_sw = 0 (and false) when C / t_q
 * units do not fit OPT_TILE_SUM_WORDS words.  Also M->t_szl: the items by
 * start section, larger first (ta__opt_part_items read from it gives the
 * sizes already sorted). */
bool ta__opt_tile_sums(opt_mem *M, size_t C);
/* Subset sums (units of M->t_q) of the unplaced buffers starting at t
 * other than xu, read in list[lo_start[t]..lo_start[t + 1]), into bits. */
void ta__opt_rem_sums(const opt_mem *M, const uint32_t *list, uint32_t t, uint32_t xu, uint64_t *bits);
/* The exact-partition check the tiling searches share: can the sizes
 * sz[0..n) fill the rooms rem[0..k) exactly (units of the search's
 * quantum)?  A check, never a proof: beyond TA__PART_MAX pieces (the
 * adders below return false: do not check) or 512 steps it answers yes. */
#define TA__PART_MAX 64u
typedef struct {
    uint32_t rem[TA__PART_MAX], sz[TA__PART_MAX], k, n, steps;
} ta__part_chk;
/* Sorts the sizes largest first and searches; true: a partition exists
 * (or the check gave up). */
bool ta__opt_part_run(ta__part_chk *P);
/* Sets P's sizes to the unplaced buffers starting at boundary t, read in
 * list[lo_start[t]..lo_start[t + 1]), in units of q; false: too many. */
bool ta__opt_part_items(const opt_mem *M, const uint32_t *list, size_t q, uint32_t t, ta__part_chk *P);
/* Adds the room [a, e) (bytes, q-aligned; nothing when empty); false: too many. */
bool ta__opt_part_seg(ta__part_chk *P, size_t q, size_t a, size_t e);
/* The free segments of a freed set: the runs of the enders v[0..k) (by
 * offset; with C != 0 the whole [0, C) instead) less the buffers already
 * placed there, w[0..j) (by offset), into seg as (start, end) byte pairs;
 * returns their number.  seg holds 2 * (k + j + 1) entries at least. */
uint32_t ta__opt_free_segs(const opt_mem *M, const uint32_t *v, uint32_t k, const uint32_t *w, uint32_t j, size_t C,
                           size_t *seg);
/* Searches for a tiling within C (ta__opt_tile_applies must hold; reads
 * M->total) with at most node_cap nodes and M->deadline; uses the memo
 * (the caller clears it afterwards).  Returns 0 (found: offsets in M->off),
 * 1 (no tiling: every plan needs more than C) or 2 (limit reached);
 * M->nodes = the nodes spent. */
int ta__opt_tile(opt_mem *M, size_t C, uint64_t node_cap);

/* plan_optimal_sweep.c */
/* Starts the byte sweep for capacity C (ta__opt_tile_applies must hold;
 * reads M->total): nothing placed, no run yet. */
void ta__opt_sweep_init(opt_mem *M, size_t C);
/* Continues the byte sweep (started by ta__opt_sweep_init with the same C)
 * for at most node_cap nodes and M->deadline; shares the memo with the
 * tiling search (the caller clears it afterwards).  Returns 0 (found:
 * offsets in M->off), 1 (no tiling within C) or 2 (limit reached: the next
 * call goes on where this one stopped); M->nodes = the nodes spent. */
int ta__opt_sweep(opt_mem *M, size_t C, uint64_t node_cap);
/* plan_optimal_beam.c */
typedef struct ta__beam ta__beam;
/* Carves the beam search's scratch (at most about 4 MB of states plus
 * O(m) arrays) for c from b, into M->bm; nothing (M->bm = NULL) unless
 * c->tiling: the beam only runs where ta__opt_tile_applies holds. */
void ta__opt_beam_carve(ta__bump *b, const opt_counts *c, opt_mem *M);
/* The beam search for a tiling within C (ta__opt_tile_applies must hold;
 * reads M->total) with at most node_cap nodes and M->deadline.  It only
 * finds: returns 0 (found: a checked tiling in M->off) or 2 (limit; at
 * once, no node spent, when M->bm is NULL), never 1.  A node is one
 * placement tried or one child scored.  M->nodes = the nodes spent. */
int ta__opt_beam(opt_mem *M, size_t C, uint64_t node_cap);

/* plan_optimal_pq.c */
typedef struct ta__pqs ta__pqs;
/* Carves the order search's scratch (O(m) arrays, a trail of
 * 32 m + 48 (2 m + 64) + 65,536 entries of 8 B and a candidate pool of
 * 16 m + 1,024 of 8 B: about 1 MB at 500 buffers) for c from b, into M->pq;
 * nothing (M->pq = NULL, and ta__opt_pq returns 2 at once) unless c->order. */
void ta__opt_pq_carve(ta__bump *b, const opt_counts *c, opt_mem *M);
/* The order search for a tiling within C: it keeps the orders of the live
 * buffers still possible in a PQ-tree and decides, boundary by boundary,
 * which enders are neighbours and which starters refill them.  Needs
 * ta__opt_tile_applies and every size a multiple of every alignment (else
 * returns 2 at once).  At most node_cap nodes and M->deadline.  Returns 0
 * (found: offsets in M->off), 1 (no tiling within C) or 2 (limit: the next
 * call goes on with the next restart); M->nodes = the nodes spent.  A node
 * is one option tried, one step of a group's enumeration or one test that
 * a set of enders can be consecutive. */
int ta__opt_pq(opt_mem *M, size_t C, uint64_t node_cap);

/* The tiling searches as a portfolio: the byte sweep, the time sweep
 * (ta__opt_tile), the beam (ta__opt_beam) and the byte sweep again, in
 * slices, at most node_cap nodes in all.  Same returns and M->nodes as
 * ta__opt_tile. */
int ta__opt_tile_portfolio(opt_mem *M, size_t C, uint64_t node_cap);

#endif
