/* The byte sweep (src/core/plan_optimal_sweep.c), the optimal strategy's
 * second tiling search, and the portfolio that runs it with the time sweep
 * (plan_optimal_tile.c): hand-checked tilings and non-tilings, random ones
 * against the time sweep both ways, generated perfect packings found, and
 * the portfolio through `optimal`.  Every plan passes the validator.  All
 * searches run on node budgets, so the outcome is the same on any machine. */
#include <stdlib.h>
#include <string.h>

#include "core/plan_optimal.h"
#include "gen_packing.h"
#include "testutil.h"
#include "plan_harness.h"
#include "tile_harness.h"
#include "tinyarena/plan.h"

enum { FOUND = TILE_FOUND, NONE_EXISTS = TILE_NONE, LIMIT = TILE_LIMIT, ERROR = TILE_NOT_ASKED };

/* The validator and an independent pairwise check (tile_harness.h). */
static void check_plan(const ta_request *r, size_t n, const size_t *off, size_t arena) {
    CHECK(tile_plan_ok(r, n, off, arena));
}

/* Runs one tiling search at height C as plan_optimal.c does (tile_harness.h):
 * which 0 the time sweep, 1 the byte sweep, 2 the portfolio.  FOUND fills
 * off[] (and validates it); ERROR when the problem is not a tiling
 * question. */
static int search(const ta_request *r, size_t n, size_t C, int which, uint64_t cap, size_t *off) {
    uint64_t spent = 0;
    int rc = tile_search(r, n, C, which, cap, off, &spent);
    CHECK(rc != TILE_NO_SCRATCH);
    if (rc == TILE_NO_SCRATCH) return ERROR;
    if (rc != ERROR) CHECK(spent <= cap);
    if (rc == FOUND) check_plan(r, n, off, C); /* items only: every request here has a size */
    return rc;
}

/* ---- hand-checked cases ------------------------------------------------ */

static void test_hand(void) {
    size_t off[8];
    {
        /* a 16 B live at steps 0-1, b 16 B at 0, c 16 B at 1: 32 B every
         * step; a at the bottom, b and c above it (or the mirror image) */
        ta_request r[3] = {req(16, 0, 1), req(16, 0, 0), req(16, 1, 1)};
        CHECK_EQ_U(search(r, 3, 32, 1, 1000, off), FOUND);
        CHECK(off[1] == off[2] && off[0] != off[1]);
    }
    {
        /* a staircase: a [0,1] and b [1,2] both 16 B, x 16 B at 0, y 16 B at
         * 2, z 16 B over all three steps (48 B every step).  At step 1 a, b
         * and z stack; x must take b's bytes at step 0 and y a's at step 2. */
        ta_request r[5] = {req(16, 0, 1), req(16, 1, 2), req(16, 0, 0), req(16, 2, 2), req(16, 0, 2)};
        CHECK_EQ_U(search(r, 5, 48, 1, 1000, off), FOUND);
        CHECK_EQ_U(off[2], off[1]);
        CHECK_EQ_U(off[3], off[0]);
    }
    {
        /* 112 B every step, yet no tiling: at step 1, a (64 B, aligned to
         * 64) can only sit at 0, so c (32 B, aligned to 32, live at steps
         * 0-1) sits at 64 (b takes 96); then at step 0 d's 80 B find 64 B
         * below c and 16 B above it.  Both searches refute it. */
        ta_request r[4] = {req(64, 1, 1), req(16, 1, 1), req(32, 0, 1), req(80, 0, 0)};
        r[0].align = 64;
        r[1].align = 16;
        r[2].align = 32;
        r[3].align = 16;
        CHECK_EQ_U(search(r, 4, 112, 1, 1000, off), NONE_EXISTS);
        CHECK_EQ_U(search(r, 4, 112, 0, 1000, off), NONE_EXISTS);
        CHECK_EQ_U(search(r, 4, 112, 2, 1000, off), NONE_EXISTS);
        /* d at 64 B and another 16 B at step 0 instead: c at 64 again, d
         * below it, the 16 B above it */
        r[3] = req(64, 0, 0);
        r[3].align = 16;
        ta_request r2[5] = {r[0], r[1], r[2], r[3], req(16, 0, 0)};
        CHECK_EQ_U(search(r2, 5, 112, 1, 1000, off), FOUND);
        CHECK_EQ_U(off[0], 0);
        CHECK_EQ_U(off[2], 64);
        CHECK_EQ_U(off[3], 0);
        CHECK_EQ_U(off[4], 96);
    }
    {
        /* a 32 B over steps 0-2 and b 32 B at step 1 on a 64 B arena; the
         * filler c 32 B at 0 and d 32 B at 2 must go where b is not: c and d
         * share b's side (an odd arrangement of the same bytes does not
         * tile).  Also a gap step with nothing live (steps 4-5). */
        ta_request r[6] = {req(32, 0, 2), req(32, 1, 1), req(32, 0, 0), req(32, 2, 2), req(64, 6, 7), req(16, 3, 3)};
        /* step 3 holds 16 B only: not a tiling question at 64 B */
        CHECK_EQ_U(search(r, 6, 64, 1, 1000, off), ERROR);
        r[5] = req(64, 3, 3);
        CHECK_EQ_U(search(r, 6, 64, 1, 1000, off), FOUND);
        CHECK_EQ_U(off[2], off[1]);
        CHECK_EQ_U(off[3], off[1]);
    }
}

