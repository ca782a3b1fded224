/* Rewrites (rewrite.h): hand-built graphs where each rewrite must apply and
 * where it must not; fused padding bit-exact against PAD + conv through the
 * real prepare and kernels (int8 per-channel and float32, conv and
 * depthwise, random shapes, strides, dilations, pads); every in-place kernel
 * gives the same bytes with output == input; and seeded random DAGs whose
 * rewritten plans pass the validator under every strategy and never
 * overwrite a value that is still needed (a byte-level simulation of the
 * execution, independent of the lifetime logic). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/rewrite.h"

static uint64_t g_seed = 0x5eed;
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(ta__rng_next(&g_seed) % n) : 0; }

/* ---- graph building ------------------------------------------------------- */

static const float k_scale = 0.05f, k_scale2 = 0.07f;
static const int64_t k_zp = -3, k_zp2 = 5;

typedef struct {
    ta_graph g;
    void *mem;
} gbox;

static void g_begin(gbox *b) {
    ta_graph_limits lim = {.subgraphs = 2, .tensors = 256, .ops = 128, .indices = 1024, .dims = 1024};
    size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
}

static int32_t tq(gbox *b, ta_dtype dt, int32_t rank, const int32_t *shape, uint32_t flags, const void *data,
                  size_t data_bytes, const float *scale, const int64_t *zp) {
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape, .flags = flags, .data = data,
                        .data_bytes = data_bytes};
    if (scale) d.quant = (ta_quant){1, scale, zp, 0};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

/* an int8 activation [1, h, w, c] with the common quantisation */
static int32_t act8(gbox *b, int32_t h, int32_t w, int32_t c) {
    int32_t s[4] = {1, h, w, c};
    return tq(b, TA_DTYPE_INT8, 4, s, 0, NULL, 0, &k_scale, &k_zp);
}

static void op(gbox *b, ta_op_kind k, const int32_t *in, uint32_t nin, int32_t out, const ta_op_options *o) {
    ta_op_desc d = {.kind = k, .inputs = in, .n_inputs = nin, .outputs = &out, .n_outputs = 1, .opt = o};
    CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
}

static void op1(gbox *b, ta_op_kind k, int32_t in, int32_t out) { op(b, k, &in, 1, out, NULL); }
static void op2(gbox *b, ta_op_kind k, int32_t a, int32_t c, int32_t out) {
    int32_t in[2] = {a, c};
    op(b, k, in, 2, out, NULL);
}

/* The whole pipeline on a built graph. */
typedef struct {
    ta_graph g2;
    void *g2mem, *ltmem;
    const ta_graph *g; /* the graph that runs */
    ta_lifetimes lt;
    int32_t *buffer_of;
    ta_request reqs[256];
    ta_buffer_origin org[256];
    size_t n;
    ta_rewrite_stats st;
} piped;

static ta_status pipe_run(const ta_graph *g, uint32_t flags, piped *p) {
    memset(p, 0, sizeof *p);
    ta_diag d;
    p->g = g;
    size_t need = ta_rewrite_graph_bytes(g, flags);
    p->g2mem = malloc(need);
    ta_op_kind_set ip;
    ta_op_list_inplace_kinds(&ta_op_list_all, &ip);
    ta_status st = ta_rewrite_graph(g, flags, &ip, p->g2mem, need, &p->g2, &p->st, &d);
    if (st) return st;
    p->g = &p->g2;
    need = ta_lifetime_bytes(p->g, 0);
    p->ltmem = malloc(need);
    if ((st = ta_lifetime_analyze(p->g, NULL, 0, p->ltmem, need, &p->lt, &d))) return st;
    p->buffer_of = malloc(sizeof(int32_t) * (p->g->n_tensors + 1));
    need = ta_rewrite_buffers_bytes(p->g);
    void *bm = malloc(need);
    st = ta_rewrite_buffers(p->g, &p->lt, flags, &ip, bm, need, p->buffer_of, &p->st, &d);
    free(bm);
    if (st) return st;
    ta_lifetime_options lo = {.buffer_of = p->buffer_of, .n_buffer_of = p->g->n_tensors};
    return ta_lifetime_requests(p->g, &p->lt, &lo, p->reqs, p->org, 256, &p->n, &d);
}

static void pipe_free(piped *p) {
    free(p->g2mem);
    free(p->ltmem);
    free(p->buffer_of);
}

static size_t bound_of(const piped *p) {
    size_t need = ta_plan_bound_scratch_bytes(p->n), bytes = 0;
    void *s = malloc(need ? need : 1);
    ta_plan_bound(p->reqs, p->n, s, need, &bytes, NULL);
    free(s);
    return bytes;
}

/* ---- ALIAS ---------------------------------------------------------------- */

static void test_alias(void) {
    /* in -> LOGISTIC -> x -> RESHAPE -> y -> LOGISTIC -> out */
    gbox b;
    g_begin(&b);
    int32_t in = act8(&b, 2, 2, 8), x = act8(&b, 4, 4, 8);
    int32_t s2[2] = {1, 128}, s16[2] = {1, 16};
    int32_t y = tq(&b, TA_DTYPE_INT8, 2, s2, 0, NULL, 0, &k_scale, &k_zp), out = tq(&b, TA_DTYPE_INT8, 2, s16, 0, NULL, 0, &k_scale, &k_zp);
    op1(&b, TA_OP_CONV_2D, in, x); /* a producer that is not elementwise */
    op1(&b, TA_OP_RESHAPE, x, y);
    op1(&b, TA_OP_CONV_2D, y, out);
    ta_graph_set_io(&b.g, &in, 1, &out, 1);
    piped p;
    CHECK(pipe_run(&b.g, TA_REWRITE_ALIAS, &p) == TA_OK);
    CHECK(p.st.aliased == 1 && p.buffer_of[y] == x && p.buffer_of[x] == x);
    CHECK_EQ_U(p.n, 3); /* in, {x, y}, out */
    CHECK(p.org[1].index == (uint32_t)x && p.reqs[1].first == 1 && p.reqs[1].last == 3);
    CHECK_EQ_U(bound_of(&p), 32 + 128); /* the reshape step no longer holds two copies */
    pipe_free(&p);
    /* TFLM's rules: three steps with x and y both live at the reshape */
    CHECK(pipe_run(&b.g, 0, &p) == TA_OK);
    CHECK(p.st.aliased == 0 && p.buffer_of[y] == y && p.n == 4);
    CHECK_EQ_U(bound_of(&p), 128 + 128);
    pipe_free(&p);
    /* other dtype (int8 -> uint8 bytes): no alias */
    gbox c;
    g_begin(&c);
    in = act8(&c, 2, 2, 8);
    x = act8(&c, 4, 4, 8);
    y = tq(&c, TA_DTYPE_UINT8, 2, s2, 0, NULL, 0, NULL, NULL);
    op1(&c, TA_OP_CONV_2D, in, x);
    op1(&c, TA_OP_RESHAPE, x, y);
    ta_graph_set_io(&c.g, &in, 1, &y, 1);
    CHECK(pipe_run(&c.g, TA_REWRITE_ALL, &p) == TA_OK);
    CHECK(p.st.aliased == 0 && p.buffer_of[y] == y);
    pipe_free(&p);
    free(b.mem);
    free(c.mem);
}

/* A reshape's input is still read by an op that would write in place: the
 * shared bytes must not be overwritten while the reshape's output is live. */
static void test_alias_then_write(void) {
    for (int later_read = 0; later_read < 2; later_read++) {
        gbox b;
        g_begin(&b);
        int32_t in = act8(&b, 4, 4, 8), x = act8(&b, 4, 4, 8), y = act8(&b, 8, 2, 8), z = act8(&b, 4, 4, 8);
        int32_t o1 = act8(&b, 8, 2, 8);
        op1(&b, TA_OP_CONV_2D, in, x);
        op1(&b, TA_OP_RESHAPE, x, y);  /* y shares x's bytes */
        op1(&b, TA_OP_LOGISTIC, x, z); /* x dies here: in place would overwrite y's bytes */
        if (later_read) op1(&b, TA_OP_CONV_2D, y, o1);
        int32_t outs[2] = {z, o1};
        ta_graph_set_io(&b.g, &in, 1, outs, later_read ? 2 : 1);
        piped p;
        CHECK(pipe_run(&b.g, TA_REWRITE_ALIAS | TA_REWRITE_INPLACE, &p) == TA_OK);
        CHECK(p.buffer_of[y] == x);
        if (later_read) CHECK(p.st.in_place == 0 && p.buffer_of[z] == z);
        else CHECK(p.st.in_place == 1 && p.buffer_of[z] == x); /* y is dead by then */
        pipe_free(&p);
        free(b.mem);
    }
    /* a reshape to a graph output, then the last op writing in place over the
     * reshape's input: the output would be clobbered after the last use */
    gbox b;
    g_begin(&b);
    int32_t in = act8(&b, 4, 4, 8), x = act8(&b, 4, 4, 8), y = act8(&b, 8, 2, 8), z = act8(&b, 4, 4, 8);
    op1(&b, TA_OP_CONV_2D, in, x);
    op1(&b, TA_OP_RESHAPE, x, y);
    op1(&b, TA_OP_LOGISTIC, x, z);
    int32_t outs[2] = {y, z};
    ta_graph_set_io(&b.g, &in, 1, outs, 2);
    piped p;
    CHECK(pipe_run(&b.g, TA_REWRITE_ALL, &p) == TA_OK);
    CHECK(p.buffer_of[y] == x && p.st.in_place == 0 && p.buffer_of[z] == z);
    pipe_free(&p);
    free(b.mem);
}

