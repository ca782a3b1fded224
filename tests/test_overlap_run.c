/* The OVERLAP rewrite through the real prepare and kernels: random CONV_2D
 * (int8 per-channel, float32; any kernel size, stride, dilation, SAME,
 * VALID or explicit padding, 1-2 batches), AVERAGE_POOL_2D and MAX_POOL_2D
 * (int8, float32) geometries.  For each, ta_rewrite_overlaps declares the
 * relation of walk.h's ROWS walk; the op then runs with its output placed
 * exactly where that relation lets it start (Y ending d bytes below X's
 * end) in one buffer, under poison mode's walk check, and must give the
 * bytes of a run on disjoint buffers -- with every kernel implementation
 * (reference, fast at each x86 level, portable).  With Y one element
 * further up (d minus one element: one byte for int8) the walk check must
 * refuse the op (TA_E_OVERLAP) before a row lands on input bytes still to
 * be read. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/ops.h"
#include "one_op_harness.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

static uint64_t g_seed = 0x0e21a9;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

typedef struct {
    ta_graph g;
    void *mem;
    int32_t x, y;
    size_t xs, ys; /* tensor bytes */
    size_t elem;
    ta_conv_geometry cg;
} one_op;

static float rnd_float(void) { return ((float)rnd(20001) - 10000.0f) / 1000.0f; }

/* The relation ta_rewrite_overlaps declares on this one-op graph (lifetime
 * rules as the runtime's), moved back to the tensors' bytes; false when it
 * declares none. */
static bool declared(const one_op *b, ta_overlap *rel) {
    return one_op_declared(&b->g, b->x, b->y, b->xs, b->ys, NULL, 0, ONE_OP_STATS | ONE_OP_TENSOR_BYTES, rel);
}

/* A random op; false when the geometry has no output. */
static bool build(one_op *b, int kind, bool f32, unsigned char **wdata, unsigned char **bdata) {
    memset(b, 0, sizeof *b);
    one_op_begin(&b->g, &b->mem);
    const ta_dtype dt = f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8;
    const bool conv = kind == 0;
    const int32_t N = 1 + rnd(2), H = 1 + rnd(8), W = 1 + rnd(8), C = 1 + rnd(6);
    const int32_t OC = conv ? 1 + rnd(6) : C, KH = 1 + rnd(3), KW = 1 + rnd(3);
    const int32_t sh = 1 + rnd(3), sw = 1 + rnd(3), dh = conv ? 1 + rnd(2) : 1, dw = conv ? 1 + rnd(2) : 1;
    ta_op_options o = ta_op_options_default();
    const int pmode = rnd(conv ? 3 : 2);
    o.padding = pmode == 0 ? TA_PAD_SAME : pmode == 1 ? TA_PAD_VALID : TA_PAD_EXPLICIT;
    o.stride_h = sh, o.stride_w = sw, o.dilation_h = dh, o.dilation_w = dw;
    o.filter_h = KH, o.filter_w = KW;
    o.activation = rnd(2) ? TA_ACT_RELU6 : TA_ACT_NONE;
    const int32_t eh = (KH - 1) * dh + 1, ew = (KW - 1) * dw + 1;
    int32_t OH, OW;
    if (o.padding == TA_PAD_EXPLICIT) {
        o.pad_top = rnd(3), o.pad_bottom = rnd(3), o.pad_left = rnd(3), o.pad_right = rnd(3);
        OH = H + o.pad_top + o.pad_bottom >= eh ? (H + o.pad_top + o.pad_bottom - eh) / sh + 1 : 0;
        OW = W + o.pad_left + o.pad_right >= ew ? (W + o.pad_left + o.pad_right - ew) / sw + 1 : 0;
    } else if (o.padding == TA_PAD_SAME) {
        OH = (H + sh - 1) / sh, OW = (W + sw - 1) / sw;
    } else {
        OH = H >= eh ? (H - eh) / sh + 1 : 0, OW = W >= ew ? (W - ew) / sw + 1 : 0;
    }
    if (OH <= 0 || OW <= 0) return false;
    static float in_scale, out_scale, wscales[8];
    static int64_t in_zp, out_zp;
    static const int64_t zeros[8];
    in_scale = 0.02f + (float)rnd(100) / 1000.0f;
    out_scale = kind == 0 ? 0.05f + (float)rnd(100) / 500.0f : in_scale;
    in_zp = rnd(40) - 20;
    out_zp = kind == 0 ? rnd(40) - 20 : in_zp;
    for (int i = 0; i < 8; i++) wscales[i] = 0.001f + (float)rnd(1000) / 100000.0f;
    const ta_quant qin = f32 ? (ta_quant){0} : (ta_quant){1, &in_scale, &in_zp, 0};
    const ta_quant qout = f32 ? (ta_quant){0} : (ta_quant){1, &out_scale, &out_zp, 0};
    const int32_t sx[4] = {N, H, W, C}, so[4] = {N, OH, OW, OC};
    b->elem = f32 ? 4 : 1;
    b->x = one_op_tensor_q(&b->g, dt, 4, sx, 0, NULL, 0, qin);
    int32_t in[3] = {b->x, -1, -1};
    if (conv) {
        const int32_t swt[4] = {OC, KH, KW, C}, sb[1] = {OC};
        const size_t nw = (size_t)OC * KH * KW * C;
        *wdata = malloc(nw * b->elem);
        *bdata = malloc((size_t)OC * 4);
        for (size_t i = 0; i < nw; i++) {
            if (f32) {
                float v = rnd_float();
                memcpy(*wdata + 4 * i, &v, 4);
            } else {
                (*wdata)[i] = (unsigned char)rnd(256);
            }
        }
        for (int32_t i = 0; i < OC; i++) {
            int32_t v = rnd(2001) - 1000;
            float fv = rnd_float();
            memcpy(*bdata + 4 * i, f32 ? (const void *)&fv : (const void *)&v, 4);
        }
        in[1] = one_op_tensor_q(&b->g, dt, 4, swt, TA_TENSOR_CONST, *wdata, nw * b->elem,
                      f32 ? (ta_quant){0} : (ta_quant){(uint32_t)OC, wscales, zeros, 0});
        in[2] = one_op_tensor_q(&b->g, f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT32, 1, sb, TA_TENSOR_CONST, *bdata, (size_t)OC * 4,
                      (ta_quant){0});
    }
    b->y = one_op_tensor_q(&b->g, dt, 4, so, 0, NULL, 0, qout);
    const ta_op_kind k = conv ? TA_OP_CONV_2D : kind == 1 ? TA_OP_AVERAGE_POOL_2D : TA_OP_MAX_POOL_2D;
    ta_op_desc od = {.kind = k, .inputs = in, .n_inputs = conv ? 3 : 1, .outputs = &b->y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b->g, &b->x, 1, &b->y, 1) == TA_OK);
    b->xs = (size_t)N * H * W * C * b->elem;
    b->ys = (size_t)N * OH * OW * OC * b->elem;
    b->cg = (ta_conv_geometry){N, H, W, C, OH, OW, OC, KH, KW, sh, sw, dh, dw, 0, 0, (int32_t)b->elem, (int32_t)b->elem};
    return true;
}

