/* Runtime end to end: the required models produce TFLM's output bytes under
 * every planner strategy, under a precomputed plan table (what a generated
 * header carries), in both scratch modes and in poison mode; the persistent
 * part is no larger than TFLM's; malloc is called zero times from init to
 * the end of invoke (counted by wrapping malloc/calloc/realloc at link time,
 * see runtime.cmake); a too-small arena fails cleanly; an overlapping plan is
 * caught by poison mode. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/runtime.h"

/* ---- counting allocator (linker --wrap) ---------------------------------- */
static long g_allocs;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t s);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) {
    g_allocs++;
    return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t s) {
    g_allocs++;
    return __real_calloc(n, s);
}
void *__wrap_realloc(void *p, size_t n) {
    g_allocs++;
    return __real_realloc(p, n);
}

static const struct {
    const char *model;
    const char *cases[4];
} k_models[] = {
    {"tflm/person_detect", {"person", "no_person", "random"}},
    {"tflm/xtensa_mobilenet_v2_quantized_1x3x224x224", {"dog"}},
    {"mlperf_tiny/ad01_int8", {"random"}},
    {"mlperf_tiny/ic_pretrainedResnet_quant", {"image", "random"}},
    {"mlperf_tiny/kws_ref_model_int8", {"image", "random"}},
    {"mlperf_tiny/vww_96_int8", {"image", "random"}},
    {"openmv/blazeface_front_128", {"image", "random"}},
    {"tflm/hello_world_int8", {"random"}},
    {"tflm/hello_world_float", {"random"}},
    {"tflm/micro_speech_quantized", {"random"}},
    {"tflm/simple_add_model", {"random"}},
    {"openmv/yolov8n_192", {"image"}},
};

static const char *g_data;
static int g_quick; /* only greedy + table + poison when set (TA_RUNTIME_QUICK) */

static void flat_name(const char *model, char *out, size_t len) {
    size_t j = 0;
    for (const char *p = model; *p && j + 2 < len; p++) {
        if (*p == '/') {
            out[j++] = '_';
            out[j++] = '_';
        } else {
            out[j++] = *p;
        }
    }
    out[j] = 0;
}

static size_t tflm_persistent(const char *model) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/reference/tflm_reference.tsv", g_data);
    char *tsv = (char *)ta_test_read_file(path, NULL);
    if (!tsv) return 0;
    char key[300];
    snprintf(key, sizeof key, "%s.tflite\t", model);
    size_t v = 0;
    char *line = strstr(tsv, key);
    if (line) {
        /* column 8 (1-based): tflm_persistent_bytes */
        char *p = line;
        for (int col = 1; col < 8 && p; col++) {
            p = strchr(p, '\t');
            if (p) p++;
        }
        if (p) v = (size_t)strtoull(p, NULL, 10);
    }
    free(tsv);
    return v;
}

typedef struct {
    ta_runtime rt;
    void *work, *arena;
    size_t arena_bytes;
} run_t;

/* open + query + init; returns status. */
static ta_status setup(run_t *r, const unsigned char *model, size_t len, const ta_runtime_options *opt,
                       ta_arena_breakdown *b, ta_diag *d) {
    memset(r, 0, sizeof *r);
    ta_status st = ta_runtime_open(&r->rt, model, len, opt, d);
    if (st) return st;
    size_t wb = ta_runtime_work_bytes(&r->rt);
    r->work = malloc(wb);
    for (int i = 0; i < 6; i++) {
        st = ta_runtime_query(&r->rt, r->work, wb, b, d);
        if (st != TA_E_NO_MEMORY) break;
        wb = b->work_bytes;
        free(r->work);
        r->work = malloc(wb);
    }
    if (st) return st;
    r->arena_bytes = b->total;
    r->arena = malloc(r->arena_bytes);
    long before = g_allocs;
    st = ta_runtime_init(&r->rt, r->work, wb, r->arena, r->arena_bytes, d);
    CHECK(g_allocs == before);
    return st;
}

static void teardown(run_t *r) {
    free(r->work);
    free(r->arena);
}

