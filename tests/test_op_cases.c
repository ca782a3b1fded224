/* Golden single-op cases: every folder of models/ops/MANIFEST.tsv (one
 * builtin op, one type, TFLM's outputs for two input cases) runs here and
 * must give TFLM's output bytes, byte for byte, in every mode a user can
 * run a model in: under each planner strategy, with shared scratch, in
 * poison mode, from a budget table carrying the exported op constants, and
 * from that budget's init table (no work block: what a generated header
 * runs), with the work-block path's options and with a firmware's
 * (ta_runtime_options_for_budget).  The model runs from a read-only mapping of its file, as from
 * flash.
 *
 * A case whose op has no definition in the op table (ta_op_list_all) is
 * counted as "not supported yet"; every other failure -- a refused type of
 * an op the table has, an error, a byte that differs -- fails the test.  So
 * an op once added to the table must pass every one of its cases.
 *
 * Run with an argument (a folder-name substring) to run only matching
 * folders and print each folder's result. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime_harness.h"
#include "testutil.h"
#include "tinyarena/budget.h"
#include "tinyarena/ops.h"
#include "tinyarena/plan.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"
#include "tinyarena/types.h"

enum { CASE_OK, CASE_UNSUPPORTED, CASE_FAIL };

/* Folders whose op is in the table but whose type is another branch's work
 * in progress (issue #18 part B): counted as unsupported while they fail,
 * and a failure once they pass, so that this list cannot go stale. */
static const char *const k_pending[] = {
    NULL, /* none left: the float LSTM (part B) runs */
};

/* The definition the manifest's op name refers to (NULL: none yet). */
static const ta_op_def *def_of(const char *op) {
    const char *name = strcmp(op, "UNIDIRECTIONAL_SEQUENCE_LSTM") == 0 ? "LSTM" : op;
    for (uint32_t i = 0; i < ta_op_list_all.count; i++)
        if (!strcmp(ta_op_def_name(ta_op_list_all.defs[i]), name)) return ta_op_list_all.defs[i];
    return NULL;
}

/* The manifest's dtype column as a ta_dtype (UNKNOWN when no match). */
static ta_dtype dtype_of(const char *s) {
    for (int t = 1; t < TA_DTYPE_COUNT; t++)
        if (!strcmp(ta_dtype_str((ta_dtype)t), s)) return (ta_dtype)t;
    return TA_DTYPE_UNKNOWN;
}

static int pending(const char *folder) {
    for (size_t i = 0; i < sizeof k_pending / sizeof k_pending[0]; i++)
        if (k_pending[i] && !strcmp(k_pending[i], folder)) return 1;
    return 0;
}

static int g_verbose;

typedef struct {
    ta_runtime rt;
    void *work, *arena;
    size_t work_bytes;
} run_t;

static ta_status setup(run_t *r, const unsigned char *model, size_t len, const ta_runtime_options *opt,
                       ta_arena_breakdown *b, ta_diag *d) {
    memset(r, 0, sizeof *r);
    ta_status st = ta_test_open_query(&r->rt, model, len, opt, b, &r->work, &r->work_bytes, d);
    if (st) return st;
    r->arena = malloc(b->total ? b->total : 1);
    return ta_runtime_init(&r->rt, r->work, r->work_bytes, r->arena, b->total, d);
}

static void teardown(run_t *r) {
    free(r->work);
    free(r->arena);
}

/* Runs case `dir` on an initialised runtime; 1 when every output is TFLM's. */
static int run_one(run_t *r, const char *dir, const char *label, ta_diag *d) {
    char path[2048];
    for (uint32_t k = 0; k < ta_runtime_input_count(&r->rt); k++) {
        const ta_io *in = ta_runtime_input(&r->rt, k);
        snprintf(path, sizeof path, "%s/input%u.raw", dir, k);
        size_t len = 0;
        unsigned char *raw = ta_test_read_file(path, &len);
        if (!raw || len != in->bytes) {
            fprintf(stderr, "%s: input %u: %s (%zu bytes, the model's input has %zu)\n", dir, k,
                    raw ? "wrong size" : "cannot read", len, in->bytes);
            free(raw);
            return 0;
        }
        memcpy(in->data, raw, len);
        free(raw);
    }
    snprintf(path, sizeof path, "%s/input%u.raw", dir, ta_runtime_input_count(&r->rt));
    if (access(path, F_OK) == 0) {
        fprintf(stderr, "%s: more input files than the model's %u inputs\n", dir, ta_runtime_input_count(&r->rt));
        return 0;
    }
    if (ta_runtime_reset(&r->rt, d) != TA_OK || ta_runtime_invoke(&r->rt, d) != TA_OK) {
        fprintf(stderr, "%s [%s]: invoke: %s\n", dir, label, d->msg);
        return 0;
    }
    return ta_test_outputs_match(&r->rt, dir, label);
}

