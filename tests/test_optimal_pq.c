/* The order search (src/core/plan_optimal_pq.c), the optimal strategy's
 * fourth tiling search: hand-checked tilings and a hand-checked problem
 * with none (it must refute it: the search is complete), random small
 * problems against the time sweep (plan_optimal_tile.c, also complete: the
 * two must agree both ways), problems it does not apply to, generated
 * event packings of 150-400 buffers found, and its node budget kept.
 * Every tiling it returns passes the validator and a pairwise check.  Node
 * budgets only, so the outcome is the same on any machine. */
#include <stdlib.h>
#include <string.h>

#include "gen_packing.h"
#include "testutil.h"
#include "plan_harness.h"
#include "tile_harness.h"
#include "tinyarena/plan.h"

enum { FOUND = TILE_FOUND, NONE_EXISTS = TILE_NONE, LIMIT = TILE_LIMIT };
enum { TIME_SWEEP = TILE_TIME_SWEEP, ORDER = TILE_ORDER, PORTFOLIO = TILE_PORTFOLIO };

/* Runs `which` at height C on the optimal search's state for r[0..n)
 * (tests/tile_harness.h), `calls` times while it reaches its limit (the
 * order search goes on with its next restarts), each on at most cap nodes.
 * FOUND fills off[] and must pass the validator and the pairwise check.
 * *nodes: the nodes spent in all. */
static int search_n(const ta_request *r, size_t n, size_t C, int which, uint64_t cap, int calls, size_t *off,
                    uint64_t *nodes) {
    opt_counts c;
    opt_mem M;
    int rc;
    uint64_t spent = 0;
    void *scr = tile_setup(&M, &c, r, n, &rc);
    if (!scr) return rc;
    for (int k = 0; k < calls; k++) {
        rc = tile_run(&M, C, which, cap);
        if (rc == TILE_NOT_ASKED) break;
        CHECK(M.nodes <= cap);
        spent += M.nodes;
        if (rc != LIMIT) break;
    }
    if (nodes) *nodes = spent;
    if (rc == FOUND) {
        for (size_t i = 0; i < n; i++) off[i] = 0;
        for (uint32_t i = 0; i < M.m; i++) off[M.id[i]] = M.off[i];
        CHECK(tile_plan_ok(r, n, off, C));
    }
    free(scr);
    return rc;
}

static int search(const ta_request *r, size_t n, size_t C, int which, uint64_t cap, size_t *off, uint64_t *nodes) {
    return search_n(r, n, C, which, cap, 1, off, nodes);
}

/* ---- hand-checked cases ------------------------------------------------ */

static void test_hand(void) {
    size_t off[16];
    {
        /* a 16 B at steps 0-1, b 32 B at 0, c 32 B at 1, 48 B every step:
         * c takes b's bytes, a the rest */
        ta_request r[3] = {req(16, 0, 1), req(32, 0, 0), req(32, 1, 1)};
        CHECK_EQ_U(search(r, 3, 48, ORDER, 1000, off, NULL), FOUND);
        CHECK_EQ_U(off[1], off[2]);
        CHECK(off[0] == 0 ? off[1] == 16 : (off[0] == 32 && off[1] == 0));
    }
    {
        /* No tiling, 64 B every step (units of 16 B):
         *   p 2 [0,0], q 2 [0,1]; a 1 [1,3], b 1 [1,2] refill p's bytes;
         *   c 1 [2,2], d 1 [2,3] refill q's; e 2 [3,4] refills b and c,
         *   so b and c are neighbours: the order is a b c d (or reversed);
         *   f 2 [4,4] must refill a and d, which e, still live, keeps apart.
         * The order search refutes it, as the time sweep does. */
        ta_request r[8] = {req(32, 0, 0), req(32, 0, 1), req(16, 1, 3), req(16, 1, 2),
                           req(16, 2, 2), req(16, 2, 3), req(32, 3, 4), req(32, 4, 4)};
        for (int i = 0; i < 8; i++) r[i].align = 16;
        CHECK_EQ_U(search(r, 8, 64, ORDER, 100000, off, NULL), NONE_EXISTS);
        CHECK_EQ_U(search(r, 8, 64, TIME_SWEEP, 100000, off, NULL), NONE_EXISTS);
        /* f split in two (one for a's unit, one for d's): a tiling */
        ta_request r2[9];
        memcpy(r2, r, sizeof r);
        r2[7] = req(16, 4, 4);
        r2[8] = req(16, 4, 4);
        r2[7].align = r2[8].align = 16;
        CHECK_EQ_U(search(r2, 9, 64, ORDER, 100000, off, NULL), FOUND);
        /* b next to c, e where they were */
        CHECK(off[3] + 16 == off[4] || off[4] + 16 == off[3]);
        CHECK_EQ_U(off[6], off[3] < off[4] ? off[3] : off[4]);
    }
    {
        /* a gap step with nothing live (steps 4-5) between two parts: the
         * second part starts a new tree */
        ta_request r[6] = {req(32, 0, 2), req(32, 1, 1), req(32, 0, 0), req(32, 2, 2), req(64, 6, 7), req(64, 3, 3)};
        CHECK_EQ_U(search(r, 6, 64, ORDER, 1000, off, NULL), FOUND);
        CHECK_EQ_U(off[2], off[1]);
        CHECK_EQ_U(off[3], off[1]);
    }
    {
        /* not a question for it: a size that is not a multiple of another
         * buffer's alignment (an order need not give aligned offsets) */
        ta_request r[3] = {req(16, 0, 1), req(32, 0, 0), req(32, 1, 1)};
        r[1].align = 32;
        CHECK_EQ_U(search(r, 3, 48, ORDER, 1000, off, NULL), LIMIT);
    }
}

