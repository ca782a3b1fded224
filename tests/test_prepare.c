/* Prepare-time validation on hand-built graphs: a float kernel refuses a
 * bias of the wrong type instead of reading it as floats. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/runtime.h"

static float g_w[4 * 8];
static int32_t g_b[4];
static float g_bf[4];

/* input [1,8] float -> FC (weights [4,8], bias of `bias_type`) -> [1,4] */
static ta_status fc_with_bias(ta_dtype bias_type, ta_diag *d) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 4, .ops = 1, .indices = 8, .dims = 8};
    size_t need = ta_graph_bytes(&lim);
    void *mem = malloc(need);
    ta_graph g;
    ta_graph_init(&g, &lim, mem, need);
    ta_graph_add_subgraph(&g, "main", NULL);
    int32_t sin[2] = {1, 8}, sw[2] = {4, 8}, sb[1] = {4}, sout[2] = {1, 4}, t[4];
    ta_tensor_desc in = {.name = "in", .dtype = TA_DTYPE_FLOAT32, .rank = 2, .shape = sin};
    ta_tensor_desc w = {.name = "w", .dtype = TA_DTYPE_FLOAT32, .rank = 2, .shape = sw, .data = g_w,
                        .data_bytes = sizeof g_w, .flags = TA_TENSOR_CONST};
    ta_tensor_desc b = {.name = "b", .dtype = bias_type, .rank = 1, .shape = sb,
                        .data = bias_type == TA_DTYPE_FLOAT32 ? (const void *)g_bf : (const void *)g_b,
                        .data_bytes = 16, .flags = TA_TENSOR_CONST};
    ta_tensor_desc out = {.name = "out", .dtype = TA_DTYPE_FLOAT32, .rank = 2, .shape = sout};
    ta_graph_add_tensor(&g, &in, &t[0]);
    ta_graph_add_tensor(&g, &w, &t[1]);
    ta_graph_add_tensor(&g, &b, &t[2]);
    ta_graph_add_tensor(&g, &out, &t[3]);
    ta_op_desc op = {.kind = TA_OP_FULLY_CONNECTED, .inputs = t, .n_inputs = 3, .outputs = &t[3], .n_outputs = 1};
    ta_graph_add_op(&g, &op, NULL);
    ta_graph_set_io(&g, &t[0], 1, &t[3], 1);
    size_t n = 0;
    ta_status st = ta_runtime_scratch_requests(&g, NULL, 0, &n, d);
    free(mem);
    return st;
}

int main(void) {
    ta_diag d;
    CHECK(fc_with_bias(TA_DTYPE_FLOAT32, &d) == TA_OK);
    CHECK(fc_with_bias(TA_DTYPE_INT32, &d) == TA_E_UNSUPPORTED);
    CHECK(strstr(d.msg, "bias") != NULL);
    printf("int32 bias on a float FC: %s\n", d.msg);
    return ta_test_finish("test_prepare");
}
