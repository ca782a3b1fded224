/* linear: simulate execution order with a free list.
 * At each step, first free the buffers whose last step has passed, then
 * place each new buffer at the lowest offset that fits (first fit),
 * coalescing free neighbours.  The arena grows only when nothing fits.
 *
 * Overlap relations: a new buffer Y goes in place, at the offset of a live
 * related X, when a relation permits the same offset, Y fits inside X's
 * bytes and X dies no later than Y.  Each byte is freed by exactly one
 * owner, the last of its users to die: X keeps only [X + |Y|, X end) and Y
 * owns [X, X + |Y|) (a chain of in-place ops nests the same way). */
#include <string.h>

#include "core/core.h"

typedef struct {
    uint32_t *by_first, *by_last, *tmp;
    size_t *bs, *be; /* free blocks [bs, be), sorted by start, disjoint, non-adjacent */
    size_t nb, cap;
    size_t top;      /* high-water mark: everything at or above is free */
    size_t *own_lo;  /* a buffer frees [own_lo, offset + padded) when it dies */
    ta__rel rel;
} lin_mem;

static void carve(ta__bump *b, size_t n, size_t nr, lin_mem *m) {
    m->by_first = ta__bump_take(b, n, sizeof(uint32_t));
    m->by_last = ta__bump_take(b, n, sizeof(uint32_t));
    m->tmp = ta__bump_take(b, n, sizeof(uint32_t));
    /* live free buffers + holes between fixed regions + alignment fragments */
    m->cap = 2 * n + 2;
    m->bs = ta__bump_take(b, m->cap, sizeof(size_t));
    m->be = ta__bump_take(b, m->cap, sizeof(size_t));
    m->own_lo = ta__bump_take(b, nr ? n : 0, sizeof(size_t));
    ta__rel_carve(&m->rel, b, n, nr);
}

static ta_status lin_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    ta__bump b;
    lin_mem m;
    ta__bump_init(&b, NULL, 0);
    carve(&b, n, ta__n_rel(opt), &m);
    *bytes = ta__bump_need(&b);
    return TA_OK;
}

/* Inserts [s, e) into the free list, merging with touching neighbours. */
static void free_range(lin_mem *m, size_t s, size_t e) {
    if (s >= e) return;
    size_t lo = 0, hi = m->nb;
    while (lo < hi) { /* first block starting after s */
        size_t mid = (lo + hi) / 2;
        if (m->bs[mid] <= s) lo = mid + 1;
        else hi = mid;
    }
    size_t k = lo;
    bool join_prev = k > 0 && m->be[k - 1] == s;
    bool join_next = k < m->nb && m->bs[k] == e;
    if (join_prev && join_next) {
        m->be[k - 1] = m->be[k];
        memmove(&m->bs[k], &m->bs[k + 1], (m->nb - k - 1) * sizeof(size_t));
        memmove(&m->be[k], &m->be[k + 1], (m->nb - k - 1) * sizeof(size_t));
        m->nb--;
    } else if (join_prev) {
        m->be[k - 1] = e;
    } else if (join_next) {
        m->bs[k] = s;
    } else {
        memmove(&m->bs[k + 1], &m->bs[k], (m->nb - k) * sizeof(size_t));
        memmove(&m->be[k + 1], &m->be[k], (m->nb - k) * sizeof(size_t));
        m->bs[k] = s;
        m->be[k] = e;
        m->nb++;
    }
}

/* Removes [c, c+s) from block k (which contains it), keeping the pieces. */
static void take_from(lin_mem *m, size_t k, size_t c, size_t s) {
    size_t bs = m->bs[k], be = m->be[k];
    memmove(&m->bs[k], &m->bs[k + 1], (m->nb - k - 1) * sizeof(size_t));
    memmove(&m->be[k], &m->be[k + 1], (m->nb - k - 1) * sizeof(size_t));
    m->nb--;
    free_range(m, bs, c);
    free_range(m, c + s, be);
}

static size_t place(lin_mem *m, size_t s, size_t a, uint64_t *work) {
    for (size_t k = 0; k < m->nb; k++) {
        (*work)++;
        size_t c = ta__align_up(m->bs[k], a);
        if (c <= m->be[k] && m->be[k] - c >= s) {
            take_from(m, k, c, s);
            return c;
        }
    }
    /* Nothing fits: grow.  A free block touching the top is extended. */
    size_t base = m->top;
    if (m->nb && m->be[m->nb - 1] == m->top) {
        base = m->bs[m->nb - 1];
        m->nb--;
    }
    size_t c = ta__align_up(base, a);
    free_range(m, base, c);
    m->top = c + s;
    return c;
}

