/* Alignment rules (issue 17): tflm, dtype, arch (4 and 8), fixed N.
 *
 *  - the rule helpers: parse, code/decode round trips, names, refusals;
 *  - per buffer, the alignment each rule gives (element size, the word,
 *    N, TFLM's 16) and what kernels declare on top;
 *  - property: seeded random graphs (DAGs of int8/int16/int32/float32/int64
 *    tensors, kernel scratch with declared alignments, declared operand
 *    alignments, shared buffer groups) planned under every rule with every
 *    strategy; the validator passes and, independently here, every offset is
 *    a multiple of the alignment its tensor's element size, declarations and
 *    the rule ask, every buffer lies inside the arena, and no two buffers
 *    live at one step share a byte; sizes are the tensors' bytes (TFLM:
 *    rounded to 16), and no rule pads more than TFLM's.
 *  - the op modules' declarations reach the planner
 *    (ta_runtime_scratch_requests, ta_runtime_operand_align). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng % n);
}

static void test_helpers(void) {
    ta_align_rule r;
    ta_diag d;
    static const char *const ok[] = {"tflm", "dtype", "arch", "1", "2", "8", "64", "4096"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK(ta_align_rule_parse(ok[i], 0, &r, &d) == TA_OK);
        ta_align_rule back;
        CHECK(ta_align_rule_decode(ta_align_rule_code(r), &back));
        CHECK(back.kind == r.kind && ta_align_rule_code(back) == ta_align_rule_code(r));
    }
    static const char *const bad[] = {"", "TFLM", "3", "0", "08", "+8", "8k", "8192", "-4", "arch4", "99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(ta_align_rule_parse(bad[i], 0, &r, &d) == TA_E_INVALID_ARG);
        CHECK(strchr(d.msg, '\n') == NULL);
    }
    CHECK(ta_align_rule_parse("arch", 3, &r, &d) == TA_E_INVALID_ARG);
    CHECK(ta_align_rule_parse("arch", 8, &r, &d) == TA_OK && r.kind == TA_ALIGN_ARCH && r.bytes == 8);
    /* the zero code is TFLM's rule (headers made before the rules) */
    CHECK(ta_align_rule_decode(0, &r) && r.kind == TA_ALIGN_TFLM);
    CHECK(ta_align_rule_code(TA_ALIGN_RULE_DEFAULT) == (TA_ALIGN_ARCH | 4u << 8));
    CHECK(ta_align_rule_code((ta_align_rule){TA_ALIGN_ARCH, 0}) == ta_align_rule_code(TA_ALIGN_RULE_DEFAULT));
    CHECK(!ta_align_rule_decode(7, NULL) && !ta_align_rule_decode(TA_ALIGN_FIXED | 3u << 8, NULL) &&
          !ta_align_rule_decode(TA_ALIGN_DTYPE | 4u << 8, NULL) && !ta_align_rule_decode(TA_ALIGN_ARCH, NULL));
    char buf[32];
    CHECK(!strcmp(ta_align_rule_str(TA_ALIGN_RULE_DEFAULT, buf, sizeof buf), "arch 4"));
    CHECK(!strcmp(ta_align_rule_str((ta_align_rule){TA_ALIGN_FIXED, 32}, buf, sizeof buf), "fixed 32"));
    /* what each rule gives a buffer */
    const ta_align_rule tflm = {TA_ALIGN_TFLM, 0}, dt = {TA_ALIGN_DTYPE, 0}, a4 = {TA_ALIGN_ARCH, 4}, a8 = {TA_ALIGN_ARCH, 8},
                        f2 = {TA_ALIGN_FIXED, 2};
    CHECK_EQ_U(ta_align_rule_buffer(tflm, 1, 0, 0), 16);
    CHECK_EQ_U(ta_align_rule_buffer(dt, 1, 0, 0), 1);
    CHECK_EQ_U(ta_align_rule_buffer(dt, 2, 0, 0), 2);
    CHECK_EQ_U(ta_align_rule_buffer(dt, 4, 0, 0), 4);
    CHECK_EQ_U(ta_align_rule_buffer(dt, 8, 0, 0), 8);
    CHECK_EQ_U(ta_align_rule_buffer(a4, 1, 0, 0), 4);
    CHECK_EQ_U(ta_align_rule_buffer(a4, 8, 0, 0), 8);
    CHECK_EQ_U(ta_align_rule_buffer(a8, 2, 0, 0), 8);
    CHECK_EQ_U(ta_align_rule_buffer(f2, 1, 0, 0), 2);
    CHECK_EQ_U(ta_align_rule_buffer(f2, 4, 0, 0), 4); /* never below the element size */
    CHECK_EQ_U(ta_align_rule_buffer(dt, 1, 8, 0), 8);  /* a kernel's declaration */
    CHECK_EQ_U(ta_align_rule_buffer(a4, 1, 0, 32), 32); /* the caller's minimum */
    CHECK_EQ_U(ta_align_rule_buffer(dt, 0, 0, 0), 1);
}

