/* Overlap relations: validation, the per-buffer index, the pair rule and
 * the lower bound that counts related pairs as their union. */
#include <string.h>

#include "core/core.h"

/* Offsets and sizes are below 2^40 (validated), d within +-2^40: every sum
 * below fits an int64_t with room to spare. */
static int64_t i64(size_t x) { return (int64_t)x; }

bool ta_overlap_permits(const ta_request *reqs, const ta_overlap *o, size_t off_x, size_t off_y) {
    int64_t px = i64(ta_request_padded(&reqs[o->x])), py = i64(ta_request_padded(&reqs[o->y]));
    int64_t x = i64(off_x), y = i64(off_y);
    if (y + py <= x || x + px <= y) return true; /* disjoint bytes */
    if (o->kind == TA_OVERLAP_ABOVE) return y >= x + o->d;
    return y + py <= x + px - o->d;
}

size_t ta_overlap_union_bytes(const ta_request *reqs, const ta_overlap *o) {
    size_t px = ta_request_padded(&reqs[o->x]), py = ta_request_padded(&reqs[o->y]);
    /* Both kinds: the closest the pair may sit is with their near edges d
     * apart (d <= 0: edges aligned, the smaller one inside the larger). */
    size_t dd = o->d > 0 ? (size_t)o->d : 0;
    size_t u = TA_MAX(px, ta__add_sat(dd, py));
    size_t sum = ta__add_sat(px, py);
    return u < sum ? u : sum;
}

ta_status ta__rel_validate(const ta_request *reqs, size_t n, const ta_overlap *o, size_t nr, ta_diag *d) {
    (void)reqs;
    if (nr && !o) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL overlap relations");
    if (nr > TA_PLAN_MAX_BUFFERS)
        return ta_diag_set(d, TA_E_OVERFLOW, "%zu overlap relations: above the cap of %u", nr,
                           TA_PLAN_MAX_BUFFERS);
    const int64_t cap = (int64_t)TA_PLAN_MAX_ARENA;
    for (size_t i = 0; i < nr; i++) {
        if (o[i].x >= n || o[i].y >= n)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "overlap relation %zu: buffer %u out of range (%zu buffers)", i,
                               o[i].x >= n ? o[i].x : o[i].y, n);
        if (o[i].x == o[i].y)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "overlap relation %zu: buffer %u related to itself", i, o[i].x);
        if (o[i].kind != TA_OVERLAP_ABOVE && o[i].kind != TA_OVERLAP_BELOW)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "overlap relation %zu: unknown kind %u", i, o[i].kind);
        if (o[i].d > cap || o[i].d < -cap)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "overlap relation %zu: d %lld is beyond +-2^40", i,
                               (long long)o[i].d);
    }
    return TA_OK;
}

void ta__rel_carve(ta__rel *r, ta__bump *b, size_t n, size_t nr) {
    memset(r, 0, sizeof *r);
    if (!nr) return;
    r->start = ta__bump_take(b, n + 1, sizeof(uint32_t));
    r->adj = ta__bump_take(b, 2 * nr, sizeof(uint32_t));
    r->okey = ta__bump_take(b, n, sizeof(size_t));
    r->oend = ta__bump_take(b, n, sizeof(size_t));
}

void ta__rel_build(ta__rel *r, const ta_overlap *o, size_t nr, size_t n) {
    r->o = o;
    r->nr = nr;
    r->n = n;
    if (!nr) return;
    /* counting sort of (buffer, relation) incidences: start[] first counts,
     * then prefix sums, then fills from the back so relation order is kept */
    memset(r->start, 0, (n + 1) * sizeof *r->start);
    for (size_t i = 0; i < nr; i++) {
        r->start[o[i].x + 1]++;
        r->start[o[i].y + 1]++;
    }
    for (size_t i = 0; i < n; i++) r->start[i + 1] += r->start[i];
    for (size_t i = nr; i-- > 0;) {
        r->adj[--r->start[o[i].y + 1]] = (uint32_t)i;
        r->adj[--r->start[o[i].x + 1]] = (uint32_t)i;
    }
    /* the decrements left start[id + 1] at id's first slot: shift back */
    for (size_t i = 0; i < n; i++) r->start[i] = r->start[i + 1];
    r->start[n] = (uint32_t)(2 * nr);
}

bool ta__rel_pair_permits(const ta__rel *r, const ta_request *reqs, uint32_t i, size_t oi, uint32_t j, size_t oj) {
    if (!r || !r->nr) return false;
    for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
        const ta_overlap *o = &r->o[r->adj[k]];
        if (ta__rel_other(o, i) != j) continue;
        bool ok = o->x == i ? ta_overlap_permits(reqs, o, oi, oj) : ta_overlap_permits(reqs, o, oj, oi);
        if (ok) return true;
    }
    return false;
}

/* ---- the bound ------------------------------------------------------------ */

typedef struct {
    int64_t *step;
} ev_ctx;

static int cmp_ev(uint32_t a, uint32_t b, const void *vctx) {
    const ev_ctx *c = vctx;
    return (c->step[a] > c->step[b]) - (c->step[a] < c->step[b]);
}

