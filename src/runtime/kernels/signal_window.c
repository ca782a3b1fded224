/*
 * SignalWindow (TFLM signal library): multiply each frame by the window
 * weights, shift right, saturate to int16.
 */
#include "runtime/kernels/fixedpoint.h"

ta_status ta_kernel_signal_window(const ta_signal_window_params *p, const int16_t *input, const int16_t *weights,
                                  int16_t *output) {
    if (!p || !input || !weights || !output) return TA_E_INVALID_ARG;
    if (p->size < 0 || p->window <= 0 || p->size % p->window || p->shift < 0 || p->shift > 31) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->size; i++) {
        /* |x * w| <= 2^30: the int32 product cannot overflow */
        const int32_t v = ta__asr((int32_t)input[i] * weights[i % p->window], p->shift);
        output[i] = (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v);
    }
    return TA_OK;
}
