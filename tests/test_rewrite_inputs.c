/* The graph-input policy of the rewrites (TA_REWRITE_INPUTS, rewrite.h):
 * with it (the default, in TA_REWRITE_ALL) the last reader of a graph input
 * may write its output over it; without it no rewrite writes into an
 * input's bytes.  Through the runtime on a generated LOGISTIC chain (input
 * -> t1 -> t2 -> output): both ways the outputs are the same bytes and the
 * input's pointer stays where it was; without INPUTS the input holds its
 * bytes after invoke, with it the arena is smaller and the input was
 * overwritten (the caller refills it: a second invoke after the refill
 * gives the same outputs).  And pass 2 / pass 3 on small graphs: an
 * in-place op, a depthwise conv and an overlapping conv over a graph
 * input join or relate only with INPUTS. */
#include <stdlib.h>
#include <string.h>

#include "gen_models.h"
#include "runtime_harness.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"

typedef struct {
    ta_runtime rt;
    void *work, *arena;
    size_t total;
} rt_box;

static ta_status open_rt(rt_box *r, const unsigned char *model, size_t len, uint32_t flags) {
    memset(r, 0, sizeof *r);
    ta_runtime_options opt = ta_runtime_options_default();
    opt.rewrites = flags;
    CHECK(ta_runtime_use_strategy(&opt, "greedy") == TA_OK);
    ta_arena_breakdown b;
    ta_diag d;
    size_t wb = 0;
    ta_status st = ta_test_open_query(&r->rt, model, len, &opt, &b, &r->work, &wb, &d);
    if (st) {
        fprintf(stderr, "open/query: %s\n", d.msg);
        return st;
    }
    r->total = b.total;
    r->arena = malloc(b.total);
    st = ta_runtime_init(&r->rt, r->work, wb, r->arena, b.total, &d);
    if (st) fprintf(stderr, "init: %s\n", d.msg);
    return st;
}

static void close_rt(rt_box *r) {
    free(r->arena);
    free(r->work);
}

static void test_runtime_chain(void) {
    size_t len = 0;
    unsigned char *model = gen_model("chain", 3, &len);
    CHECK(model != NULL);
    if (!model) return;
    float in[16], out[2][16];
    for (int i = 0; i < 16; i++) in[i] = (float)(i - 8) * 0.37f;
    size_t totals[2] = {0, 0};
    for (int with = 0; with < 2; with++) {
        rt_box r;
        const uint32_t flags = with ? TA_REWRITE_ALL : TA_REWRITE_ALL & ~TA_REWRITE_INPUTS;
        if (open_rt(&r, model, len, flags) != TA_OK) {
            CHECK(0);
            close_rt(&r);
            break;
        }
        const ta_io *x = ta_runtime_input(&r.rt, 0);
        void *where = x->data;
        CHECK(x->bytes == sizeof in);
        memcpy(x->data, in, sizeof in);
        ta_diag d;
        CHECK(ta_runtime_invoke(&r.rt, &d) == TA_OK);
        CHECK(ta_runtime_input(&r.rt, 0)->data == where);
        memcpy(out[with], ta_runtime_output(&r.rt, 0)->data, sizeof out[with]);
        const bool intact = memcmp(x->data, in, sizeof in) == 0;
        CHECK(with ? !intact : intact);
        /* refilled, the same outputs again */
        memcpy(x->data, in, sizeof in);
        CHECK(ta_runtime_invoke(&r.rt, &d) == TA_OK);
        CHECK(memcmp(ta_runtime_output(&r.rt, 0)->data, out[with], sizeof out[with]) == 0);
        totals[with] = r.total;
        close_rt(&r);
    }
    CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0);
    CHECK(totals[1] < totals[0]);
    printf("  LOGISTIC chain: arena %zu B with inputs kept, %zu B with INPUTS\n", totals[0], totals[1]);
    free(model);
}

/* A one-op graph: graph input x (int8 NHWC), op `k` writing y. */
typedef struct {
    ta_graph g;
    void *mem;
    int32_t x, y;
} one_box;

static float g_scale = 0.05f;
static int64_t g_zp = 0;
static int8_t g_w[9 * 8];
static int32_t g_b[8];
static float g_wscale[8] = {0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f};
static int64_t g_wzp[8];

static int32_t add_t(one_box *b, int32_t rank, const int32_t *shape, ta_dtype dt, uint32_t flags, const void *data,
                     size_t bytes, ta_quant q) {
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape, .flags = flags, .data = data,
                        .data_bytes = bytes, .quant = q};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

