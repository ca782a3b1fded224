/* The op table (src/runtime/ops/): every definition's record layout, the
 * in-place flags the INPLACE rewrite reads, op lists (ta_op_list_needed),
 * and a runtime given only some ops: a model op missing from the list fails
 * at query with one line naming it; the model's own list runs it
 * byte-identical to the list of every op. */
#include <stdlib.h>
#include <string.h>

#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"

static void table(void) {
    ta_diag d;
    d.msg[0] = 0;
    CHECK(ta__op_layout_check(&d) == TA_OK);
    if (d.msg[0]) fprintf(stderr, "layout: %s\n", d.msg);
    CHECK(ta_op_list_all.complete && ta_op_list_all.count >= 40);
    for (uint32_t i = 0; i < ta_op_list_all.count; i++) CHECK(ta_op_list_all.defs[i] != NULL);
    CHECK(strcmp(ta_op_def_name(&ta_op_CONV_2D), "CONV_2D") == 0);
    CHECK(strcmp(ta_op_def_name(&ta_op_LSTM), ta_op_kind_str(TA_OP_LSTM)) == 0);
    CHECK(strcmp(ta_op_def_name(&ta_op_SignalRfft), "SignalRfft") == 0);

    /* the kernels that read element i before writing it (README, rewrite.h);
     * REQUANTIZE has no kernel, so no definition claims it */
    ta_op_kind_set s;
    ta_op_list_inplace_kinds(&ta_op_list_all, &s);
    const ta_op_kind yes[] = {TA_OP_ADD,         TA_OP_SUB,           TA_OP_MUL,
                              TA_OP_LOGISTIC,    TA_OP_TANH,          TA_OP_QUANTIZE,
                              TA_OP_DEQUANTIZE,  TA_OP_RELU,          TA_OP_RELU6,
                              TA_OP_RELU_N1_TO_1, TA_OP_ELU,          TA_OP_ABS,
                              TA_OP_NEG,         TA_OP_EXP,           TA_OP_LOG,
                              TA_OP_SQRT,        TA_OP_RSQRT,         TA_OP_SQUARE,
                              TA_OP_FLOOR,       TA_OP_CEIL,          TA_OP_ROUND,
                              TA_OP_SIN,         TA_OP_COS,           TA_OP_SQUARED_DIFFERENCE,
                              TA_OP_LOG_SOFTMAX, TA_OP_L2_NORMALIZATION, TA_OP_FLOOR_DIV,
                              TA_OP_FLOOR_MOD,   TA_OP_EQUAL,         TA_OP_NOT_EQUAL,
                              TA_OP_GREATER,     TA_OP_GREATER_EQUAL, TA_OP_LESS,
                              TA_OP_LESS_EQUAL,  TA_OP_LOGICAL_AND,   TA_OP_LOGICAL_OR,
                              TA_OP_LOGICAL_NOT, TA_OP_ADD_N,      TA_OP_CUMSUM,
                              TA_OP_ZEROS_LIKE,   TA_OP_SOFTMAX,       TA_OP_SILU,          TA_OP_LEAKY_RELU};
    uint32_t n = 0;
    for (unsigned k = 0; k < TA_OP_KIND_COUNT; k++) n += ta_op_kind_set_has(&s, (ta_op_kind)k);
    CHECK_EQ_U(n, sizeof yes / sizeof yes[0]);
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) CHECK(ta_op_kind_set_has(&s, yes[i]));
    CHECK(!ta_op_kind_set_has(&s, TA_OP_REQUANTIZE) && !ta_op_kind_set_has(&s, TA_OP_CONV_2D) &&
          !ta_op_kind_set_has(&s, TA_OP_PRELU) && !ta_op_kind_set_has(&s, TA_OP_SELECT_V2));
    /* an op list without them: nothing in place */
    const ta_op_def *conv_only[] = {&ta_op_CONV_2D};
    const ta_op_list l = {conv_only, 1, false};
    ta_op_list_inplace_kinds(&l, &s);
    for (unsigned k = 0; k < TA_OP_KIND_COUNT; k++) CHECK(!ta_op_kind_set_has(&s, (ta_op_kind)k));
    CHECK(!ta_op_kind_set_has(NULL, TA_OP_ADD));
    /* the kernels that run a walk.h walk when their output overlaps their
     * input (the OVERLAP rewrite: ROWS, the forward gather, PAD's backward
     * walk, the concatenation's forward blocks), and no other */
    ta_op_list_overlap_kinds(&ta_op_list_all, &s);
    const ta_op_kind rows[] = {TA_OP_CONV_2D, TA_OP_AVERAGE_POOL_2D, TA_OP_MAX_POOL_2D, TA_OP_STRIDED_SLICE, TA_OP_PAD,
                               TA_OP_PADV2,   TA_OP_CONCATENATION};
    n = 0;
    for (unsigned k = 0; k < TA_OP_KIND_COUNT; k++) n += ta_op_kind_set_has(&s, (ta_op_kind)k);
    CHECK_EQ_U(n, sizeof rows / sizeof rows[0]);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) CHECK(ta_op_kind_set_has(&s, rows[i]));
    const ta_op_def *add_only[] = {&ta_op_ADD};
    const ta_op_list la = {add_only, 1, false};
    ta_op_list_overlap_kinds(&la, &s);
    for (unsigned k = 0; k < TA_OP_KIND_COUNT; k++) CHECK(!ta_op_kind_set_has(&s, (ta_op_kind)k));
}

