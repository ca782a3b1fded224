/*
 * SignalPCAN (TFLM signal library): per-channel energy normalisation
 * (automatic gain control driven by the noise estimate), then the "shrink"
 * compression of the signal-to-noise ratio.
 */
#include "runtime/kernels/fixedpoint.h"

#define SNR_BITS 12    /* fraction bits of the SNR */
#define OUTPUT_BITS 6  /* fraction bits of the output */

/* The gain at noise level x: entries 0..2 for x <= 2, else the quadratic of
 * segment msb(x) (three coefficients at 4 * msb - 6) evaluated at the ten
 * bits below x's leading one. */
static int16_t gain_at(uint32_t x, const int16_t *lut) {
    if (x <= 2) return lut[x];
    const uint32_t seg = ta_signal_msb32(x); /* 2..32 */
    const int16_t *c = lut + 4 * seg - 6;
    const int32_t frac = (int32_t)((seg < 11 ? x << (11 - seg) : x >> (seg - 11)) & 0x3FFu);
    /* |c| <= 2^15, frac < 2^10: every step fits int32, as in TFLM */
    int32_t r = ta__asr(c[2] * frac, 5);
    r += c[1] * 32;
    r *= frac;
    r = ta__asr(r + (1 << 14), 15);
    r += c[0];
    return (int16_t)(((uint32_t)r & 0xFFFFu) >= 0x8000u ? (int32_t)((uint32_t)r & 0xFFFFu) - 0x10000
                                                        : (int32_t)((uint32_t)r & 0xFFFFu));
}

/* x^2 / 4 below 2 (x with SNR_BITS fraction bits), x - 1 above, to
 * OUTPUT_BITS fraction bits. */
static uint32_t shrink(uint32_t x) {
    if (x < (2u << SNR_BITS)) return (x * x) >> (2 + 2 * SNR_BITS - OUTPUT_BITS);
    return (x >> (SNR_BITS - OUTPUT_BITS)) - (1u << OUTPUT_BITS);
}

ta_status ta_kernel_signal_pcan(const ta_signal_pcan_params *p, const uint32_t *input, const uint32_t *noise,
                                const int16_t *lut, uint32_t *output) {
    if (!p || p->num_channels < 0 || (p->num_channels && (!input || !noise || !lut || !output))) return TA_E_INVALID_ARG;
    /* the largest noise (msb 32) reads entries 122..124 */
    if (p->lut_size < 4 * 32 - 3 || p->snr_shift < 0 || p->snr_shift > 63) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->num_channels; i++) {
        /* the int16 gain taken as uint32 (a negative one sign-extends) */
        const uint32_t gain = (uint32_t)(int32_t)gain_at(noise[i], lut);
        const uint32_t snr = (uint32_t)(((uint64_t)input[i] * gain) >> p->snr_shift);
        output[i] = shrink(snr);
    }
    return TA_OK;
}
