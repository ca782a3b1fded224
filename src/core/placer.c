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

#define NIL UINT32_MAX

void ta__sort_by_step(uint32_t *ids, size_t n, const ta_request *reqs, bool by_last, uint32_t *tmp) {
    /* Small lists: the merge sort.  Large ones: a stable LSD radix sort on
     * the step (sign bit flipped), four byte passes ping-ponging between ids
     * and tmp -- the same order as the stable merge sort, without its
     * n log n callback comparisons (a million buffers: 4 sorts per plan). */
    if (n < 512) {
        ta__sort_ids(ids, n, by_last ? ta__cmp_last : ta__cmp_first, reqs, tmp);
        return;
    }
    uint32_t *src = ids, *dst = tmp;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t cnt[257];
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < n; i++) {
            uint32_t k = (uint32_t)(by_last ? reqs[src[i]].last : reqs[src[i]].first) ^ 0x80000000u;
            cnt[((k >> shift) & 255u) + 1]++;
        }
        for (size_t b = 0; b < 256; b++) cnt[b + 1] += cnt[b];
        for (size_t i = 0; i < n; i++) {
            uint32_t k = (uint32_t)(by_last ? reqs[src[i]].last : reqs[src[i]].first) ^ 0x80000000u;
            dst[cnt[(k >> shift) & 255u]++] = src[i];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    /* four passes: the result is back in ids */
}

void ta__deadline_start(ta__deadline *dl, const ta_plan_options *opt, double limit_s) {
    memset(dl, 0, sizeof *dl);
    if (!opt || !opt->clock) return;
    dl->clock = opt->clock;
    dl->ctx = opt->clock_ctx;
    dl->start_us = dl->clock(dl->ctx);
    if (!(limit_s > 0)) return;
    /* beyond ~31 years the limit is no limit (and the product cannot overflow) */
    if (limit_s > 1e9) return;
    dl->at_us = dl->start_us + (uint64_t)(limit_s * 1e6);
    dl->on = true;
}

bool ta__deadline_hit(ta__deadline *dl) {
    if (!dl || !dl->on) return false;
    if (!dl->hit && dl->clock(dl->ctx) >= dl->at_us) dl->hit = true;
    return dl->hit;
}

void ta__placer_carve(ta__placer *p, ta__bump *b, size_t n) {
    p->node = ta__bump_take(b, n, sizeof(ta__tnode));
    p->tfirst = ta__bump_take(b, n, sizeof(int32_t));
    p->tlast = ta__bump_take(b, n, sizeof(int32_t));
    p->tplaced = ta__bump_take(b, n, 1);
    p->by_last = ta__bump_take(b, n, sizeof(uint32_t));
    p->lpos = ta__bump_take(b, n, sizeof(uint32_t));
    p->fen_f = ta__bump_take(b, n + 1, sizeof(uint32_t));
    p->fen_l = ta__bump_take(b, n + 1, sizeof(uint32_t));
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
    ta__sort_by_step(p->tree, n, reqs, false, p->tmp);
    for (size_t i = 0; i < n; i++) {
        p->pos[p->tree[i]] = (uint32_t)i;
        p->tfirst[i] = reqs[p->tree[i]].first;
        p->tlast[i] = reqs[p->tree[i]].last;
    }
    /* Treap priorities: a fixed hash of the id, so plans never depend on
     * anything but the input. */
    for (size_t i = 0; i < n; i++) {
        uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ull;
        p->node[i].prio = (uint32_t)(h >> 32);
    }
    p->walk = 0;
    p->lpos_ready = false;
    p->dl = NULL;
    p->rel = NULL;
    p->aborted = false;
    ta__placer_reset(p);
}

void ta__placer_reset(ta__placer *p) {
    for (size_t i = 0; i < p->n; i++) p->maxlast[i] = INT32_MIN;
    if (p->n) memset(p->placed, 0, p->n);
    if (p->n) memset(p->tplaced, 0, p->n);
    p->root = NIL;
    p->treap_on = false;
    p->fen_on = false;
    p->n_placed = 0;
}

/* ---- counts: Fenwick trees over ranks (built on the first query with
 * more than DENSE_HITS hits, so sparse problems never pay for them) -------- */

