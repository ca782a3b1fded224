/* Kernels of the elementwise ops (add_sub.c, mul.c, softmax.c,
 * logistic_tanh.c, leaky_relu.c, hard_swish.c, div.c, min_max.c, cast.c):
 * golden cases, rounding edges, int16 binary ops, int32 arithmetic. */
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

/* ---- binary ops --------------------------------------------------------- */

static void test_add(void) {
    ta_addsub_params p;
    memset(&p, 0, sizeof p);
    CHECK(ta_addsub_prepare(&p, TA_DTYPE_INT8, 1.0f, 0, 1.0f, 0, 1.0f, 0, TA_ACT_NONE) == TA_OK);
    CHECK(p.left_shift == 20 && p.input1_mult == (1 << 30) && p.input1_shift == 0);
    CHECK(p.output_mult == (1 << 30) && p.output_shift == -18);
    int32_t sh[1] = {4};
    CHECK(ta_broadcast_init(&p.shape, sh, 1, sh, 1) == TA_OK);
    int8_t a[4] = {3, 100, -100, -7}, b[4] = {4, 100, -100, 2}, o[4];
    CHECK(ta_kernel_add_s8(&p, a, b, o) == TA_OK);
    CHECK(o[0] == 7 && o[1] == 127 && o[2] == -128 && o[3] == -5);
    /* RELU with zero point */
    CHECK(ta_addsub_prepare(&p, TA_DTYPE_INT8, 1.0f, 0, 1.0f, 0, 1.0f, 0, TA_ACT_RELU) == TA_OK);
    CHECK(ta_kernel_add_s8(&p, a, b, o) == TA_OK);
    CHECK(o[0] == 7 && o[2] == 0 && o[3] == 0);
    /* broadcast [2,3] + [3] and [2,1] */
    int32_t s23[2] = {2, 3}, s3[1] = {3}, s21[2] = {2, 1};
    CHECK(ta_addsub_prepare(&p, TA_DTYPE_INT8, 1.0f, 0, 1.0f, 0, 1.0f, 0, TA_ACT_NONE) == TA_OK);
    CHECK(ta_broadcast_init(&p.shape, s23, 2, s3, 1) == TA_OK);
    int8_t x[6] = {0, 1, 2, 3, 4, 5}, y[3] = {10, 20, 30}, z[2] = {100, -100}, r[6];
    CHECK(ta_kernel_add_s8(&p, x, y, r) == TA_OK);
    CHECK(r[0] == 10 && r[2] == 32 && r[3] == 13 && r[5] == 35);
    CHECK(ta_broadcast_init(&p.shape, s23, 2, s21, 2) == TA_OK);
    CHECK(ta_kernel_add_s8(&p, x, z, r) == TA_OK);
    CHECK(r[0] == 100 && r[2] == 102 && r[3] == -97 && r[5] == -95);
    int32_t s4[1] = {4};
    CHECK(ta_broadcast_init(&p.shape, s23, 2, s4, 1) == TA_E_INVALID_ARG);
    /* random vs float formula within one step */
    int worst = 0;
    for (int i = 0; i < 5000; i++) {
        float s1 = 0.01f * (float)rnd(1, 100), s2 = 0.01f * (float)rnd(1, 100), so = 0.02f * (float)rnd(1, 100);
        int32_t z1 = rnd(-20, 20), z2 = rnd(-20, 20), zo = rnd(-20, 20);
        CHECK(ta_addsub_prepare(&p, TA_DTYPE_INT8, s1, z1, s2, z2, so, zo, TA_ACT_NONE) == TA_OK);
        p.shape = (ta_broadcast){.rank = 1, .in1 = {1}, .in2 = {1}, .out = {1}};
        int8_t u = (int8_t)rnd(-128, 127), v = (int8_t)rnd(-128, 127), w;
        ta_kernel_add_s8(&p, &u, &v, &w);
        double real = (s1 * (u - z1) + s2 * (v - z2)) / so + zo;
        double cl = real < -128 ? -128 : real > 127 ? 127 : real;
        int d = abs(w - (int)lround(cl));
        worst = d > worst ? d : worst;
    }
    CHECK(worst <= 1);
    /* float */
    float fa[2] = {1.5f, -4.0f}, fb[2] = {2.0f, 1.0f}, fo[2];
    ta_addsub_params fp = {.shape = {.rank = 1, .in1 = {2}, .in2 = {2}, .out = {2}}};
    CHECK(ta_addsub_prepare(&fp, TA_DTYPE_FLOAT32, 0, 0, 0, 0, 0, 0, TA_ACT_RELU) == TA_OK);
    CHECK(ta_kernel_add_f32(&fp, fa, fb, fo) == TA_OK && fo[0] == 3.5f && fo[1] == 0.0f);
    CHECK(ta_kernel_sub_f32(&fp, fa, fb, fo) == TA_OK && fo[0] == 0.0f && fo[1] == 0.0f);
    fp.f_act_min = -100;
    CHECK(ta_kernel_sub_f32(&fp, fa, fb, fo) == TA_OK && fo[0] == -0.5f && fo[1] == -5.0f);
}

