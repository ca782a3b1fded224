/* Kernels: fixed-point helpers against exact integer formulations, activation
 * ranges, multiplier derivation, padding arithmetic, QUANTIZE/DEQUANTIZE
 * (src/runtime/ops/quantize.c). */
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

/* ---- fixed-point helpers ------------------------------------------------ */

static void test_quantize_multiplier(void) {
    int32_t m, s;
    ta_quant_multiplier(0.0, &m, &s);
    CHECK(m == 0 && s == 0);
    ta_quant_multiplier(1.0, &m, &s);
    CHECK(m == (1 << 30) && s == 1);
    ta_quant_multiplier(0.5, &m, &s);
    CHECK(m == (1 << 30) && s == 0);
    ta_quant_multiplier(0.75, &m, &s);
    CHECK(m == 1610612736 && s == 0);
    /* significand rounds up to 2^31: becomes 2^30 with shift + 1 */
    ta_quant_multiplier(1.0 - ldexp(1.0, -40), &m, &s);
    CHECK(m == (1 << 30) && s == 1);
    /* just below that edge it stays below 2^31 */
    ta_quant_multiplier(1.0 - ldexp(1.0, -30), &m, &s);
    CHECK(m == INT32_MAX - 1 && s == 0);
    /* shift -31 is kept, below flushes to zero */
    ta_quant_multiplier(ldexp(1.0, -32), &m, &s);
    CHECK(m == (1 << 30) && s == -31);
    ta_quant_multiplier(ldexp(1.0, -40), &m, &s);
    CHECK(m == 0 && s == 0);
    /* large multipliers: positive shift */
    ta_quant_multiplier(1000.0, &m, &s);
    CHECK(s == 10 && m == (int32_t)llround(1000.0 / 1024.0 * 2147483648.0));
    /* round half away from zero of q*2^31: q = 0.5 + 2^-32 -> 2^30 + 0.5 -> 2^30 + 1 */
    ta_quant_multiplier(0.5 + ldexp(1.0, -32), &m, &s);
    CHECK(m == (1 << 30) + 1 && s == 0);
}

/* Exact reference of TFLM's double rounding, by integer arithmetic only. */
static int64_t floor_div(int64_t a, int64_t b) { /* b > 0 */
    int64_t q = a / b;
    if ((a % b) != 0 && a < 0) q--;
    return q;
}
static int32_t ref_q_mul(int32_t x, int32_t m, int32_t shift) {
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    int64_t xl = (int64_t)x * ((int64_t)1 << left);
    if (xl > INT32_MAX || xl < INT32_MIN) return 0x7eadbeef; /* caller avoids */
    int64_t hi;
    if (xl == INT32_MIN && m == INT32_MIN) hi = INT32_MAX;
    else {
        /* nearest, ties up -- except gemmlowp's negative nudge rounds ties
         * toward zero... which for negatives IS up.  floor(v + 1/2). */
        int64_t p = xl * (int64_t)m;
        if (p >= 0) hi = floor_div(p + ((int64_t)1 << 30), (int64_t)1 << 31);
        else {
            /* gemmlowp: trunc((p + 1 - 2^30) / 2^31) = -(floor((-p + 2^30 - 1) / 2^31)) */
            hi = -floor_div(-p + ((int64_t)1 << 30) - 1, (int64_t)1 << 31);
        }
    }
    if (right == 0) return (int32_t)hi;
    /* ties away from zero */
    int64_t d = (int64_t)1 << right;
    int64_t r = hi >= 0 ? floor_div(hi + d / 2, d) : -floor_div(-hi + d / 2, d);
    return (int32_t)r;
}