/* ---- random problems against the time sweep ---------------------------- */

/* 4-8 random buffers over 6 steps, aligned to 8, 16 or 32 B, every step's
 * slack up to the most live filled by single-step buffers: every step adds
 * up to the same height, but a tiling exists only sometimes.  The byte
 * sweep and the time sweep (both exhaustive on these) must agree, and the
 * portfolio with them. */
static void test_random_vs_time_sweep(void) {
    enum { MAXN = 16 };
    ta_request r[MAXN];
    size_t off[MAXN];
    int tile = 0, none = 0;
    uint64_t rng = 0x5EE9u;
    for (int it = 0; it < 600; it++) {
        size_t h, n = tile_random_question(r, 5, &rng, &h);
        int a = search(r, n, h, 1, 200000, off);
        int b = search(r, n, h, 0, 200000, off);
        int p = search(r, n, h, 2, 400000, off);
        CHECK(a == FOUND || a == NONE_EXISTS);
        CHECK_EQ_U(a, b);
        CHECK_EQ_U(a, p);
        tile += a == FOUND;
        none += a == NONE_EXISTS;
    }
    CHECK(tile > 50 && none > 50); /* both answers occur often */
    printf("random: byte sweep and time sweep agree on 600 (%d tile, %d cannot)\n", tile, none);
}

/* ---- generated perfect packings ---------------------------------------- */

/* Guillotine packings (gen_packing) of 20-120 buffers: the byte sweep finds
 * every one of these within its budget (the bottom-left rule suits cuts in
 * bytes, which give many buffers the same lifetime), and the tiling it
 * finds passes the validator. */
static void test_cut_packings(void) {
    enum { MAXN = 120 };
    ta_request r[MAXN];
    size_t off[MAXN];
    int found = 0, made = 0;
    for (size_t n = 20; n <= MAXN; n += 20)
        for (uint64_t seed = 0; seed < 3; seed++) {
            CHECK(gen_packing(r, NULL, n, 64, 16384, 16, 0x9ac4 + 1000 * (uint64_t)n + seed));
            made++;
            found += search(r, n, 16384, 1, 50000, off) == FOUND;
        }
    CHECK_EQ_U(found, made);
    printf("cut packings: the byte sweep finds %d of %d (20-120 buffers)\n", found, made);
}

/* Event packings (gen_packing_events) of 6-40 buffers: found, validated. */
static void test_event_packings(void) {
    int made, found = tile_small_event_packings(TILE_BYTE_SWEEP, 200000, &made);
    CHECK_EQ_U(made, 20);
    CHECK_EQ_U(found, made);
    printf("event packings: the byte sweep finds %d of %d (up to %d buffers)\n", found, made, 40);
}

