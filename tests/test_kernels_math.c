/* Kernels of issue #18 part A (elementwise.c, compare.c, l2_norm.c,
 * log_softmax.c) on their own: what the golden single-op cases
 * (test_op_cases) do not reach.
 *  - RELU_N1_TO_1 float32, which TFLM has no kernel for, against its float
 *    definition min(max(x, -1), 1) over a sweep that includes -0, +-inf and
 *    the clamp edges;
 *  - ROUND's ties to even, FLOOR_MOD's sign rule, IEEE comparisons (NaN);
 *  - the fixed-point inverse square root against 1/sqrt in double;
 *  - plain int16 ABS at -32768, quantised RELU6 ignoring the output scale,
 *    RSQRT refusing a value below the zero point before writing anything;
 *  - three-way SELECT_V2 broadcasting against an index computation;
 *  - int64 and bool comparisons and int32 SQUARED_DIFFERENCE, which TFLM
 *    runs but no golden case covers;
 *  - every kernel refuses NULL pointers and out-of-range params
 *    (TA_E_INVALID_ARG), never reading them. */
#include <math.h>
#include <string.h>

#include "kernel_test.h"
#include "testutil.h"
#include "tinyarena/kernels.h"

static void test_relu_n1_to_1_f32(void) {
    float in[64], out[64];
    const float edges[] = {-INFINITY, -1e30f, -1.0000001f, -1.0f, -0.9999999f, -0.5f, -0.0f, 0.0f,
                           1e-40f,    0.5f,   0.9999999f,  1.0f,  1.0000001f,  3.0f,  1e30f, INFINITY};
    size_t n = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) in[n++] = edges[i];
    while (n < 64) in[n++] = (float)rnd(-3000, 3000) / 1000.0f;
    CHECK(ta_kernel_unary_f32(TA_UNARY_RELU_N1_TO_1, n, in, out) == TA_OK);
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        const float ref = fminf(fmaxf(in[i], -1.0f), 1.0f);
        same &= memcmp(&ref, &out[i], sizeof ref) == 0 || (ref == 0.0f && out[i] == 0.0f);
    }
    CHECK(same);
    /* in place */
    CHECK(ta_kernel_unary_f32(TA_UNARY_RELU_N1_TO_1, n, in, in) == TA_OK);
    CHECK(memcmp(in, out, sizeof out) == 0);
}

static void test_float_math(void) {
    const float x[] = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 2.4f, -2.6f, 8388608.5f - 0.5f};
    const float want[] = {-2.0f, -2.0f, -0.0f, 0.0f, 2.0f, 2.0f, 2.0f, -3.0f, 8388608.0f};
    float y[9];
    CHECK(ta_kernel_unary_f32(TA_UNARY_ROUND, 9, x, y) == TA_OK);
    for (int i = 0; i < 9; i++) CHECK(y[i] == want[i]);
    CHECK(ta_kernel_unary_f32(TA_UNARY_COUNT, 1, x, y) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_unary_f32(TA_UNARY_EXP, 1, NULL, y) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_unary_f32(TA_UNARY_EXP, 0, NULL, NULL) == TA_OK);

    /* FLOOR_MOD takes the divisor's sign; FLOOR_DIV rounds down */
    ta_broadcast b;
    const int32_t s4[] = {4}, s1[] = {1};
    CHECK(ta_broadcast_init(&b, s4, 1, s1, 1) == TA_OK);
    const float a[] = {7.0f, -7.0f, 6.0f, -0.5f}, d[] = {-3.0f};
    float m[4], q[4];
    CHECK(ta_kernel_floor_div_mod_f32(&b, 1, a, d, m) == TA_OK);
    CHECK(ta_kernel_floor_div_mod_f32(&b, 0, a, d, q) == TA_OK);
    CHECK(m[0] == -2.0f && m[1] == -1.0f && m[2] == 0.0f && m[3] == -0.5f);
    CHECK(q[0] == -3.0f && q[1] == 2.0f && q[2] == -2.0f && q[3] == 0.0f);
    CHECK(ta_kernel_floor_div_mod_f32(NULL, 1, a, d, m) == TA_E_INVALID_ARG);

    /* comparisons stay IEEE: NaN is unequal to itself, neither < nor > */
    ta_compare_params cp;
    memset(&cp, 0, sizeof cp);
    CHECK(ta_broadcast_init(&cp.shape, s1, 1, s1, 1) == TA_OK);
    const float nan = NAN;
    const int want_nan[] = {0, 1, 0, 0, 0, 0};
    for (int fn = TA_CMP_EQUAL; fn <= TA_CMP_LESS_EQUAL; fn++) {
        uint8_t r = 7;
        cp.fn = fn;
        CHECK(ta_kernel_compare(&cp, TA_DTYPE_FLOAT32, &nan, &nan, &r) == TA_OK && r == want_nan[fn]);
    }
    cp.fn = TA_CMP_GREATER;
    uint8_t r;
    const uint8_t t = 1, f = 0;
    CHECK(ta_kernel_compare(&cp, TA_DTYPE_BOOL, &t, &f, &r) == TA_E_UNSUPPORTED);
    cp.fn = 99;
    CHECK(ta_kernel_compare(&cp, TA_DTYPE_FLOAT32, &nan, &nan, &r) == TA_E_INVALID_ARG);
}

