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

/* Non-guillotine perfect packings, event by event (issue 14).  The whole
 * height starts live, split into 1-4 buffers.  Each buffer gets a random
 * lifetime of 1..max_life steps; at each time some buffers end (the random
 * subset whose lifetime runs out then), the byte ranges they free merge
 * with freed neighbours, and every merged range is split again into 1-4
 * new buffers (at multiples of `quantum`) that start there.  When another
 * round would exceed n buffers, every live buffer ends at that time, so the
 * rectangle [0, T) x [0, height) is tiled exactly: the optimum is `height`.
 * The buffers are shuffled.  Writes at most n requests (align = quantum),
 * the packing's offsets when `solution` is non-NULL, and returns how many
 * (0: bad arguments or out of memory); usually n or a few fewer. */
size_t gen_packing_events(ta_request *reqs, size_t *solution, size_t n, int32_t max_life, size_t height,
                          size_t quantum, uint64_t seed);
#endif