/* ---- INPLACE -------------------------------------------------------------- */

static void test_inplace(void) {
    /* a = conv(in), c = conv(in); s = a + c (a, c die); t = logistic(s) */
    gbox b;
    g_begin(&b);
    int32_t in = act8(&b, 4, 4, 8), a = act8(&b, 4, 4, 8), c = act8(&b, 4, 4, 8), s = act8(&b, 4, 4, 8);
    int32_t t = act8(&b, 4, 4, 8);
    op1(&b, TA_OP_CONV_2D, in, a);
    op1(&b, TA_OP_CONV_2D, in, c);
    op2(&b, TA_OP_ADD, a, c, s);
    op1(&b, TA_OP_LOGISTIC, s, t);
    ta_graph_set_io(&b.g, &in, 1, &t, 1);
    piped p;
    CHECK(pipe_run(&b.g, TA_REWRITE_INPLACE, &p) == TA_OK);
    CHECK(p.st.in_place == 2 && p.buffer_of[s] == a && p.buffer_of[t] == a); /* the first input; chained */
    CHECK_EQ_U(bound_of(&p), 128 * 3);                                       /* in, a, c at the second conv */
    pipe_free(&p);
    CHECK(pipe_run(&b.g, 0, &p) == TA_OK && p.st.in_place == 0);
    CHECK_EQ_U(bound_of(&p), 128 * 3);
    pipe_free(&p);
    free(b.mem);

    /* the first input still needed later: the second one is taken */
    g_begin(&b);
    in = act8(&b, 4, 4, 8), a = act8(&b, 4, 4, 8), c = act8(&b, 4, 4, 8), s = act8(&b, 4, 4, 8), t = act8(&b, 4, 4, 8);
    op1(&b, TA_OP_CONV_2D, in, a);
    op1(&b, TA_OP_CONV_2D, in, c);
    op2(&b, TA_OP_SUB, a, c, s);
    op2(&b, TA_OP_MUL, s, a, t);
    ta_graph_set_io(&b.g, &in, 1, &t, 1);
    CHECK(pipe_run(&b.g, TA_REWRITE_INPLACE, &p) == TA_OK);
    CHECK(p.buffer_of[s] == c && p.buffer_of[t] == c && p.st.in_place == 2);
    pipe_free(&p);
    free(b.mem);

    /* broadcast ADD: in place over the full-shape input only (the kernel
     * walks the output in order, reading a's element i before writing it,
     * but reads the broadcast input's elements again after) */
    for (int a_later = 0; a_later < 2; a_later++) {
        g_begin(&b);
        in = act8(&b, 4, 4, 8), a = act8(&b, 4, 4, 8);
        int32_t bias = act8(&b, 1, 1, 8), u = act8(&b, 4, 4, 8);
        s = act8(&b, 4, 4, 8);
        op1(&b, TA_OP_CONV_2D, in, a);
        op1(&b, TA_OP_MEAN, a, bias);
        op2(&b, TA_OP_ADD, a, bias, s);
        if (a_later) op1(&b, TA_OP_CONV_2D, a, u); /* a still needed: only the broadcast bias dies */
        int32_t outs[2] = {s, u};
        ta_graph_set_io(&b.g, &in, 1, outs, a_later ? 2 : 1);
        CHECK(pipe_run(&b.g, TA_REWRITE_INPLACE, &p) == TA_OK); /* the model's order */
        if (a_later) CHECK(p.st.in_place == 0 && p.buffer_of[s] == s);
        else CHECK(p.st.in_place == 1 && p.buffer_of[s] == a && p.buffer_of[bias] == bias);
        pipe_free(&p);
        free(b.mem);
    }

    /* an input that is a graph output, a constant input, an input read later */
    g_begin(&b);
    int32_t s8[4] = {1, 4, 4, 8};
    static int8_t cdata[128];
    in = act8(&b, 4, 4, 8), a = act8(&b, 4, 4, 8);
    int32_t k = tq(&b, TA_DTYPE_INT8, 4, s8, TA_TENSOR_CONST, cdata, sizeof cdata, &k_scale, &k_zp);
    s = act8(&b, 4, 4, 8), t = act8(&b, 4, 4, 8);
    int32_t u = act8(&b, 4, 4, 8);
    op1(&b, TA_OP_CONV_2D, in, a);
    op2(&b, TA_OP_ADD, k, a, s);   /* a is a graph output: not overwritten; k constant */
    op1(&b, TA_OP_TANH, s, t);     /* s read again below */
    op2(&b, TA_OP_MUL, s, t, u);   /* s and t die here: u over s */
    int32_t outs[2] = {a, u};
    ta_graph_set_io(&b.g, &in, 1, outs, 2);
    CHECK(pipe_run(&b.g, TA_REWRITE_ALL, &p) == TA_OK);
    CHECK(p.buffer_of[s] == s && p.buffer_of[t] == t && p.buffer_of[u] == s && p.st.in_place == 1);
    pipe_free(&p);
    free(b.mem);

    /* QUANTIZE: int8 -> int8 in place; DEQUANTIZE int8 -> float32 never */
    g_begin(&b);
    in = act8(&b, 4, 4, 8), a = act8(&b, 4, 4, 8);
    s = tq(&b, TA_DTYPE_INT8, 4, s8, 0, NULL, 0, &k_scale2, &k_zp2);
    t = tq(&b, TA_DTYPE_FLOAT32, 4, s8, 0, NULL, 0, NULL, NULL);
    op1(&b, TA_OP_CONV_2D, in, a);
    op1(&b, TA_OP_QUANTIZE, a, s);
    op1(&b, TA_OP_DEQUANTIZE, s, t);
    ta_graph_set_io(&b.g, &in, 1, &t, 1);
    CHECK(pipe_run(&b.g, TA_REWRITE_ALL, &p) == TA_OK);
    CHECK(p.buffer_of[s] == a && p.buffer_of[t] == t && p.st.in_place == 1);
    pipe_free(&p);
    free(b.mem);

    /* a graph input dying at an elementwise op is overwritten (as TFLM would
     * reuse its bytes); a TFLM default with the same graph shares nothing */
    g_begin(&b);
    int32_t i1 = act8(&b, 4, 4, 8), i2 = act8(&b, 4, 4, 8);
    s = act8(&b, 4, 4, 8);
    op2(&b, TA_OP_ADD, i1, i2, s);
    int32_t ins[2] = {i1, i2};
    ta_graph_set_io(&b.g, ins, 2, &s, 1);
    CHECK(pipe_run(&b.g, TA_REWRITE_ALL, &p) == TA_OK);
    CHECK(p.buffer_of[s] == i1 && p.n == 2);
    CHECK_EQ_U(bound_of(&p), 256);
    pipe_free(&p);
    free(b.mem);
}

/* ---- FUSEPAD: when it applies and when not --------------------------------- */

static int32_t k_pads[8] = {0, 0, 1, 2, 2, 1, 0, 0};
static int8_t k_w8[3 * 3 * 8 * 8];
static float k_wf[3 * 3 * 8 * 8];

typedef struct {
    ta_op_kind conv;         /* CONV_2D or DEPTHWISE_CONV_2D */
    ta_padding conv_padding; /* VALID to fuse */
    ta_dtype dt;
    bool padv2;
    int8_t v8;               /* PADV2 value (int8) */
    float vf;                /* PADV2 value (float) */
    const int32_t *pads;
    bool second_reader, pad_out_is_output, other_quant, inf_weight;
} padcase;

