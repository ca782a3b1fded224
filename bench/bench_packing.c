/* Perfect packings (tests/gen_packing.c): problems whose optimum is known,
 * the lower bound itself, at every size.  For each size, how many instances
 * `best` already packs perfectly and how many `optimal` proves within the
 * limit, with its time.  The yardstick for the exact planner (issue 14):
 * a better solver moves the "optimal" column up and the times down.
 *
 *   bench_packing [SECONDS] [INSTANCES] [cuts|events|events-work|all]
 *   (defaults: 1 s each, 20 per size, all; events-work: SECONDS is a node
 *   budget in millions of work units instead, no clock, so the counts do
 *   not depend on the machine's load)
 *
 * cuts: a 64-step x 16,384-byte rectangle cut at random (guillotine cuts,
 * gen_packing), 10 to 160 buffers.  events: the event-driven non-guillotine
 * tilings of issue 14 (gen_packing_events: 16,384 bytes, lifetimes of 1 to
 * 16 steps), 150 to 500 buffers, with the share proven and the distribution
 * of optimal's wall time (median, 90th percentile, max); `best` alone gets
 * min(SECONDS, 1 s) there. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gen_packing.h"
#include "tinyarena/plan.h"

static double wall_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* work_limit 0: the wall clock bounds the run (limit s); else the node
 * budget alone does, with no clock, so the outcome is the same on any
 * machine at any load. */
static bool plan_w(const char *name, const ta_request *r, size_t n, double limit, uint64_t work_limit,
                   ta_plan_result *res, double *secs) {
    const ta_strategy *s = ta_strategy_find(name);
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    if (!work_limit) opt.clock = cli_clock;
    opt.time_limit_s = limit;
    opt.work_limit = work_limit;
    size_t need = 0;
    if (ta_plan_scratch_bytes(s, r, n, &opt, &need)) return false;
    void *scr = cli_xmalloc(need);
    size_t *off = cli_xcalloc(n, sizeof *off);
    ta_diag d;
    double t0 = wall_s();
    ta_status st = ta_plan_run(s, r, n, &opt, scr, need, off, res, &d);
    *secs = wall_s() - t0;
    free(scr);
    free(off);
    return st == TA_OK;
}

