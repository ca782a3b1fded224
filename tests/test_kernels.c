/* Kernels: hand-checked golden cases per op, rounding edge cases, and seeded
 * property tests (1x1 conv == FC, depthwise == grouped conv, padding ==
 * explicit pad + VALID, fixed-point helpers vs exact integer formulations). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/fixedpoint.h"
#include "testutil.h"
#include "tinyarena/kernels.h"

static uint64_t g_seed = 12345;
static int32_t rnd(int32_t lo, int32_t hi) { /* inclusive */
    return (int32_t)(lo + (int64_t)(ta__rng_next(&g_seed) % (uint64_t)((int64_t)hi - lo + 1)));
}
static void rnd_s8(int8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (int8_t)rnd(-128, 127);
}

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

/* ---- pooling, mean ------------------------------------------------------ */

static void test_pooling(void) {
    /* 1x2x2x1 input, 2x2 window, SAME stride 2 -> 1 output */
    int8_t in[4] = {1, 2, -1, -4}, o;
    ta_pool_params p = {.input = {1, 2, 2, 1}, .output = {1, 1, 1, 1}, .filter_h = 2, .filter_w = 2,
                        .stride_h = 2, .stride_w = 2, .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == -1); /* -2/4 = -0.5 -> -1 */
    in[3] = -2;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 0); /* 0 */
    in[0] = 2; in[1] = 3; in[2] = 3; in[3] = 4;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 3); /* 12/4 */
    in[3] = 5;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 3); /* 13/4 = 3.25 */
    in[3] = 7;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 4); /* 15/4 = 3.75 */
    in[0] = in[1] = in[2] = -3; in[3] = -5;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == -4); /* -14/4 = -3.5 -> -4 */
    CHECK(ta_kernel_max_pool_s8(&p, in, &o) == TA_OK && o == -3);
    p.act_min = 0;
    CHECK(ta_kernel_max_pool_s8(&p, in, &o) == TA_OK && o == 0);
    /* padding excluded from the count: 3x3 input, 3x3 window SAME stride 1, corner = 4 taps */
    int8_t in9[9] = {1, 1, 0, 1, 2, 0, 0, 0, 0}, o9[9];
    ta_pool_params q = {.input = {1, 3, 3, 1}, .output = {1, 3, 3, 1}, .filter_h = 3, .filter_w = 3,
                        .stride_h = 1, .stride_w = 1, .pad_h = 1, .pad_w = 1, .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_avg_pool_s8(&q, in9, o9) == TA_OK);
    CHECK(o9[0] == 1 && o9[8] == 1); /* 5/4 = 1.25 -> 1; 2/4 = 0.5 -> 1 */
    float f9[9] = {1, 1, 0, 1, 2, 0, 0, 0, 0}, fo9[9];
    q.f_act_min = -1e30f;
    q.f_act_max = 1e30f;
    CHECK(ta_kernel_avg_pool_f32(&q, f9, fo9) == TA_OK);
    CHECK(fo9[0] == 1.25f && fo9[8] == 0.5f && fo9[4] == 5.0f / 9.0f);
    CHECK(ta_kernel_max_pool_f32(&q, f9, fo9) == TA_OK && fo9[8] == 2.0f && fo9[2] == 2.0f);
    q.output.c = 2;
    CHECK(ta_kernel_max_pool_f32(&q, f9, fo9) == TA_E_INVALID_ARG);
}

static void test_mean(void) {
    ta_mean_params p;
    memset(&p, 0, sizeof p);
    int32_t shape[4] = {1, 2, 2, 2}, axes[2] = {1, 2};
    CHECK(ta_mean_axes(&p, shape, 4, axes, 2) == TA_OK);
    CHECK(ta_kernel_mean_s8_scratch_bytes(&p) == 2 * sizeof(int32_t));
    int32_t scratch[2];
    int8_t in[8] = {1, -1, 2, -2, 3, -3, 4, -4}, out[2];
    p.same_quant = true;
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, sizeof scratch) == TA_OK);
    CHECK(out[0] == 2 && out[1] == -2); /* 10/4 = 2.5 and -2.5 truncate */
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, 4) == TA_E_NO_MEMORY);
    /* requantising path: s_in 1, s_out 2 -> (2^30, 0); N = 4 folds to (2^30, -2) */
    p.same_quant = false;
    ta_quant_multiplier(0.5, &p.mult, &p.shift);
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, sizeof scratch) == TA_OK);
    CHECK(out[0] == 1 && out[1] == -1); /* 10 * 0.5 / 4 = 1.25 */
    p.input_zp = -2;
    p.output_zp = 5;
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, sizeof scratch) == TA_OK);
    CHECK(out[0] == 7 && out[1] == 5); /* (10+8)/8 = 2.25 -> 2; (-10+8)/8 = -0.25 -> 0 */
    /* negative axis, reduce over channels */
    int32_t ax[1] = {-1};
    CHECK(ta_mean_axes(&p, shape, 4, ax, 1) == TA_OK && p.reduce[3] && !p.reduce[1]);
    int32_t bad[1] = {4};
    CHECK(ta_mean_axes(&p, shape, 4, bad, 1) == TA_E_INVALID_ARG);
    float fin[8] = {1, 10, 2, 20, 3, 30, 4, 40}, fout[2];
    CHECK(ta_mean_axes(&p, shape, 4, axes, 2) == TA_OK);
    CHECK(ta_kernel_mean_f32(&p, fin, fout) == TA_OK && fout[0] == 2.5f && fout[1] == 25.0f);
    /* N = 3 (not a power of two): mult' = (2^30 << 1) / 3 */
    int32_t s3[2] = {1, 3}, a1[1] = {1};
    CHECK(ta_mean_axes(&p, s3, 2, a1, 1) == TA_OK);
    p.same_quant = false;
    p.input_zp = p.output_zp = 0;
    ta_quant_multiplier(1.0, &p.mult, &p.shift); /* (2^30, 1) */
    int8_t in3[3] = {100, 100, 101}, o3;
    CHECK(ta_kernel_mean_s8(&p, in3, &o3, scratch, sizeof scratch) == TA_OK);
    CHECK(o3 == 100); /* 301/3 = 100.33 */
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

