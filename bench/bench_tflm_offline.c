/* bench_tflm_offline: what `plan --tflm-offline` gives a TFLM user, per
 * shared model TFLM runs (models/reference/tflm_reference.tsv).
 *
 *   bench_tflm_offline [DATA_DIR]
 *
 * For each model: TFLM's greedy head without the metadata (TFLM's own
 * figure), the head our simulation predicts, and the head TFLM's greedy
 * gets on TFLM's own buffer list (its sizes, lifetimes and kernel scratch
 * requests, reference/tflm_buffers) with the written offsets fixed -- the
 * figure a TFLM build would see -- planned with our kernels' scratch
 * requests (the default) and with TFLM's own (--tflm-scratch).  Prints a
 * Markdown table. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_load.h"
#include "plan_report.h"
#include "tflm_offline.h"
#include "tinyarena/plan.h"

#define MAXB 1024

/* TFLM's kernel scratch requests of a model, from its list (request order). */
static size_t tflm_scratch(const char *data, const char *list, ta_scratch_request *sc) {
    char path[2048];
    snprintf(path, sizeof path, "%s/models/reference/tflm_buffers/%s.meta.csv", data, list);
    size_t len, n = 0;
    char *txt = (char *)cli_read_file(path, &len);
    if (!txt) return 0;
    char *save, *line = strtok_r(txt, "\n", &save);
    for (line = strtok_r(NULL, "\n", &save); line && n < MAXB; line = strtok_r(NULL, "\n", &save)) {
        long id, size, bytes;
        const char *op = strstr(line, "\"sg0:op");
        if (strstr(line, ",scratch,") && op && sscanf(line, "%ld,%ld,%ld", &id, &size, &bytes) == 3)
            sc[n++] = (ta_scratch_request){0, (uint32_t)atoi(op + 7), (size_t)bytes, 16};
    }
    free(txt);
    return n;
}

static size_t tflm_head_with(const char *data, const char *list, const tflm_offline *t, long *n_scratch) {
    char path[2048];
    snprintf(path, sizeof path, "%s/models/reference/tflm_buffers/%s.meta.csv", data, list);
    size_t len, n = 0;
    char *txt = (char *)cli_read_file(path, &len);
    if (!txt) return SIZE_MAX;
    static ta_request r[MAXB];
    *n_scratch = 0;
    char *save, *line = strtok_r(txt, "\n", &save);
    for (line = strtok_r(NULL, "\n", &save); line && n < MAXB; line = strtok_r(NULL, "\n", &save)) {
        long id, size, bytes, first, last, off, toff, sg, ti;
        char kind[16];
        if (sscanf(line, "%ld,%ld,%ld,%ld,%ld,%ld,%ld,%15[^,],%ld,%ld", &id, &size, &bytes, &first, &last, &off, &toff,
                   kind, &sg, &ti) != 10)
            continue;
        r[n] = ta_request_make((size_t)size, (int32_t)first, (int32_t)last);
        r[n].align = 16;
        if (strcmp(kind, "tensor") == 0 && ti >= 0 && (size_t)ti < t->n && t->offsets[ti] >= 0)
            r[n].fixed = (size_t)t->offsets[ti];
        if (strcmp(kind, "scratch") == 0) ++*n_scratch;
        n++;
    }
    free(txt);
    const ta_strategy *s = ta_strategy_find("greedy");
    size_t need = 0;
    ta_plan_scratch_bytes(s, r, n, NULL, &need);
    void *scr = malloc(need);
    size_t *offs = malloc((n ? n : 1) * sizeof *offs);
    ta_plan_result res;
    ta_diag d;
    ta_status st = ta_plan_run(s, r, n, NULL, scr, need, offs, &res, &d);
    free(offs);
    free(scr);
    return st ? SIZE_MAX : res.arena_bytes;
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    if (!data) data = "../shared";
    char path[2048];
    snprintf(path, sizeof path, "%s/models/reference/tflm_reference.tsv", data);
    size_t len;
    char *ref = (char *)cli_read_file(path, &len);
    if (!ref) return cli_error("%s: cannot read", path);
    printf("| model | TFLM greedy head | predicted | TFLM with the metadata | saved | tensors fixed | scratch (TFLM / ours) | TFLM with --tflm-scratch |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    char *save, *line = strtok_r(ref, "\n", &save);
    for (line = line ? strtok_r(NULL, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char name[512], status[512], list[1024];
        long buffers, scratch, planned;
        if (sscanf(line, "%511[^\t]\t%511[^\t]\t%ld\t%ld\t%ld", name, status, &buffers, &scratch, &planned) != 5) continue;
        if (strncmp(status, "OK", 2) != 0) continue;
        snprintf(list, sizeof list, "%s", name);
        for (char *p = list; *p; p++)
            if (*p == '/') *p = '_', memmove(p + 1, p, strlen(p) + 1), p++;
        char *dot = strstr(list, ".tflite");
        if (dot) *dot = '\0';
        snprintf(path, sizeof path, "%s/models/%s", data, name);
        loaded_model lm;
        tflm_offline t;
        ta_plan_options popt;
        memset(&popt, 0, sizeof popt);
        popt.time_limit_s = 10;
        popt.clock = cli_clock;
        if (model_load(path, &lm) || tflm_offline_make(&lm, &popt, &t)) {
            printf("| %s | failed | | | | | |\n", name);
            model_unload(&lm);
            continue;
        }
        long ns = 0, ns2 = 0;
        size_t head = tflm_head_with(data, list, &t, &ns);
        static ta_scratch_request sc[MAXB];
        size_t n_sc = tflm_scratch(data, list, sc), head2 = SIZE_MAX;
        tflm_offline t2;
        if (tflm_offline_make_with(&lm, &popt, sc, n_sc, &t2) == CLI_OK) head2 = tflm_head_with(data, list, &t2, &ns2);
        tflm_offline_free(&t2);
        char b1[32], b2[32], b3[32], b4[32];
        long saved = planned - (long)head;
        printf("| %s%s | %s | %s | %s | %ld B (%.1f%%) | %zu | %ld / %zu | %s |\n", name,
               lm.offline ? " (had a Vela plan)" : "", fmt_bytes((size_t)planned, b1), fmt_bytes(t.predicted_head, b2),
               fmt_bytes(head, b3), saved, planned ? 100.0 * (double)saved / (double)planned : 0.0, t.tensors_fixed, ns,
               t.n_scratch, fmt_bytes(head2, b4));
        tflm_offline_free(&t);
        model_unload(&lm);
    }
    free(ref);
    return 0;
}
