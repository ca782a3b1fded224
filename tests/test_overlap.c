/* Overlap relations in the planning core: hand-checked golden cases (the
 * 1x1 convolution 8 -> 16 channels at person_detect's peak), the validator
 * accepting exactly what a relation permits, the bound on chains and
 * triangles, bad relations, and seeded random property tests where every
 * plan of every strategy passes an independent O(n^2) checker and the
 * bound, recomputed here step by step, is respected. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/plan.h"

static const char *const k_all[] = {"naive", "pingpong", "linear", "greedy", "best", "optimal"};
#define N_ALL (sizeof k_all / sizeof k_all[0])

/* ---- the rule, written out again from the header's definitions -------- */

static size_t padded(const ta_request *r) {
    size_t a = r->align ? r->align : 1;
    return (r->size + a - 1) / a * a;
}

/* May buffers i at oi and j at oj share bytes under relation o? */
static bool rule_permits(const ta_request *r, const ta_overlap *o, uint32_t i, long long oi, uint32_t j,
                         long long oj) {
    long long ox = o->x == i ? oi : oj, oy = o->x == i ? oj : oi;
    (void)j;
    long long px = (long long)padded(&r[o->x]), py = (long long)padded(&r[o->y]);
    if (o->kind == TA_OVERLAP_ABOVE) return oy >= ox + o->d;
    return oy + py <= ox + px - o->d;
}

/* Independent O(n^2 r) check: alignment, fixed, inside the arena, and every
 * pair live together with shared bytes carries a relation permitting it. */
static bool independent_ok(const ta_request *r, size_t n, const ta_overlap *ov, size_t nr, const size_t *off,
                           size_t arena, const char *who) {
    for (size_t i = 0; i < n; i++) {
        size_t a = r[i].align ? r[i].align : 1;
        if (off[i] % a || off[i] + padded(&r[i]) > arena) return false;
        if (r[i].fixed != TA_NO_OFFSET && off[i] != r[i].fixed) return false;
        for (size_t j = i + 1; j < n; j++) {
            size_t pi = padded(&r[i]), pj = padded(&r[j]);
            if (!pi || !pj || r[i].last < r[j].first || r[j].last < r[i].first) continue;
            if (off[i] + pi <= off[j] || off[j] + pj <= off[i]) continue;
            bool ok = false;
            for (size_t k = 0; k < nr && !ok; k++) {
                bool pair = (ov[k].x == i && ov[k].y == j) || (ov[k].x == j && ov[k].y == i);
                if (pair) ok = rule_permits(r, &ov[k], (uint32_t)i, (long long)off[i], (uint32_t)j, (long long)off[j]);
            }
            if (!ok) {
                fprintf(stderr, "%s: buffers %zu [%zu,+%zu) and %zu [%zu,+%zu) overlap without a relation permitting it\n",
                        who, i, off[i], pi, j, off[j], pj);
                return false;
            }
        }
    }
    return true;
}

/* The bound's definition, step by step: live bytes minus, per related pair
 * live together, the most it may share (the largest over its relations);
 * at least the largest buffer. */
static size_t bound_by_steps(const ta_request *r, size_t n, const ta_overlap *ov, size_t nr) {
    long long best = 0;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        if ((long long)padded(&r[i]) > best) best = (long long)padded(&r[i]);
        if (r[i].first < lo) lo = r[i].first;
        if (r[i].last > hi) hi = r[i].last;
    }
    for (int32_t t = lo; n && t <= hi; t++) {
        long long load = 0;
        for (size_t i = 0; i < n; i++)
            if (r[i].first <= t && t <= r[i].last) load += (long long)padded(&r[i]);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                bool live = r[i].first <= t && t <= r[i].last && r[j].first <= t && t <= r[j].last;
                if (!live) continue;
                long long share = 0;
                for (size_t k = 0; k < nr; k++) {
                    bool pair = (ov[k].x == i && ov[k].y == j) || (ov[k].x == j && ov[k].y == i);
                    if (!pair) continue;
                    long long px = (long long)padded(&r[ov[k].x]), py = (long long)padded(&r[ov[k].y]);
                    long long dd = ov[k].d > 0 ? ov[k].d : 0;
                    long long u = px > dd + py ? px : dd + py;
                    if (u > px + py) u = px + py;
                    if (px + py - u > share) share = px + py - u;
                }
                load -= share;
            }
        if (load > best) best = load;
    }
    return (size_t)best;
}

typedef struct {
    ta_status st;
    size_t arena, bound;
    ta_proof proof;
    char msg[TA_DIAG_LEN];
} outcome;

