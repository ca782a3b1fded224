/* Patch stages from a budget (issue 13): the table `plan --header` writes
 * for a plan that runs stages -- the runtime's own entries
 * (ta_runtime_export_plan), its const blob and its init table (format
 * version 2, the stages after the io records) -- runs byte-identical to
 * TFLM from the init table alone (the firmware's options: no work block),
 * under poison mode (the work-block path applies the table's stages, and
 * checks every band against its planned buffer), and from the budget
 * without its init table in the options (a re-derivation of the blob reads
 * the stages from the budget's table).  A corrupted stage section is
 * refused in one line; a table without stages stays version 1. */
#include <stdint.h>

#include "runtime/runtime_int.h"
#include "runtime_harness.h"
#include "tinyarena/rewrite.h"

static const char *g_data;

typedef struct {
    ta_runtime rt;
    void *work, *arena;
} run_t;

static ta_status setup(run_t *r, const unsigned char *m, size_t len, const ta_runtime_options *opt,
                       ta_arena_breakdown *b, ta_diag *d) {
    memset(r, 0, sizeof *r);
    size_t wb = 0;
    ta_status st = ta_test_open_query(&r->rt, m, len, opt, b, &r->work, &wb, d);
    if (st) return st;
    r->arena = calloc(1, b->total);
    return ta_runtime_init(&r->rt, r->work, wb, r->arena, b->total, d);
}

static void teardown(run_t *r) {
    free(r->work);
    free(r->arena);
}

static int run_cases(run_t *r, const char *flat, const char *const *cases, const char *label) {
    int ok = 1;
    ta_diag d;
    for (int c = 0; cases[c]; c++) {
        char dir[2048], path[2200];
        snprintf(dir, sizeof dir, "%s/models/reference/cases/%s/%s", g_data, flat, cases[c]);
        for (uint32_t k = 0; k < ta_runtime_input_count(&r->rt); k++) {
            const ta_io *in = ta_runtime_input(&r->rt, k);
            snprintf(path, sizeof path, "%s/input%u.raw", dir, k);
            size_t n = 0;
            unsigned char *raw = ta_test_read_file(path, &n);
            CHECK(raw && n == in->bytes);
            if (raw && n == in->bytes) memcpy(in->data, raw, n);
            free(raw);
        }
        ta_status st = ta_runtime_invoke(&r->rt, &d);
        CHECK(st == TA_OK);
        if (st) fprintf(stderr, "%s [%s]: invoke: %s\n", flat, label, d.msg);
        ok &= !st && ta_test_outputs_match(&r->rt, dir, label);
    }
    return ok;
}

/* A copy of table t with word `at` set to v and the checksum redone. */
static void *patched(const void *t, size_t n, size_t at, uint32_t v) {
    uint8_t *c = aligned_alloc(16, (n + 15) & ~(size_t)15);
    memcpy(c, t, n);
    ta__wr32(c + at, v);
    ta__wr32(c + INIT_SUM_AT, ta__rt_init_sum(c, n));
    return c;
}