static void test_sub_mul(void) {
    ta_addsub_params p;
    memset(&p, 0, sizeof p);
    CHECK(ta_sub_prepare(&p, TA_DTYPE_INT8, 1.0f, 0, 1.0f, 0, 1.0f, 0, TA_ACT_NONE) == TA_OK);
    p.shape = (ta_broadcast){.rank = 1, .in1 = {3}, .in2 = {3}, .out = {3}};
    int8_t a[3] = {10, -100, 100}, b[3] = {3, 100, -100}, o[3];
    CHECK(ta_kernel_sub_s8(&p, a, b, o) == TA_OK);
    CHECK(o[0] == 7 && o[1] == -128 && o[2] == 127);
    /* SUB derives in float: compare with a float re-derivation */
    float s1 = 0.0123f, s2 = 0.0456f, so = 0.0789f;
    CHECK(ta_sub_prepare(&p, TA_DTYPE_INT8, s1, 0, s2, 0, so, 0, TA_ACT_NONE) == TA_OK);
    int32_t m, s;
    float tm = 2.0f * s2;
    ta_quant_multiplier((double)(s1 / tm), &m, &s);
    CHECK(p.input1_mult == m && p.input1_shift == s);
    ta_quant_multiplier((double)(tm / ((float)(1 << 20) * so)), &m, &s);
    CHECK(p.output_mult == m && p.output_shift == s);

    ta_mul_params mp;
    memset(&mp, 0, sizeof mp);
    CHECK(ta_mul_prepare(&mp, TA_DTYPE_INT8, 0.5f, 0, 0.5f, 0, 0.25f, 0, TA_ACT_NONE) == TA_OK);
    CHECK(mp.output_mult == (1 << 30) && mp.output_shift == 1);
    mp.shape = (ta_broadcast){.rank = 1, .in1 = {3}, .in2 = {1}, .out = {3}};
    int8_t x[3] = {3, -5, 100}, y[1] = {7};
    CHECK(ta_kernel_mul_s8(&mp, x, y, o) == TA_OK);
    CHECK(o[0] == 21 && o[1] == -35 && o[2] == 127);
    CHECK(ta_mul_prepare(&mp, TA_DTYPE_INT8, 0.5f, 1, 0.5f, 0, 1.0f, -10, TA_ACT_NONE) == TA_OK);
    CHECK(ta_kernel_mul_s8(&mp, x, y, o) == TA_OK);
    /* (3-1)*7*0.25 = 3.5 -> 4, -10 -> -6; (-6)*7*0.25 = -10.5 -> -11 (ties away in the shift), -10 -> -21 */
    CHECK(o[0] == -6 && o[1] == -21);
    float fx[2] = {2.0f, -3.0f}, fy[2] = {4.0f, 2.0f}, fo[2];
    ta_mul_params fm = {.shape = {.rank = 1, .in1 = {2}, .in2 = {2}, .out = {2}}};
    CHECK(ta_mul_prepare(&fm, TA_DTYPE_FLOAT32, 0, 0, 0, 0, 0, 0, TA_ACT_RELU6) == TA_OK);
    CHECK(ta_kernel_mul_f32(&fm, fx, fy, fo) == TA_OK && fo[0] == 6.0f && fo[1] == 0.0f);
}

