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
 * whole call, best's incumbent included (best gets half of it); overlap
 * relations go to plan_optimal_rel.c's search and problems too large for
 * this one to plan_optimal_large.c's (time cuts, windows);
 * opt->work_limit caps search nodes (best gets the same options and reads
 * work_limit as its own placement budget); with neither a clock
 * nor a work limit, time_limit_s x OPT_NODES_PER_S nodes.  res->work is
 * best's work plus the search nodes.
 *
 * The decision search (decide()):
 *   - state: for every unplaced buffer u, mo[u] = the lowest aligned offset
 *     above every placed neighbour that avoids the fixed buffers; per time
 *     section, the bytes still unplaced and the lowest mo among them, kept
 *     exact at little cost: each section's unplaced members first in its
 *     list, a count of those at the minimum (a section keeps its minimum
 *     while one stays), the lifted top taken without a rescan where it
 *     must be the minimum, and a trail to undo it all (settle_minmo);
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

/* ---- the decision search ---------------------------------------------- */

enum { R_FOUND, R_INFEASIBLE, R_LIMIT };

/* Is there a plan with every buffer inside [0, C)?  R_FOUND fills M->sol;
 * R_INFEASIBLE sets *thr to a capacity below which none exists. */
static int decide(opt_mem *M, size_t C, size_t *thr, size_t *arena) {
    ta__opt_reset(M);
    frame *fr = M->fr;
    uint32_t d = 0;
    frame *F;
    /* root-level section bound (no placement yet) */
    {
        size_t need = ta__opt_section_need(M, 0, M->ns, 0, C);
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
        if (ta__opt_out_of_budget(M)) return R_LIMIT;
        /* scan: dominance bound, dead buffers, memo key */
        size_t minh = SIZE_MAX, maxh = 0;
        uint64_t h1 = ta__mix64(F->floor_off * 0x9E3779B97F4A7C15ull + F->floor_pre + ((uint64_t)M->heur << 56));
        uint64_t h2 = ta__mix64(h1 ^ 0x5851F42D4C957F2Dull);
        bool stuck = false;
        /* the first candidate too (next: the smallest (mo, pre) above the
         * floor; whether it is below min_height is checked there) */
        uint32_t first = NIL, fpre = UINT32_MAX;
        size_t fmo = SIZE_MAX;
        for (uint32_t x = M->lo_start[P->lo]; x < M->lo_start[P->hi]; x++) {
            uint32_t u = M->by_lo[x];
            if (M->off[u] != NONE) continue;
            size_t mu = M->mo[u];
            uint32_t pu = M->pre[u];
            if ((mu > F->floor_off || (mu == F->floor_off && pu > F->floor_pre)) &&
                (mu < fmo || (mu == fmo && pu < fpre))) {
                first = u;
                fmo = mu;
                fpre = pu;
            }
            size_t h = mu + M->size[u];
            minh = TA_MIN(minh, h);
            maxh = TA_MAX(maxh, h);
            /* below the canonical floor with no unplaced neighbour to lift
             * it: it can never be placed (MiniMalloc's "hatless" case) */
            if (!M->nbr[u] && (M->mo[u] < F->floor_off || (M->mo[u] == F->floor_off && M->pre[u] < F->floor_pre)))
                stuck = true;
            /* ranks are in the key: a re-ranked piece (rerank) orders, and so
             * floors, its candidates differently from the same set unranked */
            uint64_t z = ta__mix64(((uint64_t)u << 40) ^ (uint64_t)M->mo[u] ^ ((uint64_t)M->pre[u] * 0x9E3779B97F4A7C15ull) ^
                               0xD6E8FEB86659FD93ull);
            h1 += z;
            h2 += ta__mix64(z ^ 0xA0761D6478BD642Full);
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
        F->first = first;
    }
next:
    F = &fr[d];
    {
        const part *P = &M->pool[F->head];
        /* the smallest (mo, pre) above the last one tried, below min_height;
         * the node's first one comes from its entry scan (nothing changed since) */
        uint32_t best = F->first;
        size_t bmo = best == NIL ? SIZE_MAX : M->mo[best];
        uint32_t bpre = best == NIL ? UINT32_MAX : M->pre[best];
        if (best != NIL && bmo >= F->min_height) best = NIL;
        for (uint32_t x = M->lo_start[P->lo]; F->first == NIL && x < M->lo_start[P->hi]; x++) {
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
        F->first = NIL;
        if (best == NIL) goto fail;
        F->last_mo = bmo;
        F->last_pre = bpre;
        uint32_t nzc = 0;
        size_t need = ta__opt_place(M, F, best, C, &nzc);
        if (need > C) {
            ta__opt_unplace(M, F);
            F->item = NIL;
            if (need < F->thr) F->thr = need;
            M->nodes++;
            if (ta__opt_out_of_budget(M)) return R_LIMIT;
            /* no unplaced neighbour: any later sibling strands it below the floor */
            if (!M->nbr[best]) goto fail;
            goto next;
        }
        if (nzc) ta__opt_decompose(M, F, best, nzc);
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
        ta__opt_unplace(M, F);
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
    /* Overlap relations: this search's canonical placements and section
     * bounds assume disjoint buffers; plan_optimal_rel.c searches those. */
    if (ta__n_rel(opt)) return ta__opt_rel_plan(reqs, n, opt, scratch, scratch_bytes, offsets, res, d);
    const ta_strategy *best = ta_strategy_find("best");
    size_t best_need = 0;
    ta_status st = best->scratch_bytes(reqs, n, opt, &best_need);
    if (st) return st;
    opt_counts c;
    ta__opt_layout(reqs, n, &c);
    ta__bump b;
    opt_mem M;
    memset(&M, 0, sizeof M);
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    void *best_scratch = ta__bump_take(&b, best_need, 1);
    /* too large to search: the windows of plan_optimal_large.c instead
     * (not when nothing is free to place: then there is nothing to do) */
    const bool large = !c.search && c.m;
    size_t large_bytes = large ? ta__opt_large_bytes(n) : 0;
    void *large_mem = NULL;
    if (c.search) ta__opt_carve(&b, &c, &M);
    else if (large) large_mem = ta__bump_take(&b, large_bytes, 1);
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
        bopt.time_limit_s = large ? limit_s * ta__opt_large_best_share(reqs, n) : tiling ? limit_s / 16 : limit_s / 2;
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
    if (!g) g = 1;
    res->work = best_work;
    res->proof = TA_PROOF_OPTIMAL;
    res->proven_bytes = hi;
    if (c.m == 0) return TA_OK; /* only fixed and empty buffers: nothing to choose */
    size_t lo = round_up_to(lb, g);
    if (large && lo < hi)
        return ta__opt_large(reqs, n, opt, large_mem, large_bytes, best_scratch, best_need, offsets, lo, g,
                             M.deadline, work_cap, res);
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
        lb = TA_MAX(lb, M.total[s] + ta__opt_fixed_cover(&M, s, 0, SIZE_MAX));
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
    uint32_t hot = 0; /* the order of the last improving plan (the descent's) */
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
                if (phase == 1) hot = heur;
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
         * probes (128 nodes a buffer) each at the incumbent minus a step;
         * the step starts at an eighth of the gap, doubles after a plan and
         * halves after a miss.  Where the bound is far below any plan (D,
         * J), whether a probe above finds a plan is the luck of its order
         * and capacity, and a plan, when there is one, comes within a few
         * thousand nodes: many short probes near the incumbent beat few
         * long ones at the bisection's midpoint.  Every other probe takes
         * the order that found the last improving plan (an upper probe's or
         * the descent's), the others the three in turn: the order that
         * found a plan tends to find the next one just below it (on J and
         * D one order finds nearly all of them), and the rotation keeps the
         * other two in play. */
        uint64_t ncap = 128u * M.m, nwork = 0, rot = budget * 3 + budget * 3 / 2;
        size_t step = TA_MAX(g, (hi - lo) / 8 / g * g);
        for (uint32_t k = 0; lo < hi && nwork < rot && !M.timed_out && spent < work_cap; k++) {
            size_t C = hi - lo > step ? (hi - step) / g * g : lo;
            if (C < lo) C = lo;
            uint32_t h = k % 2 ? hot : (k / 2) % OPT_HEURISTICS;
            ta__opt_set_heuristic(&M, h);
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
                hot = h;
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
    ta__opt_conclude(res, lo, hi, incumbent);
    return TA_OK;
}

const ta_strategy ta__strategy_optimal = {
    "optimal", "exact search (canonical placements, section bounds, cuts); proves the smallest arena",
    ta__opt_scratch, opt_plan};