static void carve_bound(ta__bump *b, size_t n, size_t nr, ta__rel *r, int64_t **step, uint64_t **add,
                        uint8_t **neg, uint32_t **ids, uint32_t **tmp, uint32_t **stamp, size_t **share) {
    ta__rel_carve(r, b, n, nr);
    size_t ne = 2 * n + 2 * nr;
    *step = ta__bump_take(b, ne, sizeof(int64_t));
    *add = ta__bump_take(b, ne, sizeof(uint64_t));
    *neg = ta__bump_take(b, ne, 1);
    *ids = ta__bump_take(b, ne, sizeof(uint32_t));
    *tmp = ta__bump_take(b, ne, sizeof(uint32_t));
    *stamp = ta__bump_take(b, n, sizeof(uint32_t));
    *share = ta__bump_take(b, n, sizeof(size_t));
}

size_t ta_plan_bound_overlaps_scratch_bytes(size_t n, size_t n_overlaps) {
    if (!n_overlaps) return ta_plan_bound_scratch_bytes(n);
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    ta__rel r;
    int64_t *step;
    uint64_t *add;
    uint8_t *neg;
    uint32_t *ids, *tmp, *stamp;
    size_t *share;
    carve_bound(&b, n, n_overlaps, &r, &step, &add, &neg, &ids, &tmp, &stamp, &share);
    size_t need = ta__bump_need(&b);
    return TA_MAX(need, ta_plan_bound_scratch_bytes(n));
}

ta_status ta_plan_bound_overlaps(const ta_request *reqs, size_t n, const ta_overlap *overlaps, size_t nr,
                                 void *scratch, size_t scratch_bytes, size_t *bytes, int32_t *peak_step) {
    if (!nr) return ta_plan_bound(reqs, n, scratch, scratch_bytes, bytes, peak_step);
    if (!bytes || (n && !reqs) || !overlaps) return TA_E_INVALID_ARG;
    if (n > TA_PLAN_MAX_BUFFERS || nr > TA_PLAN_MAX_BUFFERS) return TA_E_OVERFLOW;
    if (ta__rel_validate(reqs, n, overlaps, nr, NULL)) return TA_E_BAD_REQUEST;
    if (scratch_bytes < ta_plan_bound_overlaps_scratch_bytes(n, nr)) return TA_E_NO_MEMORY;
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    ta__rel r;
    int64_t *step;
    uint64_t *add;
    uint8_t *neg;
    uint32_t *ids, *tmp, *stamp;
    size_t *share;
    carve_bound(&b, n, nr, &r, &step, &add, &neg, &ids, &tmp, &stamp, &share);
    if (b.fail) return TA_E_NO_MEMORY;
    ta__rel_build(&r, overlaps, nr, n);
    /* Events: a buffer adds its bytes at `first` and takes them away after
     * `last`; a related pair takes away what it may share while both are
     * live and gives it back after.  The load can rise when a pair ends (a
     * buffer in two relations leaving), so every event step is a candidate,
     * not only the starts. */
    size_t ne = 0, biggest = 0;
    int32_t big_step = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p = ta_request_padded(&reqs[i]);
        if (!p) continue;
        if (p > biggest) {
            biggest = p;
            big_step = reqs[i].first;
        }
        step[ne] = reqs[i].first, add[ne] = p, neg[ne++] = 0;
        step[ne] = (int64_t)reqs[i].last + 1, add[ne] = p, neg[ne++] = 1;
    }
    /* A pair named by several relations shares at most the largest amount
     * any of them permits: collect each pair once, from its lower id. */
    memset(stamp, 0, n * sizeof *stamp);
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t k = r.start[i]; k < r.start[i + 1]; k++) {
            const ta_overlap *o = &overlaps[r.adj[k]];
            uint32_t j = ta__rel_other(o, i);
            if (j < i) continue;
            size_t s = ta_request_padded(&reqs[i]) + ta_request_padded(&reqs[j]) - ta_overlap_union_bytes(reqs, o);
            if (stamp[j] != i + 1) {
                stamp[j] = i + 1;
                share[j] = s;
            } else if (s > share[j]) {
                share[j] = s;
            }
        }
        for (uint32_t k = r.start[i]; k < r.start[i + 1]; k++) {
            uint32_t j = ta__rel_other(&overlaps[r.adj[k]], i);
            if (j < i || stamp[j] != i + 1) continue;
            stamp[j] = 0; /* emitted */
            int32_t f = TA_MAX(reqs[i].first, reqs[j].first), l = TA_MIN(reqs[i].last, reqs[j].last);
            if (f > l || !share[j]) continue;
            step[ne] = f, add[ne] = share[j], neg[ne++] = 1;
            step[ne] = (int64_t)l + 1, add[ne] = share[j], neg[ne++] = 0;
        }
    }
    ta__iota(ids, ne);
    ev_ctx c = {step};
    ta__sort_ids(ids, ne, cmp_ev, &c, tmp);
    /* plus and minus are kept apart (each a plain sum that never exceeds the
     * true totals), so the load is exact whenever it fits */
    uint64_t plus = 0, minus = 0, best = 0;
    int32_t peak = big_step;
    for (size_t i = 0; i < ne;) {
        int64_t t = step[ids[i]];
        while (i < ne && step[ids[i]] == t) {
            uint32_t e = ids[i++];
            if (neg[e]) minus += add[e];
            else plus += add[e];
        }
        uint64_t load = plus > minus ? plus - minus : 0;
        if (load > best) {
            best = load;
            peak = t > INT32_MAX ? INT32_MAX : (int32_t)t;
        }
    }
    if (biggest > best) {
        best = biggest;
        peak = big_step;
    }
    *bytes = best > SIZE_MAX ? SIZE_MAX : (size_t)best;
    if (peak_step) *peak_step = n ? peak : 0;
    return TA_OK;
}