/* ---- softmax, logistic, tanh -------------------------------------------- */

static void test_softmax(void) {
    ta_softmax_params p;
    memset(&p, 0, sizeof p);
    CHECK(ta_softmax_prepare_s8(&p, 1.0f, 0.1f) == TA_OK);
    /* 0.1f * 2^26 = 6710886.5 (0.1f is slightly above 0.1): q*2^31 = 1717986944, shift 23 */
    CHECK(p.input_left_shift == 23 && p.input_mult == 1717986944);
    /* radius = floor(31 * 2^26 / 2^23) = 248 */
    CHECK(p.diff_min == -248);
    p.outer = 1;
    p.depth = 1;
    int8_t x = 5, y;
    CHECK(ta_kernel_softmax_s8(&p, &x, &y) == TA_OK && y == 127);
    int16_t y16;
    CHECK(ta_kernel_softmax_s8_s16(&p, &x, &y16) == TA_OK && y16 == 32767);
    /* uniform row of 4 -> 0.25 -> 64 - 128 = -64 */
    int8_t u[4] = {7, 7, 7, 7}, o[4];
    p.depth = 4;
    CHECK(ta_kernel_softmax_s8(&p, u, o) == TA_OK);
    CHECK(o[0] == -64 && o[3] == -64);
    /* random rows vs float softmax within 1 step, and two rows independent */
    int worst = 0;
    for (int it = 0; it < 300; it++) {
        float sc = 0.01f * (float)rnd(1, 40);
        CHECK(ta_softmax_prepare_s8(&p, 1.0f, sc) == TA_OK);
        int8_t in[20], out[20];
        int16_t out16[20];
        p.outer = 2;
        p.depth = 10;
        rnd_s8(in, 20);
        CHECK(ta_kernel_softmax_s8(&p, in, out) == TA_OK);
        CHECK(ta_kernel_softmax_s8_s16(&p, in, out16) == TA_OK);
        for (int r = 0; r < 2; r++) {
            double mx = -1e9, sum = 0;
            for (int c = 0; c < 10; c++) mx = in[r * 10 + c] > mx ? in[r * 10 + c] : mx;
            for (int c = 0; c < 10; c++) sum += exp(sc * (in[r * 10 + c] - mx));
            for (int c = 0; c < 10; c++) {
                double pr = exp(sc * (in[r * 10 + c] - mx)) / sum;
                long e8 = lround(pr * 256.0) - 128;
                if (e8 > 127) e8 = 127;
                int d = abs(out[r * 10 + c] - (int)e8);
                worst = d > worst ? d : worst;
                long e16 = lround(pr * 65536.0) - 32768;
                if (e16 > 32767) e16 = 32767;
                CHECK(labs(out16[r * 10 + c] - e16) <= 64);
            }
        }
    }
    CHECK(worst <= 1);
    /* beta * scale too small for TFLM's > 1 multiplier */
    CHECK(ta_softmax_prepare_s8(&p, 1.0f, 1e-9f) == TA_E_UNSUPPORTED);
    /* float */
    float fin[3] = {1.0f, 2.0f, 3.0f}, fout[3];
    ta_softmax_params fp = {.outer = 1, .depth = 3, .beta = 1.0f};
    CHECK(ta_kernel_softmax_f32(&fp, fin, fout) == TA_OK);
    CHECK(fabsf(fout[0] + fout[1] + fout[2] - 1.0f) < 1e-6f && fout[2] > fout[1]);
}

