/* The SILU rewrite (rewrite.h) through the real prepare and kernels: random
 * int8 and float32 chains of LOGISTIC -> MUL(x, sigmoid(x)) blocks (either
 * operand order, random quantisation, fused activations, 1..300 elements so
 * that blocks end inside and at the kernel's stack block), some with a
 * sigmoid another op also reads (must not fuse) or a broadcasting MUL (must
 * not fuse).  The unfused graph runs op by op on private buffers; the
 * rewritten one must fuse exactly the eligible pairs into TA_OP_SILU ops,
 * elide their sigmoids, and give every output byte for byte -- each SILU
 * run once out of place and once in place (output over its input). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"

static uint64_t g_seed = 0x51105eedu;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

#define MAX_T 32
#define MAX_BLOCKS 4

typedef struct {
    ta_graph g;
    void *mem;
    float scale[MAX_T];
    int64_t zp[MAX_T];
} box;

static int32_t add_t(box *b, ta_dtype dt, int32_t rank, const int32_t *shape, bool quant, float scale, int64_t zp) {
    const int32_t id0 = (int32_t)b->g.n_tensors;
    b->scale[id0] = scale;
    b->zp[id0] = zp;
    ta_quant q = quant ? (ta_quant){1, &b->scale[id0], &b->zp[id0], 0} : (ta_quant){0};
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape, .quant = q};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    CHECK(id == id0);
    return id;
}

static void add_op(box *b, ta_op_kind k, const int32_t *in, uint32_t n_in, int32_t out, ta_activation act) {
    ta_op_options o = ta_op_options_default();
    o.activation = act;
    ta_op_desc od = {.kind = k, .inputs = in, .n_inputs = n_in, .outputs = &out, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
}

/* Runs op k of g with tensor data ptrs (private buffers the caller owns). */
static ta_status run_op(const ta_graph *g, uint32_t k, void **ptrs) {
    ta__op_info info;
    ta_diag d;
    ta_status st = ta__op_prepare(g, 0, k, NULL, 0, &info, &d);
    if (st) {
        fprintf(stderr, "prepare op %u: %s\n", k, d.msg);
        return st;
    }
    void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
    st = ta__op_prepare(g, 0, k, rec, info.data_bytes, &info, &d);
    if (!st) st = ta__op_invoke(rec, ptrs, NULL, &d);
    if (st) fprintf(stderr, "op %u: %s\n", k, d.msg);
    free(rec);
    return st;
}

static float rnd_float(void) { return ((float)rnd(40001) - 15000.0f) / 1000.0f; } /* [-15, 25] */

