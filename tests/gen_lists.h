/* gen_lists.h -- random model-like buffer lists, the planner's benchmark
 * problems (bench_plan's random rows, bench_optimal_large's "random", the
 * issue-14 "random_10k" lists) and test_optimal_large's inputs.  One
 * definition, so a list named by its size and seed is the same list in
 * every program that measures it.
 *
 * Host-side, header only (no allocation: the caller owns the arrays).
 */
#ifndef TA_GEN_LISTS_H
#define TA_GEN_LISTS_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/plan.h"

/* A uniform draw in [0, n), n >= 1, from a 64-bit LCG whose state the
 * caller keeps (seed it with any value). */
static inline uint32_t gen_lists_rnd(uint64_t *state, uint32_t n) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*state >> 33) % n);
}

/* n model-like requests into r: about n/2 steps; most tensors live a few
 * steps, one in ten up to 64 (skip connections); sizes log-uniform from
 * 16 B to 256 KB in 16 B steps, 16-aligned.  Draws from *state. */
static inline void gen_list_model_like(ta_request *r, size_t n, uint64_t *state) {
    uint32_t horizon = (uint32_t)(n / 2 + 2);
    for (size_t i = 0; i < n; i++) {
        uint32_t first = gen_lists_rnd(state, horizon);
        uint32_t len = gen_lists_rnd(state, 10) == 0 ? gen_lists_rnd(state, 64) : gen_lists_rnd(state, 4);
        size_t size = (size_t)16 << gen_lists_rnd(state, 15);
        size += 16 * gen_lists_rnd(state, (uint32_t)(size / 16));
        r[i] = ta_request_make(size, (int32_t)first, (int32_t)(first + len));
        r[i].align = 16;
    }
}
#endif
