/*
 * QUANTIZE: float32 -> int8/uint8/int16 (TFLM AffineQuantize) and
 * integer -> integer requantisation (TFLM Requantize, int32 included).
 *
 * float steps: q = (int32)round((double)x / (double)scale) + zp, clamped to
 * the output type.  The division is in double because TFLM keeps the scale
 * as a double in its QuantizationParams.
 * Requantise steps: clamp(zp_out + ta_q_mul(x - zp_in, mult, shift)).
 */
#include <math.h>

#include "tinyarena/kernels.h"

static bool int_range(ta_dtype t, int32_t *lo, int32_t *hi) {
    switch (t) {
    case TA_DTYPE_INT8: *lo = -128; *hi = 127; return true;
    case TA_DTYPE_UINT8: *lo = 0; *hi = 255; return true;
    case TA_DTYPE_INT16: *lo = -32768; *hi = 32767; return true;
    case TA_DTYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    default: return false;
    }
}

static void store(ta_dtype t, void *out, size_t i, int32_t v) {
    if (t == TA_DTYPE_INT8) ((int8_t *)out)[i] = (int8_t)v;
    else if (t == TA_DTYPE_UINT8) ((uint8_t *)out)[i] = (uint8_t)v;
    else if (t == TA_DTYPE_INT32) ((int32_t *)out)[i] = v;
    else ((int16_t *)out)[i] = (int16_t)v;
}

static int32_t load(ta_dtype t, const void *in, size_t i) {
    if (t == TA_DTYPE_INT8) return ((const int8_t *)in)[i];
    if (t == TA_DTYPE_UINT8) return ((const uint8_t *)in)[i];
    if (t == TA_DTYPE_INT32) return ((const int32_t *)in)[i];
    return ((const int16_t *)in)[i];
}

ta_status ta_kernel_quantize_f32(size_t n, const float *input, float scale, int32_t zp,
                                 ta_dtype out_type, void *output) {
    int32_t lo, hi;
    if (out_type == TA_DTYPE_INT32 || !int_range(out_type, &lo, &hi)) return TA_E_UNSUPPORTED;
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    if (!(scale > 0.0f)) return TA_E_INVALID_ARG;
    const double s = (double)scale;
    for (size_t i = 0; i < n; i++) {
        double r = round((double)input[i] / s);
        /* Keep the int conversion defined; anything this far out clamps anyway. */
        if (r > 4e9) r = 4e9;
        if (r < -4e9 || r != r) r = -4e9;
        int64_t v = (int64_t)r + zp;
        store(out_type, output, i, (int32_t)(v < lo ? lo : v > hi ? hi : v));
    }
    return TA_OK;
}

ta_status ta_kernel_requantize(size_t n, ta_dtype in_type, const void *input, int32_t in_zp,
                               int32_t mult, int32_t shift, ta_dtype out_type, int32_t out_zp,
                               void *output) {
    int32_t lo, hi, ilo, ihi;
    if (!int_range(out_type, &lo, &hi) || !int_range(in_type, &ilo, &ihi)) return TA_E_UNSUPPORTED;
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    if (shift < -31 || shift > 30) return TA_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++) {
        /* int32 arithmetic as TFLM's (wrapping, which only int32 input or
         * output can reach), then the clamp to the output type */
        int32_t v = ta_q_mul((int32_t)((uint32_t)load(in_type, input, i) - (uint32_t)in_zp), mult, shift);
        int32_t w = (int32_t)((uint32_t)v + (uint32_t)out_zp);
        store(out_type, output, i, w < lo ? lo : w > hi ? hi : w);
    }
    return TA_OK;
}
