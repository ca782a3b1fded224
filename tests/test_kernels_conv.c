/* Kernels of the ops with weights (src/runtime/ops/conv.c,
 * fully_connected.c, transpose_conv.c): hand-checked golden cases and seeded
 * properties (1x1 conv == FC, depthwise == grouped conv, padding ==
 * explicit pad + VALID), int16 x int8 conv, transpose conv. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tinyarena/kernels.h"
#ifdef TINYARENA_GRAPH_H
#error "kernels.h includes graph.h: kernels need only tinyarena/types.h"
#endif
#include "common/util.h"
#include "kernel_test.h"
#include "runtime/kernels/fixedpoint.h"
#include "testutil.h"

/* ---- conv / depthwise / fc ---------------------------------------------- */

static void test_conv_golden(void) {
    /* 3x3 input 0..8, zp -1; 2x2 filter of ones; VALID; multiplier 0.5 */
    int8_t in[9], out[4];
    for (int i = 0; i < 9; i++) in[i] = (int8_t)i;
    int8_t w[4] = {1, 1, 1, 1};
    int32_t m = 1 << 30;
    int8_t s = 0;
    ta_conv_params p = {.input = {1, 3, 3, 1}, .filter = {1, 2, 2, 1}, .output = {1, 2, 2, 1},
                        .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1};
    p.q = (ta_requant){.input_offset = 1, .output_offset = 0, .mult = &m, .shift = &s,
                       .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_conv2d_s8(&p, in, w, NULL, out) == TA_OK);
    CHECK(out[0] == 6 && out[1] == 8 && out[2] == 12 && out[3] == 14);
    /* bias, output zp, clamp */
    int32_t bias = 250;
    p.q.output_offset = -5;
    p.q.act_max = 100;
    CHECK(ta_kernel_conv2d_s8(&p, in, w, &bias, out) == TA_OK);
    CHECK(out[0] == 100 && out[1] == 100 && out[2] == 100 && out[3] == 100);
    p.q.act_max = 127;
    CHECK(ta_kernel_conv2d_s8(&p, in, w, &bias, out) == TA_OK);
    CHECK(out[0] == 126 && out[1] == 127 && out[3] == 127); /* (12+250)/2-5=126; 128 clamps */
    /* SAME padding 1 with 3x3: corner sees 4 taps */
    int8_t w9[9];
    for (int i = 0; i < 9; i++) w9[i] = 1;
    int8_t out9[9];
    ta_conv_params q = p;
    q.filter = (ta_dims4){1, 3, 3, 1};
    q.output = (ta_dims4){1, 3, 3, 1};
    q.pad_h = q.pad_w = 1;
    q.q.output_offset = 0;
    CHECK(ta_kernel_conv2d_s8(&q, in, w9, NULL, out9) == TA_OK);
    /* corner (0,0): in 0,1,3,4 + 4*1 = 12 -> 6; centre: 36 + 9 = 45 -> 22.5 -> 23 */
    CHECK(out9[0] == 6 && out9[4] == 23);
    /* float: same data */
    float fin[9], fw[4] = {1, 1, 1, 1}, fout[4], fb = 0.5f;
    for (int i = 0; i < 9; i++) fin[i] = (float)i;
    ta_conv_params pf = p;
    pf.act_min = -INFINITY;
    pf.act_max = 10.0f;
    CHECK(ta_kernel_conv2d_f32(&pf, fin, fw, &fb, fout) == TA_OK);
    CHECK(fout[0] == 8.5f && fout[1] == 10.0f && fout[2] == 10.0f);
    /* bad shapes */
    ta_conv_params bad = p;
    bad.output.c = 2;
    CHECK(ta_kernel_conv2d_s8(&bad, in, w, NULL, out) == TA_E_INVALID_ARG);
    bad = p;
    bad.stride_h = 0;
    CHECK(ta_kernel_conv2d_s8(&bad, in, w, NULL, out) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_conv2d_s8(NULL, in, w, NULL, out) == TA_E_INVALID_ARG);
}