static outcome run(const char *name, const ta_request *r, size_t n, const ta_overlap *ov, size_t nr, size_t *off) {
    outcome o;
    memset(&o, 0, sizeof o);
    const ta_strategy *s = ta_strategy_find(name);
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.overlaps = ov;
    opt.n_overlaps = nr;
    opt.work_limit = 20000;
    size_t need = 0;
    CHECK(ta_plan_scratch_bytes(s, r, n, &opt, &need) == TA_OK);
    void *scratch = malloc(need ? need : 1);
    ta_plan_result res;
    ta_diag d;
    memset(&d, 0, sizeof d);
    o.st = ta_plan_run(s, r, n, &opt, scratch, need, off, &res, &d);
    memcpy(o.msg, d.msg, sizeof o.msg);
    if (o.st == TA_OK) {
        o.arena = res.arena_bytes;
        o.bound = res.lower_bound_bytes;
        o.proof = res.proof;
        CHECK(independent_ok(r, n, ov, nr, off, o.arena, name));
        CHECK(o.bound <= o.arena);
    }
    free(scratch);
    return o;
}

static ta_status check_plan(const ta_request *r, size_t n, const ta_overlap *ov, size_t nr, const size_t *off,
                            size_t arena) {
    size_t need = ta_plan_check_overlaps_scratch_bytes(n, nr);
    void *scratch = malloc(need);
    ta_diag d;
    ta_status st = ta_plan_check_overlaps(r, n, ov, nr, off, arena, 0, scratch, need, &d);
    free(scratch);
    return st;
}

static size_t bound_of(const ta_request *r, size_t n, const ta_overlap *ov, size_t nr) {
    size_t need = ta_plan_bound_overlaps_scratch_bytes(n, nr), b = 0;
    void *scratch = malloc(need);
    CHECK(ta_plan_bound_overlaps(r, n, ov, nr, scratch, need, &b, NULL) == TA_OK);
    free(scratch);
    return b;
}

static ta_request req(size_t size, size_t align, int32_t first, int32_t last) {
    ta_request q = ta_request_make(size, first, last);
    q.align = align;
    return q;
}

/* person_detect / vww_96_int8 peak at a 1x1 convolution 8 -> 16 channels on
 * 48x48: input X 18,432 B, output Y 36,864 B, both live at the op.  Without
 * a relation every strategy needs 55,296 B.  A forward walk declares BELOW d
 * (Y ends d bytes below X's end): Y at 0, X ends at 36,864 + d, so the
 * arena is 36,864 + d up to the 55,296 of disjoint buffers (X's offset
 * rounded up to 16: d = 100 gives 36,976).  ABOVE d (Y starts d above X):
 * X at 0, Y at d, the same figures -- but only an order that places X
 * first finds it; greedy places the larger Y first and cannot. */
