/*
 * tinyarena/plan.h -- the planning core: buffer requests in, byte offsets out.
 *
 * The core knows nothing about models or files.  A caller describes every
 * buffer that must live in the arena as a ta_request: its size, its
 * alignment, the inclusive range of steps [first, last] during which it must
 * keep its contents, and optionally a fixed offset it must take.  A strategy
 * then assigns one offset per buffer so that no two buffers that are live at
 * the same step share a byte.  Every plan comes back with the arena size, the
 * lower bound (the most bytes live at any one step -- no plan can be smaller)
 * and has already passed ta_plan_check().
 *
 * Memory: library code never allocates.  Ask first how much scratch memory a
 * strategy needs, then pass it in.  Scratch is only used during the call; the
 * offsets array (n entries) is written by the call and owned by the caller.
 *
 *     const ta_strategy *s = ta_strategy_find("greedy");
 *     size_t need;
 *     ta_plan_scratch_bytes(s, reqs, n, NULL, &need);
 *     void *scratch = my_alloc(need);           // any memory, max_align_t aligned
 *     size_t *offsets = my_alloc(n * sizeof *offsets);
 *     ta_plan_result res;
 *     ta_diag diag;
 *     ta_status st = ta_plan_run(s, reqs, n, NULL, scratch, need, offsets, &res, &diag);
 *     // st == TA_OK: res.arena_bytes, res.lower_bound_bytes, offsets[i]
 *
 * Units: sizes and offsets in bytes; steps are plain integers (op steps).
 * Padding counts: a buffer occupies ta_request_padded(r) bytes, its size
 * rounded up to its alignment, and every offset is a multiple of its
 * alignment.  So the reported arena already contains all alignment padding.
 */
#ifndef TINYARENA_PLAN_H
#define TINYARENA_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Value of ta_request.fixed for a buffer the planner may place anywhere. */
#define TA_NO_OFFSET ((size_t)-1)

/* Hard caps on absurd inputs (TA_E_OVERFLOW with a one-line diag): at most
 * 2^24 buffers per call, and no buffer (size rounded to its alignment, plus
 * its fixed offset) nor planned arena above 2^40 bytes.  Real models are
 * many orders of magnitude below both; the caps keep every sum and product
 * the planners form far from overflow and their work bounded. */
#define TA_PLAN_MAX_BUFFERS (1u << 24)
#define TA_PLAN_MAX_ARENA ((uint64_t)1 << 40)

/* One buffer to place. */
typedef struct ta_request {
    size_t size;   /* bytes of data; 0 is allowed (placed at 0, conflicts with nothing) */
    size_t align;  /* power of two >= 1; 0 means 1 */
    int32_t first; /* first step at which the buffer is live (inclusive; may be negative) */
    int32_t last;  /* last step at which it is live (inclusive), >= first */
    size_t fixed;  /* TA_NO_OFFSET, or the offset it must take (a multiple of align) */
} ta_request;

/* A request filled with defaults: align 1, no fixed offset. */
ta_request ta_request_make(size_t size, int32_t first, int32_t last);

/* Bytes the buffer occupies: size rounded up to its alignment.  On overflow
 * returns TA_NO_OFFSET (callers that validated with ta_plan_run never see it). */
size_t ta_request_padded(const ta_request *r);

/* True when the lifetimes of a and b share at least one step. */
bool ta_request_overlap_time(const ta_request *a, const ta_request *b);