static int fuse_count(const padcase *pc) {
    gbox b;
    g_begin(&b);
    const bool f = pc->dt == TA_DTYPE_FLOAT32;
    const float *sc = f ? NULL : &k_scale;
    const int64_t *zp = f ? NULL : &k_zp;
    int32_t sx[4] = {1, 6, 6, 8}, sp[4] = {1, 6 + pc->pads[2] + pc->pads[3], 6 + pc->pads[4] + pc->pads[5], 8 + pc->pads[6] + pc->pads[7]};
    int32_t sw[4] = {8, 3, 3, 8}, so[4] = {1, sp[1] - 2, sp[2] - 2, 8}, s82[2] = {4, 2}, s1[1] = {1};
    if (pc->conv == TA_OP_DEPTHWISE_CONV_2D) sw[0] = 1;
    int32_t x = tq(&b, pc->dt, 4, sx, 0, NULL, 0, sc, zp);
    int32_t pads = tq(&b, TA_DTYPE_INT32, 2, s82, TA_TENSOR_CONST, pc->pads, 32, NULL, NULL);
    int32_t y = tq(&b, pc->dt, 4, sp, 0, NULL, 0, pc->other_quant ? &k_scale2 : sc, pc->other_quant ? &k_zp2 : zp);
    if (pc->inf_weight) k_wf[5] = INFINITY;
    int32_t w = tq(&b, pc->dt, 4, sw, TA_TENSOR_CONST, f ? (const void *)k_wf : (const void *)k_w8,
                   f ? sizeof k_wf : sizeof k_w8, sc, f ? NULL : zp);
    int32_t o = tq(&b, pc->dt, 4, so, 0, NULL, 0, sc, zp);
    int32_t o2 = tq(&b, pc->dt, 4, sp, 0, NULL, 0, sc, zp);
    int32_t v = pc->padv2 ? (f ? tq(&b, pc->dt, 1, s1, TA_TENSOR_CONST, &pc->vf, 4, NULL, NULL)
                              : tq(&b, pc->dt, 1, s1, TA_TENSOR_CONST, &pc->v8, 1, sc, zp))
                          : -1;
    int32_t pin[3] = {x, pads, v};
    op(&b, pc->padv2 ? TA_OP_PADV2 : TA_OP_PAD, pin, pc->padv2 ? 3 : 2, y, NULL);
    ta_op_options co = ta_op_options_default();
    co.padding = pc->conv_padding;
    int32_t cin[2] = {y, w};
    op(&b, pc->conv, cin, 2, o, &co);
    if (pc->second_reader) op1(&b, TA_OP_LOGISTIC, y, o2);
    int32_t outs[2] = {o, pc->pad_out_is_output ? y : o2};
    ta_graph_set_io(&b.g, &x, 1, outs, pc->second_reader || pc->pad_out_is_output ? 2 : 1);
    piped p;
    int fused = -1;
    if (pipe_run(&b.g, TA_REWRITE_FUSEPAD, &p) == TA_OK) {
        fused = (int)p.st.fused_pads;
        if (fused == 1) {
            /* the new graph: the conv alone, reading x with the PAD's amounts */
            const ta_op *c = ta_graph_op(p.g, 0, 0);
            CHECK(p.g->subgraphs[0].n_ops == b.g.subgraphs[0].n_ops - 1 && c->kind == pc->conv);
            CHECK(c->inputs[0] == x && c->opt.padding == TA_PAD_EXPLICIT);
            CHECK(c->opt.pad_top == pc->pads[2] && c->opt.pad_bottom == pc->pads[3] && c->opt.pad_left == pc->pads[4] &&
                  c->opt.pad_right == pc->pads[5]);
            CHECK(p.g->tensors[y].flags & TA_TENSOR_ELIDED);
            for (size_t i = 0; i < p.n; i++) CHECK(p.org[i].index != (uint32_t)y); /* no bytes for the PAD's output */
            CHECK(p.g->n_tensors == b.g.n_tensors && !strcmp(p.g->tensors[w].name, "t"));
        } else {
            CHECK(p.g->subgraphs[0].n_ops == b.g.subgraphs[0].n_ops);
        }
    }
    pipe_free(&p);
    free(b.mem);
    k_wf[5] = 0.0f;
    return fused;
}

static void test_fusepad_rules(void) {
    static const int32_t chan_pads[8] = {0, 0, 1, 1, 1, 1, 0, 2};
    const padcase base = {.conv = TA_OP_CONV_2D, .conv_padding = TA_PAD_VALID, .dt = TA_DTYPE_INT8, .pads = k_pads};
    padcase c = base;
    CHECK(fuse_count(&c) == 1);
    c.conv = TA_OP_DEPTHWISE_CONV_2D;
    CHECK(fuse_count(&c) == 1);
    c = base, c.dt = TA_DTYPE_FLOAT32;
    CHECK(fuse_count(&c) == 1);
    c.padv2 = true, c.vf = -0.0f; /* either zero */
    CHECK(fuse_count(&c) == 1);
    c.vf = 1.0f; /* a non-zero pad value */
    CHECK(fuse_count(&c) == 0);
    c = base, c.dt = TA_DTYPE_FLOAT32, c.inf_weight = true; /* 0 * inf would be NaN */
    CHECK(fuse_count(&c) == 0);
    c = base, c.padv2 = true, c.v8 = (int8_t)k_zp; /* PADV2 with the zero point */
    CHECK(fuse_count(&c) == 1);
    c.v8 = 0; /* not the zero point */
    CHECK(fuse_count(&c) == 0);
    c = base, c.second_reader = true; /* the PAD has two readers */
    CHECK(fuse_count(&c) == 0);
    c = base, c.pad_out_is_output = true;
    CHECK(fuse_count(&c) == 0);
    c = base, c.conv_padding = TA_PAD_SAME;
    CHECK(fuse_count(&c) == 0);
    c = base, c.other_quant = true; /* the PAD requantises? its bytes would not be the conv's */
    CHECK(fuse_count(&c) == 0);
    c = base, c.pads = chan_pads; /* channel padding is not spatial padding */
    CHECK(fuse_count(&c) == 0);
}

/* ---- FUSEPAD: bit-exact through prepare and the kernels --------------------- */

/* Runs ops [0, n) of subgraph 0 of g with tensor data in bufs (constants read
 * from the graph).  False on a prepare/invoke failure. */
static bool run_ops(const ta_graph *g, void **bufs) {
    const ta_subgraph *s = &g->subgraphs[0];
    void *ptrs[64];
    for (uint32_t t = 0; t < s->n_tensors && t < 64; t++) {
        const ta_tensor *tt = ta_graph_tensor(g, 0, (int32_t)t);
        ptrs[t] = (tt->flags & TA_TENSOR_CONST) ? (void *)tt->data : bufs[t];
    }
    for (uint32_t k = 0; k < s->n_ops; k++) {
        ta__op_info info;
        ta_diag d;
        if (ta__op_prepare(g, 0, k, NULL, 0, &info, &d)) {
            fprintf(stderr, "prepare: %s\n", d.msg);
            return false;
        }
        void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
        ta_status st = ta__op_prepare(g, 0, k, rec, info.data_bytes, &info, &d);
        if (!st) st = ta__op_invoke(rec, ptrs, NULL, &d);
        free(rec);
        if (st) {
            fprintf(stderr, "op %u: %s\n", k, d.msg);
            return false;
        }
    }
    return true;
}

static float rnd_float(void) {
    switch (rnd(8)) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return (float)((int)rnd(5) - 2); /* small integers: exact cancellations */
    default: return ((float)rnd(20001) - 10000.0f) / 1000.0f;
    }
}

