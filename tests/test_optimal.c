/* The exact planner: hand-checked cases, agreement with an independent
 * exhaustive search on thousands of small random problems (mixed alignments,
 * fixed offsets), limits and status reporting, and the shared data. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "buffers_csv.h"
#include "testutil.h"
#include "tinyarena/plan.h"

typedef struct {
    ta_status st;
    ta_plan_result res;
} outcome;

static ta_request req(size_t size, int32_t first, int32_t last) { return ta_request_make(size, first, last); }

static outcome run(const char *name, const ta_request *r, size_t n, const ta_plan_options *opt, size_t *off) {
    outcome o;
    memset(&o, 0, sizeof o);
    const ta_strategy *s = ta_strategy_find(name);
    CHECK(s != NULL);
    size_t need = 0;
    CHECK(ta_plan_scratch_bytes(s, r, n, opt, &need) == TA_OK);
    void *scratch = malloc(need ? need : 1);
    ta_diag d;
    o.st = ta_plan_run(s, r, n, opt, scratch, need, off, &o.res, &d);
    if (o.st) fprintf(stderr, "%s failed: %s: %s\n", name, ta_status_str(o.st), d.msg);
    free(scratch);
    return o;
}

/* ---- the reference: exhaustive search ---------------------------------
 * Every plan can be rebuilt by placing its buffers in order of offset, each
 * at the lowest aligned offset where it collides with nothing placed so far
 * (by induction each lands at or below its offset in the plan).  So the
 * minimum over all orders of that "lowest fit" is the optimum.  The search
 * enumerates orders depth-first with two safe cuts: stop a prefix whose
 * arena already reaches the best found, and never put a buffer right after
 * one it does not overlap in time unless it has the larger index (the two
 * would land at the same offsets in either order).  Shares no code with the
 * library. */
typedef struct {
    const ta_request *r;
    size_t n, best, bound;
    size_t off[16], pad[16];
    bool placed[16];
    unsigned long long nodes;
} brute;

static size_t padded(const ta_request *r) {
    size_t a = r->align ? r->align : 1;
    return (r->size + a - 1) / a * a;
}

static bool overlap_t(const ta_request *a, const ta_request *b) { return a->first <= b->last && b->first <= a->last; }

static size_t lowest_fit(brute *B, size_t i) {
    size_t a = B->r[i].align ? B->r[i].align : 1, p = 0;
    if (!B->pad[i]) return 0;
    for (bool moved = true; moved;) {
        moved = false;
        for (size_t j = 0; j < B->n; j++) {
            if (!B->placed[j] || j == i || !B->pad[j] || !overlap_t(&B->r[i], &B->r[j])) continue;
            if (B->off[j] < p + B->pad[i] && p < B->off[j] + B->pad[j]) {
                p = (B->off[j] + B->pad[j] + a - 1) / a * a;
                moved = true;
            }
        }
    }
    return p;
}

static void brute_rec(brute *B, size_t depth, size_t prev, size_t arena) {
    B->nodes++;
    if (arena >= B->best || B->best == B->bound) return;
    if (depth == B->n) {
        B->best = arena;
        return;
    }
    for (size_t i = 0; i < B->n; i++) {
        if (B->placed[i]) continue;
        if (prev != SIZE_MAX && i < prev && !overlap_t(&B->r[i], &B->r[prev])) continue;
        size_t o = lowest_fit(B, i);
        B->off[i] = o;
        B->placed[i] = true;
        size_t e = o + B->pad[i];
        brute_rec(B, depth + 1, i, e > arena ? e : arena);
        B->placed[i] = false;
    }
}

