/* Internal pieces of the planning core shared by the strategies (not installed). */
#ifndef TA_CORE_H
#define TA_CORE_H

#include "common/util.h"
#include "tinyarena/plan.h"

static inline size_t ta__align_of(const ta_request *r) { return r->align ? r->align : 1; }
static inline bool ta__is_fixed(const ta_request *r) { return r->fixed != TA_NO_OFFSET; }
static inline bool ta__time_overlap(const ta_request *a, const ta_request *b) {
    return a->first <= b->last && b->first <= a->last;
}

/*
 * The placer: first-fit / best-fit placement against the buffers placed so
 * far that overlap in time.  Used by greedy, best and (as incumbent builder)
 * by search strategies.
 *
 * Why a static interval tree: TFLM's planner walks every placed buffer for
 * every new one (quadratic).  Here the buffers are known up front, so we sort
 * them once by `first` and treat that array as an implicit balanced BST whose
 * nodes carry the largest `last` among *placed* buffers in their subtree.  A
 * query then visits only subtrees that can hold a time-overlapping placed
 * buffer: O(k log n) for k hits.  Sorting the k hits by offset and scanning
 * them gives exactly TFLM's answer (see ta__placer_find).
 */
typedef enum { TA_FIT_FIRST = 0, TA_FIT_BEST = 1 } ta__fit;

typedef struct ta__rel ta__rel; /* overlap relations by buffer (below) */

/* A deadline against the caller's clock (ta_plan_options.clock).  Strategies
 * poll it between units of work; `hit` latches so a late clock read cannot
 * un-expire it.  With no clock or no limit it never expires. */
typedef struct ta__deadline {
    ta_clock_fn clock;
    void *ctx;
    uint64_t start_us, at_us;
    bool on, hit;
} ta__deadline;

/* Starts a deadline of limit_s seconds from now (limit_s <= 0 or no clock:
 * never expires). */
void ta__deadline_start(ta__deadline *dl, const ta_plan_options *opt, double limit_s);
/* True once the deadline has passed. */
bool ta__deadline_hit(ta__deadline *dl);

/*
 * Dense queries (most placed buffers overlap the new one in time: all-live
 * lists, thousands of graph outputs) would make that O(n^2 log n).  So the
 * placer can also keep every placed buffer in a treap ordered by offset,
 * each node carrying its subtree's time range, end and largest raw hole
 * (built on the first dense query).  When more than 256 placed buffers
 * overlap the new one in time (the interval-tree collection stops counting
 * there) and they are at least an eighth of all placed (two Fenwick trees
 * over the ranks of first and last count them in O(log n)), the gap scan
 * walks that treap in offset order instead of sorting the hits: a subtree
 * none of whose
 * members overlaps in time is skipped, and one whose members all overlap
 * and whose holes are all too small is passed over whole.  Both paths see
 * the same holes in the same order, so they return the same offset.
 */
typedef struct ta__tnode {
    uint32_t left, right, prio;
    int32_t min_first, max_first, min_last, max_last; /* over the subtree */
    size_t min_off, max_end, max_hole;                /* over the subtree */
} ta__tnode;

typedef struct ta__placer {
    const ta_request *reqs;
    size_t n;
    size_t *pad;      /* padded size per buffer */
    uint32_t *tree;   /* ids sorted by first (in-order of the implicit BST) */
    uint32_t *pos;    /* pos[id]: index of id in tree */
    int32_t *maxlast; /* per tree index: max last of placed buffers in its subtree */
    uint32_t *hits;   /* query output */
    uint32_t *tmp;    /* sort scratch */
    uint32_t *stack;  /* query stack (2 entries per level) */
    uint8_t *placed;
    int32_t *tfirst, *tlast; /* per tree index: the buffer's steps (queries read them in tree order) */
    uint8_t *tplaced;        /* per tree index: placed */
    size_t *off;      /* offsets of placed buffers (caller's array) */
    uint64_t work;
    /* the offset treap and the counts that choose between the two scans */
    ta__tnode *node;   /* per id */
    uint32_t root;     /* UINT32_MAX: empty */
    bool treap_on;     /* the treap holds every placed buffer (built lazily) */
    uint32_t *by_last; /* ids sorted by last (lazily) */
    uint32_t *lpos;    /* lpos[id]: index of id in by_last */
    bool lpos_ready;
    uint32_t *fen_f, *fen_l; /* Fenwick trees: placed counts by rank of first / of last */
    bool fen_on;       /* they count every placed buffer (built lazily) */
    size_t n_placed;
    int walk;          /* 0: choose per query; 1: always sort hits; 2: always walk (tests) */
    ta__deadline *dl;  /* optional: ta__placer_run stops when it expires */
    ta__rel *rel;       /* optional overlap relations (set after init; NULL: none) */
    bool aborted;      /* the last ta__placer_run stopped at the deadline */
} ta__placer;

