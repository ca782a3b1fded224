/* The GATHER rewrite (rewrite.h) and the output-stationary TRANSPOSE_CONV
 * kernels (transpose_conv_gather.c).
 *  - kernels: 1,500 random int8 and 800 random int16 x int8 geometries
 *    (batches, channels, filters up to 5x5, strides 1-3, any leading
 *    padding, output extents smaller and larger than the input's reach,
 *    per-tensor and per-channel requantisation, biases near the int32 wrap,
 *    fused activations), every buffer an allocation of exactly its size:
 *    the gather kernel's bytes are the scatter kernel's, byte for byte;
 *  - the op: random one-op graphs through ta_rewrite_graph and the real
 *    prepare and invoke: GATHER marks exactly the int8 and int16 transpose
 *    convs (not float, not without the flag); a marked op asks for no
 *    scratch, an unmarked one for TFLM's (one int32 / int64 per output
 *    element), and both give the same output bytes. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"

static uint64_t g_seed = 0x7c0a7e11u;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }
static int32_t rnd_in(int32_t lo, int32_t hi) { /* inclusive */
    return (int32_t)(lo + (int64_t)(ta__rng_next(&g_seed) % (uint64_t)((int64_t)hi - lo + 1)));
}

/* A random geometry: the output extent ranges from 1 to past the input's
 * full reach (in - 1) * stride + filter, so taps fall off both ends. */
static ta_tconv_params random_geometry(void) {
    ta_tconv_params p;
    memset(&p, 0, sizeof p);
    const int32_t n = rnd_in(1, 2), ic = rnd_in(1, 9), oc = rnd_in(1, 6);
    p.stride_h = rnd_in(1, 3);
    p.stride_w = rnd_in(1, 3);
    p.input = (ta_dims4){n, rnd_in(1, 6), rnd_in(1, 6), ic};
    p.filter = (ta_dims4){oc, rnd_in(1, 5), rnd_in(1, 5), ic};
    const int32_t reach_h = (p.input.h - 1) * p.stride_h + p.filter.h, reach_w = (p.input.w - 1) * p.stride_w + p.filter.w;
    p.output = (ta_dims4){n, rnd_in(1, reach_h + 2), rnd_in(1, reach_w + 2), oc};
    p.pad_h = rnd(p.filter.h + 1);
    p.pad_w = rnd(p.filter.w + 1);
    return p;
}

static size_t elems(const ta_dims4 *d) { return (size_t)d->n * d->h * d->w * d->c; }

static void test_kernels_s8(void) {
    int cases = 0, differ = 0;
    for (int iter = 0; iter < 1500; iter++) {
        ta_tconv_params p = random_geometry();
        const size_t ni = elems(&p.input), nf = elems(&p.filter), no = elems(&p.output);
        const int32_t oc = p.output.c;
        int8_t *x = malloc(ni), *w = malloc(nf), *ya = malloc(no), *yb = malloc(no);
        int32_t *bias = malloc((size_t)oc * sizeof *bias), *mult = malloc((size_t)oc * sizeof *mult);
        int8_t *shift = malloc((size_t)oc);
        void *scratch = malloc(ta_kernel_transpose_conv_scratch_bytes(&p, TA_DTYPE_INT8));
        for (size_t i = 0; i < ni; i++) x[i] = (int8_t)(rnd(256) - 128);
        for (size_t i = 0; i < nf; i++) w[i] = (int8_t)(rnd(256) - 128);
        for (int32_t c = 0; c < oc; c++) {
            /* every fourth case near the int32 wrap: both kernels wrap alike */
            bias[c] = iter % 4 == 0 ? (int32_t)(0x7fffff00u + (uint32_t)rnd(512)) : rnd_in(-40000, 40000);
            mult[c] = (int32_t)(0x40000000u + (uint32_t)rnd(0x3fffffff));
            shift[c] = (int8_t)rnd_in(-14, 2);
        }
        p.q = (ta_requant){.input_offset = rnd_in(-127, 128), .output_offset = rnd_in(-128, 127), .mult = mult,
                           .shift = shift, .per_channel = rnd(2) != 0, .act_min = -128, .act_max = 127};
        if (rnd(3) == 0) p.q.act_min = rnd_in(-128, 0), p.q.act_max = rnd_in(p.q.act_min, 127);
        const int32_t *b = rnd(5) ? bias : NULL;
        memset(ya, 0x55, no);
        memset(yb, 0xaa, no);
        CHECK(ta_kernel_transpose_conv_s8(&p, x, w, b, ya, scratch, ta_kernel_transpose_conv_scratch_bytes(&p, TA_DTYPE_INT8)) == TA_OK);
        CHECK(ta_kernel_transpose_conv_gather_s8(&p, x, w, b, yb) == TA_OK);
        if (memcmp(ya, yb, no)) {
            if (differ++ < 3)
                fprintf(stderr, "s8 case %d: in %dx%dx%dx%d filter %dx%dx%dx%d out %dx%dx%dx%d stride %d,%d pad %d,%d\n", iter,
                        p.input.n, p.input.h, p.input.w, p.input.c, p.filter.n, p.filter.h, p.filter.w, p.filter.c,
                        p.output.n, p.output.h, p.output.w, p.output.c, p.stride_h, p.stride_w, p.pad_h, p.pad_w);
        }
        cases++;
        free(x), free(w), free(ya), free(yb), free(bias), free(mult), free(shift), free(scratch);
    }
    CHECK_EQ_U((unsigned)differ, 0u);
    if (!differ) printf("  int8: %d random geometries, gather == scatter byte for byte\n", cases);
}

