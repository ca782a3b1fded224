/* Planning core: golden cases, TFLM's published cases, seeded random
 * property tests (every plan validated), and bad input. */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "testutil.h"
#include "tinyarena/plan.h"

typedef struct {
    size_t arena, bound;
    ta_status st;
} outcome;

/* Plans with strategy `name`; the core itself validates, and we validate
 * again here with an independent pairwise check. */
static outcome plan_with(const char *name, const ta_request *r, size_t n, size_t *off) {
    outcome o = {0, 0, TA_OK};
    const ta_strategy *s = ta_strategy_find(name);
    CHECK(s != NULL);
    size_t need = 0;
    CHECK(ta_plan_scratch_bytes(s, r, n, NULL, &need) == TA_OK);
    void *scratch = malloc(need);
    ta_plan_result res;
    ta_diag d;
    o.st = ta_plan_run(s, r, n, NULL, scratch, need, off, &res, &d);
    if (o.st == TA_OK) {
        o.arena = res.arena_bytes;
        o.bound = res.lower_bound_bytes;
        /* independent O(n^2) check */
        for (size_t i = 0; i < n; i++) {
            size_t a = r[i].align ? r[i].align : 1;
            size_t pi = ta_request_padded(&r[i]);
            CHECK(off[i] % a == 0);
            CHECK(off[i] + pi <= o.arena);
            if (r[i].fixed != TA_NO_OFFSET) CHECK(off[i] == r[i].fixed);
            for (size_t j = i + 1; j < n; j++) {
                size_t pj = ta_request_padded(&r[j]);
                if (!pi || !pj || !ta_request_overlap_time(&r[i], &r[j])) continue;
                bool apart = off[i] + pi <= off[j] || off[j] + pj <= off[i];
                if (!apart) {
                    fprintf(stderr, "%s: buffers %zu and %zu overlap\n", name, i, j);
                    CHECK(apart);
                }
            }
        }
    } else {
        fprintf(stderr, "%s failed: %s: %s\n", name, ta_status_str(o.st), d.msg);
    }
    free(scratch);
    return o;
}

static ta_request req(size_t size, int32_t first, int32_t last) { return ta_request_make(size, first, last); }

static void test_design_notes_chain(void) {
    const size_t K = 1024;
    ta_request r[4] = {req(120 * K, 0, 1), req(120 * K, 1, 2), req(80 * K, 2, 3), req(20 * K, 3, 4)};
    size_t off[4];
    outcome g = plan_with("greedy", r, 4, off);
    CHECK_EQ_U(g.arena, 240 * K);
    CHECK_EQ_U(g.bound, 240 * K);
    CHECK_EQ_U(off[0], 120 * K);
    CHECK_EQ_U(off[1], 0);
    CHECK_EQ_U(off[2], 120 * K);
    CHECK_EQ_U(off[3], 0);
    CHECK_EQ_U(plan_with("naive", r, 4, off).arena, 340 * K);
    outcome p = plan_with("pingpong", r, 4, off);
    CHECK_EQ_U(p.arena, 240 * K);
    CHECK(off[0] == off[2] && off[1] == off[3] && off[0] != off[1]); /* two slots */
    CHECK_EQ_U(plan_with("linear", r, 4, off).arena, 240 * K);
    CHECK_EQ_U(plan_with("best", r, 4, off).arena, 240 * K);
}

static void test_pingpong_chain_two_slots(void) {
    /* a pure chain of 50 tensors of varying size: exactly two slots */
    ta_request r[50];
    for (int i = 0; i < 50; i++) r[i] = req((size_t)(100 + (i * 37) % 900), i, i + 1);
    size_t off[50];
    plan_with("pingpong", r, 50, off);
    size_t distinct[3];
    int nd = 0;
    for (int i = 0; i < 50; i++) {
        bool seen = false;
        for (int k = 0; k < nd; k++) seen |= distinct[k] == off[i];
        if (!seen && nd < 3) distinct[nd++] = off[i];
    }
    CHECK(nd == 2);
}