/* ---- random problems against the time sweep ---------------------------- */

static uint64_t rng = 0x0DE5u;
static uint32_t rnd(uint32_t n) { return gen_lists_rnd(&rng, n); }

/* 6-14 random buffers over 6 steps, sizes 16-128 B aligned to 16 (so the
 * order search applies), every step topped up to the same height by a
 * single-step buffer: a tiling exists only sometimes.  Both searches are
 * complete on these, so they must agree: the same answer, and a tiling
 * either returns is validated. */
static void test_random(void) {
    enum { MAXN = 512 };
    static ta_request r[MAXN];
    static size_t off[MAXN];
    int tile = 0, none = 0, bad = 0;
    for (int it = 0; it < 2000; it++) {
        size_t n = 0, tot[6] = {0}, h = 0, k = 6 + rnd(9);
        for (size_t i = 0; i < k; i++) {
            int32_t f = (int32_t)rnd(6), l = f + (int32_t)rnd((uint32_t)(6 - f));
            r[n++] = req(16 * (1 + rnd(8)), f, l);
            r[n - 1].align = 16;
            for (int32_t t = f; t <= l; t++) tot[t] += r[n - 1].size;
        }
        for (int t = 0; t < 6; t++) h = tot[t] > h ? tot[t] : h;
        for (int32_t t = 0; t < 6; t++)
            if (h > tot[t]) {
                r[n++] = req(h - tot[t], t, t);
                r[n - 1].align = 16;
            }
        int a = search(r, n, h, TIME_SWEEP, 500000, off, NULL);
        int p = search(r, n, h, ORDER, 500000, off, NULL);
        CHECK(a == FOUND || a == NONE_EXISTS);
        if (p != a && bad++ < 5) fprintf(stderr, "problem %d: time sweep %d, order search %d\n", it, a, p);
        CHECK_EQ_U(p, a);
        tile += a == FOUND;
        none += a == NONE_EXISTS;
    }
    CHECK(tile > 1000 && none > 60); /* 1,890 and 110 */
    printf("random: the order search agrees with the time sweep on %d tilings and %d non-tilings\n", tile, none);
}

/* ---- generated event packings ------------------------------------------ */

/* gen_packing_events of 8-40 buffers, then 150-400 (bench_sweep's seeds 0
 * and 2; seed 1 at 400 buffers takes more than 3 M nodes alone):
 * found, validated, within the budget; and through the portfolio. */
static void test_event_packings(void) {
    enum { MAXN = 400 };
    static ta_request r[MAXN];
    static size_t off[MAXN];
    int made, found = tile_small_event_packings(ORDER, 200000, &made);
    CHECK_EQ_U(made, 20);
    CHECK_EQ_U(found, made);
    printf("event packings: the order search finds %d of %d (8-40 buffers)\n", found, made);
    static const size_t sizes[] = {150, 200, 300, 400};
    for (size_t i = 0; i < 4; i++)
        for (uint64_t s = 0; s < 4; s += 2) {
            size_t n = sizes[i];
            size_t k = gen_packing_events(r, NULL, n, 16, 16384, 16, 0x5eed + 1000 * n + s);
            CHECK(k > 0);
            uint64_t nodes = 0;
            CHECK_EQ_U(search(r, k, 16384, ORDER, 3000000, off, &nodes), FOUND);
            printf("event packing of %zu buffers (seed %llu): found in %llu nodes\n", k, (unsigned long long)s,
                   (unsigned long long)nodes);
        }
    /* the portfolio (the byte sweep's first slice, then this search) */
    size_t k = gen_packing_events(r, NULL, 300, 16, 16384, 16, 0x5eed + 300000 + 2);
    CHECK_EQ_U(search(r, k, 16384, PORTFOLIO, 1000000, off, NULL), FOUND);
}

/* The budget: a 400-buffer packing on 2,000 nodes stops there; calls
 * after it go on (with the next restarts) and find it. */
static void test_budget(void) {
    enum { N = 400 };
    static ta_request r[N];
    static size_t off[N];
    size_t k = gen_packing_events(r, NULL, N, 16, 16384, 16, 0x5eed + 400000 + 1);
    CHECK(k > 0);
    uint64_t nodes = 0;
    CHECK_EQ_U(search(r, k, 16384, ORDER, 2000, off, &nodes), LIMIT);
    CHECK_EQ_U(nodes, 2000);
    CHECK_EQ_U(search_n(r, k, 16384, ORDER, 20000, 200, off, &nodes), FOUND);
}

/* A call after a tiling was found starts clean: it finds one again. */
static void test_again(void) {
    enum { N = 150 };
    static ta_request r[N];
    static size_t off[N];
    size_t k = gen_packing_events(r, NULL, N, 16, 16384, 16, 0x5eed + 150000);
    CHECK(k > 0);
    opt_counts c;
    opt_mem M;
    int rc;
    void *scr = tile_setup(&M, &c, r, k, &rc);
    CHECK(scr != NULL);
    for (int round = 0; round < 3 && scr; round++) {
        CHECK_EQ_U(tile_run(&M, 16384, ORDER, 1000000), FOUND);
        for (size_t i = 0; i < k; i++) off[i] = 0;
        for (uint32_t i = 0; i < M.m; i++) off[M.id[i]] = M.off[i];
        CHECK(tile_plan_ok(r, k, off, 16384));
    }
    free(scr);
}

int main(void) {
    test_hand();
    test_random();
    test_event_packings();
    test_budget();
    test_again();
    return ta_test_finish("test_optimal_pq");
}