/* ---- data movement ------------------------------------------------------ */

static void test_data_movement(void) {
    uint8_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
    CHECK(ta_kernel_reshape(buf, dst, 8) == TA_OK && memcmp(buf, dst, 8) == 0);
    CHECK(ta_kernel_reshape(buf, buf, 8) == TA_OK);
    CHECK(ta_kernel_reshape(NULL, dst, 8) == TA_E_INVALID_ARG);

    /* pad [2,2] int8 by (1,0) rows and (0,2) cols with -3 */
    int8_t pin[4] = {1, 2, 3, 4}, pout[12], pv = -3;
    ta_pad_params pp = {.rank = 2, .in_shape = {2, 2}, .before = {1, 0}, .after = {0, 2}, .elem_size = 1};
    CHECK(ta_kernel_pad(&pp, pin, &pv, pout) == TA_OK);
    int8_t pexp[12] = {-3, -3, -3, -3, 1, 2, -3, -3, 3, 4, -3, -3};
    CHECK(memcmp(pout, pexp, 12) == 0);
    /* float, 4D channel pad (blazeface style) */
    float fin[2] = {1.5f, 2.5f}, fout[8], zero = 0.0f;
    ta_pad_params fp = {.rank = 4, .in_shape = {1, 1, 2, 1}, .before = {0, 0, 0, 1}, .after = {0, 0, 0, 2}, .elem_size = 4};
    CHECK(ta_kernel_pad(&fp, fin, &zero, fout) == TA_OK);
    CHECK(fout[0] == 0.0f && fout[1] == 1.5f && fout[2] == 0.0f && fout[5] == 2.5f && fout[7] == 0.0f);
    fp.before[0] = -1;
    CHECK(ta_kernel_pad(&fp, fin, &zero, fout) == TA_E_INVALID_ARG);

    /* transpose NCHW [1,2,2,3] -> NHWC perm {0,2,3,1} */
    int8_t tin[12], tout[12];
    for (int i = 0; i < 12; i++) tin[i] = (int8_t)i;
    ta_transpose_params tp = {.rank = 4, .in_shape = {1, 2, 2, 3}, .perm = {0, 2, 3, 1}, .elem_size = 1};
    CHECK(ta_kernel_transpose(&tp, tin, tout) == TA_OK);
    /* out[h][w][c] = in[c][h][w] -> out index (h*3+w)*2+c */
    int ok = 1;
    for (int c = 0; c < 2; c++)
        for (int h = 0; h < 2; h++)
            for (int w = 0; w < 3; w++) ok &= tout[(h * 3 + w) * 2 + c] == tin[(c * 2 + h) * 3 + w];
    CHECK(ok);
    /* transpose twice with inverse perm = identity, 6D, 2-byte elements */
    int16_t t6[720], t6b[720], t6c[720];
    for (int i = 0; i < 720; i++) t6[i] = (int16_t)(i * 7);
    ta_transpose_params t6p = {.rank = 6, .in_shape = {2, 3, 4, 5, 1, 6}, .perm = {5, 3, 1, 0, 4, 2}, .elem_size = 2};
    CHECK(ta_kernel_transpose(&t6p, t6, t6b) == TA_OK);
    ta_transpose_params t6q = {.rank = 6, .in_shape = {6, 5, 3, 2, 1, 4}, .perm = {3, 2, 5, 1, 4, 0}, .elem_size = 2};
    CHECK(ta_kernel_transpose(&t6q, t6b, t6c) == TA_OK);
    CHECK(memcmp(t6, t6c, sizeof t6) == 0);
    t6p.perm[0] = 3;
    CHECK(ta_kernel_transpose(&t6p, t6, t6b) == TA_E_INVALID_ARG);

    /* concat [2,1] and [2,2] on axis 1 */
    int8_t c1[2] = {1, 2}, c2[4] = {3, 4, 5, 6}, cout[6];
    const void *ins[2] = {c1, c2};
    int64_t cb[2] = {1, 2};
    ta_concat_params cp = {.n_inputs = 2, .outer = 2, .copy_bytes = cb};
    CHECK(ta_kernel_concatenation(&cp, ins, cout) == TA_OK);
    int8_t cexp[6] = {1, 3, 4, 2, 5, 6};
    CHECK(memcmp(cout, cexp, 6) == 0);

    /* strided slice: [3,4] rows 1.., cols ::-2 */
    int8_t sin[12], sout[12];
    for (int i = 0; i < 12; i++) sin[i] = (int8_t)i;
    int32_t shp[2] = {3, 4}, beg[2] = {1, -1}, end[2] = {0, 0}, strd[2] = {1, -2};
    ta_slice_params sp;
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, beg, end, strd, 0, 3, 0, false, 1) == TA_OK);
    CHECK(sp.start[0] == 1 && sp.stop[0] == 3 && sp.start[1] == 3 && sp.stop[1] == -1);
    CHECK(ta_kernel_strided_slice(&sp, sin, sout) == TA_OK);
    int8_t sexp[4] = {7, 5, 11, 9};
    CHECK(memcmp(sout, sexp, 4) == 0);
    /* shrink axis 0 at index -1, begin_mask on axis 1 */
    int32_t b2[2] = {-1, 2}, e2[2] = {0, 4}, s2[2] = {1, 1};
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, b2, e2, s2, 2, 0, 1, false, 1) == TA_OK);
    CHECK(ta_kernel_strided_slice(&sp, sin, sout) == TA_OK);
    CHECK(sout[0] == 8 && sout[1] == 9 && sout[2] == 10 && sout[3] == 11);
    /* offset: end = begin + size */
    int32_t b3[2] = {0, 1}, e3[2] = {2, 2};
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, b3, e3, s2, 0, 0, 0, true, 1) == TA_OK);
    CHECK(ta_kernel_strided_slice(&sp, sin, sout) == TA_OK);
    CHECK(sout[0] == 1 && sout[1] == 2 && sout[2] == 5 && sout[3] == 6);
    int32_t z2[2] = {1, 0};
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, b3, e3, z2, 0, 0, 0, false, 1) == TA_E_INVALID_ARG);
}