static void test_tflm_cases(void) {
    /* TestGreedyBasics */
    ta_request a[2] = {req(10, 0, 1), req(20, 2, 3)};
    size_t off[30];
    outcome o = plan_with("greedy", a, 2, off);
    CHECK_EQ_U(o.arena, 20);
    CHECK(off[0] == 0 && off[1] == 0);
    /* TestGreedyMedium: offsets 50, 70, 40, 0, 0; arena 90 */
    ta_request m[5] = {req(10, 0, 1), req(20, 1, 2), req(30, 2, 3), req(40, 3, 4), req(50, 0, 1)};
    o = plan_with("greedy", m, 5, off);
    CHECK_EQ_U(o.arena, 90);
    size_t want[5] = {50, 70, 40, 0, 0};
    for (int i = 0; i < 5; i++) CHECK_EQ_U(off[i], want[i]);
    /* TestOverlapCase: 120 */
    ta_request c[3] = {req(100, 0, 1), req(50, 2, 3), req(20, 1, 2)};
    CHECK_EQ_U(plan_with("greedy", c, 3, off).arena, 120);
    /* TestPersonDetectionModel (TFLM's inclusive [first,last]) */
    static const int pd[30][3] = {
        {9216, 0, 29}, {3, 28, 29},      {256, 27, 28},  {2304, 26, 27}, {2304, 25, 26},
        {2304, 24, 25}, {1152, 23, 24},  {4608, 22, 23}, {4608, 21, 22}, {4608, 20, 21},
        {4608, 19, 20}, {4608, 18, 19},  {4608, 17, 18}, {4608, 16, 17}, {4608, 15, 16},
        {4608, 14, 15}, {4608, 13, 14},  {4608, 12, 13}, {2304, 11, 12}, {9216, 10, 11},
        {9216, 9, 10},  {9216, 8, 9},    {4608, 7, 8},   {18432, 6, 7},  {18432, 5, 6},
        {18432, 4, 5},  {9216, 3, 4},    {36864, 2, 3},  {18432, 1, 2},  {18432, 0, 1}};
    ta_request p[30];
    size_t sum = 0;
    for (int i = 0; i < 30; i++) {
        p[i] = req((size_t)pd[i][0], pd[i][1], pd[i][2]);
        sum += (size_t)pd[i][0];
    }
    CHECK_EQ_U(sum, 241027);
    o = plan_with("greedy", p, 30, off);
    CHECK_EQ_U(o.arena, 64512);
    CHECK_EQ_U(o.bound, 64512);
}

/* The TFLM algorithm written the slow, literal way (an offset-sorted list
 * walked from the start for every buffer), to prove the fast greedy gives
 * the same offsets byte for byte. */
static void tflm_reference(const ta_request *r, size_t n, size_t *off) {
    int *ids = malloc(n * sizeof *ids), *sorted = malloc(n * sizeof *sorted);
    size_t nf = 0, nt = n;
    for (size_t i = 0; i < n; i++) {
        if (r[i].fixed != TA_NO_OFFSET) ids[nf++] = (int)i;
        else ids[--nt] = (int)i;
    }
    /* bubble sort descending by size over the online tail, like TFLM */
    bool swapped;
    do {
        swapped = false;
        for (size_t i = nf + 1; i < n; i++) {
            if (ta_request_padded(&r[ids[i - 1]]) < ta_request_padded(&r[ids[i]])) {
                int t = ids[i];
                ids[i] = ids[i - 1];
                ids[i - 1] = t;
                swapped = true;
            }
        }
    } while (swapped);
    size_t placed = 0;
    for (size_t k = 0; k < n; k++) {
        int id = ids[k];
        size_t cand = 0;
        if (r[id].fixed != TA_NO_OFFSET) {
            cand = r[id].fixed;
        } else if (ta_request_padded(&r[id])) {
            size_t sz = ta_request_padded(&r[id]);
            for (size_t q = 0; q < placed; q++) {
                int e = sorted[q];
                if (!ta_request_overlap_time(&r[e], &r[id])) continue;
                if (off[e] >= cand && off[e] - cand >= sz) break;
                if (off[e] + ta_request_padded(&r[e]) > cand) cand = off[e] + ta_request_padded(&r[e]);
            }
        }
        off[id] = cand;
        size_t pos = placed; /* insert after all entries with offset <= cand */
        while (pos > 0 && off[sorted[pos - 1]] > cand) pos--;
        memmove(&sorted[pos + 1], &sorted[pos], (placed - pos) * sizeof *sorted);
        sorted[pos] = id;
        placed++;
    }
    free(ids);
    free(sorted);
}