/* Hits collected before the Fenwick count decides whether a query is dense.
 * 256, not 64: below it sorting the hits is cheaper than a treap, which,
 * once switched on, costs every later placement an insert (on 1,000 random
 * model-like buffers 64 turned it on early and spent a third of greedy's
 * instructions on treap upkeep; the offsets are the same either way). */
#define DENSE_HITS 256

static void fen_add(uint32_t *f, size_t n, size_t i) {
    for (i++; i <= n; i += i & (~i + 1)) f[i]++;
}

/* placed among ranks [0, i) */
static size_t fen_sum(const uint32_t *f, size_t i) {
    size_t s = 0;
    for (; i > 0; i -= i & (~i + 1)) s += f[i];
    return s;
}

static void fen_place(ta__placer *p, uint32_t id) {
    fen_add(p->fen_f, p->n, p->pos[id]);
    fen_add(p->fen_l, p->n, p->lpos[id]);
}

static void fen_build(ta__placer *p) {
    if (!p->lpos_ready) {
        ta__iota(p->by_last, p->n);
        ta__sort_by_step(p->by_last, p->n, p->reqs, true, p->tmp);
        for (size_t i = 0; i < p->n; i++) p->lpos[p->by_last[i]] = (uint32_t)i;
        p->lpos_ready = true;
    }
    memset(p->fen_f, 0, (p->n + 1) * sizeof(uint32_t));
    memset(p->fen_l, 0, (p->n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < p->n; i++)
        if (p->placed[i]) fen_place(p, (uint32_t)i);
    p->fen_on = true;
}

/* Placed buffers sharing a step with id (not placed itself): all placed,
 * less those that end before id starts and those that start after it ends.
 * O(log n). */
static size_t count_overlapping(const ta__placer *p, uint32_t id) {
    const ta_request *r = p->reqs;
    int32_t a = r[id].first, b = r[id].last;
    size_t lo = 0, hi = p->n; /* by_last: first index with last >= a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[p->by_last[mid]].last < a) lo = mid + 1;
        else hi = mid;
    }
    size_t ends_before = fen_sum(p->fen_l, lo);
    lo = 0, hi = p->n; /* tree (by first): first index with first > b */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[p->tree[mid]].first <= b) lo = mid + 1;
        else hi = mid;
    }
    size_t starts_after = p->n_placed - fen_sum(p->fen_f, lo);
    return p->n_placed - ends_before - starts_after;
}

/* ---- the offset treap ------------------------------------------------------ */

static bool key_less(const ta__placer *p, uint32_t a, uint32_t b) {
    return p->off[a] < p->off[b] || (p->off[a] == p->off[b] && a < b);
}

/* Recomputes x's subtree summary from its children.  max_hole is the
 * largest raw gap between the end of everything before a member (within the
 * subtree) and that member's offset: never less than the hole the scan sees
 * there, whose prefix can only end later and whose start is aligned up. */
static void pull(ta__placer *p, uint32_t x) {
    ta__tnode *t = &p->node[x];
    const ta_request *r = &p->reqs[x];
    size_t end = p->off[x] + p->pad[x];
    t->min_first = t->max_first = r->first;
    t->min_last = t->max_last = r->last;
    t->min_off = p->off[x];
    t->max_hole = 0;
    size_t e = end;
    if (t->left != NIL) {
        const ta__tnode *l = &p->node[t->left];
        t->min_first = TA_MIN(t->min_first, l->min_first);
        t->max_first = TA_MAX(t->max_first, l->max_first);
        t->min_last = TA_MIN(t->min_last, l->min_last);
        t->max_last = TA_MAX(t->max_last, l->max_last);
        t->min_off = l->min_off;
        t->max_hole = l->max_hole;
        if (p->off[x] > l->max_end) t->max_hole = TA_MAX(t->max_hole, p->off[x] - l->max_end);
        e = TA_MAX(e, l->max_end);
    }
    if (t->right != NIL) {
        const ta__tnode *rr = &p->node[t->right];
        t->min_first = TA_MIN(t->min_first, rr->min_first);
        t->max_first = TA_MAX(t->max_first, rr->max_first);
        t->min_last = TA_MIN(t->min_last, rr->min_last);
        t->max_last = TA_MAX(t->max_last, rr->max_last);
        t->max_hole = TA_MAX(t->max_hole, rr->max_hole);
        if (rr->min_off > e) t->max_hole = TA_MAX(t->max_hole, rr->min_off - e);
        e = TA_MAX(e, rr->max_end);
    }
    t->max_end = e;
}

