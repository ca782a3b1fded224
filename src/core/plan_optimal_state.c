/* optimal: the decision search's state (plan_optimal.c describes the
 * method and runs the search): resetting it, placing a buffer and undoing
 * it, the section bound, and splitting a partition at its time cuts.
 * Placing keeps every section's lowest offset exact without rescanning
 * every section it touches (settle_minmo); undo is a trail. */
#include "core/plan_optimal.h"

/* Lowest offset >= a (aligned for item i) clear of the fixed buffers that
 * overlap i in time.  The list is sorted by offset, so one pass suffices: a
 * fixed buffer skipped as "above" means all later ones are above too. */
static size_t fixfit(const opt_mem *M, uint32_t i, size_t a) {
    size_t sz = M->size[i];
    for (uint32_t k = M->ifx_start[i]; k < M->ifx_start[i + 1]; k++) {
        uint32_t j = M->ifx[k];
        if (M->fx_off[j] >= a + sz) break;
        if (M->fx_end[j] > a) a = ta__align_up(M->fx_end[j], M->align[i]);
    }
    return a;
}

static void mark_range(opt_mem *M, uint32_t lo, uint32_t hi) {
    for (uint32_t s = lo; s < hi; s++)
        if (M->mark[s] != M->epoch) {
            M->mark[s] = M->epoch;
            M->aff[M->naff++] = s;
        }
}

static void begin_marks(opt_mem *M) {
    M->naff = 0;
    if (++M->epoch == 0) { /* wrapped: clear */
        for (uint32_t s = 0; s < M->ns; s++) M->mark[s] = 0;
        M->epoch = 1;
    }
}

/* Section s's lowest mo among its unplaced members, and how many hold it. */
static void rescan(opt_mem *M, uint32_t s) {
    size_t v = NONE;
    uint32_t c = 0;
    /* only the unplaced members: they come first in sm (place) */
    for (uint32_t x = M->sm_start[s], e = x + M->sm_n[s]; x < e; x++) {
        size_t w = M->mo[M->sm[x]];
        c = w < v ? 1 : c + (w == v);
        v = TA_MIN(v, w);
    }
    M->minmo[s] = v;
    M->mcnt[s] = c;
}

static void recompute_minmo(opt_mem *M) {
    for (uint32_t k = 0; k < M->naff; k++) rescan(M, M->aff[k]);
}

/* Bytes of [level, cap) covered by the fixed buffers of section s (their
 * union: with TA_PLAN_ALLOW_FIXED_CONFLICT they may overlap each other). */
size_t ta__opt_fixed_cover(const opt_mem *M, uint32_t s, size_t level, size_t cap) {
    size_t cov = 0, reach = level;
    for (uint32_t k = M->sfx_start[s]; k < M->sfx_start[s + 1]; k++) {
        uint32_t j = M->sfx[k];
        size_t a = TA_MAX(M->fx_off[j], reach), b = TA_MIN(M->fx_end[j], cap);
        if (b > a) {
            cov += b - a;
            reach = b;
        }
    }
    return cov;
}

/* Section bound over [lo, hi) with every remaining buffer at or above `o`.
 * Returns the smallest capacity the bound could accept (<= C: passes). */
size_t ta__opt_section_need(const opt_mem *M, uint32_t lo, uint32_t hi, size_t o, size_t C) {
    size_t need = 0;
    for (uint32_t s = lo; s < hi; s++) {
        if (!M->total[s]) continue;
        size_t level = TA_MAX(o, M->minmo[s]);
        size_t req = level + M->total[s];
        if (M->sfx_start[s] != M->sfx_start[s + 1]) req += ta__opt_fixed_cover(M, s, level, C);
        if (req > need) need = req;
    }
    return need;
}

/* Resets the state to "nothing placed" and builds the initial agenda: the
 * partitions between time cuts that no buffer crosses. */
