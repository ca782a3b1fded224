/* Scaling benchmark (issue 9, bounded time): how import, lifetimes, the
 * runtime's query and planning grow with the model, and how the search
 * strategies keep a time limit on large buffer lists.
 *
 *   bench_scaling [SECONDS]     (the time limit of table 2, default 2)
 *
 * Table 1: synthetic models from tests/gen_models.c (chains of N float
 * LOGISTIC ops, N graph outputs, N nested CALL subgraphs, N tensor entries
 * sharing one table), seconds of CPU per phase: open+import (verify the
 * FlatBuffer, build the graph), lifetimes (analysis and requests), query
 * (ta_runtime_query: prepare every op, lifetimes, greedy plan, bound) and
 * plan (optimal, with the limit).  CPU time, not wall time: on a shared
 * machine it is what the code costs.  "x" is the growth from the previous
 * row: about 2.0-2.3 per doubling is n log n; 4 would be quadratic.
 *
 * Table 2: buffer lists under the time limit, strategy by strategy, wall
 * seconds (what a deadline bounds) and CPU seconds. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gen_models.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

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

static double g_limit = 2.0;

static void model_row(const char *kind, uint32_t n, double *prev_total) {
    size_t len;
    unsigned char *bytes = gen_model(kind, n, &len);
    if (!bytes) {
        printf("%-8s %9u  generation failed\n", kind, n);
        return;
    }
    ta_diag d;
    double t0 = cpu_s();
    ta_tflite_model m;
    ta_graph g;
    ta_graph_limits lim;
    void *gmem = NULL;
    ta_status st = ta_tflite_open(&m, bytes, len, &d);
    if (!st) st = ta_tflite_graph_limits(&m, &lim);
    if (!st) {
        size_t gb = ta_graph_bytes(&lim);
        gmem = cli_xmalloc(gb);
        st = ta_graph_init(&g, &lim, gmem, gb);
    }
    if (!st) st = ta_tflite_import(&m, &g, &d);
    double t1 = cpu_s();
    if (st) {
        printf("%-8s %9u  import failed: %s\n", kind, n, d.msg);
        free(gmem);
        free(bytes);
        return;
    }
    size_t lb = ta_lifetime_bytes(&g, 0), nreq = 0;
    void *lmem = cli_xmalloc(lb);
    ta_lifetimes lt;
    st = ta_lifetime_analyze(&g, NULL, 0, lmem, lb, &lt, &d);
    if (!st) st = ta_lifetime_requests(&g, &lt, NULL, NULL, NULL, 0, &nreq, &d);
    ta_request *reqs = cli_xcalloc(nreq ? nreq : 1, sizeof *reqs);
    ta_buffer_origin *origin = cli_xcalloc(nreq ? nreq : 1, sizeof *origin);
    if (!st) st = ta_lifetime_requests(&g, &lt, NULL, reqs, origin, nreq, &nreq, &d);
    double t2 = cpu_s();
    /* the runtime's query: prepare, lifetimes, its plan, the bound */
    ta_runtime rt;
    ta_runtime_options ro = ta_runtime_options_default();
    ta_runtime_use_strategy(&ro, "greedy");
    ta_arena_breakdown b;
    void *work = NULL;
    size_t wb = 0;
    ta_diag qd;
    qd.msg[0] = '\0';
    ta_status qst = ta_runtime_open(&rt, bytes, len, &ro, &qd);
    if (!qst) qst = cli_runtime_query(&rt, &work, &wb, &b, &qd);
    free(work);
    double t3 = cpu_s();
    const ta_strategy *s = ta_strategy_find("optimal");
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.clock = cli_clock;
    opt.time_limit_s = g_limit;
    size_t need = 0;
    ta_plan_result res;
    memset(&res, 0, sizeof res);
    size_t *off = cli_xcalloc(nreq ? nreq : 1, sizeof *off);
    ta_status pst = st ? st : ta_plan_scratch_bytes(s, reqs, nreq, &opt, &need);
    void *scr = pst ? NULL : cli_xmalloc(need);
    if (!pst) pst = ta_plan_run(s, reqs, nreq, &opt, scr, need, off, &res, &d);
    double t4 = cpu_s();
    double total = t4 - t0;
    char grow[16] = "";
    if (*prev_total > 0) snprintf(grow, sizeof grow, "%.1f", total / *prev_total);
    *prev_total = total;
    printf("%-8s %9u %11zu %9.3f %9.3f %9.3f %9.3f %9.3f %5s  %s%s", kind, n, len, t1 - t0, t2 - t1, t3 - t2, t4 - t3,
           total, grow, pst ? "plan failed" : ta_proof_str(res.proof), qst ? " (query failed: " : "");
    printf("%s%s\n", qst ? qd.msg : "", qst ? ")" : "");
    free(scr);
    free(off);
    free(reqs);
    free(origin);
    free(lmem);
    free(gmem);
    free(bytes);
}

