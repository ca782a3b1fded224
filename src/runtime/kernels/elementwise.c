/*
 * Elementwise unary kernels: the float32 math functions, the quantised RELU
 * family, ABS and RSQRT, the ELU lookup table and LOGICAL_NOT -- TFLM's
 * activations, elementwise, neg, round, floor, ceil and elu kernels.
 *
 * float32: each element goes through the same float function of the C
 * library TFLM's C++ calls (std::exp(float) is expf, and so on), so results
 * are bit-identical wherever the two builds share a libm.  ROUND is spelled
 * out (floor, then ties to even) rather than rintf: it must not depend on
 * the current rounding mode.
 *
 * Quantised steps are in each prepare's and kernel's comment; TFLM's
 * quirks kept on purpose are named where they happen.
 */
#include <math.h>
#include <string.h>

#include "runtime/kernels/fixedpoint.h"

static float round_half_even(float v) {
    const float f = floorf(v);
    const float diff = v - f;
    if (diff < 0.5f) return f;
    if (diff > 0.5f) return f + 1.0f;
    /* a tie: the even neighbour.  fmodf keeps this exact for every float
     * (floats of magnitude >= 2^23 have no fraction, so never get here). */
    return fmodf(f, 2.0f) == 0.0f ? f : f + 1.0f;
}

ta_status ta_kernel_unary_f32(ta_unary_fn fn, size_t n, const float *input, float *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    if ((unsigned)fn >= TA_UNARY_COUNT) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        const float x = input[i];
        float y;
        switch (fn) {
            case TA_UNARY_ABS: y = fabsf(x); break;
            case TA_UNARY_NEG: y = -x; break;
            case TA_UNARY_EXP: y = expf(x); break;
            case TA_UNARY_LOG: y = logf(x); break;
            case TA_UNARY_SQRT: y = sqrtf(x); break;
            case TA_UNARY_RSQRT: y = 1.0f / sqrtf(x); break;
            case TA_UNARY_SQUARE: y = x * x; break;
            case TA_UNARY_FLOOR: y = floorf(x); break;
            case TA_UNARY_CEIL: y = ceilf(x); break;
            case TA_UNARY_ROUND: y = round_half_even(x); break;
            case TA_UNARY_SIN: y = sinf(x); break;
            case TA_UNARY_COS: y = cosf(x); break;
            /* the RELUs compare as TFLM does, so NaN passes through the same way */
            case TA_UNARY_RELU: y = x < 0.0f ? 0.0f : x; break;
            case TA_UNARY_RELU6: y = x > 6.0f ? 6.0f : x < 0.0f ? 0.0f : x; break;
            case TA_UNARY_RELU_N1_TO_1: y = x > 1.0f ? 1.0f : x < -1.0f ? -1.0f : x; break;
            case TA_UNARY_ELU: y = x < 0.0f ? expm1f(x) : x; break;
            default: return TA_E_INVALID_ARG;
        }
        output[i] = y;
    }
    return TA_OK;
}

/* ---- quantised RELU family ---------------------------------------------- */

static int32_t type_min(ta_dtype t) { return t == TA_DTYPE_INT8 ? -128 : -32768; }
static int32_t type_max(ta_dtype t) { return t == TA_DTYPE_INT8 ? 127 : 32767; }

