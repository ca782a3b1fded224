/* The beam search (src/core/plan_optimal_beam.c), the optimal strategy's
 * third tiling search: hand-checked tilings, a problem with no tiling (the
 * beam must give up, never answer), random small problems against the time
 * sweep (plan_optimal_tile.c, exhaustive on them), generated event packings
 * found, and its node budget kept.  Every tiling it returns passes the
 * validator and an independent pairwise check.  Node budgets only, so the
 * outcome is the same on any machine. */
#include <stdlib.h>
#include <string.h>

#include "core/plan_optimal.h"
#include "gen_packing.h"
#include "testutil.h"
#include "plan_harness.h"
#include "tile_harness.h"
#include "tinyarena/plan.h"

enum { FOUND = TILE_FOUND, NONE_EXISTS = TILE_NONE, LIMIT = TILE_LIMIT, ERROR = TILE_NOT_ASKED };
enum { BEAM = TILE_BEAM, TIME_SWEEP = TILE_TIME_SWEEP, BYTE_SWEEP = TILE_BYTE_SWEEP, PORTFOLIO = TILE_PORTFOLIO };
#ifndef BEAM_CAP
#define BEAM_CAP 50000
#endif

/* Runs the beam, the time sweep, the byte sweep or the portfolio at height
 * C on the optimal search's state for r[0..n), as plan_optimal.c sets it up
 * (tile_harness.h).  FOUND fills off[] (validated); ERROR when it is not a
 * tiling question.  *nodes: the nodes spent. */
static int search(const ta_request *r, size_t n, size_t C, int which, uint64_t cap, size_t *off, uint64_t *nodes) {
    uint64_t spent = 0;
    int rc = tile_search(r, n, C, which, cap, off, &spent);
    CHECK(rc != TILE_NO_SCRATCH);
    if (rc == TILE_NO_SCRATCH) rc = ERROR;
    if (rc != ERROR) {
        CHECK(spent <= cap);
        if (nodes) *nodes = spent;
        if (which == BEAM) CHECK(rc != NONE_EXISTS); /* it only finds */
        if (rc == FOUND) CHECK(tile_plan_ok(r, n, off, C));
    }
    return rc;
}

/* ---- hand-checked cases ------------------------------------------------ */

static void test_hand(void) {
    size_t off[8];
    {
        /* a 16 B at steps 0-1, b 16 B at 0, c 16 B at 1, 32 B every step:
         * b and c share the half a leaves */
        ta_request r[3] = {req(16, 0, 1), req(16, 0, 0), req(16, 1, 1)};
        CHECK_EQ_U(search(r, 3, 32, BEAM, 1000, off, NULL), FOUND);
        CHECK(off[1] == off[2] && off[0] != off[1]);
    }
    {
        /* a staircase: a [0,1] and b [1,2], x at 0, y at 2, z over all
         * three, 16 B each, 48 B every step: x takes b's bytes at step 0
         * and y a's at step 2 */
        ta_request r[5] = {req(16, 0, 1), req(16, 1, 2), req(16, 0, 0), req(16, 2, 2), req(16, 0, 2)};
        CHECK_EQ_U(search(r, 5, 48, BEAM, 1000, off, NULL), FOUND);
        CHECK_EQ_U(off[2], off[1]);
        CHECK_EQ_U(off[3], off[0]);
    }
    {
        /* 112 B every step and no tiling (a, 64 B aligned to 64, sits at 0
         * at step 1, so c, 32 B aligned to 32, at 64, and d's 80 B at step
         * 0 find 64 B below c and 16 B above it): the beam gives up, the
         * time sweep refutes */
        ta_request r[4] = {req(64, 1, 1), req(16, 1, 1), req(32, 0, 1), req(80, 0, 0)};
        r[0].align = 64;
        r[1].align = 16;
        r[2].align = 32;
        r[3].align = 16;
        CHECK_EQ_U(search(r, 4, 112, BEAM, 5000, off, NULL), LIMIT);
        CHECK_EQ_U(search(r, 4, 112, TIME_SWEEP, 5000, off, NULL), NONE_EXISTS);
        /* with d 64 B and another 16 B at step 0, one tiling (and its
         * mirror, which the alignments forbid): a 0, c 64, d 0, e 96 */
        r[3] = req(64, 0, 0);
        r[3].align = 16;
        ta_request r2[5] = {r[0], r[1], r[2], r[3], req(16, 0, 0)};
        CHECK_EQ_U(search(r2, 5, 112, BEAM, 5000, off, NULL), FOUND);
        CHECK_EQ_U(off[0], 0);
        CHECK_EQ_U(off[2], 64);
        CHECK_EQ_U(off[3], 0);
        CHECK_EQ_U(off[4], 96);
    }
    {
        /* a gap step with nothing live (steps 4-5) between two parts; a
         * step of 16 B alone is not a tiling question at 64 B */
        ta_request r[6] = {req(32, 0, 2), req(32, 1, 1), req(32, 0, 0), req(32, 2, 2), req(64, 6, 7), req(16, 3, 3)};
        CHECK_EQ_U(search(r, 6, 64, BEAM, 1000, off, NULL), ERROR);
        r[5] = req(64, 3, 3);
        CHECK_EQ_U(search(r, 6, 64, BEAM, 1000, off, NULL), FOUND);
        CHECK_EQ_U(off[2], off[1]);
        CHECK_EQ_U(off[3], off[1]);
    }
}

