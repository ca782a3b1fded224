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

/* A buffer being generated: bytes [y0, y1), steps [t0, t1). */
typedef struct {
    int32_t t0, t1;
    size_t y0, y1;
} ev_buf;

/* Splits bytes [y0, y1) into 1-4 buffers (at most `room`, at least 1)
 * starting at t; returns how many were appended at out[k..].  The want - 1
 * cuts are distinct points drawn uniformly among the units - 1 inner unit
 * boundaries (every split into `want` pieces equally likely).  (It used to
 * draw the pieces one after another, each uniform in what the earlier ones
 * left, which made the later pieces of a split small: half, a quarter, an
 * eighth of the range -- many more 16-byte buffers than a random split.) */
static size_t ev_split(ev_buf *out, size_t k, size_t y0, size_t y1, int32_t t, int32_t max_life, size_t quantum,
                       size_t room, uint64_t *s) {
    size_t units = (y1 - y0) / quantum, want = 1 + (size_t)(next(s) % 4), cut[4];
    if (want > units) want = units;
    if (want > room) want = room;
    for (size_t j = 0; j + 1 < want;) { /* distinct cuts in 1..units-1, by rejection (want <= units) */
        size_t c = 1 + (size_t)(next(s) % (units - 1)), i = j;
        bool dup = false;
        for (size_t q = 0; q < j; q++) dup = dup || cut[q] == c;
        if (dup) continue;
        for (; i > 0 && cut[i - 1] > c; i--) cut[i] = cut[i - 1]; /* keep them sorted */
        cut[i] = c;
        j++;
    }
    size_t y = y0;
    for (size_t j = 0; j < want; j++) {
        size_t end = j + 1 < want ? y0 + quantum * cut[j] : y1;
        out[k + j] = (ev_buf){t, t + 1 + (int32_t)(next(s) % (uint64_t)max_life), y, end};
        y = end;
    }
    return want;
}

size_t gen_packing_events(ta_request *reqs, size_t *solution, size_t n, int32_t max_life, size_t height,
                          size_t quantum, uint64_t seed) {
    if (!n || max_life < 1 || !quantum || height < quantum || height % quantum) return 0;
    ev_buf *all = malloc(n * sizeof *all); /* every buffer made, in birth order */
    size_t *live = malloc(2 * n * sizeof *live); /* indices into all, live now; then the next set */
    if (!all || !live) {
        free(all);
        free(live);
        return 0;
    }
    size_t *nxt = live + n;
    uint64_t s = seed;
    size_t k = ev_split(all, 0, 0, height, 0, max_life, quantum, n, &s), nl = 0;
    for (size_t i = 0; i < k; i++) live[nl++] = i;
    for (;;) {
        int32_t t = INT32_MAX;
        for (size_t i = 0; i < nl; i++)
            if (all[live[i]].t1 < t) t = all[live[i]].t1;
        /* live buffers by offset; the ones ending at t free their bytes */
        for (size_t i = 1; i < nl; i++) /* insertion sort by y0 (nl is small) */
            for (size_t j = i; j > 0 && all[live[j - 1]].y0 > all[live[j]].y0; j--) {
                size_t x = live[j];
                live[j] = live[j - 1];
                live[j - 1] = x;
            }
        size_t runs = 0;
        for (size_t i = 0; i < nl; i++)
            if (all[live[i]].t1 == t && (i == 0 || all[live[i - 1]].t1 != t)) runs++;
        if (runs > n - k) { /* no room to refill every freed range: stop here */
            for (size_t i = 0; i < nl; i++) all[live[i]].t1 = t;
            break;
        }
        size_t nl2 = 0, room = n - k;
        for (size_t i = 0; i < nl;) {
            if (all[live[i]].t1 != t) {
                nxt[nl2++] = live[i++];
                continue;
            }
            size_t y0 = all[live[i]].y0, y1 = y0;
            while (i < nl && all[live[i]].t1 == t) y1 = all[live[i++]].y1;
            runs--;
            /* leave one buffer for every freed range still to refill */
            size_t got = ev_split(all, k, y0, y1, t, max_life, quantum, room - runs, &s);
            for (size_t j = 0; j < got; j++) nxt[nl2++] = k + j;
            k += got;
            room -= got;
        }
        for (size_t i = 0; i < nl2; i++) live[i] = nxt[i];
        nl = nl2;
    }
    for (size_t i = k; i > 1; i--) { /* shuffle */
        size_t j = (size_t)(next(&s) % i);
        ev_buf x = all[i - 1];
        all[i - 1] = all[j];
        all[j] = x;
    }
    for (size_t i = 0; i < k; i++) {
        reqs[i] = ta_request_make(all[i].y1 - all[i].y0, all[i].t0, all[i].t1 - 1);
        reqs[i].align = quantum;
        if (solution) solution[i] = all[i].y0;
    }
    free(all);
    free(live);
    return k;
}