/*
 * Overlap relations.  Normally two buffers live at the same step never share
 * a byte.  A kernel that walks its input X and writes its output Y in a
 * known order can tolerate Y over the part of X it has already consumed;
 * a relation declares that tolerance for one pair, and every strategy, the
 * bound and the validator honour it.  Relations only ever *permit*: a plan
 * valid without them stays valid with them.
 *
 * A relation (x, y, kind, d) says the pair may share bytes, even where their
 * lifetimes overlap, when their offsets satisfy (padded sizes Px, Py):
 *
 *   TA_OVERLAP_ABOVE   offset(y) >= offset(x) + d
 *                      "Y may start at X.offset + d": Y sits at least d bytes
 *                      above X's start.  Safe for a kernel that walks both
 *                      buffers from the high addresses down (a backward walk,
 *                      as an in-place PAD does): each write lands on X bytes
 *                      the walk has already passed.  d = 0 with equal sizes
 *                      is plain in place.
 *   TA_OVERLAP_BELOW   offset(y) + Py <= offset(x) + Px - d
 *                      the mirror image: Y ends at least d bytes below X's
 *                      end.  Safe for a kernel that walks from the low
 *                      addresses up (a forward walk): the write front stays
 *                      behind the read front.
 *
 * Note the direction: in a forward walk Y must trail X, so it is the *end*
 * form that a forward walk declares; "start at X.offset + d" is only safe
 * when the walk goes downwards.  d is in bytes and may be negative (Y may
 * reach below X's start, as a PAD output does) or smaller than Px (the
 * common case: the bytes the kernel still needs when it writes); a d of Px
 * or more permits nothing the disjointness rule did not already.  Bytes
 * that are disjoint are always fine.  The pair's lifetimes need not overlap
 * (then the relation changes nothing).
 *
 * A relation permits sharing for the pair's whole joint lifetime, so declare
 * one only where that is the kernel's own run: X's last use and Y's first
 * step both the op that walks X into Y.
 *
 * Several relations may name the same pair (in either order): the pair may
 * overlap wherever any one of them permits.  Three buffers that share bytes
 * need a relation on every pair among them.
 *
 * Validation (ta_plan_run, ta_plan_check_overlaps): x and y index the
 * requests, x != y, kind is one of the two, |d| <= TA_PLAN_MAX_ARENA, at
 * most TA_PLAN_MAX_BUFFERS relations; else TA_E_BAD_REQUEST (or
 * TA_E_OVERFLOW for the count) naming the relation.
 *
 * Memory: the relation array is the caller's, read only, for the call.
 */
typedef enum ta_overlap_kind {
    TA_OVERLAP_ABOVE = 0, /* offset(y) >= offset(x) + d */
    TA_OVERLAP_BELOW = 1  /* offset(y) + padded(y) <= offset(x) + padded(x) - d */
} ta_overlap_kind;

typedef struct ta_overlap {
    uint32_t x;    /* the buffer read (request index) */
    uint32_t y;    /* the buffer written over it (request index) */
    uint32_t kind; /* a ta_overlap_kind */
    int64_t d;     /* bytes, signed; see above */
} ta_overlap;

/* True when placing x at off_x and y at off_y breaks no byte rule for this
 * pair under relation o alone: the bytes are disjoint or o permits the
 * overlap.  (Time is not looked at.)  reqs must hold o->x and o->y. */
bool ta_overlap_permits(const ta_request *reqs, const ta_overlap *o, size_t off_x, size_t off_y);

/* The fewest bytes the pair's union can cover under relation o (the sum of
 * the padded sizes when o permits no sharing): max(Px, max(d, 0) + Py),
 * capped at Px + Py, for both kinds (they are mirror images). */
size_t ta_overlap_union_bytes(const ta_request *reqs, const ta_overlap *o);

/* Options for ta_plan_run.  NULL means all defaults. */
typedef uint64_t (*ta_clock_fn)(void *ctx); /* monotonic microseconds */

#define TA_PLAN_ALLOW_FIXED_CONFLICT 1u /* accept fixed buffers that overlap each other
                                          (an offline plan that does so on purpose);
                                          they are reported in ta_plan_result */
typedef struct ta_plan_options {
    uint32_t flags;        /* TA_PLAN_* bits */
    double time_limit_s;   /* search strategies only; <= 0 means the strategy default */
    ta_clock_fn clock;     /* optional clock for time limits; NULL: work limits only */
    void *clock_ctx;       /* passed to clock */
    uint64_t work_limit;   /* optional cap on a search's effort units; 0 = none */
    uint32_t seed;         /* randomised heuristics derive all choices from it */
    /* Optional: offsets (n entries, read only) of a valid plan of the same
     * requests that the search strategies start from, so a caller that has
     * it already does not pay for it twice (the CLI's table passes greedy's
     * plan to best and best's to optimal).  best takes it in place of its
     * first run (TFLM's order, first fit: pass greedy's plan to get best's
     * usual result); optimal takes it as its incumbent instead of running
     * best.  NULL: none.  An invalid plan is caught by the final check. */
    const size_t *start;
    /* Optional overlap relations (see ta_overlap above): n_overlaps entries,
     * read only.  NULL / 0: none, and every strategy gives exactly the
     * offsets it gave before relations existed. */
    const ta_overlap *overlaps;
    size_t n_overlaps;
} ta_plan_options;

