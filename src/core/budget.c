/* The model hash behind budget tables (FNV-1a, 64 bits). */
#include "core/core.h"
#include "tinyarena/budget.h"

/* The same hash in 32-bit halves, for targets without a 64-bit multiply
 * (Cortex-M0's armv6-m has no 32x32->64 instruction: a uint64_t multiply is
 * a call to __aeabi_lmul per byte).  The prime is 2^40 + 0x1b3, so
 * h * prime = h * 0x1b3 + (h << 40) modulo 2^64: the low half times 0x1b3
 * from two 16-bit products (each below 2^25), the high half times 0x1b3,
 * and the low half shifted into the high one.  test_fw_arena checks it
 * against the 64-bit form. */
uint64_t ta__budget_hash_halves(const void *bytes, size_t len) {
    const uint8_t *p = bytes;
    uint32_t lo = 0x84222325u, hi = 0xcbf29ce4u;
    for (size_t i = 0; i < len; i++) {
        lo ^= p[i];
        const uint32_t a = (lo & 0xFFFFu) * 0x1b3u, b = (lo >> 16) * 0x1b3u;
        const uint32_t nlo = a + (b << 16);
        hi = hi * 0x1b3u + (b >> 16) + (nlo < a) + (lo << 8);
        lo = nlo;
    }
    return (uint64_t)hi << 32 | lo;
}

uint64_t ta_budget_hash(const void *bytes, size_t len) {
#if defined(__ARM_ARCH_6M__)
    return ta__budget_hash_halves(bytes, len);
#else
    const uint8_t *p = bytes;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
#endif
}
