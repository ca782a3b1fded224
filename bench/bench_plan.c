/* Planner benchmark: time per strategy on random model-like buffer lists of
 * growing size, and on the shared planning problems, with each plan's ratio
 * to the lower bound.  Prints tables; compare ratios within one run. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buffers_csv.h"
#include "cli.h"
#include "gen_lists.h"
#include "tinyarena/plan.h"

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t rng = 42; /* gen_list_model_like's state, reseeded per row */

static void run_row(const char *label, const ta_request *r, size_t n, const char *only) {
    size_t count;
    const ta_strategy *const *all = ta_strategy_list(&count);
    for (size_t s = 0; s < count; s++) {
        if (only && strcmp(only, all[s]->name)) continue;
        if (!strcmp(all[s]->name, "optimal") && n > 2000) continue;
        size_t need = 0;
        ta_plan_options opt = {0};
        opt.clock = cli_clock;
        ta_plan_scratch_bytes(all[s], r, n, &opt, &need);
        void *scratch = cli_xmalloc(need);
        size_t *off = cli_xmalloc(n * sizeof *off);
        ta_plan_result res;
        ta_diag d;
        uint64_t t0 = now_us();
        ta_status st = ta_plan_run(all[s], r, n, &opt, scratch, need, off, &res, &d);
        uint64_t t = now_us() - t0;
        if (st) printf("%-30s %-9s failed: %s\n", label, all[s]->name, d.msg);
        else
            printf("%-30s %-9s %8zu %14zu %14zu %7.3f %12.1f\n", label, all[s]->name, n, res.arena_bytes,
                   res.lower_bound_bytes,
                   res.lower_bound_bytes ? (double)res.arena_bytes / (double)res.lower_bound_bytes : 1.0,
                   (double)t / 1000.0);
        free(scratch);
        free(off);
    }
}

int main(int argc, char **argv) {
    const char *data = getenv("TINYARENA_DATA");
    if (argc > 1) data = argv[1];
    if (!data) data = "../shared";
    const char *only = argc > 2 ? argv[2] : NULL;
    printf("%-30s %-9s %8s %14s %14s %7s %12s\n", "problem", "strategy", "buffers", "arena_bytes",
           "lower_bound", "ratio", "time_ms");
    static const size_t sizes[] = {100, 1000, 10000, 100000};
    double greedy_ms[4] = {0};
    for (int k = 0; k < 4; k++) {
        size_t n = sizes[k];
        ta_request *r = cli_xmalloc(n * sizeof *r);
        rng = 42 + n;
        gen_list_model_like(r, n, &rng);
        char label[64];
        snprintf(label, sizeof label, "random n=%zu", n);
        run_row(label, r, n, only);
        /* greedy alone, best of 3, for the scaling line */
        double bestt = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            const ta_strategy *g = ta_strategy_find("greedy");
            size_t need = 0;
            ta_plan_scratch_bytes(g, r, n, NULL, &need);
            void *scratch = cli_xmalloc(need);
            size_t *off = cli_xmalloc(n * sizeof *off);
            ta_plan_result res;
            uint64_t t0 = now_us();
            ta_plan_run(g, r, n, NULL, scratch, need, off, &res, NULL);
            double t = (double)(now_us() - t0) / 1000.0;
            if (t < bestt) bestt = t;
            free(scratch);
            free(off);
        }
        greedy_ms[k] = bestt;
        free(r);
    }
    printf("\ngreedy scaling (best of 3, includes bound + validation):\n");
    for (int k = 0; k < 4; k++) printf("  n=%-7zu %10.2f ms\n", sizes[k], greedy_ms[k]);
    printf("  10k -> 100k: x%.1f time for x10 buffers (quadratic would be x100)\n",
           greedy_ms[2] > 0 ? greedy_ms[3] / greedy_ms[2] : 0.0);

    char dir[1024];
    snprintf(dir, sizeof dir, "%s/planning", data);
    DIR *dp = opendir(dir);
    if (!dp) {
        printf("\nSKIP shared planning problems: %s not found (set TINYARENA_DATA)\n", dir);
        return 0;
    }
    printf("\nshared planning problems (%s):\n", dir);
    char *names[64];
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && nn < 64) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".csv")) names[nn++] = strdup(e->d_name);
    }
    closedir(dp);
    for (int i = 0; i < nn; i++)
        for (int j = i + 1; j < nn; j++)
            if (strcmp(names[i], names[j]) > 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    for (int i = 0; i < nn; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        buffer_list bl;
        if (buffers_csv_read(path, 1, &bl)) {
            run_row(names[i], bl.reqs, bl.n, only);
            buffers_csv_free(&bl);
        }
        free(names[i]);
    }
    return 0;
}