/* How strong the result is. */
typedef enum ta_proof {
    TA_PROOF_NONE = 0,  /* heuristic: no claim beyond arena >= lower bound */
    TA_PROOF_OPTIMAL,   /* no smaller arena exists */
    TA_PROOF_GAP,       /* best found; a smaller arena might exist, but none below proven_bytes */
    TA_PROOF_TIMEOUT    /* search hit its limit at the incumbent */
} ta_proof;

typedef struct ta_plan_result {
    size_t arena_bytes;       /* max over buffers of offset + padded size */
    size_t lower_bound_bytes; /* most padded bytes live at one step */
    int32_t peak_step;        /* a step where the lower bound is reached */
    size_t naive_bytes;       /* sum of padded sizes (no reuse at all) */
    ta_proof proof;           /* set by search strategies; NONE for heuristics */
    size_t proven_bytes;      /* no arena below this exists (>= lower bound) */
    uint64_t work;            /* strategy-defined effort (placements, search nodes) */
    size_t fixed_conflicts;   /* pairs of fixed buffers overlapping (only with
                                 TA_PLAN_ALLOW_FIXED_CONFLICT; else always 0) */
} ta_plan_result;

/*
 * A strategy.  Every strategy sees validated requests (ta_plan_run checks
 * them first) and must write one offset per buffer, honouring alignment and
 * fixed offsets.  Strategies are stateless; all state lives in scratch.
 */
typedef struct ta_strategy {
    const char *name;    /* "naive", "pingpong", "linear", "greedy", "best", "optimal" */
    const char *summary; /* one line for --help */
    /* Scratch bytes plan() needs for these requests. */
    ta_status (*scratch_bytes)(const ta_request *reqs, size_t n, const ta_plan_options *opt,
                               size_t *bytes);
    /* Writes offsets[0..n).  res->arena_bytes/proof/proven_bytes/work may be
     * set; ta_plan_run recomputes arena_bytes and the bound itself. */
    ta_status (*plan)(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                      size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *diag);
} ta_strategy;

/*
 * The exact planner, "optimal", searches for the smallest arena and proves
 * it.  It starts from best's plan (with the same options), so it is never
 * worse than best, then runs a depth-first search over canonical placements
 * (each buffer at the lowest offset its placed neighbours allow, in offset
 * order), pruned by per-time-section byte bounds and dominance, split at time
 * cuts no buffer crosses, and memoising failed states.  res->proof says:
 *   TA_PROOF_OPTIMAL  no smaller arena exists (proven_bytes == arena_bytes);
 *   TA_PROOF_GAP      the search improved on best but could not close the
 *                     gap: no arena below proven_bytes exists;
 *   TA_PROOF_TIMEOUT  the limit hit at best's plan; proven_bytes as above.
 * Limits: time_limit_s (<= 0: 10 s) against opt->clock covers the whole call;
 * work_limit caps search nodes; with no clock and no work limit it searches
 * time_limit_s x 1e6 nodes, so results never depend on the machine.  The
 * search order is fixed: the same input and options give the same offsets
 * whenever the search finishes within its limit.  Alignment and fixed
 * offsets are exact (fixed buffers are obstacles; with
 * TA_PLAN_ALLOW_FIXED_CONFLICT, lower_bound_bytes counts colliding fixed
 * bytes twice, and proven_bytes is the planner's own, valid bound).
 * Scratch grows with the overlapping pairs (a few MB for real models, at most
 * 64 MB plus best's).  Problems with more than 4096 sized buffers, 2^20
 * overlapping pairs or a larger search state get a bounded search instead:
 * split at time cuts, the small parts at the top searched exactly, the rest
 * by re-packing windows of buffers around the arena's top (never above
 * best's plan); scratch linear in n (about 0.5 KB a buffer at 10,000, 0.2
 * KB at 100,000, on top of best's).  Its proof is OPTIMAL when the arena
 * meets the bound or what the parts proved, else GAP (it improved on best)
 * or TIMEOUT.
 *
 * With overlap relations (ta_plan_options.overlaps) a second search runs
 * instead (src/core/plan_optimal_rel.c): each node places any unplaced
 * buffer at 0 or at a placed neighbour's stop (its end, or where a relation
 * lets the buffer start: ABOVE's y at off(x) + d, BELOW's x at
 * off(y) + Py + d - Px), never the same plan twice; pruned by the relation-aware section bound (pairs counted at
 * the bytes they actually share once placed), sets of buffers left with no
 * position, and offset bounds propagated over unplaced pairs.  Same proofs,
 * limits and determinism as above (its work unit: one candidate offset
 * looked at or one placed neighbour compared; without a clock or a work
 * limit, time_limit_s x 1e8 of them);
 * searched up to 1,024 sized buffers (above: best's plan, OPTIMAL when it
 * meets the relation-aware bound, else TIMEOUT).  Its
 * proofs need every free buffer to share one alignment; with mixed ones it
 * still improves plans but proves only by meeting the bound.
 *
 * Relations in the other strategies: greedy and best place a related buffer
 * against what its placed partners' relations still forbid (best also runs
 * each order without them and keeps the smaller); pingpong and linear put a
 * buffer in place at a live related buffer's offset when a relation permits
 * it; naive ignores them.  With no relation every strategy is unchanged.
 */