static void test_conv_vs_fc(void) {
    /* 1x1 conv over N*H*W pixels == FC with batches = N*H*W */
    for (int iter = 0; iter < 20; iter++) {
        int32_t n = rnd(1, 2), h = rnd(1, 5), w = rnd(1, 5), ci = rnd(1, 9), co = rnd(1, 7);
        size_t np = (size_t)n * h * w;
        int8_t *in = malloc(np * ci), *wt = malloc((size_t)co * ci), *o1 = malloc(np * co), *o2 = malloc(np * co);
        int32_t *bias = malloc(sizeof(int32_t) * co), *m = malloc(sizeof(int32_t) * co), *m2_unused = NULL;
        (void)m2_unused;
        int8_t *s = malloc((size_t)co);
        rnd_s8(in, np * ci);
        rnd_s8(wt, (size_t)co * ci);
        float ws[16];
        for (int c = 0; c < co; c++) {
            bias[c] = rnd(-5000, 5000);
            ws[c] = 0.001f * (float)rnd(1, 50);
        }
        ta_quant_conv_multipliers(0.05f, ws, (uint32_t)co, 0.1f, (uint32_t)co, m, s);
        ta_requant q = {.input_offset = rnd(-20, 20), .output_offset = rnd(-10, 10), .mult = m,
                        .shift = s, .per_channel = true, .act_min = -128, .act_max = 127};
        ta_conv_params cp = {.input = {n, h, w, ci}, .filter = {co, 1, 1, ci}, .output = {n, h, w, co},
                             .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1, .q = q};
        ta_fc_params fp = {.batches = (int32_t)np, .accum_depth = ci, .out_depth = co, .q = q};
        CHECK(ta_kernel_conv2d_s8(&cp, in, wt, bias, o1) == TA_OK);
        CHECK(ta_kernel_fully_connected_s8(&fp, in, wt, bias, o2) == TA_OK);
        CHECK(memcmp(o1, o2, np * co) == 0);
        free(in); free(wt); free(o1); free(o2); free(bias); free(m); free(s);
    }
}

/* Reference conv written differently: pad the input explicitly with the
 * value that contributes zero (-input_offset), run VALID. */
static void test_conv_padding_property(void) {
    for (int iter = 0; iter < 20; iter++) {
        int32_t h = rnd(2, 7), w = rnd(2, 7), ci = rnd(1, 4), co = rnd(1, 4);
        int32_t fh = rnd(1, 3), fw = rnd(1, 3), sh = rnd(1, 2), sw = rnd(1, 2), dh = rnd(1, 2), dw = rnd(1, 2);
        int32_t oh = ta_kernel_out_size(TA_PAD_SAME, h, fh, sh, dh), ow = ta_kernel_out_size(TA_PAD_SAME, w, fw, sw, dw);
        int32_t offh, offw;
        int32_t ph = ta_kernel_padding(sh, dh, h, fh, oh, &offh), pw = ta_kernel_padding(sw, dw, w, fw, ow, &offw);
        int32_t H = h + ph * 2 + offh, W = w + pw * 2 + offw;
        int32_t zp = rnd(-10, 10);
        int8_t *in = malloc((size_t)h * w * ci), *pin = malloc((size_t)H * W * ci);
        int8_t *wt = malloc((size_t)co * fh * fw * ci), *o1 = malloc((size_t)oh * ow * co), *o2 = malloc((size_t)oh * ow * co);
        rnd_s8(in, (size_t)h * w * ci);
        rnd_s8(wt, (size_t)co * fh * fw * ci);
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++)
                for (int32_t c = 0; c < ci; c++) {
                    int32_t iy = y - ph, ix = x - pw;
                    pin[((size_t)y * W + x) * ci + c] = (iy >= 0 && iy < h && ix >= 0 && ix < w) ? in[((size_t)iy * w + ix) * ci + c] : (int8_t)zp;
                }
        int32_t m[4];
        int8_t s[4];
        float ws[4] = {0.01f, 0.02f, 0.005f, 0.03f};
        ta_quant_conv_multipliers(0.1f, ws, 4, 0.2f, 4, m, s);
        ta_requant q = {.input_offset = -zp, .output_offset = 3, .mult = m, .shift = s, .per_channel = true,
                        .act_min = -100, .act_max = 100};
        ta_conv_params a = {.input = {1, h, w, ci}, .filter = {co, fh, fw, ci}, .output = {1, oh, ow, co},
                            .stride_h = sh, .stride_w = sw, .dilation_h = dh, .dilation_w = dw,
                            .pad_h = ph, .pad_w = pw, .q = q};
        ta_conv_params b = a;
        b.input = (ta_dims4){1, H, W, ci};
        b.pad_h = b.pad_w = 0;
        CHECK(ta_kernel_conv2d_s8(&a, in, wt, NULL, o1) == TA_OK);
        CHECK(ta_kernel_conv2d_s8(&b, pin, wt, NULL, o2) == TA_OK);
        CHECK(memcmp(o1, o2, (size_t)oh * ow * co) == 0);
        free(in); free(pin); free(wt); free(o1); free(o2);
    }
}

