/* tile_harness.h -- the optimal strategy's tiling searches run alone, the
 * way plan_optimal.c runs them at the bound, and the seeded random tiling
 * questions they are checked on: one copy for test_optimal_sweep,
 * test_optimal_beam and bench_sweep.  Host-side, header only; it calls the
 * internals (src/core/plan_optimal.h) and allocates with malloc. */
#ifndef TA_TILE_HARNESS_H
#define TA_TILE_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan_optimal.h"
#include "gen_lists.h"
#include "gen_packing.h"
#include "tinyarena/plan.h"

/* What a search returns (the searches' own 0, 1, 2), and the harness's:
 * not a tiling question (or not searched at all), no scratch. */
enum { TILE_FOUND = 0, TILE_NONE = 1, TILE_LIMIT = 2, TILE_NOT_ASKED = -1, TILE_NO_SCRATCH = -2 };
/* The searches: the time sweep (ta__opt_tile), the byte sweep, the
 * portfolio of them all, the beam and the order search, the order
 * bench_sweep prints them in. */
enum { TILE_TIME_SWEEP = 0, TILE_BYTE_SWEEP = 1, TILE_PORTFOLIO = 2, TILE_BEAM = 3, TILE_ORDER = 4 };

/* The optimal search's state for r[0..n), as plan_optimal.c sets it up
 * (the memo cleared).  Returns its scratch (the caller frees it); NULL
 * with *rc TILE_NOT_ASKED when the problem is not searched, TILE_NO_SCRATCH
 * when the scratch cannot be had. */
static inline void *tile_setup(opt_mem *M, opt_counts *c, const ta_request *r, size_t n, int *rc) {
    *rc = TILE_NOT_ASKED;
    ta__opt_layout(r, n, c);
    if (!c->search) return NULL;
    *rc = TILE_NO_SCRATCH;
    ta__bump b;
    memset(M, 0, sizeof *M);
    ta__bump_init(&b, NULL, 0);
    ta__opt_carve(&b, c, M);
    size_t need = ta__bump_need(&b);
    if (need == SIZE_MAX) return NULL;
    void *scr = malloc(need);
    if (!scr) return NULL;
    ta__bump_init_aligned(&b, scr, need);
    ta__opt_carve(&b, c, M);
    if (b.fail) {
        free(scr);
        return NULL;
    }
    ta__opt_setup(M, r, n);
    ta__opt_preorder_keys(M);
    M->memo_mask = c->memo - 1;
    memset(M->memo, 0, c->memo * sizeof(memo_ent));
    *rc = TILE_FOUND;
    return scr;
}

/* Search `which` at height C on M (set up by tile_setup), at most cap
 * nodes: TILE_FOUND leaves the tiling in M->off; TILE_NOT_ASKED when C is
 * not a tiling question (ta__opt_tile_applies), without searching. */
static inline int tile_run(opt_mem *M, size_t C, int which, uint64_t cap) {
    if (!ta__opt_tile_applies(M, C)) return TILE_NOT_ASKED;
    if (which == TILE_BYTE_SWEEP) ta__opt_sweep_init(M, C);
    return which == TILE_TIME_SWEEP   ? ta__opt_tile(M, C, cap)
           : which == TILE_BYTE_SWEEP ? ta__opt_sweep(M, C, cap)
           : which == TILE_PORTFOLIO  ? ta__opt_tile_portfolio(M, C, cap)
           : which == TILE_ORDER      ? ta__opt_pq(M, C, cap) /* plan_optimal_pq.c */
                                      : ta__opt_beam(M, C, cap); /* plan_optimal_beam.c */
}

/* tile_setup, then tile_run on r[0..n).  TILE_FOUND fills off[0..n) (0 for
 * the requests that are not items); *nodes (when not NULL) = the nodes
 * spent, 0 when nothing ran.  Frees its scratch. */
static inline int tile_search(const ta_request *r, size_t n, size_t C, int which, uint64_t cap, size_t *off,
                              uint64_t *nodes) {
    opt_counts c;
    opt_mem M;
    int rc;
    if (nodes) *nodes = 0;
    void *scr = tile_setup(&M, &c, r, n, &rc);
    if (!scr) return rc;
    rc = tile_run(&M, C, which, cap);
    if (rc != TILE_NOT_ASKED && nodes) *nodes = M.nodes;
    if (rc == TILE_FOUND) {
        for (size_t i = 0; i < n; i++) off[i] = 0;
        for (uint32_t i = 0; i < M.m; i++) off[M.id[i]] = M.off[i];
    }
    free(scr);
    return rc;
}