static uint64_t rng_state = 12345;
static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng_state >> 33) % n);
}

static void random_problem(ta_request *r, size_t n, size_t align, bool fixed_too) {
    int horizon = 2 + (int)rnd(3 * (uint32_t)n + 2);
    for (size_t i = 0; i < n; i++) {
        int a = (int)rnd((uint32_t)horizon), len = (int)rnd(1 + (uint32_t)horizon / (1 + rnd(4)));
        size_t size = rnd(4) == 0 ? 1 + rnd(4000) : 1 + rnd(300);
        if (rnd(50) == 0) size = 0;
        r[i] = req(size, a, a + len);
        r[i].align = align;
    }
    if (fixed_too && n > 2) { /* one fixed buffer, aligned, kept clear of nothing else fixed */
        r[0].fixed = align * rnd(100);
    }
}

static void test_random_properties(void) {
    const char *names[] = {"naive", "pingpong", "linear", "greedy", "best"};
    size_t off[5][64], ref[64];
    ta_request r[64];
    int problems = 0;
    for (int it = 0; it < 10000; it++) {
        size_t n = 1 + rnd(it < 9000 ? 24 : 64);
        static const size_t aligns[4] = {1, 4, 16, 64};
        random_problem(r, n, aligns[rnd(4)], rnd(5) == 0);
        outcome o[5];
        for (int s = 0; s < 5; s++) o[s] = plan_with(names[s], r, n, off[s]);
        for (int s = 0; s < 5; s++) {
            CHECK(o[s].st == TA_OK);
            CHECK(o[s].bound <= o[s].arena);
        }
        /* lower bound <= best <= greedy; lower bound <= linear <= naive */
        CHECK(o[4].arena <= o[3].arena);
        CHECK(o[2].arena <= o[0].arena);
        CHECK(o[1].arena <= o[0].arena);
        /* fast greedy == literal TFLM algorithm, offset for offset */
        tflm_reference(r, n, ref);
        bool same = true;
        for (size_t i = 0; i < n; i++) same &= ref[i] == off[3][i];
        CHECK(same);
        problems++;
    }
    CHECK_EQ_U(problems, 10000);
    printf("random properties: %d problems x 5 strategies validated\n", problems);
}

static void test_mixed_alignment(void) {
    /* Mixed alignments in one problem: every plan valid and >= bound.  (linear
     * may exceed naive here: growing the arena can cost alignment padding
     * that naive avoids by ordering slots by alignment.) */
    const char *names[] = {"naive", "pingpong", "linear", "greedy", "best"};
    size_t off[40];
    ta_request r[40];
    static const size_t aligns[5] = {1, 2, 8, 16, 128};
    for (int it = 0; it < 500; it++) {
        size_t n = 1 + rnd(40);
        random_problem(r, n, 1, false);
        for (size_t i = 0; i < n; i++) r[i].align = aligns[rnd(5)];
        for (int s = 0; s < 5; s++) {
            outcome o = plan_with(names[s], r, n, off);
            CHECK(o.st == TA_OK && o.bound <= o.arena);
        }
    }
}