/* depthwise (multiplier dm) == grouped conv with groups = C, filter.c = 1 */
static void test_depthwise_vs_grouped_conv(void) {
    for (int iter = 0; iter < 20; iter++) {
        int32_t h = rnd(2, 6), w = rnd(2, 6), c = rnd(1, 4), dm = rnd(1, 3), fh = rnd(1, 3), fw = rnd(1, 3);
        int32_t co = c * dm, st = rnd(1, 2);
        int32_t oh = ta_kernel_out_size(TA_PAD_SAME, h, fh, st, 1), ow = ta_kernel_out_size(TA_PAD_SAME, w, fw, st, 1);
        int32_t ph = ta_kernel_padding(st, 1, h, fh, oh, NULL), pw = ta_kernel_padding(st, 1, w, fw, ow, NULL);
        int8_t *in = malloc((size_t)h * w * c), *dwf = malloc((size_t)fh * fw * co), *cf = malloc((size_t)fh * fw * co);
        int8_t *o1 = malloc((size_t)oh * ow * co), *o2 = malloc((size_t)oh * ow * co);
        float *fin = malloc(sizeof(float) * h * w * c), *fdw = malloc(sizeof(float) * fh * fw * co), *fcf = malloc(sizeof(float) * fh * fw * co);
        float *fo1 = malloc(sizeof(float) * oh * ow * co), *fo2 = malloc(sizeof(float) * oh * ow * co);
        rnd_s8(in, (size_t)h * w * c);
        rnd_s8(dwf, (size_t)fh * fw * co);
        for (int32_t i = 0; i < h * w * c; i++) fin[i] = (float)in[i] * 0.37f;
        for (int32_t y = 0; y < fh; y++)
            for (int32_t x = 0; x < fw; x++)
                for (int32_t o = 0; o < co; o++) {
                    cf[((size_t)o * fh + y) * fw + x] = dwf[((size_t)y * fw + x) * co + o];
                    fdw[((size_t)y * fw + x) * co + o] = (float)dwf[((size_t)y * fw + x) * co + o] * 0.11f;
                    fcf[((size_t)o * fh + y) * fw + x] = fdw[((size_t)y * fw + x) * co + o];
                }
        int32_t m[12], bias[12];
        int8_t s[12];
        float fbias[12], ws[12];
        for (int32_t o = 0; o < co; o++) {
            ws[o] = 0.002f * (float)(o + 1);
            bias[o] = rnd(-300, 300);
            fbias[o] = (float)bias[o] * 0.01f;
        }
        ta_quant_conv_multipliers(0.05f, ws, (uint32_t)co, 0.02f, (uint32_t)co, m, s);
        ta_requant q = {.input_offset = 7, .output_offset = -3, .mult = m, .shift = s, .per_channel = true,
                        .act_min = -128, .act_max = 127};
        ta_dwconv_params dp = {.input = {1, h, w, c}, .filter = {1, fh, fw, co}, .output = {1, oh, ow, co},
                               .depth_multiplier = dm, .stride_h = st, .stride_w = st, .dilation_h = 1,
                               .dilation_w = 1, .pad_h = ph, .pad_w = pw, .q = q,
                               .act_min = -1e30f, .act_max = 1e30f};
        ta_conv_params cp = {.input = {1, h, w, c}, .filter = {co, fh, fw, 1}, .output = {1, oh, ow, co},
                             .stride_h = st, .stride_w = st, .dilation_h = 1, .dilation_w = 1,
                             .pad_h = ph, .pad_w = pw, .q = q, .act_min = -1e30f, .act_max = 1e30f};
        CHECK(ta_kernel_depthwise_conv2d_s8(&dp, in, dwf, bias, o1) == TA_OK);
        CHECK(ta_kernel_conv2d_s8(&cp, in, cf, bias, o2) == TA_OK);
        CHECK(memcmp(o1, o2, (size_t)oh * ow * co) == 0);
        CHECK(ta_kernel_depthwise_conv2d_f32(&dp, fin, fdw, fbias, fo1) == TA_OK);
        CHECK(ta_kernel_conv2d_f32(&cp, fin, fcf, fbias, fo2) == TA_OK);
        CHECK(memcmp(fo1, fo2, sizeof(float) * oh * ow * co) == 0);
        free(in); free(dwf); free(cf); free(o1); free(o2);
        free(fin); free(fdw); free(fcf); free(fo1); free(fo2);
    }
    ta_dwconv_params bad = {.input = {1, 2, 2, 2}, .filter = {1, 1, 1, 3}, .output = {1, 2, 2, 3},
                            .depth_multiplier = 1, .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1};
    int8_t x[16];
    int32_t m = 1 << 30;
    int8_t s = 0;
    bad.q.mult = &m;
    bad.q.shift = &s;
    CHECK(ta_kernel_depthwise_conv2d_s8(&bad, x, x, NULL, x) == TA_E_INVALID_ARG);
}

