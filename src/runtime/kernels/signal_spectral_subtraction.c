/*
 * SignalFilterBankSpectralSubtraction (TFLM signal library): track each
 * channel's noise floor with a one-pole low-pass filter (state carried from
 * call to call) and subtract it, keeping at least a fraction of the signal.
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_signal_spectral_subtraction(const ta_signal_spectral_subtraction_params *p, const uint32_t *input,
                                                uint32_t *output, uint32_t *noise_out, uint32_t *state) {
    if (!p || p->num_channels < 0 || (p->num_channels && (!input || !output || !noise_out || !state)))
        return TA_E_INVALID_ARG;
    if (p->smoothing_bits > 31 || p->spectral_subtraction_bits > 63) return TA_E_INVALID_ARG;
    const uint32_t sb = p->smoothing_bits, ssb = p->spectral_subtraction_bits;
    for (int32_t i = 0; i < p->num_channels; i++) {
        const int odd = i & 1; /* odd channels use the alternate coefficients */
        const uint32_t a = odd ? p->alternate_smoothing : p->smoothing;
        const uint32_t b = odd ? p->alternate_one_minus_smoothing : p->one_minus_smoothing;
        const uint32_t s = input[i] << sb;
        state[i] = (uint32_t)(((uint64_t)s * a + (uint64_t)state[i] * b) >> ssb);
        uint32_t est = state[i];
        if (est > s) { /* never subtract more than the signal */
            est = s;
            if (p->clamping) state[i] = est;
        }
        const uint32_t floor = (uint32_t)(((uint64_t)input[i] * p->min_signal_remaining) >> ssb);
        const uint32_t sub = (s - est) >> sb;
        output[i] = sub > floor ? sub : floor;
    }
    memcpy(noise_out, state, (size_t)p->num_channels * sizeof *state);
    return TA_OK;
}