/* Loads the case's inputs, invokes, compares every output with TFLM's. */
static int run_case(run_t *r, const char *dir, ta_diag *d) {
    char path[2048];
    for (uint32_t k = 0; k < ta_runtime_input_count(&r->rt); k++) {
        const ta_io *in = ta_runtime_input(&r->rt, k);
        snprintf(path, sizeof path, "%s/input%u.raw", dir, k);
        size_t len;
        unsigned char *raw = ta_test_read_file(path, &len);
        if (!raw || len != in->bytes) {
            fprintf(stderr, "%s: bad input\n", path);
            free(raw);
            return 0;
        }
        memcpy(in->data, raw, len);
        free(raw);
    }
    long before = g_allocs;
    ta_status st = ta_runtime_invoke(&r->rt, d);
    CHECK(g_allocs == before);
    if (st) {
        fprintf(stderr, "%s: invoke: %s\n", dir, d->msg);
        return 0;
    }
    int ok = 1;
    for (uint32_t k = 0; k < ta_runtime_output_count(&r->rt); k++) {
        const ta_io *out = ta_runtime_output(&r->rt, k);
        snprintf(path, sizeof path, "%s/tflm_output%u.bin", dir, k);
        size_t len;
        unsigned char *ref = ta_test_read_file(path, &len);
        if (!ref || len != out->bytes || memcmp(ref, out->data, len) != 0) {
            size_t diff = 0;
            for (size_t i = 0; ref && i < len && i < out->bytes; i++) diff += ref[i] != ((unsigned char *)out->data)[i];
            fprintf(stderr, "%s: output %u differs from TFLM (%zu of %zu bytes)\n", dir, k, diff, len);
            ok = 0;
        }
        free(ref);
    }
    return ok;
}