void ta__opt_reset(opt_mem *M) {
    uint32_t m = M->m, ns = M->ns;
    for (uint32_t s = 0; s < ns; s++) {
        M->total[s] = 0;
        M->cut[s] = 0;
        M->sm_n[s] = M->sm_start[s + 1] - M->sm_start[s]; /* sm's order is any permutation */
    }
    for (uint32_t i = 0; i < m; i++) {
        M->off[i] = NONE;
        M->mo[i] = fixfit(M, i, 0);
        M->nbr[i] = M->ov_start[i + 1] - M->ov_start[i];
        for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) M->total[s] += M->size[i];
        for (uint32_t s = M->lo[i]; s + 1 < M->hi[i]; s++) M->cut[s]++;
    }
    begin_marks(M);
    mark_range(M, 0, ns);
    recompute_minmo(M);
    M->tr_top = 0;
    M->pt_top = 0;
    M->mt_top = 0;
    /* agenda: pieces in time order, the first on top */
    M->pool_top = 0;
    M->head = NIL;
    uint32_t first = NIL, prev = NIL, a = 0;
    for (uint32_t s = 0; s < ns; s++) {
        if (s + 1 < ns && M->cut[s]) continue;
        uint32_t cnt = M->lo_start[s + 1] - M->lo_start[a];
        if (cnt) {
            part *p = &M->pool[M->pool_top];
            p->lo = a;
            p->hi = s + 1;
            p->count = cnt;
            p->next = NIL;
            p->start = NIL;
            p->floor_off = 0;
            p->floor_pre = 0;
            if (prev != NIL) M->pool[prev].next = M->pool_top;
            else first = M->pool_top;
            prev = M->pool_top++;
        }
        a = s + 1;
    }
    M->head = first;
}

/* Section s changes with this placement: listed once, with its minimum and
 * count as they were (settle_minmo settles it and trails those). */
static void touch(opt_mem *M, uint32_t s) {
    if (M->mark[s] == M->epoch) return;
    M->mark[s] = M->epoch;
    M->a_min[M->naff] = M->minmo[s];
    M->a_cnt[M->naff] = M->mcnt[s];
    M->aff[M->naff++] = s;
}

/* Holders of `was` in sections [s0, s1) leave it (rising or placed);
 * sections whose minimum is below `was` cannot change. */
static void leave_min(opt_mem *M, uint32_t s0, uint32_t s1, size_t was) {
    for (uint32_t s = s0; s < s1; s++)
        if (M->minmo[s] == was) {
            touch(M, s);
            if (M->mcnt[s]) M->mcnt[s]--;
        }
}

/* After a placement of u (at o, top aligned A) has counted out every holder
 * that left: a section where some holder is left keeps its minimum.  In
 * u's own sections none is (every holder was at or below o: u, or a
 * neighbour of u lifted above it).  Where some buffer was lifted into such
 * a section, with no fixed buffer and one alignment it landed at exactly
 * A, and everything not lifted was at or above A already: A is the minimum,
 * held at least by the lifted ones.  Otherwise a rescan.  Then the old
 * values go on the minimum trail, or, when it is full, the frame's undo
 * rescans (mtrail = UINT32_MAX). */
static void settle_minmo(opt_mem *M, frame *F, uint32_t u, size_t A) {
    for (uint32_t k = 0; k < M->naff; k++) {
        uint32_t s = M->aff[k];
        if (M->mcnt[s]) continue;
        if (M->uniform && s >= M->lo[u] && s < M->hi[u] && M->lift[s]) {
            M->minmo[s] = A;
            M->mcnt[s] = M->lift[s]; /* a lower bound: others may sit at A */
        } else {
            rescan(M, s);
        }
    }
    if (M->mt_top + M->naff > M->mt_cap) {
        F->mtrail = UINT32_MAX;
        return;
    }
    F->mtrail = M->mt_top;
    for (uint32_t k = 0; k < M->naff; k++) {
        M->mt_s[M->mt_top] = M->aff[k];
        M->mt_min[M->mt_top] = M->a_min[k];
        M->mt_cnt[M->mt_top++] = M->a_cnt[k];
    }
}