/* x -> LOGISTIC -> y -> ADD(y, y) -> z -> LOGISTIC -> w, float32 [4], and
 * optionally a REQUANTIZE after (no kernel). */
static void *chain(ta_graph *g, bool relu) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 5, .ops = 4, .indices = 16, .dims = 8};
    size_t need = ta_graph_bytes(&lim);
    void *mem = malloc(need);
    ta_graph_init(g, &lim, mem, need);
    ta_graph_add_subgraph(g, "main", NULL);
    int32_t shape[1] = {4}, t[5];
    static const char *const names[5] = {"x", "y", "z", "w", "r"};
    for (int i = 0; i < 5; i++) {
        ta_tensor_desc td = {.name = names[i], .dtype = TA_DTYPE_FLOAT32, .rank = 1, .shape = shape};
        ta_graph_add_tensor(g, &td, &t[i]);
    }
    ta_op_desc a = {.kind = TA_OP_LOGISTIC, .inputs = &t[0], .n_inputs = 1, .outputs = &t[1], .n_outputs = 1};
    int32_t yy[2] = {t[1], t[1]};
    ta_op_desc b = {.kind = TA_OP_ADD, .inputs = yy, .n_inputs = 2, .outputs = &t[2], .n_outputs = 1};
    ta_op_desc c = {.kind = TA_OP_LOGISTIC, .inputs = &t[2], .n_inputs = 1, .outputs = &t[3], .n_outputs = 1};
    ta_op_desc r = {.kind = TA_OP_REQUANTIZE, .inputs = &t[3], .n_inputs = 1, .outputs = &t[4], .n_outputs = 1};
    ta_graph_add_op(g, &a, NULL);
    ta_graph_add_op(g, &b, NULL);
    ta_graph_add_op(g, &c, NULL);
    if (relu) ta_graph_add_op(g, &r, NULL);
    ta_graph_set_io(g, &t[0], 1, relu ? &t[4] : &t[3], 1);
    return mem;
}

static void needed(void) {
    ta_graph g;
    void *mem = chain(&g, false);
    const ta_op_def *out[4];
    size_t n = 0;
    ta_diag d;
    CHECK(ta_op_list_needed(&ta_op_list_all, &g, out, 4, &n, &d) == TA_OK);
    CHECK_EQ_U(n, 2); /* once each, in the list's order: ADD before LOGISTIC */
    CHECK(n == 2 && out[0] == &ta_op_ADD && out[1] == &ta_op_LOGISTIC);
    CHECK(ta_op_list_needed(&ta_op_list_all, &g, out, 1, &n, &d) == TA_E_NO_MEMORY);
    CHECK_EQ_U(n, 2);
    CHECK(ta_op_list_needed(&ta_op_list_all, &g, NULL, 0, &n, &d) == TA_OK && n == 2);
    /* a partial list: the op without a definition is named */
    const ta_op_def *add_only[] = {&ta_op_ADD};
    const ta_op_list l = {add_only, 1, false};
    CHECK(ta_op_list_needed(&l, &g, out, 4, &n, &d) == TA_E_UNSUPPORTED);
    CHECK(strstr(d.msg, "op 0 (LOGISTIC)") && strstr(d.msg, "op list"));
    ta__op_info info;
    CHECK(ta__op_prepare_in(&l, &g, 0, 0, NULL, 0, &info, &d) == TA_E_UNSUPPORTED);
    CHECK(strcmp(d.msg, "op 0 (LOGISTIC): no kernel for this op in the runtime's op list") == 0);
    CHECK(ta__op_prepare_in(&l, &g, 0, 1, NULL, 0, &info, &d) == TA_OK);
    free(mem);
    /* no kernel at all: the complete list says so */
    mem = chain(&g, true);
    CHECK(ta_op_list_needed(&ta_op_list_all, &g, out, 4, &n, &d) == TA_E_UNSUPPORTED);
    CHECK(strcmp(d.msg, "op 3 (REQUANTIZE): no kernel for this op") == 0);
    free(mem);
}

