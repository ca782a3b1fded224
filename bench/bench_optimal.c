/* bench_optimal: the exact planner against greedy and best on every shared
 * buffer list: the MiniMalloc problems (planning/NAME.csv) and TFLM's lists for
 * every model (models/reference/tflm_buffers/NAME.csv), then every model
 * file in models/MANIFEST.tsv planned from the .tflite itself (TFLM's rules,
 * tensors only) -- which includes the coral models TFLM rejects.
 *
 *   bench_optimal [DATA_DIR [TIME_LIMIT_S [CHALLENGING_DIR [cpu|nodes [challenging|perfect [SEEDS [FIRST]]]]]]]
 *
 * cpu: the limit counts this process's CPU time instead of wall time (what
 * an idle machine would give; on a shared one the wall clock buys a share
 * of a core), and only the challenging table is printed.  nodes: no clock,
 * TIME_LIMIT_S millions of search nodes instead (best reads it as its own
 * placement budget): deterministic, the same plans on any machine and
 * under any load; only the challenging table.  challenging (after cpu):
 * the challenging table alone, without the perfect packings.  perfect
 * [SEEDS [FIRST]] (after cpu): the perfect packings alone, SEEDS per size
 * (default 5) from seed FIRST (default 0).
 *
 * Second table (bench_perfect, at the end): perfect packings of 150-500
 * buffers (tests/gen_packing.c, issue 14), the share optimal proves within
 * the limit and its time, next to MiniMalloc's figure from the issue.
 *
 * First table: MiniMalloc's challenging problems A-K next to its published
 * results.  A-C are in DATA_DIR/planning; D-K are read from CHALLENGING_DIR
 * (or $MINIMALLOC_CHALLENGING) when given: google/minimalloc's
 * benchmarks/challenging/ at 9f5cf810 (Apache-2.0, not shipped here).  It
 * prints wall and CPU seconds: the limit is wall time, and on a shared
 * machine the CPU seconds say what an idle one would need.
 *
 * DATA_DIR defaults to $TINYARENA_DATA, then ../shared.  Prints one row per
 * problem: buffers, lower bound, greedy, best, optimal arena, proof status,
 * optimal's wall time (Release builds only give meaningful times). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buffers_csv.h"
#include "cli.h"
#include "gen_packing.h"
#include "model_load.h"
#include "model_plan.h"
#include "plan_report.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted *.csv names in dir, skipping NAME.meta.csv / NAME.timeline.csv. */
static size_t list_csv(const char *dir, char ***out) {
    DIR *d = opendir(dir);
    size_t n = 0, cap = 16;
    char **names = malloc(cap * sizeof *names);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".csv")) continue;
            if (strstr(e->d_name, ".meta.csv") || strstr(e->d_name, ".timeline.csv")) continue;
            if (n == cap) names = realloc(names, (cap *= 2) * sizeof *names);
            names[n] = malloc(len + 1);
            memcpy(names[n++], e->d_name, len + 1);
        }
        closedir(d);
    }
    qsort(names, n, sizeof *names, cmp_str);
    *out = names;
    return n;
}

static size_t arena_of(const char *strategy, const buffer_list *bl, const ta_plan_options *opt) {
    plan_outcome o = plan_report_run(ta_strategy_find(strategy), bl->reqs, bl->n, opt);
    free(o.offsets);
    return o.st ? 0 : o.res.arena_bytes;
}