static void test_inv_sqrt(void) {
    /* multiplier * 2^shift (reverse shift: a left shift) ~ 2^31 / sqrt(x); five
     * Newton-Raphson steps in Q3.28 give about 17 bits */
    int32_t m, s;
    ta_inv_sqrt_multiplier(0, -1, &m, &s);
    CHECK(m == INT32_MAX && s == 0);
    ta_inv_sqrt_multiplier(1, -1, &m, &s);
    CHECK(m == INT32_MAX && s == 0);
    int ok = 1;
    for (int i = 0; i < 2000; i++) {
        const int32_t x = i < 1000 ? 2 + i : rnd(2, INT32_MAX);
        ta_inv_sqrt_multiplier(x, -1, &m, &s);
        const double got = (double)m * pow(2.0, s) / 2147483648.0, want = 1.0 / sqrt((double)x);
        if (!(m > 0 && fabs(got - want) <= want * 1e-5)) {
            ok = 0;
            fprintf(stderr, "inv_sqrt(%d): %.9g, want %.9g\n", x, got, want);
            break;
        }
    }
    CHECK(ok);
}

static void test_quantised(void) {
    /* plain int16 ABS wraps -32768 as TFLM's cast does */
    const int16_t in16[] = {-32768, -32767, -1, 0, 32767};
    int16_t out16[5];
    CHECK(ta_kernel_abs_s16_plain(5, in16, out16) == TA_OK);
    CHECK(out16[0] == -32768 && out16[1] == 32767 && out16[2] == 1 && out16[3] == 0 && out16[4] == 32767);

    /* RELU6 int8 clamps in the input's quantisation whatever the output's */
    ta_unary_q_params q, q2;
    CHECK(ta_relu_prepare(&q, TA_ACT_RELU6, TA_DTYPE_INT8, 0.05f, -3, 0.5f, 100) == TA_OK);
    CHECK(ta_relu_prepare(&q2, TA_ACT_RELU6, TA_DTYPE_INT8, 0.05f, -3, 0.01f, -128) == TA_OK);
    CHECK(q.act_min == -3 && q.act_max == 117 && !q.rescale);
    CHECK(q2.act_min == q.act_min && q2.act_max == q.act_max && !q2.rescale);
    const int8_t x8[] = {-128, -4, -3, 0, 117, 118, 127};
    int8_t y8[7], y8b[7];
    CHECK(ta_kernel_relu_s8(&q, 7, x8, y8) == TA_OK);
    CHECK(ta_kernel_relu_s8(&q2, 7, x8, y8b) == TA_OK && memcmp(y8, y8b, 7) == 0);
    CHECK(y8[0] == -3 && y8[1] == -3 && y8[2] == -3 && y8[3] == 0 && y8[4] == 117 && y8[5] == 117 && y8[6] == 117);
    CHECK(ta_relu_prepare(&q, TA_ACT_RELU6, TA_DTYPE_INT32, 0.05f, 0, 0.05f, 0) == TA_E_UNSUPPORTED);
    CHECK(ta_relu_prepare(&q, TA_ACT_RELU, TA_DTYPE_INT8, 0.0f, 0, 0.05f, 0) == TA_E_UNSUPPORTED);

    /* RSQRT: a value below the zero point fails before any output byte */
    CHECK(ta_rsqrt_prepare(&q, 0.05f, -3, 0.02f, -128) == TA_OK);
    const int8_t r8[] = {10, 20, -4};
    int8_t o8[3] = {55, 55, 55};
    CHECK(ta_kernel_rsqrt_s8(&q, 3, r8, o8) == TA_E_UNSUPPORTED);
    CHECK(o8[0] == 55 && o8[1] == 55 && o8[2] == 55);
    /* at the zero point: the type's max */
    const int8_t z8 = -3;
    CHECK(ta_kernel_rsqrt_s8(&q, 1, &z8, o8) == TA_OK && o8[0] == 127);
    q.shift = 40; /* a corrupted record */
    CHECK(ta_kernel_rsqrt_s8(&q, 1, &z8, o8) == TA_E_INVALID_ARG);

    /* ELU table: monotone, and 0 maps to the output zero point */
    int8_t table[256];
    CHECK(ta_elu_table_s8(0.05f, -3, 0.035f, -99, table) == TA_OK);
    CHECK(table[(uint8_t)(int8_t)-3] == -99);
    int mono = 1;
    for (int v = -127; v <= 127; v++) mono &= table[(uint8_t)(int8_t)v] >= table[(uint8_t)(int8_t)(v - 1)];
    CHECK(mono);
    CHECK(ta_elu_table_s8(0.0f, 0, 1.0f, 0, table) == TA_E_UNSUPPORTED);
    CHECK(ta_kernel_lut_s8(NULL, 1, x8, y8) == TA_E_INVALID_ARG);

    /* int8 comparisons need scales below one (TFLM's multiplier split) */
    ta_compare_params cp;
    CHECK(ta_compare_prepare_s8(&cp, 1.5f, 0, 0.1f, 0) == TA_E_UNSUPPORTED);
    CHECK(ta_compare_prepare_s8(&cp, 0.05f, -3, 0.1f, 4) == TA_OK);
    /* L2 norm: an all-zero row gives zeros (no epsilon needed) */
    ta_l2norm_params lp = {1, 4, 5};
    const int8_t zr[4] = {5, 5, 5, 5};
    int8_t zo[4] = {1, 1, 1, 1};
    CHECK(ta_kernel_l2norm_s8(&lp, zr, zo) == TA_OK && zo[0] == 0 && zo[3] == 0);
    lp.depth = 40000;
    CHECK(ta_kernel_l2norm_s8(&lp, zr, zo) == TA_E_INVALID_ARG);
    ta_log_softmax_params ls = {1, 4, 0, 0, 0, 0, 0};
    CHECK(ta_log_softmax_prepare_s8(&ls, 0.0f) == TA_E_UNSUPPORTED);
    ls.input_left_shift = 40;
    CHECK(ta_kernel_log_softmax_s8(&ls, zr, zo) == TA_E_INVALID_ARG);
}