ta_status ta_relu_prepare(ta_unary_q_params *p, ta_activation act, ta_dtype type, float in_scale, int32_t in_zp,
                          float out_scale, int32_t out_zp) {
    if (!p) return TA_E_INVALID_ARG;
    memset(p, 0, sizeof *p);
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_UNSUPPORTED;
    if (!(in_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    const int32_t lo = type_min(type), hi = type_max(type);
    p->input_zp = in_zp;
    p->output_zp = out_zp;
    if (act == TA_ACT_RELU6) {
        /* TFLM's Relu6 clamps x to [zp_in, q(6)] in the input's own
         * quantisation and copies: the output's scale and zero point are
         * never looked at (the manifest's RELU6 *_diffq cases prove it). */
        const float six = roundf(6.0f / in_scale) + (float)in_zp;
        int32_t s = !(six < (float)hi) ? hi : !(six > (float)lo) ? lo : (int32_t)six;
        p->act_min = in_zp;
        p->act_max = s;
        p->rescale = 0;
        return TA_OK;
    }
    if (act != TA_ACT_RELU && act != TA_ACT_RELU_N1_TO_1) return TA_E_UNSUPPORTED;
    /* the ratio in float, widened (TFLM's CalculateReluOpData) */
    ta_quant_multiplier((double)(in_scale / out_scale), &p->mult, &p->shift);
    if (p->shift > 30 || p->shift < -31) return TA_E_UNSUPPORTED;
    const float fmin = act == TA_ACT_RELU ? 0.0f : -1.0f;
    const float qmin = (float)out_zp + roundf(fmin / out_scale);
    p->act_min = qmin < (float)lo ? lo : qmin > (float)hi ? hi : (int32_t)qmin;
    if (act == TA_ACT_RELU) {
        p->act_max = hi;
    } else {
        const float qmax = (float)out_zp + roundf(1.0f / out_scale);
        p->act_max = qmax > (float)hi ? hi : qmax < (float)lo ? lo : (int32_t)qmax;
    }
    p->rescale = 1;
    return TA_OK;
}

static int check_q(const ta_unary_q_params *p, size_t n, const void *in, const void *out) {
    return p && (!n || (in && out)) && p->shift >= -31 && p->shift <= 30 && p->act_min <= p->act_max;
}

static int32_t relu_q(const ta_unary_q_params *p, int32_t x) {
    int32_t v = x;
    if (p->rescale) v = ta__wadd(p->output_zp, ta_q_mul(ta__wsub(x, p->input_zp), p->mult, p->shift));
    return v < p->act_min ? p->act_min : v > p->act_max ? p->act_max : v;
}

ta_status ta_kernel_relu_s8(const ta_unary_q_params *p, size_t n, const int8_t *input, int8_t *output) {
    if (!check_q(p, n, input, output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = (int8_t)relu_q(p, input[i]);
    return TA_OK;
}

ta_status ta_kernel_relu_s16(const ta_unary_q_params *p, size_t n, const int16_t *input, int16_t *output) {
    if (!check_q(p, n, input, output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = (int16_t)relu_q(p, input[i]);
    return TA_OK;
}

/* ---- ABS ----------------------------------------------------------------- */

ta_status ta_abs_prepare(ta_unary_q_params *p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
    if (!p) return TA_E_INVALID_ARG;
    memset(p, 0, sizeof *p);
    p->input_zp = in_zp;
    p->output_zp = out_zp;
    p->act_min = INT32_MIN; /* the kernel clamps to its type */
    p->act_max = INT32_MAX;
    /* TFLM rescales only when the scales differ -- a zero-point change alone
     * is a plain shift */
    p->rescale = in_scale != out_scale;
    if (!p->rescale) return TA_OK;
    if (!(in_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    ta_quant_multiplier((double)(in_scale / out_scale), &p->mult, &p->shift);
    return p->shift > 30 || p->shift < -31 ? TA_E_UNSUPPORTED : TA_OK;
}

static int32_t abs_q(const ta_unary_q_params *p, int32_t x, int32_t lo, int32_t hi) {
    /* x and zp fit 16 bits (prepare's operand checks): no overflow */
    int32_t v = x - p->input_zp;
    v = v < 0 ? -v : v;
    if (p->rescale) v = ta_q_mul(v, p->mult, p->shift);
    v = ta__wadd(v, p->output_zp);
    return v < lo ? lo : v > hi ? hi : v;
}

ta_status ta_kernel_abs_s8(const ta_unary_q_params *p, size_t n, const int8_t *input, int8_t *output) {
    if (!check_q(p, n, input, output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = (int8_t)abs_q(p, input[i], -128, 127);
    return TA_OK;
}

ta_status ta_kernel_abs_s16(const ta_unary_q_params *p, size_t n, const int16_t *input, int16_t *output) {
    if (!check_q(p, n, input, output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = (int16_t)abs_q(p, input[i], -32768, 32767);
    return TA_OK;
}

ta_status ta_kernel_abs_s16_plain(size_t n, const int16_t *input, int16_t *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        const int32_t v = input[i] < 0 ? -(int32_t)input[i] : input[i];
        output[i] = (int16_t)(uint16_t)(uint32_t)v; /* 32768 wraps to -32768 */
    }
    return TA_OK;
}

/* ---- RSQRT and the fixed-point inverse square root ----------------------- */

void ta_inv_sqrt_multiplier(int32_t x, int reverse_shift, int32_t *mult, int32_t *shift) {
    if (x <= 1) {
        /* 1 would overflow the iteration below and 0 has no inverse: both
         * give the largest multiplier, as TFLM */
        *mult = INT32_MAX;
        *shift = 0;
        return;
    }
    int32_t s = 11;
    while (x >= (1 << 29)) {
        x /= 4;
        s++;
    }
    /* normalise x into [2^27, 2^29) by an even shift, so that the square
     * root halves it exactly */
    int lz = 0;
    for (uint32_t u = (uint32_t)x; !(u & 0x80000000u); u <<= 1) lz++;
    const int pairs = (lz - 1) / 2 - 1;
    s -= pairs;
    x <<= 2 * pairs;
    /* Newton-Raphson for 1/sqrt(a) in Q3.28 (3 integer bits), a = x / 2^28
     * halved: y <- 1.5 y - (a/2) y^3, five steps from y = 1.  Products of two
     * Q3.28 values are Q6.25 (one high mul); three Q9.22. */
    const int32_t half_a = ta_q_div_pot(x >> 1, 1);
    const int32_t three_halves = (1 << 28) + (1 << 27);
    int32_t y = 1 << 28;
    for (int i = 0; i < 5; i++) {
        const int32_t y3 = ta__sat_shl(ta_q_high_mul(ta_q_high_mul(y, y), y), 6);              /* Q9.22 -> Q3.28 */
        const int32_t d = ta__wsub(ta_q_high_mul(three_halves, y), ta_q_high_mul(half_a, y3)); /* Q6.25 */
        y = ta__sat_shl(d, 3);
    }
    /* times sqrt(2)/2 in Q0.31: the halving of a above, undone */
    y = ta_q_high_mul(y, 1518500250);
    if (s < 0) {
        y = (int32_t)((uint32_t)y << -s);
        s = 0;
    }
    *mult = y;
    *shift = s * reverse_shift;
}

ta_status ta_rsqrt_prepare(ta_unary_q_params *p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
    if (!p) return TA_E_INVALID_ARG;
    memset(p, 0, sizeof *p);
    if (!(in_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    p->input_zp = in_zp;
    p->output_zp = out_zp;
    p->act_min = INT32_MIN;
    p->act_max = INT32_MAX;
    p->rescale = 1;
    /* TFLM: the product in float, its inverse in double */
    const float prod = sqrtf(in_scale) * out_scale;
    if (!(prod > 0.0f)) return TA_E_UNSUPPORTED;
    ta_quant_multiplier(1.0 / (double)prod, &p->mult, &p->shift);
    /* the kernel runs ta_q_mul with shift - 20 */
    return p->shift > 30 || p->shift - 20 < -31 ? TA_E_UNSUPPORTED : TA_OK;
}

static int32_t rsqrt_q(const ta_unary_q_params *p, int32_t x, int32_t lo, int32_t hi) {
    const int32_t v = x - p->input_zp;
    if (v == 0) return hi; /* TFLM: a value at zero gives the largest output */
    int32_t m, s;
    ta_inv_sqrt_multiplier(v, -1, &m, &s);
    /* 1/sqrt(v) as an integer scaled by 2^20, then rescaled by 2^-20 with
     * the output multiplier: TFLM's two steps, each rounding */
    const int32_t scaled = ta_q_mul(1, m, s + 20);
    const int32_t o = ta__wadd(ta_q_mul(scaled, p->mult, p->shift - 20), p->output_zp);
    return o < lo ? lo : o > hi ? hi : o;
}

#define RSQRT_BODY(T, lo, hi)                                                                                          \
    if (!check_q(p, n, input, output) || p->shift - 20 < -31) return TA_E_INVALID_ARG;                                 \
    /* TFLM fails on a negative value; look at every element before writing.  \
     * A value, not an argument, is at fault: TA_E_UNSUPPORTED */                                        \
    for (size_t i = 0; i < n; i++)                                                                                     \
        if (input[i] < p->input_zp) return TA_E_UNSUPPORTED;                                                           \
    for (size_t i = 0; i < n; i++) output[i] = (T)rsqrt_q(p, input[i], lo, hi);                                        \
    return TA_OK

ta_status ta_kernel_rsqrt_s8(const ta_unary_q_params *p, size_t n, const int8_t *input, int8_t *output) {
    RSQRT_BODY(int8_t, -128, 127);
}

ta_status ta_kernel_rsqrt_s16(const ta_unary_q_params *p, size_t n, const int16_t *input, int16_t *output) {
    RSQRT_BODY(int16_t, -32768, 32767);
}

/* ---- ELU (lookup table), LOGICAL_NOT ------------------------------------- */

ta_status ta_elu_table_s8(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp, int8_t table[256]) {
    if (!table) return TA_E_INVALID_ARG;
    if (!(in_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    const float inv = 1.0f / out_scale;
    for (int32_t q = -128; q <= 127; q++) {
        const float x = in_scale * (float)(q - in_zp);
        /* TFLM's int8 table uses exp(x) - 1 (its float kernel uses expm1) */
        const float y = x < 0.0f ? expf(x) - 1.0f : x;
        const float r = roundf(y * inv) + (float)out_zp;
        const int32_t o = !(r < 127.0f) ? 127 : !(r > -128.0f) ? -128 : (int32_t)r;
        table[(uint8_t)(int8_t)q] = (int8_t)o;
    }
    return TA_OK;
}

ta_status ta_kernel_lut_s8(const int8_t *table, size_t n, const int8_t *input, int8_t *output) {
    if (!table || (n && (!input || !output))) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = table[(uint8_t)input[i]];
    return TA_OK;
}

ta_status ta_kernel_logical_not(size_t n, const uint8_t *input, uint8_t *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = input[i] == 0;
    return TA_OK;
}
