/* optimal: an exact planner.  It proves the smallest arena, or reports the
 * gap it could not close within its limit.
 *
 * The search follows the ideas of MiniMalloc (Moffitt, ASPLOS 2024): a
 * depth-first search over *canonical* solutions, in which buffers are placed
 * in order of increasing offset, each at the lowest offset its already-placed
 * neighbours allow.  Any plan can be pushed down ("gravity") until it has
 * that form without growing, so searching canonical plans loses nothing.
 *
 * Steps of plan():
 *  1. Incumbent: the `best` heuristic's plan (so we never return worse).
 *  2. Bounds: lo = the most bytes live at one step, or more precisely per
 *     time section the free bytes live there plus the bytes fixed buffers
 *     cover there, and the end of every fixed buffer; rounded up to g, the
 *     gcd of every size, alignment and fixed offset (every canonical offset,
 *     hence the optimum, is a multiple of g).  hi = the incumbent.  If
 *     lo == hi we are done.
 *  3. Repeatedly decide "is there a plan within capacity C?" with a node
 *     budget, for C = lo first (tight capacities prune hardest and are where
 *     the answer usually is), then C = hi - g to improve the incumbent.  A
 *     found plan lowers hi; an exhausted search raises lo -- not just by g
 *     but to the smallest capacity at which any pruning test of that search
 *     would have passed (the IDA* trick: below it the search tree, and so its
 *     answer, is identical).  Budgets double after each round, and the round
 *     rotates through three static tie-break orders, because solver time is
 *     not monotone in C nor stable across orders.
 *  4. Report OPTIMAL when lo meets hi; otherwise GAP (the search improved on
 *     the incumbent) or TIMEOUT (it did not), with proven_bytes = lo.
 *
 * Limits: opt->time_limit_s (default 10 s) against opt->clock covers the
 * whole call, best's incumbent included (best gets half of it, or all of
 * it when the problem is too large to search);
 * opt->work_limit caps search nodes (best gets the same options and reads
 * work_limit as its own placement budget); with neither a clock
 * nor a work limit, time_limit_s x OPT_NODES_PER_S nodes.  res->work is
 * best's work plus the search nodes.
 *
 * The decision search (decide()):
 *   - state: for every unplaced buffer u, mo[u] = the lowest aligned offset
 *     above every placed neighbour that avoids the fixed buffers; per time
 *     section, the bytes still unplaced and the lowest mo among them;
 *   - a node picks the unplaced buffer with the smallest (mo, preorder rank)
 *     that is not below the previous placement (canonical order), places it
 *     at mo, and recurses;
 *   - dominance: a candidate at or above min(mo + size) over the unplaced
 *     buffers is skipped -- that buffer could drop into the gap below, so a
 *     smaller canonical plan exists elsewhere in the tree;
 *   - section bound: in every section, the unplaced bytes must fit between
 *     max(current offset, lowest mo there) and C (minus fixed buffers);
 *   - decomposition: when no unplaced buffer crosses a time cut, the two
 *     sides are independent; they are solved one after the other, and once
 *     a side is solved its choices are never revisited (a failure on the
 *     other side fails the node that split them).  Each side is ranked
 *     afresh, T taken from the bytes still unplaced in it (as MiniMalloc
 *     orders each sub-problem): that alone takes E, H and I of MiniMalloc's
 *     challenging set from unsolved in 60 s to proven at 1 MiB;
 *   - memo: a failed partition state (unplaced set, their mo, the canonical
 *     floor) is remembered with the capacity below which it always fails.
 *
 * Fixed buffers are obstacles (pre-placed); the canonical position of a free
 * buffer is the lowest gap above its placed neighbours that clears them.
 * Zero-size buffers sit at 0 and take no part.  Everything is deterministic:
 * the search order depends only on the input and node counts; the clock only
 * decides when to stop.
 */
#include "core/plan_optimal.h"