static void test_select(void) {
    /* cond [2,1,3], x [2,2,1], y [3] -> out [2,2,3] */
    ta_select_params p;
    memset(&p, 0, sizeof p);
    p.rank = 3;
    const int32_t c[3] = {2, 1, 3}, x[3] = {2, 2, 1}, y[3] = {1, 1, 3}, o[3] = {2, 2, 3};
    memcpy(p.cond, c, sizeof c);
    memcpy(p.x, x, sizeof x);
    memcpy(p.y, y, sizeof y);
    memcpy(p.out, o, sizeof o);
    uint8_t cond[6];
    int16_t xs[4], ys[3], out[12];
    for (int i = 0; i < 6; i++) cond[i] = (uint8_t)rnd(0, 1);
    for (int i = 0; i < 4; i++) xs[i] = (int16_t)rnd(-1000, 1000);
    for (int i = 0; i < 3; i++) ys[i] = (int16_t)rnd(-1000, 1000);
    CHECK(ta_kernel_select(&p, 2, cond, xs, ys, out) == TA_OK);
    int ok = 1;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++) {
                const int16_t want = cond[i * 3 + k] ? xs[i * 2 + j] : ys[k];
                ok &= out[(i * 2 + j) * 3 + k] == want;
            }
    CHECK(ok);
    CHECK(ta_kernel_select(&p, 3, cond, xs, ys, out) == TA_E_INVALID_ARG);
    p.x[0] = 3; /* does not broadcast to 2 */
    CHECK(ta_kernel_select(&p, 2, cond, xs, ys, out) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_select(NULL, 2, cond, xs, ys, out) == TA_E_INVALID_ARG);
    /* LOGICAL_*: nonzero bytes read as true, results 0/1 */
    const uint8_t la[2] = {0, 7}, lb[1] = {2};
    uint8_t lo[2];
    ta_broadcast b;
    const int32_t s2[] = {2}, s1[] = {1};
    CHECK(ta_broadcast_init(&b, s2, 1, s1, 1) == TA_OK);
    CHECK(ta_kernel_logical(&b, 0, la, lb, lo) == TA_OK && lo[0] == 0 && lo[1] == 1);
    CHECK(ta_kernel_logical(&b, 1, la, lb, lo) == TA_OK && lo[0] == 1 && lo[1] == 1);
    CHECK(ta_kernel_logical_not(2, la, lo) == TA_OK && lo[0] == 1 && lo[1] == 0);
}