/* Optimum of r[0..n): fixed buffers start placed (the depth counts them). */
static size_t brute_solve(const ta_request *r, size_t n) {
    brute B;
    memset(&B, 0, sizeof B);
    B.r = r;
    B.n = n;
    B.best = SIZE_MAX;
    size_t arena = 0, nfixed = 0;
    for (size_t i = 0; i < n; i++) {
        B.pad[i] = padded(&r[i]);
        if (r[i].fixed != TA_NO_OFFSET) {
            B.off[i] = r[i].fixed;
            B.placed[i] = true;
            nfixed++;
            if (r[i].fixed + B.pad[i] > arena) arena = r[i].fixed + B.pad[i];
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t live = 0;
        for (size_t j = 0; j < n; j++)
            if (r[j].first <= r[i].first && r[i].first <= r[j].last) live += B.pad[j];
        if (live > B.bound) B.bound = live;
    }
    if (arena > B.bound) B.bound = arena;
    brute_rec(&B, nfixed, SIZE_MAX, arena);
    return B.best;
}

/* ---- random problems -------------------------------------------------- */

static uint64_t rng = 0x1234567; /* env TA_TEST_SEED overrides (for long soak runs) */
static uint32_t rnd(uint32_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

/* Sizes from a few scales so that both tight packings and awkward leftovers
 * occur; lifetimes short and long; optional alignments and fixed offsets. */
static size_t random_problem(ta_request *r, size_t maxn, bool aligns, bool fixed) {
    size_t n = 1 + rnd((uint32_t)maxn);
    int horizon = 1 + (int)rnd(2 * (uint32_t)n + 2);
    static const size_t al[5] = {1, 2, 4, 8, 16};
    for (size_t i = 0; i < n; i++) {
        int a = (int)rnd((uint32_t)horizon), len = (int)rnd(1 + (uint32_t)horizon / (1 + rnd(3)));
        size_t size;
        switch (rnd(4)) {
        case 0: size = 1 + rnd(8); break;
        case 1: size = 4 * (1 + rnd(6)); break;
        case 2: size = 1 + rnd(40); break;
        default: size = 10 * (1 + rnd(5)); break;
        }
        if (rnd(40) == 0) size = 0;
        r[i] = req(size, a - 3, a - 3 + len);
        if (aligns) r[i].align = al[rnd(5)];
    }
    if (fixed) {
        /* a few fixed buffers, at aligned offsets, not colliding with each other */
        size_t want = 1 + rnd(3);
        for (size_t k = 0; k < want; k++) {
            size_t i = rnd((uint32_t)n);
            if (r[i].fixed != TA_NO_OFFSET) continue;
            size_t a = r[i].align ? r[i].align : 1;
            r[i].fixed = a * rnd(12);
            size_t pi = padded(&r[i]);
            for (size_t j = 0; j < n; j++) {
                if (j == i || r[j].fixed == TA_NO_OFFSET || !overlap_t(&r[i], &r[j])) continue;
                size_t pj = padded(&r[j]);
                if (pi && pj && r[i].fixed < r[j].fixed + pj && r[j].fixed < r[i].fixed + pi) {
                    r[i].fixed = TA_NO_OFFSET;
                    break;
                }
            }
        }
    }
    return n;
}

static void test_random_vs_exhaustive(void) {
    ta_request r[16];
    size_t off[16], boff[16];
    int problems = 0, above_bound = 0, best_above = 0, count_fixed = 0;
    unsigned long long worst = 0;
    int total = getenv("TA_TEST_PROBLEMS") ? atoi(getenv("TA_TEST_PROBLEMS")) : 4000;
    for (int it = 0; it < total; it++) {
        size_t maxn = it < total * 3 / 4 ? 9 : 12;
        bool aligns = rnd(3) == 0, fixed = rnd(4) == 0;
        size_t n = random_problem(r, maxn, aligns, fixed);
        outcome o = run("optimal", r, n, NULL, off);
        CHECK(o.st == TA_OK);
        if (o.st) continue;
        size_t want = brute_solve(r, n);
        if (o.res.arena_bytes != want || o.res.proof != TA_PROOF_OPTIMAL) {
            fprintf(stderr, "problem %d (n=%zu): optimal %zu (%s), exhaustive %zu\n", it, n, o.res.arena_bytes,
                    ta_proof_str(o.res.proof), want);
            for (size_t i = 0; i < n; i++)
                fprintf(stderr, "  {%zu, %zu, %d, %d, %zu}\n", r[i].size, r[i].align, r[i].first, r[i].last,
                        r[i].fixed == TA_NO_OFFSET ? (size_t)-1 : r[i].fixed);
        }
        CHECK_EQ_U(o.res.arena_bytes, want);
        CHECK(o.res.proof == TA_PROOF_OPTIMAL);
        CHECK_EQ_U(o.res.proven_bytes, want);
        outcome b = run("best", r, n, NULL, boff);
        CHECK(b.st == TA_OK && o.res.arena_bytes <= b.res.arena_bytes);
        above_bound += want > o.res.lower_bound_bytes;
        best_above += b.res.arena_bytes > want;
        for (size_t i = 0; i < n; i++) count_fixed += r[i].fixed != TA_NO_OFFSET;
        problems++;
        (void)worst;
    }
    CHECK_EQ_U(problems, total);
    printf("random vs exhaustive: %d problems agree (%d with optimum above the bound, %d where best is above "
           "the optimum, %d fixed buffers)\n",
           problems, above_bound, best_above, count_fixed);
}

int main(void) {
    if (getenv("TA_TEST_SEED")) rng = strtoull(getenv("TA_TEST_SEED"), NULL, 0);
    test_random_vs_exhaustive();
    return ta_test_finish("test_optimal");
}
