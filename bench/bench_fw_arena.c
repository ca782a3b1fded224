#define _POSIX_C_SOURCE 200809L
/* bench_fw_arena: what firmware pays against TFLM's smallest working arena.
 *
 * For every model of the shared manifest the runtime runs, with TFLM's
 * graph (--rewrite none), with the graph and buffer rewrites
 * (alias,inplace,fusepad,order), with each later group added in turn and
 * with every rewrite (all, the CLI's default): emits the budget header with the CLI
 * (`tinyarena plan MODEL --header`, default strategy) and reads the figures
 * firmware compiles -- <P>_BYTES (planned), <P>_PERSISTENT_BYTES and
 * <P>_ARENA_BYTES for 64-bit and for 32-bit pointers, <P>_CONST_BYTES and
 * <P>_INIT_BYTES (flash), <P>_ARENA_BYTES_CONSTS_IN_ARENA -- next to TFLM's
 * smallest working arena (models/reference/tflm_min_arena.tsv, an x86-64
 * build, so the ratio is against the 64-bit figure).  The "before" column is
 * the runtime's previous in-place init with a const blob (the work block in
 * the head: max(planned, work) + persistent + 15), what <P>_ARENA_BYTES was.
 * Prints a markdown table per graph and the geometric mean of the ratios,
 * then the chain: each model's `_ARENA_BYTES` with each step added (TFLM's
 * graph and rules; the whole-tensor rewrites alias,inplace,fusepad,order;
 * + dwinplace,concat,slice,gather; + overlap; + silu; + inputs; + patch stages, the default), and
 * its ratio to TFLM's smallest arena.
 *   bench_fw_arena [DATA_DIR]   (DATA_DIR defaults to $TINYARENA_DATA;
 *                               the CLI is $TINYARENA_CLI, default build/tinyarena) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_header.h"
#include "cli.h"
#include "firmware.h"
#include "model_load.h"
#include "plan_report.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"


static size_t tflm_min(const char *tsv, const char *file) {
    char key[512];
    snprintf(key, sizeof key, "\n%s\t", file);
    const char *line = tsv ? strstr(tsv, key) : NULL;
    if (!line) return 0;
    const char *p = strchr(line + 1, '\t');
    p = p ? strchr(p + 1, '\t') : NULL;
    return p ? (size_t)strtoull(p + 1, NULL, 10) : 0;
}

/* The previous in-place init with a const blob and no init table. */
static size_t before_of(const loaded_model *lm, uint32_t rewrites) {
    fw_plan p;
    fw_budget fw;
    ta_diag d;
    size_t v = 0;
    memset(&fw, 0, sizeof fw);
    /* the CLI's default alignment rule, as the headers below */
    if (!fw_plan_make("bench", lm, ta_strategy_find("optimal"), rewrites, TA_ALIGN_RULE_DEFAULT, &p) &&
        fw_make(lm->bytes, lm->len, &p.table, p.applied, TA_ALIGN_RULE_DEFAULT, &fw, &d)) {
        ta_runtime_options opt = ta_runtime_options_default();
        ta_runtime_use_table(&opt, &p.table);
        opt.rewrites = p.applied;
        ta_runtime_use_consts(&opt, fw.consts, fw.consts_bytes);
        ta_runtime rt;
        void *work = NULL;
        size_t wb = 0;
        ta_arena_breakdown b;
        if (!ta_runtime_open(&rt, lm->bytes, lm->len, &opt, &d) && !cli_runtime_query(&rt, &work, &wb, &b, &d))
            v = b.total_in_place;
        free(work);
    }
    fw_free(&fw);
    fw_plan_free(&p);
    return v;
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    const char *cli = getenv("TINYARENA_CLI") ? getenv("TINYARENA_CLI") : "build/tinyarena";
    if (!data) {
        fprintf(stderr, "usage: bench_fw_arena DATA_DIR (or set TINYARENA_DATA)\n");
        return 2;
    }
    model_manifest mf;
    if (!model_manifest_read(data, &mf)) {
        fprintf(stderr, "bench_fw_arena: cannot read %s/models/MANIFEST.tsv\n", data);
        return 1;
    }
    char path[2048];
    snprintf(path, sizeof path, "%s/models/reference/tflm_min_arena.tsv", data);
    size_t tl = 0;
    char *tsv = (char *)cli_read_file(path, &tl);
    char hdr[] = "/tmp/bench_fw_arena_XXXXXX";
    if (!mkdtemp(hdr)) return 1;
    enum { N_STEPS = 7 };
    /* each step adds rewrites to the one before, layer by layer
     * (--patch-overhead 0); the last is the default: every rewrite and
     * the patch stages `plan --header` chooses (10% extra MACs at most) */
    static const char *const k_steps[N_STEPS] = {
        "none", "alias,inplace,fusepad,order", "alias,inplace,fusepad,order,dwinplace,concat,slice,gather",
        "alias,inplace,fusepad,order,dwinplace,concat,slice,gather,overlap",
        "alias,inplace,fusepad,order,dwinplace,concat,slice,gather,overlap,silu", "all", "all"};
    static const char *const k_patch[N_STEPS] = {"0", "0", "0", "0", "0", "0", "10"};
    static const uint32_t k_flags[N_STEPS] = {
        0u,
        TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_FUSEPAD | TA_REWRITE_ORDER,
        TA_REWRITE_ALL & ~(TA_REWRITE_OVERLAP | TA_REWRITE_SILU | TA_REWRITE_INPUTS),
        TA_REWRITE_ALL & ~(TA_REWRITE_SILU | TA_REWRITE_INPUTS),
        TA_REWRITE_ALL & ~TA_REWRITE_INPUTS,
        TA_REWRITE_ALL, TA_REWRITE_ALL};
    /* per model: TFLM's, then each step's _ARENA_BYTES */
    size_t *chain = calloc(mf.n * (N_STEPS + 1) + 1, sizeof *chain);
    for (int r = 0; r < N_STEPS; r++) {
        printf("\n`--rewrite %s --patch-overhead %s`:\n\n", k_steps[r], k_patch[r]);
        printf("| model | planned | persistent | `_ARENA_BYTES` | before (work block in the head) | TFLM smallest arena | ratio | 32-bit MCU: persistent / `_ARENA_BYTES` | flash: const blob + init table | consts in the arena |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|\n");
        double log_sum = 0;
        int n = 0, above = 0;
        for (size_t i = 0; i < mf.n; i++) {
            loaded_model lm;
            ta_diag d;
            size_t ns = 0;
            snprintf(path, sizeof path, "%s/models/%s", data, mf.files[i]);
            if (model_load(path, &lm) || ta_runtime_scratch_requests(&lm.g, NULL, 0, &ns, &d)) {
                model_unload(&lm);
                continue;
            }
            char cmd[8192], h[2100];
            snprintf(h, sizeof h, "%s/budget.h", hdr);
            snprintf(cmd, sizeof cmd, "'%s' plan '%s' --rewrite %s --patch-overhead %s --header '%s' > /dev/null 2>&1", cli, path,
                     k_steps[r], k_patch[r], h);
            size_t hl = 0;
            char *text = system(cmd) == 0 ? (char *)cli_read_file(h, &hl) : NULL;
            if (!text || !strstr(text, "_INIT_BYTES")) {
                fprintf(stderr, "bench_fw_arena: %s: no runtime header (%s)\n", mf.files[i], cmd);
                free(text);
                model_unload(&lm);
                continue;
            }
            const size_t planned = bench_define_of(text, "BUDGET_BYTES", 0), p64 = bench_define_of(text, "BUDGET_PERSISTENT_BYTES", 0),
                         a64 = bench_define_of(text, "BUDGET_ARENA_BYTES", 0), p32 = bench_define_of(text, "BUDGET_PERSISTENT_BYTES", 1),
                         a32 = bench_define_of(text, "BUDGET_ARENA_BYTES", 1), cb = bench_define_of(text, "BUDGET_CONST_BYTES", 0),
                         ib = bench_define_of(text, "BUDGET_INIT_BYTES", 0),
                         cia = bench_define_of(text, "BUDGET_ARENA_BYTES_CONSTS_IN_ARENA", 0);
            const size_t tflm = tflm_min(tsv, mf.files[i]), before = before_of(&lm, k_flags[r]);
            chain[(N_STEPS + 1) * i] = tflm;
            chain[(N_STEPS + 1) * i + 1 + (size_t)r] = a64;
            char b[10][32], ratio[32] = "-";
            if (tflm) snprintf(ratio, sizeof ratio, "%.3f", (double)a64 / (double)tflm);
            char name[256];
            snprintf(name, sizeof name, "%s", mf.files[i]);
            char *dot = strrchr(name, '.');
            if (dot) *dot = 0;
            printf("| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s + %s | %s |\n", name, fmt_bytes(planned, b[0]),
                   fmt_bytes(p64, b[1]), fmt_bytes(a64, b[2]), fmt_bytes(before, b[3]), tflm ? fmt_bytes(tflm, b[4]) : "-",
                   ratio, fmt_bytes(p32, b[5]), fmt_bytes(a32, b[6]), fmt_bytes(cb, b[7]), fmt_bytes(ib, b[8]),
                   fmt_bytes(cia, b[9]));
            if (tflm) {
                log_sum += log((double)a64 / (double)tflm);
                n++;
                above += a64 > tflm;
            }
            free(text);
            model_unload(&lm);
        }
        if (n) printf("\ngeometric mean of `_ARENA_BYTES` / TFLM's smallest arena over %d models: %.3f (%d above TFLM)\n", n,
                      exp(log_sum / n), above);
    }
    /* the chain, one row per model with a TFLM figure */
    printf("\nThe chain (`_ARENA_BYTES`, 64-bit host; ratio to TFLM's smallest arena):\n\n");
    printf("| model | TFLM smallest arena | TFLM's rules (`none`) | + alias, inplace, fusepad, order | + dwinplace, concat, slice, gather | + overlap | + silu | + inputs | + patch stages (default) |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    double lg[N_STEPS] = {0};
    int nc = 0;
    for (size_t i = 0; i < mf.n; i++) {
        const size_t *c = &chain[(N_STEPS + 1) * i];
        int full = c[0] != 0;
        for (int k = 1; k <= N_STEPS; k++) full = full && c[k];
        if (!full) continue;
        char name[256], b[32];
        snprintf(name, sizeof name, "%s", mf.files[i]);
        char *dot = strrchr(name, '.');
        if (dot) *dot = 0;
        printf("| %s | %s |", name, fmt_bytes(c[0], b));
        for (int k = 1; k <= N_STEPS; k++) {
            printf(" %s (%.3f) |", fmt_bytes(c[k], b), (double)c[k] / (double)c[0]);
            lg[k - 1] += log((double)c[k] / (double)c[0]);
        }
        printf("\n");
        nc++;
    }
    if (nc) {
        printf("\ngeometric mean over %d models:", nc);
        for (int k = 0; k < N_STEPS; k++) printf("%s%.3f", k ? " -> " : " ", exp(lg[k] / nc));
        printf("\n");
    }
    free(chain);
    snprintf(path, sizeof path, "%s/budget.h", hdr);
    remove(path);
    remove(hdr);
    free(tsv);
    model_manifest_free(&mf);
    return 0;
}
