/* The model hash behind budget tables (FNV-1a, 64 bits). */
#include "tinyarena/budget.h"

uint64_t ta_budget_hash(const void *bytes, size_t len) {
    const uint8_t *p = bytes;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