/* A live related buffer i may sit on in place (see the top), or UINT32_MAX.
 * Only buffers placed by the simulation (not fixed, not empty) qualify, and
 * only while they still own all their bytes. */
static uint32_t in_place_host(const lin_mem *m, const ta_request *reqs, const size_t *offsets, uint32_t i) {
    const ta__rel *r = &m->rel;
    if (!r->nr) return UINT32_MAX;
    size_t pi = ta_request_padded(&reqs[i]);
    for (uint32_t q = r->start[i]; q < r->start[i + 1]; q++) {
        uint32_t x = ta__rel_other(&r->o[r->adj[q]], i);
        const ta_request *rx = &reqs[x];
        size_t px = ta_request_padded(rx);
        if (ta__is_fixed(rx) || !px || pi > px) continue;
        /* placed already (own_lo set), live now, dying no later than i */
        bool placed = m->own_lo[x] != SIZE_MAX;
        if (!placed || rx->last < reqs[i].first || rx->last > reqs[i].last) continue;
        if (m->own_lo[x] != offsets[x] || offsets[x] % ta__align_of(&reqs[i])) continue;
        if (ta__rel_pair_permits(r, reqs, i, offsets[x], x, offsets[x])) return x;
    }
    return UINT32_MAX;
}

static ta_status lin_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                          size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d) {
    ta__bump b;
    lin_mem m;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    carve(&b, n, ta__n_rel(opt), &m);
    if (b.fail) return TA_E_NO_MEMORY;
    if (ta__n_rel(opt)) {
        ta__rel_build(&m.rel, opt->overlaps, ta__n_rel(opt), n);
        for (size_t i = 0; i < n; i++) m.own_lo[i] = SIZE_MAX; /* not placed yet */
    }
    /* Steps: 1. fixed buffers are reserved for the whole run (a simulation in
     * time order cannot see a fixed buffer's future); the holes between them
     * start out free.  2. order free buffers by first step (ties: input order)
     * and by last step.  3. at each first step t: free every placed buffer
     * with last < t, then place the buffers starting at t. */
    m.nb = 0;
    m.top = 0;
    size_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        if (ta__is_fixed(&reqs[i])) {
            offsets[i] = reqs[i].fixed;
            if (ta_request_padded(&reqs[i])) m.by_first[nf++] = (uint32_t)i; /* reuse as list */
        }
    }
    /* Holes between fixed regions: sort fixed by offset, sweep. */
    if (nf) {
        for (size_t x = 1; x < nf; x++) { /* insertion sort: fixed buffers are few */
            uint32_t v = m.by_first[x];
            size_t y = x;
            while (y > 0 && reqs[m.by_first[y - 1]].fixed > reqs[v].fixed) {
                m.by_first[y] = m.by_first[y - 1];
                y--;
            }
            m.by_first[y] = v;
        }
        size_t end = 0;
        for (size_t x = 0; x < nf; x++) {
            const ta_request *r = &reqs[m.by_first[x]];
            if (r->fixed > end) free_range(&m, end, r->fixed);
            size_t e = r->fixed + ta_request_padded(r);
            if (e > end) end = e;
        }
        m.top = end;
    }
    size_t nfree = 0;
    for (size_t i = 0; i < n; i++) {
        if (ta__is_fixed(&reqs[i])) continue;
        if (!ta_request_padded(&reqs[i])) {
            offsets[i] = 0;
            continue;
        }
        m.by_first[nfree] = m.by_last[nfree] = (uint32_t)i;
        nfree++;
    }
    ta__sort_by_step(m.by_first, nfree, reqs, false, m.tmp);
    ta__sort_by_step(m.by_last, nfree, reqs, true, m.tmp);
    uint64_t work = 0;
    size_t j = 0;
    for (size_t k = 0; k < nfree; k++) {
        uint32_t i = m.by_first[k];
        while (j < nfree && reqs[m.by_last[j]].last < reqs[i].first) {
            uint32_t g = m.by_last[j++];
            free_range(&m, m.rel.nr ? m.own_lo[g] : offsets[g], offsets[g] + ta_request_padded(&reqs[g]));
        }
        size_t pi = ta_request_padded(&reqs[i]);
        uint32_t host = in_place_host(&m, reqs, offsets, i);
        if (host != UINT32_MAX) {
            offsets[i] = offsets[host];
            m.own_lo[host] = offsets[host] + pi; /* the shared bytes are i's to free */
        } else {
            offsets[i] = place(&m, pi, ta__align_of(&reqs[i]), &work);
        }
        if (m.rel.nr) m.own_lo[i] = offsets[i];
    }
    res->work = work;
    return TA_OK;
}

const ta_strategy ta__strategy_linear = {"linear", "execution-order simulation with a first-fit free list",
                                        lin_scratch, lin_plan};
