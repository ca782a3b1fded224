/*
 * DEQUANTIZE: int8/uint8/int16 -> float32, TFLM reference_ops::Dequantize:
 * (float)((double)scale * (x - zp)), computed in double as TFLM's double
 * QuantizationParams::scale makes it.
 */
#include "tinyarena/kernels.h"

ta_status ta_kernel_dequantize(size_t n, ta_dtype in_type, const void *input, float scale,
                               int32_t zp, float *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    const double s = (double)scale;
    switch (in_type) {
    case TA_DTYPE_INT8:
        for (size_t i = 0; i < n; i++) output[i] = (float)(s * (double)((int32_t)((const int8_t *)input)[i] - zp));
        return TA_OK;
    case TA_DTYPE_UINT8:
        for (size_t i = 0; i < n; i++) output[i] = (float)(s * (double)((int32_t)((const uint8_t *)input)[i] - zp));
        return TA_OK;
    case TA_DTYPE_INT16:
        for (size_t i = 0; i < n; i++) output[i] = (float)(s * (double)((int32_t)((const int16_t *)input)[i] - zp));
        return TA_OK;
    default: return TA_E_UNSUPPORTED;
    }
}
