/*
 * SignalFilterBankSquareRoot (TFLM signal library): integer square root of
 * each channel's energy, scaled back down by the FFT's auto-scale bits.
 */
#include "tinyarena/kernels.h"

ta_status ta_kernel_signal_filter_bank_sqrt(size_t n, const uint64_t *input, int32_t scale_bits, uint32_t *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    /* the count of TFLM's uint32 shift is a run-time tensor value; x86's
     * shift instruction takes it modulo 32 */
    const unsigned s = (unsigned)scale_bits & 31u;
    for (size_t i = 0; i < n; i++) output[i] = ta_signal_sqrt64(input[i]) >> s;
    return TA_OK;
}