/* Event packings (gen_packing_events, bench_sweep's generator) of 100
 * buffers on a node budget, found and validated.  The first run tries a
 * valley's candidates larger first, the later runs in random orders, which
 * find what larger first misses: larger first in every run found 4 of
 * these 8 on the same budget. */
static void test_event_packings_100(void) {
    enum { N = 100 };
    ta_request r[N];
    size_t off[N];
    int found = 0, made = 0;
    for (uint64_t seed = 0; seed < 8; seed++) {
        size_t k = gen_packing_events(r, NULL, N, 16, 16384, 16, 0x5eed + 1000 * N + seed);
        CHECK(k > 0);
        made++;
        found += search(r, k, 16384, 1, 60000, off) == FOUND;
    }
    CHECK_EQ_U(found, made);
    printf("event packings: the byte sweep finds %d of %d of 100 buffers on 60,000 nodes\n", found, made);
}

/* The portfolio through `optimal` (no clock, a work budget): guillotine
 * packings of 120 and 160 buffers, proven at the height.  The time sweep
 * alone found 1 and 2 of 10 of these on 300,000 nodes; the byte sweep
 * finds most in a few thousand. */
static void test_portfolio_optimal(void) {
    enum { MAXN = 160 };
    ta_request r[MAXN];
    size_t off[MAXN];
    int proven = 0, made = 0;
    static const uint64_t seeds[][2] = {{120, 0}, {120, 3}, {160, 2}, {160, 6}};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        size_t n = (size_t)seeds[i][0];
        CHECK(gen_packing(r, NULL, n, 64, 16384, 16, 0x9ac4 + 1000 * (uint64_t)n + seeds[i][1]));
        made++;
        ta_plan_options opt;
        memset(&opt, 0, sizeof opt);
        opt.work_limit = 400000;
        outcome o = run("optimal", r, n, &opt, off);
        CHECK(o.st == TA_OK);
        ta_plan_result res = o.res;
        check_plan(r, n, off, res.arena_bytes);
        CHECK_EQ_U(res.arena_bytes, 16384);
        CHECK(res.proof == TA_PROOF_OPTIMAL);
        proven += res.arena_bytes == 16384 && res.proof == TA_PROOF_OPTIMAL;
    }
    printf("portfolio: optimal proves %d of %d guillotine packings (120-160 buffers)\n", proven, made);
}

/* Resuming: the byte sweep cut into slices of 7 nodes ends where one run
 * of it does, with the same offsets. */
static void test_resume(void) {
    enum { N = 40 };
    ta_request r[N];
    CHECK(gen_packing(r, NULL, N, 64, 4096, 16, 77));
    size_t off1[N], off2[N];
    CHECK_EQ_U(search(r, N, 4096, 1, 100000, off1), FOUND);
    opt_counts c;
    opt_mem M;
    int rc = 0;
    void *scr = tile_setup(&M, &c, r, N, &rc);
    CHECK(scr != NULL);
    if (!scr) return;
    ta__opt_sweep_init(&M, 4096);
    int calls = 0;
    rc = 2;
    while (rc == 2 && calls < 100000) {
        rc = ta__opt_sweep(&M, 4096, 7);
        CHECK(M.nodes <= 7);
        calls++;
    }
    CHECK_EQ_U(rc, FOUND);
    CHECK(calls > 1);
    for (uint32_t i = 0; i < M.m; i++) off2[M.id[i]] = M.off[i];
    for (size_t i = 0; i < N; i++) CHECK_EQ_U(off1[i], off2[i]);
    free(scr);
}

int main(void) {
    test_hand();
    test_random_vs_time_sweep();
    test_cut_packings();
    test_event_packings();
    test_event_packings_100();
    test_portfolio_optimal();
    test_resume();
    return ta_test_finish("test_optimal_sweep");
}
