/* Seeded random values for the kernel tests (test_kernels_*.c). */
#ifndef TA_KERNEL_TEST_H
#define TA_KERNEL_TEST_H
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

static uint64_t g_seed = 12345;
static inline int32_t rnd(int32_t lo, int32_t hi) { /* inclusive */
    return (int32_t)(lo + (int64_t)(ta__rng_next(&g_seed) % (uint64_t)((int64_t)hi - lo + 1)));
}
static inline void rnd_s8(int8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (int8_t)rnd(-128, 127);
}
#endif
