/* bench_optimal_rel: the exact search with overlap relations on the shared
 * models.  For every model of the manifest the runtime plans, the firmware
 * plan's problem (`plan --header`'s: every default rewrite, the runtime's
 * kernel scratch, the default alignment rule) with its relations, planned by
 * `best` and by `optimal` under the same time limit: the relation-aware lower
 * bound, both arenas, optimal's proof and proven bytes, and the wall time of
 * each.  Models whose plan has no relation are counted, not listed.
 *
 *   bench_optimal_rel [DATA_DIR [TIME_LIMIT_S]]   (default $TINYARENA_DATA, 10 s)
 *   bench_optimal_rel random [TIME_LIMIT_S]     (default 1 s)
 *
 * Prints one row per model with relations, then the same as a Markdown
 * table (the README's).  `random`: seeded random problems (10 per size,
 * 25-200 buffers, 16-byte aligned sizes of 16-320 B, lifetimes of 1-6
 * steps over n/2 steps, n/3 relations of either kind with d in [-16, 48))
 * -- how many optimal proves within the limit, how many it improves on
 * best, the time, and the mean gap left to the bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "firmware.h"
#include "model_load.h"
#include "plan_report.h"
#include "tinyarena/rewrite.h"

typedef struct {
    char name[72];
    size_t n, nr, bound, best, opt, proven;
    ta_proof proof;
    double t_best, t_opt;
} row_t;

static double secs(void) { return (double)cli_clock(NULL) / 1e6; }

static bool run_one(const char *name, const model_plan *mp, bool offline, double limit, size_t *arena,
                    ta_plan_result *res, double *t) {
    ta_plan_options o;
    memset(&o, 0, sizeof o);
    o.overlaps = mp->overlaps;
    o.n_overlaps = mp->n_overlaps;
    o.clock = cli_clock;
    o.time_limit_s = limit;
    if (offline) o.flags |= TA_PLAN_ALLOW_FIXED_CONFLICT;
    double t0 = secs();
    plan_outcome po = plan_report_run(ta_strategy_find(name), mp->reqs, mp->n, &o);
    *t = secs() - t0;
    free(po.offsets);
    if (po.st) {
        fprintf(stderr, "bench_optimal_rel: %s: %s\n", name, po.diag.msg);
        return false;
    }
    *arena = po.res.arena_bytes;
    *res = po.res;
    return true;
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng_state >> 33) % n);
}

static int bench_random(double limit) {
    static const int sizes[] = {25, 50, 100, 200};
    printf("| buffers | `best` at the bound (proven before) | proven optimal | better than `best` | mean / max s | mean gap to the proven bytes |\n");
    printf("|---|---|---|---|---|---|\n");
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int n = sizes[si], proven = 0, better = 0, atb = 0;
        double tsum = 0, tmax = 0, gsum = 0;
        for (int seed = 0; seed < 10; seed++) {
            rng_state = 0x9E3779B97F4A7C15ull * (uint64_t)(seed + 1) + (uint64_t)n;
            ta_request r[256];
            ta_overlap ov[256];
            size_t nr = 0;
            for (int i = 0; i < n; i++) {
                int a = (int)rnd((uint32_t)n / 2);
                r[i] = ta_request_make(16 * (1 + rnd(20)), a, a + (int)rnd(6));
                r[i].align = 16;
            }
            for (int i = 0; i < n / 3; i++) {
                uint32_t x = rnd((uint32_t)n), y = rnd((uint32_t)n);
                if (x != y) ov[nr++] = (ta_overlap){x, y, rnd(2), (int64_t)rnd(64) - 16};
            }
            model_plan mp;
            memset(&mp, 0, sizeof mp);
            mp.reqs = r;
            mp.n = (size_t)n;
            mp.overlaps = ov;
            mp.n_overlaps = nr;
            size_t ab, ao;
            ta_plan_result rb, ro;
            double tb, to;
            if (!run_one("best", &mp, false, limit, &ab, &rb, &tb) || !run_one("optimal", &mp, false, limit, &ao, &ro, &to))
                return 1;
            proven += ro.proof == TA_PROOF_OPTIMAL;
            atb += ab == rb.lower_bound_bytes;
            better += ao < ab;
            tsum += to;
            if (to > tmax) tmax = to;
            gsum += (double)(ao - ro.proven_bytes) / (double)ro.proven_bytes;
        }
        printf("| %d | %d / 10 | %d / 10 | %d | %.3f / %.3f | %.2f%% |\n", n, atb, proven, better, tsum / 10, tmax, 100.0 * gsum / 10);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "random")) return bench_random(argc > 2 ? atof(argv[2]) : 1.0);
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    if (!data || !*data) data = "../shared";
    double limit = argc > 2 ? atof(argv[2]) : 10.0;
    model_manifest mf;
    if (!model_manifest_read(data, &mf)) {
        fprintf(stderr, "bench_optimal_rel: no %s/models/MANIFEST.tsv (pass DATA_DIR or set TINYARENA_DATA)\n", data);
        return 1;
    }
    printf("optimal with overlap relations: the firmware plan's problem (data %s, time limit %.1f s)\n", data, limit);
    printf("%-46s %5s %5s %12s %12s %12s %-16s %12s %8s %8s\n", "model", "bufs", "rels", "bound", "best", "optimal",
           "proof", "proven", "best s", "opt s");
    row_t rows[64];
    size_t nrow = 0, plain = 0, failed = 0;
    for (size_t i = 0; i < mf.n && nrow < sizeof rows / sizeof rows[0]; i++) {
        const char *file = mf.files[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/models/%s", data, file);
        loaded_model lm;
        if (model_load(path, &lm) != CLI_OK) {
            failed++;
            continue;
        }
        fw_plan p;
        /* best builds the problem (the strategy does not change it) */
        if (fw_plan_make(file, &lm, ta_strategy_find("best"), TA_REWRITE_ALL, TA_ALIGN_RULE_DEFAULT, &p) != CLI_OK) {
            failed++;
            model_unload(&lm);
            continue;
        }
        if (!p.mp.n_overlaps) {
            plain++;
        } else {
            row_t *r = &rows[nrow];
            memset(r, 0, sizeof *r);
            snprintf(r->name, sizeof r->name, "%.*s", (int)(strlen(file) > 7 ? strlen(file) - 7 : strlen(file)), file);
            r->n = p.mp.n;
            r->nr = p.mp.n_overlaps;
            const char *dump = getenv("BENCH_OPTIMAL_REL_DUMP"); /* a model name: its problem to stderr */
            if (dump && strstr(file, dump)) {
                for (size_t k = 0; k < p.mp.n; k++)
                    fprintf(stderr, "req %zu %zu %d %d %zu\n", p.mp.reqs[k].size, p.mp.reqs[k].align,
                            p.mp.reqs[k].first, p.mp.reqs[k].last, p.mp.reqs[k].fixed);
                for (size_t k = 0; k < p.mp.n_overlaps; k++)
                    fprintf(stderr, "rel %u %u %u %lld\n", p.mp.overlaps[k].x, p.mp.overlaps[k].y,
                            p.mp.overlaps[k].kind, (long long)p.mp.overlaps[k].d);
            }
            ta_plan_result rb, ro;
            bool off = lm.offline != NULL;
            if (run_one("best", &p.mp, off, limit, &r->best, &rb, &r->t_best) &&
                run_one("optimal", &p.mp, off, limit, &r->opt, &ro, &r->t_opt)) {
                r->bound = ro.lower_bound_bytes;
                r->proof = ro.proof;
                r->proven = ro.proven_bytes;
                char a[32], b[32], c[32], d[32];
                printf("%-46s %5zu %5zu %12s %12s %12s %-16s %12s %8.3f %8.3f\n", r->name, r->n, r->nr,
                       fmt_bytes(r->bound, a), fmt_bytes(r->best, b), fmt_bytes(r->opt, c), ta_proof_str(r->proof),
                       fmt_bytes(r->proven, d), r->t_best, r->t_opt);
                fflush(stdout);
                nrow++;
            } else {
                failed++;
            }
        }
        fw_plan_free(&p);
        model_unload(&lm);
    }
    model_manifest_free(&mf);
    printf("%zu models with relations, %zu without, %zu not planned\n", nrow, plain, failed);
    printf("\n| model | buffers | relations | bound | `best` | `optimal` | proof (proven bytes) | `best` s | `optimal` s |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nrow; i++) {
        const row_t *r = &rows[i];
        char a[32], b[32], c[32], d[32];
        printf("| %s | %zu | %zu | %s | %s | %s | %s (%s) | %.3f | %.3f |\n", r->name, r->n, r->nr, fmt_bytes(r->bound, a),
               fmt_bytes(r->best, b), fmt_bytes(r->opt, c), ta_proof_str(r->proof), fmt_bytes(r->proven, d), r->t_best,
               r->t_opt);
    }
    return 0;
}