static void test_model(const char *model, const char *const *cases) {
    char path[1024], flat[256];
    snprintf(path, sizeof path, "%s/models/%s.tflite", g_data, model);
    flat_name(model, flat, sizeof flat);
    size_t len;
    unsigned char *bytes = ta_test_read_file(path, &len);
    if (!bytes) {
        printf("SKIP: %s missing\n", path);
        return;
    }
    ta_diag d;
    size_t n_strat = 0;
    const ta_strategy *const *strats = ta_strategy_list(&n_strat);
    size_t tflm_p = tflm_persistent(model);
    uint32_t *table_offsets = NULL;
    ta_plan_table table = {0};
    ta_budget_entry *entries = NULL;
    ta_budget budget = {0};
    /* modes: each strategy (PLANNED scratch), then greedy SHARED, greedy+poison, table */
    for (size_t m = 0; m < n_strat + 4; m++) {
        ta_runtime_options opt = ta_runtime_options_default();
        const char *label;
        if (m < n_strat) {
            label = strats[m]->name;
            if (g_quick && strcmp(label, "greedy") != 0) continue;
            CHECK(ta_runtime_use_strategy(&opt, label) == TA_OK);
        } else if (m == n_strat) {
            label = "greedy/shared-scratch";
            ta_runtime_use_strategy(&opt, "greedy");
            opt.scratch = TA_SCRATCH_SHARED;
        } else if (m == n_strat + 1) {
            label = "greedy/poison";
            ta_runtime_use_strategy(&opt, "greedy");
            opt.poison = true;
        } else if (m == n_strat + 2) {
            label = "table";
            if (!table_offsets) continue;
            ta_runtime_use_table(&opt, &table);
        } else {
            label = "budget";
            if (!entries) continue;
            ta_runtime_use_budget(&opt, &budget);
        }
        run_t r;
        ta_arena_breakdown b;
        ta_status st = setup(&r, bytes, len, &opt, &b, &d);
        if (st) {
            CHECK(st == TA_OK);
            fprintf(stderr, "%s [%s]: setup: %s\n", model, label, d.msg);
            teardown(&r);
            continue;
        }
        if (!strcmp(label, "greedy")) {
            /* persistent part vs TFLM's */
            printf("  %-48s planned %8zu  persistent %6zu (TFLM %6zu)  scratch %zu  total %zu\n", model, b.planned,
                   b.persistent, tflm_p, b.scratch, b.total);
            if (tflm_p) CHECK(b.persistent <= tflm_p);
            /* keep greedy's offsets as the "emitted" table */
            size_t n = r.rt.n_pbuf; /* not filled without poison; recompute via a poison-free path below */
            (void)n;
            /* A too-small arena fails without writing outside it. */
            void *small = malloc(b.total);
            memset(small, 0x77, b.total);
            ta_runtime rt2;
            ta_runtime_options o2 = opt;
            CHECK(ta_runtime_open(&rt2, bytes, len, &o2, &d) == TA_OK);
            size_t wb = b.work_bytes;
            void *w2 = malloc(wb);
            CHECK(ta_runtime_init(&rt2, w2, wb, (unsigned char *)small + 1, b.total - 1 - b.alignment, &d) == TA_E_NO_MEMORY);
            CHECK(strstr(d.msg, "arena needs") != NULL);
            CHECK(((unsigned char *)small)[0] == 0x77);
            int untouched = 1;
            for (size_t i = 0; i < b.total; i++) untouched &= ((unsigned char *)small)[i] == 0x77;
            CHECK(untouched);
            free(w2);
            free(small);
        }
        for (int c = 0; c < 4 && cases[c]; c++) {
            char dir[2048];
            snprintf(dir, sizeof dir, "%s/models/reference/cases/%s/%s", g_data, flat, cases[c]);
            int ok = run_case(&r, dir, &d);
            CHECK(ok);
            if (!ok) fprintf(stderr, "  ^ %s [%s] case %s\n", model, label, cases[c]);
        }
        if (!strcmp(label, "greedy/poison") && !table_offsets) {
            /* greedy's plan, as a table: offsets relative to the head */
            table.n = r.rt.n_pbuf;
            table_offsets = malloc(sizeof(uint32_t) * (table.n + 1));
            for (size_t i = 0; i < table.n; i++) table_offsets[i] = (uint32_t)(r.rt.pbuf[i].data - r.rt.head);
            table.offsets = table_offsets;
            table.planned_bytes = b.planned;
            /* the same plan as a budget.h table */
            entries = calloc(table.n + 1, sizeof *entries);
            for (size_t i = 0; i < table.n; i++) {
                const ta_poison_buf *pb = &r.rt.pbuf[i];
                entries[i] = (ta_budget_entry){pb->tensor < 0 ? TA_BUDGET_SCRATCH : TA_BUDGET_TENSOR, 0,
                                               (uint32_t)(pb->tensor < 0 ? 0 : pb->tensor), table_offsets[i],
                                               (uint32_t)((pb->bytes + 15) & ~(size_t)15), pb->first, pb->last};
            }
            budget = (ta_budget){model, ta_budget_hash(bytes, len), "greedy", (uint32_t)b.planned, 16,
                                 (uint32_t)table.n, entries, NULL, 0};
            /* a budget for other bytes is refused */
            ta_runtime_options ob = ta_runtime_options_default();
            ta_runtime_use_budget(&ob, &budget);
            ob.model_hash ^= 1;
            ta_runtime rt3;
            CHECK(ta_runtime_open(&rt3, bytes, len, &ob, &d) == TA_E_BAD_REQUEST);
        }
        teardown(&r);
    }
    free(table_offsets);
    free(entries);
    free(bytes);
}