/* A random DAG: n_ops ops, each reading 1-3 earlier tensors (or the input)
 * and writing one; random dtypes and element counts; the last op's output
 * is the graph output. */
typedef struct {
    ta_graph g;
    void *mem;
    int32_t t[80];
    uint32_t n_t;
} rgraph;

static const ta_dtype k_types[] = {TA_DTYPE_INT8, TA_DTYPE_INT16, TA_DTYPE_INT32, TA_DTYPE_FLOAT32, TA_DTYPE_INT64,
                                   TA_DTYPE_BOOL, TA_DTYPE_UINT8};

static void make_graph(rgraph *b, uint32_t n_ops) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 80, .ops = 64, .indices = 512, .dims = 256};
    size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    ta_graph_add_subgraph(&b->g, "main", NULL);
    b->n_t = 0;
    for (uint32_t k = 0; k <= n_ops; k++) {
        int32_t shape[1] = {1 + (int32_t)rnd(rnd(4) ? 40 : 700)}, id = -1;
        ta_tensor_desc td = {.name = "t", .dtype = k_types[rnd(sizeof k_types / sizeof k_types[0])], .rank = 1, .shape = shape};
        CHECK(ta_graph_add_tensor(&b->g, &td, &id) == TA_OK);
        b->t[b->n_t++] = id;
        if (k == 0) continue;
        int32_t in[3];
        uint32_t nin = 1 + rnd(3);
        for (uint32_t j = 0; j < nin; j++) in[j] = b->t[rnd(k)];
        ta_op_options o = ta_op_options_default();
        ta_op_desc od = {.kind = TA_OP_ADD, .inputs = in, .n_inputs = nin, .outputs = &b->t[k], .n_outputs = 1, .opt = &o};
        CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    }
    CHECK(ta_graph_set_io(&b->g, &b->t[0], 1, &b->t[n_ops], 1) == TA_OK);
}

static size_t elem_align(ta_dtype t) {
    size_t e = ta_dtype_size(t);
    return e ? e : 1;
}

