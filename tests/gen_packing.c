/* Perfect packings (see gen_packing.h). */
#include "gen_packing.h"

#include <stdlib.h>

typedef struct {
    int32_t t0, t1; /* steps [t0, t1) */
    size_t y0, y1;  /* bytes [y0, y1) */
} piece;

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

bool gen_packing(ta_request *reqs, size_t *solution, size_t n, int32_t steps, size_t height, size_t quantum,
                 uint64_t seed) {
    if (!n || steps < 1 || !quantum || height < quantum || height % quantum) return false;
    piece *p = malloc(n * sizeof *p);
    if (!p) return false;
    size_t k = 1;
    p[0] = (piece){0, steps, 0, height};
    uint64_t s = seed;
    /* Each round cuts one random piece that can still be cut; a bounded
     * number of tries, so a rectangle too small for n pieces fails. */
    for (size_t tries = 0; k < n && tries < 1000 * n; tries++) {
        size_t i = (size_t)(next(&s) % k);
        piece a = p[i];
        bool in_time = next(&s) % 2 == 0;
        int32_t len = a.t1 - a.t0;
        size_t units = (a.y1 - a.y0) / quantum;
        if (in_time && len >= 2) {
            int32_t c = a.t0 + 1 + (int32_t)(next(&s) % (uint64_t)(len - 1));
            p[i].t1 = c;
            p[k++] = (piece){c, a.t1, a.y0, a.y1};
        } else if (!in_time && units >= 2) {
            size_t c = a.y0 + quantum * (1 + (size_t)(next(&s) % (units - 1)));
            p[i].y1 = c;
            p[k++] = (piece){a.t0, a.t1, c, a.y1};
        }
    }
    if (k < n) {
        free(p);
        return false;
    }
    for (size_t i = n; i > 1; i--) { /* shuffle */
        size_t j = (size_t)(next(&s) % i);
        piece t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        reqs[i] = ta_request_make(p[i].y1 - p[i].y0, p[i].t0, p[i].t1 - 1);
        reqs[i].align = quantum;
        if (solution) solution[i] = p[i].y0;
    }
    free(p);
    return true;
}
