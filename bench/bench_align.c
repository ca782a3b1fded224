#define _POSIX_C_SOURCE 200809L
/* bench_align: the firmware arena under each alignment rule (issue 17).
 *
 * For every model of the shared manifest the runtime runs, TFLM's graph
 * (`--rewrite none`): emits the budget header with the CLI under
 * `--align-rule tflm` (TFLM's 16), the default `arch` (4) and `dtype`
 * (`tinyarena plan MODEL --rewrite none --align-rule R --header`, default
 * strategy optimal) and reads what firmware compiles: <P>_BYTES (planned),
 * <P>_PERSISTENT_BYTES and <P>_ARENA_BYTES for 64-bit and 32-bit pointers.
 * Next to them, from `plan --json`, the padding bytes (the planned buffers'
 * padded bytes minus the bytes they hold) under the rule and under tflm.
 * Prints a markdown table, what the default saves against tflm, and how many
 * models grow (none may).
 *   bench_align [DATA_DIR]   (DATA_DIR defaults to $TINYARENA_DATA; the CLI
 *                            is $TINYARENA_CLI, default build/tinyarena) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_header.h"
#include "cli.h"
#include "model_load.h"
#include "plan_report.h"
#include "tinyarena/runtime.h"


/* A JSON number field of `plan --json`, or 0. */
static size_t json_of(const char *text, const char *key) {
    char k[96];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *p = text ? strstr(text, k) : NULL;
    return p ? (size_t)strtoull(p + strlen(k), NULL, 10) : 0;
}

typedef struct {
    size_t planned, p64, a64, p32, a32, padding, tflm_padding;
    bool ok;
} figures;

static figures run_rule(const char *cli, const char *model, const char *rule, const char *dir) {
    figures f;
    memset(&f, 0, sizeof f);
    char cmd[8192], h[2100], j[2100];
    snprintf(h, sizeof h, "%s/budget.h", dir);
    snprintf(j, sizeof j, "%s/plan.json", dir);
    snprintf(cmd, sizeof cmd, "'%s' plan '%s' --rewrite none --align-rule %s --header '%s' > /dev/null 2>&1 && '%s' plan '%s' --rewrite none --align-rule %s --json > '%s' 2>/dev/null",
             cli, model, rule, h, cli, model, rule, j);
    size_t hl = 0, jl = 0;
    char *text = system(cmd) == 0 ? (char *)cli_read_file(h, &hl) : NULL;
    char *json = text ? (char *)cli_read_file(j, &jl) : NULL;
    if (text && json && strstr(text, "_INIT_BYTES")) {
        f.planned = bench_define_of(text, "BUDGET_BYTES", 0);
        f.p64 = bench_define_of(text, "BUDGET_PERSISTENT_BYTES", 0);
        f.a64 = bench_define_of(text, "BUDGET_ARENA_BYTES", 0);
        f.p32 = bench_define_of(text, "BUDGET_PERSISTENT_BYTES", 1);
        f.a32 = bench_define_of(text, "BUDGET_ARENA_BYTES", 1);
        f.padding = json_of(json, "padding_bytes");
        f.tflm_padding = json_of(json, "tflm_padding_bytes");
        f.ok = true;
    }
    free(text);
    free(json);
    return f;
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    const char *cli = getenv("TINYARENA_CLI") ? getenv("TINYARENA_CLI") : "build/tinyarena";
    if (!data) {
        fprintf(stderr, "usage: bench_align DATA_DIR (or set TINYARENA_DATA)\n");
        return 2;
    }
    model_manifest mf;
    if (!model_manifest_read(data, &mf)) {
        fprintf(stderr, "bench_align: cannot read %s/models/MANIFEST.tsv\n", data);
        return 1;
    }
    char dir[] = "/tmp/bench_align_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    printf("| model | planned: tflm / arch / dtype | persistent (64-bit): tflm / arch | `_ARENA_BYTES` (64-bit): tflm / arch / dtype | "
           "saved (arch) | 32-bit MCU `_ARENA_BYTES`: tflm / arch | padding: tflm / arch / dtype |\n");
    printf("|---|---|---|---|---|---|---|\n");
    int n = 0, smaller = 0, grew = 0;
    size_t sum_t = 0, sum_a = 0;
    for (size_t i = 0; i < mf.n; i++) {
        char path[2048];
        loaded_model lm;
        ta_diag d;
        size_t ns = 0;
        snprintf(path, sizeof path, "%s/models/%s", data, mf.files[i]);
        const bool runnable = !model_load(path, &lm) && !ta_runtime_scratch_requests(&lm.g, NULL, 0, &ns, &d);
        model_unload(&lm);
        if (!runnable) continue;
        const figures t = run_rule(cli, path, "tflm", dir), a = run_rule(cli, path, "arch", dir),
                      y = run_rule(cli, path, "dtype", dir);
        if (!t.ok || !a.ok || !y.ok) continue; /* the runtime refuses it (several subgraphs) */
        char name[256];
        snprintf(name, sizeof name, "%s", mf.files[i]);
        char *dot = strrchr(name, '.');
        if (dot) *dot = 0;
        char b[16][32], saved[64];
        const long diff = (long)t.a64 - (long)a.a64;
        snprintf(saved, sizeof saved, "%ld B (%.1f%%)", diff, t.a64 ? 100.0 * (double)diff / (double)t.a64 : 0.0);
        printf("| %s | %s / %s / %s | %s / %s | %s / %s / %s | %s | %s / %s | %s / %s / %s |\n", name, fmt_bytes(t.planned, b[0]),
               fmt_bytes(a.planned, b[1]), fmt_bytes(y.planned, b[2]), fmt_bytes(t.p64, b[3]), fmt_bytes(a.p64, b[4]),
               fmt_bytes(t.a64, b[5]), fmt_bytes(a.a64, b[6]), fmt_bytes(y.a64, b[7]), saved, fmt_bytes(t.a32, b[8]),
               fmt_bytes(a.a32, b[9]), fmt_bytes(t.padding, b[10]), fmt_bytes(a.padding, b[11]), fmt_bytes(y.padding, b[12]));
        n++;
        smaller += a.a64 < t.a64;
        grew += a.a64 > t.a64 || a.a32 > t.a32 || y.a64 > t.a64;
        sum_t += t.a64;
        sum_a += a.a64;
    }
    printf("\n%d models: `_ARENA_BYTES` smaller under arch than under tflm on %d, larger (arch or dtype, 64- or 32-bit) on %d; "
           "total %zu -> %zu B\n",
           n, smaller, grew, sum_t, sum_a);
    char path[2100];
    snprintf(path, sizeof path, "%s/budget.h", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    remove(path);
    remove(dir);
    model_manifest_free(&mf);
    return grew ? 1 : 0;
}