static void test_model(const char *model, const char *flat, const char *const *cases, bool want_stages) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s.tflite", g_data, model);
    size_t len = 0;
    unsigned char *m = ta_test_map_readonly(path, &len);
    if (!m) {
        printf("SKIP: %s missing\n", path);
        return;
    }
    ta_diag d;
    /* the host: the runtime plans the stages (as `plan --header`) */
    ta_runtime_options opt = ta_runtime_options_default();
    CHECK(ta_runtime_use_strategy(&opt, "best") == TA_OK);
    opt.rewrites = TA_REWRITE_ALL;
    opt.patch_overhead = 10;
    run_t h;
    ta_arena_breakdown hb;
    ta_status st = setup(&h, m, len, &opt, &hb, &d);
    CHECK(st == TA_OK);
    if (st) {
        fprintf(stderr, "%s: %s\n", model, d.msg);
        teardown(&h);
        munmap(m, len);
        return;
    }
    const ta_patch_plan pp = *ta_runtime_patch(&h.rt);
    if (want_stages) CHECK(pp.n_stages > 0);
    size_t n = 0, cb = 0, ib = 0;
    CHECK(ta_runtime_export_plan(&h.rt, h.work, hb.work_bytes, NULL, 0, &n, &d) == TA_OK && n > 0);
    ta_budget_entry *e = calloc(n, sizeof *e);
    CHECK(ta_runtime_export_plan(&h.rt, h.work, hb.work_bytes, e, n - 1, &n, &d) == TA_E_NO_MEMORY);
    CHECK(ta_runtime_export_plan(&h.rt, h.work, hb.work_bytes, e, n, &n, &d) == TA_OK);
    CHECK(ta_runtime_export_consts(&h.rt, NULL, 0, &cb, &d) == TA_OK);
    CHECK(ta_runtime_export_init(&h.rt, NULL, 0, NULL, 0, &ib, &d) == TA_OK);
    void *blob = aligned_alloc(16, (cb + 15) & ~(size_t)15), *init = aligned_alloc(16, (ib + 15) & ~(size_t)15);
    CHECK(ta_runtime_export_consts(&h.rt, blob, cb, &cb, &d) == TA_OK);
    CHECK(ta_runtime_export_init(&h.rt, h.work, hb.work_bytes, init, ib, &ib, &d) == TA_OK);
    const uint8_t *it = init;
    CHECK(ta__rd32(it + 4) == (pp.n_stages ? INIT_VERSION_PATCH : INIT_VERSION));
    ta_budget budget = {model, ta_budget_hash(m, len), "best", (uint32_t)hb.planned, 16, (uint32_t)n, e, blob,
                        (uint32_t)cb, TA_REWRITE_ALL, init, (uint32_t)ib, ta_align_rule_code(TA_ALIGN_RULE_DEFAULT)};
    teardown(&h);
    /* 1. the firmware's options: init table and blob, no work block */
    ta_runtime_options fo = ta_runtime_options_for_budget(&budget, &ta_op_list_all);
    run_t r;
    ta_arena_breakdown b;
    CHECK(setup(&r, m, len, &fo, &b, &d) == TA_OK);
    CHECK(b.work_bytes == 0 && (!pp.n_stages || b.planned == pp.bytes_after));
    CHECK(ta_runtime_patch(&r.rt)->n_stages == pp.n_stages && ta_runtime_patch(&r.rt)->bytes_before == pp.bytes_before);
    CHECK(run_cases(&r, flat, cases, "init table"));
    printf("  %-44s %u stage(s): planned %zu -> %zu B, firmware arena %zu B, init table %zu B\n", model, pp.n_stages,
           pp.bytes_before, pp.bytes_after, b.total, ib);
    teardown(&r);
    /* 2. poison mode from the budget: the work-block path applies the table's stages */
    ta_runtime_options po = ta_runtime_options_for_ops(&ta_op_list_all);
    ta_runtime_use_budget(&po, &budget);
    po.poison = true;
    CHECK(setup(&r, m, len, &po, &b, &d) == TA_OK);
    CHECK(ta_runtime_patch(&r.rt)->n_stages == pp.n_stages && (!pp.n_stages || b.planned == pp.bytes_after));
    CHECK(run_cases(&r, flat, cases, "budget, poison"));
    CHECK(!ta_runtime_poison_report(&r.rt)->clobbered);
    teardown(&r);
    /* 3. the budget without its init table in the options (re-derivation) */
    ta_runtime_use_init(&po, NULL, 0);
    po.poison = false;
    CHECK(setup(&r, m, len, &po, &b, &d) == TA_OK);
    CHECK(ta_runtime_patch(&r.rt)->n_stages == pp.n_stages);
    CHECK(run_cases(&r, flat, cases, "budget, blob re-derived"));
    teardown(&r);
    /* 4. corrupted stage sections are refused in one line */
    if (pp.n_stages) {
        const size_t at = (size_t)ta__rt_init_table_bytes(ta__rd32(it + 12), ta__rd32(it + 16),
                                                          (uint64_t)ta__rd32(it + 20) + ta__rd32(it + 24));
        const struct {
            size_t at;
            uint32_t v;
            const char *msg;
        } bad[] = {{at, 0, "corrupted"},
                   {at, TA_PATCH_MAX_STAGES + 1, "corrupted"},
                   {at + INIT_STAGE_HDR + 8, 1, "out of range"},
                   {at + INIT_STAGE_HDR + 4, ta__rd32(it + 16), "out of range"},
                   {at + INIT_STAGE_HDR + 8, 2, "exceeds its planned bytes"},
                   {4, INIT_VERSION, "corrupted"}};
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            ta_budget b2 = budget;
            void *t2 = patched(init, ib, bad[k].at, bad[k].v);
            b2.init = t2;
            ta_runtime_options o2 = ta_runtime_options_for_budget(&b2, &ta_op_list_all);
            st = setup(&r, m, len, &o2, &b, &d);
            CHECK(st != TA_OK && strstr(d.msg, bad[k].msg) != NULL);
            if (st == TA_OK || !strstr(d.msg, bad[k].msg)) fprintf(stderr, "  bad stage %zu: %s\n", k, d.msg);
            teardown(&r);
            free(t2);
        }
        /* a single byte changed without a new checksum */
        uint8_t *t3 = aligned_alloc(16, (ib + 15) & ~(size_t)15);
        memcpy(t3, init, ib);
        t3[at + INIT_STAGE_HDR + 8] ^= 1;
        ta_budget b3 = budget;
        b3.init = t3;
        ta_runtime_options o3 = ta_runtime_options_for_budget(&b3, &ta_op_list_all);
        CHECK(setup(&r, m, len, &o3, &b, &d) == TA_E_BAD_REQUEST && strstr(d.msg, "checksum") != NULL);
        teardown(&r);
        free(t3);
    }
    free(e);
    free(blob);
    free(init);
    munmap(m, len);
}

int main(void) {
    g_data = ta_test_data_dir("patch stages from a budget");
    if (!g_data) return ta_test_finish("test_patch_header");
    static const char *const pd[] = {"person", "no_person", NULL}, *const img[] = {"image", NULL}, *const dog[] = {"dog", NULL};
    test_model("tflm/person_detect", "tflm__person_detect", pd, true);
    test_model("tflm/xtensa_mobilenet_v2_quantized_1x3x224x224", "tflm__xtensa_mobilenet_v2_quantized_1x3x224x224", dog, true);
    test_model("mlperf_tiny/vww_96_int8", "mlperf_tiny__vww_96_int8", img, false);
    return ta_test_finish("test_patch_header");
}