static void test_fusepad_exact(void) {
    int cases = 0, mismatches = 0;
    for (int iter = 0; iter < 160; iter++) {
        const bool dw = iter & 1, f32 = (iter >> 1) & 1;
        const ta_dtype dt = f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8;
        const int32_t H = 2 + (int32_t)rnd(6), W = 2 + (int32_t)rnd(6), C = 1 + (int32_t)rnd(4), dm = dw ? 1 + (int32_t)rnd(2) : 1;
        const int32_t OC = dw ? C * dm : 1 + (int32_t)rnd(5), KH = 1 + (int32_t)rnd(3), KW = 1 + (int32_t)rnd(3);
        const int32_t sh = 1 + (int32_t)rnd(2), sw = 1 + (int32_t)rnd(2), dh = 1 + (int32_t)rnd(2), dwl = 1 + (int32_t)rnd(2);
        int32_t pads[8] = {0, 0, (int32_t)rnd(4), (int32_t)rnd(4), (int32_t)rnd(4), (int32_t)rnd(4), 0, 0};
        const int32_t PH = H + pads[2] + pads[3], PW = W + pads[4] + pads[5];
        const int32_t OH = (PH - ((KH - 1) * dh + 1) + sh) / sh, OW = (PW - ((KW - 1) * dwl + 1) + sw) / sw;
        if (OH <= 0 || OW <= 0) continue;
        const bool v2 = rnd(2);
        /* tensors: x, pads, y, w, bias, out, (value) */
        float in_scale = 0.02f + (float)rnd(100) / 1000.0f, out_scale = 0.05f + (float)rnd(100) / 500.0f;
        int64_t in_zp = (int64_t)rnd(40) - 20, out_zp = (int64_t)rnd(40) - 20;
        float wscales[16];
        for (int i = 0; i < 16; i++) wscales[i] = 0.001f + (float)rnd(1000) / 100000.0f;
        const size_t es = f32 ? 4 : 1, nw = (size_t)(dw ? 1 : OC) * KH * KW * (dw ? OC : C);
        unsigned char *wdata = malloc(nw * es), *bdata = malloc((size_t)OC * 4);
        for (size_t i = 0; i < nw; i++) {
            if (f32) {
                float v = rnd_float();
                memcpy(wdata + 4 * i, &v, 4);
            } else {
                wdata[i] = (unsigned char)rnd(256);
            }
        }
        for (int32_t i = 0; i < OC; i++) {
            if (f32) {
                float v = rnd_float();
                memcpy(bdata + 4 * i, &v, 4);
            } else {
                int32_t v = (int32_t)rnd(2001) - 1000;
                memcpy(bdata + 4 * i, &v, 4);
            }
        }
        int8_t v8 = (int8_t)in_zp;
        float vf = rnd(2) ? 0.0f : -0.0f;
        gbox b;
        g_begin(&b);
        int32_t sx[4] = {1, H, W, C}, sp[4] = {1, PH, PW, C}, s82[2] = {4, 2}, s1[1] = {1};
        int32_t swt[4] = {dw ? 1 : OC, KH, KW, dw ? OC : C}, sb[1] = {OC}, so[4] = {1, OH, OW, OC};
        const float *isc = f32 ? NULL : &in_scale;
        const int64_t *izp = f32 ? NULL : &in_zp;
        int32_t x = tq(&b, dt, 4, sx, 0, NULL, 0, isc, izp);
        int32_t pt = tq(&b, TA_DTYPE_INT32, 2, s82, TA_TENSOR_CONST, pads, sizeof pads, NULL, NULL);
        int32_t y = tq(&b, dt, 4, sp, 0, NULL, 0, isc, izp);
        ta_tensor_desc wd = {.name = "w", .dtype = dt, .rank = 4, .shape = swt, .flags = TA_TENSOR_CONST, .data = wdata,
                             .data_bytes = nw * es};
        static const int64_t zeros[16];
        if (!f32) wd.quant = (ta_quant){(uint32_t)OC, wscales, zeros, dw ? 3 : 0};
        int32_t w = -1;
        CHECK(ta_graph_add_tensor(&b.g, &wd, &w) == TA_OK);
        int32_t bias = tq(&b, f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT32, 1, sb, TA_TENSOR_CONST, bdata, (size_t)OC * 4, NULL, NULL);
        int32_t o = tq(&b, dt, 4, so, 0, NULL, 0, f32 ? NULL : &out_scale, f32 ? NULL : &out_zp);
        int32_t v = v2 ? tq(&b, dt, 1, s1, TA_TENSOR_CONST, f32 ? (const void *)&vf : (const void *)&v8, es, isc, izp) : -1;
        int32_t pin[3] = {x, pt, v};
        op(&b, v2 ? TA_OP_PADV2 : TA_OP_PAD, pin, v2 ? 3 : 2, y, NULL);
        ta_op_options co = ta_op_options_default();
        co.padding = TA_PAD_VALID;
        co.stride_h = sh, co.stride_w = sw, co.dilation_h = dh, co.dilation_w = dwl;
        co.activation = rnd(2) ? TA_ACT_RELU6 : TA_ACT_NONE;
        co.depth_multiplier = dm;
        int32_t cin[3] = {y, w, bias};
        op(&b, dw ? TA_OP_DEPTHWISE_CONV_2D : TA_OP_CONV_2D, cin, 3, o, &co);
        ta_graph_set_io(&b.g, &x, 1, &o, 1);
        /* data: x random, y and both outputs */
        const size_t nx = (size_t)H * W * C, ny = (size_t)PH * PW * C, no = (size_t)OH * OW * OC;
        void *bufs[16] = {0}, *bufs2[16] = {0};
        bufs[x] = malloc(nx * es);
        bufs[y] = malloc(ny * es);
        bufs[o] = malloc(no * es);
        bufs2[x] = bufs[x];
        bufs2[o] = malloc(no * es);
        for (size_t i = 0; i < nx; i++) {
            if (f32) {
                float fv = rnd_float();
                memcpy((unsigned char *)bufs[x] + 4 * i, &fv, 4);
            } else {
                ((unsigned char *)bufs[x])[i] = (unsigned char)rnd(256);
            }
        }
        piped p;
        CHECK(pipe_run(&b.g, TA_REWRITE_FUSEPAD, &p) == TA_OK);
        CHECK(p.st.fused_pads == 1);
        bool ok = run_ops(&b.g, bufs) && run_ops(p.g, bufs2);
        CHECK(ok);
        if (ok && memcmp(bufs[o], bufs2[o], no * es) != 0) {
            mismatches++;
            fprintf(stderr, "fusepad %s %s: outputs differ (H%d W%d C%d OC%d K%dx%d s%d,%d d%d,%d pads %d %d %d %d)\n",
                    dw ? "depthwise" : "conv", f32 ? "float32" : "int8", H, W, C, OC, KH, KW, sh, sw, dh, dwl, pads[2],
                    pads[3], pads[4], pads[5]);
        }
        cases++;
        pipe_free(&p);
        free(bufs[x]);
        free(bufs[y]);
        free(bufs[o]);
        free(bufs2[o]);
        free(wdata);
        free(bdata);
        free(b.mem);
    }
    printf("  fused padding: %d random conv/depthwise cases (int8, float32), %d mismatches\n", cases, mismatches);
    CHECK(cases > 100 && mismatches == 0);
}

/* ---- in-place kernels ------------------------------------------------------ */

/* Each kernel an INPLACE rewrite may run with output == an input gives the
 * same bytes as out of place. */
