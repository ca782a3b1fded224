/* Internal helpers shared by library modules (not installed). */
#ifndef TA_UTIL_H
#define TA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TA_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TA_MAX(a, b) ((a) > (b) ? (a) : (b))

static inline bool ta__is_pow2(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

/* Rounds x up to a multiple of a (a power of two); SIZE_MAX on overflow. */
static inline size_t ta__align_up(size_t x, size_t a) {
    if (a <= 1) return x;
    if (x > SIZE_MAX - (a - 1)) return SIZE_MAX;
    return (x + (a - 1)) & ~(a - 1);
}

/* a + b, saturating at SIZE_MAX. */
static inline size_t ta__add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

/* Bump allocator over caller scratch: hands out aligned slices; never frees.
 * `fail` latches when the block is too small, so callers check once at the end. */
typedef struct ta__bump {
    uint8_t *base;
    size_t cap, used;
    bool fail;
} ta__bump;

static inline void ta__bump_init(ta__bump *b, void *mem, size_t cap) {
    b->base = (uint8_t *)mem;
    b->cap = mem ? cap : 0;
    b->used = 0;
    b->fail = false;
}

/* Slice of `count * size` bytes aligned to `align` (a power of two, at most
 * 16); NULL (and fail) when it does not fit.  With base == NULL it only
 * counts, which is how sizes are computed: run the same carving code on a
 * NULL bump and read `used`. */
static inline void *ta__bump_take_aligned(ta__bump *b, size_t count, size_t size, size_t align) {
    if (size && count > SIZE_MAX / size) { b->fail = true; return NULL; }
    size_t bytes = count * size;
    size_t start = ta__align_up(b->used, align);
    if (start == SIZE_MAX || bytes > SIZE_MAX - start - 16) { b->fail = true; return NULL; }
    b->used = start + bytes;
    if (!b->base) return NULL;
    if (b->used > b->cap) { b->fail = true; return NULL; }
    return b->base + start;
}

/* The same, aligned to 16. */
static inline void *ta__bump_take(ta__bump *b, size_t count, size_t size) {
    return ta__bump_take_aligned(b, count, size, 16);
}

/* Scratch bytes a bump needs for the slices above, with slack for aligning the base. */
static inline size_t ta__bump_need(const ta__bump *b) { return b->fail ? SIZE_MAX : b->used + 16; }

/* Aligns a caller block's start to 16 bytes (the slack ta__bump_need adds). */
static inline void ta__bump_init_aligned(ta__bump *b, void *mem, size_t cap) {
    uintptr_t p = (uintptr_t)mem, q = (p + 15u) & ~(uintptr_t)15u;
    if (!mem || cap < (size_t)(q - p)) { ta__bump_init(b, mem ? (void *)q : NULL, 0); b->fail = mem != NULL; return; }
    ta__bump_init(b, (void *)q, cap - (size_t)(q - p));
}

/* Stable merge sort of ids[0..n) by cmp(a, b, ctx) (<0: a before b).
 * tmp must hold n ids.  O(n log n), no recursion. */
typedef int (*ta__cmp_fn)(uint32_t a, uint32_t b, const void *ctx);
void ta__sort_ids(uint32_t *ids, size_t n, ta__cmp_fn cmp, const void *ctx, uint32_t *tmp);

/* splitmix64's finaliser: a 64-bit hash of z (keys, tie orders). */
static inline uint64_t ta__mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Deterministic 64-bit PRNG (splitmix64) for seeded heuristics. */
static inline uint64_t ta__rng_next(uint64_t *s) { return ta__mix64(*s += 0x9E3779B97F4A7C15ull); }

void ta__memset(void *dst, int v, size_t n);

/* A 32-bit word in the host's byte order at any address (records, blobs). */
static inline uint32_t ta__rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline void ta__wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
#endif