static uint32_t rot_right(ta__placer *p, uint32_t x) {
    uint32_t l = p->node[x].left;
    p->node[x].left = p->node[l].right;
    p->node[l].right = x;
    pull(p, x);
    pull(p, l);
    return l;
}

static uint32_t rot_left(ta__placer *p, uint32_t x) {
    uint32_t r = p->node[x].right;
    p->node[x].right = p->node[r].left;
    p->node[r].left = x;
    pull(p, x);
    pull(p, r);
    return r;
}

/* Inserts id under t; returns the subtree's new root.  Depth is O(log n)
 * in expectation (hashed priorities), so the recursion stays shallow. */
static uint32_t treap_insert(ta__placer *p, uint32_t t, uint32_t id) {
    if (t == NIL) {
        p->node[id].left = p->node[id].right = NIL;
        pull(p, id);
        return id;
    }
    if (key_less(p, id, t)) {
        p->node[t].left = treap_insert(p, p->node[t].left, id);
        if (p->node[p->node[t].left].prio > p->node[t].prio) return rot_right(p, t);
    } else {
        p->node[t].right = treap_insert(p, p->node[t].right, id);
        if (p->node[p->node[t].right].prio > p->node[t].prio) return rot_left(p, t);
    }
    pull(p, t);
    return t;
}