/* ---- search primitives ------------------------------------------------- */

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

static void recompute_minmo(opt_mem *M) {
    for (uint32_t k = 0; k < M->naff; k++) {
        uint32_t s = M->aff[k];
        size_t v = NONE;
        for (uint32_t x = M->sm_start[s]; x < M->sm_start[s + 1]; x++) {
            uint32_t u = M->sm[x];
            if (M->off[u] == NONE && M->mo[u] < v) v = M->mo[u];
        }
        M->minmo[s] = v;
    }
}

/* Bytes of [level, cap) covered by the fixed buffers of section s (their
 * union: with TA_PLAN_ALLOW_FIXED_CONFLICT they may overlap each other). */
static size_t fixed_cover(const opt_mem *M, uint32_t s, size_t level, size_t cap) {
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
static size_t section_need(const opt_mem *M, uint32_t lo, uint32_t hi, size_t o, size_t C) {
    size_t need = 0;
    for (uint32_t s = lo; s < hi; s++) {
        if (!M->total[s]) continue;
        size_t level = TA_MAX(o, M->minmo[s]);
        size_t req = level + M->total[s];
        if (M->sfx_start[s] != M->sfx_start[s + 1]) req += fixed_cover(M, s, level, C);
        if (req > need) need = req;
    }
    return need;
}

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- the decision search ---------------------------------------------- */

enum { R_FOUND, R_INFEASIBLE, R_LIMIT };

static bool out_of_budget(opt_mem *M) {
    if (M->nodes >= M->node_cap) return true;
    if (M->opt && M->opt->clock && (M->nodes & 255) == 1 &&
        M->opt->clock(M->opt->clock_ctx) >= M->deadline) {
        M->timed_out = true;
        return true;
    }
    return false;
}

/* Resets the state to "nothing placed" and builds the initial agenda: the
 * partitions between time cuts that no buffer crosses. */
static void reset_state(opt_mem *M) {
    uint32_t m = M->m, ns = M->ns;
    for (uint32_t s = 0; s < ns; s++) {
        M->total[s] = 0;
        M->cut[s] = 0;
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

/* Marks for a rescan the sections of item v whose lowest mo was `was`: v
 * held it (possibly tied) and is leaving or rising, so the minimum may rise.
 * Sections whose minimum is lower than `was` cannot change. */
static void mark_min_holder(opt_mem *M, uint32_t v, size_t was) {
    for (uint32_t s = M->lo[v]; s < M->hi[v]; s++)
        if (M->minmo[s] == was && M->mark[s] != M->epoch) {
            M->mark[s] = M->epoch;
            M->aff[M->naff++] = s;
        }
}

/* Places item u (at mo[u]) for frame F in partition P.  Returns the section
 * bound's need (<= C: the placement survives). Records zero cuts in zc. */
static size_t place(opt_mem *M, frame *F, uint32_t u, size_t C, uint32_t *nzc) {
    part *P = &M->pool[F->head];
    size_t o = M->mo[u], top = o + M->size[u];
    F->item = u;
    F->trail = M->tr_top;
    F->ptrail = M->pt_top;
    M->off[u] = o;
    P->count--;
    begin_marks(M);
    mark_min_holder(M, u, o);
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++) {
        uint32_t v = M->ov[k];
        if (M->off[v] != NONE) continue;
        M->nbr[v]--;
        size_t a = ta__align_up(top, M->align[v]);
        if (a <= M->mo[v]) continue;
        M->tr_item[M->tr_top] = v;
        M->tr_old[M->tr_top++] = M->mo[v];
        mark_min_holder(M, v, M->mo[v]);
        M->mo[v] = fixfit(M, v, a);
    }
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) M->total[s] -= M->size[u];
    uint32_t z = 0;
    for (uint32_t s = M->lo[u]; s + 1 < M->hi[u]; s++)
        if (--M->cut[s] == 0) M->zc[z++] = s;
    *nzc = z;
    recompute_minmo(M);
    return section_need(M, P->lo, P->hi, o, C);
}

/* Undoes frame F's placement.  No rescans: undoing only lowers mo values
 * and returns u to the unplaced set, so each minimum is a plain min. */
static void unplace(opt_mem *M, frame *F) {
    uint32_t u = F->item;
    M->head = F->head;
    M->pool_top = F->pool_top;
    M->pool[F->head].count++;
    M->off[u] = NONE;
    size_t mu = M->mo[u];
    for (uint32_t s = M->lo[u]; s < M->hi[u]; s++) {
        M->total[s] += M->size[u];
        if (mu < M->minmo[s]) M->minmo[s] = mu;
    }
    for (uint32_t s = M->lo[u]; s + 1 < M->hi[u]; s++) M->cut[s]++;
    for (uint32_t k = M->ov_start[u]; k < M->ov_start[u + 1]; k++)
        if (M->off[M->ov[k]] == NONE) M->nbr[M->ov[k]]++;
    while (M->pt_top > F->ptrail) {
        M->pt_top--;
        M->pre[M->pt_item[M->pt_top]] = M->pt_old[M->pt_top];
    }
    while (M->tr_top > F->trail) {
        M->tr_top--;
        uint32_t v = M->tr_item[M->tr_top];
        size_t was = M->tr_old[M->tr_top];
        M->mo[v] = was;
        for (uint32_t s = M->lo[v]; s < M->hi[v]; s++)
            if (was < M->minmo[s]) M->minmo[s] = was;
    }
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
static void decompose(opt_mem *M, frame *F, uint32_t u, uint32_t nzc) {
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

/* Is there a plan with every buffer inside [0, C)?  R_FOUND fills M->sol;
 * R_INFEASIBLE sets *thr to a capacity below which none exists. */
static int decide(opt_mem *M, size_t C, size_t *thr, size_t *arena) {
    reset_state(M);
    frame *fr = M->fr;
    uint32_t d = 0;
    frame *F;
    /* root-level section bound (no placement yet) */
    {
        size_t need = section_need(M, 0, M->ns, 0, C);
        if (need > C) {
            *thr = need;
            return R_INFEASIBLE;
        }
    }
enter:
    F = &fr[d];
    while (M->head != NIL && M->pool[M->head].count == 0) {
        /* partition completed: its frames keep their choices for good */
        part *p = &M->pool[M->head];
        for (uint32_t i = p->start; i < d; i++) fr[i].cut = true;
        M->head = p->next;
    }
    if (M->head == NIL) {
        size_t a = 0;
        for (uint32_t i = 0; i < M->m; i++) {
            M->sol[i] = M->off[i];
            a = TA_MAX(a, M->off[i] + M->size[i]);
        }
        *arena = a;
        return R_FOUND;
    }
    {
        part *P = &M->pool[M->head];
        F->head = M->head;
        F->pool_top = M->pool_top;
        F->item = NIL;
        F->thr = SIZE_MAX;
        F->cut = false;
        if (P->start == NIL) P->start = d;
        if (d > 0 && fr[d - 1].head == M->head) {
            F->floor_off = M->off[fr[d - 1].item];
            F->floor_pre = M->pre[fr[d - 1].item];
        } else {
            F->floor_off = P->floor_off;
            F->floor_pre = P->floor_pre;
        }
        M->nodes++;
        if (out_of_budget(M)) return R_LIMIT;
        /* scan: dominance bound, dead buffers, memo key */
        size_t minh = SIZE_MAX, maxh = 0;
        uint64_t h1 = mix64(F->floor_off * 0x9E3779B97F4A7C15ull + F->floor_pre + ((uint64_t)M->heur << 56));
        uint64_t h2 = mix64(h1 ^ 0x5851F42D4C957F2Dull);
        bool stuck = false;
        for (uint32_t x = M->lo_start[P->lo]; x < M->lo_start[P->hi]; x++) {
            uint32_t u = M->by_lo[x];
            if (M->off[u] != NONE) continue;
            size_t h = M->mo[u] + M->size[u];
            minh = TA_MIN(minh, h);
            maxh = TA_MAX(maxh, h);
            /* below the canonical floor with no unplaced neighbour to lift
             * it: it can never be placed (MiniMalloc's "hatless" case) */
            if (!M->nbr[u] && (M->mo[u] < F->floor_off || (M->mo[u] == F->floor_off && M->pre[u] < F->floor_pre)))
                stuck = true;
            /* ranks are in the key: a re-ranked piece (rerank) orders, and so
             * floors, its candidates differently from the same set unranked */
            uint64_t z = mix64(((uint64_t)u << 40) ^ (uint64_t)M->mo[u] ^ ((uint64_t)M->pre[u] * 0x9E3779B97F4A7C15ull) ^
                               0xD6E8FEB86659FD93ull);
            h1 += z;
            h2 += mix64(z ^ 0xA0761D6478BD642Full);
        }
        F->min_height = minh;
        F->key1 = 0; /* not worth remembering: the scan finds it again */
        if (stuck) goto fail; /* at any capacity: thr stays SIZE_MAX */
        if (maxh > C) {
            F->thr = maxh;
            goto fail;
        }
        F->key1 = h1 | 1; /* 0 marks an empty memo slot */
        F->key2 = h2;
        for (uint64_t k = 0; k < 4; k++) {
            const memo_ent *e = &M->memo[(h2 + k) & M->memo_mask];
            if (e->key == F->key1) {
                if (e->thr > C) {
                    F->thr = e->thr;
                    F->key1 = 0;
                    goto fail;
                }
                break;
            }
        }
        F->last_mo = F->floor_off;
        F->last_pre = F->floor_pre;
    }
next:
    F = &fr[d];
    {
        const part *P = &M->pool[F->head];
        /* the smallest (mo, pre) above the last one tried, below min_height */
        uint32_t best = NIL;
        size_t bmo = SIZE_MAX;
        uint32_t bpre = UINT32_MAX;
        for (uint32_t x = M->lo_start[P->lo]; x < M->lo_start[P->hi]; x++) {
            uint32_t u = M->by_lo[x];
            if (M->off[u] != NONE) continue;
            size_t mu = M->mo[u];
            uint32_t pu = M->pre[u];
            if (mu >= F->min_height) continue;
            if (mu < F->last_mo || (mu == F->last_mo && pu <= F->last_pre)) continue;
            if (mu < bmo || (mu == bmo && pu < bpre)) {
                best = u;
                bmo = mu;
                bpre = pu;
            }
        }
        if (best == NIL) goto fail;
        F->last_mo = bmo;
        F->last_pre = bpre;
        uint32_t nzc = 0;
        size_t need = place(M, F, best, C, &nzc);
        if (need > C) {
            unplace(M, F);
            F->item = NIL;
            if (need < F->thr) F->thr = need;
            M->nodes++;
            if (out_of_budget(M)) return R_LIMIT;
            /* no unplaced neighbour: any later sibling strands it below the floor */
            if (!M->nbr[best]) goto fail;
            goto next;
        }
        if (nzc) decompose(M, F, best, nzc);
        d++;
        goto enter;
    }
fail:
    F = &fr[d];
    if (!F->cut && F->key1) {
        /* A local failure (nothing completed below it): this partition
         * state fails for every capacity below thr.  4-way bucket; replace
         * the same key, else an empty slot, else one chosen by the key. */
        memo_ent *slot = NULL;
        for (uint64_t k = 0; k < 4; k++) {
            memo_ent *q = &M->memo[(F->key2 + k) & M->memo_mask];
            if (q->key == F->key1) {
                slot = q;
                break;
            }
            if (!slot && q->key == 0) slot = q;
        }
        if (!slot) slot = &M->memo[(F->key2 + (F->key1 >> 62)) & M->memo_mask];
        if (slot->key != F->key1 || slot->thr < F->thr) {
            slot->key = F->key1;
            slot->thr = F->thr;
        }
    }
    if (d == 0) {
        *thr = F->thr;
        return R_INFEASIBLE;
    }
    {
        size_t t = F->thr;
        d--;
        F = &fr[d];
        if (t < F->thr) F->thr = t;
        uint32_t was = F->item;
        unplace(M, F);
        F->item = NIL;
        if (F->cut || !M->nbr[was]) goto fail; /* cut, or hatless (as above) */
        goto next;
    }
}

/* ---- driver ------------------------------------------------------------ */

static size_t gcd_sz(size_t a, size_t b) {
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static size_t round_up_to(size_t x, size_t g) {
    size_t r = x % g;
    return !r ? x : x > SIZE_MAX - (g - r) ? SIZE_MAX : x + (g - r);
}

static ta_status opt_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                          size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d) {
    const ta_strategy *best = ta_strategy_find("best");
    size_t best_need = 0;
    ta_status st = best->scratch_bytes(reqs, n, opt, &best_need);
    if (st) return st;
    opt_counts c;
    ta__opt_layout(reqs, n, &c);
    /* Overlap relations: the search's canonical placements and section
     * bounds assume related buffers never share bytes, so it does not run
     * (yet); best's plan, which uses the relations, comes back, proven when
     * it meets the core's bound (which counts related pairs as unions). */
    const bool related = ta__n_rel(opt) > 0;
    if (related) c.search = false;
    ta__bump b;
    opt_mem M;
    memset(&M, 0, sizeof M);
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    void *best_scratch = ta__bump_take(&b, best_need, 1);
    if (c.search) ta__opt_carve(&b, &c, &M);
    if (b.fail) return TA_E_NO_MEMORY;
    /* The time limit covers the whole call, incumbent included.  Without a
     * clock a fixed node budget stands in for it, so results never depend
     * on the machine. */
    double limit_s = opt && opt->time_limit_s > 0 ? opt->time_limit_s : 10.0;
    uint64_t work_cap = opt && opt->work_limit ? opt->work_limit : 0;
    if (opt && opt->clock) M.deadline = opt->clock(opt->clock_ctx) + (uint64_t)(limit_s * 1e6);
    else if (!work_cap) work_cap = (uint64_t)(limit_s * OPT_NODES_PER_S);
    if (!work_cap) work_cap = UINT64_MAX;

    /* The problem in sections first: when every section's live bytes are
     * the same (or none), the bound is a perfect tiling or nothing, which
     * the tiling search decides far better than best's local search. */
    bool tiling = false;
    if (c.search) {
        ta__opt_setup(&M, reqs, n);
        ta__opt_preorder_keys(&M); /* also leaves every section's free bytes in total[] */
        size_t top = 0;
        for (uint32_t s = 0; s < M.ns; s++) top = TA_MAX(top, M.total[s]);
        tiling = ta__opt_tile_applies(&M, top);
    }

    /* 1. the incumbent.  With a clock, best gets half the limit (a
     * sixteenth before a tiling search: at a tiling's bound its local
     * search only wanders), so the search always keeps the rest; its time
     * counts against ours. */
    ta_plan_options bopt;
    const ta_plan_options *bo = opt;
    if (opt && opt->clock) {
        bopt = *opt;
        bopt.time_limit_s = !c.search ? limit_s : tiling ? limit_s / 16 : limit_s / 2; /* no search: all of it */
        bo = &bopt;
    }
    if (opt && opt->start) {
        memcpy(offsets, opt->start, n * sizeof *offsets); /* the caller's incumbent */
        res->work = 0;
    } else {
        st = best->plan(reqs, n, bo, best_scratch, best_need, offsets, res, d);
        if (st) return st;
    }
    uint64_t best_work = res->work;
    size_t hi = ta_plan_arena_bytes(reqs, n, offsets), incumbent = hi;

    /* 2. bounds.  The core's bound (most padded bytes live at one step) is
     * not valid when fixed buffers may overlap each other: it counts their
     * shared bytes twice.  The section bound below is always valid. */
    size_t lb = res->fixed_conflicts ? 0 : res->lower_bound_bytes, g = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p = ta_request_padded(&reqs[i]);
        if (p) g = gcd_sz(g, p);
        if (ta__align_of(&reqs[i]) > 1) g = gcd_sz(g, ta__align_of(&reqs[i]));
        if (ta__is_fixed(&reqs[i])) {
            g = gcd_sz(g, reqs[i].fixed);
            lb = TA_MAX(lb, reqs[i].fixed + p);
        }
    }
    if (!g || related) g = 1; /* relations place buffers at any byte */
    res->work = best_work;
    res->proof = TA_PROOF_OPTIMAL;
    res->proven_bytes = hi;
    if (c.m == 0) return TA_OK; /* only fixed and empty buffers: nothing to choose */
    size_t lo = round_up_to(lb, g);
    if (!c.search) {
        if (lo < hi) {
            res->proof = TA_PROOF_TIMEOUT;
            res->proven_bytes = lo;
        }
        return TA_OK;
    }
    /* In each section, the free buffers need total[s] bytes that no fixed
     * buffer live there covers, and every fixed buffer lies inside the arena. */
    for (uint32_t s = 0; s < M.ns; s++)
        lb = TA_MAX(lb, M.total[s] + fixed_cover(&M, s, 0, SIZE_MAX));
    lo = round_up_to(lb, g);
    if (lo >= hi) return TA_OK;

    /* 3. search */
    M.memo_mask = c.memo - 1;
    memset(M.memo, 0, c.memo * sizeof(memo_ent));
    M.opt = opt;
    uint64_t budget = 64u * M.m, spent = 0;
    if (ta__opt_tile_applies(&M, lo)) {
        /* A tiling within lo is the optimum and its absence proves lo + g:
         * the tiling search decides it, with most of what is left (the
         * canonical search below keeps the rest for upper probes). */
        uint64_t keep = M.deadline;
        if (opt && opt->clock) {
            uint64_t now = opt->clock(opt->clock_ctx);
            if (now < M.deadline) M.deadline = now + (M.deadline - now) / 8 * 7;
        }
        uint64_t cap = work_cap == UINT64_MAX ? UINT64_MAX : work_cap / 8 * 7;
        int r = ta__opt_tile_portfolio(&M, lo, cap); /* the time and the byte sweep */
        spent += M.nodes;
        M.deadline = keep;
        if (r == 0) {
            for (uint32_t i = 0; i < M.m; i++) offsets[M.id[i]] = M.off[i];
            hi = ta_plan_arena_bytes(reqs, n, offsets);
        } else if (r == 1) {
            lo = TA_MIN(hi, lo + g);
        }
        if (!(opt && opt->clock && opt->clock(opt->clock_ctx) >= M.deadline)) M.timed_out = false;
        memset(M.memo, 0, c.memo * sizeof(memo_ent));
    }
    uint32_t heur = 0;
    size_t up = lo + (hi - lo) / 2; /* the upper probe; clamped below */
    for (;;) {
        /* Round: C = lo (a plan there is optimal; an exhausted search raises
         * lo, and we retry at once), then the upper probe C = up, where a
         * plan improves the incumbent.  The probe bisects towards lo after
         * a success and backs off towards hi after running out of budget:
         * plans are often quick to find well below the incumbent but slow
         * right at lo.  Then the next tie-break order; budgets double after
         * every full rotation. */
        int phase = 0;
        while (lo < hi && phase < 2) {
            size_t C = lo;
            if (phase == 1) {
                up = up / g * g;
                if (up <= lo) up = lo + g;
                if (up >= hi) up = hi - g;
                if (up <= lo) break;
                C = up;
            }
            ta__opt_set_heuristic(&M, heur);
            M.nodes = 0;
            uint64_t left = work_cap - spent;
            /* the upper probe gets half: a plan at lo also proves it, and on
             * E a full share for the probe cost a third of the time */
            uint64_t cap = phase == 1 ? budget / 2 : budget;
            M.node_cap = cap < left ? cap : left;
            size_t thr = 0, arena = 0;
            int r = decide(&M, C, &thr, &arena);
            spent += M.nodes;
            if (r == R_FOUND) {
                for (uint32_t i = 0; i < M.m; i++) offsets[M.id[i]] = M.sol[i];
                hi = ta_plan_arena_bytes(reqs, n, offsets);
                up = lo + (hi - lo) / 2;
            } else if (r == R_INFEASIBLE) {
                lo = TA_MIN(hi, TA_MAX(lo + g, round_up_to(thr, g))); /* thr <= hi: hi is feasible */
                up = lo + (hi - lo) / 2;
                phase = 0;
                continue;
            } else if (M.timed_out || spent >= work_cap) {
                break;
            } else if (phase == 1) {
                up += (hi - up) / 2;
            }
            phase++;
        }
        if (lo >= hi || M.timed_out || spent >= work_cap) break;
        heur = (heur + 1) % OPT_HEURISTICS;
        if (heur) continue;
        /* After each rotation, as much work again on a descent: short
         * probes (128 nodes a buffer) each at the incumbent minus a step,
         * the three orders in turn; the step starts at an eighth of the gap,
         * doubles after a plan and halves after a miss.  Where the bound is
         * far below any plan (D, J), whether a probe above finds a plan is
         * the luck of its order and capacity, and a plan, when there is
         * one, comes within a few thousand nodes: many short probes near
         * the incumbent beat few long ones at the bisection's midpoint. */
        uint64_t ncap = 128u * M.m, nwork = 0, rot = budget * 3 + budget * 3 / 2;
        size_t step = TA_MAX(g, (hi - lo) / 8 / g * g);
        for (uint32_t k = 0; lo < hi && nwork < rot && !M.timed_out && spent < work_cap; k++) {
            size_t C = hi - lo > step ? (hi - step) / g * g : lo;
            if (C < lo) C = lo;
            ta__opt_set_heuristic(&M, k % OPT_HEURISTICS);
            M.nodes = 0;
            uint64_t left = work_cap - spent;
            M.node_cap = ncap < left ? ncap : left;
            size_t thr = 0, arena = 0;
            int r = decide(&M, C, &thr, &arena);
            spent += M.nodes;
            nwork += M.nodes;
            if (r == R_FOUND) {
                for (uint32_t i = 0; i < M.m; i++) offsets[M.id[i]] = M.sol[i];
                hi = ta_plan_arena_bytes(reqs, n, offsets);
                step *= 2;
            } else if (r == R_INFEASIBLE) {
                lo = TA_MIN(hi, TA_MAX(lo + g, round_up_to(thr, g)));
            } else {
                step = TA_MAX(g, step / 2);
            }
        }
        up = lo + (hi - lo) / 2;
        if (lo >= hi || M.timed_out || spent >= work_cap) break;
        if (budget < UINT64_MAX / 2) budget *= 2;
    }
    res->work = best_work + spent;
    if (lo >= hi) {
        res->proof = TA_PROOF_OPTIMAL;
        res->proven_bytes = hi;
    } else {
        res->proof = hi < incumbent ? TA_PROOF_GAP : TA_PROOF_TIMEOUT;
        res->proven_bytes = lo;
    }
    return TA_OK;
}

const ta_strategy ta__strategy_optimal = {
    "optimal", "exact search (canonical placements, section bounds, cuts); proves the smallest arena",
    ta__opt_scratch, opt_plan};