static void test_inplace_kernels(void) {
    enum { N = 97 };
    int8_t a8[N], b8[N], r8[N], t8[N];
    int16_t a16[N], b16[N], r16[N], t16[N];
    float af[N], bf[N], rf[N], tf[N];
    for (int i = 0; i < N; i++) {
        a8[i] = (int8_t)rnd(256), b8[i] = (int8_t)rnd(256);
        a16[i] = (int16_t)rnd(65536), b16[i] = (int16_t)rnd(65536);
        af[i] = rnd_float(), bf[i] = rnd_float();
    }
    int32_t shape[4] = {1, 1, 1, N};
    ta_addsub_params as;
    memset(&as, 0, sizeof as);
    CHECK(ta_broadcast_init(&as.shape, shape, 4, shape, 4) == TA_OK);
    ta_mul_params mp;
    memset(&mp, 0, sizeof mp);
    mp.shape = as.shape;
    ta_lut_act_params lp;
    int fails = 0;
#define SAME8(call_out, call_in)                                       \
    do {                                                               \
        call_out;                                                      \
        call_in;                                                       \
        fails += memcmp(r8, t8, sizeof r8) != 0;                       \
    } while (0)
    for (int which = 0; which < 2; which++) {
        /* int8 ADD, SUB, MUL with output over input 1 and over input 2 */
        CHECK(ta_addsub_prepare(&as, TA_DTYPE_INT8, 0.05f, -3, 0.07f, 4, 0.09f, 2, TA_ACT_NONE) == TA_OK);
        memcpy(t8, which ? b8 : a8, N);
        SAME8(ta_kernel_add_s8(&as, a8, b8, r8), ta_kernel_add_s8(&as, which ? a8 : t8, which ? t8 : b8, t8));
        CHECK(ta_sub_prepare(&as, TA_DTYPE_INT8, 0.05f, -3, 0.07f, 4, 0.09f, 2, TA_ACT_NONE) == TA_OK);
        memcpy(t8, which ? b8 : a8, N);
        SAME8(ta_kernel_sub_s8(&as, a8, b8, r8), ta_kernel_sub_s8(&as, which ? a8 : t8, which ? t8 : b8, t8));
        CHECK(ta_mul_prepare(&mp, TA_DTYPE_INT8, 0.05f, -3, 0.07f, 4, 0.09f, 2, TA_ACT_RELU) == TA_OK);
        memcpy(t8, which ? b8 : a8, N);
        SAME8(ta_kernel_mul_s8(&mp, a8, b8, r8), ta_kernel_mul_s8(&mp, which ? a8 : t8, which ? t8 : b8, t8));
        /* int16 ADD */
        CHECK(ta_addsub_prepare(&as, TA_DTYPE_INT16, 0.0005f, 0, 0.0007f, 0, 0.0009f, 0, TA_ACT_NONE) == TA_OK);
        memcpy(t16, which ? b16 : a16, sizeof t16);
        ta_kernel_add_s16(&as, a16, b16, r16);
        ta_kernel_add_s16(&as, which ? a16 : t16, which ? t16 : b16, t16);
        fails += memcmp(r16, t16, sizeof r16) != 0;
        /* float ADD, SUB, MUL */
        ta_float_activation_range(TA_ACT_NONE, &as.f_act_min, &as.f_act_max);
        ta_float_activation_range(TA_ACT_RELU6, &mp.f_act_min, &mp.f_act_max);
        memcpy(tf, which ? bf : af, sizeof tf);
        ta_kernel_add_f32(&as, af, bf, rf);
        ta_kernel_add_f32(&as, which ? af : tf, which ? tf : bf, tf);
        fails += memcmp(rf, tf, sizeof rf) != 0;
        memcpy(tf, which ? bf : af, sizeof tf);
        ta_kernel_sub_f32(&as, af, bf, rf);
        ta_kernel_sub_f32(&as, which ? af : tf, which ? tf : bf, tf);
        fails += memcmp(rf, tf, sizeof rf) != 0;
        memcpy(tf, which ? bf : af, sizeof tf);
        ta_kernel_mul_f32(&mp, af, bf, rf);
        ta_kernel_mul_f32(&mp, which ? af : tf, which ? tf : bf, tf);
        fails += memcmp(rf, tf, sizeof rf) != 0;
    }
    /* x op x (both inputs the buffer written) */
    CHECK(ta_addsub_prepare(&as, TA_DTYPE_INT8, 0.05f, -3, 0.05f, -3, 0.09f, 2, TA_ACT_NONE) == TA_OK);
    memcpy(t8, a8, N);
    SAME8(ta_kernel_add_s8(&as, a8, a8, r8), ta_kernel_add_s8(&as, t8, t8, t8));
    /* unary: LOGISTIC, TANH (int8, float), requantise int8 -> int8 */
    ta_act_prepare_s8(&lp, 0.1f, -5);
    memcpy(t8, a8, N);
    SAME8(ta_kernel_logistic_s8(&lp, N, a8, r8), ta_kernel_logistic_s8(&lp, N, t8, t8));
    memcpy(t8, a8, N);
    SAME8(ta_kernel_tanh_s8(&lp, N, a8, r8), ta_kernel_tanh_s8(&lp, N, t8, t8));
    memcpy(tf, af, sizeof tf);
    ta_kernel_logistic_f32(N, af, rf);
    ta_kernel_logistic_f32(N, tf, tf);
    fails += memcmp(rf, tf, sizeof rf) != 0;
    memcpy(tf, af, sizeof tf);
    ta_kernel_tanh_f32(N, af, rf);
    ta_kernel_tanh_f32(N, tf, tf);
    fails += memcmp(rf, tf, sizeof rf) != 0;
    /* SOFTMAX (int8 -> int8, float) row by row: a row's max and sum are
     * taken before its first write, and element i is read before it is
     * written; one row of 97 and 8 rows of 12 */
    for (int rows = 0; rows < 2; rows++) {
        ta_softmax_params sp;
        memset(&sp, 0, sizeof sp);
        sp.outer = rows ? 8 : 1;
        sp.depth = rows ? 12 : N;
        const size_t n = (size_t)sp.outer * (size_t)sp.depth;
        CHECK(ta_softmax_prepare_s8(&sp, 1.0f, 0.1f) == TA_OK);
        memcpy(t8, a8, n);
        ta_kernel_softmax_s8(&sp, a8, r8);
        ta_kernel_softmax_s8(&sp, t8, t8);
        fails += memcmp(r8, t8, n) != 0;
        sp.beta = 0.7f;
        memcpy(tf, af, n * sizeof *tf);
        ta_kernel_softmax_f32(&sp, af, rf);
        ta_kernel_softmax_f32(&sp, tf, tf);
        fails += memcmp(rf, tf, n * sizeof *rf) != 0;
    }
    int32_t m, sh;
    ta_quant_multiplier(0.05 / 0.07, &m, &sh);
    memcpy(t8, a8, N);
    SAME8(ta_kernel_requantize(N, TA_DTYPE_INT8, a8, -3, m, sh, TA_DTYPE_INT8, 4, r8),
          ta_kernel_requantize(N, TA_DTYPE_INT8, t8, -3, m, sh, TA_DTYPE_INT8, 4, t8));
    memcpy(t16, a16, sizeof t16);
    ta_kernel_requantize(N, TA_DTYPE_INT16, a16, 0, m, sh, TA_DTYPE_INT16, 0, r16);
    ta_kernel_requantize(N, TA_DTYPE_INT16, t16, 0, m, sh, TA_DTYPE_INT16, 0, t16);
    fails += memcmp(r16, t16, sizeof r16) != 0;
#undef SAME8
    CHECK(fails == 0);
}

/* ---- random DAGs ------------------------------------------------------------ */

/* Builds a random int8 DAG: producers (CONV), residual ADD/SUB/MUL of equal
 * shapes, LOGISTIC/TANH, RESHAPE (flattening), QUANTIZE, PAD feeding a VALID
 * conv (sometimes with a second reader, so it must not fold), graph outputs
 * that are sometimes read again. */
static void random_dag_n(gbox *b, int32_t *n_in, int32_t max_ops, bool pads_too) {
    g_begin(b);
    int32_t avail[256], na = 0, outs[8], no = 0;
    static const int32_t pads[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    static int8_t w[9 * 16 * 16];
    int32_t s82[2] = {4, 2}, sw[4] = {16, 3, 3, 16};
    const int32_t pt = tq(b, TA_DTYPE_INT32, 2, s82, TA_TENSOR_CONST, pads, sizeof pads, NULL, NULL);
    const int32_t wt = tq(b, TA_DTYPE_INT8, 4, sw, TA_TENSOR_CONST, w, sizeof w, &k_scale, &k_zp);
    const int32_t ins = 1 + (int32_t)rnd(2);
    int32_t in[2];
    for (int32_t i = 0; i < ins; i++) avail[na++] = in[i] = act8(b, 4, 4, 4 << rnd(3));
    const int32_t n_ops = 4 + (int32_t)rnd((uint32_t)max_ops - 3);
    for (int32_t k = 0; k < n_ops; k++) {
        const int32_t x = avail[rnd((uint32_t)na)];
        const ta_tensor *xt = ta_graph_tensor(&b->g, 0, x);
        const int32_t c = xt->shape[xt->rank - 1];
        int32_t y;
        switch (rnd(9)) {
        case 0: /* residual: an equal-shaped partner, or x itself */
        case 1: {
            int32_t partner = x;
            for (int32_t tries = 0; tries < 8; tries++) {
                const int32_t cand = avail[rnd((uint32_t)na)];
                const ta_tensor *ct = ta_graph_tensor(&b->g, 0, cand);
                if (ct->rank == xt->rank && ct->bytes == xt->bytes && ct->shape[ct->rank - 1] == c) partner = cand;
            }
            y = tq(b, TA_DTYPE_INT8, xt->rank, xt->shape, 0, NULL, 0, &k_scale, &k_zp);
            static const ta_op_kind bin[3] = {TA_OP_ADD, TA_OP_SUB, TA_OP_MUL};
            op2(b, bin[rnd(3)], x, partner, y);
            break;
        }
        case 2:
            y = tq(b, TA_DTYPE_INT8, xt->rank, xt->shape, 0, NULL, 0, &k_scale, &k_zp);
            op1(b, rnd(2) ? TA_OP_LOGISTIC : TA_OP_TANH, x, y);
            break;
        case 3: {
            int32_t s2[2] = {1, (int32_t)xt->bytes};
            y = tq(b, TA_DTYPE_INT8, 2, s2, 0, NULL, 0, &k_scale, &k_zp);
            op1(b, TA_OP_RESHAPE, x, y);
            break;
        }
        case 4:
            y = tq(b, TA_DTYPE_INT8, xt->rank, xt->shape, 0, NULL, 0, &k_scale2, &k_zp2);
            op1(b, TA_OP_QUANTIZE, x, y);
            break;
        case 5:
            if (xt->rank == 4 && pads_too) { /* PAD -> VALID conv (3x3 keeps the size) */
                const int32_t pyv = act8(b, 6, 6, c);
                int32_t pin[2] = {x, pt};
                op(b, TA_OP_PAD, pin, 2, pyv, NULL);
                y = act8(b, 4, 4, c);
                ta_op_options co = ta_op_options_default();
                co.padding = TA_PAD_VALID;
                int32_t cin[2] = {pyv, wt};
                op(b, TA_OP_CONV_2D, cin, 2, y, &co);
                if (rnd(4) == 0) { /* a second reader: the PAD must stay */
                    const int32_t z = act8(b, 6, 6, c);
                    op1(b, TA_OP_LOGISTIC, pyv, z);
                    avail[na++] = z;
                }
                break;
            }
            /* fall through */
        default:
            y = act8(b, 4, 4, 4 << rnd(3));
            op1(b, TA_OP_CONV_2D, x, y);
            break;
        }
        avail[na++] = y;
        if (no < 3 && rnd(8) == 0) outs[no++] = y; /* an output, maybe read again later */
    }
    outs[no++] = avail[na - 1];
    ta_graph_set_io(&b->g, in, (uint32_t)ins, outs, (uint32_t)no);
    *n_in = ins;
}

static void random_dag(gbox *b, int32_t *n_in) { random_dag_n(b, n_in, 31, true); }

/* Executes the plan byte by byte: every byte remembers which value it holds
 * (a RESHAPE's output is its input's value).  Each op first checks that its
 * inputs' bytes still hold their values, then writes its outputs (an op
 * whose output shares its input's buffer does not write).  At the end every
 * graph output must still hold its value.  Returns the failing op or -1. */
static int simulate(const piped *p, const size_t *off, size_t arena) {
    const ta_graph *g = p->g;
    const ta_subgraph *s = &g->subgraphs[0];
    int32_t *tag = malloc(sizeof(int32_t) * (arena + 1)), *val = malloc(sizeof(int32_t) * s->n_tensors);
    size_t *at = malloc(sizeof(size_t) * s->n_tensors);
    for (size_t i = 0; i < arena; i++) tag[i] = -1;
    for (uint32_t t = 0; t < s->n_tensors; t++) val[t] = (int32_t)t, at[t] = SIZE_MAX;
    for (size_t i = 0; i < p->n; i++)
        if (p->org[i].kind == TA_BUFFER_TENSOR) at[p->org[i].index] = off[i];
    for (uint32_t t = 0; t < s->n_tensors; t++)
        if (p->buffer_of[t] != (int32_t)t) at[t] = at[p->buffer_of[t]];
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *o = ta_graph_op(g, 0, k);
        if (o->kind == TA_OP_RESHAPE) val[o->outputs[0]] = val[o->inputs[0]];
    }
    int bad = -1;
    for (uint32_t i = 0; i < s->n_inputs; i++)
        for (size_t j = 0; j < g->tensors[s->inputs[i]].bytes; j++) tag[at[s->inputs[i]] + j] = val[s->inputs[i]];
    for (uint32_t k = 0; k < s->n_ops && bad < 0; k++) {
        const ta_op *o = ta_graph_op(g, 0, k);
        for (uint32_t i = 0; i < o->n_inputs; i++) {
            const int32_t t = o->inputs[i];
            if (at[t] == SIZE_MAX) continue; /* constants */
            for (size_t j = 0; j < g->tensors[t].bytes; j++)
                if (tag[at[t] + j] != val[t]) bad = (int)k;
        }
        const int32_t y = o->outputs[0];
        const bool shares = o->kind == TA_OP_RESHAPE && p->buffer_of[y] == p->buffer_of[o->inputs[0]];
        if (!shares)
            for (size_t j = 0; j < g->tensors[y].bytes; j++) tag[at[y] + j] = val[y];
    }
    for (uint32_t i = 0; i < s->n_outputs && bad < 0; i++) {
        const int32_t t = s->outputs[i];
        for (size_t j = 0; j < g->tensors[t].bytes; j++)
            if (tag[at[t] + j] != val[t]) bad = (int)s->n_ops;
    }
    free(tag);
    free(val);
    free(at);
    return bad;
}