/* Places item u (at mo[u]) for frame F in partition P.  Returns the section
 * bound's need (<= C: the placement survives). Records zero cuts in zc. */
size_t ta__opt_place(opt_mem *M, frame *F, uint32_t u, size_t C, uint32_t *nzc) {
    part *P = &M->pool[F->head];
    size_t o = M->mo[u], top = o + M->size[u];
    F->item = u;
    F->trail = M->tr_top;
    F->ptrail = M->pt_top;
    M->off[u] = o;
    P->count--;
    /* out of each section's unplaced prefix: swap with its last unplaced
     * member.  Undo is LIFO, so unplace only grows the prefix back: the
     * members placed after u are back when u returns, u at its end. */
    for (uint32_t s = M->lo[u], *pu = &M->sm_pos[M->sm_at[u]]; s < M->hi[u]; s++, pu++) {
        uint32_t x = *pu, e = M->sm_start[s] + --M->sm_n[s], w = M->sm[e];
        M->sm[x] = w;
        M->sm[e] = u;
        M->sm_pos[M->sm_at[w] + s - M->lo[w]] = x;
        *pu = e;
    }
    begin_marks(M);
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) {
        touch(M, s);
        M->mcnt[s] = 0; /* every holder leaves (settle_minmo) */
        M->lift[s] = 0;
    }
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++) {
        uint32_t v = M->ov[k];
        if (M->off[v] != NONE) continue;
        M->nbr[v]--;
        size_t a = ta__align_up(top, M->align[v]);
        if (a <= M->mo[v]) continue;
        M->tr_item[M->tr_top] = v;
        M->tr_old[M->tr_top++] = M->mo[v];
        /* outside u's sections v may have held a minimum; inside, count it
         * as lifted there */
        uint32_t s0 = TA_MAX(M->lo[u], M->lo[v]), s1 = TA_MIN(M->hi[u], M->hi[v]);
        leave_min(M, M->lo[v], s0, M->mo[v]);
        leave_min(M, s1, M->hi[v], M->mo[v]);
        for (uint32_t s = s0; s < s1; s++) M->lift[s]++;
        M->mo[v] = fixfit(M, v, a);
    }
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) M->total[s] -= M->size[u];
    uint32_t z = 0;
    for (uint32_t s = M->lo[u]; s + 1 < M->hi[u]; s++)
        if (--M->cut[s] == 0) M->zc[z++] = s;
    *nzc = z;
    settle_minmo(M, F, u, ta__align_up(top, M->align[u]));
    return ta__opt_section_need(M, P->lo, P->hi, o, C);
}

/* Undoes frame F's placement: the minima and their counts come back from
 * the minimum trail (settle_minmo); only when it was full are the sections
 * of u and of every buffer it lifted rescanned. */
void ta__opt_unplace(opt_mem *M, frame *F) {
    uint32_t u = F->item;
    M->head = F->head;
    M->pool_top = F->pool_top;
    M->pool[F->head].count++;
    M->off[u] = NONE;
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) {
        M->total[s] += M->size[u];
        M->sm_n[s]++; /* u sits right after the prefix (place) */
    }
    for (uint32_t s = M->lo[u]; s + 1 < M->hi[u]; s++) M->cut[s]++;
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++)
        if (M->off[M->ov[k]] == NONE) M->nbr[M->ov[k]]++;
    while (M->pt_top > F->ptrail) {
        M->pt_top--;
        M->pre[M->pt_item[M->pt_top]] = M->pt_old[M->pt_top];
    }
    if (F->mtrail != UINT32_MAX) {
        /* the minima as they were: the trail holds every one place changed */
        while (M->mt_top > F->mtrail) {
            M->mt_top--;
            uint32_t s = M->mt_s[M->mt_top];
            M->minmo[s] = M->mt_min[M->mt_top];
            M->mcnt[s] = M->mt_cnt[M->mt_top];
        }
        while (M->tr_top > F->trail) {
            M->tr_top--;
            M->mo[M->tr_item[M->tr_top]] = M->tr_old[M->tr_top];
        }
        return;
    }
    /* trail was full: rescan the sections of u and of every lifted item */
    begin_marks(M);
    mark_range(M, M->lo[u], M->hi[u]);
    while (M->tr_top > F->trail) {
        M->tr_top--;
        uint32_t v = M->tr_item[M->tr_top];
        M->mo[v] = M->tr_old[M->tr_top];
        mark_range(M, M->lo[v], M->hi[v]);
    }
    recompute_minmo(M);
}

