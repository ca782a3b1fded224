/*
 * tinyarena/regions.h -- planning across several memory regions (issue #16).
 *
 * A board has several memories: TCM next to the core, SRAM banks, external
 * PSRAM that is large but slow.  Here the requests of plan.h are spread over
 * an ordered list of regions, fastest first, each with a capacity (bytes)
 * and an access cost (per byte accessed).  Every buffer goes to exactly one
 * region and takes an offset inside it; buffers in different regions never
 * conflict.  The core stays format-free: what a buffer costs is a weight
 * the caller gives, the bytes its ops read and write (the CLI counts them
 * from the graph: size x (readers + writers)).
 *
 * The objective, in this order:
 *   1. every buffer fits: each region's plan is at most its capacity;
 *   2. the weighted traffic sum over buffers of weight x cost(region) is
 *      as small as the search finds.
 * A buffer may be pinned to a region.  A buffer with a fixed offset (an
 * offline plan) keeps it, in its pinned region, or unpinned in the last.
 *
 * How: the assignment is filled by density (weight per padded byte,
 * densest first), each buffer into the cheapest region whose live bytes
 * over its lifetime leave room for it; then each region is planned with the
 * chosen strategy (every strategy of plan.h works per region), and a region
 * whose plan exceeds its capacity (fragmentation above its live bytes)
 * gives its least dense movable buffer to the next region, until all fit.
 * `best` also tries other orders (heaviest, smallest first) and then moves
 * single buffers to cheaper regions while every plan still fits; `optimal`
 * searches assignments exhaustively when at most TA_REGIONS_EXACT_MAX
 * buffers can move (each leaf planned by `optimal`; the result is proven
 * when the search finishes and every refused leaf was refused by a bound or
 * a proven plan), else keeps best's and reports a gap to the bound below.
 *
 * The cost bound (no assignment costs less): every buffer at the cheapest
 * cost, plus, at the worst step, what the buffers live there must pay
 * above that when they are packed fractionally, densest first, into the
 * regions' capacities (minus the pinned bytes live there).
 *
 * Memory: no malloc.  ta_regions_scratch_bytes, then ta_regions_plan in that
 * scratch.  region_of and offsets (n entries each) are the caller's.
 */
#ifndef TINYARENA_REGIONS_H
#define TINYARENA_REGIONS_H

#include <stdint.h>

#include "tinyarena/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TA_MAX_REGIONS 8u            /* regions per problem */
#define TA_REGION_ANY UINT32_MAX     /* pin[i]: the planner chooses */
#define TA_REGIONS_EXACT_MAX 16u     /* optimal: exhaustive up to this many movable buffers */

typedef struct ta_region {
    const char *name;  /* for diags and reports (not copied; may be NULL: "region K") */
    size_t capacity;   /* bytes; at most TA_PLAN_MAX_ARENA */
    uint32_t cost;     /* cost per byte accessed; the CLI's default is the region's index */
} ta_region;

typedef struct ta_region_problem {
    const ta_region *regions; /* 1..TA_MAX_REGIONS, fastest (preferred) first */
    size_t n_regions;
    const uint32_t *pin;      /* n entries, a region index or TA_REGION_ANY; NULL: none pinned */
    const uint64_t *weight;   /* n entries, bytes accessed; NULL: each buffer's padded size */
} ta_region_problem;

typedef struct ta_region_result {
    size_t used_bytes[TA_MAX_REGIONS];        /* each region's planned arena */
    size_t lower_bound_bytes[TA_MAX_REGIONS]; /* most bytes live at once among its buffers */
    uint64_t accessed_bytes[TA_MAX_REGIONS];  /* sum of the weights of its buffers */
    size_t n_buffers[TA_MAX_REGIONS];
    uint64_t cost;           /* sum of weight x cost of its region */
    uint64_t cost_bound;     /* no assignment that fits costs less */
    ta_proof proof;          /* the assignment's: OPTIMAL (cost proven), GAP, or NONE (heuristic) */
    size_t total_bound_bytes;/* the bound of every buffer in one arena (with opt's relations) */
    uint64_t work;           /* region plans made */
} ta_region_result;

/* Scratch for ta_regions_plan with strategy s (its need on all n requests,
 * plus the assignment's arrays).  TA_E_INVALID_ARG / TA_E_OVERFLOW as
 * ta_plan_scratch_bytes. */
ta_status ta_regions_scratch_bytes(const ta_strategy *s, const ta_request *reqs, size_t n, const ta_region_problem *p,
                                   const ta_plan_options *opt, size_t *bytes);

/*
 * Assigns every request a region (region_of[i]) and an offset in it
 * (offsets[i]), then checks the result with ta_regions_check.  Overlap
 * relations in opt apply between buffers that land in the same region.
 * Returns TA_OK; TA_E_INVALID_ARG (no regions, too many, a pin out of
 * range, NULL arrays); the request checks of ta_plan_run; TA_E_NO_MEMORY
 * when scratch is short, or -- with a diag naming the region, the bytes it
 * overflows by and the least total capacity that fits -- when the buffers
 * cannot fit ("region SLOW overflows by 1200 bytes (plan 9392, capacity
 * 8192); 41984 bytes in one region fit; no plan fits below 40960 bytes in
 * total").
 */
ta_status ta_regions_plan(const ta_strategy *s, const ta_request *reqs, size_t n, const ta_region_problem *p,
                          const ta_plan_options *opt, void *scratch, size_t scratch_bytes, uint32_t *region_of,
                          size_t *offsets, ta_region_result *res, ta_diag *diag);

/*
 * The validator per region: every region_of[i] names a region (and its pin,
 * when pinned); the buffers of each region pass ta_plan_check_overlaps
 * (relations between members of the region only) with that region's
 * capacity as its arena.  scratch: ta_regions_check_scratch_bytes.
 */
size_t ta_regions_check_scratch_bytes(size_t n, size_t n_overlaps);
ta_status ta_regions_check(const ta_request *reqs, size_t n, const ta_region_problem *p,
                           const ta_plan_options *opt, const uint32_t *region_of, const size_t *offsets, void *scratch,
                           size_t scratch_bytes, ta_diag *diag);

/* A region's name for messages: its own, or "region K" written into buf. */
const char *ta_region_name(const ta_region_problem *p, size_t k, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
