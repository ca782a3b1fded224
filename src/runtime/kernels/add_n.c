/*
 * ADD_N: TFLM's reference AddN.  float: x = 0, then x += input j, in input
 * order.  int8: every term (x - zp_in) << 20 scaled to half (1/2 exactly:
 * the multiplier 2^30, shift 0), summed in int32, scaled by
 * 2 s_in / (2^20 s_out), + zp_out, clamped.
 *
 * TFLM's quirk, reproduced: the int32 sum does not start at 0 but at the
 * scaled input offset itself (-zp_in, treated as one more term of value
 * 0), so with a non-zero input zero point every result sits -zp_in / 2
 * input steps above the exact requantised sum.  The manifest's ADD_N_int8
 * case (zp_in -3) shows it; ADD_N_int8_inzp0 has none.
 */
#include "tinyarena/kernels.h"

/* TFLM's MultiplyByQuantizedMultiplierSmallerThanOneExp: the high multiply,
 * then a rounding right shift by -shift (shift <= 0).  ta_q_mul is the same
 * for shift <= 0. */
static int32_t mul_lt1(int32_t x, int32_t m, int32_t shift) { return ta_q_mul(x, m, shift); }

ta_status ta_sum_q_prepare(ta_sum_q_params *p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
    if (!p || !(in_scale > 0.0f) || !(out_scale > 0.0f) || in_zp < -128 || in_zp > 127 || out_zp < -128 || out_zp > 127)
        return TA_E_INVALID_ARG;
    const double twice = 2.0 * (double)in_scale;
    ta_quant_multiplier((double)in_scale / twice, &p->in_mult, &p->in_shift);
    ta_quant_multiplier(twice / ((double)(1 << 20) * (double)out_scale), &p->out_mult, &p->out_shift);
    /* QuantizeMultiplierSmallerThanOneExp asserts a ratio below one: an
     * output scale below 2^-19 of the input's would need a left shift */
    if (p->in_shift > 0 || p->out_shift > 0 || p->out_shift < -31) return TA_E_UNSUPPORTED;
    p->input_offset = -in_zp;
    p->output_offset = out_zp;
    p->act_min = -128;
    p->act_max = 127;
    return TA_OK;
}

/* One term: (offset + q) << 20, scaled by the input multiplier.  |offset +
 * q| <= 255, so the shift stays inside int32. */
static int32_t term(const ta_sum_q_params *p, int32_t q) {
    return mul_lt1((p->input_offset + q) * (1 << 20), p->in_mult, p->in_shift);
}

static int8_t finish(const ta_sum_q_params *p, int32_t acc) {
    int32_t v = mul_lt1(acc, p->out_mult, p->out_shift) + p->output_offset;
    if (v < p->act_min) v = p->act_min;
    if (v > p->act_max) v = p->act_max;
    return (int8_t)v;
}

ta_status ta_kernel_add_n_s8(const ta_sum_q_params *p, size_t n, uint32_t n_in, const int8_t *const *inputs,
                             int8_t *output) {
    if (!p || !inputs || !output || n_in < 1 || p->input_offset < -127 || p->input_offset > 128 || p->in_shift > 0 ||
        p->out_shift > 0 || p->out_shift < -31)
        return TA_E_INVALID_ARG;
    for (uint32_t j = 0; j < n_in; j++)
        if (!inputs[j]) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        /* TFLM's start value: the offset scaled as a term of value 0 */
        uint32_t acc = (uint32_t)term(p, 0);
        for (uint32_t j = 0; j < n_in; j++) acc += (uint32_t)term(p, inputs[j][i]);
        output[i] = finish(p, (int32_t)acc);
    }
    return TA_OK;
}

ta_status ta_kernel_add_n_f32(size_t n, uint32_t n_in, const float *const *inputs, float *output) {
    if (!inputs || !output || n_in < 1) return TA_E_INVALID_ARG;
    for (uint32_t j = 0; j < n_in; j++)
        if (!inputs[j]) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        float x = 0.0f;
        for (uint32_t j = 0; j < n_in; j++) x += inputs[j][i];
        output[i] = x;
    }
    return TA_OK;
}

ta_status ta_kernel_cumsum_f32(const ta_cumsum_params *p, const float *input, float *output) {
    if (!p || !input || !output || p->outer < 0 || p->inner < 0 || p->depth < 0) return TA_E_INVALID_ARG;
    for (int64_t o = 0; o < p->outer; o++)
        for (int64_t i = 0; i < p->inner; i++) {
            float acc = 0.0f;
            for (int32_t k = 0; k < p->depth; k++) {
                const int32_t d = p->reverse ? p->depth - 1 - k : k;
                const size_t at = (size_t)((o * p->depth + d) * p->inner + i);
                if (p->exclusive) {
                    /* read before the write: the output may be the input's buffer */
                    const float x = input[at];
                    output[at] = acc;
                    acc += x;
                } else {
                    acc += input[at];
                    output[at] = acc;
                }
            }
        }
    return TA_OK;
}

ta_status ta_kernel_cumsum_s8(const ta_cumsum_params *p, const int8_t *input, int8_t *output) {
    if (!p || !input || !output || p->outer < 0 || p->inner < 0 || p->depth < 0 || p->q.input_offset < -127 ||
        p->q.input_offset > 128 || p->q.in_shift > 0 || p->q.out_shift > 0 || p->q.out_shift < -31)
        return TA_E_INVALID_ARG;
    for (int64_t o = 0; o < p->outer; o++)
        for (int64_t i = 0; i < p->inner; i++) {
            /* as ADD_N: TFLM starts from the scaled offset, not 0 */
            uint32_t acc = (uint32_t)term(&p->q, 0);
            for (int32_t k = 0; k < p->depth; k++) {
                const int32_t d = p->reverse ? p->depth - 1 - k : k;
                const size_t at = (size_t)((o * p->depth + d) * p->inner + i);
                uint32_t shown;
                if (p->exclusive) {
                    shown = acc; /* the input is read before the output is written */
                    acc += (uint32_t)term(&p->q, input[at]);
                } else {
                    acc += (uint32_t)term(&p->q, input[at]);
                    shown = acc;
                }
                output[at] = finish(&p->q, (int32_t)shown);
            }
        }
    return TA_OK;
}