/* The built-in strategies, in the order tables print them.  *count receives
 * how many; the array is static and never changes. */
const ta_strategy *const *ta_strategy_list(size_t *count);

/* Strategy by name (case-sensitive), or NULL. */
const ta_strategy *ta_strategy_find(const char *name);

/*
 * Scratch bytes ta_plan_run needs for strategy s on these requests
 * (the strategy's own need, plus the bound and the check).
 * Returns TA_E_INVALID_ARG for NULL s/bytes, or reqs NULL with n > 0;
 * TA_E_OVERFLOW when n is absurd (> TA_PLAN_MAX_BUFFERS).
 */
ta_status ta_plan_scratch_bytes(const ta_strategy *s, const ta_request *reqs, size_t n,
                                const ta_plan_options *opt, size_t *bytes);

/*
 * Plans the n requests with strategy s.
 *  1. validates the requests (alignment a power of two, first <= last,
 *     fixed offsets aligned, no size overflow, at most TA_PLAN_MAX_BUFFERS
 *     buffers, none above TA_PLAN_MAX_ARENA, fixed buffers not colliding
 *     unless TA_PLAN_ALLOW_FIXED_CONFLICT);
 *  2. computes the lower bound;
 *  3. runs the strategy;
 *  4. validates the plan with ta_plan_check.
 * offsets: n entries written on success (undefined on failure).
 * res: filled on success.  diag: optional, explains failures.
 * Returns TA_OK; TA_E_INVALID_ARG; TA_E_BAD_REQUEST; TA_E_FIXED_CONFLICT;
 * TA_E_NO_MEMORY when scratch_bytes is below ta_plan_scratch_bytes;
 * TA_E_OVERFLOW for more than TA_PLAN_MAX_BUFFERS buffers, a buffer or a
 * planned arena above TA_PLAN_MAX_ARENA bytes; or the check's code
 * if a strategy produced an invalid plan (a bug, reported not hidden).
 */
ta_status ta_plan_run(const ta_strategy *s, const ta_request *reqs, size_t n,
                      const ta_plan_options *opt, void *scratch, size_t scratch_bytes,
                      size_t *offsets, ta_plan_result *res, ta_diag *diag);

/*
 * Validates requests alone (step 1 of ta_plan_run).  flags: TA_PLAN_* bits.
 * *fixed_conflicts (optional) receives the number of colliding fixed pairs
 * found when TA_PLAN_ALLOW_FIXED_CONFLICT is set.
 * Needs ta_plan_check_scratch_bytes(n) bytes of scratch.
 */
ta_status ta_plan_requests_check(const ta_request *reqs, size_t n, uint32_t flags, void *scratch,
                                 size_t scratch_bytes, size_t *fixed_conflicts, ta_diag *diag);

