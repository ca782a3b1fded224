/*
 * LOGISTIC, int8 and float32: TFLM reference_integer_ops::Logistic and
 * reference_ops::Logistic; and the int16 table version the LSTM uses.
 * ta_act_prepare_s8 and the int8 loop (ta__lut_act_s8) are shared with TANH.
 *
 * int8 steps, per element:
 *  1. x - zp; beyond +-input_range_radius the result saturates (-128 / 127).
 *  2. Rescale into Q4.27 with the frexp multiplier (MultiplyByQuantized-
 *     Multiplier, left shift), gemmlowp logistic -> Q0.31.
 *  3. Round to 1/256 steps (divide by 2^23), add the output zero point -128,
 *     clamp.
 */
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

void ta_act_prepare_s8(ta_lut_act_params *p, float in_scale, int32_t in_zp) {
    /* TFLM: frexp of s_in * 2^27 with no 2^31 fix-up; a significand that
     * rounds to 2^31 is converted to int32 as x86 does (INT32_MIN). */
    const double real = (double)in_scale * (double)(1 << (31 - 4));
    int e = 0;
    const double q = frexp(real, &e);
    const int64_t m = (int64_t)round(q * 2147483648.0);
    p->input_zp = in_zp;
    p->input_mult = m >= (INT64_C(1) << 31) ? INT32_MIN : (int32_t)m;
    p->input_left_shift = e;
    p->input_range_radius = ta__input_radius(4, e, 31);
}

ta_status ta__lut_act_s8(const ta_lut_act_params *p, size_t n, const int8_t *input, int8_t *output, int is_tanh) {
    if (!p || (n && (!input || !output))) return TA_E_INVALID_ARG;
    if (p->input_left_shift < -31 || p->input_left_shift > 30) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        const int32_t x = (int32_t)input[i] - p->input_zp;
        int32_t v;
        if (x <= -p->input_range_radius) v = -128;
        else if (x >= p->input_range_radius) v = 127;
        else {
            const int32_t q4 = ta_q_mul(x, p->input_mult, p->input_left_shift);
            /* logistic: 1/256 steps, zero point -128; tanh: 1/128 steps, zero point 0 */
            v = is_tanh ? ta_q_div_pot(ta__tanh(q4, 4), 31 - 7) : ta_q_div_pot(ta__logistic(q4, 4), 31 - 8) - 128;
            if (v < -128) v = -128;
            if (v > 127) v = 127;
        }
        output[i] = (int8_t)v;
    }
    return TA_OK;
}

ta_status ta_kernel_logistic_s8(const ta_lut_act_params *p, size_t n, const int8_t *input,
                                int8_t *output) {
    return ta__lut_act_s8(p, n, input, output, 0);
}

ta_status ta_kernel_logistic_f32(size_t n, const float *input, float *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    const float cutoff_upper = 16.619047164916992188f, cutoff_lower = -9.0f;
    for (size_t i = 0; i < n; i++) {
        const float v = input[i];
        float r;
        if (v > cutoff_upper) r = 1.0f;
        else if (v < cutoff_lower) r = expf(v);
        else r = 1.0f / (1.0f + expf(-v));
        output[i] = r;
    }
    return TA_OK;
}

/* TFLM reference_integer_ops::Logistic for int16 (the LSTM's gates), a
 * Q3.12 input read through the sigmoid table.  Steps:
 *  1. x = (in * mult + round) >> left_shift (mult 0: 3 << left_shift, no
 *     shift);
 *  2. |x| splits into a table index (>> 9) and a 9-bit fraction; linear
 *     interpolation between the two entries (index >= 255 saturates);
 *  3. negative x mirrors: 1 - sigmoid(|x|); round and drop 10 bits to Q0.15. */
void ta_kernel_logistic_s16_lut(int32_t mult, int32_t left_shift, size_t n, const int16_t *input,
                                int16_t *output) {
    const ta__lut_in rs = ta__lut_in_make(mult, left_shift);
    for (size_t i = 0; i < n; i++) {
        const int32_t x = ta__lut_in_apply(&rs, input[i]);
        const uint32_t ax = x >= 0 ? (uint32_t)x : 0u - (uint32_t)x;
        const uint32_t uh = ax >> 9;
        uint32_t r;
        if (uh >= 255) {
            r = UINT32_C(0x7FFF) << 10;
        } else {
            const uint32_t ua = ta__sigmoid_table[uh], ub = ta__sigmoid_table[uh + 1];
            r = (ua << 9) + (ax & 0x1FFu) * (ub - ua);
        }
        r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
        output[i] = (int16_t)(r >> 10);
    }
}
