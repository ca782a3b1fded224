/* The validator: proves a plan valid (alignment, fixed offsets, inside the
 * arena, no overlap in time and bytes). */
#include "core/core.h"

/*
 * Overlap sweep.  Steps:
 *  1. sort participants by first step and by last step;
 *  2. walk the start steps in order; before inserting the buffers starting at
 *     t, remove those whose last step is before t (lifetimes are inclusive);
 *  3. the live buffers are kept in a treap ordered by (offset, id).  Live
 *     buffers never overlap each other (else we already failed), so a new
 *     buffer overlaps some live one iff it overlaps its predecessor or its
 *     successor in offset order: only two comparisons per insert.
 * O(n log n) expected; priorities are a hash of the id, so it is deterministic.
 */
typedef struct {
    const ta_request *reqs;
    const size_t *off;
    uint32_t *left, *right;
} treap;

#define NIL UINT32_MAX

static uint32_t prio(uint32_t id) {
    uint32_t x = id * 0x9E3779B1u;
    x ^= x >> 15;
    x *= 0x85EBCA77u;
    x ^= x >> 13;
    return x;
}

static size_t off_of(const treap *t, uint32_t id) {
    return t->off ? t->off[id] : t->reqs[id].fixed;
}

static bool key_less(const treap *t, uint32_t a, uint32_t b) {
    size_t oa = off_of(t, a), ob = off_of(t, b);
    return oa < ob || (oa == ob && a < b);
}

/* Splits root into keys < k (l) and keys >= k (r). */
static void split(treap *t, uint32_t root, uint32_t k, uint32_t *l, uint32_t *r) {
    if (root == NIL) {
        *l = *r = NIL;
        return;
    }
    if (key_less(t, root, k)) {
        split(t, t->right[root], k, &t->right[root], r);
        *l = root;
    } else {
        split(t, t->left[root], k, l, &t->left[root]);
        *r = root;
    }
}

static uint32_t merge(treap *t, uint32_t a, uint32_t b) {
    if (a == NIL) return b;
    if (b == NIL) return a;
    if (prio(a) > prio(b)) {
        t->right[a] = merge(t, t->right[a], b);
        return a;
    }
    t->left[b] = merge(t, a, t->left[b]);
    return b;
}

static uint32_t max_of(const treap *t, uint32_t x) {
    if (x == NIL) return NIL;
    while (t->right[x] != NIL) x = t->right[x];
    return x;
}

static uint32_t min_of(const treap *t, uint32_t x) {
    if (x == NIL) return NIL;
    while (t->left[x] != NIL) x = t->left[x];
    return x;
}

/* Removes the smallest key of x (it has no left child, so its right subtree
 * takes its place; heap order is kept). Returns the new root. */
static uint32_t drop_min(treap *t, uint32_t x) {
    if (x == NIL) return NIL;
    uint32_t parent = NIL, y = x;
    while (t->left[y] != NIL) {
        parent = y;
        y = t->left[y];
    }
    if (parent == NIL) return t->right[y];
    t->left[parent] = t->right[y];
    return x;
}

size_t ta__sweep_scratch(size_t n) {
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    for (int i = 0; i < 7; i++) ta__bump_take(&b, n, sizeof(uint32_t));
    return ta__bump_need(&b);
}

size_t ta_plan_check_scratch_bytes(size_t n) { return ta_plan_check_overlaps_scratch_bytes(n, 0); }

static ta_status overlap_diag(const treap *t, uint32_t a, uint32_t b, ta_diag *d) {
    if (a > b) {
        uint32_t x = a;
        a = b;
        b = x;
    }
    const ta_request *ra = &t->reqs[a], *rb = &t->reqs[b];
    size_t oa = off_of(t, a), ob = off_of(t, b);
    ta_diag_set(d, TA_E_OVERLAP,
                "buffers %u and %u overlap: steps [%d,%d] bytes [%zu,%zu) and steps "
                "[%d,%d] bytes [%zu,%zu)",
                a, b, ra->first, ra->last, oa, oa + ta_request_padded(ra), rb->first, rb->last, ob,
                ob + ta_request_padded(rb));
    if (d) {
        d->item[0] = a;
        d->item[1] = b;
    }
    return TA_E_OVERLAP;
}

static bool bytes_meet(const treap *t, uint32_t a, uint32_t b) {
    size_t oa = off_of(t, a), ob = off_of(t, b);
    return oa < ob + ta_request_padded(&t->reqs[b]) && ob < oa + ta_request_padded(&t->reqs[a]);
}

