/* Lifetime analysis: TFLM's rules on hand-built graphs. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/lifetime.h"

typedef struct {
    ta_graph g;
    void *mem;
} gbox;

static void g_begin(gbox *b) {
    ta_graph_limits lim = {.subgraphs = 4, .tensors = 64, .ops = 32, .indices = 256, .dims = 256};
    size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
}

static int32_t t_add(gbox *b, size_t bytes, uint32_t flags) {
    int32_t shape[1] = {(int32_t)bytes}, id = -1;
    ta_tensor_desc d = {.name = "t", .dtype = TA_DTYPE_INT8, .rank = 1, .shape = shape, .flags = flags};
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

static void o_add(gbox *b, ta_op_kind k, const int32_t *in, uint32_t nin, const int32_t *out, uint32_t nout,
                  int32_t sa, int32_t sb) {
    ta_op_options o = ta_op_options_default();
    o.subgraph_a = sa;
    o.subgraph_b = sb;
    ta_op_desc d = {.kind = k, .inputs = in, .n_inputs = nin, .outputs = out, .n_outputs = nout, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
}

typedef struct {
    ta_lifetimes lt;
    void *mem;
    ta_request reqs[64];
    ta_buffer_origin org[64];
    size_t n;
} analysed;

static ta_status analyse(gbox *b, const ta_scratch_request *sc, size_t nsc, analysed *a) {
    size_t need = ta_lifetime_bytes(&b->g, nsc);
    a->mem = malloc(need);
    ta_diag d;
    ta_status st = ta_lifetime_analyze(&b->g, sc, nsc, a->mem, need, &a->lt, &d);
    if (st) return st;
    return ta_lifetime_requests(&b->g, &a->lt, NULL, a->reqs, a->org, 64, &a->n, &d);
}

static void test_chain_with_skip(void) {
    /* in -> A -> x -> B -> y -> C(x, y) -> out ; weights const; a variable; a 0-byte tensor */
    gbox b;
    g_begin(&b);
    ta_graph_add_subgraph(&b.g, "main", NULL);
    int32_t in = t_add(&b, 100, 0), w = t_add(&b, 50, TA_TENSOR_CONST), x = t_add(&b, 30, 0);
    int32_t y = t_add(&b, 17, 0), out = t_add(&b, 40, 0), var = t_add(&b, 8, TA_TENSOR_VARIABLE);
    int32_t zero = t_add(&b, 0, 0);
    int32_t a_in[2] = {in, w}, b_in[2] = {x, var}, c_in[3] = {x, y, -1};
    o_add(&b, TA_OP_CONV_2D, a_in, 2, &x, 1, -1, -1);
    o_add(&b, TA_OP_SVDF, b_in, 2, &y, 1, -1, -1);
    int32_t c_out[2] = {out, zero};
    o_add(&b, TA_OP_ADD, c_in, 3, c_out, 2, -1, -1);
    ta_graph_set_io(&b.g, &in, 1, &out, 1);
    ta_scratch_request sc[1] = {{0, 1, 100, 0}};
    analysed a;
    CHECK(analyse(&b, sc, 1, &a) == TA_OK);
    /* planned: in, x, y, out (tensor order), then the scratch */
    CHECK_EQ_U(a.n, 5);
    CHECK(a.reqs[0].first == 0 && a.reqs[0].last == 1); /* input: step 0 .. op0 */
    CHECK(a.reqs[1].first == 1 && a.reqs[1].last == 3); /* x: op0 .. op2 (skip) */
    CHECK(a.reqs[2].first == 2 && a.reqs[2].last == 3);
    CHECK(a.reqs[3].first == 3 && a.reqs[3].last == 3); /* out: op2 to the end */
    CHECK_EQ_U(a.reqs[0].size, 112);                    /* rounded to 16 */
    CHECK_EQ_U(a.reqs[2].size, 32);
    CHECK(a.org[4].kind == TA_BUFFER_SCRATCH && a.reqs[4].first == 2 && a.reqs[4].last == 2);
    CHECK_EQ_U(a.lt.n_steps, 4);
    CHECK(a.lt.op_step[0] == 1 && a.lt.op_step[2] == 3);
    free(a.mem);
    free(b.mem);
}