static bool plan(const char *name, const ta_request *r, size_t n, double limit, ta_plan_result *res, double *secs) {
    return plan_w(name, r, n, limit, 0, res, secs);
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* work: 0 = a wall-clock limit of `limit` s, and the last column is
 * optimal's work (best's placements and the search's nodes); else a budget
 * of `work` units and no clock, and the last column the search's nodes
 * alone (best's placements, run alone on the same budget, taken off). */
static void bench_events(double limit, int count, uint64_t work) {
    const size_t height = 16384, quantum = 16;
    if (work)
        printf("non-guillotine perfect packings (events): %d per size, 16,384 B, lifetimes 1-16, optimal with a "
               "budget of %llu work units, no clock\n",
               count, (unsigned long long)work);
    else
        printf("non-guillotine perfect packings (events): %d per size, 16,384 B, lifetimes 1-16, optimal with a %.1f s "
               "limit\n",
               count, limit);
    printf("%8s %10s %12s %12s %10s %10s %10s %12s %14s\n", "buffers", "max live", "best=H", "optimal=H", "median s",
           "p90 s", "max s", "mean gap B", work ? "median nodes" : "median work");
    int all_ok = 0, all_made = 0;
    static const size_t sizes[] = {150, 200, 300, 400, 500};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        ta_request *r = cli_xcalloc(n, sizeof *r);
        double *times = cli_xcalloc((size_t)count, sizeof *times);
        uint64_t *works = cli_xcalloc((size_t)count, sizeof *works);
        int best_ok = 0, opt_ok = 0, made = 0;
        size_t kmin = n, maxlive = 0;
        double gap = 0;
        for (int k = 0; k < count; k++) {
            size_t got = gen_packing_events(r, NULL, n, 16, height, quantum, 0x5eed + 1000 * (uint64_t)n + (uint64_t)k);
            if (!got) continue;
            if (got < kmin) kmin = got;
            for (size_t i = 0; i < got; i++) { /* widest step: live buffers at a buffer's first step */
                size_t l = 0;
                for (size_t j = 0; j < got; j++) l += r[j].first <= r[i].first && r[i].first <= r[j].last;
                if (l > maxlive) maxlive = l;
            }
            ta_plan_result res;
            double t;
            /* best alone, 1 s at most: at a tiling's bound its local search
             * runs to the limit, and the column only asks whether it packs */
            /* under a budget, best gets the one optimal gives its incumbent,
             * so its work (placements) can be taken from optimal's: what is
             * left is the search's nodes */
            uint64_t best_work = 0;
            if (plan_w("best", r, got, limit < 1 ? limit : 1, work, &res, &t) && res.arena_bytes == height) best_ok++;
            best_work = work ? res.work : 0;
            if (!plan_w("optimal", r, got, limit, work, &res, &t)) continue;
            if (res.arena_bytes == height && res.proof == TA_PROOF_OPTIMAL) opt_ok++;
            gap += (double)(res.arena_bytes - height);
            works[made] = res.work - (res.work > best_work ? best_work : res.work);
            times[made++] = t;
        }
        if (made) {
            qsort(times, (size_t)made, sizeof *times, cmp_dbl);
            qsort(works, (size_t)made, sizeof *works, cmp_u64);
            char label[32];
            snprintf(label, sizeof label, "%zu-%zu", kmin, n);
            printf("%8s %10zu %9d/%-2d %9d/%-2d %10.3f %10.3f %10.3f %12.0f %14llu\n", label, maxlive, best_ok, made,
                   opt_ok, made, times[made / 2], times[(made * 9) / 10 < made ? (made * 9) / 10 : made - 1],
                   times[made - 1], gap / made, (unsigned long long)works[made / 2]);
        }
        free(works);
        all_ok += opt_ok;
        all_made += made;
        free(times);
        free(r);
    }
    if (all_made && work)
        printf("optimal proves %d of %d (%.0f%%) within %llu work units\n", all_ok, all_made,
               100.0 * all_ok / all_made, (unsigned long long)work);
    else if (all_made)
        printf("optimal proves %d of %d (%.0f%%) within %.1f s\n", all_ok, all_made, 100.0 * all_ok / all_made, limit);
}

int main(int argc, char **argv) {
    double limit = argc > 1 ? atof(argv[1]) : 1.0;
    int count = argc > 2 ? atoi(argv[2]) : 20;
    const char *which = argc > 3 ? argv[3] : "all";
    if (!(limit > 0)) limit = 1.0;
    if (count < 1) count = 20;
    if (!strcmp(which, "events")) {
        bench_events(limit, count, 0);
        return 0;
    }
    if (!strcmp(which, "events-work")) { /* SECONDS is then the budget in millions of work units */
        bench_events(limit, count, (uint64_t)(limit * 1e6));
        return 0;
    }
    const int32_t steps = 64;
    const size_t height = 16384, quantum = 16;
    printf("perfect packings: %d per size, 64 steps x 16,384 B, optimal with a %.1f s limit\n", count, limit);
    printf("%8s %12s %12s %12s %12s %12s\n", "buffers", "best=H", "optimal=H", "mean s", "max s", "mean gap B");
    static const size_t sizes[] = {10, 20, 40, 60, 80, 120, 160};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        ta_request *r = cli_xcalloc(n, sizeof *r);
        int best_ok = 0, opt_ok = 0, made = 0;
        double sum = 0, max = 0, gap = 0;
        for (int k = 0; k < count; k++) {
            if (!gen_packing(r, NULL, n, steps, height, quantum, 0x9ac4 + 1000 * (uint64_t)n + (uint64_t)k)) continue;
            made++;
            ta_plan_result res;
            double t;
            if (plan("best", r, n, limit, &res, &t) && res.arena_bytes == height) best_ok++;
            if (!plan("optimal", r, n, limit, &res, &t)) continue;
            if (res.arena_bytes == height && res.proof == TA_PROOF_OPTIMAL) opt_ok++;
            gap += (double)(res.arena_bytes - height);
            sum += t;
            if (t > max) max = t;
        }
        if (made)
            printf("%8zu %9d/%-2d %9d/%-2d %12.3f %12.3f %12.0f\n", n, best_ok, made, opt_ok, made, sum / made, max,
                   gap / made);
        free(r);
    }
    if (!strcmp(which, "all")) bench_events(limit, count, 0);
    return 0;
}