static void test_random_dags(void) {
    size_t n_strat;
    const ta_strategy *const *strats = ta_strategy_list(&n_strat);
    static const uint32_t k_flags[] = {0, TA_REWRITE_ALIAS, TA_REWRITE_INPLACE, TA_REWRITE_FUSEPAD,
                                       TA_REWRITE_ALIAS | TA_REWRITE_INPLACE, TA_REWRITE_ALL};
    int graphs = 0, plans = 0, lower = 0, failures = 0;
    ta_rewrite_stats total = {0};
    for (int iter = 0; iter < 300; iter++) {
        gbox b;
        int32_t n_in;
        random_dag(&b, &n_in);
        size_t bound0 = 0;
        for (size_t f = 0; f < sizeof k_flags / sizeof k_flags[0]; f++) {
            piped p;
            ta_status st = pipe_run(&b.g, k_flags[f], &p);
            CHECK(st == TA_OK);
            if (st) {
                pipe_free(&p);
                continue;
            }
            const size_t bound = bound_of(&p);
            if (f == 0) bound0 = bound;
            CHECK(bound <= bound0); /* rewrites never raise the bound */
            if (k_flags[f] == TA_REWRITE_ALL) {
                lower += bound < bound0;
                total.aliased += p.st.aliased, total.in_place += p.st.in_place, total.fused_pads += p.st.fused_pads;
            }
            if (k_flags[f] == 0) { /* TFLM's rules: no group, nothing rewritten */
                CHECK(p.g->n_ops == b.g.n_ops);
                for (uint32_t t = 0; t < b.g.n_tensors; t++) CHECK(p.buffer_of[t] == (int32_t)t);
            }
            for (size_t si = 0; si < n_strat; si++) {
                ta_plan_options po;
                memset(&po, 0, sizeof po);
                po.work_limit = 20000;
                size_t need;
                CHECK(ta_plan_scratch_bytes(strats[si], p.reqs, p.n, &po, &need) == TA_OK);
                void *scr = malloc(need ? need : 1);
                size_t off[256];
                ta_plan_result res;
                ta_diag d;
                st = ta_plan_run(strats[si], p.reqs, p.n, &po, scr, need, off, &res, &d); /* validated inside */
                free(scr);
                CHECK(st == TA_OK);
                if (st) continue;
                plans++;
                const int bad = simulate(&p, off, res.arena_bytes);
                if (bad >= 0) {
                    failures++;
                    fprintf(stderr, "random dag %d, rewrites 0x%x, %s: a needed value is overwritten (op %d)\n", iter,
                            k_flags[f], strats[si]->name, bad);
                }
            }
            pipe_free(&p);
        }
        graphs++;
        free(b.mem);
    }
    printf("  random DAGs: %d graphs, %d plans simulated, %d failures; all rewrites lowered the bound on %d "
           "(%u aliased, %u in place, %u pads fused)\n",
           graphs, plans, failures, lower, total.aliased, total.in_place, total.fused_pads);
    CHECK(failures == 0 && lower > 0 && total.aliased && total.in_place && total.fused_pads);
}

/* ---- executed random DAGs ----------------------------------------------------- */

static const float k_sc_log = 1.0f / 256.0f, k_sc_tanh = 1.0f / 128.0f;
static const int64_t k_zp_log = -128, k_zp_tanh = 0;

/* A random DAG the kernels can run: 1x1 and padded 3x3 VALID convs, ADD,
 * SUB, MUL of equal shapes, LOGISTIC, TANH, RESHAPE (4-D to 4-D),
 * requantising QUANTIZE; all int8.  Weights come from w8 (zero-filled
 * biases from b32). */
