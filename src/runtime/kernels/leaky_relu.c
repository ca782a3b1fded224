/*
 * LEAKY_RELU, int8, int16 and float32: TFLM reference_ops::QuantizeLeakyRelu
 * and reference_ops::LeakyRelu.
 *
 * Quantised steps, per element:
 *  1. v = x - input zero point (int32);
 *  2. v >= 0: zp_out + ta_q_mul(v, identity multiplier), else
 *     zp_out + ta_q_mul(v, alpha multiplier) -- two multipliers because the
 *     slopes differ, each s_in * slope / s_out;
 *  3. clamp to the type.
 * The prepare computes both ratios in float (TFLM's float expressions),
 * widened to double for the multiplier split.
 */
#include "runtime/kernels/fixedpoint.h"

ta_status ta_leaky_relu_prepare(ta_leaky_relu_params *p, float alpha, float in_scale, int32_t in_zp,
                                float out_scale, int32_t out_zp) {
    if (!p) return TA_E_INVALID_ARG;
    p->alpha = alpha;
    p->input_zp = in_zp;
    p->output_zp = out_zp;
    if (!(alpha >= 0.0f) || !(in_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    const float alpha_ratio = in_scale * alpha / out_scale;
    const float identity_ratio = in_scale / out_scale;
    ta_quant_multiplier((double)alpha_ratio, &p->alpha_mult, &p->alpha_shift);
    ta_quant_multiplier((double)identity_ratio, &p->identity_mult, &p->identity_shift);
    if (p->alpha_shift > 30 || p->identity_shift > 30) return TA_E_UNSUPPORTED;
    return TA_OK;
}

static int32_t leaky_q(const ta_leaky_relu_params *p, int32_t x, int32_t lo, int32_t hi) {
    const int32_t v = x - p->input_zp;
    const int32_t r = v >= 0 ? ta_q_mul(v, p->identity_mult, p->identity_shift)
                             : ta_q_mul(v, p->alpha_mult, p->alpha_shift);
    const int32_t o = ta__wadd(p->output_zp, r);
    return o < lo ? lo : o > hi ? hi : o;
}

static ta_status check(const ta_leaky_relu_params *p, size_t n, const void *in, const void *out) {
    if (!p || (n && (!in || !out))) return TA_E_INVALID_ARG;
    if (p->alpha_shift < -31 || p->alpha_shift > 30 || p->identity_shift < -31 || p->identity_shift > 30)
        return TA_E_INVALID_ARG;
    return TA_OK;
}

ta_status ta_kernel_leaky_relu_s8(const ta_leaky_relu_params *p, size_t n, const int8_t *input, int8_t *output) {
    ta_status st = check(p, n, input, output);
    if (st) return st;
    for (size_t i = 0; i < n; i++) output[i] = (int8_t)leaky_q(p, input[i], -128, 127);
    return TA_OK;
}

ta_status ta_kernel_leaky_relu_s16(const ta_leaky_relu_params *p, size_t n, const int16_t *input,
                                   int16_t *output) {
    ta_status st = check(p, n, input, output);
    if (st) return st;
    for (size_t i = 0; i < n; i++) output[i] = (int16_t)leaky_q(p, input[i], -32768, 32767);
    return TA_OK;
}

ta_status ta_kernel_leaky_relu_f32(const ta_leaky_relu_params *p, size_t n, const float *input, float *output) {
    if (!p || (n && (!input || !output))) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        const float v = input[i];
        output[i] = v > 0.0f ? v : v * p->alpha;
    }
    return TA_OK;
}