void ta__placer_place(ta__placer *p, uint32_t id, size_t offset) {
    p->off[id] = offset;
    p->placed[id] = 1;
    p->tplaced[p->pos[id]] = 1;
    p->n_placed++;
    if (p->treap_on) p->root = treap_insert(p, p->root, id);
    if (p->fen_on) fen_place(p, id);
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

/* The placed buffers overlapping id in time, into p->hits; stops and
 * returns SIZE_MAX once there are more than `limit`. */
static size_t overlapping_upto(ta__placer *p, uint32_t id, size_t limit) {
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
            bool right = p->tfirst[mid] <= bnd;
            if (p->tplaced[mid] && j != id && right && p->tlast[mid] >= a) {
                if (k == limit) return SIZE_MAX;
                p->hits[k++] = j;
            }
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
    return k;
}

size_t ta__placer_overlapping(ta__placer *p, uint32_t id, bool sort) {
    size_t k = overlapping_upto(p, id, SIZE_MAX);
    if (sort) ta__sort_ids(p->hits, k, cmp_offset, p->off, p->tmp);
    return k;
}

/* The gap scan over the offset treap (see core.h): the same holes, in the
 * same order, as the scan over sorted hits below. */
typedef struct {
    ta__placer *p;
    int32_t a, b;     /* the new buffer's steps */
    size_t size, al;  /* its padded size and alignment */
    ta__fit fit;
    size_t end;       /* top of the union of the overlapping buffers seen */
    size_t best, best_gap;
    bool found;       /* first fit: done */
} walk_t;

/* A hole [align_up(end), off) ahead of a member at `off`. */
static void walk_hole(walk_t *w, size_t off) {
    size_t c = ta__align_up(w->end, w->al);
    if (off >= c && off - c >= w->size) {
        if (w->fit == TA_FIT_FIRST) {
            w->best = c;
            w->found = true;
        } else if (off - c < w->best_gap) {
            w->best_gap = off - c;
            w->best = c;
        }
    }
}

static void walk(walk_t *w, uint32_t x) {
    ta__placer *p = w->p;
    while (x != NIL && !w->found) {
        const ta__tnode *t = &p->node[x];
        p->work++;
        if (t->max_last < w->a || t->min_first > w->b) return; /* no member overlaps */
        if (t->max_first <= w->b && t->min_last >= w->a && t->max_hole < w->size) {
            /* every member overlaps and no hole inside fits: only the hole in
             * front of the subtree can take the buffer */
            walk_hole(w, t->min_off);
            if (t->max_end > w->end) w->end = t->max_end;
            return;
        }
        walk(w, t->left);
        if (w->found) return;
        const ta_request *r = &p->reqs[x];
        if (r->first <= w->b && r->last >= w->a) {
            walk_hole(w, p->off[x]);
            size_t e = p->off[x] + p->pad[x];
            if (e > w->end) w->end = e;
        }
        x = t->right; /* the right subtree: a loop, not a call */
    }
}

/*
 * The gap scan when id is named by overlap relations.  A placed buffer A at
 * a forbids the offsets b of the new buffer B in the open interval
 * (a - Pb, a + Pa); a relation on the pair shrinks that interval to what it
 * does not permit (several relations: the intersection, as any one of them
 * permits).  Writing each forbidden interval (L, H) as the obstacle
 * [L + Pb, H) -- the plain byte range when no relation applies, possibly
 * empty or inverted when one does -- the usual scan in obstacle order finds
 * the first (or best) free offset, because "b fits before obstacle [s, e)"
 * is b + Pb <= s, i.e. b <= L, and "b clears it" is b >= H.  Obstacles that
 * forbid nothing (L + 1 >= H) are dropped.  Only a few buffers per model
 * carry relations, so this path always collects and sorts the hits.
 */
static int cmp_okey(uint32_t a, uint32_t b, const void *ctx) {
    const size_t *k = ctx;
    return (k[a] > k[b]) - (k[a] < k[b]);
}

static size_t find_related(ta__placer *p, uint32_t id, ta__fit fit) {
    ta__rel *rl = p->rel;
    size_t size = p->pad[id], a = ta__align_of(&p->reqs[id]);
    size_t k = overlapping_upto(p, id, SIZE_MAX);
    for (size_t i = 0; i < k; i++) {
        uint32_t h = p->hits[i];
        rl->okey[h] = p->off[h];
        rl->oend[h] = p->off[h] + p->pad[h];
    }
    const int64_t sb = (int64_t)size;
    for (uint32_t q = rl->start[id]; q < rl->start[id + 1]; q++) {
        const ta_overlap *o = &rl->o[rl->adj[q]];
        uint32_t j = ta__rel_other(o, id);
        if (!p->placed[j] || !ta__time_overlap(&p->reqs[id], &p->reqs[j]) || !p->pad[j]) continue;
        int64_t aj = (int64_t)p->off[j], sa = (int64_t)p->pad[j];
        /* current forbidden interval (L, H) of the pair, from its obstacle */
        int64_t L = (int64_t)rl->okey[j] - sb, H = (int64_t)rl->oend[j];
        if (o->kind == TA_OVERLAP_ABOVE) {
            if (o->y == id) H = TA_MIN(H, aj + o->d);      /* b >= a + d is fine */
            else L = TA_MAX(L, aj - o->d);                  /* a >= b + d: b <= a - d */
        } else {
            if (o->y == id) L = TA_MAX(L, aj + sa - o->d - sb); /* b + Pb <= a + Pa - d */
            else H = TA_MIN(H, aj + sa + o->d - sb);            /* a + Pa <= b + Pb - d */
        }
        /* (L only rises from a - Pb and H only falls from a + Pa, so the
         * obstacle stays inside A's bytes: both fit a size_t) */
        rl->okey[j] = (size_t)(L + sb);
        rl->oend[j] = (size_t)TA_MAX(H, (int64_t)0); /* H <= 0 forbids no offset >= 0 */
    }
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t h = p->hits[i];
        int64_t L = (int64_t)rl->okey[h] - sb, H = (int64_t)rl->oend[h];
        bool related = false; /* (only related pairs can forbid nothing) */
        for (uint32_t q = rl->start[id]; q < rl->start[id + 1] && !related; q++)
            related = ta__rel_other(&rl->o[rl->adj[q]], id) == h;
        if (related && (L + 1 >= H || H <= 0)) continue; /* forbids nothing */
        p->hits[m++] = h;
    }
    ta__sort_ids(p->hits, m, cmp_okey, rl->okey, p->tmp);
    size_t end = 0, best = TA_NO_OFFSET, best_gap = SIZE_MAX;
    for (size_t i = 0; i < m; i++) {
        uint32_t h = p->hits[i];
        size_t c = ta__align_up(end, a), s = rl->okey[h];
        if (s >= c && s - c >= size) {
            if (fit == TA_FIT_FIRST) return c;
            if (s - c < best_gap) {
                best_gap = s - c;
                best = c;
            }
        }
        if (rl->oend[h] > end) end = rl->oend[h];
    }
    if (best != TA_NO_OFFSET) return best;
    return ta__align_up(end, a);
}

