/* The placer: time-overlap queries over a static interval tree, and the
 * first-fit / best-fit gap scans shared by greedy, best and search. */
#include <string.h>

#include "core/core.h"

void ta__iota(uint32_t *ids, size_t n) {
    for (size_t i = 0; i < n; i++) ids[i] = (uint32_t)i;
}

int ta__cmp_first(uint32_t a, uint32_t b, const void *ctx) {
    const ta_request *r = ctx;
    return (r[a].first > r[b].first) - (r[a].first < r[b].first);
}

int ta__cmp_last(uint32_t a, uint32_t b, const void *ctx) {
    const ta_request *r = ctx;
    return (r[a].last > r[b].last) - (r[a].last < r[b].last);
}

void ta__placer_carve(ta__placer *p, ta__bump *b, size_t n) {
    p->pad = ta__bump_take(b, n, sizeof(size_t));
    p->tree = ta__bump_take(b, n, sizeof(uint32_t));
    p->pos = ta__bump_take(b, n, sizeof(uint32_t));
    p->maxlast = ta__bump_take(b, n, sizeof(int32_t));
    p->hits = ta__bump_take(b, n, sizeof(uint32_t));
    p->tmp = ta__bump_take(b, n, sizeof(uint32_t));
    p->stack = ta__bump_take(b, 2 * 66, sizeof(uint32_t));
    p->placed = ta__bump_take(b, n, 1);
}

void ta__placer_init(ta__placer *p, const ta_request *reqs, size_t n, size_t *offsets) {
    p->reqs = reqs;
    p->n = n;
    p->off = offsets;
    p->work = 0;
    for (size_t i = 0; i < n; i++) p->pad[i] = ta_request_padded(&reqs[i]);
    ta__iota(p->tree, n);
    ta__sort_ids(p->tree, n, ta__cmp_first, reqs, p->tmp);
    for (size_t i = 0; i < n; i++) p->pos[p->tree[i]] = (uint32_t)i;
    ta__placer_reset(p);
}

void ta__placer_reset(ta__placer *p) {
    for (size_t i = 0; i < p->n; i++) p->maxlast[i] = INT32_MIN;
    if (p->n) memset(p->placed, 0, p->n);
}

void ta__placer_place(ta__placer *p, uint32_t id, size_t offset) {
    p->off[id] = offset;
    p->placed[id] = 1;
    /* Walk from the root of the implicit BST down to id's node, raising the
     * subtree maxima on the way. */
    int32_t last = p->reqs[id].last;
    size_t lo = 0, hi = p->n, want = p->pos[id];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->maxlast[mid] < last) p->maxlast[mid] = last;
        if (want == mid) break;
        if (want < mid) hi = mid;
        else lo = mid + 1;
    }
}

static int cmp_offset(uint32_t a, uint32_t b, const void *ctx) {
    const size_t *off = ctx;
    return (off[a] > off[b]) - (off[a] < off[b]);
}

size_t ta__placer_overlapping(ta__placer *p, uint32_t id, bool sort) {
    /* Steps: depth-first over the implicit BST; prune a subtree when its
     * largest placed `last` ends before our `first`; skip the right side when
     * the node already starts after our `last` (everything right starts later). */
    const ta_request *r = p->reqs;
    int32_t a = r[id].first, bnd = r[id].last;
    size_t k = 0, sp = 0;
    uint32_t *st = p->stack;
    if (p->n) {
        st[sp++] = 0;
        st[sp++] = (uint32_t)p->n;
    }
    while (sp) {
        uint32_t hi = st[--sp], lo = st[--sp];
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            p->work++;
            if (p->maxlast[mid] < a) break;
            uint32_t j = p->tree[mid];
            bool right = r[j].first <= bnd;
            if (p->placed[j] && j != id && right && r[j].last >= a) p->hits[k++] = j;
            /* Continue into the left half; push the right half if it can match.
             * The left half is at most as deep as the right, so the stack
             * holds one entry per level: <= 2*64 words. */
            if (right && mid + 1 < hi) {
                st[sp++] = mid + 1;
                st[sp++] = hi;
            }
            hi = mid;
        }
    }
    if (sort) ta__sort_ids(p->hits, k, cmp_offset, p->off, p->tmp);
    return k;
}

size_t ta__placer_find(ta__placer *p, uint32_t id, ta__fit fit) {
    size_t size = p->pad[id], a = ta__align_of(&p->reqs[id]);
    if (size == 0) return 0; /* occupies nothing; TFLM puts it at 0 too */
    size_t k = ta__placer_overlapping(p, id, true);
    /* Scan the overlapping buffers in offset order.  `end` is the top of the
     * union of everything seen so far, so [align_up(end), next.offset) is a
     * true hole.  First fit takes the first hole that is big enough, which is
     * exactly TFLM's gap walk; best fit takes the smallest such hole (ties:
     * the lowest).  With no fitting hole the buffer goes on top. */
    size_t end = 0, best = TA_NO_OFFSET, best_gap = SIZE_MAX;
    for (size_t i = 0; i < k; i++) {
        uint32_t h = p->hits[i];
        size_t c = ta__align_up(end, a);
        if (p->off[h] >= c && p->off[h] - c >= size) {
            if (fit == TA_FIT_FIRST) return c;
            size_t gap = p->off[h] - c;
            if (gap < best_gap) {
                best_gap = gap;
                best = c;
            }
        }
        size_t e = p->off[h] + p->pad[h];
        if (e > end) end = e;
    }
    if (best != TA_NO_OFFSET) return best;
    return ta__align_up(end, a);
}

size_t ta__placer_run(ta__placer *p, const uint32_t *order, size_t n_order, ta__fit fit) {
    size_t arena = 0;
    for (size_t i = 0; i < n_order; i++) {
        uint32_t id = order[i];
        const ta_request *r = &p->reqs[id];
        size_t o = ta__is_fixed(r) ? r->fixed : ta__placer_find(p, id, fit);
        ta__placer_place(p, id, o);
        size_t e = ta__add_sat(o, p->pad[id]);
        if (e > arena) arena = e;
    }
    return arena;
}

typedef struct {
    const ta_request *reqs;
    const size_t *pad;
} tflm_ctx;

static int cmp_tflm(uint32_t a, uint32_t b, const void *vctx) {
    const tflm_ctx *c = vctx;
    bool fa = ta__is_fixed(&c->reqs[a]), fb = ta__is_fixed(&c->reqs[b]);
    if (fa != fb) return fa ? -1 : 1;
    if (fa) return (a > b) - (a < b);
    if (c->pad[a] != c->pad[b]) return c->pad[a] > c->pad[b] ? -1 : 1;
    return 0; /* stable: keeps the reverse input order set up below */
}

void ta__order_tflm(const ta_request *reqs, const size_t *pad, size_t n, uint32_t *order,
                    uint32_t *tmp) {
    /* TFLM fills its sort array from the tail for online buffers, so they
     * enter its (stable) sort in reverse input order.  Fixed ones go first in
     * input order and are not sorted. */
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)(n - 1 - i);
    tflm_ctx c = {reqs, pad};
    /* fixed ones must end in input order: reverse input among them handled by cmp */
    ta__sort_ids(order, n, cmp_tflm, &c, tmp);
}
