/*
 * SignalFilterBankLog (TFLM signal library): scaled natural log of each
 * channel, saturated to int16.
 */
#include "tinyarena/kernels.h"

ta_status ta_kernel_signal_filter_bank_log(const ta_signal_filter_bank_log_params *p, const uint32_t *input,
                                           int16_t *output) {
    if (!p || (p->num_channels && (!input || !output))) return TA_E_INVALID_ARG;
    if (p->num_channels < 0 || p->input_correction_bits < 0 || p->input_correction_bits > 31) return TA_E_INVALID_ARG;
    const uint32_t scale = (uint32_t)p->output_scale;
    for (int32_t i = 0; i < p->num_channels; i++) {
        const uint32_t x = input[i] << p->input_correction_bits;
        uint32_t v = 0;
        if (x > 1) {
            v = ta_signal_log32(x, scale);
            if (v > INT16_MAX) v = INT16_MAX;
        }
        output[i] = (int16_t)v;
    }
    return TA_OK;
}