static void build_one(one_box *b, ta_op_kind k) {
    memset(b, 0, sizeof *b);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 2, .indices = 16, .dims = 32};
    const size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
    const ta_quant q = {1, &g_scale, &g_zp, 0};
    const int32_t sx[4] = {1, 16, 16, 8};
    const bool conv = k == TA_OP_CONV_2D || k == TA_OP_DEPTHWISE_CONV_2D;
    const int32_t sy[4] = {1, conv ? 14 : 16, conv ? 14 : 16, 8};
    b->x = add_t(b, 4, sx, TA_DTYPE_INT8, 0, NULL, 0, q);
    int32_t in[3] = {b->x, -1, -1};
    uint32_t n_in = 1;
    if (conv) {
        const bool dw = k == TA_OP_DEPTHWISE_CONV_2D;
        const int32_t sw[4] = {dw ? 1 : 8, 3, 3, dw ? 8 : 8}, sb[1] = {8};
        static int8_t wbig[8 * 9 * 8];
        in[1] = add_t(b, 4, sw, TA_DTYPE_INT8, TA_TENSOR_CONST, dw ? (const void *)g_w : (const void *)wbig,
                      dw ? sizeof g_w : sizeof wbig, (ta_quant){8, g_wscale, g_wzp, dw ? 3 : 0});
        in[2] = add_t(b, 1, sb, TA_DTYPE_INT32, TA_TENSOR_CONST, g_b, sizeof g_b, (ta_quant){0});
        n_in = 3;
    } else {
        in[1] = b->x; /* ADD(x, x) */
        n_in = 2;
    }
    b->y = add_t(b, 4, sy, TA_DTYPE_INT8, 0, NULL, 0, q);
    ta_op_options o = ta_op_options_default();
    o.padding = TA_PAD_VALID;
    o.stride_h = o.stride_w = 1;
    o.depth_multiplier = 1;
    o.in_place = k == TA_OP_DEPTHWISE_CONV_2D; /* as pass 1 marks it */
    ta_op_desc od = {.kind = k, .inputs = in, .n_inputs = n_in, .outputs = &b->y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b->g, &b->x, 1, &b->y, 1) == TA_OK);
}

/* Pass 2's groups (joined: y in x's buffer) and pass 3's relations. */
static void passes(const one_box *b, uint32_t flags, bool *joined, size_t *n_rel) {
    ta_diag d;
    const size_t lb = ta_lifetime_bytes(&b->g, 0);
    void *lm = malloc(lb);
    ta_lifetimes lt;
    CHECK(ta_lifetime_analyze(&b->g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
    ta_op_kind_set ip, walks;
    ta_op_list_inplace_kinds(&ta_op_list_all, &ip);
    ta_op_list_overlap_kinds(&ta_op_list_all, &walks);
    int32_t buffer_of[8];
    size_t buffer_at[8];
    const size_t bb = ta_rewrite_buffers_bytes(&b->g);
    void *bm = malloc(bb);
    CHECK(ta_rewrite_buffers_at(&b->g, &lt, flags, &ip, bm, bb, buffer_of, buffer_at, NULL, &d) == TA_OK);
    *joined = buffer_of[b->y] == buffer_of[b->x];
    ta_lifetime_options lo;
    memset(&lo, 0, sizeof lo);
    lo.buffer_of = buffer_of;
    lo.n_buffer_of = b->g.n_tensors;
    lo.buffer_at = buffer_at;
    ta_request reqs[8];
    ta_buffer_origin org[8];
    size_t n = 0;
    CHECK(ta_lifetime_requests(&b->g, &lt, &lo, reqs, org, 8, &n, &d) == TA_OK);
    const size_t ob = ta_rewrite_overlaps_bytes(&b->g);
    void *om = malloc(ob);
    ta_overlap rel[2];
    *n_rel = 0;
    CHECK(ta_rewrite_overlaps_for(&b->g, &lt, flags, buffer_of, buffer_at, &walks, reqs, org, n, om, ob, rel, 2, n_rel,
                                  NULL, &d) == TA_OK);
    free(om);
    free(bm);
    free(lm);
}

static void test_passes(void) {
    static const ta_op_kind kinds[3] = {TA_OP_ADD, TA_OP_DEPTHWISE_CONV_2D, TA_OP_CONV_2D};
    for (int i = 0; i < 3; i++) {
        one_box b;
        build_one(&b, kinds[i]);
        bool j0, j1;
        size_t r0, r1;
        passes(&b, TA_REWRITE_ALL & ~TA_REWRITE_INPUTS, &j0, &r0);
        passes(&b, TA_REWRITE_ALL, &j1, &r1);
        CHECK(!j0 && r0 == 0); /* nothing over the input */
        if (kinds[i] == TA_OP_CONV_2D) CHECK(!j1 && r1 == 1); /* an overlap relation over it */
        else CHECK(j1);                                         /* in place over it */
        free(b.mem);
    }
    uint32_t f = 0;
    ta_diag d;
    CHECK(ta_rewrite_parse("inputs", &f, &d) == TA_OK && f == TA_REWRITE_INPUTS);
    CHECK((TA_REWRITE_ALL & TA_REWRITE_INPUTS) != 0);
}

int main(void) {
    test_passes();
    test_runtime_chain();
    return ta_test_finish("test_rewrite_inputs");
}