static void test_fc_golden(void) {
    int8_t in[3] = {1, 2, 3}, w[6] = {1, 1, 1, 1, -1, 0}, out[2];
    int32_t bias[2] = {0, 10}, m = 1 << 30;
    int8_t s = 0;
    ta_fc_params p = {.batches = 1, .accum_depth = 3, .out_depth = 2};
    p.q = (ta_requant){.mult = &m, .shift = &s, .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_fully_connected_s8(&p, in, w, bias, out) == TA_OK);
    CHECK(out[0] == 3 && out[1] == 5); /* 6/2 = 3; 9/2 = 4.5 -> 5 */
    /* per-channel: second row gets multiplier 1.0 (2^30, shift 1) */
    int32_t pm[2] = {1 << 30, 1 << 30};
    int8_t ps[2] = {0, 1};
    p.q.mult = pm;
    p.q.shift = ps;
    p.q.per_channel = true;
    CHECK(ta_kernel_fully_connected_s8(&p, in, w, bias, out) == TA_OK);
    CHECK(out[0] == 3 && out[1] == 9);
    /* input offset and weight offset */
    p.q.input_offset = 1;
    p.q.weights_offset = -1;
    p.q.per_channel = false;
    CHECK(ta_kernel_fully_connected_s8(&p, in, w, NULL, out) == TA_OK);
    /* row0: (0)(2)+(0)(3)+(0)(4) = 0; row1: 0*2 + -2*3 + -1*4 = -10 -> -5 */
    CHECK(out[0] == 0 && out[1] == -5);
    float fin[2] = {1.5f, -2.0f}, fw[2] = {2.0f, 1.0f}, fb = 0.25f, fo;
    ta_fc_params fp = {.batches = 1, .accum_depth = 2, .out_depth = 1, .act_min = 0.0f, .act_max = 6.0f};
    CHECK(ta_kernel_fully_connected_f32(&fp, fin, fw, &fb, &fo) == TA_OK && fo == 1.25f);
    fb = -3.0f;
    CHECK(ta_kernel_fully_connected_f32(&fp, fin, fw, &fb, &fo) == TA_OK && fo == 0.0f);
    fp.accum_depth = 0;
    CHECK(ta_kernel_fully_connected_f32(&fp, fin, fw, &fb, &fo) == TA_E_INVALID_ARG);
}