/* ---- random problems against the time sweep ---------------------------- */

/* 4-10 random buffers over 6 steps, aligned to 8, 16 or 32 B, every step
 * topped up to the same height by single-step buffers: a tiling exists
 * only sometimes.  The time and the byte sweep decide each and must agree
 * (a tiling either finds is validated; this caught the time sweep skipping
 * offsets on 2 of the 600).  The beam never returns a tiling where none
 * exists (every one it returns is validated) and finds every tiling of
 * these.
 *
 * On a non-tiling the beam always spends its whole budget (it only finds),
 * and these 112 runs of 50,000 nodes are nearly all of the test's time:
 * under ASan and UBSan (TA_TEST_SANITIZED, tests/optimal_beam.cmake) 41 s
 * of this function's 47 s of CPU, where a tiling costs it 155 nodes on
 * average.
 * There the beam runs on every tiling and on every BEAM_NONE_EVERY-th
 * non-tiling only, each on the same budget; the sweeps still decide all
 * 600, and the Release run gives the beam all of them. */
#ifndef BEAM_NONE_EVERY
#ifdef TA_TEST_SANITIZED
#define BEAM_NONE_EVERY 4
#else
#define BEAM_NONE_EVERY 1
#endif
#endif
static void test_random(void) {
    enum { MAXN = 20 };
    ta_request r[MAXN];
    size_t off[MAXN];
    int tile = 0, none = 0, found = 0, none_run = 0;
    uint64_t rng = 0xBEA3u;
    for (int it = 0; it < 600; it++) {
        size_t h, n = tile_random_question(r, 7, &rng, &h);
        /* the truth: a tiling when either exhaustive search finds one (the
         * validator checks it), none when both refute */
        int a = search(r, n, h, TIME_SWEEP, 200000, off, NULL);
        int s = search(r, n, h, BYTE_SWEEP, 200000, off, NULL);
        CHECK(a == FOUND || a == NONE_EXISTS);
        CHECK(s == FOUND || s == NONE_EXISTS);
        CHECK_EQ_U(a, s); /* two exhaustive searches agree */
        if (a == FOUND || s == FOUND) a = FOUND;
        if (a == FOUND || none % BEAM_NONE_EVERY == 0) {
            int b = search(r, n, h, BEAM, BEAM_CAP, off, NULL);
            CHECK(b == FOUND || b == LIMIT);
            if (a == NONE_EXISTS) CHECK_EQ_U(b, LIMIT);
            found += b == FOUND;
            none_run += a == NONE_EXISTS;
        }
        tile += a == FOUND;
        none += a == NONE_EXISTS;
    }
    CHECK(tile > 50 && none > 50);
    CHECK_EQ_U(found, tile);
    if (none_run == none)
        printf("random: the beam finds %d of the %d tilings, none of the %d non-tilings\n", found, tile, none);
    else
        printf("random: the beam finds %d of the %d tilings, none of the %d non-tilings it ran on (of %d)\n", found,
               tile, none_run, none);
}

/* ---- the beam's scratch ------------------------------------------------ */

/* The beam's states are carved only for a problem that can be a tiling
 * question (opt_counts.tiling, decided from the requests before any
 * scratch): it must be exactly ta__opt_tile_applies at the most live bytes,
 * as plan_optimal.c asks it, or the beam would run without its states (or
 * carry them for nothing).  On random tiling questions as made and with one
 * change each; and `optimal` plans every one in exactly the scratch
 * ta_plan_scratch_bytes asks for. */