static void test_kernels_s16(void) {
    int cases = 0, differ = 0;
    for (int iter = 0; iter < 800; iter++) {
        ta_tconv_params p = random_geometry();
        const size_t ni = elems(&p.input), nf = elems(&p.filter), no = elems(&p.output);
        const int32_t oc = p.output.c;
        int16_t *x = malloc(ni * 2), *ya = malloc(no * 2), *yb = malloc(no * 2);
        int8_t *w = malloc(nf), *shift = malloc((size_t)oc);
        int64_t *bias = malloc((size_t)oc * sizeof *bias);
        int32_t *mult = malloc((size_t)oc * sizeof *mult);
        const size_t sb = ta_kernel_transpose_conv_scratch_bytes(&p, TA_DTYPE_INT16);
        void *scratch = aligned_alloc(8, (sb + 7) & ~(size_t)7);
        for (size_t i = 0; i < ni; i++) x[i] = (int16_t)(rnd(65536) - 32768);
        for (size_t i = 0; i < nf; i++) w[i] = (int8_t)(rnd(256) - 128);
        for (int32_t c = 0; c < oc; c++) {
            bias[c] = (int64_t)rnd_in(-(1 << 30), 1 << 30) * rnd_in(1, 64);
            mult[c] = (int32_t)(0x40000000u + (uint32_t)rnd(0x3fffffff));
            shift[c] = (int8_t)rnd_in(-20, 7);
        }
        p.q = (ta_requant){.mult = mult, .shift = shift, .per_channel = rnd(2) != 0, .act_min = -32768, .act_max = 32767};
        if (rnd(3) == 0) p.q.act_min = rnd_in(-32768, 0), p.q.act_max = rnd_in(p.q.act_min, 32767);
        const int64_t *b = rnd(5) ? bias : NULL;
        memset(ya, 0x55, no * 2);
        memset(yb, 0xaa, no * 2);
        CHECK(ta_kernel_transpose_conv_s16(&p, x, w, b, ya, scratch, sb) == TA_OK);
        CHECK(ta_kernel_transpose_conv_gather_s16(&p, x, w, b, yb) == TA_OK);
        if (memcmp(ya, yb, no * 2) && differ++ < 3) fprintf(stderr, "s16 case %d differs\n", iter);
        cases++;
        free(x), free(w), free(ya), free(yb), free(bias), free(mult), free(shift), free(scratch);
    }
    CHECK_EQ_U((unsigned)differ, 0u);
    /* argument checks: the same refusals as the scatter kernels */
    ta_tconv_params p = random_geometry();
    int8_t v[1] = {0};
    CHECK(ta_kernel_transpose_conv_gather_s8(NULL, v, v, NULL, v) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_transpose_conv_gather_s8(&p, v, v, NULL, v) == TA_E_INVALID_ARG); /* no requantisation */
    p.stride_h = 0;
    CHECK(ta_kernel_transpose_conv_gather_s16(&p, (int16_t *)v, v, NULL, (int16_t *)v) != TA_OK);
    if (!differ) printf("  int16 x int8: %d random geometries, gather == scatter byte for byte\n", cases);
}

/* ---- the op: one-op graphs through the rewrite, prepare and invoke ------------ */

typedef struct {
    ta_graph g;
    void *mem;
    float in_scale, out_scale, w_scale[8], b_scale[8];
    int64_t in_zp, out_zp, zeros[8];
    int32_t out_shape_data[4];
} box;