/* Types TFLM runs that no golden case has: int64 and bool comparisons (an
 * int64 operand only 4-aligned, as a model constant may be), int32
 * SQUARED_DIFFERENCE (wrapping) -- against plain C on the same values. */
static void test_other_types(void) {
    enum { N = 24 };
    ta_compare_params cp;
    memset(&cp, 0, sizeof cp);
    const int32_t s[2] = {4, 6}, s1[2] = {1, 6};
    CHECK(ta_broadcast_init(&cp.shape, s, 2, s1, 2) == TA_OK);
    _Alignas(8) unsigned char raw[8 * N + 4];
    int64_t a[N], b[6];
    for (int i = 0; i < N; i++) a[i] = (int64_t)rnd(-5, 5) * ((int64_t)1 << 40) + rnd(-2, 2);
    for (int i = 0; i < 6; i++) b[i] = (int64_t)rnd(-5, 5) * ((int64_t)1 << 40);
    memcpy(raw + 4, a, sizeof a); /* 4 mod 8 */
    int ok = 1;
    for (int fn = TA_CMP_EQUAL; fn <= TA_CMP_LESS_EQUAL; fn++) {
        uint8_t out[N];
        cp.fn = fn;
        CHECK(ta_kernel_compare(&cp, TA_DTYPE_INT64, raw + 4, b, out) == TA_OK);
        for (int i = 0; i < N; i++) {
            const int64_t x = a[i], y = b[i % 6];
            const int want = fn == TA_CMP_EQUAL           ? x == y
                             : fn == TA_CMP_NOT_EQUAL     ? x != y
                             : fn == TA_CMP_GREATER       ? x > y
                             : fn == TA_CMP_GREATER_EQUAL ? x >= y
                             : fn == TA_CMP_LESS          ? x < y
                                                          : x <= y;
            ok &= out[i] == want;
        }
    }
    CHECK(ok);
    uint8_t ba[N], bb[6], bo[N];
    for (int i = 0; i < N; i++) ba[i] = (uint8_t)rnd(0, 2); /* 2: a nonzero byte reads as true */
    for (int i = 0; i < 6; i++) bb[i] = (uint8_t)rnd(0, 1);
    cp.fn = TA_CMP_EQUAL;
    CHECK(ta_kernel_compare(&cp, TA_DTYPE_BOOL, ba, bb, bo) == TA_OK);
    ok = 1;
    for (int i = 0; i < N; i++) ok &= bo[i] == ((ba[i] != 0) == (bb[i % 6] != 0));
    CHECK(ok);

    ta_sqdiff_params sq;
    memset(&sq, 0, sizeof sq);
    CHECK(ta_broadcast_init(&sq.shape, s, 2, s1, 2) == TA_OK);
    int32_t x[N], y[6], o[N];
    for (int i = 0; i < N; i++) x[i] = i == 0 ? INT32_MIN : rnd(-100000, 100000);
    for (int i = 0; i < 6; i++) y[i] = i == 0 ? INT32_MAX : rnd(-100000, 100000);
    CHECK(ta_kernel_sqdiff(&sq, TA_DTYPE_INT32, x, y, o) == TA_OK);
    ok = 1;
    for (int i = 0; i < N; i++) {
        const uint32_t d = (uint32_t)x[i] - (uint32_t)y[i % 6];
        ok &= o[i] == (int32_t)(d * d);
    }
    CHECK(ok);
    CHECK(ta_kernel_sqdiff(&sq, TA_DTYPE_UINT8, x, y, o) == TA_E_UNSUPPORTED);
}

int main(void) {
    test_relu_n1_to_1_f32();
    test_other_types();
    test_float_math();
    test_inv_sqrt();
    test_quantised();
    test_select();
    return ta_test_finish("test_kernels_math");
}