static void test_tiling_flag(void) {
    enum { MAXN = 20 };
    ta_request r[MAXN];
    size_t off[MAXN];
    uint64_t rng = 0x7111u;
    int yes = 0, no = 0;
    for (int it = 0; it < 240; it++) {
        size_t h, n = tile_random_question(r, 7, &rng, &h);
        switch (it % 6) {
        case 1: /* one buffer larger */
            r[gen_lists_rnd(&rng, (uint32_t)n)].size += 8;
            break;
        case 2: /* a later part at the same height, after empty steps */
            r[n++] = req(h, 9, 10);
            break;
        case 3: /* ... at another height */
            r[n++] = req(h / 2, 9, 9);
            break;
        case 4: /* an empty request, which no section counts */
            r[n++] = req(0, 2, 7);
            break;
        case 5: /* a fixed buffer */
            r[n] = req(8, 0, 0);
            r[n++].fixed = h;
            break;
        default: /* as made */
            break;
        }
        opt_counts c;
        opt_mem M;
        int rc;
        void *scr = tile_setup(&M, &c, r, n, &rc);
        CHECK(scr != NULL);
        if (!scr) continue;
        size_t top = 0;
        for (uint32_t s = 0; s < M.ns; s++) top = M.total[s] > top ? M.total[s] : top;
        bool applies = ta__opt_tile_applies(&M, top);
        CHECK_EQ_U(c.tiling, applies);
        CHECK_EQ_U(M.bm != NULL, applies);
        yes += applies;
        no += !applies;
        free(scr);
        ta_plan_options o;
        memset(&o, 0, sizeof o);
        o.work_limit = 2000;
        CHECK(run("optimal", r, n, &o, off).st == TA_OK); /* in exactly the scratch it asks for */
    }
    CHECK(yes > 60 && no > 60);
    printf("tiling flag: %d tiling questions, %d not; the carve agrees with ta__opt_tile_applies\n", yes, no);
}

/* ---- generated event packings ------------------------------------------ */

/* gen_packing_events of 8-40 buffers, then two of 150: found, validated,
 * within the budget. */
static void test_event_packings(void) {
    enum { MAXN = 150 };
    ta_request r[MAXN];
    size_t off[MAXN];
    int made, found = tile_small_event_packings(TILE_BEAM, 200000, &made);
    CHECK_EQ_U(made, 20);
    CHECK_EQ_U(found, made);
    printf("event packings: the beam finds %d of %d (8-40 buffers)\n", found, made);
    for (uint64_t s = 0; s < 2; s++) {
        size_t k = gen_packing_events(r, NULL, 150, 16, 16384, 16, 0x5eed + 150000 + s);
        CHECK(k > 0);
        uint64_t nodes = 0;
        CHECK_EQ_U(search(r, k, 16384, BEAM, 2000000, off, &nodes), FOUND);
        printf("event packing of %zu buffers (seed %llu): found in %llu nodes\n", k, (unsigned long long)s,
               (unsigned long long)nodes);
    }
}

/* The budget: a 300-buffer packing on 3,000 nodes stops there. */
static void test_budget(void) {
    enum { N = 300 };
    ta_request r[N];
    size_t off[N];
    size_t k = gen_packing_events(r, NULL, N, 16, 16384, 16, 0x5eed + 300000);
    CHECK(k > 0);
    uint64_t nodes = 0;
    CHECK_EQ_U(search(r, k, 16384, BEAM, 3000, off, &nodes), LIMIT);
    CHECK(nodes <= 3000 && nodes > 2000);
}

/* The two random problems (of test_random's 600) that the time sweep
 * wrongly refuted (it skipped offsets when a node was re-entered in its
 * first run): every search tiles them. */
static void test_time_sweep_refutation(void) {
    static const size_t P[2][14][4] = {
        {{24, 2, 5, 16}, {16, 0, 3, 16}, {8, 2, 5, 32}, {32, 0, 3, 32}, {8, 0, 1, 32}, {24, 2, 4, 16}, {16, 1, 1, 8},
         {24, 3, 5, 32}, {40, 2, 2, 16}, {112, 0, 0, 1}, {96, 1, 1, 1}, {16, 3, 3, 1}, {64, 4, 4, 1}, {96, 5, 5, 1}},
        {{16, 2, 2, 16}, {8, 2, 5, 16}, {8, 2, 5, 16}, {24, 1, 4, 32}, {32, 4, 5, 32}, {16, 2, 2, 32}, {32, 1, 4, 8},
         {32, 5, 5, 8}, {144, 0, 0, 1}, {80, 1, 1, 1}, {48, 3, 3, 1}, {16, 4, 4, 1}, {48, 5, 5, 1}, {0, 0, 0, 0}},
    };
    static const size_t n[2] = {14, 13}, h[2] = {192, 144};
    for (int p = 0; p < 2; p++) {
        ta_request r[14];
        size_t off[14];
        for (size_t i = 0; i < n[p]; i++) {
            r[i] = req(P[p][i][0], (int32_t)P[p][i][1], (int32_t)P[p][i][2]);
            r[i].align = P[p][i][3];
        }
        CHECK_EQ_U(search(r, n[p], h[p], BYTE_SWEEP, 200000, off, NULL), FOUND);
        CHECK_EQ_U(search(r, n[p], h[p], TIME_SWEEP, 200000, off, NULL), FOUND);
        CHECK_EQ_U(search(r, n[p], h[p], PORTFOLIO, 200000, off, NULL), FOUND);
    }
}

int main(void) {
    test_time_sweep_refutation();
    test_hand();
    test_tiling_flag();
    test_random();
    test_event_packings();
    test_budget();
    return ta_test_finish("test_optimal_beam");
}
