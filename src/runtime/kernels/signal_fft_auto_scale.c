/*
 * SignalFftAutoScale (TFLM signal library): scale a frame up by the largest
 * power of two that keeps its peak below 2^15, and report the shift.
 */
#include "tinyarena/kernels.h"

/* int16 from an int32, modulo 2^16 (what TFLM's implicit conversions do). */
static int16_t wrap16(int32_t v) {
    const uint32_t u = (uint32_t)v & 0xFFFFu;
    return (int16_t)(u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u);
}

ta_status ta_kernel_signal_fft_auto_scale(size_t n, const int16_t *input, int16_t *output, int32_t *scale_bits) {
    if ((n && (!input || !output)) || !scale_bits) return TA_E_INVALID_ARG;
    /* TFLM's running maximum is an int16: -(-32768) stored into it wraps to
     * -32768, and later elements compare against that */
    int16_t max = 0;
    for (size_t i = 0; i < n; i++) {
        const int32_t v = input[i];
        if (v > max) max = (int16_t)v;
        else if (-v > max) max = wrap16(-v);
    }
    /* 16 - msb(max) - 1 with max converted to uint32 (a wrapped -32768 has
     * msb 32, as does 0 in TFLM's build) */
    int32_t s = 16 - (int32_t)ta_signal_msb32((uint32_t)(int32_t)max) - 1;
    if (s < 0) s = 0;
    for (size_t i = 0; i < n; i++) output[i] = wrap16((int32_t)((uint32_t)(int32_t)input[i] << s));
    *scale_bits = s;
    return TA_OK;
}