static void test_conv_s16(void) {
    /* 1x1 conv over [1000, -2000] x 3, multiplier 0.5, bias 5 */
    int16_t in[2] = {1000, -2000}, out[2];
    int8_t w[1] = {3};
    int64_t b64[1] = {5};
    int32_t b32[1] = {5}, m = 1 << 30;
    int8_t sh = 0;
    ta_conv_params p = {.input = {1, 1, 2, 1}, .filter = {1, 1, 1, 1}, .output = {1, 1, 2, 1}, .stride_h = 1,
                        .stride_w = 1, .dilation_h = 1, .dilation_w = 1};
    p.q = (ta_requant){.mult = &m, .shift = &sh, .act_min = -32768, .act_max = 32767};
    /* int64: multiplier rounded to 16 bits, one rounding shift: 3005 / 2 -> 1503, -5995 / 2 -> -2997 */
    CHECK(ta_kernel_conv2d_s16(&p, in, w, b64, out) == TA_OK && out[0] == 1503 && out[1] == -2997);
    CHECK(ta_kernel_conv2d_s16_b32(&p, in, w, b32, out) == TA_OK && out[0] == 1503 && out[1] == -2997);
    /* the int64 accumulator keeps a bias beyond int32 (2^33 + 3000 at 2^-20 -> 8192.003 -> 8192);
     * the activation clamp applies */
    b64[0] = (int64_t)1 << 33;
    sh = -19;
    CHECK(ta_kernel_conv2d_s16(&p, in, w, b64, out) == TA_OK && out[0] == 8192 && out[1] == 8192);
    p.q.act_max = 8000;
    CHECK(ta_kernel_conv2d_s16(&p, in, w, b64, out) == TA_OK && out[0] == 8000);
    p.q.act_max = 32767;
    sh = 0;
    p.q.input_offset = 1; /* 16x8 is symmetric */
    CHECK(ta_kernel_conv2d_s16(&p, in, w, b64, out) == TA_E_INVALID_ARG);
    p.q.input_offset = 0;
    /* random 3x3 SAME convs vs the exact real result, within one step */
    int worst = 0;
    for (int t = 0; t < 20; t++) {
        enum { H = 5, W = 4, C = 3, O = 4 };
        int16_t x[H * W * C], y[H * W * O];
        int8_t f[O * 3 * 3 * C];
        int64_t bias[O];
        int32_t mm[O];
        int8_t ss[O];
        float ws[O];
        for (int i = 0; i < H * W * C; i++) x[i] = (int16_t)rnd(-32768, 32767);
        for (int i = 0; i < O * 9 * C; i++) f[i] = (int8_t)rnd(-127, 127);
        for (int i = 0; i < O; i++) bias[i] = rnd(-100000, 100000), ws[i] = 0.001f * (float)rnd(1, 50);
        CHECK(ta_quant_conv_multipliers(0.001f, ws, O, 0.5f, O, mm, ss) == TA_OK);
        ta_conv_params q = {.input = {1, H, W, C}, .filter = {O, 3, 3, C}, .output = {1, H, W, O}, .stride_h = 1,
                            .stride_w = 1, .dilation_h = 1, .dilation_w = 1, .pad_h = 1, .pad_w = 1};
        q.q = (ta_requant){.mult = mm, .shift = ss, .per_channel = true, .act_min = -32768, .act_max = 32767};
        CHECK(ta_kernel_conv2d_s16(&q, x, f, bias, y) == TA_OK);
        for (int oy = 0; oy < H; oy++)
            for (int ox = 0; ox < W; ox++)
                for (int oc = 0; oc < O; oc++) {
                    double acc = (double)bias[oc];
                    for (int fy = 0; fy < 3; fy++)
                        for (int fx = 0; fx < 3; fx++)
                            for (int ic = 0; ic < C; ic++) {
                                int iy = oy - 1 + fy, ix = ox - 1 + fx;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                acc += (double)x[(iy * W + ix) * C + ic] * f[((oc * 3 + fy) * 3 + fx) * C + ic];
                            }
                    double e = acc * 0.001 * (double)ws[oc] / 0.5;
                    e = e < -32768 ? -32768 : e > 32767 ? 32767 : e;
                    int d = abs(y[(oy * W + ox) * O + oc] - (int)lround(e));
                    worst = d > worst ? d : worst;
                }
    }
    CHECK(worst <= 1);
}

