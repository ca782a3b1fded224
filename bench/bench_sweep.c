/* The two tiling searches of the optimal strategy, each alone and as the
 * portfolio optimal runs (issue 14): on the event-driven perfect packings
 * of bench_packing (gen_packing_events, 16,384 B, lifetimes 1-16, the same
 * seeds), how many tilings each finds within a node budget, and the nodes
 * it took.  No clock: the counts are the same on any machine at any load.
 *
 *   bench_sweep [MILLION_NODES] [INSTANCES] [tile|sweep|portfolio|beam|pq|all] [events|cuts] [FIRST_SEED] [SIZE]
 *   (defaults: 3 M nodes, 5 per size, all, events, seeds from 0, every size)
 *
 * FIRST_SEED runs seeds FIRST_SEED.. instead of 0.. (seeds not used when
 * tuning); SIZE runs that one size only.  With BENCH_SWEEP_SEEDS=1 in the
 * environment it also prints every seed's result and node count (to check
 * that a change to a search's speed leaves its node counts alone).
 *
 * cuts: bench_packing's guillotine packings instead (gen_packing: 64 steps
 * x 16,384 B, 80-200 buffers, its seeds).
 *
 * It calls the internals directly (src/core/plan_optimal.h), as
 * plan_optimal.c does at the bound, so `best`'s incumbent is not part of
 * the count; every tiling found is checked with the validator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/plan_optimal.h"
#include "gen_packing.h"
#include "tile_harness.h"
#include "tinyarena/plan.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Runs search `which` (0 time sweep, 1 byte sweep, 2 portfolio, 3 beam, 4 order search) at the
 * height C (tests/tile_harness.h, shared with the tests); returns 0 found
 * (offsets validated), 1 refuted, 2 limit, -1 error; *nodes = nodes spent. */
static int run_one(const ta_request *r, size_t n, size_t C, int which, uint64_t cap, uint64_t *nodes) {
    size_t *off = cli_xcalloc(n, sizeof *off);
    int rc = tile_search(r, n, C, which, cap, off, nodes);
    if (rc < 0) rc = -1;
    if (rc == 0 && !tile_plan_ok(r, n, off, C)) {
        fprintf(stderr, "bench_sweep: invalid tiling\n");
        rc = -1;
    }
    free(off);
    return rc;
}

int main(int argc, char **argv) {
    double mn = argc > 1 ? atof(argv[1]) : 3.0;
    int count = argc > 2 ? atoi(argv[2]) : 5;
    const char *which = argc > 3 ? argv[3] : "all";
    bool cuts = argc > 4 && !strcmp(argv[4], "cuts");
    int first = argc > 5 ? atoi(argv[5]) : 0;
    size_t only = argc > 6 ? (size_t)atol(argv[6]) : 0;
    if (!(mn > 0)) mn = 3.0;
    if (first < 0) first = 0;
    if (count < 1) count = 5;
    uint64_t cap = (uint64_t)(mn * 1e6);
    const char *sv = getenv("BENCH_SWEEP_SEEDS");
    bool per_seed = sv && *sv && strcmp(sv, "0");
    static const char *names[] = {"tile", "sweep", "portfolio", "beam", "pq"};
    static const size_t ev_sizes[] = {150, 200, 300, 400, 500}, cut_sizes[] = {80, 120, 160, 200};
    const size_t *sizes = cuts ? cut_sizes : ev_sizes, nsizes = cuts ? 4 : 5;
    const size_t height = 16384;
    printf("tiling searches on %s packings: %d per size (seeds %d-%d), a budget of %llu nodes each, no clock\n",
           cuts ? "guillotine" : "event", count, first, first + count - 1, (unsigned long long)cap);
    for (int w = 0; w < 5; w++) {
        if (strcmp(which, "all") && strcmp(which, names[w])) continue;
        printf("%-10s %8s %8s %14s %14s\n", names[w], "buffers", "found", "median nodes", "max nodes");
        int all = 0, made = 0;
        for (size_t si = 0; si < nsizes; si++) {
            size_t n = sizes[si];
            if (only && n != only) continue;
            ta_request *r = cli_xcalloc(n, sizeof *r);
            uint64_t *nodes = cli_xcalloc((size_t)count, sizeof *nodes);
            int ok = 0, k = 0;
            for (int s = first; s < first + count; s++) {
                size_t got = cuts ? (gen_packing(r, NULL, n, 64, height, 16, 0x9ac4 + 1000 * (uint64_t)n + (uint64_t)s) ? n : 0)
                                  : gen_packing_events(r, NULL, n, 16, height, 16, 0x5eed + 1000 * (uint64_t)n + (uint64_t)s);
                if (!got) continue;
                uint64_t nd = 0;
                int rc = run_one(r, got, height, w, cap, &nd);
                ok += rc == 0;
                nodes[k++] = rc == 0 ? nd : cap;
                if (per_seed)
                    printf("%-10s %8zu seed %d: %s, %llu nodes\n", "", n, s,
                           rc == 0 ? "found" : rc == 1 ? "refuted" : rc == 2 ? "limit" : "error", (unsigned long long)nd);
            }
            qsort(nodes, (size_t)k, sizeof *nodes, cmp_u64);
            if (k)
                printf("%-10s %8zu %5d/%-2d %14llu %14llu\n", "", n, ok, k, (unsigned long long)nodes[k / 2],
                       (unsigned long long)nodes[k - 1]);
            all += ok;
            made += k;
            free(nodes);
            free(r);
        }
        printf("%-10s found %d of %d (%.0f%%)\n", names[w], all, made, made ? 100.0 * all / made : 0.0);
    }
    return 0;
}
