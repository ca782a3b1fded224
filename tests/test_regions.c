/* Planning across regions (regions.h): seeded random problems with 2-4
 * regions under every strategy -- every plan validated by the core and
 * again here pair by pair, pins and capacities kept, costs never below
 * the bound --, the one-line overflow message, and bad input. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/regions.h"

static uint64_t rng = 0x5eed1234abcdull;
static uint32_t rnd(uint32_t m) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % m;
}

/* Independent O(n^2) check of one plan across regions. */
static void check_plan(const ta_request *r, size_t n, const ta_region_problem *p, const uint32_t *reg, const size_t *off,
                       const ta_region_result *res) {
    uint64_t cost = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(reg[i] < p->n_regions);
        if (p->pin && p->pin[i] != TA_REGION_ANY) CHECK_EQ_U(reg[i], p->pin[i]);
        size_t a = r[i].align ? r[i].align : 1, pi = ta_request_padded(&r[i]);
        CHECK(off[i] % a == 0);
        CHECK(off[i] + pi <= p->regions[reg[i]].capacity);
        CHECK(off[i] + pi <= res->used_bytes[reg[i]] || pi == 0);
        cost += (p->weight ? p->weight[i] : pi) * p->regions[reg[i]].cost;
        for (size_t j = i + 1; j < n; j++) {
            size_t pj = ta_request_padded(&r[j]);
            if (reg[i] != reg[j] || !pi || !pj || !ta_request_overlap_time(&r[i], &r[j])) continue;
            CHECK(off[i] + pi <= off[j] || off[j] + pj <= off[i]);
        }
    }
    CHECK_EQ_U(cost, res->cost);
    CHECK(res->cost_bound <= res->cost);
    for (size_t k = 0; k < p->n_regions; k++) {
        CHECK(res->used_bytes[k] <= p->regions[k].capacity);
        CHECK(res->lower_bound_bytes[k] <= res->used_bytes[k]);
    }
}

static ta_status run(const char *name, const ta_request *r, size_t n, const ta_region_problem *p, uint32_t *reg,
                     size_t *off, ta_region_result *res, ta_diag *d) {
    const ta_strategy *s = ta_strategy_find(name);
    size_t need = 0;
    CHECK(ta_regions_scratch_bytes(s, r, n, p, NULL, &need) == TA_OK);
    void *scratch = malloc(need);
    ta_status st = ta_regions_plan(s, r, n, p, NULL, scratch, need, reg, off, res, d);
    if (st == TA_OK) {
        size_t cn = ta_regions_check_scratch_bytes(n, 0);
        void *cs = malloc(cn);
        CHECK(ta_regions_check(r, n, p, NULL, reg, off, cs, cn, d) == TA_OK);
        free(cs);
    }
    free(scratch);
    return st;
}

static void random_problems(void) {
    const char *names[] = {"naive", "pingpong", "linear", "greedy", "best", "optimal"};
    enum { N = 40 };
    ta_request r[N];
    uint32_t pin[N], reg[N];
    uint64_t w[N];
    size_t off[N];
    int fitted = 0, proven = 0;
    for (int iter = 0; iter < 60; iter++) {
        size_t n = 4 + rnd(N - 4), total = 0;
        for (size_t i = 0; i < n; i++) {
            int32_t f = (int32_t)rnd(30);
            r[i] = ta_request_make(rnd(4) == 0 ? 0 : 16 + rnd(2000), f, f + (int32_t)rnd(8));
            r[i].align = (size_t)1 << rnd(5);
            total += ta_request_padded(&r[i]);
            w[i] = ta_request_padded(&r[i]) * (1 + rnd(6));
            pin[i] = TA_REGION_ANY;
        }
        ta_region regs[4];
        size_t R = 2 + rnd(3);
        for (size_t k = 0; k < R; k++) {
            regs[k].name = NULL;
            regs[k].cost = (uint32_t)k * (1 + rnd(3));
            /* small fast regions, a last one that holds everything */
            regs[k].capacity = k + 1 == R ? total + 64 : 256 + rnd((uint32_t)(total / 2 + 1));
        }
        if (iter % 3 == 0)
            for (size_t i = 0; i < n; i++)
                if (rnd(6) == 0) pin[i] = R - 1 - (rnd(2) ? 0 : 0);
        ta_region_problem p = {regs, R, iter % 3 == 0 ? pin : NULL, iter % 2 ? w : NULL};
        uint64_t cost[6];
        for (int s = 0; s < 6; s++) {
            ta_region_result res;
            ta_diag d;
            ta_status st = run(names[s], r, n, &p, reg, off, &res, &d);
            if (st != TA_OK) fprintf(stderr, "iter %d %s: %s\n", iter, names[s], d.msg);
            CHECK(st == TA_OK);
            if (st) continue;
            check_plan(r, n, &p, reg, off, &res);
            cost[s] = res.cost;
            fitted++;
            if (s == 5 && res.proof == TA_PROOF_OPTIMAL) proven++;
        }
        CHECK(cost[5] <= cost[4]); /* optimal starts from best's assignment */
    }
    CHECK(fitted == 60 * 6);
    CHECK(proven > 0);
    printf("random: %d plans validated, %d assignments proven optimal\n", fitted, proven);
}