static void test_transpose_conv(void) {
    /* input [1, 2] scattered by a 1x3 filter of ones with stride 2: [1, 1, 3, 2, 2] */
    ta_tconv_params p = {.input = {1, 1, 2, 1}, .filter = {1, 1, 3, 1}, .output = {1, 1, 5, 1}, .stride_h = 1,
                         .stride_w = 2};
    float fi[2] = {1.0f, 2.0f}, ff[3] = {1.0f, 1.0f, 1.0f}, fb = 0.5f, fo[5];
    CHECK(ta_kernel_transpose_conv_f32(&p, fi, ff, &fb, fo) == TA_OK);
    CHECK(fo[0] == 1.5f && fo[1] == 1.5f && fo[2] == 3.5f && fo[3] == 2.5f && fo[4] == 2.5f);
    /* padding 1 drops the first output column: [1, 3, 2, 2, 0] */
    p.pad_w = 1;
    CHECK(ta_kernel_transpose_conv_f32(&p, fi, ff, NULL, fo) == TA_OK);
    CHECK(fo[0] == 1.0f && fo[1] == 3.0f && fo[2] == 2.0f && fo[3] == 2.0f && fo[4] == 0.0f);
    p.pad_w = 0;
    /* int8 with offsets, multiplier 1 (2^30, shift 1) */
    int8_t si[2] = {11, 12}, sf[3] = {1, 1, 1}, so[5];
    int32_t m = 1 << 30, sb = 3;
    int8_t sh = 1;
    p.q = (ta_requant){.input_offset = -10, .output_offset = -5, .mult = &m, .shift = &sh, .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_transpose_conv_scratch_bytes(&p, TA_DTYPE_INT8) == 5 * 4);
    CHECK(ta_kernel_transpose_conv_scratch_bytes(&p, TA_DTYPE_INT16) == 5 * 8);
    int64_t scratch[5];
    CHECK(ta_kernel_transpose_conv_s8(&p, si, sf, &sb, so, scratch, sizeof scratch) == TA_OK);
    CHECK(so[0] == -1 && so[1] == -1 && so[2] == 1 && so[3] == 0 && so[4] == 0);
    CHECK(ta_kernel_transpose_conv_s8(&p, si, sf, &sb, so, scratch, 19) == TA_E_NO_MEMORY);
    /* int16, int64 bias, no offsets */
    int16_t hi[2] = {1000, 2000}, ho[5];
    int64_t hb = 1;
    p.q.input_offset = p.q.output_offset = 0;
    p.q.act_min = -32768;
    p.q.act_max = 32767;
    CHECK(ta_kernel_transpose_conv_s16(&p, hi, sf, &hb, ho, scratch, sizeof scratch) == TA_OK);
    CHECK(ho[0] == 1001 && ho[2] == 3001 && ho[4] == 2001);
    /* channels: 2 in, 2 out, per-channel multipliers, against the gather formula */
    ta_tconv_params q = {.input = {1, 2, 2, 2}, .filter = {2, 3, 3, 2}, .output = {1, 4, 4, 2}, .stride_h = 2,
                         .stride_w = 2, .pad_h = 1, .pad_w = 0};
    int8_t x[8], w[36], y[32];
    rnd_s8(x, 8);
    rnd_s8(w, 36);
    int32_t mm[2];
    int8_t ss[2];
    float ws[2] = {0.01f, 0.02f};
    CHECK(ta_quant_conv_multipliers(0.05f, ws, 2, 0.1f, 2, mm, ss) == TA_OK);
    q.q = (ta_requant){.input_offset = 3, .mult = mm, .shift = ss, .per_channel = true, .act_min = -128, .act_max = 127};
    int32_t acc32[32];
    CHECK(ta_kernel_transpose_conv_s8(&q, x, w, NULL, y, acc32, sizeof acc32) == TA_OK);
    for (int oy = 0; oy < 4; oy++)
        for (int ox = 0; ox < 4; ox++)
            for (int oc = 0; oc < 2; oc++) {
                int32_t acc = 0;
                for (int iy = 0; iy < 2; iy++)
                    for (int ix = 0; ix < 2; ix++) {
                        int fy = oy - (iy * 2 - 1), fx = ox - ix * 2;
                        if (fy < 0 || fy >= 3 || fx < 0 || fx >= 3) continue;
                        for (int ic = 0; ic < 2; ic++) acc += (x[(iy * 2 + ix) * 2 + ic] + 3) * w[((oc * 3 + fy) * 3 + fx) * 2 + ic];
                    }
                int32_t v = ta_q_mul(acc, mm[oc], ss[oc]);
                v = v < -128 ? -128 : v > 127 ? 127 : v;
                CHECK(y[(oy * 4 + ox) * 2 + oc] == v);
            }
}

int main(void) {
    test_conv_golden();
    test_conv_vs_fc();
    test_conv_padding_property();
    test_depthwise_vs_grouped_conv();
    test_fc_golden();
    test_conv_s16();
    test_transpose_conv();
    return ta_test_finish("test_kernels_conv");
}
