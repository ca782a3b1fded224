/*
 * SignalFilterBank (TFLM signal library): accumulate energy bins into
 * overlapping triangular (mel) channels.
 *
 * Each bin of channel i's band counts twice: times its weight into channel
 * i, times its unweight (1 - weight) into channel i + 1.  Walking the
 * channels in order, channel i's total is its weighted sum plus the
 * unweighted sum carried from channel i - 1.  TFLM computes num_channels + 1
 * such totals into a persistent work area and copies out all but the first;
 * here the first is dropped as it is made, so no work area is needed.
 */
#include "tinyarena/kernels.h"

ta_status ta_signal_filter_bank_check(const ta_signal_filter_bank_params *p, const ta_signal_filter_bank_tables *t) {
    if (!p || !t || !t->weights || !t->unweights || !t->freq_starts || !t->weight_starts || !t->widths)
        return TA_E_INVALID_ARG;
    if (p->num_channels < 0 || p->input_size < 0 || p->weights_size < 0) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i <= p->num_channels; i++) {
        const int32_t f = t->freq_starts[i], w = t->weight_starts[i], n = t->widths[i];
        if (f < 0 || w < 0 || n < 0 || n > p->input_size - f || n > p->weights_size - w) return TA_E_INVALID_ARG;
    }
    return TA_OK;
}

ta_status ta_kernel_signal_filter_bank(const ta_signal_filter_bank_params *p, const ta_signal_filter_bank_tables *t,
                                       const uint32_t *input, uint64_t *output) {
    ta_status st = ta_signal_filter_bank_check(p, t);
    if (st) return st;
    if (!input || (p->num_channels && !output)) return TA_E_INVALID_ARG;
    uint64_t carried = 0; /* unweighted energy of the previous channel's band */
    for (int32_t i = 0; i <= p->num_channels; i++) {
        uint64_t weighted = carried, unweighted = 0;
        const int32_t f = t->freq_starts[i], w = t->weight_starts[i], n = t->widths[i];
        for (int32_t j = 0; j < n; j++) {
            const uint64_t x = input[f + j];
            /* int16 weights times a uint64: the weight converts to uint64
             * (modulo 2^64), the product and sums wrap, as in TFLM */
            weighted += (uint64_t)(int64_t)t->weights[w + j] * x;
            unweighted += (uint64_t)(int64_t)t->unweights[w + j] * x;
        }
        if (i > 0) output[i - 1] = weighted;
        carried = unweighted;
    }
    return TA_OK;
}