/* ---- int16 activations, attention, recurrent ops ------------------------ */

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
    CHECK(ta_leaky_relu_prepare(&p, -0.1f, 1.0f, 0, 1.0f, 0) == TA_E_UNSUPPORTED);
    p.alpha = 0.1f;
    float fx[2] = {-2.0f, 3.0f}, fy[2];
    CHECK(ta_kernel_leaky_relu_f32(&p, 2, fx, fy) == TA_OK && fy[0] == -2.0f * 0.1f && fy[1] == 3.0f);
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

static void test_batch_matmul(void) {
    /* [2x3] x [3x2] with zero points, multiplier 1 */
    ta_batch_matmul_params p = {.lhs = {1, 1, 1, 2, 3}, .rhs = {1, 1, 1, 3, 2}, .lhs_offset = -1, .rhs_offset = 2,
                                .output_offset = 3, .mult = 1 << 30, .shift = 1};
    int32_t os[5];
    CHECK(ta_batch_matmul_shape(&p, os) == TA_OK && os[3] == 2 && os[4] == 2);
    int8_t l[6] = {1, 2, 3, 4, 5, 6}, r[6] = {-1, 0, 1, -2, 0, 3}, o[4];
    CHECK(ta_kernel_batch_matmul_s8(&p, l, r, o) == TA_OK);
    /* L - 1 = [[0,1,2],[3,4,5]], R + 2 = [[1,2],[3,0],[2,5]] */
    CHECK(o[0] == 7 + 3 && o[1] == 10 + 3 && o[2] == 25 + 3 && o[3] == 31 + 3);
    /* adj_y: the same RHS stored transposed */
    int8_t rt[6] = {-1, 1, 0, 0, -2, 3};
    p.adj_y = true;
    p.rhs[3] = 2;
    p.rhs[4] = 3;
    CHECK(ta_kernel_batch_matmul_s8(&p, l, rt, o) == TA_OK && o[0] == 10 && o[3] == 34);
    /* adj_x too */
    int8_t lt[6] = {1, 4, 2, 5, 3, 6};
    p.adj_x = true;
    p.lhs[3] = 3;
    p.lhs[4] = 2;
    CHECK(ta_kernel_batch_matmul_s8(&p, lt, rt, o) == TA_OK && o[0] == 10 && o[1] == 13 && o[2] == 28);
    /* batch broadcast: lhs [2, 2, 3], rhs [1, 3, 2] against the per-batch product; float */
    ta_batch_matmul_params f = {.lhs = {1, 1, 2, 2, 3}, .rhs = {1, 1, 1, 3, 2}};
    float fl[12], fr[6], fo[8];
    for (int i = 0; i < 12; i++) fl[i] = 0.5f * (float)(i - 5);
    for (int i = 0; i < 6; i++) fr[i] = 0.25f * (float)(3 - i);
    CHECK(ta_kernel_batch_matmul_f32(&f, fl, fr, fo) == TA_OK);
    for (int b = 0; b < 2; b++)
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 2; c++) {
                float acc = 0.0f;
                for (int k = 0; k < 3; k++) acc += fl[b * 6 + a * 3 + k] * fr[k * 2 + c];
                CHECK(fo[b * 4 + a * 2 + c] == acc);
            }
    f.rhs[2] = 3; /* neither equal nor 1 */
    CHECK(ta_kernel_batch_matmul_f32(&f, fl, fr, fo) == TA_E_INVALID_ARG);
    /* int16: int64 accumulation, ta_q_mul64 */
    ta_batch_matmul_params h = {.lhs = {1, 1, 1, 1, 2}, .rhs = {1, 1, 1, 2, 1}, .mult = 1 << 30, .shift = 0};
    int16_t hl[2] = {30000, 30000}, hr[2] = {2, 1}, ho[1];
    CHECK(ta_kernel_batch_matmul_s16(&h, hl, hr, ho) == TA_OK && ho[0] == 32767); /* 90000 / 2 clamps */
    hl[0] = -300;
    CHECK(ta_kernel_batch_matmul_s16(&h, hl, hr, ho) == TA_OK && ho[0] == 14700);
}

