/* Kernels: hand-checked golden cases per op, rounding edge cases, and seeded
 * property tests (1x1 conv == FC, depthwise == grouped conv, padding ==
 * explicit pad + VALID, fixed-point helpers vs exact integer formulations). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
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
    return ta_test_finish("test_kernels");
}