static void test_logistic_tanh(void) {
    ta_lut_act_params p;
    ta_act_prepare_s8(&p, 1.0f / 16.0f, 0);
    /* 2^-4 * 2^27 = 2^23 -> frexp (0.5, 24): mult 2^30, shift 24, radius floor(15*2^27/2^24) = 120 */
    CHECK(p.input_mult == (1 << 30) && p.input_left_shift == 24 && p.input_range_radius == 120);
    int8_t x[4] = {0, 127, -128, 8}, y[4];
    CHECK(ta_kernel_logistic_s8(&p, 4, x, y) == TA_OK);
    CHECK(y[0] == 0 && y[1] == 127 && y[2] == -128);
    CHECK(ta_kernel_tanh_s8(&p, 4, x, y) == TA_OK);
    CHECK(y[0] == 0 && y[1] == 127 && y[2] == -128);
    /* sweep all inputs for several scales vs float, within one step */
    int wl = 0, wt = 0;
    for (int k = 1; k <= 20; k++) {
        float sc = 0.01f * (float)k;
        int32_t zp = rnd(-30, 30);
        ta_act_prepare_s8(&p, sc, zp);
        int8_t in[256], lo[256], to[256];
        for (int i = 0; i < 256; i++) in[i] = (int8_t)(i - 128);
        CHECK(ta_kernel_logistic_s8(&p, 256, in, lo) == TA_OK);
        CHECK(ta_kernel_tanh_s8(&p, 256, in, to) == TA_OK);
        for (int i = 0; i < 256; i++) {
            double r = sc * (in[i] - zp);
            long el = lround(256.0 / (1.0 + exp(-r))) - 128, et = lround(128.0 * tanh(r));
            el = el > 127 ? 127 : el;
            et = et > 127 ? 127 : et < -128 ? -128 : et;
            int dl = abs(lo[i] - (int)el), dt = abs(to[i] - (int)et);
            wl = dl > wl ? dl : wl;
            wt = dt > wt ? dt : wt;
        }
    }
    CHECK(wl <= 1);
    CHECK(wt <= 1);
    float fx[3] = {0.0f, 20.0f, -10.0f}, fy[3];
    CHECK(ta_kernel_logistic_f32(3, fx, fy) == TA_OK && fy[0] == 0.5f && fy[1] == 1.0f && fy[2] == expf(-10.0f));
    CHECK(ta_kernel_tanh_f32(3, fx, fy) == TA_OK && fy[0] == 0.0f && fy[1] == 1.0f);
}

static void test_int16_binary_quantize(void) {
    /* SUB int16: left shift 15, scales 1 -> plain difference, saturated */
    ta_addsub_params p;
    memset(&p, 0, sizeof p);
    CHECK(ta_sub_prepare(&p, TA_DTYPE_INT16, 1.0f, 0, 1.0f, 0, 1.0f, 0, TA_ACT_NONE) == TA_OK);
    CHECK(p.left_shift == 15);
    p.shape = (ta_broadcast){.rank = 1, .in1 = {3}, .in2 = {3}, .out = {3}};
    int16_t a[3] = {1000, -30000, 30000}, b[3] = {300, 10000, -10000}, o[3];
    CHECK(ta_kernel_sub_s16(&p, a, b, o) == TA_OK);
    CHECK(o[0] == 700 && o[1] == -32768 && o[2] == 32767);
    /* broadcast a [3] bias-like operand over [2, 3], halving scale */
    CHECK(ta_sub_prepare(&p, TA_DTYPE_INT16, 1.0f, 0, 1.0f, 0, 2.0f, 0, TA_ACT_NONE) == TA_OK);
    int32_t s23[2] = {2, 3}, s3[1] = {3};
    CHECK(ta_broadcast_init(&p.shape, s23, 2, s3, 1) == TA_OK);
    int16_t x[6] = {10, 20, 30, -10, -20, -30}, y[3] = {2, 4, 6}, r[6];
    CHECK(ta_kernel_sub_s16(&p, x, y, r) == TA_OK);
    CHECK(r[0] == 4 && r[2] == 12 && r[3] == -6 && r[5] == -18);
    /* requantize int32 -> int16 and int16 -> int32 (TFLM Requantize) */
    int32_t m, sh;
    ta_quant_multiplier(0.5, &m, &sh);
    int32_t i32[4] = {1000, -1000, 1 << 30, 3};
    int16_t i16[4];
    CHECK(ta_kernel_requantize(4, TA_DTYPE_INT32, i32, 0, m, sh, TA_DTYPE_INT16, 0, i16) == TA_OK);
    CHECK(i16[0] == 500 && i16[1] == -500 && i16[2] == 32767 && i16[3] == 2); /* 1.5 -> 2 */
    ta_quant_multiplier(2.0, &m, &sh);
    int16_t s16[2] = {-32768, 100};
    int32_t o32[2];
    CHECK(ta_kernel_requantize(2, TA_DTYPE_INT16, s16, 0, m, sh, TA_DTYPE_INT32, 7, o32) == TA_OK);
    CHECK(o32[0] == -65536 + 7 && o32[1] == 207);
    CHECK(ta_kernel_quantize_f32(1, &(float){1.0f}, 1.0f, 0, TA_DTYPE_INT32, o32) == TA_E_UNSUPPORTED);
}