static void test_control_flow(void) {
    /* sg0: in -> IF(then=1, else=2) -> out ; op after it.  Subgraphs 1 and 2
     * each have one op.  Steps: 0 inputs, 1 IF, 2 enter sg1 (inputs), 3 sg1
     * op, 4 enter sg2, 5 sg2 op; IF's operands are used until step 5; then
     * op1 of sg0 at step 6. */
    gbox b;
    g_begin(&b);
    ta_graph_add_subgraph(&b.g, "main", NULL);
    int32_t in = t_add(&b, 16, 0), mid = t_add(&b, 16, 0), out = t_add(&b, 16, 0);
    o_add(&b, TA_OP_IF, &in, 1, &mid, 1, 1, 2);
    o_add(&b, TA_OP_RELU, &mid, 1, &out, 1, -1, -1);
    ta_graph_set_io(&b.g, &in, 1, &out, 1);
    for (int s = 1; s <= 2; s++) {
        ta_graph_add_subgraph(&b.g, s == 1 ? "then" : "else", NULL);
        int32_t i = t_add(&b, 16, 0), o = t_add(&b, 32, 0);
        o_add(&b, TA_OP_RELU, &i, 1, &o, 1, -1, -1);
        ta_graph_set_io(&b.g, &i, 1, &o, 1);
    }
    ta_scratch_request sc[1] = {{0, 0, 64, 0}};
    analysed a;
    CHECK(analyse(&b, sc, 1, &a) == TA_OK);
    CHECK_EQ_U(a.n, 8);
    CHECK(a.reqs[0].first == 0 && a.reqs[0].last == 5); /* IF input lives across both branches */
    CHECK(a.reqs[1].first == 1 && a.reqs[1].last == 6);
    CHECK(a.reqs[2].first == 6 && a.reqs[2].last == 6);
    CHECK(a.reqs[3].first == 2 && a.reqs[3].last == 3); /* then: input at entry, op at 3 */
    CHECK(a.reqs[4].first == 3 && a.reqs[4].last == 3); /* then output: its producer re-creates it (TFLM overwrites) */
    CHECK(a.reqs[5].first == 4 && a.reqs[5].last == 5);
    CHECK(a.reqs[7].first == 1 && a.reqs[7].last == 5); /* IF's scratch spans its subgraphs */
    CHECK_EQ_U(a.lt.n_steps, 7);
    free(a.mem);
    /* a cycle is malformed, not a stack overflow */
    b.g.ops[b.g.subgraphs[1].op_base].kind = TA_OP_IF;
    b.g.ops[b.g.subgraphs[1].op_base].opt.subgraph_a = 2;
    b.g.ops[b.g.subgraphs[2].op_base].kind = TA_OP_WHILE;
    b.g.ops[b.g.subgraphs[2].op_base].opt.subgraph_a = 1;
    CHECK(analyse(&b, NULL, 0, &a) == TA_E_MALFORMED);
    free(a.mem);
    free(b.mem);
}

static void test_offline_and_errors(void) {
    gbox b;
    g_begin(&b);
    ta_graph_add_subgraph(&b.g, "main", NULL);
    int32_t in = t_add(&b, 16, 0), out = t_add(&b, 16, 0);
    o_add(&b, TA_OP_RELU, &in, 1, &out, 1, -1, -1);
    ta_graph_set_io(&b.g, &in, 1, &out, 1);
    analysed a;
    CHECK(analyse(&b, NULL, 0, &a) == TA_OK);
    int32_t offs[2] = {-1, 32};
    ta_lifetime_options opt = {.align = 16, .offline_offsets = offs, .n_offline = 2};
    ta_diag d;
    size_t n;
    CHECK(ta_lifetime_requests(&b.g, &a.lt, &opt, a.reqs, a.org, 64, &n, &d) == TA_OK);
    CHECK(a.reqs[0].fixed == TA_NO_OFFSET && a.reqs[1].fixed == 32);
    opt.n_offline = 3;
    CHECK(ta_lifetime_requests(&b.g, &a.lt, &opt, a.reqs, a.org, 64, &n, &d) == TA_E_MALFORMED);
    CHECK(ta_lifetime_requests(&b.g, &a.lt, NULL, a.reqs, a.org, 1, &n, &d) == TA_E_NO_MEMORY);
    ta_lifetimes lt;
    CHECK(ta_lifetime_analyze(&b.g, NULL, 0, a.mem, 3, &lt, &d) == TA_E_NO_MEMORY);
    ta_scratch_request bad[1] = {{0, 7, 10, 0}};
    size_t need = ta_lifetime_bytes(&b.g, 1);
    void *m = malloc(need);
    CHECK(ta_lifetime_analyze(&b.g, bad, 1, m, need, &lt, &d) == TA_E_MALFORMED);
    CHECK(strstr(d.msg, "op 7") != NULL);
    free(m);
    free(a.mem);
    free(b.mem);
}

int main(void) {
    test_chain_with_skip();
    test_control_flow();
    test_offline_and_errors();
    return ta_test_finish("test_lifetime");
}