/*
 * With relations, buffers named by one ("related") may legally overlap, so
 * they stay out of the treap, whose disjointness the two-neighbour test
 * needs.  They wait in a plain list of the live related buffers instead:
 * every new buffer is compared with each of them (and a new related buffer
 * with its two treap neighbours, as an unrelated one is), so every pair
 * live together is looked at exactly when the later of the two starts.
 */
ta_status ta__sweep_overlap(const ta_request *reqs, size_t n, const size_t *offsets,
                            ta__sweep_mode mode, const ta__rel *rel, void *scratch, size_t scratch_bytes,
                            ta_diag *d) {
    if (scratch_bytes < ta__sweep_scratch(n)) return TA_E_NO_MEMORY;
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    uint32_t *by_first = ta__bump_take(&b, n, sizeof(uint32_t));
    uint32_t *by_last = ta__bump_take(&b, n, sizeof(uint32_t));
    uint32_t *tmp = ta__bump_take(&b, n, sizeof(uint32_t));
    treap t = {reqs, offsets, ta__bump_take(&b, n, sizeof(uint32_t)),
               ta__bump_take(&b, n, sizeof(uint32_t))};
    uint32_t *live = ta__bump_take(&b, n, sizeof(uint32_t)); /* live related buffers */
    uint32_t *lpos = ta__bump_take(&b, n, sizeof(uint32_t)); /* index in live[] */
    if (b.fail) return TA_E_NO_MEMORY;
    bool has_rel = rel && rel->nr;
#define RELATED(id) (has_rel && rel->start[(id)] < rel->start[(id) + 1])
    size_t m = 0, nlive = 0;
    for (size_t i = 0; i < n; i++) {
        const ta_request *r = &reqs[i];
        if (ta_request_padded(r) == 0) continue; /* occupies no byte */
        if (mode == TA__SWEEP_FIXED && !ta__is_fixed(r)) continue;
        if (mode == TA__SWEEP_FREE && ta__is_fixed(r)) continue;
        by_first[m] = by_last[m] = (uint32_t)i;
        m++;
    }
    ta__sort_by_step(by_first, m, reqs, false, tmp);
    ta__sort_by_step(by_last, m, reqs, true, tmp);
    uint32_t root = NIL;
    size_t j = 0;
    for (size_t i = 0; i < m; i++) {
        uint32_t id = by_first[i];
        int32_t step = reqs[id].first;
        while (j < m && reqs[by_last[j]].last < step) {
            uint32_t q = by_last[j++];
            if (RELATED(q)) {
                uint32_t k = lpos[q];
                live[k] = live[--nlive];
                lpos[live[k]] = k;
                continue;
            }
            uint32_t l, r;
            split(&t, root, q, &l, &r);
            root = merge(&t, l, drop_min(&t, r)); /* r's minimum is the retiring buffer */
        }
        for (size_t k = 0; k < nlive; k++) {
            uint32_t q = live[k];
            if (!bytes_meet(&t, q, id)) continue;
            if (!RELATED(id) || !ta__rel_pair_permits(rel, reqs, id, off_of(&t, id), q, off_of(&t, q)))
                return overlap_diag(&t, q, id, d);
        }
        t.left[id] = t.right[id] = NIL;
        uint32_t l, r;
        split(&t, root, id, &l, &r);
        uint32_t pred = max_of(&t, l), succ = min_of(&t, r);
        size_t o = off_of(&t, id), e = o + ta_request_padded(&reqs[id]);
        if (pred != NIL && off_of(&t, pred) + ta_request_padded(&reqs[pred]) > o)
            return overlap_diag(&t, pred, id, d);
        if (succ != NIL && off_of(&t, succ) < e) return overlap_diag(&t, succ, id, d);
        if (RELATED(id)) {
            root = merge(&t, l, r);
            lpos[id] = (uint32_t)nlive;
            live[nlive++] = id;
        } else {
            root = merge(&t, merge(&t, l, id), r);
        }
    }
#undef RELATED
    return TA_OK;
}

size_t ta_plan_arena_bytes(const ta_request *reqs, size_t n, const size_t *offsets) {
    size_t arena = 0;
    for (size_t i = 0; i < n; i++) {
        size_t e = ta__add_sat(offsets[i], ta_request_padded(&reqs[i]));
        if (e > arena) arena = e;
    }
    return arena;
}