/* The model under the list of every op and under its own list: same
 * outputs; under its list minus one op: query fails naming that op. */
static void model_lists(const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/tflm/%s.tflite", dir, name);
    size_t len;
    unsigned char *model = ta_test_read_file(path, &len);
    CHECK(model != NULL);
    if (!model) return;
    ta_diag d;
    /* the graph's list, as plan --header emits it */
    ta_tflite_model m;
    CHECK(ta_tflite_open(&m, model, len, &d) == TA_OK);
    ta_graph_limits lim;
    CHECK(ta_tflite_graph_limits(&m, &lim) == TA_OK);
    size_t gb = ta_graph_bytes(&lim);
    void *gm = malloc(gb);
    ta_graph g;
    ta_graph_init(&g, &lim, gm, gb);
    CHECK(ta_tflite_import(&m, &g, &d) == TA_OK);
    const ta_op_def *defs[64];
    size_t n = 0;
    CHECK(ta_op_list_needed(&ta_op_list_all, &g, defs, 64, &n, &d) == TA_OK);
    CHECK(n >= 1 && n < ta_op_list_all.count);
    unsigned char *outs[2] = {NULL, NULL};
    size_t out_bytes[2] = {0, 0};
    for (int pass = 0; pass < 3; pass++) {
        const ta_op_list own = {defs, (uint32_t)(pass == 2 ? n - 1 : n), false};
        ta_runtime_options opt = pass == 0 ? ta_runtime_options_default() : ta_runtime_options_for_ops(&own);
        CHECK(ta_runtime_use_strategy(&opt, "greedy") == TA_OK);
        ta_runtime rt;
        CHECK(ta_runtime_open(&rt, model, len, &opt, &d) == TA_OK);
        size_t wb = ta_runtime_work_bytes(&rt);
        void *work = malloc(wb);
        ta_arena_breakdown b;
        ta_status st = ta_runtime_query(&rt, work, wb, &b, &d);
        if (pass == 2) {
            /* the last definition of the list is missing: the op using it is named */
            char want[96];
            snprintf(want, sizeof want, "(%s): no kernel for this op in the runtime's op list",
                     ta_op_def_name(defs[n - 1]));
            CHECK(st == TA_E_UNSUPPORTED && strstr(d.msg, want) != NULL);
            printf("%s without %s: %s\n", name, ta_op_def_name(defs[n - 1]), d.msg);
            free(work);
            break;
        }
        CHECK(st == TA_OK);
        void *arena = malloc(b.total);
        CHECK(ta_runtime_init(&rt, work, wb, arena, b.total, &d) == TA_OK);
        const ta_io *in = ta_runtime_input(&rt, 0);
        for (size_t i = 0; i < in->bytes; i++) ((unsigned char *)in->data)[i] = (unsigned char)(i * 37u + 11u);
        CHECK(ta_runtime_invoke(&rt, &d) == TA_OK);
        const ta_io *o = ta_runtime_output(&rt, 0);
        outs[pass] = malloc(o->bytes);
        memcpy(outs[pass], o->data, o->bytes);
        out_bytes[pass] = o->bytes;
        free(arena);
        free(work);
    }
    CHECK(out_bytes[0] == out_bytes[1] && outs[0] && outs[1] && memcmp(outs[0], outs[1], out_bytes[0]) == 0);
    printf("%s: %zu of %u ops in its list, outputs identical to every op's\n", name, n, ta_op_list_all.count);
    free(outs[0]);
    free(outs[1]);
    free(gm);
    free(model);
}

int main(void) {
    table();
    needed();
    ta_runtime_options none = ta_runtime_options_default();
    none.ops = NULL;
    ta_runtime rt;
    ta_diag d;
    static const unsigned char junk[16];
    CHECK(ta_runtime_open(&rt, junk, sizeof junk, &none, &d) == TA_E_INVALID_ARG && strstr(d.msg, "op list"));
    const char *dir = ta_test_data_dir("test_ops: model op lists");
    if (dir) {
        model_lists(dir, "hello_world_int8");
        model_lists(dir, "audio_preprocessor_int8"); /* signal ops, one with state */
        model_lists(dir, "keyword_scrambled");       /* SVDF: variable tensors, scratch */
    }
    return ta_test_finish("test_ops");
}
