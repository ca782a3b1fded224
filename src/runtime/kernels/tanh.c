/*
 * TANH, int8 and float32: TFLM reference_integer_ops::Tanh and std::tanh;
 * and the int16 table version the LSTM uses.
 *
 * int8 steps, per element: as LOGISTIC (see logistic.c) but with gemmlowp
 * tanh and an output in 1/128 steps with zero point 0 (divide the Q0.31
 * result by 2^24), clamped to [-128, 127].
 */
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

ta_status ta_kernel_tanh_s8(const ta_lut_act_params *p, size_t n, const int8_t *input,
                            int8_t *output) {
    return ta__lut_act_s8(p, n, input, output, 1);
}

ta_status ta_kernel_tanh_f32(size_t n, const float *input, float *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) output[i] = tanhf(input[i]);
    return TA_OK;
}

/* TFLM reference_integer_ops::Tanh for int16 (the LSTM's cell gate and
 * tanh(cell)): tanh(x) = 2 sigmoid(2x) - 1 read from the same table, with
 * the index taken at >> 8 (twice the logistic's resolution) and an 8-bit
 * fraction; the result is re-centred around 0 and shifted down by 8. */
void ta_kernel_tanh_s16_lut(int32_t mult, int32_t left_shift, size_t n, const int16_t *input, int16_t *output) {
    const ta__lut_in rs = ta__lut_in_make(mult, left_shift);
    for (size_t i = 0; i < n; i++) {
        const int32_t x = ta__lut_in_apply(&rs, input[i]);
        const uint32_t ax = x >= 0 ? (uint32_t)x : 0u - (uint32_t)x;
        const uint32_t uh = ax >> 8;
        int32_t r;
        if (uh >= 255) {
            r = 0xFFFF << 8;
        } else {
            const uint32_t ua = ta__sigmoid_table[uh], ub = ta__sigmoid_table[uh + 1];
            r = (int32_t)((ua << 8) + (ax & 0xFFu) * (ub - ua));
        }
        r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
        output[i] = (int16_t)ta__asr(r, 8);
    }
}
