/*
 * ARG_MAX, ARG_MIN, REDUCE_MAX, REDUCE_MIN and SUM: TFLM's ArgMinMax and
 * ReduceGeneric / QuantizedMeanOrSum.
 *
 * The reductions walk the input in linear order and fold each element into
 * the output element it reduces to -- TFLM's order, so float sums round the
 * same way.  Max/min start from the type's lowest/highest value and keep
 * the current value unless the new one is strictly beyond it (which also
 * decides what a NaN does: the same as TFLM).  int8/int16 sums are int32,
 * wrapping as TFLM's do, then requantised with the input zero point times
 * the count taken out.
 */
#include <string.h>

#include "runtime/kernels/reduce_common.h"

ta_status ta_kernel_arg_min_max(const ta_arg_params *p, const void *input, void *output) {
    if (!p || !input || !output || p->outer < 0 || p->inner < 0 || p->axis_size < 1 || p->out_size != 4)
        return TA_E_INVALID_ARG;
    int32_t *out = (int32_t *)output;
    for (int64_t o = 0; o < p->outer; o++)
        for (int64_t i = 0; i < p->inner; i++) {
            const int64_t base = o * p->axis_size * p->inner + i;
            int32_t best = 0;
            /* strict comparison: the first extreme wins ties, as std::greater / std::less do */
#define TA__ARG_LOOP(T)                                                                                                \
    do {                                                                                                               \
        const T *x = (const T *)input;                                                                                 \
        T v = x[base];                                                                                                 \
        for (int32_t k = 1; k < p->axis_size; k++) {                                                                   \
            const T c = x[base + (int64_t)k * p->inner];                                                               \
            if (p->is_min ? c < v : c > v) {                                                                           \
                v = c;                                                                                                 \
                best = k;                                                                                              \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)
            switch (p->type) {
                case TA_DTYPE_FLOAT32: TA__ARG_LOOP(float); break;
                case TA_DTYPE_INT8: TA__ARG_LOOP(int8_t); break;
                case TA_DTYPE_INT32: TA__ARG_LOOP(int32_t); break;
                default: return TA_E_INVALID_ARG;
            }
#undef TA__ARG_LOOP
            out[o * p->inner + i] = best;
        }
    return TA_OK;
}

ta_status ta_kernel_reduce(const ta_mean_params *p, ta_reduce_kind kind, ta_dtype type, const void *input, void *output,
                           void *scratch, size_t scratch_bytes) {
    int64_t no, ni, nr;
    ta_status st = ta__reduce_counts(p, &no, &ni, &nr);
    if (st) return st;
    /* an empty input (a 0 dim) has no bytes and may have no address: the
     * output is then the initial value, as TFLM's */
    if ((!input && ni) || !output) return TA_E_INVALID_ARG;
    if (kind == TA_REDUCE_MAX || kind == TA_REDUCE_MIN) {
        const bool mx = kind == TA_REDUCE_MAX;
        if (type == TA_DTYPE_FLOAT32) {
            const float *x = (const float *)input;
            float *y = (float *)output;
            /* TFLM starts from numeric_limits<float>::lowest() / max(), not
             * the infinities: a reduction of only infinities differs */
            for (int64_t k = 0; k < no; k++) y[k] = mx ? -3.40282347e+38f : 3.40282347e+38f;
            if (ni && nr)
                TA__REDUCE_WALK(p, ni, y[oi] = mx ? (x[ii] > y[oi] ? x[ii] : y[oi]) : (x[ii] < y[oi] ? x[ii] : y[oi]));
            return TA_OK;
        }
        if (type == TA_DTYPE_INT8) {
            const int8_t *x = (const int8_t *)input;
            int8_t *y = (int8_t *)output;
            for (int64_t k = 0; k < no; k++) y[k] = mx ? INT8_MIN : INT8_MAX;
            if (ni && nr)
                TA__REDUCE_WALK(p, ni, y[oi] = mx ? (x[ii] > y[oi] ? x[ii] : y[oi]) : (x[ii] < y[oi] ? x[ii] : y[oi]));
            return TA_OK;
        }
        return TA_E_INVALID_ARG;
    }
    if (kind != TA_REDUCE_SUM) return TA_E_INVALID_ARG;
    if (type == TA_DTYPE_FLOAT32) {
        const float *x = (const float *)input;
        float *y = (float *)output;
        for (int64_t k = 0; k < no; k++) y[k] = 0.0f;
        if (ni && nr) TA__REDUCE_WALK(p, ni, y[oi] = x[ii] + y[oi]);
        return TA_OK;
    }
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_INVALID_ARG;
    if (!scratch || scratch_bytes < (size_t)no * sizeof(int32_t)) return TA_E_NO_MEMORY;
    if (((uintptr_t)scratch & 3u) != 0) return TA_E_INVALID_ARG;
    int32_t *sum = (int32_t *)scratch;
    const bool s16 = type == TA_DTYPE_INT16;
    const int32_t lo = s16 ? INT16_MIN : INT8_MIN, hi = s16 ? INT16_MAX : INT8_MAX;
    for (int64_t k = 0; k < no; k++) sum[k] = 0;
    if (s16)
        memset(output, 0, (size_t)no * 2u);
    else
        memset(output, 0, (size_t)no);
    if (ni == 0 || nr == 0) return TA_OK;
    if (s16) {
        const int16_t *x = (const int16_t *)input;
        TA__REDUCE_WALK(p, ni, sum[oi] = (int32_t)((uint32_t)sum[oi] + (uint32_t)(int32_t)x[ii]));
    } else {
        const int8_t *x = (const int8_t *)input;
        TA__REDUCE_WALK(p, ni, sum[oi] = (int32_t)((uint32_t)sum[oi] + (uint32_t)(int32_t)x[ii]));
    }
    for (int64_t k = 0; k < no; k++) {
        const int32_t shifted = (int32_t)((uint32_t)sum[k] - (uint32_t)(uint64_t)((int64_t)p->input_zp * nr));
        int32_t v = ta_q_mul(shifted, p->mult, p->shift) + p->output_zp;
        if (v < lo) v = lo;
        if (v > hi) v = hi;
        if (s16)
            ((int16_t *)output)[k] = (int16_t)v;
        else
            ((int8_t *)output)[k] = (int8_t)v;
    }
    return TA_OK;
}