static void test_random_chains(void) {
    int cases = 0, fused = 0, declined = 0, mismatches = 0;
    for (int iter = 0; iter < 600; iter++) {
        const bool f32 = iter & 1;
        const ta_dtype dt = f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8;
        const size_t es = f32 ? 4 : 1;
        box b;
        memset(&b, 0, sizeof b);
        ta_graph_limits lim = {.subgraphs = 1, .tensors = MAX_T, .ops = 16, .indices = 64, .dims = 128};
        size_t need = ta_graph_bytes(&lim);
        b.mem = malloc(need);
        CHECK(ta_graph_init(&b.g, &lim, b.mem, need) == TA_OK);
        CHECK(ta_graph_add_subgraph(&b.g, "main", NULL) == TA_OK);
        const int32_t shape[4] = {1, 1 + rnd(6), 1 + rnd(7), 1 + rnd(8)};
        const int32_t one[4] = {1, 1, 1, shape[3]};
        const size_t n = (size_t)shape[1] * shape[2] * shape[3];
        const int n_blocks = 1 + rnd(MAX_BLOCKS - 1);
        int32_t x = add_t(&b, dt, 4, shape, !f32, 0.01f + (float)rnd(200) / 1000.0f, rnd(256) - 128);
        const int32_t in0 = x;
        int32_t outs[MAX_BLOCKS + 1];
        uint32_t n_outs = 0;
        int expect = 0;
        for (int k = 0; k < n_blocks; k++) {
            /* 0: fuses; 1: the sigmoid is also a graph output; 2: a second
             * reader of the sigmoid; 3: a broadcasting MUL (x by a [1,1,1,C] sigmoid) */
            const int kind = rnd(8) < 5 ? 0 : 1 + rnd(3);
            const int32_t s = add_t(&b, dt, 4, kind == 3 ? one : shape, !f32, 1.0f / 256.0f, -128);
            const int32_t y = add_t(&b, dt, 4, shape, !f32, 0.005f + (float)rnd(300) / 2000.0f, rnd(256) - 128);
            int32_t lin = kind == 3 ? -1 : x;
            if (kind == 3) {
                /* the sigmoid of a separate [1,1,1,C] graph input */
                lin = add_t(&b, dt, 4, one, !f32, b.scale[x], b.zp[x]);
                b.g.tensors[b.g.subgraphs[0].tensor_base + (uint32_t)lin].flags |= TA_TENSOR_INPUT;
            }
            add_op(&b, TA_OP_LOGISTIC, &lin, 1, s, TA_ACT_NONE);
            const int ord = rnd(2);
            int32_t min[2] = {ord ? s : x, ord ? x : s};
            static const ta_activation acts[3] = {TA_ACT_NONE, TA_ACT_RELU, TA_ACT_RELU6};
            add_op(&b, TA_OP_MUL, min, 2, y, acts[rnd(3)]);
            if (kind == 1) outs[n_outs++] = s;
            if (kind == 2) {
                const int32_t z = add_t(&b, dt, 4, shape, !f32, 1.0f / 256.0f, -128);
                int32_t ain[2] = {s, s};
                add_op(&b, TA_OP_MUL, ain, 2, z, TA_ACT_NONE);
                outs[n_outs++] = z;
            }
            expect += kind == 0;
            declined += kind != 0;
            x = y;
        }
        outs[n_outs++] = x;
        /* graph inputs: in0 and every kind-3 input (flagged above) */
        int32_t ins[MAX_BLOCKS + 1], n_ins = 0;
        for (uint32_t t = 0; t < b.g.n_tensors; t++)
            if ((int32_t)t == in0 || (b.g.tensors[t].flags & TA_TENSOR_INPUT)) ins[n_ins++] = (int32_t)t;
        CHECK(ta_graph_set_io(&b.g, ins, (uint32_t)n_ins, outs, n_outs) == TA_OK);
        ta_diag d;
        CHECK(ta_graph_validate(&b.g, &d) == TA_OK);
        /* the reference: the model's graph, op by op, private buffers */
        void *ref[MAX_T] = {0};
        for (uint32_t t = 0; t < b.g.n_tensors; t++) ref[t] = calloc(1, b.g.tensors[t].bytes ? b.g.tensors[t].bytes : 1);
        for (int32_t i = 0; i < n_ins; i++) {
            const ta_tensor *tt = &b.g.tensors[ins[i]];
            for (size_t e = 0; e < tt->bytes / es; e++) {
                if (f32) {
                    const float v = rnd_float();
                    memcpy((unsigned char *)ref[ins[i]] + 4 * e, &v, 4);
                } else {
                    ((int8_t *)ref[ins[i]])[e] = (int8_t)(rnd(256) - 128);
                }
            }
        }
        bool ok = true;
        for (uint32_t k = 0; k < b.g.n_ops && ok; k++) ok = run_op(&b.g, k, ref) == TA_OK;
        CHECK(ok);
        /* the rewritten graph */
        ta_op_kind_set ip;
        ta_op_list_inplace_kinds(&ta_op_list_all, &ip);
        const size_t rb = ta_rewrite_graph_bytes(&b.g, TA_REWRITE_SILU);
        void *rm = malloc(rb);
        ta_graph g2;
        ta_rewrite_stats st;
        memset(&st, 0, sizeof st);
        CHECK(ta_rewrite_graph(&b.g, TA_REWRITE_SILU, &ip, rm, rb, &g2, &st, &d) == TA_OK);
        CHECK_EQ_U(st.silu_fused, (uint32_t)expect);
        CHECK_EQ_U(g2.n_ops, b.g.n_ops - (uint32_t)expect);
        uint32_t silus = 0;
        for (uint32_t k = 0; k < g2.n_ops; k++) {
            const ta_op *op = &g2.ops[k];
            if (op->kind != TA_OP_SILU) continue;
            silus++;
            CHECK(op->n_inputs == 1 && op->n_intermediates == 1);
            CHECK(g2.tensors[op->intermediates[0]].flags & TA_TENSOR_ELIDED);
        }
        CHECK_EQ_U(silus, (uint32_t)expect);
        void *got[MAX_T] = {0};
        for (uint32_t t = 0; t < g2.n_tensors; t++) {
            got[t] = calloc(1, g2.tensors[t].bytes ? g2.tensors[t].bytes : 1);
            if (g2.tensors[t].flags & TA_TENSOR_INPUT) memcpy(got[t], ref[t], g2.tensors[t].bytes);
        }
        for (uint32_t k = 0; k < g2.n_ops && ok; k++) {
            const ta_op *op = &g2.ops[k];
            ok = run_op(&g2, k, got) == TA_OK;
            if (!ok || op->kind != TA_OP_SILU) continue;
            /* again in place: the output over a copy of the input */
            const int32_t xi = op->inputs[0], yi = op->outputs[0];
            const size_t bytes = g2.tensors[yi].bytes;
            CHECK(bytes == g2.tensors[xi].bytes);
            void *keep_y = got[yi], *buf = malloc(bytes);
            memcpy(buf, got[xi], bytes);
            got[yi] = buf;
            void *keep_x = got[xi];
            got[xi] = buf;
            ok = run_op(&g2, k, got) == TA_OK;
            got[xi] = keep_x;
            got[yi] = keep_y;
            if (ok && memcmp(buf, keep_y, bytes) != 0) {
                fprintf(stderr, "iter %d op %u: in place differs from out of place\n", iter, k);
                mismatches++;
            }
            free(buf);
        }
        CHECK(ok);
        for (uint32_t i = 0; i < n_outs; i++)
            if (memcmp(ref[outs[i]], got[outs[i]], b.g.tensors[outs[i]].bytes) != 0) {
                fprintf(stderr, "iter %d (%s, %zu elements): output %u differs from the unfused graph\n", iter,
                        f32 ? "float32" : "int8", n, i);
                mismatches++;
            }
        cases++;
        fused += expect;
        for (uint32_t t = 0; t < MAX_T; t++) free(ref[t]), free(got[t]);
        free(rm);
        free(b.mem);
    }
    CHECK(mismatches == 0);
    CHECK(fused > 500 && declined > 150);
    printf("  random SiLU chains: %d graphs, %d pairs fused (%d declined), %d differ\n", cases, fused, declined,
           mismatches);
}