static void test_fixed_point(void) {
    CHECK(ta_q_high_mul(INT32_MIN, INT32_MIN) == INT32_MAX);
    CHECK(ta_q_high_mul(1 << 30, 1 << 30) == (1 << 29));
    CHECK(ta_q_high_mul(1, 1 << 30) == 1);   /* +0.5 -> 1 */
    CHECK(ta_q_high_mul(-1, 1 << 30) == 0);  /* -0.5 -> 0 (ties toward +inf) */
    CHECK(ta_q_high_mul(-3, 1 << 30) == -1); /* -1.5 -> -1 */
    CHECK(ta_q_high_mul(3, 1 << 30) == 2);   /* 1.5 -> 2 */
    CHECK(ta_q_high_mul(INT32_MAX, INT32_MAX) == INT32_MAX - 1);
    CHECK(ta_q_div_pot(3, 1) == 2);   /* 1.5 -> 2 */
    CHECK(ta_q_div_pot(-3, 1) == -2); /* -1.5 -> -2: away from zero */
    CHECK(ta_q_div_pot(5, 2) == 1);   /* 1.25 -> 1 */
    CHECK(ta_q_div_pot(-5, 2) == -1);
    CHECK(ta_q_div_pot(-6, 2) == -2); /* -1.5 -> -2 */
    CHECK(ta_q_div_pot(INT32_MIN, 31) == -1);
    CHECK(ta_q_div_pot(INT32_MAX, 31) == 1);
    CHECK(ta_q_div_pot(7, 0) == 7);
    CHECK(ta_q_mul(100, 1 << 30, 0) == 50);
    CHECK(ta_q_mul(100, 1 << 30, -1) == 25);
    CHECK(ta_q_mul(3, 1 << 30, 2) == 6);
    /* double rounding: 5 * 0.25 = 1.25 but TFLM gives 2 (2.5 -> 3, 1.5 -> 2) */
    CHECK(ta_q_mul(5, 1 << 30, -1) == 2);
    CHECK(ta_q_mul(INT32_MAX, 1 << 30, -31) == 1);
    CHECK(ta_q_mul(-7, 1 << 30, 0) == -3); /* -3.5 -> -3 */
    /* random against the exact integer formulation */
    for (int i = 0; i < 20000; i++) {
        int32_t m = rnd(1 << 30, INT32_MAX);
        int32_t s = rnd(-31, 6);
        int32_t lim = s > 0 ? (INT32_MAX >> s) : INT32_MAX;
        int32_t x = (int32_t)((int64_t)(ta__rng_next(&g_seed) % ((uint64_t)lim * 2 + 1)) - lim);
        if (i < 50) x = rnd(-300, 300);
        int32_t got = ta_q_mul(x, m, s), want = ref_q_mul(x, m, s);
        if (got != want) {
            CHECK(got == want);
            fprintf(stderr, "  x=%d m=%d s=%d got %d want %d\n", x, m, s, got, want);
            break;
        }
    }
    /* int64 variant: one rounding, half up */
    CHECK(ta_q_mul64(100, 1 << 30, 0) == 50);
    CHECK(ta_q_mul64(5, 1 << 30, -1) == 1);  /* 1.25 -> 1 */
    CHECK(ta_q_mul64(-3, 1 << 30, 0) == -1); /* -1.5 -> -1 (half up) */
    CHECK(ta_q_mul64((int64_t)1 << 40, 1 << 30, -20) == (1 << 19));
}