static void test_bad_input(void) {
    const ta_strategy *g = ta_strategy_find("greedy");
    CHECK(ta_strategy_find("nope") == NULL);
    ta_request r[2] = {req(10, 3, 1), req(10, 0, 1)};
    size_t off[2], need = 0;
    ta_plan_result res;
    ta_diag d;
    CHECK(ta_plan_scratch_bytes(g, r, 2, NULL, &need) == TA_OK);
    unsigned char *scratch = malloc(need);
    CHECK(ta_plan_run(g, r, 2, NULL, scratch, need, off, &res, &d) == TA_E_BAD_REQUEST);
    CHECK(strstr(d.msg, "buffer 0") != NULL);
    r[0] = req(10, 0, 1);
    r[0].align = 12;
    CHECK(ta_plan_run(g, r, 2, NULL, scratch, need, off, &res, &d) == TA_E_BAD_REQUEST);
    CHECK(strstr(d.msg, "power of two") != NULL);
    /* colliding fixed offsets */
    r[0] = req(10, 0, 1);
    r[0].fixed = 0;
    r[1] = req(10, 1, 2);
    r[1].fixed = 8;
    CHECK(ta_plan_run(g, r, 2, NULL, scratch, need, off, &res, &d) == TA_E_FIXED_CONFLICT);
    CHECK(strstr(d.msg, "buffers 0 and 1") != NULL);
    /* ... accepted on request, and counted */
    ta_plan_options opt = {0};
    opt.flags = TA_PLAN_ALLOW_FIXED_CONFLICT;
    CHECK(ta_plan_run(g, r, 2, &opt, scratch, need, off, &res, &d) == TA_OK);
    CHECK_EQ_U(res.fixed_conflicts, 1);
    /* misaligned fixed offset */
    r[1].fixed = 3;
    r[1].align = 4;
    CHECK(ta_plan_run(g, r, 2, NULL, scratch, need, off, &res, &d) == TA_E_BAD_REQUEST);
    /* too little scratch: a status, not a crash, for every strategy */
    size_t count;
    const ta_strategy *const *all = ta_strategy_list(&count);
    ta_request big[100];
    size_t boff[100];
    for (int i = 0; i < 100; i++) big[i] = req((size_t)(i + 1) * 16, i, i + 3);
    for (size_t s = 0; s < count; s++) {
        size_t need2 = 0;
        CHECK(ta_plan_scratch_bytes(all[s], big, 100, NULL, &need2) == TA_OK);
        unsigned char *sc = malloc(need2);
        CHECK(ta_plan_run(all[s], big, 100, NULL, sc, need2 - 1, boff, &res, &d) == TA_E_NO_MEMORY);
        CHECK(ta_plan_run(all[s], big, 100, NULL, NULL, 0, boff, &res, &d) == TA_E_NO_MEMORY);
        CHECK(ta_plan_run(all[s], big, 100, NULL, sc, need2, boff, &res, &d) == TA_OK);
        free(sc);
    }
    /* validator catches each kind of bad plan */
    ta_request v[2] = {req(16, 0, 2), req(16, 1, 3)};
    v[0].align = 16;
    size_t voff[2] = {0, 8};
    size_t cneed = ta_plan_check_scratch_bytes(2);
    unsigned char *cs = malloc(cneed);
    CHECK(ta_plan_check(v, 2, voff, 64, 0, cs, cneed, &d) == TA_E_OVERLAP);
    voff[1] = 16;
    CHECK(ta_plan_check(v, 2, voff, 64, 0, cs, cneed, &d) == TA_OK);
    CHECK(ta_plan_check(v, 2, voff, 31, 0, cs, cneed, &d) == TA_E_OUT_OF_ARENA);
    voff[0] = 8;
    voff[1] = 32;
    CHECK(ta_plan_check(v, 2, voff, 64, 0, cs, cneed, &d) == TA_E_MISALIGNED);
    v[0].fixed = 16;
    voff[0] = 0;
    CHECK(ta_plan_check(v, 2, voff, 64, 0, cs, cneed, &d) == TA_E_FIXED_MOVED);
    CHECK(ta_plan_check(v, 2, voff, 64, 0, cs, cneed - 1, &d) == TA_E_NO_MEMORY);
    free(cs);
    free(scratch);
}

static void test_bound(void) {
    ta_request r[3] = {req(100, 0, 5), req(50, 2, 3), req(70, 4, 9)};
    size_t need = ta_plan_bound_scratch_bytes(3), b = 0;
    void *s = malloc(need);
    int32_t peak = -1;
    CHECK(ta_plan_bound(r, 3, s, need, &b, &peak) == TA_OK);
    CHECK_EQ_U(b, 170);
    CHECK(peak == 4);
    r[2].align = 64; /* padded to 128 */
    CHECK(ta_plan_bound(r, 3, s, need, &b, &peak) == TA_OK);
    CHECK_EQ_U(b, 228);
    free(s);
    CHECK(ta_plan_bound(NULL, 0, NULL, ta_plan_bound_scratch_bytes(0), &b, NULL) == TA_OK);
    CHECK_EQ_U(b, 0);
}

/* Status text for every code, and for values outside the enum -- also where
 * enums are short and unsigned (arm-none-eabi's default, -fshort-enums). */