static uint64_t rng = 7;
static uint32_t rnd(uint32_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static void list_rows(const char *label, const ta_request *r, size_t n) {
    static const char *const names[] = {"greedy", "best", "optimal"};
    for (int k = 0; k < 3; k++) {
        const ta_strategy *s = ta_strategy_find(names[k]);
        ta_plan_options opt;
        memset(&opt, 0, sizeof opt);
        opt.clock = cli_clock;
        opt.time_limit_s = g_limit;
        size_t need = 0;
        ta_plan_scratch_bytes(s, r, n, &opt, &need);
        void *scr = cli_xmalloc(need);
        size_t *off = cli_xcalloc(n, sizeof *off);
        ta_plan_result res;
        ta_diag d;
        double w0 = wall_s(), c0 = cpu_s();
        ta_status st = ta_plan_run(s, r, n, &opt, scr, need, off, &res, &d);
        double w = wall_s() - w0, c = cpu_s() - c0;
        if (st) printf("%-28s %-8s failed: %s\n", label, names[k], d.msg);
        else
            printf("%-28s %-8s %9zu %8.3f %8.3f %16zu %7.3f  %s\n", label, names[k], n, w, c, res.arena_bytes,
                   (double)res.arena_bytes / (double)res.lower_bound_bytes, ta_proof_str(res.proof));
        free(scr);
        free(off);
    }
}

int main(int argc, char **argv) {
    if (argc > 1) g_limit = atof(argv[1]);
    if (!(g_limit > 0)) g_limit = 2.0;
    printf("Table 1: synthetic models, CPU seconds per phase (plan: optimal, limit %.1f s)\n", g_limit);
    printf("%-8s %9s %11s %9s %9s %9s %9s %9s %5s  %s\n", "kind", "N", "bytes", "import", "lifetime", "query", "plan",
           "total", "x", "plan result");
    static const uint32_t chain[] = {6250, 12500, 25000, 50000, 100000};
    double prev = 0;
    for (size_t i = 0; i < sizeof chain / sizeof chain[0]; i++) model_row("chain", chain[i], &prev);
    static const uint32_t wide[] = {2500, 5000, 10000, 20000};
    const char *kinds[] = {"outputs", "calls", "alias", "shared"};
    for (int k = 0; k < 4; k++) {
        prev = 0;
        for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) model_row(kinds[k], wide[i], &prev);
    }

    printf("\nTable 2: buffer lists, time limit %.1f s (wall and CPU seconds)\n", g_limit);
    printf("%-28s %-8s %9s %8s %8s %16s %7s  %s\n", "list", "strategy", "buffers", "wall", "cpu", "arena", "/bound",
           "result");
    static const size_t live[] = {5000, 20000};
    for (size_t i = 0; i < 2; i++) {
        size_t n = live[i];
        ta_request *r = cli_xcalloc(n, sizeof *r);
        for (size_t k = 0; k < n; k++) r[k] = ta_request_make(1 + rnd(4096), 0, 10);
        char label[64];
        snprintf(label, sizeof label, "all live at once");
        list_rows(label, r, n);
        free(r);
    }
    static const size_t rn[] = {20000, 100000};
    for (size_t i = 0; i < 2; i++) {
        size_t n = rn[i];
        ta_request *r = cli_xcalloc(n, sizeof *r);
        for (size_t k = 0; k < n; k++) {
            int32_t l = (int32_t)rnd((uint32_t)n);
            r[k] = ta_request_make(1 + rnd(65536), l, l + (int32_t)rnd(200));
        }
        list_rows("random, lifetimes <= 200", r, n);
        free(r);
    }
    static const size_t cn[] = {250000, 1000000};
    for (size_t i = 0; i < 2; i++) {
        size_t n = cn[i];
        ta_request *r = cli_xcalloc(n, sizeof *r);
        for (size_t k = 0; k < n; k++) {
            int32_t l = (int32_t)(k / 2);
            r[k] = ta_request_make(1 + rnd(65536), l, l + (int32_t)rnd(8));
        }
        list_rows("chain-like, lifetimes <= 8", r, n);
        free(r);
    }
    return 0;
}