static void test_svdf(void) {
    /* 2 filters, rank 1, memory 2, all scales 1: hand-worked two invokes */
    ta_svdf_params p = {.batch = 1, .input_size = 2, .n_filter = 2, .n_memory = 2, .rank = 1};
    CHECK(ta_svdf_prepare(&p, 1.0f, 0, 1.0f, 1.0f, 1.0f, 0, 1.0f, 0) == TA_OK);
    CHECK(ta_kernel_svdf_scratch_bytes(&p) == 16 + 16);
    int8_t x[2] = {1, 2}, wf[4] = {1, 1, 2, -1}, out[2];
    int16_t wt[4] = {1, 2, 3, 4}, state[4] = {0, 0, 0, 0};
    int32_t bias[2] = {1, 1};
    int32_t scratch[8];
    CHECK(ta_kernel_svdf_s8(&p, x, wf, wt, bias, state, out, scratch, sizeof scratch) == TA_OK);
    CHECK(state[0] == 0 && state[1] == 3 && state[2] == 0 && state[3] == 0);
    CHECK(out[0] == 7 && out[1] == 1);
    x[1] = 0;
    CHECK(ta_kernel_svdf_s8(&p, x, wf, wt, bias, state, out, scratch, sizeof scratch) == TA_OK);
    CHECK(state[0] == 3 && state[1] == 1 && state[2] == 0 && state[3] == 2);
    CHECK(out[0] == 6 && out[1] == 9);
    CHECK(ta_kernel_svdf_s8(&p, x, wf, wt, bias, state, out, scratch, 16) == TA_E_NO_MEMORY);
    /* rank 2: both filters feed one unit; int8 state with a zero point */
    ta_svdf_params q = {.batch = 1, .input_size = 2, .n_filter = 2, .n_memory = 2, .rank = 2};
    CHECK(ta_svdf_prepare(&q, 1.0f, 1, 1.0f, 1.0f, 1.0f, -3, 1.0f, 2) == TA_OK);
    int8_t wt8[4] = {1, 2, 3, 4}, st8[4] = {-3, -3, -3, -3}, o1;
    int8_t x2[2] = {2, 3}; /* x - 1 = [1, 2]: dots [3, 0] + zp -3 -> state [0, -3] newest */
    CHECK(ta_kernel_svdf_s8_s8(&q, x2, wf, wt8, NULL, st8, &o1, scratch, sizeof scratch) == TA_OK);
    CHECK(st8[1] == 0 && st8[3] == -3);
    CHECK(o1 == 2 + 2 * 3 + 4 * 0); /* time sums 6 and 0, + zp_out 2 */
}

/* The int16 LUT activations the LSTM uses: exact at 0, saturating at the
 * ends, monotonic, and within a few Q0.15 steps of the real functions. */
static void test_s16_lut(void) {
    int bad = 0;
    for (int i = 0; i < 256; i++) {
        double e = 65536.0 / (1.0 + exp(-(double)i / 24.0));
        bad += fabs((double)ta__sigmoid_table[i] - e) > 1.2;
        bad += i > 0 && ta__sigmoid_table[i] < ta__sigmoid_table[i - 1];
    }
    CHECK(bad == 0);
    int16_t x[5] = {0, 32767, -32768, 4096, -4096}, y[5];
    ta_kernel_logistic_s16_lut(0, 0, 5, x, y);
    /* Q3.12 spans [-8, 8): sigmoid(+-8) is not saturated yet */
    CHECK(y[0] == 16384 && y[1] == 32757 && y[2] == 11 && y[3] + y[4] == 32768);
    ta_kernel_tanh_s16_lut(0, 0, 5, x, y);
    CHECK(y[0] == 0 && y[1] == 32767 && y[2] == -32767);
    /* sweep: Q3.12 in, Q0.15 out; tanh also at a Q4.11 cell scale (mult 6) */
    int wl = 0, wt = 0, wc = 0, mono = 1;
    int16_t prev_l = -32768, prev_t = -32768;
    for (int32_t v = -32768; v <= 32767; v += 7) {
        int16_t in = (int16_t)v, lo, th, tc;
        ta_kernel_logistic_s16_lut(0, 0, 1, &in, &lo);
        ta_kernel_tanh_s16_lut(0, 0, 1, &in, &th);
        ta_kernel_tanh_s16_lut(0, 1, 1, &in, &tc);
        double r = v / 4096.0;
        int dl = abs(lo - (int)lround(32768.0 / (1.0 + exp(-r))));
        int dt = abs(th - (int)lround(32768.0 * tanh(r)));
        int dc = abs(tc - (int)lround(32768.0 * tanh(v / 2048.0)));
        wl = dl > wl ? dl : wl;
        wt = dt > wt ? dt : wt;
        wc = dc > wc ? dc : wc;
        mono &= lo >= prev_l && th >= prev_t;
        prev_l = lo;
        prev_t = th;
    }
    CHECK(mono);
    CHECK(wl <= 12 && wt <= 24 && wc <= 24);
}