static void test_leaky_relu_hard_swish(void) {
    ta_leaky_relu_params p;
    CHECK(ta_leaky_relu_prepare(&p, 0.25f, 1.0f, 0, 1.0f, 0) == TA_OK);
    int8_t x[5] = {-128, -9, 0, 9, 127}, y[5];
    CHECK(ta_kernel_leaky_relu_s8(&p, 5, x, y) == TA_OK);
    CHECK(y[0] == -32 && y[1] == -2 && y[2] == 0 && y[3] == 9 && y[4] == 127); /* -2.25 -> -2 */
    /* zero points: v = x - zp_in decides the branch */
    CHECK(ta_leaky_relu_prepare(&p, 0.5f, 0.5f, 10, 0.25f, -20) == TA_OK);
    CHECK(ta_kernel_leaky_relu_s8(&p, 5, x, y) == TA_OK);
    /* negative slope 0.5 * 0.5 / 0.25 = 1, positive 2: -9 -> v = -19 -> -39; 0 -> -30; 9 -> -21;
     * -128 -> -158 and 127 -> 214 clamp */
    CHECK(y[0] == -128 && y[1] == -39 && y[2] == -30 && y[3] == -21 && y[4] == 127);
    int16_t hx[3] = {-32768, -1001, 20000}, hy[3];
    CHECK(ta_leaky_relu_prepare(&p, 0.3f, 0.001f, 0, 0.001f, 0) == TA_OK);
    CHECK(ta_kernel_leaky_relu_s16(&p, 3, hx, hy) == TA_OK);
    /* TFLM's double rounding: 0.3 = 0.6 * 2^-1, so -32768 -> -19660.8 -> -19661 -> -9830.5 -> -9831 */
    CHECK(hy[0] == -9831 && hy[1] == -301 && hy[2] == 20000);
    /* in place (LEAKY_RELU is an INPLACE kind): the same bytes over the input */
    CHECK(ta_kernel_leaky_relu_s16(&p, 3, hx, hx) == TA_OK && memcmp(hx, hy, sizeof hy) == 0);
    CHECK(ta_leaky_relu_prepare(&p, 0.5f, 0.5f, 10, 0.25f, -20) == TA_OK);
    CHECK(ta_kernel_leaky_relu_s8(&p, 5, x, y) == TA_OK && ta_kernel_leaky_relu_s8(&p, 5, x, x) == TA_OK &&
          memcmp(x, y, sizeof y) == 0);
    CHECK(ta_leaky_relu_prepare(&p, 0.3f, 0.001f, 0, 0.001f, 0) == TA_OK);
    CHECK(ta_leaky_relu_prepare(&p, -0.1f, 1.0f, 0, 1.0f, 0) == TA_E_UNSUPPORTED);
    p.alpha = 0.1f;
    float fx[2] = {-2.0f, 3.0f}, fy[2];
    CHECK(ta_kernel_leaky_relu_f32(&p, 2, fx, fy) == TA_OK && fy[0] == -2.0f * 0.1f && fy[1] == 3.0f);
    CHECK(ta_kernel_leaky_relu_f32(&p, 2, fx, fx) == TA_OK && memcmp(fx, fy, sizeof fy) == 0);
    /* hard swish: every int8 input for several scales, within one step of the real function */
    ta_hard_swish_params h;
    int worst = 0;
    for (int k = 0; k < 12; k++) {
        float si = 0.02f + 0.01f * (float)k, so = 0.015f + 0.012f * (float)k;
        int32_t zi = rnd(-40, 40), zo = rnd(-40, 40);
        CHECK(ta_hard_swish_prepare(&h, si, zi, so, zo) == TA_OK);
        int8_t in[256], out[256];
        for (int i = 0; i < 256; i++) in[i] = (int8_t)(i - 128);
        CHECK(ta_kernel_hard_swish_s8(&h, 256, in, out) == TA_OK);
        for (int i = 0; i < 256; i++) {
            double r = si * (in[i] - zi), rel = r + 3 < 0 ? 0 : r + 3 > 6 ? 6 : r + 3;
            double e = r * rel / 6 / so + zo;
            e = e < -128 ? -128 : e > 127 ? 127 : e;
            int d = abs(out[i] - (int)lround(e));
            worst = d > worst ? d : worst;
        }
    }
    CHECK(worst <= 1);
    CHECK(ta_hard_swish_prepare(&h, 1.0f, 0, 0.001f, 0) == TA_E_UNSUPPORTED); /* output multiplier above one */
    float hx2[4] = {-4.0f, -1.5f, 0.0f, 4.0f}, hy2[4];
    CHECK(ta_kernel_hard_swish_f32(4, hx2, hy2) == TA_OK);
    CHECK(hy2[0] == 0.0f && hy2[1] == -1.5f * 1.5f / 6.0f && hy2[2] == 0.0f && hy2[3] == 4.0f);
}