/* Runs folder `name` with `n_cases` cases in every mode; fills per-case
 * results (CASE_*). */
static void run_folder(const char *data, const char *name, int n_cases, int *result) {
    char path[2048];
    snprintf(path, sizeof path, "%s/models/ops/%s/model.tflite", data, name);
    for (int c = 0; c < n_cases; c++) result[c] = CASE_OK;
    size_t len = 0;
    unsigned char *bytes = ta_test_map_readonly(path, &len);
    if (!bytes) {
        fprintf(stderr, "%s: cannot read\n", path);
        for (int c = 0; c < n_cases; c++) result[c] = CASE_FAIL;
        return;
    }
    ta_diag d;
    size_t n_strat = 0;
    const ta_strategy *const *strats = ta_strategy_list(&n_strat);
    ta_budget_entry *entries = NULL;
    ta_budget budget;
    memset(&budget, 0, sizeof budget);
    void *blob = NULL, *init_tab = NULL;
    size_t blob_bytes = 0, init_bytes = 0;
    /* modes: greedy first (it exports the op constants), then the other
     * strategies, greedy with shared scratch, greedy in poison mode (its
     * plan becomes the budget table), the budget with the constants blob,
     * every rewrite in poison mode (INPLACE puts an elementwise op's output
     * on its input: the ops' in-place declarations are checked here), and
     * the budget with its init table */
    size_t planned_plain = 0;
    for (size_t m = 0; m < n_strat + 5; m++) {
        ta_runtime_options opt = ta_runtime_options_default();
        char label[64];
        if (m == 0 || m <= n_strat) {
            const char *s = m == 0 ? "greedy" : strats[m - 1]->name;
            if (m > 0 && !strcmp(s, "greedy")) continue;
            snprintf(label, sizeof label, "%s", s);
            CHECK(ta_runtime_use_strategy(&opt, s) == TA_OK);
        } else if (m == n_strat + 1) {
            snprintf(label, sizeof label, "greedy/shared-scratch");
            ta_runtime_use_strategy(&opt, "greedy");
            opt.scratch = TA_SCRATCH_SHARED;
        } else if (m == n_strat + 2) {
            snprintf(label, sizeof label, "greedy/poison");
            ta_runtime_use_strategy(&opt, "greedy");
            opt.poison = true;
        } else if (m == n_strat + 3) {
            snprintf(label, sizeof label, "budget+consts");
            if (!entries) break;
            ta_runtime_use_budget(&opt, &budget);
        } else if (m == n_strat + 4) {
            snprintf(label, sizeof label, "greedy/poison+rewrites");
            ta_runtime_use_strategy(&opt, "greedy");
            opt.poison = true;
            opt.rewrites = TA_REWRITE_ALL;
        } else {
            break;
        }
        run_t r;
        ta_arena_breakdown b;
        ta_status st = setup(&r, bytes, len, &opt, &b, &d);
        if (st) {
            int unsupported = st == TA_E_UNSUPPORTED && strstr(d.msg, "no kernel for this op") != NULL;
            if (!unsupported)
                fprintf(stderr, "%s [%s]: setup: %s\n", name, label, d.msg);
            else if (g_verbose)
                printf("%s: not supported yet (%s)\n", name, d.msg);
            for (int c = 0; c < n_cases; c++)
                if (result[c] == CASE_OK) result[c] = unsupported && m == 0 ? CASE_UNSUPPORTED : CASE_FAIL;
            teardown(&r);
            break;
        }
        if (m == n_strat + 4 && g_verbose)
            printf("%s: planned %zu B, %zu B with every rewrite\n", name, planned_plain, b.planned);
        if (m == 0) {
            planned_plain = b.planned;
            CHECK(ta_runtime_export_consts(&r.rt, NULL, 0, &blob_bytes, &d) == TA_OK);
            if (blob_bytes) {
                blob = aligned_alloc(16, (blob_bytes + 15) & ~(size_t)15);
                size_t got = 0;
                CHECK(ta_runtime_export_consts(&r.rt, blob, blob_bytes, &got, &d) == TA_OK && got == blob_bytes);
            }
        }
        for (int c = 0; c < n_cases; c++) {
            char dir[2048];
            snprintf(dir, sizeof dir, "%s/models/ops/%s/case%d", data, name, c);
            if (!run_one(&r, dir, label, &d)) result[c] = CASE_FAIL;
        }
        if (m == n_strat + 2) {
            /* the poison run's plan as a budget.h table (what a generated header holds) */
            size_t n = r.rt.n_pbuf;
            entries = calloc(n + 1, sizeof *entries);
            for (size_t i = 0; i < n; i++) {
                const ta_poison_buf *pb = &r.rt.pbuf[i];
                entries[i] = (ta_budget_entry){pb->tensor < 0 ? TA_BUDGET_SCRATCH : TA_BUDGET_TENSOR,
                                               0,
                                               (uint32_t)(pb->tensor < 0 ? 0 : pb->tensor),
                                               (uint32_t)(pb->data - r.rt.head),
                                               (uint32_t)pb->bytes, /* padded already */
                                               pb->first,
                                               pb->last};
            }
            budget = (ta_budget){name,
                                 ta_budget_hash(bytes, len),
                                 "greedy",
                                 (uint32_t)b.planned,
                                 16,
                                 (uint32_t)n,
                                 entries,
                                 blob,
                                 (uint32_t)blob_bytes,
                                 0,
                                 NULL,
                                 0,
                                 ta_align_rule_code(ta_runtime_options_default().align_rule)};
        }
        if (m == n_strat + 3) {
            /* its init table: the budget+init mode below runs from it alone */
            CHECK(ta_runtime_export_init(&r.rt, NULL, 0, NULL, 0, &init_bytes, &d) == TA_OK && init_bytes > 0);
            init_tab = aligned_alloc(16, (init_bytes + 15) & ~(size_t)15);
            size_t got = 0;
            CHECK(ta_runtime_export_init(&r.rt, r.work, r.work_bytes, init_tab, init_bytes, &got, &d) == TA_OK &&
                  got == init_bytes);
        }
        teardown(&r);
    }
    /* from the init table twice: with the work-block path's options, and
     * with a firmware's (ta_runtime_options_for_budget: no import, no
     * prepare, nothing but the budget's tables) */
    for (int fw = 0; init_tab && fw < 2; fw++) {
        ta_runtime_options opt = ta_runtime_options_default();
        budget.init = init_tab;
        budget.init_bytes = (uint32_t)init_bytes;
        ta_runtime_use_budget(&opt, &budget);
        if (fw) opt = ta_runtime_options_for_budget(&budget, &ta_op_list_all);
        const char *mode = fw ? "firmware" : "budget+init";
        run_t r;
        ta_arena_breakdown b;
        ta_status st = setup(&r, bytes, len, &opt, &b, &d);
        if (st) {
            fprintf(stderr, "%s [%s]: setup: %s\n", name, mode, d.msg);
            for (int c = 0; c < n_cases; c++) result[c] = CASE_FAIL;
        } else {
            CHECK(b.work_bytes == 0);
            for (int c = 0; c < n_cases; c++) {
                char dir[2048];
                snprintf(dir, sizeof dir, "%s/models/ops/%s/case%d", data, name, c);
                if (!run_one(&r, dir, mode, &d)) result[c] = CASE_FAIL;
            }
        }
        teardown(&r);
    }
    if (!init_tab && result[0] == CASE_OK) {
        fprintf(stderr, "%s: no init table was made\n", name);
        for (int c = 0; c < n_cases; c++) result[c] = CASE_FAIL;
    }
    if (g_verbose && result[0] != CASE_UNSUPPORTED)
        printf("%s: %s\n", name, result[0] == CASE_OK && (n_cases < 2 || result[1] == CASE_OK) ? "ok" : "FAIL");
    free(entries);
    free(blob);
    free(init_tab);
    munmap(bytes, len);
}

