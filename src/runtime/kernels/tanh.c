/*
 * TANH, int8 and float32: TFLM reference_integer_ops::Tanh and std::tanh.
 *
 * int8 steps, per element: as LOGISTIC (see logistic.c) but with gemmlowp
 * tanh and an output in 1/128 steps with zero point 0 (divide the Q0.31
 * result by 2^24), clamped to [-128, 127].
 */
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

ta_status ta_kernel_tanh_s8(const ta_lut_act_params *p, size_t n, const int8_t *input,
                            int8_t *output) {
    if (!p || (n && (!input || !output))) return TA_E_INVALID_ARG;
    if (p->input_left_shift < -31 || p->input_left_shift > 30) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        const int32_t x = (int32_t)input[i] - p->input_zp;
        int32_t v;
        if (x <= -p->input_range_radius) v = -128;
        else if (x >= p->input_range_radius) v = 127;
        else {
            const int32_t q4 = ta_q_mul(x, p->input_mult, p->input_left_shift);
            v = ta_q_div_pot(ta__tanh(q4, 4), 31 - 7);
            if (v < -128) v = -128;
            if (v > 127) v = 127;
        }
        output[i] = (int8_t)v;
    }
    return TA_OK;
}

ta_status ta_kernel_tanh_f32(size_t n, const float *input, float *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = tanhf(input[i]);
    return TA_OK;
}