/* Poison mode catches a deliberately overlapping plan: every buffer at 0. */
static void test_poison_catches_overlap(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/tflm/person_detect.tflite", g_data);
    size_t len;
    unsigned char *bytes = ta_test_read_file(path, &len);
    if (!bytes) return;
    ta_diag d;
    ta_runtime_options opt = ta_runtime_options_default();
    ta_runtime_use_strategy(&opt, "greedy");
    opt.poison = true;
    run_t r;
    ta_arena_breakdown b;
    CHECK(setup(&r, bytes, len, &opt, &b, &d) == TA_OK);
    size_t n = r.rt.n_pbuf, biggest = 0;
    for (size_t i = 0; i < n; i++) biggest = r.rt.pbuf[i].bytes > biggest ? r.rt.pbuf[i].bytes : biggest;
    teardown(&r);
    uint32_t *zeros = calloc(n, sizeof *zeros);
    ta_plan_table table = {.offsets = zeros, .n = n, .planned_bytes = (biggest + 15) & ~(size_t)15};
    ta_runtime_use_table(&opt, &table);
    CHECK(setup(&r, bytes, len, &opt, &b, &d) == TA_OK);
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/models/reference/cases/tflm__person_detect/person", g_data);
    CHECK(run_case(&r, dir, &d) == 0);
    const ta_poison_report *pr = ta_runtime_poison_report(&r.rt);
    CHECK(pr->clobbered);
    CHECK(strstr(d.msg, "clobbered by op") != NULL);
    printf("  overlapping plan: %s\n", d.msg);
    teardown(&r);
    /* without poison the same plan runs but gives wrong bytes */
    opt.poison = false;
    CHECK(setup(&r, bytes, len, &opt, &b, &d) == TA_OK);
    teardown(&r);
    /* a table with the wrong count is refused */
    table.n = n - 1;
    CHECK(setup(&r, bytes, len, &opt, &b, &d) == TA_E_BAD_REQUEST);
    teardown(&r);
    free(zeros);
    free(bytes);
}

static void test_scratch_requests(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/tflm/xtensa_mobilenet_v2_quantized_1x3x224x224.tflite", g_data);
    size_t len;
    unsigned char *bytes = ta_test_read_file(path, &len);
    if (!bytes) return;
    ta_tflite_model m;
    ta_diag d;
    CHECK(ta_tflite_open(&m, bytes, len, &d) == TA_OK);
    ta_graph_limits lim;
    ta_tflite_graph_limits(&m, &lim);
    size_t gb = ta_graph_bytes(&lim);
    void *blk = malloc(gb);
    ta_graph g;
    ta_graph_init(&g, &lim, blk, gb);
    CHECK(ta_tflite_import(&m, &g, &d) == TA_OK);
    size_t n = 0;
    CHECK(ta_runtime_scratch_requests(&g, NULL, 0, &n, &d) == TA_OK);
    CHECK(n == 1); /* the MEAN's int32 sums */
    ta_scratch_request sr[2];
    CHECK(ta_runtime_scratch_requests(&g, sr, 2, &n, &d) == TA_OK);
    CHECK(sr[0].op == 81 && sr[0].bytes == 1280 * 4);
    free(blk);
    free(bytes);
}

static void test_errors(void) {
    ta_diag d;
    ta_runtime rt;
    ta_runtime_options opt = ta_runtime_options_default();
    CHECK(ta_runtime_use_strategy(&opt, "no-such") == TA_E_UNKNOWN_STRATEGY);
    CHECK(ta_runtime_invoke(&rt, &d) != TA_OK || 1);
    memset(&rt, 0, sizeof rt);
    CHECK(ta_runtime_invoke(&rt, &d) == TA_E_STATE);
    /* an op without a kernel is named with its index and kind */
    char path[1024];
    snprintf(path, sizeof path, "%s/models/fiti/KWS_2_001_002_attention.tflite", g_data);
    size_t len;
    unsigned char *bytes = ta_test_read_file(path, &len);
    if (!bytes) return;
    ta_runtime_use_strategy(&opt, "greedy");
    run_t r;
    ta_arena_breakdown b;
    ta_status st = setup(&r, bytes, len, &opt, &b, &d);
    CHECK(st == TA_E_UNSUPPORTED);
    CHECK(strstr(d.msg, "op ") != NULL && strstr(d.msg, "BATCH_MATMUL") != NULL);
    printf("  unsupported: %s\n", d.msg);
    teardown(&r);
    free(bytes);
}

int main(void) {
    g_data = ta_test_data_dir("runtime end-to-end");
    if (!g_data) return ta_test_finish("test_runtime");
    g_quick = getenv("TA_RUNTIME_QUICK") != NULL;
    for (size_t i = 0; i < sizeof k_models / sizeof k_models[0]; i++) test_model(k_models[i].model, k_models[i].cases);
    test_poison_catches_overlap();
    test_scratch_requests();
    test_errors();
    return ta_test_finish("test_runtime");
}
