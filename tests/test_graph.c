/* Graph IR: building, sizing, validation. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/graph.h"

static void test_build(void) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 3, .ops = 1, .indices = 8, .dims = 8};
    size_t need = ta_graph_bytes(&lim);
    CHECK(need > 0);
    void *mem = malloc(need);
    ta_graph g;
    CHECK(ta_graph_init(&g, &lim, mem, need - 17) == TA_E_NO_MEMORY);
    CHECK(ta_graph_init(&g, &lim, mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&g, "main", NULL) == TA_OK);
    int32_t shape[4] = {1, 32, 32, 1}, oshape[4] = {1, 30, 30, 8};
    ta_tensor_desc td = {.name = "in", .dtype = TA_DTYPE_INT8, .rank = 4, .shape = shape};
    int32_t in = -1, out = -1;
    CHECK(ta_graph_add_tensor(&g, &td, &in) == TA_OK);
    td.name = "out";
    td.shape = oshape;
    CHECK(ta_graph_add_tensor(&g, &td, &out) == TA_OK);
    CHECK(in == 0 && out == 1);
    CHECK_EQ_U(g.tensors[0].bytes, 1024);
    CHECK_EQ_U(g.tensors[1].bytes, 30 * 30 * 8);
    int32_t ins[1] = {in}, outs[1] = {out};
    ta_op_desc od = {.kind = TA_OP_CONV_2D, .inputs = ins, .n_inputs = 1, .outputs = outs, .n_outputs = 1};
    CHECK(ta_graph_add_op(&g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&g, ins, 1, outs, 1) == TA_OK);
    CHECK(g.tensors[0].flags & TA_TENSOR_INPUT);
    CHECK(g.tensors[1].flags & TA_TENSOR_OUTPUT);
    ta_diag d;
    CHECK(ta_graph_validate(&g, &d) == TA_OK);
    int32_t bad[1] = {7};
    ta_op_desc od2 = {.kind = TA_OP_RELU, .inputs = bad, .n_inputs = 1, .outputs = outs, .n_outputs = 1};
    /* capacity: 1 op only */
    CHECK(ta_graph_add_op(&g, &od2, NULL) == TA_E_NO_MEMORY);
    g.ops[0].n_inputs = 1;
    ((int32_t *)g.ops[0].inputs)[0] = 7;
    CHECK(ta_graph_validate(&g, &d) == TA_E_MALFORMED);
    CHECK(strstr(d.msg, "tensor 7") != NULL);
    free(mem);
}

int main(void) {
    test_build();
    CHECK(strcmp(ta_dtype_str(TA_DTYPE_INT8), "int8") == 0);
    CHECK(strcmp(ta_op_kind_str(TA_OP_DEPTHWISE_CONV_2D), "DEPTHWISE_CONV_2D") == 0);
    size_t b = 0;
    CHECK(ta_dtype_bytes_for(TA_DTYPE_INT4, 5, &b) == TA_OK && b == 3);
    return ta_test_finish("test_graph");
}