size_t ta__placer_find(ta__placer *p, uint32_t id, ta__fit fit) {
    size_t size = p->pad[id], a = ta__align_of(&p->reqs[id]);
    if (size == 0) return 0; /* occupies nothing; TFLM puts it at 0 too */
    if (p->rel && p->rel->nr && p->rel->start[id] < p->rel->start[id + 1]) return find_related(p, id, fit);
    /* Dense when more than DENSE_HITS placed buffers, and at least an
     * eighth of all placed, overlap: the collection stops at DENSE_HITS,
     * the Fenwick count decides the rest in O(log n). */
    size_t k = SIZE_MAX;
    bool dense = p->walk == 2;
    if (p->walk != 2) k = overlapping_upto(p, id, p->walk == 1 ? SIZE_MAX : DENSE_HITS);
    if (k == SIZE_MAX && p->walk == 0) {
        if (!p->fen_on) fen_build(p);
        dense = 8 * count_overlapping(p, id) >= p->n_placed;
        if (!dense) k = overlapping_upto(p, id, SIZE_MAX);
    }
    {
        if (dense) {
            if (!p->treap_on) {
                /* built on the first dense query only: sparse problems (long
                 * chains) never pay for the inserts */
                p->treap_on = true;
                for (size_t i = 0; i < p->n; i++)
                    if (p->placed[i]) p->root = treap_insert(p, p->root, (uint32_t)i);
            }
            walk_t w = {p, p->reqs[id].first, p->reqs[id].last, size, a, fit, 0, TA_NO_OFFSET, SIZE_MAX, false};
            walk(&w, p->root);
            if (w.best != TA_NO_OFFSET) return w.best;
            return ta__align_up(w.end, a);
        }
    }
    ta__sort_ids(p->hits, k, cmp_offset, p->off, p->tmp);
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
    p->aborted = false;
    for (size_t i = 0; i < n_order; i++) {
        /* the clock is read every 64 placements: cheap, and a placement is
         * at most O(n) */
        if (p->dl && (i & 63) == 63 && ta__deadline_hit(p->dl)) {
            p->aborted = true;
            return arena;
        }
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
    if (n >= 512) {
        /* Long lists: the same order by a stable LSD radix sort of the free
         * buffers on their padded size, descending (the merge sort's n log n
         * callback comparisons were a fifth of greedy on a million buffers). */
        size_t nf = 0, top = 0;
        for (size_t i = 0; i < n; i++)
            if (ta__is_fixed(&reqs[i])) order[nf++] = (uint32_t)i;
        size_t k = nf;
        for (size_t i = n; i-- > 0;)
            if (!ta__is_fixed(&reqs[i])) {
                order[k++] = (uint32_t)i;
                if (pad[i] > top) top = pad[i];
            }
        uint32_t *src = order + nf, *dst = tmp;
        const size_t m = n - nf;
        for (unsigned shift = 0; shift < 8 * sizeof(size_t) && (top >> shift); shift += 8) {
            size_t cnt[257];
            memset(cnt, 0, sizeof cnt);
            for (size_t i = 0; i < m; i++) cnt[(((top - pad[src[i]]) >> shift) & 255u) + 1]++;
            for (size_t b = 0; b < 256; b++) cnt[b + 1] += cnt[b];
            for (size_t i = 0; i < m; i++) dst[cnt[((top - pad[src[i]]) >> shift) & 255u]++] = src[i];
            uint32_t *t = src;
            src = dst;
            dst = t;
        }
        if (src != order + nf) memcpy(order + nf, src, m * sizeof *order);
        return;
    }
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)(n - 1 - i);
    tflm_ctx c = {reqs, pad};
    /* fixed ones must end in input order: reverse input among them handled by cmp */
    ta__sort_ids(order, n, cmp_tflm, &c, tmp);
}