static void test_conv1x1_golden(void) {
    ta_request r[2] = {req(18432, 16, 0, 1), req(36864, 16, 1, 2)};
    size_t off[2];
    for (size_t s = 0; s < N_ALL; s++) CHECK_EQ_U(run(k_all[s], r, 2, NULL, 0, off).arena, 55296);
    static const struct {
        long long d;
        size_t arena, bound;
    } below[] = {
        {0, 36864, 36864},     {16, 36880, 36880},    {4096, 40960, 40960}, {100, 36976, 36964},
        {18432, 55296, 55296}, {30000, 55296, 55296}, {-16, 36864, 36864},  {-20000, 36864, 36864},
    };
    for (size_t k = 0; k < sizeof below / sizeof below[0]; k++) {
        ta_overlap ov = {0, 1, TA_OVERLAP_BELOW, below[k].d};
        CHECK_EQ_U(bound_of(r, 2, &ov, 1), below[k].bound);
        CHECK_EQ_U(ta_overlap_union_bytes(r, &ov), below[k].bound);
        for (const char *const *s = (const char *const[]){"greedy", "best", "optimal", NULL}; *s; s++) {
            outcome o = run(*s, r, 2, &ov, 1, off);
            CHECK(o.st == TA_OK);
            if (o.arena != below[k].arena) fprintf(stderr, "%s d=%lld: %zu\n", *s, below[k].d, o.arena);
            CHECK_EQ_U(o.arena, below[k].arena);
            CHECK_EQ_U(o.bound, below[k].bound);
            if (below[k].d == 0) {
                CHECK_EQ_U(off[1], 0);
                CHECK_EQ_U(off[0], 18432);
            }
        }
        /* the strategies that do not exploit relations stay valid */
        for (size_t s = 0; s < 3; s++) CHECK(run(k_all[s], r, 2, &ov, 1, off).st == TA_OK);
    }
    /* optimal proves the d = 0 plan (it meets the bound) */
    ta_overlap ov0 = {0, 1, TA_OVERLAP_BELOW, 0};
    CHECK(run("optimal", r, 2, &ov0, 1, off).proof == TA_PROOF_OPTIMAL);
    /* a planted wrong d: the d = 0 plan breaks a relation asking for 16 */
    size_t plan0[2] = {18432, 0};
    CHECK(check_plan(r, 2, &ov0, 1, plan0, 36864) == TA_OK);
    ta_overlap ov16 = {0, 1, TA_OVERLAP_BELOW, 16};
    CHECK(check_plan(r, 2, &ov16, 1, plan0, 36864) == TA_E_OVERLAP);
    CHECK(check_plan(r, 2, NULL, 0, plan0, 36864) == TA_E_OVERLAP);
    /* ... and the mirror form permits nothing here (Y would have to start
     * at or above X's start) */
    ta_overlap swapped = {0, 1, TA_OVERLAP_ABOVE, 0};
    CHECK(check_plan(r, 2, &swapped, 1, plan0, 36864) == TA_E_OVERLAP);

    static const struct {
        long long d;
        size_t best;
    } above[] = {{0, 36864}, {16, 36880}, {4096, 40960}, {18432, 55296}, {-4096, 36864}};
    for (size_t k = 0; k < sizeof above / sizeof above[0]; k++) {
        ta_overlap ov = {0, 1, TA_OVERLAP_ABOVE, above[k].d};
        outcome b = run("best", r, 2, &ov, 1, off);
        CHECK_EQ_U(b.arena, above[k].best);
        CHECK_EQ_U(b.bound, above[k].best);
        CHECK(off[1] >= off[0] + (above[k].d > 0 ? (size_t)above[k].d : 0) || off[0] >= off[1] + 36864 ||
              off[1] >= off[0] + 18432);
        outcome g = run("greedy", r, 2, &ov, 1, off);
        CHECK(g.st == TA_OK && g.arena >= b.arena);
    }
}

/* The validator accepts exactly the offsets the rule permits: every pair of
 * offsets on a grid, both kinds, several d, against rule_permits. */
static void test_check_exact(void) {
    ta_request r[2] = {req(40, 1, 0, 3), req(24, 1, 2, 5)};
    const long long ds[] = {-30, -8, 0, 5, 17, 24, 39, 40, 64};
    for (uint32_t kind = 0; kind < 2; kind++)
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
            for (int swap = 0; swap < 2; swap++) {
                ta_overlap ov = {swap ? 1u : 0u, swap ? 0u : 1u, kind, ds[k]};
                for (size_t a = 0; a <= 72; a += 3)
                    for (size_t b = 0; b <= 72; b += 2) {
                        size_t off[2] = {a, b};
                        bool apart = a + 40 <= b || b + 24 <= a;
                        bool want = apart || rule_permits(r, &ov, 0, (long long)a, 1, (long long)b);
                        ta_status st = check_plan(r, 2, &ov, 1, off, 200);
                        CHECK(st == (want ? TA_OK : TA_E_OVERLAP));
                        CHECK(ta_overlap_permits(r, &ov, swap ? b : a, swap ? a : b) == want);
                    }
            }
        }
    /* lifetimes apart: any bytes */
    ta_request q[2] = {req(40, 1, 0, 1), req(24, 1, 2, 5)};
    ta_overlap ov = {0, 1, TA_OVERLAP_ABOVE, 100};
    size_t off[2] = {0, 0};
    CHECK(check_plan(q, 2, &ov, 1, off, 40) == TA_OK);
}

/* A chain X -> Y -> Z, all live at one step: X and Z are unrelated, so
 * disjoint, and the bound is exactly the chain's union. */
