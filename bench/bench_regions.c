/* bench_regions: how much of a model's activation traffic stays in a small
 * fast memory (issue #16).
 *
 * For every model of the shared manifest the runtime runs: the runtime's
 * buffers (the CLI's default: every rewrite, kernel scratch planned), each
 * weighted by the bytes its ops read and write (ta_lifetime_access_bytes),
 * planned across a FAST region of 32, 64, 128 and 256 KB and a SLOW one that
 * holds the rest and the persistent part (`best`, regions.h).  Printed: the
 * share of the accessed bytes whose buffer sits in FAST, against the
 * baseline that keeps one arena whole -- all of it in FAST when its plan
 * (`optimal`, one arena) fits there, else all of it in SLOW, which is what
 * a single-arena runtime (TFLM's, or tinyarena's before regions) can do.
 * Weights and other constants stay in flash and are not counted; the
 * persistent part's traffic (pointer tables) is not counted either.
 *   bench_regions [DATA_DIR]   (DATA_DIR defaults to $TINYARENA_DATA) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "firmware.h"
#include "model_load.h"
#include "tinyarena/regions.h"
#include "tinyarena/rewrite.h"

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    if (!data) {
        fprintf(stderr, "usage: bench_regions DATA_DIR (or set TINYARENA_DATA)\n");
        return 2;
    }
    model_manifest mf;
    if (!model_manifest_read(data, &mf)) {
        fprintf(stderr, "bench_regions: cannot read %s/models/MANIFEST.tsv\n", data);
        model_manifest_free(&mf);
        return 1;
    }
    enum { N_FAST = 4 };
    static const size_t k_fast[N_FAST] = {32u << 10, 64u << 10, 128u << 10, 256u << 10};
    printf("| model | one arena | accessed bytes | FAST 32 KB: regions / one arena | 64 KB | 128 KB | 256 KB |\n");
    printf("|---|---|---|---|---|---|---|\n");
    char path[2048];
    double sum_share[N_FAST] = {0}, sum_base[N_FAST] = {0};
    int n_models = 0;
    for (size_t i = 0; i < mf.n; i++) {
        loaded_model lm;
        ta_diag d;
        size_t ns = 0;
        snprintf(path, sizeof path, "%s/models/%s", data, mf.files[i]);
        if (model_load(path, &lm) || ta_runtime_scratch_requests(&lm.g, NULL, 0, &ns, &d)) {
            model_unload(&lm);
            continue;
        }
        fw_plan p;
        if (fw_plan_make("bench", &lm, ta_strategy_find("optimal"), TA_REWRITE_ALL, TA_ALIGN_RULE_DEFAULT, &p)) {
            model_unload(&lm);
            continue;
        }
        const model_plan *mp = &p.mp;
        const ta_graph *g = mp->g;
        uint64_t *w = calloc(mp->n + 1, sizeof *w), *tw = calloc(g->n_tensors + 1u, sizeof *tw), total = 0;
        if (ta_lifetime_access_bytes(g, mp->origin, mp->reqs, mp->n, mp->buffer_of, mp->buffer_of ? g->n_tensors : 0, tw,
                                     w, &d)) {
            fprintf(stderr, "bench_regions: %s: %s\n", mf.files[i], d.msg);
            free(w);
            free(tw);
            fw_plan_free(&p);
            model_unload(&lm);
            continue;
        }
        for (size_t k = 0; k < mp->n; k++) total += w[k];
        const size_t arena = p.res.arena_bytes;
        printf("| %s | %zu | %llu |", mf.files[i], arena, (unsigned long long)total);
        uint32_t *reg = calloc(mp->n + 1, sizeof *reg);
        size_t *off = calloc(mp->n + 1, sizeof *off);
        for (int f = 0; f < N_FAST; f++) {
            ta_region regs[2] = {{"FAST", k_fast[f], 0}, {"SLOW", (size_t)1 << 32, 1}};
            ta_region_problem prob = {regs, 2, NULL, w};
            ta_plan_options opt;
            memset(&opt, 0, sizeof opt);
            opt.overlaps = mp->overlaps;
            opt.n_overlaps = mp->n_overlaps;
            opt.clock = cli_clock;
            opt.time_limit_s = 2;
            const ta_strategy *s = ta_strategy_find("best");
            size_t need;
            ta_region_result res;
            double share = 0, base = arena <= k_fast[f] ? 1.0 : 0.0;
            if (!ta_regions_scratch_bytes(s, mp->reqs, mp->n, &prob, &opt, &need)) {
                void *scr = malloc(need);
                if (!ta_regions_plan(s, mp->reqs, mp->n, &prob, &opt, scr, need, reg, off, &res, &d))
                    share = total ? (double)res.accessed_bytes[0] / (double)total : 0;
                else
                    fprintf(stderr, "bench_regions: %s: %s\n", mf.files[i], d.msg);
                free(scr);
            }
            printf(" %.1f%% / %.0f%% |", 100 * share, 100 * base);
            sum_share[f] += share;
            sum_base[f] += base;
        }
        printf("\n");
        n_models++;
        free(reg);
        free(off);
        free(w);
        free(tw);
        fw_plan_free(&p);
        model_unload(&lm);
    }
    if (n_models) {
        printf("| mean over %d models | | |", n_models);
        for (int f = 0; f < N_FAST; f++)
            printf(" %.1f%% / %.0f%% |", 100 * sum_share[f] / n_models, 100 * sum_base[f] / n_models);
        printf("\n");
    }
    model_manifest_free(&mf);
    return 0;
}
