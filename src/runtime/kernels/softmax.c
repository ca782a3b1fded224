/*
 * SOFTMAX over the last axis, int8 -> int8, int8 -> int16 and float32:
 * TFLM reference_ops::Softmax (the gemmlowp fixed-point version that TFLM's
 * micro kernel calls for int8 input) and the float reference.
 *
 * Quantised steps, per row:
 *  1. max of the row; each x - max (<= 0) at or above diff_min is rescaled
 *     by beta * s_in into Q5.26 (input_mult << input_left_shift, high mul).
 *  2. exp() of it in Q0.31 (gemmlowp exp_on_negative_values), summed in
 *     Q12.19 (each exp divided by 2^12 with rounding).
 *  3. 1 / sum by Newton-Raphson (GetReciprocal), which also reports how many
 *     bits the sum exceeds one by.
 *  4. output = exp * (1/sum) rounded down to the output's width
 *     (8 or 16 bits), shifted to the output zero point (-128 or -32768),
 *     clamped.  Elements below diff_min get the minimum.
 */
#include <float.h>
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

enum { kScaledDiffIntegerBits = 5, kAccumulationIntegerBits = 12 };

ta_status ta_softmax_prepare_s8(ta_softmax_params *p, float beta, float in_scale) {
    if (!p) return TA_E_INVALID_ARG;
    p->beta = beta;
    /* TFLM PreprocessSoftmaxScaling (double rounding build). */
    double real = (double)beta * (double)in_scale * (double)(INT64_C(1) << (31 - kScaledDiffIntegerBits));
    const double cap = (double)((INT64_C(1) << 31) - 1);
    if (real > cap) real = cap;
    if (!(real > 1.0)) return TA_E_UNSUPPORTED; /* TFLM requires a multiplier > 1 */
    int32_t m, s;
    ta_quant_multiplier(real, &m, &s);
    if (s < 0) return TA_E_UNSUPPORTED;
    p->input_mult = m;
    p->input_left_shift = s;
    /* diff_min = -1.0 * CalculateInputRadius(5, shift), stored as int. */
    p->diff_min = -ta__input_radius(kScaledDiffIntegerBits, s, 31);
    return TA_OK;
}

/* Shared fixed-point softmax; out_bits is 8 or 16. */
static ta_status softmax_q(const ta_softmax_params *p, const int8_t *input, void *output,
                           int out_bits) {
    if (!p || !input || !output || p->outer < 0 || p->depth <= 0) return TA_E_INVALID_ARG;
    if (p->input_left_shift < 0 || p->input_left_shift > 31) return TA_E_INVALID_ARG;
    const int32_t out_min = out_bits == 8 ? -128 : -32768;
    const int32_t out_max = out_bits == 8 ? 127 : 32767;
    for (int32_t i = 0; i < p->outer; i++) {
        const int8_t *x = input + (int64_t)i * p->depth;
        int32_t max_in_row = -128;
        for (int32_t c = 0; c < p->depth; c++)
            if (x[c] > max_in_row) max_in_row = x[c];

        int32_t sum_of_exps = 0; /* Q12.19 */
        for (int32_t c = 0; c < p->depth; c++) {
            int32_t diff = (int32_t)x[c] - max_in_row;
            if (diff >= p->diff_min) {
                int32_t scaled = ta_q_high_mul((int32_t)((uint32_t)diff << p->input_left_shift), p->input_mult);
                int32_t e = ta__exp_on_negative(scaled, kScaledDiffIntegerBits);
                sum_of_exps = ta__wadd(sum_of_exps, ta_q_div_pot(e, kAccumulationIntegerBits));
            }
        }

        int num_bits_over_unit = 0;
        int32_t shifted_scale = ta__reciprocal(sum_of_exps, kAccumulationIntegerBits, &num_bits_over_unit);

        for (int32_t c = 0; c < p->depth; c++) {
            int32_t diff = (int32_t)x[c] - max_in_row;
            int32_t v = out_min;
            if (diff >= p->diff_min) {
                int32_t scaled = ta_q_high_mul((int32_t)((uint32_t)diff << p->input_left_shift), p->input_mult);
                int32_t e = ta__exp_on_negative(scaled, kScaledDiffIntegerBits);
                int32_t unsat = ta_q_div_pot(ta_q_high_mul(shifted_scale, e),
                                             num_bits_over_unit + 31 - out_bits);
                v = unsat + out_min;
                if (v > out_max) v = out_max;
                if (v < out_min) v = out_min;
            }
            if (out_bits == 8) ((int8_t *)output)[(int64_t)i * p->depth + c] = (int8_t)v;
            else ((int16_t *)output)[(int64_t)i * p->depth + c] = (int16_t)v;
        }
    }
    return TA_OK;
}

ta_status ta_kernel_softmax_s8(const ta_softmax_params *p, const int8_t *input, int8_t *output) {
    return softmax_q(p, input, output, 8);
}

ta_status ta_kernel_softmax_s8_s16(const ta_softmax_params *p, const int8_t *input,
                                   int16_t *output) {
    return softmax_q(p, input, output, 16);
}

/* Float: exp((x - max) * beta) per element, normalised by the row sum. */
ta_status ta_kernel_softmax_f32(const ta_softmax_params *p, const float *input, float *output) {
    if (!p || !input || !output || p->outer < 0 || p->depth <= 0) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->outer; i++) {
        const float *x = input + (int64_t)i * p->depth;
        float *y = output + (int64_t)i * p->depth;
        float max = -FLT_MAX;
        for (int32_t c = 0; c < p->depth; c++) max = x[c] > max ? x[c] : max;
        float sum = 0.0f;
        for (int32_t c = 0; c < p->depth; c++) {
            const float e = expf((x[c] - max) * p->beta);
            y[c] = e;
            sum += e;
        }
        for (int32_t c = 0; c < p->depth; c++) y[c] = y[c] / sum;
    }
    return TA_OK;
}