static void test_chain_and_triangle(void) {
    ta_request r[3] = {req(100, 1, 0, 2), req(60, 1, 1, 3), req(80, 1, 2, 4)};
    ta_overlap ov[2] = {{0, 1, TA_OVERLAP_BELOW, 0}, {1, 2, TA_OVERLAP_ABOVE, 10}};
    /* step 2: 100 + 60 + 80 - share(X,Y) 60 - share(Y,Z) 50 = 130 */
    CHECK_EQ_U(bound_of(r, 3, ov, 2), 130);
    CHECK_EQ_U(bound_by_steps(r, 3, ov, 2), 130);
    size_t off[3];
    outcome b = run("best", r, 3, ov, 2, off);
    CHECK(b.st == TA_OK);
    CHECK(b.arena >= 130);
    /* a triangle, each pair in place (d = 0): the bound drops to the largest
     * buffer (100) although X and Z could share at most what both permit */
    ta_overlap tri[3] = {{0, 1, TA_OVERLAP_ABOVE, 0}, {1, 2, TA_OVERLAP_ABOVE, 0}, {0, 2, TA_OVERLAP_ABOVE, 0}};
    CHECK_EQ_U(bound_of(r, 3, tri, 3), 100);
    CHECK_EQ_U(bound_by_steps(r, 3, tri, 3), 100);
    for (size_t s = 0; s < N_ALL; s++) CHECK(run(k_all[s], r, 3, tri, 3, off).st == TA_OK);
    /* the same pair twice: the larger share counts, once */
    ta_overlap twice[2] = {{0, 1, TA_OVERLAP_ABOVE, 30}, {1, 0, TA_OVERLAP_BELOW, 0}};
    CHECK_EQ_U(bound_of(r, 3, twice, 2), bound_by_steps(r, 3, twice, 2));
}

/* A chain of five in-place elementwise ops (each output over its input,
 * equal sizes, ABOVE d = 0): one buffer's worth of bytes for greedy, best,
 * optimal, pingpong (one slot) and linear (each output in place). */
static void test_inplace_chain(void) {
    ta_request r[6];
    ta_overlap ov[5];
    for (int i = 0; i < 6; i++) r[i] = req(1000, 8, i, i + 1);
    for (uint32_t i = 0; i < 5; i++) ov[i] = (ta_overlap){i, i + 1, TA_OVERLAP_ABOVE, 0};
    size_t off[6];
    CHECK_EQ_U(bound_of(r, 6, ov, 5), 1000);
    const char *const one[] = {"pingpong", "linear", "greedy", "best", "optimal"};
    for (size_t s = 0; s < 5; s++) {
        outcome o = run(one[s], r, 6, ov, 5, off);
        CHECK_EQ_U(o.arena, 1000);
    }
    CHECK_EQ_U(run("pingpong", r, 6, NULL, 0, off).arena, 2000);
    CHECK_EQ_U(run("linear", r, 6, NULL, 0, off).arena, 2000);
    /* a relation one way only: the output may not start below its input */
    for (uint32_t i = 0; i < 5; i++) ov[i].d = 8;
    CHECK_EQ_U(run("pingpong", r, 6, ov, 5, off).arena, 2000);
    CHECK(run("best", r, 6, ov, 5, off).arena <= 1040);
}

static void test_bad_relations(void) {
    ta_request r[2] = {req(16, 1, 0, 1), req(16, 1, 1, 2)};
    const ta_overlap bad[] = {
        {0, 2, TA_OVERLAP_ABOVE, 0},
        {1, 1, TA_OVERLAP_ABOVE, 0},
        {0, 1, 7, 0},
        {0, 1, TA_OVERLAP_BELOW, (int64_t)1 << 41},
        {0, 1, TA_OVERLAP_BELOW, -((int64_t)1 << 41)},
    };
    size_t off[2];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (size_t s = 0; s < N_ALL; s++) {
            outcome o = run(k_all[s], r, 2, &bad[k], 1, off);
            CHECK(o.st == TA_E_BAD_REQUEST);
            CHECK(strstr(o.msg, "overlap relation 0") != NULL);
        }
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.n_overlaps = 3; /* with a NULL array: taken as none */
    size_t need = 0;
    const ta_strategy *g = ta_strategy_find("greedy");
    CHECK(ta_plan_scratch_bytes(g, r, 2, &opt, &need) == TA_OK);
    void *scratch = malloc(need);
    ta_plan_result res;
    CHECK(ta_plan_run(g, r, 2, &opt, scratch, need, off, &res, NULL) == TA_OK);
    free(scratch);
    /* fixed buffers a relation lets share bytes do not collide */
    ta_request f[2] = {req(32, 1, 0, 1), req(32, 1, 1, 2)};
    f[0].fixed = 0;
    f[1].fixed = 8;
    ta_overlap ok = {0, 1, TA_OVERLAP_ABOVE, 8};
    for (size_t s = 0; s < N_ALL; s++) {
        outcome o = run(k_all[s], f, 2, &ok, 1, off);
        CHECK(o.st == TA_OK && o.arena == 40);
    }
    CHECK(run("greedy", f, 2, NULL, 0, off).st == TA_E_FIXED_CONFLICT);
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t m) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % m;
}