static void test_random_graphs(void) {
    const ta_align_rule rules[] = {{TA_ALIGN_TFLM, 0}, {TA_ALIGN_DTYPE, 0}, {TA_ALIGN_ARCH, 4},
                                   {TA_ALIGN_ARCH, 8}, {TA_ALIGN_FIXED, 1}, {TA_ALIGN_FIXED, 32}};
    size_t n_strat = 0;
    const ta_strategy *const *strats = ta_strategy_list(&n_strat);
    size_t plans = 0, buffers = 0;
    for (int iter = 0; iter < 60; iter++) {
        rgraph b;
        const uint32_t n_ops = 2 + rnd(40);
        make_graph(&b, n_ops);
        /* kernel scratch on some ops, with declared alignments */
        ta_scratch_request sc[16];
        size_t nsc = 0;
        for (uint32_t o = 0; o < n_ops && nsc < 16; o++)
            if (!rnd(4)) sc[nsc++] = (ta_scratch_request){0, o, 1 + rnd(300), rnd(3) ? (size_t)1 << rnd(4) : 0};
        /* declared operand alignments on some tensors */
        uint32_t decl[80];
        for (uint32_t i = 0; i < b.g.n_tensors; i++) decl[i] = rnd(5) ? 0 : 1u << rnd(5);
        /* a buffer group now and then: an op's output sharing its first input's buffer */
        int32_t group[80];
        const bool grouped = rnd(3) == 0;
        for (uint32_t i = 0; i < b.g.n_tensors; i++) group[i] = (int32_t)i;
        if (grouped) {
            const uint32_t k = 1 + rnd(n_ops);
            const int32_t r = ta_graph_op(&b.g, 0, k - 1)->inputs[0];
            if (r != b.t[k]) group[b.t[k]] = r;
        }
        size_t need = ta_lifetime_bytes(&b.g, nsc);
        void *lmem = malloc(need);
        ta_lifetimes lt;
        ta_diag d;
        CHECK(ta_lifetime_analyze(&b.g, sc, nsc, lmem, need, &lt, &d) == TA_OK);
        size_t tflm_padding = 0;
        for (size_t ri = 0; ri < sizeof rules / sizeof rules[0]; ri++) {
            ta_lifetime_options lo;
            memset(&lo, 0, sizeof lo);
            lo.rule = rules[ri];
            lo.tensor_align = decl;
            lo.n_tensor_align = b.g.n_tensors;
            if (grouped) {
                lo.buffer_of = group;
                lo.n_buffer_of = b.g.n_tensors;
            }
            ta_request reqs[128];
            ta_buffer_origin org[128];
            size_t n = 0;
            ta_status st = ta_lifetime_requests(&b.g, &lt, &lo, reqs, org, 128, &n, &d);
            CHECK(st == TA_OK);
            if (st) {
                fprintf(stderr, "  requests: %s\n", d.msg);
                continue;
            }
            /* each request's alignment and size, recomputed here */
            size_t padding = 0;
            for (size_t i = 0; i < n; i++) {
                size_t want, bytes;
                if (org[i].kind == TA_BUFFER_TENSOR) {
                    want = 1, bytes = 0;
                    for (uint32_t m = 0; m < b.g.n_tensors; m++) {
                        if ((uint32_t)group[m] != org[i].index) continue;
                        const ta_tensor *t = &b.g.tensors[m];
                        size_t a = rules[ri].kind == TA_ALIGN_TFLM ? 16 : elem_align(t->dtype);
                        if (rules[ri].kind == TA_ALIGN_ARCH && a < rules[ri].bytes) a = rules[ri].bytes;
                        if (rules[ri].kind == TA_ALIGN_FIXED && a < rules[ri].bytes) a = rules[ri].bytes;
                        if (decl[m] > a) a = decl[m];
                        if (a > want) want = a;
                        const size_t tb = rules[ri].kind == TA_ALIGN_TFLM ? (t->bytes + a - 1) / a * a : t->bytes;
                        if (tb > bytes) bytes = tb;
                    }
                } else {
                    const ta_scratch_request *s = &sc[org[i].index];
                    want = rules[ri].kind == TA_ALIGN_TFLM ? 16 : s->align ? s->align : 16;
                    if (rules[ri].kind == TA_ALIGN_TFLM && s->align > 16) want = s->align;
                    if ((rules[ri].kind == TA_ALIGN_ARCH || rules[ri].kind == TA_ALIGN_FIXED) && want < rules[ri].bytes)
                        want = rules[ri].bytes;
                    bytes = rules[ri].kind == TA_ALIGN_TFLM ? (s->bytes + want - 1) / want * want : s->bytes;
                }
                CHECK_EQ_U(reqs[i].align, want);
                CHECK_EQ_U(reqs[i].size, bytes);
                padding += ta_request_padded(&reqs[i]);
            }
            if (rules[ri].kind == TA_ALIGN_TFLM) tflm_padding = padding;
            /* no rule here pads more than TFLM's, except N above 16 */
            if (rules[ri].kind != TA_ALIGN_FIXED || rules[ri].bytes <= 16) CHECK(padding <= tflm_padding);
            for (size_t s = 0; s < n_strat; s++) {
                size_t pneed = 0;
                CHECK(ta_plan_scratch_bytes(strats[s], reqs, n, NULL, &pneed) == TA_OK);
                void *pm = malloc(pneed ? pneed : 1);
                size_t off[128];
                ta_plan_result res;
                ta_plan_options po;
                memset(&po, 0, sizeof po);
                po.time_limit_s = 0.2;
                st = ta_plan_run(strats[s], reqs, n, &po, pm, pneed, off, &res, &d);
                free(pm);
                CHECK(st == TA_OK);
                if (st) continue;
                plans++;
                buffers += n;
                /* the library's validator */
                size_t cneed = ta_plan_check_scratch_bytes(n);
                void *cm = malloc(cneed ? cneed : 1);
                CHECK(ta_plan_check(reqs, n, off, res.arena_bytes, 0, cm, cneed, &d) == TA_OK);
                free(cm);
                /* and independently: alignment, bounds, no overlap */
                for (size_t i = 0; i < n; i++) {
                    CHECK(off[i] % reqs[i].align == 0);
                    CHECK(off[i] + ta_request_padded(&reqs[i]) <= res.arena_bytes);
                    for (size_t j = i + 1; j < n; j++) {
                        const bool time = reqs[i].first <= reqs[j].last && reqs[j].first <= reqs[i].last;
                        const bool space = off[i] < off[j] + ta_request_padded(&reqs[j]) &&
                                           off[j] < off[i] + ta_request_padded(&reqs[i]);
                        CHECK(!(time && space && reqs[i].size && reqs[j].size));
                    }
                }
            }
        }
        free(lmem);
        free(b.mem);
    }
    printf("  %zu plans of random graphs (%zu buffers) under 6 rules: every offset at its buffer's alignment\n", plans,
           buffers);
}

