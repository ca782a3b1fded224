/* gen_packing.h -- planning problems whose optimum is known: perfect packings.
 *
 * A rectangle of `steps` steps x `height` bytes is cut, again and again,
 * into n pieces: each cut splits a random piece either in time (two
 * lifetimes one after the other) or in bytes (two buffers live together),
 * at a multiple of `quantum` bytes.  Every piece becomes a buffer.  At every
 * step the live buffers then add up to exactly `height`, so the lower bound
 * is `height`, and the cut positions are a plan of exactly `height` bytes:
 * the optimum is `height`, and a planner either finds it or it does not.
 * (Guillotine cuts only; the pieces are shuffled so the input order gives
 * nothing away.)
 *
 * Host-side helper.  Writes n requests (align = quantum) and, when
 * `solution` is non-NULL, the offsets of the packing.  Returns false when
 * the rectangle cannot be cut into n pieces (too few steps or bytes).
 */
#ifndef TA_GEN_PACKING_H
#define TA_GEN_PACKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/plan.h"

bool gen_packing(ta_request *reqs, size_t *solution, size_t n, int32_t steps, size_t height, size_t quantum,
                 uint64_t seed);
#endif