static void bench_dir(const char *dir, const ta_plan_options *opt, double *total_s, int *proven, int *rows) {
    char **names;
    size_t n = list_csv(dir, &names);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        buffer_list bl;
        if (!buffers_csv_read(path, 1, &bl)) continue;
        char name[48];
        snprintf(name, sizeof name, "%.*s", (int)(strlen(names[i]) - 4), names[i]);
        plan_outcome o = plan_report_run(ta_strategy_find("optimal"), bl.reqs, bl.n, opt);
        char a[32], b[32], c[32], e[32];
        if (o.st) {
            const char *why = o.st == TA_E_FIXED_CONFLICT ? "conflicting fixed offsets" : ta_status_str(o.st);
            printf("%-46s %5zu %12s %12s %12s %12s  %-20s %9s\n", name, bl.n, "-", "-", "-", "-", why, "-");
        } else {
            double s = (double)o.time_us / 1e6;
            *total_s += s;
            *proven += o.res.proof == TA_PROOF_OPTIMAL;
            char status[64];
            if (o.res.proof == TA_PROOF_OPTIMAL) snprintf(status, sizeof status, "proven optimal");
            else snprintf(status, sizeof status, "%s, gap %zu", ta_proof_str(o.res.proof),
                          o.res.arena_bytes - o.res.proven_bytes);
            printf("%-46s %5zu %12s %12s %12s %12s  %-20s %9.3f\n", name, bl.n,
                   fmt_bytes(o.res.lower_bound_bytes, a), fmt_bytes(arena_of("greedy", &bl, opt), b),
                   fmt_bytes(arena_of("best", &bl, opt), c), fmt_bytes(o.res.arena_bytes, e), status, s);
        }
        (*rows)++;
        fflush(stdout);
        free(o.offsets);
        buffers_csv_free(&bl);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* MiniMalloc's published results (ASPLOS 2024 paper and slides), capacity
 * 1 MiB: the arena it reports and whether it proved it, and the time where
 * the paper gives one per problem. */
typedef struct {
    const char *name;
    size_t arena;
    bool proven;
    double secs; /* 0: not published per problem */
} mm_result;

static const mm_result mm_published[] = {
    {"A", 1048576, true, 4.9}, {"B", 1048576, true, 3.7}, {"C", 1039360, true, 0.6},
    {"D", 1031168, false, 0},  {"E", 1048576, true, 0},   {"F", 0, false, 0},
    {"G", 0, false, 0},        {"H", 1048576, true, 0},   {"I", 1048576, true, 0},
    {"J", 1035264, false, 0},  {"K", 0, false, 0},
};

static double cpu_s(void) { return (double)clock() / CLOCKS_PER_SEC; }

static void bench_challenging(const char *data, const char *extra, const ta_plan_options *opt) {
    printf("MiniMalloc's challenging problems (capacity-free: the smallest arena), time limit %.1f s\n",
           opt->time_limit_s);
    printf("%-8s %5s %12s %12s %-34s %8s %8s   %-22s\n", "problem", "bufs", "lower_bound", "optimal", "status",
           "wall_s", "cpu_s", "MiniMalloc (published)");
    for (size_t i = 0; i < sizeof mm_published / sizeof mm_published[0]; i++) {
        const mm_result *p = &mm_published[i];
        char path[4096];
        buffer_list bl;
        snprintf(path, sizeof path, "%s/planning/%s.1048576.csv", data, p->name);
        FILE *f = fopen(path, "rb");
        if (!f && extra) {
            snprintf(path, sizeof path, "%s/%s.1048576.csv", extra, p->name);
            f = fopen(path, "rb");
        }
        if (!f) continue;
        fclose(f);
        if (!buffers_csv_read(path, 1, &bl)) continue;
        double c0 = cpu_s();
        plan_outcome o = plan_report_run(ta_strategy_find("optimal"), bl.reqs, bl.n, opt);
        double cpu = cpu_s() - c0;
        char a[32], e[32], m[32], status[64], mm[64];
        if (o.st) snprintf(status, sizeof status, "%s", ta_status_str(o.st));
        else if (o.res.proof == TA_PROOF_OPTIMAL) snprintf(status, sizeof status, "proven optimal");
        else snprintf(status, sizeof status, "%s, gap %s", ta_proof_str(o.res.proof),
                      fmt_bytes(o.res.arena_bytes - o.res.proven_bytes, m));
        if (!p->arena) snprintf(mm, sizeof mm, "-");
        else if (p->secs > 0) snprintf(mm, sizeof mm, "%s%s, %.1f s", fmt_bytes(p->arena, m), p->proven ? " proven" : "", p->secs);
        else snprintf(mm, sizeof mm, "%s%s", fmt_bytes(p->arena, m), p->proven ? " proven" : "");
        printf("%-8s %5zu %12s %12s %-34s %8.3f %8.3f   %-22s\n", p->name, bl.n,
               o.st ? "-" : fmt_bytes(o.res.lower_bound_bytes, a), o.st ? "-" : fmt_bytes(o.res.arena_bytes, e), status,
               (double)o.time_us / 1e6, cpu, mm);
        fflush(stdout);
        free(o.offsets);
        buffers_csv_free(&bl);
    }
    printf("\n");
}

static size_t arena_reqs(const char *strategy, const ta_request *r, size_t n, const ta_plan_options *opt) {
    plan_outcome o = plan_report_run(ta_strategy_find(strategy), r, n, opt);
    free(o.offsets);
    return o.st ? 0 : o.res.arena_bytes;
}

/* Every model of the MANIFEST, planned from its .tflite file. */
static void bench_models(const char *data, const ta_plan_options *base, double *total_s, int *proven, int *rows) {
    model_manifest mf;
    model_manifest_read(data, &mf);
    for (size_t i = 0; i < mf.n; i++) {
        const char *file = mf.files[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/models/%s", data, file);
        loaded_model lm;
        model_plan mp;
        memset(&mp, 0, sizeof mp);
        if (model_load(path, &lm) == CLI_OK) {
            ta_lifetime_options lo = {.align = 16, .offline_offsets = lm.offline, .n_offline = lm.n_offline};
            if (model_plan_build(&mp, &lm.g, &lo, NULL, 0, path) == CLI_OK) {
                ta_plan_options opt = *base;
                if (lm.offline) opt.flags |= TA_PLAN_ALLOW_FIXED_CONFLICT;
                plan_outcome o = plan_report_run(ta_strategy_find("optimal"), mp.reqs, mp.n, &opt);
                char name[48], a[32], b[32], c[32], e[32], status[64];
                snprintf(name, sizeof name, "%.*s", (int)(strlen(file) - 7), file);
                if (o.st) {
                    printf("%-46s %5zu %12s %12s %12s %12s  %-20s %9s\n", name, mp.n, "-", "-", "-", "-",
                           ta_status_str(o.st), "-");
                } else {
                    double sec = (double)o.time_us / 1e6;
                    *total_s += sec;
                    *proven += o.res.proof == TA_PROOF_OPTIMAL;
                    if (o.res.fixed_conflicts) snprintf(status, sizeof status, "fixed offsets collide");
                    else if (o.res.proof == TA_PROOF_OPTIMAL) snprintf(status, sizeof status, "proven optimal");
                    else snprintf(status, sizeof status, "%s", ta_proof_str(o.res.proof));
                    printf("%-46s %5zu %12s %12s %12s %12s  %-20s %9.3f\n", name, mp.n,
                           fmt_bytes(o.res.lower_bound_bytes, a), fmt_bytes(arena_reqs("greedy", mp.reqs, mp.n, &opt), b),
                           fmt_bytes(arena_reqs("best", mp.reqs, mp.n, &opt), c), fmt_bytes(o.res.arena_bytes, e),
                           status, sec);
                }
                (*rows)++;
                free(o.offsets);
            }
        }
        model_plan_free(&mp);
        model_unload(&lm);
    }
    model_manifest_free(&mf);
}

/* The process's CPU time in microseconds (the "cpu" mode's clock). */
static void bench_perfect(const ta_plan_options *opt, int seeds, int first);

static uint64_t cpu_clock(void *ctx) {
    (void)ctx;
    return (uint64_t)(cpu_s() * 1e6);
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    if (!data || !*data) data = "../shared";
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.time_limit_s = argc > 2 ? atof(argv[2]) : 10.0;
    opt.clock = cli_clock;
    const char *extra = argc > 3 ? argv[3] : getenv("MINIMALLOC_CHALLENGING");
    if (argc > 4 && !strcmp(argv[4], "cpu")) {
        opt.clock = cpu_clock;
        if (argc > 5 && !strcmp(argv[5], "perfect")) { /* the perfect packings alone, more seeds */
            int seeds = argc > 6 ? atoi(argv[6]) : 5, first = argc > 7 ? atoi(argv[7]) : 0;
            bench_perfect(&opt, seeds < 1 ? 5 : seeds > 1000 ? 1000 : seeds, first < 0 ? 0 : first);
            return 0;
        }
        bench_challenging(data, extra, &opt);
        if (!(argc > 5 && !strcmp(argv[5], "challenging"))) bench_perfect(&opt, 5, 0);
        return 0;
    }
    if (argc > 4 && !strcmp(argv[4], "nodes")) {
        /* deterministic: TIME_LIMIT_S millions of search nodes, no clock */
        opt.clock = NULL;
        opt.work_limit = (uint64_t)(opt.time_limit_s * 1e6);
        bench_challenging(data, extra, &opt);
        return 0;
    }
    bench_challenging(data, extra, &opt);
    bench_perfect(&opt, 5, 0);
    printf("optimal vs heuristics (data %s, time limit %.1f s)\n", data, opt.time_limit_s);
    printf("%-46s %5s %12s %12s %12s %12s  %-20s %9s\n", "problem", "bufs", "lower_bound", "greedy", "best",
           "optimal", "status", "time_s");
    double total = 0;
    int proven = 0, rows = 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/planning", data);
    bench_dir(dir, &opt, &total, &proven, &rows);
    snprintf(dir, sizeof dir, "%s/models/reference/tflm_buffers", data);
    bench_dir(dir, &opt, &total, &proven, &rows);
    printf("\nmodels planned from their .tflite files (TFLM's lifetime rules, tensors only):\n");
    bench_models(data, &opt, &total, &proven, &rows);
    if (!rows) {
        fprintf(stderr, "bench_optimal: no buffer lists under %s (pass DATA_DIR or set TINYARENA_DATA)\n", data);
        return 1;
    }
    printf("%d problems, %d proven optimal, %.3f s in optimal\n", rows, proven, total);
    return 0;
}

/* ---- perfect packings (issue 14) ------------------------------------ */

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The event-driven perfect packings of bench_packing (gen_packing_events:
 * 16,384 B, lifetimes of 1-16 steps, the same seeds, 5 per size): the
 * optimum is the height, so a row counts the seeds optimal proves at the
 * height within the limit (its clock: wall or CPU), and the time it took
 * (median, 90th percentile, max; a seed not proven counts at its full
 * time).  MiniMalloc's figure is the issue's: built at 9f5cf810, it finds 2
 * of 12 such problems of 160-520 buffers within 60 s. */
static void bench_perfect(const ta_plan_options *opt, int seeds, int first) {
    static const size_t sizes[] = {150, 200, 300, 400, 500};
    const size_t height = 16384;
    printf("perfect packings (event tilings, 16,384 B, %d seeds per size from seed %d), time limit %.1f s\n", seeds,
           first, opt->time_limit_s);
    printf("%-10s %8s %8s %10s %10s %10s\n", "buffers", "proven", "rate", "median s", "p90 s", "max s");
    int all = 0, made = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si], kmin = n;
        ta_request *r = cli_xcalloc(n, sizeof *r);
        size_t *off = cli_xcalloc(n, sizeof *off);
        double *secs = cli_xcalloc((size_t)seeds, sizeof *secs);
        int ok = 0, k = 0;
        for (int seed = first; seed < first + seeds; seed++) {
            size_t got = gen_packing_events(r, NULL, n, 16, height, 16, 0x5eed + 1000 * (uint64_t)n + (uint64_t)seed);
            if (!got) continue;
            if (got < kmin) kmin = got;
            const ta_strategy *s = ta_strategy_find("optimal");
            size_t need = 0;
            if (ta_plan_scratch_bytes(s, r, got, opt, &need)) continue;
            void *scr = cli_xmalloc(need);
            ta_plan_result res;
            ta_diag d;
            double t0 = opt->clock(opt->clock_ctx) / 1e6;
            ta_status st = ta_plan_run(s, r, got, opt, scr, need, off, &res, &d);
            double t = opt->clock(opt->clock_ctx) / 1e6 - t0;
            free(scr);
            if (st) continue;
            ok += res.arena_bytes == height && res.proof == TA_PROOF_OPTIMAL;
            secs[k++] = t;
        }
        if (k) {
            qsort(secs, (size_t)k, sizeof *secs, cmp_dbl);
            char label[32];
            snprintf(label, sizeof label, "%zu-%zu", kmin, n);
            printf("%-10s %5d/%-2d %7.0f%% %10.2f %10.2f %10.2f\n", label, ok, k, 100.0 * ok / k, secs[k / 2],
                   secs[(k * 9) / 10 < k ? (k * 9) / 10 : k - 1], secs[k - 1]);
        }
        all += ok;
        made += k;
        free(secs);
        free(off);
        free(r);
    }
    if (made) printf("optimal proves %d of %d (%.0f%%) within %.1f s\n", all, made, 100.0 * all / made, opt->time_limit_s);
    printf("MiniMalloc (9f5cf810, the issue's figure): 2 of 12 problems of 160-520 buffers within 60 s\n\n");
}