/* RSQRT on a value below the input's zero point (a negative real): TFLM
 * fails the invoke, and so does this runtime -- with TA_E_UNSUPPORTED and a
 * one-line diag naming the op, never the caller's-fault INVALID_ARG (a fuzz
 * finding), and without writing the output. */
static void test_rsqrt_negative(const char *data) {
    char path[2048];
    snprintf(path, sizeof path, "%s/models/ops/RSQRT_int8/model.tflite", data);
    size_t len = 0;
    unsigned char *bytes = ta_test_map_readonly(path, &len);
    if (!bytes) return; /* the manifest run already reported it */
    ta_runtime_options opt = ta_runtime_options_default();
    CHECK(ta_runtime_use_strategy(&opt, "greedy") == TA_OK);
    run_t r;
    ta_arena_breakdown b;
    ta_diag d;
    CHECK(setup(&r, bytes, len, &opt, &b, &d) == TA_OK);
    const ta_io *in = ta_runtime_input(&r.rt, 0), *out = ta_runtime_output(&r.rt, 0);
    if (in && out) {
        memset(in->data, 0x7f, in->bytes);
        ((int8_t *)in->data)[in->bytes - 1] = -128; /* the zero point is -3 */
        memset(out->data, 0x55, out->bytes);
        CHECK(ta_runtime_invoke(&r.rt, &d) == TA_E_UNSUPPORTED);
        CHECK(strstr(d.msg, "RSQRT") != NULL && strchr(d.msg, '\n') == NULL);
        CHECK(((unsigned char *)out->data)[0] == 0x55);
        /* the same runtime runs again once the input is in range */
        ((int8_t *)in->data)[in->bytes - 1] = -3;
        CHECK(ta_runtime_invoke(&r.rt, &d) == TA_OK);
    }
    teardown(&r);
    munmap(bytes, len);
}