/* Seeded random lists with relations: chains of ops (each output related to
 * its input, as a kernel would declare), plus random extra pairs. */
static void test_random(void) {
    enum { ROUNDS = 300, MAXN = 40 };
    ta_request r[MAXN];
    ta_overlap ov[2 * MAXN];
    size_t off[MAXN];
    size_t used_rel = 0, tighter = 0, looser = 0;
    for (int round = 0; round < ROUNDS; round++) {
        rng_state = 0x6f7665726c6170ull + (uint64_t)round * 7919u;
        size_t n = 2 + rnd(MAXN - 1);
        int32_t steps = 2 + (int32_t)rnd(30);
        for (size_t i = 0; i < n; i++) {
            int32_t a = (int32_t)rnd((uint32_t)steps), b = a + (int32_t)rnd(4 + (uint32_t)steps / 3);
            size_t size = rnd(4) == 0 ? 0 : 1 + rnd(round % 3 == 0 ? 64 : 4000);
            size_t align = (size_t)1 << rnd(5);
            r[i] = req(size, align, a, b);
        }
        if (round % 5 == 1) { /* one fixed buffer */
            r[0].fixed = (size_t)rnd(8) * 16 * (r[0].align ? r[0].align : 1);
        }
        size_t nr = 0;
        for (size_t i = 0; i + 1 < n && nr < 2 * MAXN; i++) {
            if (rnd(3) == 0) continue;
            uint32_t x = (uint32_t)i, y = (uint32_t)rnd((uint32_t)n);
            if (y == x) continue;
            long long px = (long long)padded(&r[x]);
            long long d = (long long)rnd((uint32_t)(px + 33)) - 16;
            ov[nr++] = (ta_overlap){x, y, rnd(2), d};
        }
        size_t want_bound = bound_by_steps(r, n, ov, nr);
        size_t plain_best = 0;
        for (size_t s = 0; s < N_ALL; s++) {
            outcome o = run(k_all[s], r, n, ov, nr, off);
            if (o.st != TA_OK) {
                fprintf(stderr, "round %d %s: %s (%s)\n", round, k_all[s], ta_status_str(o.st), o.msg);
                CHECK(o.st == TA_OK);
                continue;
            }
            CHECK_EQ_U(o.bound, want_bound);
            CHECK(check_plan(r, n, ov, nr, off, o.arena) == TA_OK);
            if (strcmp(k_all[s], "best") == 0) {
                size_t off2[MAXN];
                plain_best = run("best", r, n, NULL, 0, off2).arena;
                if (o.arena < plain_best) tighter++;
                if (o.arena > plain_best) looser++;
            }
        }
        used_rel += nr;
    }
    CHECK(used_rel > ROUNDS);
    CHECK(tighter > ROUNDS / 20); /* the relations do get used */
    fprintf(stderr, "random: %d rounds, %zu relations; best with them smaller in %zu rounds, larger in %zu\n",
            ROUNDS, used_rel, tighter, looser);
}

/* Long lists where most buffers are live together: the placer's dense path
 * (the offset treap) runs for unrelated buffers beside related ones that
 * overlap their partners. */
static void test_random_dense(void) {
    enum { N = 400, R = 60 };
    static ta_request r[N];
    static ta_overlap ov[R];
    static size_t off[N];
    for (int round = 0; round < 3; round++) {
        rng_state = 0x64656e7365ull + (uint64_t)round;
        for (size_t i = 0; i < N; i++) {
            int32_t a = (int32_t)rnd(6);
            r[i] = req(16 + 16 * rnd(64), 16, a, a + 10 + (int32_t)rnd(10));
        }
        for (size_t k = 0; k < R; k++) {
            uint32_t x = (uint32_t)rnd(N), y = (uint32_t)rnd(N);
            if (y == x) y = (x + 1) % N;
            ov[k] = (ta_overlap){x, y, rnd(2), (long long)rnd(512) - 64};
        }
        size_t want = bound_by_steps(r, N, ov, R);
        for (size_t s = 3; s < N_ALL; s++) {
            outcome o = run(k_all[s], r, N, ov, R, off);
            CHECK(o.st == TA_OK);
            CHECK_EQ_U(o.bound, want);
        }
    }
}

int main(void) {
    test_conv1x1_golden();
    test_check_exact();
    test_chain_and_triangle();
    test_inplace_chain();
    test_bad_relations();
    test_random();
    test_random_dense();
    return ta_test_finish("test_overlap");
}