static void test_status_text(void) {
    CHECK(strcmp(ta_status_str(TA_OK), "ok") == 0);
    CHECK(strcmp(ta_status_str(TA_E_IO), "i/o error") == 0);
    CHECK(strcmp(ta_status_str(TA_E_OUT_OF_RANGE), "value out of range") == 0);
    for (int s = 0; s < (int)TA_STATUS_COUNT; s++) CHECK(strcmp(ta_status_str((ta_status)s), "unknown status") != 0);
    CHECK(strcmp(ta_status_str(TA_STATUS_COUNT), "unknown status") == 0);
    CHECK(strcmp(ta_status_str((ta_status)200), "unknown status") == 0);
    CHECK(strcmp(ta_status_str((ta_status)-1), "unknown status") == 0);
}

/* The placer's two gap scans (sorted hits, and the offset-treap walk it
 * uses for dense queries) must give the same offset for every buffer, for
 * both fits, on sparse and dense lists with zero sizes, mixed alignments and
 * fixed buffers. */
static void test_placer_walk_matches_sort(void) {
    enum { N = 300 };
    static ta_request r[N];
    static size_t off_a[N], off_b[N];
    static uint32_t order[N];
    uint64_t rng = 0x5eed;
    int runs = 0, mismatches = 0;
    for (int it = 0; it < 300; it++) {
        size_t n = 1 + (size_t)(ta__rng_next(&rng) % N);
        int32_t span = 1 + (int32_t)(ta__rng_next(&rng) % (it % 3 == 0 ? 4 : it % 3 == 1 ? 40 : 400));
        for (size_t i = 0; i < n; i++) {
            int32_t f = (int32_t)(ta__rng_next(&rng) % (uint64_t)span);
            int32_t l = f + (int32_t)(ta__rng_next(&rng) % (uint64_t)span);
            size_t size = ta__rng_next(&rng) % 7 == 0 ? 0 : 1 + ta__rng_next(&rng) % 5000;
            r[i] = ta_request_make(size, f, l);
            static const size_t al[4] = {1, 4, 16, 64};
            r[i].align = al[ta__rng_next(&rng) % 4];
        }
        /* a few fixed buffers far apart so they cannot collide */
        for (size_t i = 0; i < n && it % 4 == 0; i += 37) r[i].fixed = (size_t)1 << (20 + i / 37);
        for (int fit = 0; fit < 2; fit++) {
            ta__placer pa, pb;
            ta__bump ba, bb;
            ta__bump_init(&ba, NULL, 0);
            ta__placer_carve(&pa, &ba, n);
            size_t need = ta__bump_need(&ba);
            if (need == SIZE_MAX) need = 1;
            void *ma = malloc(need), *mb = malloc(need);
            ta__bump_init_aligned(&ba, ma, need);
            ta__bump_init_aligned(&bb, mb, need);
            ta__placer_carve(&pa, &ba, n);
            ta__placer_carve(&pb, &bb, n);
            CHECK(!ba.fail && !bb.fail);
            ta__placer_init(&pa, r, n, off_a);
            ta__placer_init(&pb, r, n, off_b);
            pa.walk = 1;
            pb.walk = 2;
            ta__iota(order, n);
            for (size_t i = n; i > 1; i--) { /* shuffle, fixed ones first */
                size_t j = (size_t)(ta__rng_next(&rng) % i);
                uint32_t t = order[i - 1];
                order[i - 1] = order[j];
                order[j] = t;
            }
            size_t nf = 0;
            for (size_t i = 0; i < n; i++)
                if (r[order[i]].fixed != TA_NO_OFFSET) {
                    uint32_t t = order[nf];
                    order[nf++] = order[i];
                    order[i] = t;
                }
            size_t aa = ta__placer_run(&pa, order, n, (ta__fit)fit);
            size_t ab = ta__placer_run(&pb, order, n, (ta__fit)fit);
            CHECK_EQ_U(aa, ab);
            for (size_t i = 0; i < n; i++) mismatches += off_a[i] != off_b[i];
            free(ma);
            free(mb);
            runs++;
        }
    }
    CHECK_EQ_U(mismatches, 0);
    printf("placer: treap walk == sorted scan on %d runs\n", runs);
}

/* The hard caps: more than 2^24 buffers, a buffer or an arena above 2^40
 * bytes get TA_E_OVERFLOW and one line, before any work. */