int main(int argc, char **argv) {
    const char *data = ta_test_data_dir("golden single-op cases (models/ops)");
    if (!data) return ta_test_finish("test_op_cases");
    const char *only = argc > 1 ? argv[1] : NULL;
    g_verbose = only != NULL;
    char path[2048];
    snprintf(path, sizeof path, "%s/models/ops/MANIFEST.tsv", data);
    char *tsv = (char *)ta_test_read_file(path, NULL);
    if (!tsv) {
        /* the data directory is there but not the cases: under CI that is a failure */
        const char *ci = getenv("CI");
        if (ci && *ci && strcmp(ci, "0") && strcmp(ci, "false")) {
            CHECK(!"models/ops/MANIFEST.tsv missing under CI");
        } else {
            printf("SKIP: %s missing\n", path);
        }
        return ta_test_finish("test_op_cases");
    }
    int total = 0, identical = 0, unsupported = 0, failed = 0, folders = 0;
    for (char *line = tsv, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        /* columns: folder op dtype input_shapes output_shapes options tflm_status */
        char *col[8] = {0};
        int n = 0;
        for (char *p = line; n < 8;) {
            col[n++] = p;
            char *t = strchr(p, '\t');
            if (!t) break;
            *t = 0;
            p = t + 1;
        }
        if (n < 7 || !strcmp(col[0], "folder")) continue;
        char *cr = strchr(col[6], '\r');
        if (cr) *cr = 0;
        if (strcmp(col[6], "OK") != 0) continue; /* TFLM refused it: no folder */
        if (only && !strstr(col[0], only)) continue;
        /* the cases: case0, case1, ... */
        int n_cases = 0;
        for (;;) {
            snprintf(path, sizeof path, "%s/models/ops/%s/case%d/tflm_output0.bin", data, col[0], n_cases);
            if (access(path, R_OK) != 0 || n_cases == 16) break;
            n_cases++;
        }
        folders++;
        if (!n_cases) {
            fprintf(stderr, "%s: no cases\n", col[0]);
            failed++;
            continue;
        }
        int result[16];
        run_folder(data, col[0], n_cases, result);
        if (pending(col[0])) {
            int passed = 1;
            for (int c = 0; c < n_cases; c++) passed &= result[c] == CASE_OK;
            if (passed) {
                fprintf(stderr, "%s: passes now: remove it from k_pending\n", col[0]);
                failed++;
            }
            for (int c = 0; c < n_cases; c++) result[c] = result[c] == CASE_OK ? CASE_OK : CASE_UNSUPPORTED;
        }
        /* a passing case's type is one its definition declares (the README's
         * op table shows the declarations) */
        int all_ok = 1;
        for (int c = 0; c < n_cases; c++) all_ok &= result[c] == CASE_OK;
        const ta_op_def *def = def_of(col[1]);
        const ta_dtype dt = dtype_of(col[2]);
        if (all_ok && (!def || dt == TA_DTYPE_UNKNOWN || !(ta_op_def_types(def) & (1u << dt)))) {
            fprintf(stderr, "%s: passes, but %s does not declare type %s (ta_op_def_types)\n", col[0], col[1], col[2]);
            failed++;
        }
        for (int c = 0; c < n_cases; c++) {
            total++;
            identical += result[c] == CASE_OK;
            unsupported += result[c] == CASE_UNSUPPORTED;
            failed += result[c] == CASE_FAIL;
            if (result[c] == CASE_FAIL) fprintf(stderr, "  ^ FAIL: %s (%s %s) case%d\n", col[0], col[1], col[2], c);
        }
    }
    free(tsv);
    if (!only) test_rsqrt_negative(data);
    printf("%d/%d cases byte-identical, %d unsupported (no kernel for the op yet), %d failed, in %d folders\n",
           identical, total, unsupported, failed, folders);
    CHECK(failed == 0);
    CHECK(only || total > 0);
    return ta_test_finish("test_op_cases");
}