/* ---- integer arithmetic: int32 ADD/MUL/DIV, MINIMUM/MAXIMUM, CAST ------- */

static void test_int32_arith(void) {
    ta_addsub_params as;
    memset(&as, 0, sizeof as);
    const int32_t sh40[1] = {4};
    CHECK(ta_broadcast_init(&as.shape, sh40, 1, NULL, 0) == TA_OK); /* [4] op scalar */
    const int32_t x[4] = {7, -7, INT32_MAX, INT32_MIN}, k = 256, m1 = -1;
    int32_t o[4];
    CHECK(ta_kernel_add_s32(&as, x, &k, o) == TA_OK);
    CHECK(o[0] == 263 && o[1] == 249 && o[2] == INT32_MIN + 255 && o[3] == INT32_MIN + 256); /* wraps */
    ta_mul_params mp;
    memset(&mp, 0, sizeof mp);
    mp.shape = as.shape;
    CHECK(ta_int32_activation_range(TA_ACT_NONE, &mp.act_min, &mp.act_max) == TA_OK);
    CHECK(mp.act_min == INT32_MIN && mp.act_max == INT32_MAX);
    CHECK(ta_kernel_mul_s32(&mp, x, &k, o) == TA_OK);
    CHECK(o[0] == 1792 && o[1] == -1792 && o[2] == -256 && o[3] == 0);
    CHECK(ta_int32_activation_range(TA_ACT_RELU6, &mp.act_min, &mp.act_max) == TA_OK && mp.act_max == 6);
    CHECK(ta_kernel_mul_s32(&mp, x, &m1, o) == TA_OK);
    CHECK(o[0] == 0 && o[1] == 6 && o[2] == 0 && o[3] == 0);
    CHECK(ta_int32_activation_range(TA_ACT_TANH, &mp.act_min, &mp.act_max) == TA_E_UNSUPPORTED);
    /* DIV truncates toward zero, like C (TruncateDiv) */
    ta_div_params dp;
    dp.shape = as.shape;
    ta_int32_activation_range(TA_ACT_NONE, &dp.act_min, &dp.act_max);
    const int32_t y[4] = {7, -7, 666, -666 * 3 - 1}, d666 = 666, zero = 0;
    CHECK(ta_kernel_div_s32(&dp, y, &d666, o) == TA_OK);
    CHECK(o[0] == 0 && o[1] == 0 && o[2] == 1 && o[3] == -3);
    const int32_t d2 = -2;
    CHECK(ta_kernel_div_s32(&dp, y, &d2, o) == TA_OK && o[0] == -3 && o[1] == 3);
    /* where TFLM would trap: refused, nothing written */
    o[0] = 12345;
    CHECK(ta_kernel_div_s32(&dp, y, &zero, o) == TA_E_INVALID_ARG && o[0] == 12345);
    CHECK(ta_kernel_div_s32(&dp, x, &m1, o) == TA_E_INVALID_ARG && o[0] == 12345); /* INT32_MIN / -1 */
    /* MINIMUM / MAXIMUM with a broadcast scalar (clip_by_value) */
    const int32_t lo = -128, hi = 127, v[4] = {-300, -128, 5, 400};
    CHECK(ta_kernel_minimum(&as.shape, TA_DTYPE_INT32, v, &hi, o) == TA_OK);
    CHECK(o[0] == -300 && o[1] == -128 && o[2] == 5 && o[3] == 127);
    CHECK(ta_kernel_maximum(&as.shape, TA_DTYPE_INT32, o, &lo, o) == TA_OK); /* in place */
    CHECK(o[0] == -128 && o[1] == -128 && o[2] == 5 && o[3] == 127);
    const float fv[4] = {-1.5f, 2.0f, 0.0f, 3.25f}, f1 = 1.0f;
    float fo[4];
    CHECK(ta_kernel_maximum(&as.shape, TA_DTYPE_FLOAT32, fv, &f1, fo) == TA_OK);
    CHECK(fo[0] == 1.0f && fo[1] == 2.0f && fo[2] == 1.0f && fo[3] == 3.25f);
    CHECK(ta_kernel_minimum(&as.shape, TA_DTYPE_UINT8, fv, &f1, fo) == TA_E_UNSUPPORTED);
}