static void exec_dag(gbox *b, int8_t *w8, const int32_t *b32) {
    g_begin(b);
    static const int32_t pads[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    int32_t s82[2] = {4, 2};
    const int32_t pt = tq(b, TA_DTYPE_INT32, 2, s82, TA_TENSOR_CONST, pads, sizeof pads, NULL, NULL);
    int32_t avail[128], na = 0, outs[4], no = 0;
    int32_t in = act8(b, 4, 4, 4);
    avail[na++] = in;
    const int32_t n_ops = 3 + (int32_t)rnd(14);
    for (int32_t k = 0; k < n_ops; k++) {
        const int32_t x = avail[rnd((uint32_t)na)];
        const ta_tensor *xt = ta_graph_tensor(&b->g, 0, x);
        const int32_t h = xt->shape[1], w = xt->shape[2], c = xt->shape[3];
        int32_t y = -1;
        const uint32_t kind = rnd(8);
        if (kind <= 1) { /* conv 1x1 or PAD + 3x3 */
            const bool padded = kind == 1;
            const int32_t co = 4 << rnd(2), kk = padded ? 3 : 1;
            int32_t sw[4] = {co, kk, kk, c}, sb[1] = {co};
            const int32_t wt = tq(b, TA_DTYPE_INT8, 4, sw, TA_TENSOR_CONST, w8, (size_t)co * kk * kk * c, &k_scale2, NULL);
            const int32_t bt = tq(b, TA_DTYPE_INT32, 1, sb, TA_TENSOR_CONST, b32, (size_t)co * 4, NULL, NULL);
            int32_t src = x;
            if (padded) {
                src = act8(b, h + 2, w + 2, c);
                int32_t pin[2] = {x, pt};
                op(b, TA_OP_PAD, pin, 2, src, NULL);
            }
            y = act8(b, h, w, co);
            ta_op_options o = ta_op_options_default();
            o.padding = TA_PAD_VALID;
            int32_t cin[3] = {src, wt, bt};
            op(b, TA_OP_CONV_2D, cin, 3, y, &o);
        } else if (kind <= 3) { /* binary with an equal-shaped partner, or itself */
            int32_t partner = x;
            for (int32_t tries = 0; tries < 6; tries++) {
                const int32_t cand = avail[rnd((uint32_t)na)];
                const ta_tensor *ct = ta_graph_tensor(&b->g, 0, cand);
                if (ct->shape[1] == h && ct->shape[2] == w && ct->shape[3] == c) partner = cand;
            }
            y = act8(b, h, w, c);
            static const ta_op_kind bin[3] = {TA_OP_ADD, TA_OP_SUB, TA_OP_MUL};
            op2(b, bin[rnd(3)], x, partner, y);
        } else if (kind == 4) {
            const bool lg = rnd(2);
            int32_t sh[4] = {1, h, w, c};
            y = tq(b, TA_DTYPE_INT8, 4, sh, 0, NULL, 0, lg ? &k_sc_log : &k_sc_tanh, lg ? &k_zp_log : &k_zp_tanh);
            op1(b, lg ? TA_OP_LOGISTIC : TA_OP_TANH, x, y);
        } else if (kind == 5) {
            int32_t sh[4] = {1, w, h, c}; /* the same bytes seen as another 4-D shape */
            y = tq(b, TA_DTYPE_INT8, 4, sh, 0, NULL, 0, xt->quant.scale, xt->quant.zero_point);
            op1(b, TA_OP_RESHAPE, x, y);
        } else {
            y = act8(b, h, w, c);
            op1(b, TA_OP_QUANTIZE, x, y);
        }
        avail[na++] = y;
        if (no < 2 && rnd(6) == 0) outs[no++] = y;
    }
    outs[no++] = avail[na - 1];
    ta_graph_set_io(&b->g, &in, 1, outs, (uint32_t)no);
}

/* Runs g's ops with ptrs as the tensor table. */
static bool run_with(const ta_graph *g, void **ptrs) {
    const ta_subgraph *s = &g->subgraphs[0];
    for (uint32_t k = 0; k < s->n_ops; k++) {
        ta__op_info info;
        ta_diag d;
        if (ta__op_prepare(g, 0, k, NULL, 0, &info, &d)) return fprintf(stderr, "prepare: %s\n", d.msg), false;
        void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
        ta_status st = ta__op_prepare(g, 0, k, rec, info.data_bytes, &info, &d);
        if (!st) st = ta__op_invoke(rec, ptrs, NULL, &d);
        free(rec);
        if (st) return fprintf(stderr, "op %u: %s\n", k, d.msg), false;
    }
    return true;
}

static void test_executed_dags(void) {
    static int8_t w8[16 * 9 * 16];
    static int32_t b32[16];
    for (size_t i = 0; i < sizeof w8; i++) w8[i] = (int8_t)rnd(256);
    for (int i = 0; i < 16; i++) b32[i] = (int32_t)rnd(2001) - 1000;
    int runs = 0, bad = 0, reordered = 0;
    ta_rewrite_stats tot = {0};
    for (int iter = 0; iter < 120; iter++) {
        gbox b;
        exec_dag(&b, w8, b32);
        const ta_subgraph *s = &b.g.subgraphs[0];
        const uint32_t nt = s->n_tensors;
        /* reference: every tensor its own buffer, the model's order */
        void **ref = calloc(nt, sizeof *ref), **ptrs = calloc(nt, sizeof *ptrs);
        for (uint32_t t = 0; t < nt; t++) {
            const ta_tensor *tt = &b.g.tensors[t];
            ref[t] = (tt->flags & TA_TENSOR_CONST) ? (void *)tt->data : calloc(1, tt->bytes + 1);
        }
        const int32_t in = s->inputs[0];
        for (size_t i = 0; i < b.g.tensors[in].bytes; i++) ((int8_t *)ref[in])[i] = (int8_t)rnd(256);
        bool ok = run_with(&b.g, ref);
        CHECK(ok);
        /* rewritten: one arena, planned, garbage where nothing was written */
        piped p;
        CHECK(pipe_run(&b.g, TA_REWRITE_ALL, &p) == TA_OK);
        const ta_strategy *st = ta_strategy_find(iter % 2 ? "best" : "greedy");
        size_t need, off[256];
        ta_plan_result res;
        ta_diag d;
        ta_plan_scratch_bytes(st, p.reqs, p.n, NULL, &need);
        void *scr = malloc(need ? need : 1);
        CHECK(ta_plan_run(st, p.reqs, p.n, NULL, scr, need, off, &res, &d) == TA_OK);
        free(scr);
        unsigned char *arena = malloc(res.arena_bytes + 1);
        for (size_t i = 0; i <= res.arena_bytes; i++) arena[i] = (unsigned char)rnd(256);
        for (uint32_t t = 0; t < nt; t++) {
            const ta_tensor *tt = &p.g->tensors[t];
            ptrs[t] = (tt->flags & TA_TENSOR_CONST) ? (void *)tt->data : NULL;
        }
        for (size_t i = 0; i < p.n; i++) ptrs[p.org[i].index] = arena + off[i];
        for (uint32_t t = 0; t < nt; t++)
            if (p.buffer_of[t] != (int32_t)t) ptrs[t] = ptrs[p.buffer_of[t]];
        memcpy(ptrs[in], ref[in], b.g.tensors[in].bytes);
        ok = ok && run_with(p.g, ptrs);
        CHECK(ok);
        for (uint32_t i = 0; ok && i < s->n_outputs; i++) {
            const int32_t t = s->outputs[i];
            if (memcmp(ptrs[t], ref[t], b.g.tensors[t].bytes) != 0) {
                bad++;
                fprintf(stderr, "executed dag %d: output %u differs after rewrites\n", iter, i);
                break;
            }
        }
        runs++;
        reordered += p.st.reordered > 0;
        tot.aliased += p.st.aliased, tot.in_place += p.st.in_place, tot.fused_pads += p.st.fused_pads;
        pipe_free(&p);
        free(arena);
        for (uint32_t t = 0; t < nt; t++)
            if (!(b.g.tensors[t].flags & TA_TENSOR_CONST)) free(ref[t]);
        free(ref);
        free(ptrs);
        free(b.mem);
    }
    printf("  executed DAGs: %d run from one planned arena with every rewrite, %d differ (%u aliased, %u in place, "
           "%u pads fused, %d reordered)\n", runs, bad, tot.aliased, tot.in_place, tot.fused_pads, reordered);
    CHECK(bad == 0 && tot.aliased && tot.in_place && tot.fused_pads && reordered);
}

/* ---- ORDER against every topological order ---------------------------------- */

/* g's ops in the order perm (same tensors), into *out. */
static void permuted(const ta_graph *g, const uint32_t *perm, gbox *out) {
    g_begin(out);
    const ta_subgraph *s = &g->subgraphs[0];
    for (uint32_t t = 0; t < s->n_tensors; t++) {
        const ta_tensor *tt = &g->tensors[t];
        ta_tensor_desc d = {.name = tt->name, .dtype = tt->dtype, .rank = tt->rank, .shape = tt->shape, .bytes = tt->bytes,
                            .data = tt->data, .data_bytes = tt->data_bytes, .flags = tt->flags, .quant = tt->quant};
        CHECK(ta_graph_add_tensor(&out->g, &d, NULL) == TA_OK);
    }
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const ta_op *o = &g->ops[perm[i]];
        op(out, o->kind, o->inputs, o->n_inputs, o->outputs[0], &o->opt);
    }
    ta_graph_set_io(&out->g, s->inputs, s->n_inputs, s->outputs, s->n_outputs);
}

/* Smallest bound over every topological order of ops [k, n) after perm[0, k). */
static size_t best_order(const ta_graph *g, uint32_t *perm, uint32_t k, uint32_t n, uint8_t *used, uint32_t *orders) {
    if (k == n) {
        gbox pb;
        permuted(g, perm, &pb);
        piped p;
        size_t bound = SIZE_MAX;
        if (pipe_run(&pb.g, TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_INPUTS, &p) == TA_OK) bound = bound_of(&p);
        pipe_free(&p);
        free(pb.mem);
        (*orders)++;
        return bound;
    }
    size_t best = SIZE_MAX;
    for (uint32_t v = 0; v < n; v++) {
        if (used[v]) continue;
        /* ready: every input produced by an op already placed (or by none) */
        bool ready = true;
        const ta_op *o = &g->ops[v];
        for (uint32_t i = 0; i < o->n_inputs && ready; i++)
            for (uint32_t u = 0; u < n && ready; u++)
                if (!used[u] && u != v && g->ops[u].outputs[0] == o->inputs[i]) ready = false;
        if (!ready) continue;
        used[v] = 1;
        perm[k] = v;
        const size_t b = best_order(g, perm, k + 1, n, used, orders);
        if (b < best) best = b;
        used[v] = 0;
    }
    return best;
}