size_t ta_plan_check_overlaps_scratch_bytes(size_t n, size_t n_overlaps) {
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    ta__rel r;
    ta__rel_carve(&r, &b, n, n_overlaps);
    ta__bump_take(&b, ta__sweep_scratch(n), 1);
    return ta__bump_need(&b);
}

ta_status ta_plan_check(const ta_request *reqs, size_t n, const size_t *offsets, size_t arena_bytes,
                        uint32_t flags, void *scratch, size_t scratch_bytes, ta_diag *d) {
    return ta_plan_check_overlaps(reqs, n, NULL, 0, offsets, arena_bytes, flags, scratch, scratch_bytes, d);
}

ta_status ta_plan_check_overlaps(const ta_request *reqs, size_t n, const ta_overlap *overlaps, size_t nr,
                                 const size_t *offsets, size_t arena_bytes, uint32_t flags, void *scratch,
                                 size_t scratch_bytes, ta_diag *d) {
    if ((n && (!reqs || !offsets)) || (nr && !overlaps)) return TA_E_INVALID_ARG;
    if (n > TA_PLAN_MAX_BUFFERS) return TA_E_OVERFLOW;
    if (scratch_bytes < ta_plan_check_overlaps_scratch_bytes(n, nr)) return TA_E_NO_MEMORY;
    ta_status st = ta__rel_validate(reqs, n, overlaps, nr, d);
    if (st) return st;
    size_t n_fixed = 0;
    for (size_t i = 0; i < n; i++) {
        const ta_request *r = &reqs[i];
        size_t a = ta__align_of(r), pad = ta_request_padded(r);
        if (!ta__is_pow2(a) || pad == TA_NO_OFFSET || r->first > r->last)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "buffer %zu: invalid request", i);
        if (offsets[i] % a)
            return ta_diag_set(d, TA_E_MISALIGNED, "buffer %zu: offset %zu is not a multiple of %zu",
                               i, offsets[i], a);
        if (ta__is_fixed(r)) {
            n_fixed++;
            if (offsets[i] != r->fixed)
                return ta_diag_set(d, TA_E_FIXED_MOVED, "buffer %zu: fixed at %zu but placed at %zu",
                                   i, r->fixed, offsets[i]);
        }
        if (offsets[i] > arena_bytes || pad > arena_bytes - offsets[i])
            return ta_diag_set(d, TA_E_OUT_OF_ARENA,
                               "buffer %zu: bytes [%zu,%zu) end past the arena of %zu bytes", i,
                               offsets[i], ta__add_sat(offsets[i], pad), arena_bytes);
    }
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    ta__rel rel;
    ta__rel_carve(&rel, &b, n, nr);
    void *sw = ta__bump_take(&b, ta__sweep_scratch(n), 1);
    if (b.fail) return TA_E_NO_MEMORY;
    ta__rel_build(&rel, overlaps, nr, n);
    size_t swb = ta__sweep_scratch(n);
    if (!(flags & TA_PLAN_ALLOW_FIXED_CONFLICT) || n_fixed == 0)
        return ta__sweep_overlap(reqs, n, offsets, TA__SWEEP_ALL, &rel, sw, swb, d);
    /* Fixed buffers may collide with each other on purpose; every free buffer
     * must still be clear of everything.  Free vs free by the sweep, free vs
     * fixed pairwise (offline plans carry few fixed buffers). */
    st = ta__sweep_overlap(reqs, n, offsets, TA__SWEEP_FREE, &rel, sw, swb, d);
    if (st) return st;
    treap t = {reqs, offsets, NULL, NULL};
    for (size_t i = 0; i < n; i++) {
        if (!ta__is_fixed(&reqs[i])) continue;
        size_t fi = ta_request_padded(&reqs[i]);
        for (size_t j = 0; j < n; j++) {
            if (ta__is_fixed(&reqs[j]) || !ta__time_overlap(&reqs[i], &reqs[j])) continue;
            size_t fj = ta_request_padded(&reqs[j]);
            if (!fi || !fj) continue;
            if (offsets[i] < offsets[j] + fj && offsets[j] < offsets[i] + fi &&
                !ta__rel_pair_permits(&rel, reqs, (uint32_t)i, offsets[i], (uint32_t)j, offsets[j]))
                return overlap_diag(&t, (uint32_t)i, (uint32_t)j, d);
        }
    }
    return TA_OK;
}