static void test_random(void) {
    /* reference, fast (x86-64: the widest build), fast capped at SSE4.1,
     * portable, fast capped at SSE2 */
    static const ta_kernel_impl impls[5] = {TA_KERNEL_IMPL_REFERENCE, TA_KERNEL_IMPL_FAST, TA_KERNEL_IMPL_FAST,
                                            TA_KERNEL_IMPL_PORTABLE, TA_KERNEL_IMPL_FAST};
    int cases = 0, overlapped = 0, caught = 0, none = 0, mismatches = 0;
    for (int iter = 0; iter < 1200; iter++) {
        const int kind = iter % 3;
        const bool f32 = (iter / 3) & 1;
        unsigned char *wdata = NULL, *bdata = NULL;
        one_op b;
        if (!build(&b, kind, f32, &wdata, &bdata)) {
            free(b.mem);
            continue;
        }
        cases++;
        ta_overlap rel;
        if (!declared(&b, &rel)) {
            none++;
        } else {
            overlapped++;
            const int64_t xs = (int64_t)b.xs, ys = (int64_t)b.ys, e = (int64_t)b.elem;
            CHECK(rel.kind == TA_OVERLAP_BELOW && rel.d < xs && rel.d >= -ys && rel.d % e == 0);
            /* X at ys + 64 (8-aligned), Y ending d below X's end */
            const int64_t x0 = ys + 64, y0 = x0 + xs - rel.d - ys;
            unsigned char *mem = aligned_alloc(16, (size_t)(x0 + xs + ys + 64 + 15) & ~(size_t)15);
            unsigned char *xd = malloc(b.xs), *ref = malloc(b.ys);
            for (size_t i = 0; i < b.xs; i += b.elem) {
                if (f32) {
                    float v = rnd_float();
                    memcpy(xd + i, &v, 4);
                } else {
                    xd[i] = (unsigned char)rnd(256);
                }
            }
            for (int k = 0; k < 5; k++) {
                CHECK(ta_kernel_use_impl(impls[k]) == TA_OK);
#ifdef TA__X86_DISPATCH
                ta__x86_cap(k == 2 ? TA__X86_SSE41 : k == 4 ? TA__X86_SSE2 : TA__X86_AVX2);
#else
                if (k >= 2) break;
#endif
                unsigned char *xcopy = malloc(b.xs);
                memcpy(xcopy, xd, b.xs);
                CHECK(one_op_run(&b.g, b.x, b.y, xcopy, ref, true) == TA_OK);
                CHECK(memcmp(xcopy, xd, b.xs) == 0); /* disjoint: the input stays */
                free(xcopy);
                memset(mem, 0x5A, (size_t)(x0 + xs + ys + 64));
                memcpy(mem + x0, xd, b.xs);
                const ta_status st = one_op_run(&b.g, b.x, b.y, mem + x0, mem + y0, true);
                CHECK(st == TA_OK);
                if (st == TA_OK && memcmp(mem + y0, ref, b.ys) != 0) {
                    mismatches++;
                    fprintf(stderr, "overlap kind %d %s: output differs at d=%lld (N%d H%d W%d C%d OC%d K%dx%d s%d,%d)\n",
                            kind, f32 ? "f32" : "s8", (long long)rel.d, b.cg.batches, b.cg.in_h, b.cg.in_w, b.cg.in_c,
                            b.cg.out_c, b.cg.filter_h, b.cg.filter_w, b.cg.stride_h, b.cg.stride_w);
                }
                /* one element tighter: a row must land on bytes still to be read */
                if (y0 + e < x0 + xs) {
                    memcpy(mem + x0, xd, b.xs);
                    const ta_status s2 = one_op_run(&b.g, b.x, b.y, mem + x0, mem + y0 + e, true);
                    CHECK(s2 == TA_E_OVERLAP);
                    if (k == 0) caught += s2 == TA_E_OVERLAP;
                }
            }
            free(mem);
            free(xd);
            free(ref);
        }
        free(wdata);
        free(bdata);
        free(b.mem);
    }
    CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_FAST) == TA_OK);