static void test_activation_range(void) {
    int32_t lo, hi;
    CHECK(ta_quant_activation_range(TA_ACT_NONE, 0.5f, -10, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == -128 && hi == 127);
    CHECK(ta_quant_activation_range(TA_ACT_RELU, 0.5f, -10, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == -10 && hi == 127);
    CHECK(ta_quant_activation_range(TA_ACT_RELU6, 0.5f, -10, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == -10 && hi == 2);
    CHECK(ta_quant_activation_range(TA_ACT_RELU_N1_TO_1, 0.5f, -10, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == -12 && hi == -8);
    /* 6 / 4 = 1.5 rounds half away from zero to 2; -1/4 rounds to -0 */
    CHECK(ta_quant_activation_range(TA_ACT_RELU6, 4.0f, 0, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == 0 && hi == 2);
    CHECK(ta_quant_activation_range(TA_ACT_RELU_N1_TO_1, 4.0f, 0, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == 0 && hi == 0);
    /* saturates to the type */
    CHECK(ta_quant_activation_range(TA_ACT_RELU6, 0.01f, 0, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == 0 && hi == 127);
    CHECK(ta_quant_activation_range(TA_ACT_RELU, 0.01f, -128, TA_DTYPE_INT8, &lo, &hi) == TA_OK);
    CHECK(lo == -128 && hi == 127);
    CHECK(ta_quant_activation_range(TA_ACT_RELU6, 0.1f, 0, TA_DTYPE_INT16, &lo, &hi) == TA_OK);
    CHECK(lo == 0 && hi == 60);
    CHECK(ta_quant_activation_range(TA_ACT_RELU, 1.0f, 3, TA_DTYPE_UINT8, &lo, &hi) == TA_OK);
    CHECK(lo == 3 && hi == 255);
    CHECK(ta_quant_activation_range(TA_ACT_TANH, 1.0f, 0, TA_DTYPE_INT8, &lo, &hi) == TA_E_UNSUPPORTED);
    CHECK(ta_quant_activation_range(TA_ACT_NONE, 1.0f, 0, TA_DTYPE_FLOAT32, &lo, &hi) == TA_E_UNSUPPORTED);
    float flo, fhi;
    CHECK(ta_float_activation_range(TA_ACT_RELU6, &flo, &fhi) == TA_OK && flo == 0.0f && fhi == 6.0f);
    CHECK(ta_float_activation_range(TA_ACT_SIGMOID, &flo, &fhi) == TA_E_UNSUPPORTED);
}

static void test_multiplier_derivation(void) {
    /* per-channel: double product; per-tensor FC: float product widened */
    const float in_s = 0.0235294122f, out_s = 0.0470588244f;
    const float ws[2] = {0.00392156886f, 0.0078125f};
    int32_t m[2];
    int8_t s[2];
    CHECK(ta_quant_conv_multipliers(in_s, ws, 2, out_s, 2, m, s) == TA_OK);
    int32_t em, es;
    ta_quant_multiplier((double)in_s * (double)ws[0] / (double)out_s, &em, &es);
    CHECK(m[0] == em && s[0] == es);
    CHECK(ta_quant_conv_multipliers(in_s, ws, 1, out_s, 2, m, s) == TA_OK);
    CHECK(m[1] == em && s[1] == es);
    CHECK(ta_quant_conv_multipliers(in_s, ws, 2, out_s, 3, m, s) == TA_E_INVALID_ARG);
    double fc = ta_quant_fc_real_multiplier(in_s, ws[0], out_s);
    CHECK(fc == (double)(in_s * ws[0]) / (double)out_s);
    /* find a case where the two derivations differ, proving they are distinct */
    int differ = 0;
    for (int i = 1; i < 2000 && !differ; i++) {
        float a = 0.001f * (float)i, b = 0.0003f * (float)(i % 97 + 1), o = 0.05f;
        double d1 = (double)a * (double)b / (double)o, d2 = ta_quant_fc_real_multiplier(a, b, o);
        int32_t m1, s1, m2, s2;
        ta_quant_multiplier(d1, &m1, &s1);
        ta_quant_multiplier(d2, &m2, &s2);
        differ = m1 != m2;
    }
    CHECK(differ);
}

static void test_padding(void) {
    int32_t off;
    CHECK(ta_kernel_out_size(TA_PAD_SAME, 3, 2, 1, 1) == 3);
    CHECK(ta_kernel_padding(1, 1, 3, 2, 3, &off) == 0 && off == 1);
    CHECK(ta_kernel_padding(1, 1, 3, 3, 3, &off) == 1 && off == 0);
    CHECK(ta_kernel_out_size(TA_PAD_SAME, 4, 3, 2, 1) == 2);
    CHECK(ta_kernel_padding(2, 1, 4, 3, 2, &off) == 0 && off == 1);
    CHECK(ta_kernel_out_size(TA_PAD_SAME, 5, 3, 2, 1) == 3);
    CHECK(ta_kernel_padding(2, 1, 5, 3, 3, &off) == 1 && off == 0);
    CHECK(ta_kernel_out_size(TA_PAD_VALID, 5, 3, 2, 1) == 2);
    CHECK(ta_kernel_padding(2, 1, 5, 3, 2, &off) == 0 && off == 0);
    /* dilation 2: effective filter 5 */
    CHECK(ta_kernel_out_size(TA_PAD_VALID, 7, 3, 1, 2) == 3);
    CHECK(ta_kernel_padding(1, 2, 7, 3, 7, &off) == 2 && off == 0);
    CHECK(ta_kernel_out_size(TA_PAD_SAME, 7, 3, 0, 1) == 0);
    /* 96x96, 3x3 stride 2 SAME (person_detect's first conv) */
    CHECK(ta_kernel_out_size(TA_PAD_SAME, 96, 3, 2, 1) == 48);
    CHECK(ta_kernel_padding(2, 1, 96, 3, 48, &off) == 0 && off == 1);
}

/* ---- quantize / dequantize ---------------------------------------------- */

static void test_quantize(void) {
    float in[6] = {0.5f, -0.5f, 1.49f, 1000.0f, -1000.0f, 0.0f};
    int8_t o[6];
    CHECK(ta_kernel_quantize_f32(6, in, 1.0f, 0, TA_DTYPE_INT8, o) == TA_OK);
    CHECK(o[0] == 1 && o[1] == -1 && o[2] == 1 && o[3] == 127 && o[4] == -128 && o[5] == 0);
    uint8_t u[6];
    CHECK(ta_kernel_quantize_f32(6, in, 0.5f, 128, TA_DTYPE_UINT8, u) == TA_OK);
    CHECK(u[0] == 129 && u[1] == 127 && u[2] == 131 && u[3] == 255 && u[4] == 0 && u[5] == 128);
    int16_t s[6];
    CHECK(ta_kernel_quantize_f32(6, in, 0.01f, -5, TA_DTYPE_INT16, s) == TA_OK);
    CHECK(s[0] == 45 && s[1] == -55 && s[3] == 32767 && s[4] == -32768);
    CHECK(ta_kernel_quantize_f32(6, in, 1.0f, 0, TA_DTYPE_FLOAT32, o) == TA_E_UNSUPPORTED);
    /* the division is in double: x / scale with float-rounded values */
    float v = 0.3f, sc = 0.1f;
    int8_t q;
    CHECK(ta_kernel_quantize_f32(1, &v, sc, 0, TA_DTYPE_INT8, &q) == TA_OK && q == 3);
    /* requantize int8 -> int8 (scale ratio 2, zp change) and uint8 -> int8 */
    int32_t m, sh;
    ta_quant_multiplier(2.0, &m, &sh);
    int8_t a[3] = {10, -10, 100}, b[3];
    CHECK(ta_kernel_requantize(3, TA_DTYPE_INT8, a, 0, m, sh, TA_DTYPE_INT8, 1, b) == TA_OK);
    CHECK(b[0] == 21 && b[1] == -19 && b[2] == 127);
    uint8_t ua[2] = {0, 255};
    ta_quant_multiplier(1.0, &m, &sh);
    CHECK(ta_kernel_requantize(2, TA_DTYPE_UINT8, ua, 128, m, sh, TA_DTYPE_INT8, 0, b) == TA_OK);
    CHECK(b[0] == -128 && b[1] == 127);
    /* dequantize */
    int8_t d[3] = {-128, 0, 127};
    float f[3];
    CHECK(ta_kernel_dequantize(3, TA_DTYPE_INT8, d, 0.1f, -1, f) == TA_OK);
    CHECK(f[0] == (float)((double)0.1f * -127) && f[1] == (float)((double)0.1f) && f[2] == (float)((double)0.1f * 128));
    uint8_t du[1] = {200};
    CHECK(ta_kernel_dequantize(1, TA_DTYPE_UINT8, du, 0.5f, 100, f) == TA_OK && f[0] == 50.0f);
    int16_t ds[1] = {-300};
    CHECK(ta_kernel_dequantize(1, TA_DTYPE_INT16, ds, 0.25f, 0, f) == TA_OK && f[0] == -75.0f);
    CHECK(ta_kernel_dequantize(1, TA_DTYPE_INT32, ds, 0.25f, 0, f) == TA_E_UNSUPPORTED);
}

int main(void) {
    test_quantize_multiplier();
    test_fixed_point();
    test_activation_range();
    test_multiplier_derivation();
    test_padding();
    test_quantize();
    return ta_test_finish("test_kernels_quant");
}
