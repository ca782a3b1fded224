/* Large problems (issue 14, item 3): `optimal` above the exact search's
 * limit of 4,096 buffers, against `best` and the lower bound.
 *
 *   bench_optimal_large [SECONDS [SEEDS [clock|work [LIST]]]]
 *
 * SECONDS (default 10) is the time limit of each `best` and `optimal` run;
 * SEEDS (default 3) random model-like lists per size.  With `work` there
 * is no clock: each run gets SECONDS x 1e6 work units (`best`: placements;
 * `optimal`: best's own budget, then as many units of its search), so the
 * arenas are the same on any machine, whatever its load.  LIST: only the
 * lists of that name (below).
 *
 * Lists:
 *   random      bench_plan's generator of model-like lists (n/2 steps, most
 *               tensors live 1-4 steps, a tenth up to 64, sizes 16 B-512 KB
 *               log-uniform, 16-aligned), at 10k, 20k and 50k buffers;
 *   blocks      100-buffer blocks, one after the other in time (each 100
 *               buffers of 1-65,536 bytes living 1-8 of 20 steps): time
 *               cuts, every part small enough for the exact search;
 *   lifetimes   bench_scaling's random lists (lifetimes <= 200 steps,
 *               1-65,536 bytes) at 20k;
 *   chain-like  bench_scaling's (k/2, lifetimes <= 8) at 100k.
 *
 * Columns: the bound, best's arena and its ratio to the bound, optimal's
 * arena, ratio and proof, what optimal saved on best, and wall / CPU
 * seconds of the optimal run (best's included). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gen_lists.h"
#include "tinyarena/plan.h"

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 42;
static uint32_t rnd(uint32_t n) {
    return gen_lists_rnd(&rng, n);
}

/* 100-buffer blocks one after the other in time: each 100 buffers of
 * 1-65,536 bytes living 1-8 of 20 steps (about 25 live at once). */
static void gen_blocks(ta_request *r, size_t n) {
    for (size_t k = 0; k < n; k++) {
        int32_t base = (int32_t)(k / 100) * 30, f = base + (int32_t)rnd(20);
        r[k] = ta_request_make(1 + rnd(65536), f, f + (int32_t)rnd(8));
    }
}

static void gen_lifetimes(ta_request *r, size_t n) {
    for (size_t k = 0; k < n; k++) {
        int32_t l = (int32_t)rnd((uint32_t)n);
        r[k] = ta_request_make(1 + rnd(65536), l, l + (int32_t)rnd(200));
    }
}

static void gen_chain(ta_request *r, size_t n) {
    for (size_t k = 0; k < n; k++) {
        int32_t l = (int32_t)(k / 2);
        r[k] = ta_request_make(1 + rnd(65536), l, l + (int32_t)rnd(8));
    }
}

static double g_limit = 10.0;
static bool g_work;

static ta_status plan(const char *name, const ta_request *r, size_t n, size_t *off, ta_plan_result *res, double *w,
                      double *c) {
    const ta_strategy *s = ta_strategy_find(name);
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    if (g_work) opt.work_limit = (uint64_t)(g_limit * 1e6);
    else opt.clock = cli_clock;
    opt.time_limit_s = g_limit;
    size_t need = 0;
    ta_plan_scratch_bytes(s, r, n, &opt, &need);
    void *scr = cli_xmalloc(need);
    ta_diag d;
    double w0 = wall_s(), c0 = cpu_s();
    ta_status st = ta_plan_run(s, r, n, &opt, scr, need, off, res, &d);
    *w = wall_s() - w0;
    *c = cpu_s() - c0;
    if (st) printf("  %s failed: %s\n", name, d.msg);
    free(scr);
    return st;
}

static int g_rows, g_improved, g_above;
static const char *g_only;

static void row(const char *label, const ta_request *r, size_t n, uint32_t seed) {
    if (g_only && strcmp(g_only, label)) return;
    size_t *off = cli_xcalloc(n, sizeof *off);
    ta_plan_result rb, ro;
    double wb, cb, wo, co;
    if (plan("best", r, n, off, &rb, &wb, &cb) || plan("optimal", r, n, off, &ro, &wo, &co)) {
        free(off);
        return;
    }
    double lb = (double)ro.lower_bound_bytes;
    long long saved = (long long)rb.arena_bytes - (long long)ro.arena_bytes;
    printf("%-12s %7zu %4u %12zu %12zu %7.4f %12zu %7.4f %-20s %9lld %7.2f %7.2f\n", label, n, seed,
           ro.lower_bound_bytes, rb.arena_bytes, (double)rb.arena_bytes / lb, ro.arena_bytes,
           (double)ro.arena_bytes / lb, ta_proof_str(ro.proof), saved, wo, co);
    fflush(stdout);
    g_rows++;
    if (rb.arena_bytes > rb.lower_bound_bytes) {
        g_above++;
        g_improved += ro.arena_bytes < rb.arena_bytes;
    }
    free(off);
}

int main(int argc, char **argv) {
    if (argc > 1) g_limit = atof(argv[1]);
    if (!(g_limit > 0)) g_limit = 10.0;
    uint32_t seeds = argc > 2 ? (uint32_t)atoi(argv[2]) : 3;
    if (!seeds) seeds = 1;
    g_work = argc > 3 && !strcmp(argv[3], "work");
    g_only = argc > 4 ? argv[4] : NULL;
    printf("optimal above 4,096 buffers: %s %.1f %s per run\n", g_work ? "a budget of" : "a limit of",
           g_work ? g_limit * 1e6 : g_limit, g_work ? "work units" : "s");
    printf("%-12s %7s %4s %12s %12s %7s %12s %7s %-20s %9s %7s %7s\n", "list", "buffers", "seed", "bound", "best",
           "/bound", "optimal", "/bound", "proof", "saved B", "wall s", "cpu s");
    static const size_t sizes[] = {10000, 20000, 50000};
    for (size_t k = 0; k < 3; k++)
        for (uint32_t s = 0; s < seeds; s++) {
            size_t n = sizes[k];
            ta_request *r = cli_xcalloc(n, sizeof *r);
            rng = 42 + n + s; /* seed 0 at 10k is bench_plan's random n=10000 */
            gen_list_model_like(r, n, &rng); /* bench_plan's lists: the same for the same seed */
            row("random", r, n, s);
            free(r);
        }
    for (uint32_t s = 0; s < seeds; s++) {
        size_t n = 10000;
        ta_request *r = cli_xcalloc(n, sizeof *r);
        rng = 1000 + s;
        gen_blocks(r, n);
        row("blocks", r, n, s);
        free(r);
    }
    {
        size_t n = 20000;
        ta_request *r = cli_xcalloc(n, sizeof *r);
        rng = 7;
        gen_lifetimes(r, n);
        row("lifetimes", r, n, 0);
        free(r);
    }
    {
        size_t n = 100000;
        ta_request *r = cli_xcalloc(n, sizeof *r);
        rng = 7;
        gen_chain(r, n);
        row("chain-like", r, n, 0);
        free(r);
    }
    printf("\n%d lists; best above the bound on %d, optimal below best on %d of them\n", g_rows, g_above,
           g_improved);
    return 0;
}