/* Two buffers live together, one fast region that holds only one: the
 * heavier goes fast; capacity too small for anything: the one line. */
static void small_cases(void) {
    ta_request r[3] = {ta_request_make(100, 0, 1), ta_request_make(100, 1, 2), ta_request_make(40, 3, 3)};
    uint64_t w[3] = {100, 900, 40};
    ta_region regs[2] = {{"FAST", 128, 0}, {"SLOW", 1000, 5}};
    ta_region_problem p = {regs, 2, NULL, w};
    uint32_t reg[3];
    size_t off[3];
    ta_region_result res;
    ta_diag d;
    CHECK(run("optimal", r, 3, &p, reg, off, &res, &d) == TA_OK);
    CHECK_EQ_U(reg[0], 1);
    CHECK_EQ_U(reg[1], 0);
    CHECK_EQ_U(reg[2], 0);
    CHECK_EQ_U(res.cost, 500);
    CHECK_EQ_U(res.proof, TA_PROOF_OPTIMAL);
    CHECK_EQ_U(res.accessed_bytes[0], 940);
    CHECK_EQ_U(res.accessed_bytes[1], 100);
    CHECK_EQ_U(res.total_bound_bytes, 200);

    /* pinned: the heavy one to SLOW */
    uint32_t pin[3] = {TA_REGION_ANY, 1, TA_REGION_ANY};
    p.pin = pin;
    CHECK(run("greedy", r, 3, &p, reg, off, &res, &d) == TA_OK);
    CHECK_EQ_U(reg[1], 1);
    CHECK_EQ_U(reg[0], 0);

    /* impossible: 150 bytes in all, 200 needed */
    regs[0].capacity = 50;
    regs[1].capacity = 100;
    p.pin = NULL;
    ta_status st = run("greedy", r, 3, &p, reg, off, &res, &d);
    CHECK_EQ_U(st, TA_E_NO_MEMORY);
    printf("overflow: %s\n", d.msg);
    CHECK(strstr(d.msg, "region SLOW overflows by 100 bytes (plan 200, capacity 100)") != NULL);
    CHECK(strstr(d.msg, "200 bytes in one region fit; no plan fits below 200 bytes in total") != NULL);
    CHECK(strchr(d.msg, '\n') == NULL);

    /* a pinned buffer that a fast region cannot hold names that region */
    regs[0].capacity = 64;
    regs[1].capacity = 1000;
    uint32_t pin2[3] = {0, TA_REGION_ANY, TA_REGION_ANY};
    p.pin = pin2;
    st = run("best", r, 3, &p, reg, off, &res, &d);
    CHECK_EQ_U(st, TA_E_NO_MEMORY);
    CHECK(strstr(d.msg, "region FAST overflows by 36 bytes") != NULL);

    /* bad input */
    uint32_t pin3[3] = {7, TA_REGION_ANY, TA_REGION_ANY};
    p.pin = pin3;
    const ta_strategy *s = ta_strategy_find("greedy");
    char buf[4096];
    CHECK_EQ_U(ta_regions_plan(s, r, 3, &p, NULL, buf, sizeof buf, reg, off, &res, &d), TA_E_INVALID_ARG);
    CHECK(strstr(d.msg, "pinned to region 7") != NULL);
    p.n_regions = 0;
    CHECK_EQ_U(ta_regions_plan(s, r, 3, &p, NULL, buf, sizeof buf, reg, off, &res, &d), TA_E_INVALID_ARG);
    /* the validator catches a plan that breaks a region */
    p.n_regions = 2;
    p.pin = NULL;
    regs[0].capacity = 1000;
    uint32_t bad_reg[3] = {0, 0, 1};
    size_t bad_off[3] = {0, 50, 0};
    CHECK_EQ_U(ta_regions_check(r, 3, &p, NULL, bad_reg, bad_off, buf, sizeof buf, &d), TA_E_OVERLAP);
    CHECK(strstr(d.msg, "region FAST:") == d.msg);
    bad_off[1] = 100;
    CHECK_EQ_U(ta_regions_check(r, 3, &p, NULL, bad_reg, bad_off, buf, sizeof buf, &d), TA_OK);
    bad_off[1] = 960;
    CHECK_EQ_U(ta_regions_check(r, 3, &p, NULL, bad_reg, bad_off, buf, sizeof buf, &d), TA_E_OUT_OF_ARENA);
}

int main(void) {
    small_cases();
    random_problems();
    return ta_test_finish("regions");
}
