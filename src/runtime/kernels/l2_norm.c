/*
 * L2_NORMALIZATION over the last axis: TFLM's reference L2Normalization
 * (float) and reference_integer_ops::L2Normalization (int8).
 *
 * int8 steps, per row: acc = sum (x - zp_in)^2 in int32; the fixed-point
 * inverse square root of acc (ta_inv_sqrt_multiplier, reverse shift); each
 * element (x - zp_in) times it with 7 more left shifts, clamped to int8 --
 * the output is read as scale 1/128, zero point 0.  TFLM never checks the
 * output tensor's quantisation against that (a quirk kept here: whatever
 * the output claims, the bytes are TFLM's), and it has no epsilon: an
 * all-zero row has acc 0, which the inverse square root maps to its largest
 * multiplier times 0 = 0.
 */
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

ta_status ta_kernel_l2norm_f32(const ta_l2norm_params *p, const float *input, float *output) {
    if (!p || !input || !output || p->outer < 0 || p->depth <= 0) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->outer; i++) {
        const float *x = input + (size_t)i * (size_t)p->depth;
        float *y = output + (size_t)i * (size_t)p->depth;
        float sq = 0.0f;
        for (int32_t c = 0; c < p->depth; c++) sq += x[c] * x[c];
        float norm = sqrtf(sq);
        /* TFLM's epsilon, compared the way std::max does */
        if (norm < 1e-6f) norm = 1e-6f;
        for (int32_t c = 0; c < p->depth; c++) y[c] = x[c] / norm;
    }
    return TA_OK;
}

ta_status ta_kernel_l2norm_s8(const ta_l2norm_params *p, const int8_t *input, int8_t *output) {
    /* depth <= 32767 keeps the sum of squares (< 2^16 each) inside int32 */
    if (!p || !input || !output || p->outer < 0 || p->depth <= 0 || p->depth > 32767) return TA_E_INVALID_ARG;
    if (p->input_zp < -128 || p->input_zp > 127) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->outer; i++) {
        const int8_t *x = input + (size_t)i * (size_t)p->depth;
        int8_t *y = output + (size_t)i * (size_t)p->depth;
        int32_t acc = 0;
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t v = x[c] - p->input_zp;
            acc += v * v;
        }
        int32_t m, s;
        ta_inv_sqrt_multiplier(acc, -1, &m, &s);
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t o = ta_q_mul(x[c] - p->input_zp, m, s + 7);
            y[c] = (int8_t)(o < -128 ? -128 : o > 127 ? 127 : o);
        }
    }
    return TA_OK;
}