static void test_cast(void) {
    /* the C conversion of each element: modulo the output range */
    const uint32_t u[4] = {0, 5, 0x80000000u, 0xFFFFFFFFu};
    int32_t s[4];
    CHECK(ta_kernel_cast(4, TA_DTYPE_UINT32, u, TA_DTYPE_INT32, s) == TA_OK);
    CHECK(s[0] == 0 && s[1] == 5 && s[2] == INT32_MIN && s[3] == -1);
    uint32_t back[4];
    CHECK(ta_kernel_cast(4, TA_DTYPE_INT32, s, TA_DTYPE_UINT32, back) == TA_OK && !memcmp(back, u, sizeof u));
    const int32_t w[5] = {-128, 127, 128, -129, 300};
    int8_t b[5];
    CHECK(ta_kernel_cast(5, TA_DTYPE_INT32, w, TA_DTYPE_INT8, b) == TA_OK);
    CHECK(b[0] == -128 && b[1] == 127 && b[2] == -128 && b[3] == 127 && b[4] == 44);
    const int16_t h[3] = {-32768, -1, 32767};
    int32_t hw[3];
    CHECK(ta_kernel_cast(3, TA_DTYPE_INT16, h, TA_DTYPE_INT32, hw) == TA_OK);
    CHECK(hw[0] == -32768 && hw[1] == -1 && hw[2] == 32767);
    uint64_t u64[3];
    CHECK(ta_kernel_cast(3, TA_DTYPE_INT16, h, TA_DTYPE_UINT64, u64) == TA_OK);
    CHECK(u64[0] == (uint64_t)0 - 32768u && u64[1] == UINT64_MAX && u64[2] == 32767);
    float f[3];
    CHECK(ta_kernel_cast(3, TA_DTYPE_INT16, h, TA_DTYPE_FLOAT32, f) == TA_OK && f[0] == -32768.0f && f[1] == -1.0f);
    uint8_t bo[3];
    CHECK(ta_kernel_cast(3, TA_DTYPE_INT16, h, TA_DTYPE_BOOL, bo) == TA_OK && bo[0] == 1 && bo[1] == 1 && bo[2] == 1);
    CHECK(!ta_kernel_cast_supported(TA_DTYPE_FLOAT32, TA_DTYPE_INT8)); /* undefined out of range in TFLM's C++ */
    CHECK(ta_kernel_cast(3, TA_DTYPE_FLOAT32, f, TA_DTYPE_INT32, hw) == TA_E_UNSUPPORTED);
}

int main(void) {
    test_add();
    test_sub_mul();
    test_softmax();
    test_logistic_tanh();
    test_int16_binary_quantize();
    test_leaky_relu_hard_swish();
    test_int32_arith();
    test_cast();
    return ta_test_finish("test_kernels_elementwise");
}