static void test_caps(void) {
    ta_request one = req(16, 0, 1);
    ta_diag d;
    size_t need = 0;
    const ta_strategy *g = ta_strategy_find("greedy");
    CHECK(ta_plan_scratch_bytes(g, &one, (size_t)TA_PLAN_MAX_BUFFERS + 1, NULL, &need) == TA_E_OVERFLOW);
    CHECK(ta_plan_requests_check(&one, (size_t)TA_PLAN_MAX_BUFFERS + 1, 0, NULL, 0, NULL, &d) == TA_E_OVERFLOW);
    CHECK(strstr(d.msg, "16777217 buffers: more than 16777216") != NULL);
    if (sizeof(size_t) < 8) return;
    const size_t cap = (size_t)TA_PLAN_MAX_ARENA;
    ta_request r[2] = {req(cap + 1, 0, 1), req(16, 0, 1)};
    size_t off[2];
    const char *names[] = {"naive", "greedy", "best", "optimal"};
    for (int k = 0; k < 4; k++) {
        const ta_strategy *s = ta_strategy_find(names[k]);
        CHECK(ta_plan_scratch_bytes(s, r, 2, NULL, &need) == TA_OK);
        void *scr = malloc(need);
        ta_plan_result res;
        CHECK(ta_plan_run(s, r, 2, NULL, scr, need, off, &res, &d) == TA_E_OVERFLOW);
        CHECK(strstr(d.msg, "buffer 0: 1099511627777 bytes (aligned to 1) is above the 2^40-byte cap") != NULL);
        /* each buffer fits, but together, live at once, they do not */
        ta_request two[2] = {req(cap / 2 + 16, 0, 1), req(cap / 2 + 16, 1, 2)};
        CHECK(ta_plan_run(s, two, 2, NULL, scr, need, off, &res, &d) == TA_E_OVERFLOW);
        CHECK(strstr(d.msg, "the arena of 1099511627808 bytes is above the 2^40-byte cap") != NULL);
        /* exactly at the cap is fine */
        ta_request at[1] = {req(cap, 0, 1)};
        CHECK(ta_plan_run(s, at, 1, NULL, scr, need, off, &res, &d) == TA_OK && res.arena_bytes == cap);
        free(scr);
    }
    /* a fixed buffer ending past the cap */
    ta_request fx = req(32, 0, 1);
    fx.fixed = cap - 16;
    CHECK(ta_plan_requests_check(&fx, 1, 0, NULL, 0, NULL, &d) == TA_E_OVERFLOW);
}

/* Long lists take the radix path of TFLM's order: greedy must still match
 * the literal TFLM algorithm offset for offset (many equal sizes, a few
 * fixed buffers, sizes across several bytes of the key). */
static void test_greedy_long_lists(void) {
    enum { N = 1500 };
    static ta_request r[N];
    static size_t off[N], ref[N];
    uint64_t s = 0x10a9;
    for (int it = 0; it < 6; it++) {
        size_t n = 512 + (size_t)(ta__rng_next(&s) % (N - 512));
        for (size_t i = 0; i < n; i++) {
            int32_t f = (int32_t)(ta__rng_next(&s) % 300);
            size_t size = it % 2 ? 16 * (1 + ta__rng_next(&s) % 8) : 1 + ta__rng_next(&s) % (it < 3 ? 70000 : 5000000);
            r[i] = req(size, f, f + (int32_t)(ta__rng_next(&s) % 20));
            if (it == 5 && i % 200 == 7) r[i].fixed = ((size_t)1 << 30) + ((size_t)i << 22);
        }
        outcome o = plan_with("greedy", r, n, off);
        CHECK(o.st == TA_OK);
        tflm_reference(r, n, ref);
        size_t diff = 0;
        for (size_t i = 0; i < n; i++) diff += ref[i] != off[i];
        CHECK_EQ_U(diff, 0);
    }
}

int main(void) {
    test_status_text();
    test_greedy_long_lists();
    test_caps();
    test_placer_walk_matches_sort();
    test_design_notes_chain();
    test_pingpong_chain_two_slots();
    test_tflm_cases();
    test_bound();
    test_bad_input();
    test_mixed_alignment();
    test_random_properties();
    return ta_test_finish("test_plan");
}