/* A declared alignment that is not a power of two, and a table of the wrong
 * length, are refused with one line. */
static void test_refusals(void) {
    rgraph b;
    make_graph(&b, 3);
    size_t need = ta_lifetime_bytes(&b.g, 0);
    void *lmem = malloc(need);
    ta_lifetimes lt;
    ta_diag d;
    CHECK(ta_lifetime_analyze(&b.g, NULL, 0, lmem, need, &lt, &d) == TA_OK);
    uint32_t decl[80] = {0};
    ta_lifetime_options lo;
    memset(&lo, 0, sizeof lo);
    lo.rule = TA_ALIGN_RULE_DEFAULT;
    lo.tensor_align = decl;
    lo.n_tensor_align = b.g.n_tensors;
    decl[1] = 12;
    size_t n;
    CHECK(ta_lifetime_requests(&b.g, &lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_INVALID_ARG && strstr(d.msg, "tensor 1"));
    decl[1] = 0;
    lo.n_tensor_align = 2;
    CHECK(ta_lifetime_requests(&b.g, &lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_MALFORMED);
    lo.n_tensor_align = b.g.n_tensors;
    lo.rule = (ta_align_rule){TA_ALIGN_FIXED, 12};
    CHECK(ta_lifetime_requests(&b.g, &lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_INVALID_ARG);
    lo.rule = (ta_align_rule){(ta_align_kind)9, 0};
    CHECK(ta_lifetime_requests(&b.g, &lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_INVALID_ARG);
    free(lmem);
    free(b.mem);
}

/* The op modules' declarations reach the planner: SVDF, LSTM, MEAN and
 * TRANSPOSE_CONV declare their scratch; every other op nothing beyond
 * element sizes. */
static void test_declarations(void) {
    const char *data = ta_test_data_dir("test_align (op declarations)");
    if (!data) return;
    static const struct {
        const char *model;
        size_t scratch_align;
    } k[] = {{"tflm/keyword_scrambled.tflite", 4}, {"tflm/mnist_lstm_trained_lstm_int8.tflite", 2},
             {"tflm/seanet/transpose_conv0.tflite", 8}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s", data, k[i].model);
        size_t len = 0;
        void *bytes = ta_test_read_file(path, &len);
        CHECK(bytes != NULL);
        if (!bytes) continue;
        ta_tflite_model m;
        ta_diag d;
        CHECK(ta_tflite_open(&m, bytes, len, &d) == TA_OK);
        ta_graph_limits lim;
        CHECK(ta_tflite_graph_limits(&m, &lim) == TA_OK);
        size_t gb = ta_graph_bytes(&lim);
        void *gm = malloc(gb);
        ta_graph g;
        CHECK(ta_graph_init(&g, &lim, gm, gb) == TA_OK && ta_tflite_import(&m, &g, &d) == TA_OK);
        ta_scratch_request sc[64];
        size_t n = 0;
        CHECK(ta_runtime_scratch_requests(&g, sc, 64, &n, &d) == TA_OK && n > 0);
        for (size_t j = 0; j < n && j < 64; j++) CHECK_EQ_U(sc[j].align, k[i].scratch_align);
        uint32_t *ta = calloc(g.n_tensors + 1, sizeof *ta);
        CHECK(ta_runtime_operand_align(&g, ta, g.n_tensors, &d) == TA_OK);
        for (uint32_t t = 0; t < g.n_tensors; t++) CHECK_EQ_U(ta[t], 0); /* element sizes suffice (op.h's audit) */
        CHECK(ta_runtime_operand_align(&g, ta, g.n_tensors + 1, &d) == TA_E_INVALID_ARG);
        printf("  %s: %zu scratch request%s at %zu-byte alignment, no operand declared beyond its element size\n",
               k[i].model, n, n == 1 ? "" : "s", k[i].scratch_align);
        free(ta);
        free(gm);
        free(bytes);
    }
}

int main(void) {
    test_helpers();
    test_refusals();
    test_random_graphs();
    test_declarations();
    return ta_test_finish("test_align");
}