/* Carves a placer's arrays from b (b->base NULL: sizing only). */
void ta__placer_carve(ta__placer *p, ta__bump *b, size_t n);
/* Binds to requests and the output offsets; builds the tree; nothing placed. */
void ta__placer_init(ta__placer *p, const ta_request *reqs, size_t n, size_t *offsets);
/* Marks every buffer unplaced (offsets untouched). */
void ta__placer_reset(ta__placer *p);
/* Records id at offset. */
void ta__placer_place(ta__placer *p, uint32_t id, size_t offset);
/* Collects placed buffers overlapping id in time into p->hits, sorted by offset; returns k. */
size_t ta__placer_overlapping(ta__placer *p, uint32_t id, bool sort);
/* Offset the fit rule gives id against the placed buffers overlapping it (id not placed). */
size_t ta__placer_find(ta__placer *p, uint32_t id, ta__fit fit);
/* Places every id of order[0..n_order) in turn (fixed ones at their offset);
 * returns the arena (max end).  When p->dl expires first it stops and sets
 * p->aborted (the offsets are then partial). */
size_t ta__placer_run(ta__placer *p, const uint32_t *order, size_t n_order, ta__fit fit);

/* ta__sort_ids comparators over a ta_request array (ctx): by first step,
 * by last step. */
int ta__cmp_first(uint32_t a, uint32_t b, const void *ctx);
int ta__cmp_last(uint32_t a, uint32_t b, const void *ctx);

/* Stable sort of ids by first step (by_last false) or last step: the same
 * order as ta__sort_ids with ta__cmp_first / ta__cmp_last, in O(n) passes
 * for long lists.  tmp holds n ids. */
void ta__sort_by_step(uint32_t *ids, size_t n, const ta_request *reqs, bool by_last, uint32_t *tmp);

/* Fills ids 0..n-1. */
void ta__iota(uint32_t *ids, size_t n);

/* The TFLM order: fixed buffers first in input order, then the rest by
 * padded size descending, ties by later input first.  Returns how many ids
 * were written (n). `tmp` holds n ids. */
void ta__order_tflm(const ta_request *reqs, const size_t *pad, size_t n, uint32_t *order, uint32_t *tmp);

/*
 * Overlap relations, indexed by buffer: start[id] .. start[id + 1] - 1 are
 * the positions in adj[] of the relations naming id (as x or as y), in
 * relation order.  okey/oend are the placer's per-query work arrays (each
 * placed buffer as an obstacle to the one being placed; see placer.c).
 * Built once per call from the caller's relations; read only after that.
 */
struct ta__rel {
    const ta_overlap *o;
    size_t nr, n;
    uint32_t *start; /* n + 1 */
    uint32_t *adj;   /* 2 nr relation indices */
    size_t *okey, *oend; /* placer: per placed buffer, its obstacle for the query */
};

/* Carves r's arrays for n buffers and nr relations (nr == 0: nothing). */
void ta__rel_carve(ta__rel *r, ta__bump *b, size_t n, size_t nr);
/* Fills the index (relations already validated). */
void ta__rel_build(ta__rel *r, const ta_overlap *o, size_t nr, size_t n);
/* Relations of the options (NULL / 0 when none). */
static inline size_t ta__n_rel(const ta_plan_options *opt) {
    return opt && opt->overlaps ? opt->n_overlaps : 0;
}
/* The other buffer of relation o. */
static inline uint32_t ta__rel_other(const ta_overlap *o, uint32_t id) { return o->x == id ? o->y : o->x; }
/* Validates relations against n requests (TA_E_BAD_REQUEST / TA_E_OVERFLOW). */
ta_status ta__rel_validate(const ta_request *reqs, size_t n, const ta_overlap *o, size_t nr, ta_diag *d);
/* True when buffers i at oi and j at oj may share bytes under some relation
 * of the index (byte disjointness is not looked at). */
bool ta__rel_pair_permits(const ta__rel *r, const ta_request *reqs, uint32_t i, size_t oi, uint32_t j, size_t oj);

/* Pairwise-overlap sweep shared by the validator and the fixed-offset check.
 * mode selects participants; rel (optional) permits the overlaps its
 * relations allow. Returns TA_OK or TA_E_OVERLAP (diag names both). */
typedef enum { TA__SWEEP_ALL, TA__SWEEP_FIXED, TA__SWEEP_FREE } ta__sweep_mode;
size_t ta__sweep_scratch(size_t n);
ta_status ta__sweep_overlap(const ta_request *reqs, size_t n, const size_t *offsets,
                            ta__sweep_mode mode, const ta__rel *rel, void *scratch, size_t scratch_bytes,
                            ta_diag *d);
/* ta_budget_hash in 32-bit halves (budget.c: what armv6-m runs); the same value. */
uint64_t ta__budget_hash_halves(const void *bytes, size_t len);
/* The strategies (plan_<name>.c), listed by ta_strategy_list/_find. */
extern const ta_strategy ta__strategy_naive, ta__strategy_pingpong, ta__strategy_linear, ta__strategy_greedy,
    ta__strategy_best, ta__strategy_optimal;
/* optimal's scratch_bytes for planning any subset of reqs[0..n) in it
 * (plan_optimal_setup.c): a subset can need the beam's states where the
 * whole list does not. */
ta_status ta__opt_scratch_subsets(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes);

#endif