static void test_order_exact(void) {
    int graphs = 0, improved = 0;
    uint32_t orders = 0;
    for (int iter = 0; iter < 60; iter++) {
        gbox b;
        int32_t n_in;
        random_dag_n(&b, &n_in, 8, false);
        const uint32_t n = b.g.subgraphs[0].n_ops;
        uint32_t perm[16];
        uint8_t used[16] = {0};
        const size_t opt = best_order(&b.g, perm, 0, n, used, &orders);
        piped model, ord;
        CHECK(pipe_run(&b.g, TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_INPUTS, &model) == TA_OK);
        CHECK(pipe_run(&b.g, TA_REWRITE_ALL, &ord) == TA_OK);
        const size_t got = bound_of(&ord), had = bound_of(&model);
        /* under 9 ops the search holds every set of run ops: it is exact */
        CHECK(got == opt);
        CHECK(got <= had && (got < had) == (ord.st.reordered > 0));
        if (got != opt) fprintf(stderr, "order: dag %d: %zu, best order %zu, model order %zu\n", iter, got, opt, had);
        improved += got < had;
        graphs++;
        pipe_free(&model);
        pipe_free(&ord);
        free(b.mem);
    }
    printf("  order: %d random DAGs against all %u topological orders: the optimum every time, below the model's "
           "order on %d\n", graphs, orders, improved);
    CHECK(improved > 0);
}

/* ---- hostile graphs ------------------------------------------------------------ */

/* Random kinds, operands (absent ones too), flags, shapes and constant data:
 * both passes and the requests either work or refuse, never crash (ASan). */
static void test_hostile(void) {
    static const ta_op_kind kinds[] = {TA_OP_PAD, TA_OP_PADV2, TA_OP_CONV_2D, TA_OP_DEPTHWISE_CONV_2D, TA_OP_ADD,
                                       TA_OP_MUL, TA_OP_SUB, TA_OP_RESHAPE, TA_OP_SQUEEZE, TA_OP_LOGISTIC,
                                       TA_OP_QUANTIZE, TA_OP_DEQUANTIZE, TA_OP_CUSTOM, TA_OP_IF, TA_OP_CONCATENATION};
    static const ta_dtype dts[] = {TA_DTYPE_INT8, TA_DTYPE_FLOAT32, TA_DTYPE_INT32, TA_DTYPE_INT4, TA_DTYPE_STRING};
    static int32_t junk[64];
    for (int i = 0; i < 64; i++) junk[i] = (int32_t)rnd(7) - 2;
    int ok = 0;
    for (int iter = 0; iter < 2000; iter++) {
        gbox b;
        g_begin(&b);
        const int32_t nt = 2 + (int32_t)rnd(12);
        for (int32_t t = 0; t < nt; t++) {
            int32_t sh[4] = {1 + (int32_t)rnd(3), 1 + (int32_t)rnd(4), 1 + (int32_t)rnd(4), 1 + (int32_t)rnd(3)};
            const int32_t rank = (int32_t)rnd(5);
            const uint32_t fl = rnd(4) == 0 ? TA_TENSOR_CONST : rnd(9) == 0 ? TA_TENSOR_VARIABLE : 0;
            tq(&b, dts[rnd(5)], rank, sh, fl, fl == TA_TENSOR_CONST ? junk : NULL, fl == TA_TENSOR_CONST ? rnd(256) : 0,
               rnd(2) ? &k_scale : NULL, &k_zp);
        }
        const int32_t no = 1 + (int32_t)rnd(10);
        for (int32_t k = 0; k < no; k++) {
            int32_t in[4];
            const uint32_t nin = rnd(5);
            for (uint32_t i = 0; i < nin; i++) in[i] = (int32_t)rnd((uint32_t)nt + 1) - 1;
            ta_op_options o = ta_op_options_default();
            o.padding = (ta_padding)rnd(3);
            op(&b, kinds[rnd(sizeof kinds / sizeof kinds[0])], in, nin, (int32_t)rnd((uint32_t)nt), &o);
        }
        int32_t io[2] = {(int32_t)rnd((uint32_t)nt), (int32_t)rnd((uint32_t)nt)};
        ta_graph_set_io(&b.g, io, 1 + rnd(2), io + 1, 1);
        piped p;
        ok += pipe_run(&b.g, TA_REWRITE_ALL, &p) == TA_OK;
        pipe_free(&p);
        free(b.mem);
    }
    printf("  hostile graphs: 2000 through both passes, %d planned, none crashed\n", ok);
}

/* ---- API edges --------------------------------------------------------------- */

static void test_api(void) {
    uint32_t f = 0;
    ta_diag d;
    char buf[64];
    CHECK(ta_rewrite_parse("alias,inplace", &f, &d) == TA_OK && f == (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE));
    CHECK(ta_rewrite_parse("all", &f, &d) == TA_OK && f == TA_REWRITE_ALL);
    CHECK(ta_rewrite_parse("none", &f, &d) == TA_OK && f == 0);
    CHECK(ta_rewrite_parse("fusepad,bogus", &f, &d) == TA_E_INVALID_ARG && strstr(d.msg, "'bogus'") != NULL);
    CHECK(ta_rewrite_parse("", &f, &d) == TA_E_INVALID_ARG);
    CHECK(!strcmp(ta_rewrite_names(TA_REWRITE_ALL, buf, sizeof buf), "alias,inplace,fusepad,order,overlap,dwinplace,concat,slice,silu"));
    CHECK(!strcmp(ta_rewrite_names(0, buf, sizeof buf), "none"));
    CHECK(!strcmp(ta_rewrite_names(TA_REWRITE_FUSEPAD, buf, 4), "fus"));
    /* requests refuse malformed groups */
    gbox b;
    g_begin(&b);
    int32_t in = act8(&b, 4, 4, 8), x = act8(&b, 4, 4, 8), y = act8(&b, 4, 4, 8);
    op1(&b, TA_OP_CONV_2D, in, x);
    op1(&b, TA_OP_LOGISTIC, x, y);
    ta_graph_set_io(&b.g, &in, 1, &y, 1);
    piped p;
    CHECK(pipe_run(&b.g, 0, &p) == TA_OK);
    int32_t grp[3] = {0, 1, 1};
    ta_lifetime_options lo = {.buffer_of = grp, .n_buffer_of = 3};
    size_t n;
    CHECK(ta_lifetime_requests(&b.g, &p.lt, &lo, NULL, NULL, 0, &n, &d) == TA_OK && n == 2);
    ta_request r[3];
    CHECK(ta_lifetime_requests(&b.g, &p.lt, &lo, r, NULL, 3, &n, &d) == TA_OK);
    CHECK(r[1].first == 1 && r[1].last == 2);
    grp[1] = 2; /* not flat: 1 -> 2 -> 1 */
    grp[2] = 1;
    CHECK(ta_lifetime_requests(&b.g, &p.lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_MALFORMED);
    grp[1] = 1, grp[2] = 7;
    CHECK(ta_lifetime_requests(&b.g, &p.lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_MALFORMED);
    grp[2] = 1;
    lo.n_buffer_of = 2;
    CHECK(ta_lifetime_requests(&b.g, &p.lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_MALFORMED);
    int32_t offline[3] = {-1, 0, -1};
    lo.n_buffer_of = 3;
    lo.offline_offsets = offline;
    lo.n_offline = 3;
    CHECK(ta_lifetime_requests(&b.g, &p.lt, &lo, NULL, NULL, 0, &n, &d) == TA_E_BAD_REQUEST);
    /* unknown flags, short memory */
    ta_graph g2;
    char small[64];
    CHECK(ta_rewrite_graph(&b.g, (TA_REWRITE_ALL << 1) & ~TA_REWRITE_ALL, NULL, small, sizeof small, &g2, NULL, &d) == TA_E_INVALID_ARG);
    CHECK(ta_rewrite_graph(&b.g, TA_REWRITE_FUSEPAD, NULL, small, sizeof small, &g2, NULL, &d) == TA_E_NO_MEMORY);
    int32_t bo[3];
    CHECK(ta_rewrite_buffers(&b.g, &p.lt, TA_REWRITE_ALIAS, NULL, small, 0, bo, NULL, &d) == TA_E_NO_MEMORY);
    pipe_free(&p);
    free(b.mem);
}

int main(void) {
    test_api();
    test_alias();
    test_alias_then_write();
    test_inplace();
    test_fusepad_rules();
    test_fusepad_exact();
    test_inplace_kernels();
    test_random_dags();
    test_order_exact();
    test_executed_dags();
    test_hostile();
    return ta_test_finish("test_rewrite");
}
