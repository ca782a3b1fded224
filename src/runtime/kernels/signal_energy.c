/*
 * SignalEnergy (TFLM signal library): squared magnitude of each complex
 * int16 bin in [start, end).
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_signal_energy(const ta_signal_energy_params *p, const int16_t *input, uint32_t *output) {
    if (!p || !input || !output) return TA_E_INVALID_ARG;
    if (p->count < 0 || p->start < 0 || p->start > p->end || p->end > p->count) return TA_E_INVALID_ARG;
    /* TFLM leaves the bins outside [start, end) unwritten: zero them */
    memset(output, 0, (size_t)p->start * sizeof *output);
    memset(output + p->end, 0, (size_t)(p->count - p->end) * sizeof *output);
    for (int32_t i = p->start; i < p->end; i++) {
        const int32_t re = input[2 * i], im = input[2 * i + 1];
        /* TFLM sums two int32 squares; only (-2^15)^2 * 2 leaves int32, and
         * its wrapped value converted to uint32 is this sum */
        output[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
    }
    return TA_OK;
}
