/*
 * MEAN over any set of axes, int8 and float32: TFLM's reduce kernels
 * (reference_ops::Mean and QuantizedMeanOrSum as TFLM's micro MEAN uses them).
 *
 * Steps:
 *  1. Sum: walk the input in linear order and add each element into the
 *     output element it reduces to (the same order TFLM's Reduce uses, so
 *     float sums match bit for bit).  int8 sums raw values in wrapping int32.
 *  2. float: sum / (float)N.
 *     int8, same scale and zero point: (int8)(sum / N), truncating.
 *     int8, otherwise: fold 1/N into the multiplier -- with
 *     s = floor(log2 N) capped at 32 and at 31 + shift,
 *     mult' = (mult << s) / N, shift' = shift - s -- then
 *     clamp(zp_out + ta_q_mul(sum - zp_in * N, mult', shift')).
 */
#include "runtime/kernels/reduce_common.h"

ta_status ta_mean_axes(ta_mean_params *p, const int32_t *shape, int32_t rank, const int32_t *axes,
                       int32_t n_axes) {
    if (!p || !shape || rank < 1 || rank > TA_KERNEL_MAX_REDUCE_RANK || n_axes < 0 || (n_axes && !axes))
        return TA_E_INVALID_ARG;
    p->rank = rank;
    for (int32_t i = 0; i < rank; i++) {
        if (shape[i] < 0) return TA_E_INVALID_ARG;
        p->in_shape[i] = shape[i];
        p->reduce[i] = false;
    }
    for (int32_t k = 0; k < n_axes; k++) {
        int32_t a = axes[k] < 0 ? axes[k] + rank : axes[k];
        if (a < 0 || a >= rank) return TA_E_INVALID_ARG;
        p->reduce[a] = true;
    }
    return TA_OK;
}

size_t ta_kernel_mean_s8_scratch_bytes(const ta_mean_params *p) {
    int64_t no, ni, nr;
    if (ta__reduce_counts(p, &no, &ni, &nr)) return 0;
    return (size_t)no * sizeof(int32_t);
}

ta_status ta_kernel_mean_s8(const ta_mean_params *p, const int8_t *input, int8_t *output,
                            void *scratch, size_t scratch_bytes) {
    int64_t no, ni, nr;
    ta_status st = ta__reduce_counts(p, &no, &ni, &nr);
    if (st) return st;
    if (!input || !output) return TA_E_INVALID_ARG;
    if (!scratch || scratch_bytes < (size_t)no * sizeof(int32_t)) return TA_E_NO_MEMORY;
    if (((uintptr_t)scratch & 3u) != 0) return TA_E_INVALID_ARG;
    int32_t *sum = (int32_t *)scratch;
    for (int64_t k = 0; k < no; k++) {
        sum[k] = 0;
        output[k] = 0;
    }
    if (ni == 0 || nr == 0) return TA_OK;
    TA__REDUCE_WALK(p, ni, sum[oi] = (int32_t)((uint32_t)sum[oi] + (uint32_t)(int32_t)input[ii]));
    if (p->same_quant) {
        for (int64_t k = 0; k < no; k++) output[k] = (int8_t)(sum[k] / (int32_t)nr);
        return TA_OK;
    }
    /* Fold 1/N into the multiplier, as TFLM does. */
    int32_t shift = 0;
    for (int64_t v = nr; v > 1; v >>= 1) shift++;
    if (shift > 32) shift = 32;
    if (shift > 31 + p->shift) shift = 31 + p->shift;
    if (shift < 0) shift = 0; /* unreachable with TFLM's shift >= -31 */
    const int32_t mult = (int32_t)(((int64_t)p->mult * ((int64_t)1 << shift)) / nr);
    const int32_t osh = p->shift - shift;
    for (int64_t k = 0; k < no; k++) {
        int32_t shifted = (int32_t)((uint32_t)sum[k] - (uint32_t)(int32_t)((int64_t)p->input_zp * nr));
        int32_t v = ta_q_mul(shifted, mult, osh) + p->output_zp;
        if (v < -128) v = -128;
        if (v > 127) v = 127;
        output[k] = (int8_t)v;
    }
    return TA_OK;
}

ta_status ta_kernel_mean_f32(const ta_mean_params *p, const float *input, float *output) {
    int64_t no, ni, nr;
    ta_status st = ta__reduce_counts(p, &no, &ni, &nr);
    if (st) return st;
    if (!input || !output) return TA_E_INVALID_ARG;
    if (input == (const float *)output) return TA_E_INVALID_ARG;
    for (int64_t k = 0; k < no; k++) output[k] = 0.0f;
    if (ni == 0 || nr == 0) return TA_OK;
    TA__REDUCE_WALK(p, ni, output[oi] += input[ii]);
    for (int64_t k = 0; k < no; k++) output[k] = output[k] / (float)nr;
    return TA_OK;
}