/*
 * The lower bound: the largest sum of padded sizes live at one step (the
 * maximum-weight clique of the interval overlap graph).  *bytes receives it,
 * *peak_step (optional) the first step where it is reached (0 when n == 0).
 * Needs ta_plan_bound_scratch_bytes(n) bytes of scratch.  O(n log n).
 */
size_t ta_plan_bound_scratch_bytes(size_t n);
ta_status ta_plan_bound(const ta_request *reqs, size_t n, void *scratch, size_t scratch_bytes,
                        size_t *bytes, int32_t *peak_step);

/*
 * The lower bound with overlap relations.  For every step t:
 *   load(t) = sum of padded sizes live at t
 *           - sum, over related pairs live together at t, of the most bytes
 *             the pair may share (Px + Py - ta_overlap_union_bytes; for a pair
 *             named by several relations, the largest)
 * and *bytes = max(max over t of load(t), largest padded buffer).
 * Why it is a bound: the bytes covered at t are at least the sum of the sizes
 * minus the sum of the pairwise intersections (inclusion-exclusion cut after
 * the pairs), unrelated live pairs intersect in nothing, and a related pair
 * in at most what its relations permit.  On a chain X-Y-Z (X, Z unrelated,
 * so disjoint) it is exactly the union of each related pair counted once:
 * Px + Py + Pz - s(X,Y) - s(Y,Z).  Where relations close a triangle the
 * three-way intersection is not added back, so the bound can be loose there
 * (never above a valid plan).  With no relations it is ta_plan_bound.
 * Alignment is ignored (it only makes real plans larger).  *peak_step: the
 * first step where the maximum is reached.  O((n + r) log(n + r)).
 */
size_t ta_plan_bound_overlaps_scratch_bytes(size_t n, size_t n_overlaps);
ta_status ta_plan_bound_overlaps(const ta_request *reqs, size_t n, const ta_overlap *overlaps,
                                 size_t n_overlaps, void *scratch, size_t scratch_bytes, size_t *bytes,
                                 int32_t *peak_step);

/*
 * The validator.  Checks that
 *   - every offset is a multiple of its buffer's alignment (TA_E_MISALIGNED);
 *   - fixed buffers sit at their fixed offset (TA_E_FIXED_MOVED);
 *   - every buffer ends inside the arena: offset + padded <= arena_bytes
 *     (TA_E_OUT_OF_ARENA);
 *   - no two buffers overlap both in time and in bytes (TA_E_OVERLAP), except
 *     two fixed ones when flags has TA_PLAN_ALLOW_FIXED_CONFLICT.
 * The first problem found is described in diag.  O(n log n): a sweep over
 * time keeps the live buffers in a balanced tree ordered by offset.
 */
size_t ta_plan_check_scratch_bytes(size_t n);
ta_status ta_plan_check(const ta_request *reqs, size_t n, const size_t *offsets, size_t arena_bytes,
                        uint32_t flags, void *scratch, size_t scratch_bytes, ta_diag *diag);

/*
 * The validator with overlap relations: the same checks as ta_plan_check
 * (which is this with no relations), except that two buffers live at the
 * same step may share bytes when a relation on the pair permits it
 * (ta_overlap_permits), and nothing more.  The relations are validated first
 * (TA_E_BAD_REQUEST naming the bad one).  Buffers named by no relation go
 * through ta_plan_check's sweep; each buffer named by a relation is compared
 * with every buffer live beside it: O((n + r) log n + n k), k the most
 * related buffers live at one step.
 */
size_t ta_plan_check_overlaps_scratch_bytes(size_t n, size_t n_overlaps);
ta_status ta_plan_check_overlaps(const ta_request *reqs, size_t n, const ta_overlap *overlaps,
                                 size_t n_overlaps, const size_t *offsets, size_t arena_bytes,
                                 uint32_t flags, void *scratch, size_t scratch_bytes, ta_diag *diag);

/* max over i of offsets[i] + padded size (0 for n == 0). */
size_t ta_plan_arena_bytes(const ta_request *reqs, size_t n, const size_t *offsets);

/* Text for a proof status: "heuristic", "proven optimal", "best found with gap", "timed out". */
const char *ta_proof_str(ta_proof p);

#ifdef __cplusplus
}
#endif
#endif