#ifdef TA__X86_DISPATCH
    ta__x86_cap(2);
#endif
    printf("  overlap walks: %d random conv/pool cases, %d with a relation (%d without), %d mismatches, d - 1 element "
           "caught in %d\n",
           cases, overlapped, none, mismatches, caught);
    CHECK(overlapped > cases / 2 && mismatches == 0 && caught > overlapped / 2);
}

/* The relation on the requests is the walk's on the tensors, moved by the
 * padding of both requests (rewrite.h), for person_detect's 1x1 conv. */
static void test_person_detect_1x1(void) {
    one_op b;
    memset(&b, 0, sizeof b);
    one_op_begin(&b.g, &b.mem);
    static float sc = 0.05f, ws[16];
    static int64_t zp = -3;
    static const int64_t zeros[16];
    static int8_t w[16 * 8];
    static int32_t bias[16];
    for (int i = 0; i < 16; i++) ws[i] = 0.01f;
    const ta_quant q = {1, &sc, &zp, 0};
    const int32_t sx[4] = {1, 48, 48, 8}, sy[4] = {1, 48, 48, 16}, sw[4] = {16, 1, 1, 8}, sb[1] = {16};
    b.x = one_op_tensor_q(&b.g, TA_DTYPE_INT8, 4, sx, 0, NULL, 0, q);
    int32_t in[3] = {b.x, one_op_tensor_q(&b.g, TA_DTYPE_INT8, 4, sw, TA_TENSOR_CONST, w, sizeof w, (ta_quant){16, ws, zeros, 0}),
                     one_op_tensor_q(&b.g, TA_DTYPE_INT32, 1, sb, TA_TENSOR_CONST, bias, sizeof bias, (ta_quant){0})};
    b.y = one_op_tensor_q(&b.g, TA_DTYPE_INT8, 4, sy, 0, NULL, 0, q);
    ta_op_options o = ta_op_options_default();
    o.padding = TA_PAD_SAME;
    ta_op_desc od = {.kind = TA_OP_CONV_2D, .inputs = in, .n_inputs = 3, .outputs = &b.y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b.g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b.g, &b.x, 1, &b.y, 1) == TA_OK);
    b.xs = 18432;
    b.ys = 36864;
    ta_overlap rel;
    CHECK(declared(&b, &rel));
    CHECK(rel.d == 384);
    free(b.mem);
}

int main(void) {
    test_person_detect_1x1();
    test_random();
    return ta_test_finish("test_overlap_run");
}