/* Re-ranks the unplaced items of new piece q by the current heuristic with
 * T taken from the bytes still unplaced (MiniMalloc orders each sub-problem
 * afresh): the piece is a new problem whose heaviest sections are others
 * than the whole's.  Ranks 1..k are a function of the piece's unplaced set,
 * so memo keys stay sound; the piece then starts without a canonical floor
 * (ranks of different orders are not comparable).  When the rank trail is
 * full the piece keeps its ranks and floor. */
static void rerank(opt_mem *M, part *q) {
    uint32_t k = 0, *ids = M->order;
    for (uint32_t x = M->lo_start[q->lo]; x < M->lo_start[q->hi]; x++)
        if (M->off[M->by_lo[x]] == NONE) ids[k++] = M->by_lo[x];
    if (M->pt_top + k > M->pt_cap) return;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t i = ids[j];
        uint64_t t = 0;
        for (uint32_t s = M->lo[i]; s < M->hi[i]; s++) t = TA_MAX(t, (uint64_t)M->total[s]);
        M->k_dyn[i] = t;
    }
    ta__opt_sort_dyn(M, ids, k);
    for (uint32_t j = 0; j < k; j++) {
        M->pt_item[M->pt_top] = ids[j];
        M->pt_old[M->pt_top++] = M->pre[ids[j]];
        M->pre[ids[j]] = j + 1;
    }
    q->floor_off = 0;
    q->floor_pre = 0;
}

/* After frame F placed u, splits its partition at the new zero cuts when
 * that leaves at least two non-empty pieces; the pieces go on the agenda in
 * time order with the placement as their canonical floor. */
void ta__opt_decompose(opt_mem *M, frame *F, uint32_t u, uint32_t nzc) {
    const part P = M->pool[F->head];
    uint32_t cnt[64], bounds[65];
    /* pieces [bounds[k], bounds[k+1]); more than 63 cuts at once: merge the
     * tail into one piece (still independent of the others, just coarser) */
    uint32_t np = 0;
    bounds[0] = P.lo;
    for (uint32_t k = 0; k < nzc && np < 63; k++) bounds[++np] = M->zc[k] + 1;
    bounds[++np] = P.hi;
    uint32_t nonempty = 0;
    for (uint32_t k = 0; k < np; k++) {
        uint32_t c = 0;
        for (uint32_t x = M->lo_start[bounds[k]]; x < M->lo_start[bounds[k + 1]]; x++)
            c += M->off[M->by_lo[x]] == NONE;
        cnt[k] = c;
        nonempty += c > 0;
    }
    if (nonempty < 2) return;
    uint32_t next = P.next, last_created = NIL;
    for (uint32_t k = np; k-- > 0;) {
        if (!cnt[k]) continue;
        part *q = &M->pool[M->pool_top];
        q->lo = bounds[k];
        q->hi = bounds[k + 1];
        q->count = cnt[k];
        q->next = next;
        q->start = last_created == NIL ? P.start : NIL; /* the last piece completes P */
        q->floor_off = M->off[u];
        q->floor_pre = M->pre[u];
        rerank(M, q);
        last_created = next = M->pool_top++;
    }
    M->head = next;
}