/* Without the flag nothing fuses; with it, the graph's LOGISTIC is gone. */
static void test_flag(void) {
    box b;
    memset(&b, 0, sizeof b);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 4, .indices = 16, .dims = 32};
    size_t need = ta_graph_bytes(&lim);
    b.mem = malloc(need);
    CHECK(ta_graph_init(&b.g, &lim, b.mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b.g, "main", NULL) == TA_OK);
    const int32_t shape[4] = {1, 4, 4, 8};
    int32_t x = add_t(&b, TA_DTYPE_INT8, 4, shape, true, 0.05f, 3);
    int32_t s = add_t(&b, TA_DTYPE_INT8, 4, shape, true, 1.0f / 256.0f, -128);
    int32_t y = add_t(&b, TA_DTYPE_INT8, 4, shape, true, 0.04f, -5);
    add_op(&b, TA_OP_LOGISTIC, &x, 1, s, TA_ACT_NONE);
    int32_t in[2] = {x, s};
    add_op(&b, TA_OP_MUL, in, 2, y, TA_ACT_NONE);
    CHECK(ta_graph_set_io(&b.g, &x, 1, &y, 1) == TA_OK);
    ta_op_kind_set ip;
    ta_op_list_inplace_kinds(&ta_op_list_all, &ip);
    CHECK(ta_op_kind_set_has(&ip, TA_OP_SILU));
    const uint32_t flags[2] = {TA_REWRITE_ALL & ~TA_REWRITE_SILU, TA_REWRITE_ALL};
    for (int i = 0; i < 2; i++) {
        const size_t rb = ta_rewrite_graph_bytes(&b.g, flags[i]);
        void *rm = malloc(rb);
        ta_graph g2;
        ta_rewrite_stats st;
        ta_diag d;
        memset(&st, 0, sizeof st);
        CHECK(ta_rewrite_graph(&b.g, flags[i], &ip, rm, rb, &g2, &st, &d) == TA_OK);
        CHECK_EQ_U(st.silu_fused, (uint32_t)i);
        CHECK_EQ_U(g2.n_ops, 2u - (uint32_t)i);
        CHECK(g2.ops[g2.n_ops - 1].kind == (i ? TA_OP_SILU : TA_OP_MUL));
        free(rm);
    }
    uint32_t f = 0;
    ta_diag d;
    CHECK(ta_rewrite_parse("silu", &f, &d) == TA_OK && f == TA_REWRITE_SILU);
    free(b.mem);
}

int main(void) {
    test_flag();
    test_random_chains();
    return ta_test_finish("test_silu");
}
