#define _POSIX_C_SOURCE 200809L
/* bench_fw_arena: what firmware pays against TFLM's smallest working arena.
 *
 * For every model of the shared manifest the runtime runs, with TFLM's
 * graph and with --rewrite all: emits the budget header with the CLI
 * (`tinyarena plan MODEL --header`, default strategy) and reads the figures
 * firmware compiles -- <P>_BYTES (planned), <P>_PERSISTENT_BYTES and
 * <P>_ARENA_BYTES for 64-bit and for 32-bit pointers, <P>_CONST_BYTES and
 * <P>_INIT_BYTES (flash), <P>_ARENA_BYTES_CONSTS_IN_ARENA -- next to TFLM's
 * smallest working arena (models/reference/tflm_min_arena.tsv, an x86-64
 * build, so the ratio is against the 64-bit figure).  The "before" column is
 * the runtime's previous in-place init with a const blob (the work block in
 * the head: max(planned, work) + persistent + 15), what <P>_ARENA_BYTES was.
 * Prints a markdown table per graph and the geometric mean of the ratios,
 * then the chain: `_ARENA_BYTES` with TFLM's graph, with the whole-tensor
 * rewrites (alias,inplace,fusepad,order) and with every rewrite (adding
 * dwinplace and concat), and the bytes that last step saves.
 *   bench_fw_arena [DATA_DIR]   (DATA_DIR defaults to $TINYARENA_DATA;
 *                               the CLI is $TINYARENA_CLI, default build/tinyarena) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "firmware.h"
#include "model_load.h"
#include "plan_report.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"

/* The value of the k-th (0-based) `#define NAME N` line, or 0. */
static size_t define_of(const char *text, const char *name, int k) {
    char key[128];
    snprintf(key, sizeof key, "#define %s ", name);
    for (const char *p = text; (p = strstr(p, key)); p += strlen(key))
        if (k-- == 0) return (size_t)strtoull(p + strlen(key), NULL, 10);
    return 0;
}

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
    if (!fw_plan_make("bench", lm, ta_strategy_find("optimal"), rewrites, &p) &&
        fw_make(lm->bytes, lm->len, &p.table, p.applied, &fw, &d)) {
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
    size_t *arena[3]; /* per manifest entry: _ARENA_BYTES with none, all, the whole-tensor rewrites (0: not run) */
    for (int r = 0; r < 3; r++) arena[r] = calloc(mf.n ? mf.n : 1, sizeof(size_t));
    for (int r = 0; r < 2; r++) {
        printf("\n%s\n\n", r ? "With --rewrite all:" : "TFLM's graph:");
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
            snprintf(cmd, sizeof cmd, "'%s' plan '%s' %s --header '%s' > /dev/null 2>&1", cli, path, r ? "--rewrite all" : "", h);
            size_t hl = 0;
            char *text = system(cmd) == 0 ? (char *)cli_read_file(h, &hl) : NULL;
            if (!text || !strstr(text, "_INIT_BYTES")) {
                fprintf(stderr, "bench_fw_arena: %s: no runtime header (%s)\n", mf.files[i], cmd);
                free(text);
                model_unload(&lm);
                continue;
            }
            const size_t planned = define_of(text, "BUDGET_BYTES", 0), p64 = define_of(text, "BUDGET_PERSISTENT_BYTES", 0),
                         a64 = define_of(text, "BUDGET_ARENA_BYTES", 0), p32 = define_of(text, "BUDGET_PERSISTENT_BYTES", 1),
                         a32 = define_of(text, "BUDGET_ARENA_BYTES", 1), cb = define_of(text, "BUDGET_CONST_BYTES", 0),
                         ib = define_of(text, "BUDGET_INIT_BYTES", 0),
                         cia = define_of(text, "BUDGET_ARENA_BYTES_CONSTS_IN_ARENA", 0);
            const size_t tflm = tflm_min(tsv, mf.files[i]), before = before_of(&lm, r ? TA_REWRITE_ALL : 0u);
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
            arena[r][i] = a64;
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
    /* the chain: the whole-tensor rewrites alone, for the step the others add */
    printf("\nThe chain (`_ARENA_BYTES`, 64-bit host; ratio to TFLM's smallest arena):\n\n");
    printf("| model | TFLM smallest arena | TFLM's graph | + alias,inplace,fusepad,order | + dwinplace,concat | saved by dwinplace,concat |\n");
    printf("|---|---|---|---|---|---|\n");
    double lg[3] = {0, 0, 0};
    int nl = 0;
    for (size_t i = 0; i < mf.n; i++) {
        if (!arena[0][i] || !arena[1][i]) continue;
        snprintf(path, sizeof path, "%s/models/%s", data, mf.files[i]);
        char cmd[8192], h[2100];
        snprintf(h, sizeof h, "%s/budget.h", hdr);
        snprintf(cmd, sizeof cmd, "'%s' plan '%s' --rewrite alias,inplace,fusepad,order --header '%s' > /dev/null 2>&1", cli,
                 path, h);
        size_t hl = 0;
        char *text = system(cmd) == 0 ? (char *)cli_read_file(h, &hl) : NULL;
        arena[2][i] = text ? define_of(text, "BUDGET_ARENA_BYTES", 0) : 0;
        free(text);
        const size_t tflm = tflm_min(tsv, mf.files[i]), a0 = arena[0][i], a4 = arena[2][i], a6 = arena[1][i];
        char b[5][32], r0[16] = "", r4[16] = "", r6[16] = "", name[256];
        if (tflm) {
            snprintf(r0, sizeof r0, " (%.3f)", (double)a0 / (double)tflm);
            snprintf(r4, sizeof r4, " (%.3f)", (double)a4 / (double)tflm);
            snprintf(r6, sizeof r6, " (%.3f)", (double)a6 / (double)tflm);
            if (a4) {
                lg[0] += log((double)a0 / (double)tflm), lg[1] += log((double)a4 / (double)tflm);
                lg[2] += log((double)a6 / (double)tflm), nl++;
            }
        }
        snprintf(name, sizeof name, "%s", mf.files[i]);
        char *dot = strrchr(name, '.');
        if (dot) *dot = 0;
        printf("| %s | %s | %s%s | %s%s | %s%s | %s B |\n", name, tflm ? fmt_bytes(tflm, b[0]) : "-", fmt_bytes(a0, b[1]), r0,
               fmt_bytes(a4, b[2]), r4, fmt_bytes(a6, b[3]), r6,
               fmt_bytes(a4 > a6 ? a4 - a6 : 0, b[4]));
    }
    if (nl)
        printf("\ngeometric mean over %d models: %.3f -> %.3f -> %.3f\n", nl, exp(lg[0] / nl), exp(lg[1] / nl),
               exp(lg[2] / nl));
    for (int r = 0; r < 3; r++) free(arena[r]);
    snprintf(path, sizeof path, "%s/budget.h", hdr);
    remove(path);
    remove(hdr);
    free(tsv);
    model_manifest_free(&mf);
    return 0;
}
