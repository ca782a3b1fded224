/*
 * HARD_SWISH, int8 and float32: TFLM reference_ops::HardSwish (quantised and
 * float).  x * relu6(x + 3) / 6.
 *
 * int8 steps, per element, all in 16-bit fixed point (gemmlowp int16
 * semantics, reproduced with int32 arithmetic and explicit int16 wrap):
 *  1. v = x - zp_in; hires = v << 7 (the input on scale s_in / 128);
 *  2. pre = SRDHM16(hires, output multiplier): the value on the output
 *     scale, not yet shifted;
 *  3. reluish: hires rescaled so that real 3.0 is 32768 -- saturating left
 *     shift by (exponent - 1), SRDHM16, one more saturating shift, or a
 *     rounding right shift for a negative exponent; then mapped from
 *     [-1, 1] to [0, 1] ((r + 32768) >> 1);
 *  4. out = SDHM16(reluish, pre) (truncating, not rounding: TFLM's bias
 *     note), rounding right shift by -output exponent, + zp_out, clamp.
 */
#include "runtime/kernels/fixedpoint.h"

/* TFLM DownScaleInt32ToInt16Multiplier: Q31 -> Q15, rounded, saturating. */
static int32_t downscale16(int32_t m) {
    if (m >= INT32_MAX - (1 << 15)) return INT16_MAX;
    return (m + (1 << 15)) >> 16;
}

ta_status ta_hard_swish_prepare(ta_hard_swish_params *p, float in_scale, int32_t in_zp, float out_scale,
                                int32_t out_zp) {
    if (!p) return TA_E_INVALID_ARG;
    if (!(in_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    p->input_zp = in_zp;
    p->output_zp = out_zp;
    /* float expressions, as TFLM's prepare */
    const float hires_scale = (1.0f / 128.0f) * in_scale;
    const float reluish_scale = 3.0f / 32768.0f;
    int32_t m;
    ta_quant_multiplier((double)(hires_scale / out_scale), &m, &p->output_exp);
    p->output_mult16 = downscale16(m);
    if (p->output_exp > 0) return TA_E_UNSUPPORTED;
    ta_quant_multiplier((double)(hires_scale / reluish_scale), &m, &p->reluish_exp);
    p->reluish_mult16 = downscale16(m);
    if (p->reluish_exp > 16 || p->output_exp < -31) return TA_E_UNSUPPORTED;
    return TA_OK;
}

static int16_t wrap16(int32_t v) { return (int16_t)(uint16_t)(uint32_t)v; }

/* gemmlowp SaturatingRoundingDoublingHighMul for int16. */
static int16_t srdhm16(int16_t a, int16_t b) {
    if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
    const int32_t ab = (int32_t)a * (int32_t)b;
    const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
    return wrap16((ab + nudge) / (1 << 15));
}

/* TFLM SaturatingDoublingHighMul: the same, truncating toward zero. */
static int16_t sdhm16(int16_t a, int16_t b) {
    if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
    return wrap16(((int32_t)a * (int32_t)b) / (1 << 15));
}

static int16_t sat_shl16(int16_t v, int amount) {
    int64_t r = (int64_t)v * ((int64_t)1 << amount);
    return (int16_t)(r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : r);
}

/* gemmlowp RoundingDivideByPOT on int16 lanes (mask and threshold in int16). */
static int16_t rdpot16(int16_t x, int e) {
    if (e <= 0) return x;
    const int16_t mask = wrap16((int32_t)(((int64_t)1 << e) - 1));
    const int16_t rem = (int16_t)(x & mask);
    const int16_t thr = wrap16((mask >> 1) + (x < 0 ? 1 : 0));
    const int32_t shifted = e >= 16 ? (x < 0 ? -1 : 0) : ta__asr(x, e);
    return wrap16(shifted + (rem > thr ? 1 : 0));
}

ta_status ta_kernel_hard_swish_s8(const ta_hard_swish_params *p, size_t n, const int8_t *input, int8_t *output) {
    if (!p || (n && (!input || !output))) return TA_E_INVALID_ARG;
    if (p->output_exp > 0 || p->output_exp < -31 || p->reluish_exp > 16 || p->reluish_exp < -31) return TA_E_INVALID_ARG;
    const int16_t om = (int16_t)p->output_mult16, rm = (int16_t)p->reluish_mult16;
    for (size_t i = 0; i < n; i++) {
        const int16_t v = wrap16((int32_t)input[i] - p->input_zp);
        const int16_t hires = wrap16((int32_t)v * 128);
        const int16_t pre = srdhm16(hires, om);
        int16_t r = hires;
        if (p->reluish_exp > 0) r = sat_shl16(r, p->reluish_exp - 1);
        r = srdhm16(r, rm);
        if (p->reluish_exp > 0) r = sat_shl16(r, 1);
        if (p->reluish_exp < 0) r = rdpot16(r, -p->reluish_exp);
        r = wrap16(((int32_t)r + (1 << 15)) >> 1);
        const int16_t pre_out = sdhm16(r, pre);
        int16_t o = rdpot16(pre_out, -p->output_exp);
        o = wrap16((int32_t)o + p->output_zp);
        if (o > 127) o = 127;
        if (o < -128) o = -128;
        output[i] = (int8_t)o;
    }
    return TA_OK;
}

ta_status ta_kernel_hard_swish_f32(size_t n, const float *input, float *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        const float x = input[i];
        float r = x + 3.0f;
        r = r < 0.0f ? 0.0f : r;
        r = r > 6.0f ? 6.0f : r;
        output[i] = x * r / 6.0f;
    }
    return TA_OK;
}