/* A small LSTM against a float evaluation of the same quantised model. */
static void test_lstm(void) {
    enum { B = 2, T = 3, I = 4, S = 3 };
    const float xs = 0.05f, ws = 0.02f, hs = 1.0f / 128.0f, cs = 1.0f / 2048.0f;
    ta_lstm_params p = {.time_major = false, .batch = B, .time = T, .input_dim = I, .state_dim = S, .cell_act = TA_ACT_TANH};
    for (int g = 0; g < 4; g++) {
        ta_lstm_fc_prepare(&p.in_fc[g], xs, 0, ws, 0);
        ta_lstm_fc_prepare(&p.rec_fc[g], hs, 0, ws, 0);
    }
    CHECK(ta_lstm_cell_prepare(&p, cs, 10.0f, hs, 0) == TA_OK);
    CHECK(p.cell_scale_power == -11 && p.cell_clip == 20480);
    CHECK(ta_lstm_cell_prepare(&p, 0.0003f, 0.0f, hs, 0) == TA_E_UNSUPPORTED); /* not a power of two */
    CHECK(ta_lstm_cell_prepare(&p, cs, 10.0f, hs, 0) == TA_OK);
    CHECK(ta_kernel_lstm_scratch_bytes(&p) == 4 * 16);
    int8_t x[B * T * I], wi[4][S * I], wr[4][S * S], h[B * S] = {0}, out[B * T * S];
    int32_t bias[4][S];
    int16_t c[B * S] = {0};
    rnd_s8(x, sizeof x);
    for (int g = 0; g < 4; g++) {
        rnd_s8(wi[g], sizeof wi[g]);
        rnd_s8(wr[g], sizeof wr[g]);
        for (int k = 0; k < S; k++) bias[g][k] = rnd(-2000, 2000); /* scale xs * ws */
    }
    ta_lstm_tensors t = {.input = x, .hidden = h, .cell = c, .output = out};
    for (int g = 0; g < 4; g++) t.w_in[g] = wi[g], t.w_rec[g] = wr[g], t.bias[g] = bias[g];
    int16_t scratch[32];
    CHECK(ta_kernel_lstm_s8(&p, &t, scratch, sizeof scratch) == TA_OK);
    /* float reference on the dequantised model */
    int worst = 0;
    for (int b = 0; b < B; b++) {
        double hf[S] = {0}, cf[S] = {0};
        for (int s = 0; s < T; s++) {
            double gv[4][S];
            for (int g = 0; g < 4; g++)
                for (int k = 0; k < S; k++) {
                    double a = bias[g][k] * (double)xs * ws;
                    for (int d = 0; d < I; d++) a += xs * x[(b * T + s) * I + d] * ws * wi[g][k * I + d];
                    for (int d = 0; d < S; d++) a += hf[d] * ws * wr[g][k * S + d];
                    gv[g][k] = g == TA_LSTM_CELL ? tanh(a) : 1.0 / (1.0 + exp(-a));
                }
            for (int k = 0; k < S; k++) {
                cf[k] = gv[TA_LSTM_FORGET][k] * cf[k] + gv[TA_LSTM_INPUT][k] * gv[TA_LSTM_CELL][k];
                double hv = gv[TA_LSTM_OUTPUT][k] * tanh(cf[k]);
                long q = lround(hv / hs);
                q = q < -128 ? -128 : q > 127 ? 127 : q;
                hf[k] = (double)q * hs; /* the recurrence sees the int8 hidden state */
                int d = abs(out[(b * T + s) * S + k] - (int)q);
                worst = d > worst ? d : worst;
            }
        }
    }
    CHECK(worst <= 2);
    CHECK(ta_kernel_lstm_s8(&p, &t, scratch, 16) == TA_E_NO_MEMORY);
    /* time-major: the same sequence laid out [T, B, I] gives the same outputs */
    int8_t xt[T * B * I], ot[T * B * S], h2[B * S] = {0};
    int16_t c2[B * S] = {0};
    for (int b = 0; b < B; b++)
        for (int s = 0; s < T; s++) memcpy(xt + (s * B + b) * I, x + (b * T + s) * I, I);
    p.time_major = true;
    ta_lstm_tensors tt = t;
    tt.input = xt;
    tt.output = ot;
    tt.hidden = h2;
    tt.cell = c2;
    CHECK(ta_kernel_lstm_scratch_bytes(&p) == 4 * 16);
    CHECK(ta_kernel_lstm_s8(&p, &tt, scratch, sizeof scratch) == TA_OK);
    int same = 1;
    for (int b = 0; b < B; b++)
        for (int s = 0; s < T; s++) same &= memcmp(ot + (s * B + b) * S, out + (b * T + s) * S, S) == 0;
    CHECK(same);
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

/* ---- TFLM's signal library ------------------------------------------------ */

static void test_signal_math(void) {
    CHECK(ta_signal_msb32(0) == 32 && ta_signal_msb32(1) == 1 && ta_signal_msb32(3) == 2);
    CHECK(ta_signal_msb32(0x80000000u) == 32 && ta_signal_msb64((uint64_t)1 << 40) == 41 && ta_signal_msb64(0) == 64);
    /* square roots round to nearest: 2 -> 1 (1.41), 3 -> 2 (1.73), 24 -> 5 (4.90) */
    CHECK(ta_signal_sqrt32(0) == 0 && ta_signal_sqrt32(1) == 1 && ta_signal_sqrt32(2) == 1);
    CHECK(ta_signal_sqrt32(3) == 2 && ta_signal_sqrt32(24) == 5 && ta_signal_sqrt32(16) == 4);
    CHECK(ta_signal_sqrt32(0xFFFFFFFFu) == 0xFFFF); /* would round to 65536: capped */
    CHECK(ta_signal_sqrt64((uint64_t)1 << 40) == 1u << 20 && ta_signal_sqrt64((uint64_t)1 << 32) == 65536);
    CHECK(ta_signal_sqrt64(UINT64_MAX) == 0xFFFFFFFFu);
    /* property: r^2 - r < x <= r^2 + r (round to nearest), below the caps */
    uint64_t seed = 7;
    for (int i = 0; i < 20000; i++) {
        const uint64_t x = ta__rng_next(&seed) >> (ta__rng_next(&seed) % 64);
        const uint64_t r = ta_signal_sqrt64(x);
        if (r == 0xFFFFFFFFu) continue;
        CHECK(r * r + r >= x && (r == 0 || r * r - r < x));
    }
    /* log2 in Q16: exact at powers of two and at every table point, where
     * the fraction is 2^9 i plus the table's correction
     * round(2^16 log2(1 + i/128) - 2^9 i) */
    CHECK(ta_signal_log2_q16(1) == 0 && ta_signal_log2_q16(65536) == 16u << 16);
    int lut_ok = 1;
    for (uint32_t i = 0; i < 128; i++) {
        const double exact = 65536.0 * log2(1.0 + i / 128.0) - 512.0 * i;
        const uint32_t want = (16u << 16) + 512u * i + (uint32_t)floor(exact + 0.5);
        lut_ok &= ta_signal_log2_q16(65536u + 512u * i) == want;
    }
    CHECK(lut_ok);
    CHECK(ta_signal_log2_q16(3) == 103872); /* log2(3) = 1.58496 */
    /* natural log, scaled: ln(8) * 64 = 133.08, ln(65536) * 64 = 709.8 */
    CHECK(ta_signal_log32(8, 64) == 133 && ta_signal_log32(65536, 64) == 710 && ta_signal_log32(1000, 64) == 442);
    CHECK(ta_signal_log32(0xFFFFFFF8u, 64) == 1420);
    CHECK(ta_signal_log32(0xFFFFFFF8u, 2621440) == 18688); /* the uint32 product wraps, as TFLM's */
    for (uint32_t x = 2; x < 4000000; x = x * 3 / 2 + 1) CHECK(fabs(ta_signal_log32(x, 1024) - 1024.0 * log((double)x)) < 3.0);
}

static void test_signal_window_autoscale(void) {
    /* the product in int32, an arithmetic (flooring) shift, int16 saturation */
    const int16_t in[6] = {1000, -1000, 32767, -32768, 5, -5};
    const int16_t w[3] = {4096, 32767, 1};
    int16_t out[6];
    ta_signal_window_params p = {6, 3, 12};
    CHECK(ta_kernel_signal_window(&p, in, w, out) == TA_OK);
    /* 1000; -1000 * 32767 >> 12 = -7999.8 -> -8000; 32767 >> 12 = 7; -32768 * 4096 >> 12; 5 * 32767 >> 12 = 39;
     * -5 >> 12 = -1 */
    CHECK(out[0] == 1000 && out[1] == -8000 && out[2] == 7 && out[3] == -32768 && out[4] == 39 && out[5] == -1);
    p.shift = 0; /* saturation */
    const int16_t w1[3] = {2, 2, 2};
    CHECK(ta_kernel_signal_window(&p, in, w1, out) == TA_OK);
    CHECK(out[0] == 2000 && out[2] == 32767 && out[3] == -32768);
    p.window = 4; /* not whole frames */
    CHECK(ta_kernel_signal_window(&p, in, w, out) == TA_E_INVALID_ARG);

    /* auto scale: peak 200 has 8 bits, so 16 - 8 - 1 = 7 */
    const int16_t a[3] = {100, -200, 50};
    int16_t b[3];
    int32_t bits = -1;
    CHECK(ta_kernel_signal_fft_auto_scale(3, a, b, &bits) == TA_OK);
    CHECK(bits == 7 && b[0] == 12800 && b[1] == -25600 && b[2] == 6400);
    const int16_t z[2] = {0, 0};
    CHECK(ta_kernel_signal_fft_auto_scale(2, z, b, &bits) == TA_OK && bits == 0); /* msb(0) = 32 */
    /* TFLM's int16 maximum wraps at -32768; a later 5 then sets it: shift
     * 12, and -32768 * 4096 wraps to 0 */
    const int16_t m[2] = {-32768, 5};
    CHECK(ta_kernel_signal_fft_auto_scale(2, m, b, &bits) == TA_OK);
    CHECK(bits == 12 && b[0] == 0 && b[1] == 20480);
    CHECK(ta_kernel_signal_fft_auto_scale(1, m, b, &bits) == TA_OK && bits == 0 && b[0] == -32768);
}

static void test_signal_rfft(void) {
    /* kissfft's twiddles: floor(0.5 + 32767 cos), sin of -2 pi i / n */
    int16_t tw8[12];
    CHECK(ta_signal_rfft_table_count(8) == 12 && ta_signal_rfft_twiddles(8, tw8) == TA_OK);
    const int16_t want_tw8[12] = {32767, 0, 0, -32767, -32767, 0, 0, 32767, -23170, -23170, -32767, 0};
    CHECK(!memcmp(tw8, want_tw8, sizeof want_tw8));
    const size_t n512 = ta_signal_rfft_table_count(512);
    CHECK(n512 == 2 * (256 + 128));
    int16_t *tw = malloc(n512 * sizeof *tw);
    CHECK(ta_signal_rfft_twiddles(512, tw) == TA_OK);
    CHECK(tw[64] == 23170 && tw[65] == -23170); /* e^(-i pi / 4) */
    CHECK(ta_signal_rfft_table_count(12) == 0 && ta_signal_rfft_table_count(2) == 0 && ta_signal_rfft_table_count(7) == 0);

    /* an impulse: every bin is the amplitude / N (radix 4, and 4 x 2) */
    int16_t in[16], out[20];
    memset(in, 0, sizeof in);
    in[0] = 16384;
    ta_signal_rfft_params p = {8, 8, 1, tw8};
    CHECK(ta_kernel_signal_rfft_s16(&p, in, out) == TA_OK);
    int flat = 1;
    for (int k = 0; k < 5; k++) flat &= out[2 * k] == 2048 && out[2 * k + 1] == 0;
    CHECK(flat);
    int16_t tw16[24];
    CHECK(ta_signal_rfft_twiddles(16, tw16) == TA_OK);
    const ta_signal_rfft_params p16 = {16, 16, 1, tw16};
    CHECK(ta_kernel_signal_rfft_s16(&p16, in, out) == TA_OK);
    flat = 1;
    for (int k = 0; k < 9; k++) flat &= out[2 * k] == 1024 && out[2 * k + 1] == 0;
    CHECK(flat);
    /* a cosine at bin 1 (16384 cos(2 pi t / 8)): 16384 / 2 less kissfft's
     * rounding, in bin 1; the rounding residue -1 in bin 3 */
    const int16_t cs[8] = {16384, 11585, 0, -11585, -16384, -11585, 0, 11585};
    CHECK(ta_kernel_signal_rfft_s16(&p, cs, out) == TA_OK);
    const int16_t want_cs[10] = {0, 0, 8190, 0, 0, 0, -1, 0, 0, 0};
    CHECK(!memcmp(out, want_cs, sizeof want_cs));
    /* zero padding is read, not copied: 6 samples padded to 8 equal 8 with zeros */
    int16_t out2[10];
    const int16_t cs6[8] = {16384, 11585, 0, -11585, -16384, -11585, 0, 0};
    p.input_length = 6;
    CHECK(ta_kernel_signal_rfft_s16(&p, cs, out) == TA_OK);
    p.input_length = 8;
    CHECK(ta_kernel_signal_rfft_s16(&p, cs6, out2) == TA_OK && !memcmp(out, out2, sizeof out2));
    /* two frames of 4 samples: each its own transform */
    p.input_length = 4;
    p.frames = 2;
    const int16_t fr[8] = {16384, 0, 0, 0, 16384, 0, 0, 0};
    CHECK(ta_kernel_signal_rfft_s16(&p, fr, out) == TA_OK && !memcmp(out, out + 10, 10 * sizeof *out) && out[0] == 2048);
    p.fft_length = 12;
    CHECK(ta_kernel_signal_rfft_s16(&p, fr, out) == TA_E_UNSUPPORTED);
    free(tw);
}

static void test_signal_energy_filter_bank(void) {
    /* energy: re^2 + im^2 in [start, end), 0 elsewhere; (-2^15)^2 * 2 = 2^31 */
    const int16_t c[8] = {3, 4, -32768, -32768, 100, 0, 1, 1};
    uint32_t e[4] = {9, 9, 9, 9};
    const ta_signal_energy_params ep = {4, 1, 3};
    CHECK(ta_kernel_signal_energy(&ep, c, e) == TA_OK);
    CHECK(e[0] == 0 && e[1] == 2147483648u && e[2] == 10000 && e[3] == 0);

    /* filter bank: channel i gets weights * bins of band i plus unweights *
     * bins of band i - 1; the first band only feeds channel 1 */
    const uint32_t in[4] = {10, 20, 30, 40};
    const int16_t wt[4] = {100, 200, 300, 400}, uw[4] = {1, 2, 3, 4};
    const int16_t fs[3] = {0, 1, 2}, ws[3] = {0, 1, 2}, wd[3] = {1, 1, 2};
    ta_signal_filter_bank_tables t = {wt, uw, fs, ws, wd};
    const ta_signal_filter_bank_params fp = {2, 4, 4};
    uint64_t out[2] = {0, 0};
    CHECK(ta_kernel_signal_filter_bank(&fp, &t, in, out) == TA_OK);
    CHECK(out[0] == 10 + 200 * 20 && out[1] == 2 * 20 + 300 * 30 + 400 * 40);
    /* a negative weight is taken modulo 2^64, as TFLM's int16 * uint64 */
    const int16_t neg[4] = {-1, 200, 300, 400};
    t.weights = neg;
    const int16_t wd1[3] = {1, 0, 0};
    t.widths = wd1;
    const ta_signal_filter_bank_params f1 = {1, 4, 4};
    uint64_t o1[1];
    CHECK(ta_kernel_signal_filter_bank(&f1, &t, in, o1) == TA_OK && o1[0] == 10); /* channel 0 (dropped) was -10 */
    const ta_signal_filter_bank_params f0 = {0, 4, 4};
    CHECK(ta_kernel_signal_filter_bank(&f0, &t, in, o1) == TA_OK);
    /* a band past the input or the weights is refused before anything is written */
    const int16_t far[3] = {0, 1, 3}, wide[3] = {1, 1, 2};
    t.weights = wt;
    t.freq_starts = far;
    t.widths = wide;
    out[0] = 77;
    CHECK(ta_kernel_signal_filter_bank(&fp, &t, in, out) == TA_E_INVALID_ARG && out[0] == 77);
    CHECK(ta_signal_filter_bank_check(&fp, &t) == TA_E_INVALID_ARG);

    /* square root, scaled down by the auto-scale bits (count modulo 32) */
    const uint64_t sq[4] = {0, (uint64_t)1 << 40, 17, UINT64_MAX};
    uint32_t so[4];
    CHECK(ta_kernel_signal_filter_bank_sqrt(4, sq, 2, so) == TA_OK);
    CHECK(so[0] == 0 && so[1] == 1u << 18 && so[2] == 1 && so[3] == 0x3FFFFFFFu);
    CHECK(ta_kernel_signal_filter_bank_sqrt(4, sq, 33, so) == TA_OK && so[1] == 1u << 19);
}

static void test_signal_noise(void) {
    /* spectral subtraction, two channels (odd: the alternate coefficients) */
    ta_signal_spectral_subtraction_params p = {2, 1024, 15360, 2048, 14336, 819, 10, 14, false};
    uint32_t state[2] = {0, 0}, out[2], noise[2];
    const uint32_t in1[2] = {1000, 50};
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in1, out, noise, state) == TA_OK);
    /* s = 1000 << 10; noise = s * 1024 >> 14 = 64000; (s - 64000) >> 10 = 937 (floor 49) */
    CHECK(state[0] == 64000 && state[1] == 6400 && out[0] == 937 && out[1] == 43);
    CHECK(noise[0] == 64000 && noise[1] == 6400);
    const uint32_t in2[2] = {0, 50};
    uint32_t st2[2] = {64000, 6400};
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in2, out, noise, state) == TA_OK);
    /* the estimate (60000) exceeds the signal (0): nothing subtracted, and
     * without clamping the estimate stays */
    CHECK(state[0] == 60000 && state[1] == 12000 && out[0] == 0 && out[1] == 38);
    p.clamping = true;
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in2, out, noise, st2) == TA_OK && st2[0] == 0 && noise[0] == 0);
    p.spectral_subtraction_bits = 64;
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in2, out, noise, st2) == TA_E_INVALID_ARG);

    /* PCAN with the start of micro_speech's gain table */
    int16_t lut[125];
    memset(lut, 0, sizeof lut);
    const int16_t head[8] = {32636, 32633, 32630, -6, 0, 0, 32624, -12};
    memcpy(lut, head, sizeof head);
    const ta_signal_pcan_params pp = {3, 6, 125};
    const uint32_t x[3] = {10, 1000, 1}, nz[3] = {0, 3, 1};
    uint32_t y[3];
    CHECK(ta_kernel_signal_pcan(&pp, x, nz, lut, y) == TA_OK);
    /* noise 0: gain lut[0]; snr = 10 * 32636 >> 6 = 5099 < 2^13: 5099^2 >> 20 = 24 */
    CHECK(y[0] == 24);
    /* noise 3 (msb 2): lut[2..4], frac 512: ((0 - 6 * 32) * 512 + 2^14) >> 15 = -3, gain 32627;
     * snr = 509796 >= 2^13: (509796 >> 6) - 64 = 7901 */
    CHECK(y[1] == 7901);
    CHECK(y[2] == ((1u * 32633u >> 6) * (1u * 32633u >> 6)) >> 20);
    lut[1] = -1; /* a negative gain is taken as uint32 */
    CHECK(ta_kernel_signal_pcan(&pp, x, nz, lut, y) == TA_OK && y[2] == (0xFFFFFFFFu >> 6 >> 6) - 64);
    const ta_signal_pcan_params small = {3, 6, 124};
    CHECK(ta_kernel_signal_pcan(&small, x, nz, lut, y) == TA_E_INVALID_ARG);

    /* filter bank log: x << 3, then ln x * 64, 0 for x <= 1, at most 32767 */
    const uint32_t li[4] = {0, 1, 8192, 0xFFFFFFFFu};
    int16_t lo[4];
    ta_signal_filter_bank_log_params lp = {4, 3, 64};
    CHECK(ta_kernel_signal_filter_bank_log(&lp, li, lo) == TA_OK);
    CHECK(lo[0] == 0 && lo[1] == 133 && lo[2] == 710 && lo[3] == 1420);
    lp.input_correction_bits = 0;
    lp.output_scale = 4096; /* ln(65536) * 4096 = 45426: saturates */
    const uint32_t big[4] = {65536, 1, 0, 2};
    CHECK(ta_kernel_signal_filter_bank_log(&lp, big, lo) == TA_OK && lo[0] == 32767 && lo[1] == 0 && lo[3] > 0);
}

int main(void) {
    test_quantize_multiplier();
    test_fixed_point();
    test_activation_range();
    test_multiplier_derivation();
    test_padding();
    test_conv_golden();
    test_conv_vs_fc();
    test_conv_padding_property();
    test_depthwise_vs_grouped_conv();
    test_fc_golden();
    test_add();
    test_sub_mul();
    test_pooling();
    test_mean();
    test_softmax();
    test_logistic_tanh();
    test_quantize();
    test_data_movement();
    test_int16_binary_quantize();
    test_conv_s16();
    test_transpose_conv();
    test_leaky_relu_hard_swish();
    test_batch_matmul();
    test_svdf();
    test_s16_lut();
    test_lstm();
    test_int32_arith();
    test_cast();
    test_signal_math();
    test_signal_window_autoscale();
    test_signal_rfft();
    test_signal_energy_filter_bank();
    test_signal_noise();
    return ta_test_finish("test_kernels");
}