/* Is off[] a valid plan of r[0..n) within C?  The validator
 * (ta_plan_check), then an independent pairwise check of alignment, the
 * arena's end and every pair live together.  Prints what fails. */
static inline bool tile_plan_ok(const ta_request *r, size_t n, const size_t *off, size_t C) {
    bool ok = true;
    size_t need = ta_plan_check_scratch_bytes(n);
    void *scr = malloc(need ? need : 1);
    ta_diag d;
    if (!scr || ta_plan_check(r, n, off, C, 0, scr, need, &d) != TA_OK) {
        fprintf(stderr, "invalid tiling: validator: %s\n", scr ? d.msg : "no scratch");
        ok = false;
    }
    free(scr);
    for (size_t i = 0; i < n; i++) {
        size_t a = r[i].align ? r[i].align : 1, pi = ta_request_padded(&r[i]);
        if (off[i] % a || off[i] + pi > C) {
            fprintf(stderr, "invalid tiling: buffer %zu at %zu (align %zu, %zu B, arena %zu)\n", i, off[i], a, pi, C);
            ok = false;
        }
        for (size_t j = i + 1; j < n; j++) {
            size_t pj = ta_request_padded(&r[j]);
            if (!pi || !pj || !ta_request_overlap_time(&r[i], &r[j])) continue;
            if (!(off[i] + pi <= off[j] || off[j] + pj <= off[i])) {
                fprintf(stderr, "invalid tiling: buffers %zu and %zu overlap\n", i, j);
                ok = false;
            }
        }
    }
    return ok;
}

/* The small event packings every tiling search is checked on:
 * gen_packing_events of 8, 16, ..., 40 buffers (lifetimes of 1-6 steps,
 * 1,024 B), 4 seeds a size.  Returns how many `which` finds on cap nodes
 * each, every tiling validated (tile_plan_ok); *made = how many were made
 * (20).  Needs gen_packing.c (ta_gen_models). */
static inline int tile_small_event_packings(int which, uint64_t cap, int *made) {
    ta_request r[40];
    size_t off[40];
    int found = 0;
    *made = 0;
    for (size_t n = 8; n <= 40; n += 8)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            size_t k = gen_packing_events(r, NULL, n, 6, 1024, 16, seed * 131 + n);
            if (!k) continue;
            (*made)++;
            found += tile_search(r, k, 1024, which, cap, off, NULL) == TILE_FOUND && tile_plan_ok(r, k, off, 1024);
        }
    return found;
}

/* A random tiling question: 4 to 3 + spread buffers over 6 steps, 8-48 B
 * aligned to 8, 16 or 32 B, then every step's slack up to the most live
 * filled by one single-step buffer, so every step adds up to the same
 * height *h, yet a tiling exists only sometimes.  r needs 9 + spread
 * entries; returns how many it filled.  Draws from *state (gen_lists_rnd),
 * so a seed names the same sequence of problems in every caller. */
static inline size_t tile_random_question(ta_request *r, uint32_t spread, uint64_t *state, size_t *h) {
    size_t n = 0, tot[6] = {0}, k = 4 + gen_lists_rnd(state, spread);
    *h = 0;
    for (size_t i = 0; i < k; i++) {
        int32_t f = (int32_t)gen_lists_rnd(state, 6), l = f + (int32_t)gen_lists_rnd(state, (uint32_t)(6 - f));
        r[n] = ta_request_make(8 * (1 + gen_lists_rnd(state, 6)), f, l);
        r[n].align = (size_t)8 << gen_lists_rnd(state, 3);
        for (int32_t t = f; t <= l; t++) tot[t] += ta_request_padded(&r[n]);
        n++;
    }
    for (int t = 0; t < 6; t++) *h = tot[t] > *h ? tot[t] : *h;
    for (int32_t t = 0; t < 6; t++)
        if (*h > tot[t]) r[n++] = ta_request_make(*h - tot[t], t, t);
    return n;
}
#endif
