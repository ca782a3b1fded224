/* Stable bottom-up merge sort over uint32 ids.
 * Why our own: qsort is not stable, and stability is what makes the greedy
 * planner reproduce TFLM's order among equal sizes; it also needs no malloc. */
#include <string.h>

#include "common/util.h"

void ta__sort_ids(uint32_t *ids, size_t n, ta__cmp_fn cmp, const void *ctx, uint32_t *tmp) {
    if (n < 2) return;
    /* Steps: 1. insertion-sort runs of 16 (fast on short runs, stable);
     *        2. merge runs pairwise, doubling the width, ping-ponging between
     *           ids and tmp; 3. copy back if the result ended in tmp. */
    const size_t run = 16;
    for (size_t lo = 0; lo < n; lo += run) {
        size_t hi = TA_MIN(lo + run, n);
        for (size_t i = lo + 1; i < hi; i++) {
            uint32_t v = ids[i];
            size_t j = i;
            while (j > lo && cmp(v, ids[j - 1], ctx) < 0) {
                ids[j] = ids[j - 1];
                j--;
            }
            ids[j] = v;
        }
    }
    uint32_t *src = ids, *dst = tmp;
    for (size_t w = run; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = TA_MIN(lo + w, n), hi = TA_MIN(lo + 2 * w, n);
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = cmp(src[j], src[i], ctx) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != ids) memcpy(ids, src, n * sizeof *ids);
}