static int32_t add_t(box *b, const char *name, ta_dtype dt, const int32_t *shape, const void *data, size_t data_bytes,
                     ta_quant q) {
    ta_tensor_desc d = {.name = name, .dtype = dt, .rank = 4, .shape = shape, .data = data, .data_bytes = data_bytes,
                        .quant = q};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

/* prepare + invoke op 0 of g on ptrs; *scratch_bytes gets prepare's request */
static ta_status run_op(const ta_graph *g, void **ptrs, size_t *scratch_bytes) {
    ta__op_info info;
    ta_diag d;
    ta_status st = ta__op_prepare(g, 0, 0, NULL, 0, &info, &d);
    if (st) {
        fprintf(stderr, "prepare: %s\n", d.msg);
        return st;
    }
    void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
    void *scratch = info.scratch_bytes ? aligned_alloc(8, (info.scratch_bytes + 7) & ~(size_t)7) : NULL;
    *scratch_bytes = info.scratch_bytes;
    st = ta__op_prepare(g, 0, 0, rec, info.data_bytes, &info, &d);
    if (!st) st = ta__op_invoke(rec, ptrs, scratch, &d);
    if (st) fprintf(stderr, "op: %s\n", d.msg);
    free(scratch);
    free(rec);
    return st;
}

static void test_op(void) {
    int marked = 0, runs = 0;
    for (int iter = 0; iter < 300; iter++) {
        const int kind = iter % 3; /* 0 int8, 1 int16 x int8, 2 float32 */
        const ta_dtype dt = kind == 0 ? TA_DTYPE_INT8 : kind == 1 ? TA_DTYPE_INT16 : TA_DTYPE_FLOAT32;
        const size_t es = kind == 0 ? 1 : kind == 1 ? 2 : 4, ws = kind == 2 ? 4 : 1;
        ta_tconv_params p = random_geometry();
        box b;
        memset(&b, 0, sizeof b);
        ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 2, .indices = 16, .dims = 64};
        const size_t need = ta_graph_bytes(&lim);
        b.mem = malloc(need);
        CHECK(ta_graph_init(&b.g, &lim, b.mem, need) == TA_OK);
        CHECK(ta_graph_add_subgraph(&b.g, "main", NULL) == TA_OK);
        const int32_t oc = p.output.c;
        const int32_t in_shape[4] = {p.input.n, p.input.h, p.input.w, p.input.c};
        const int32_t f_shape[4] = {p.filter.n, p.filter.h, p.filter.w, p.filter.c};
        const int32_t o_shape[4] = {p.output.n, p.output.h, p.output.w, p.output.c};
        const int32_t four[1] = {4};
        memcpy(b.out_shape_data, o_shape, sizeof o_shape);
        const size_t ni = elems(&p.input), nf = elems(&p.filter), no = elems(&p.output);
        unsigned char *wdata = malloc(nf * ws), *bdata = malloc((size_t)oc * 8);
        for (size_t i = 0; i < nf; i++) {
            if (kind == 2) {
                const float v = (float)(rnd(2001) - 1000) / 1000.0f;
                memcpy(wdata + 4 * i, &v, 4);
            } else {
                wdata[i] = (unsigned char)rnd(256);
            }
        }
        b.in_scale = 0.02f + (float)rnd(100) / 1000.0f;
        b.out_scale = 0.05f + (float)rnd(400) / 1000.0f;
        b.in_zp = kind == 0 ? rnd_in(-128, 127) : 0;
        b.out_zp = kind == 0 ? rnd_in(-128, 127) : 0;
        for (int32_t c = 0; c < oc; c++) {
            b.w_scale[c] = 0.001f + (float)rnd(50) / 1000.0f;
            b.b_scale[c] = b.in_scale * b.w_scale[c];
            if (kind == 0) {
                const int32_t v = rnd_in(-5000, 5000);
                memcpy(bdata + 4 * c, &v, 4);
            } else if (kind == 1) {
                const int64_t v = rnd_in(-100000, 100000);
                memcpy(bdata + 8 * c, &v, 8);
            } else {
                const float v = (float)(rnd(201) - 100) / 100.0f;
                memcpy(bdata + 4 * c, &v, 4);
            }
        }
        const bool q = kind != 2;
        const ta_dtype bdt = kind == 0 ? TA_DTYPE_INT32 : kind == 1 ? TA_DTYPE_INT64 : TA_DTYPE_FLOAT32;
        const size_t bes = kind == 1 ? 8 : 4;
        ta_tensor_desc sd = {.name = "shape", .dtype = TA_DTYPE_INT32, .rank = 1, .shape = four,
                             .data = b.out_shape_data, .data_bytes = sizeof b.out_shape_data};
        int32_t t_shape = -1;
        CHECK(ta_graph_add_tensor(&b.g, &sd, &t_shape) == TA_OK);
        const int32_t t_w = add_t(&b, "filter", kind == 2 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8, f_shape, wdata, nf * ws,
                                  q ? (ta_quant){(uint32_t)oc, b.w_scale, b.zeros, 0} : (ta_quant){0});
        const int32_t t_in = add_t(&b, "input", dt, in_shape, NULL, 0, q ? (ta_quant){1, &b.in_scale, &b.in_zp, 0} : (ta_quant){0});
        const int32_t b_shape[4] = {1, 1, 1, oc};
        ta_tensor_desc bd = {.name = "bias", .dtype = bdt, .rank = 1, .shape = &b_shape[3], .data = bdata,
                             .data_bytes = (size_t)oc * bes,
                             .quant = q ? (ta_quant){(uint32_t)oc, b.b_scale, b.zeros, 0} : (ta_quant){0}};
        int32_t t_b = -1;
        CHECK(ta_graph_add_tensor(&b.g, &bd, &t_b) == TA_OK);
        const int32_t t_out = add_t(&b, "output", dt, o_shape, NULL, 0, q ? (ta_quant){1, &b.out_scale, &b.out_zp, 0} : (ta_quant){0});
        ta_op_options o = ta_op_options_default();
        o.stride_h = p.stride_h;
        o.stride_w = p.stride_w;
        o.padding = rnd(2) ? TA_PAD_SAME : TA_PAD_VALID;
        const int32_t ins[4] = {t_shape, t_w, t_in, t_b};
        ta_op_desc od = {.kind = TA_OP_TRANSPOSE_CONV, .inputs = ins, .n_inputs = 4, .outputs = &t_out, .n_outputs = 1,
                         .opt = &o};
        CHECK(ta_graph_add_op(&b.g, &od, NULL) == TA_OK);
        CHECK(ta_graph_set_io(&b.g, &t_in, 1, &t_out, 1) == TA_OK);
        ta_diag d;
        CHECK(ta_graph_validate(&b.g, &d) == TA_OK);
        /* the rewrite: with GATHER (alone or in ALL) int types are marked */
        const uint32_t flags = iter % 2 ? TA_REWRITE_ALL : TA_REWRITE_GATHER;
        const size_t rb = ta_rewrite_graph_bytes(&b.g, flags);
        void *rm = malloc(rb);
        ta_graph g2;
        ta_rewrite_stats st;
        memset(&st, 0, sizeof st);
        CHECK(ta_rewrite_graph(&b.g, flags, NULL, rm, rb, &g2, &st, &d) == TA_OK);
        CHECK_EQ_U(st.gathered, kind == 2 ? 0u : 1u);
        CHECK(g2.ops[0].opt.gather == (kind != 2));
        CHECK(!b.g.ops[0].opt.gather);
        marked += (int)st.gathered;
        /* without the flag: nothing marked */
        const size_t rb0 = ta_rewrite_graph_bytes(&b.g, TA_REWRITE_ALL & ~TA_REWRITE_GATHER);
        void *rm0 = malloc(rb0);
        ta_graph g0;
        memset(&st, 0, sizeof st);
        CHECK(ta_rewrite_graph(&b.g, TA_REWRITE_ALL & ~TA_REWRITE_GATHER, NULL, rm0, rb0, &g0, &st, &d) == TA_OK);
        CHECK(st.gathered == 0 && !g0.ops[0].opt.gather);
        /* run both: TFLM's scratch vs none, the same bytes */
        void *x = malloc(ni * es), *ya = malloc(no * es), *yb = malloc(no * es);
        for (size_t i = 0; i < ni * es; i++) ((unsigned char *)x)[i] = (unsigned char)rnd(256);
        if (kind == 2)
            for (size_t i = 0; i < ni; i++) ((float *)x)[i] = (float)(rnd(2001) - 1000) / 250.0f;
        void *pa[8] = {0}, *pb[8] = {0};
        pa[t_shape] = pb[t_shape] = b.out_shape_data;
        pa[t_w] = pb[t_w] = wdata;
        pa[t_b] = pb[t_b] = bdata;
        pa[t_in] = pb[t_in] = x;
        pa[t_out] = ya;
        pb[t_out] = yb;
        memset(ya, 0x33, no * es);
        memset(yb, 0xcc, no * es);
        size_t sa = 0, sb = 0;
        const ta_status ra = run_op(&b.g, pa, &sa), rbs = run_op(&g2, pb, &sb);
        CHECK(ra == TA_OK && rbs == TA_OK);
        if (ra == TA_OK && rbs == TA_OK) {
            runs++;
            CHECK(!memcmp(ya, yb, no * es));
            CHECK_EQ_U(sa, kind == 0 ? no * 4 : kind == 1 ? no * 8 : 0);
            CHECK_EQ_U(sb, 0);
        }
        free(x), free(ya), free(yb), free(rm), free(rm0), free(wdata), free(bdata), free(b.mem);
    }
    CHECK(marked == 200 && runs == 300);
    printf("  op: %d graphs, %d transpose convs marked, no scratch, byte-identical to TFLM's scratch kernels\n", runs,
           marked);
}

int main(void) {
    test_kernels_s8();
    test_kernels_s16();
    test_op();
    return ta_test_finish("test_tconv_gather");
}
