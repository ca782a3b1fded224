/*
 * Pre-unpacked 1x1 weights (tinyarena/pw_pack.h): the packer, in portable
 * C so that the host CLI builds the packs a Cortex-M firmware reads, and
 * the library's empty default table.  The word layout is the one
 * pw_unpack (conv2d_s8_pw_dsp.c) writes into its stack buffer, so the DSP
 * kernel runs a pack exactly as a buffer it filled itself.
 */
#include "tinyarena/pw_pack.h"

/* Weak: a firmware that names its packs (TA_PW_PACKS_LINK) overrides it. */
__attribute__((weak)) const ta_pw_packs ta__pw_packs = {NULL, 0};

/* The kernel's channel group: 4 output channels while the depth allows
 * its 4 accumulators' weights in the 1 KB buffer, 2 past depth 128. */
static int32_t pack_group(int32_t depth) { return depth <= 128 ? 4 : 2; }

size_t ta_kernel_pw_pack_words(int32_t depth, int32_t channels) {
    if (depth < 4 || depth > 256 || depth % 4 || channels < pack_group(depth)) return 0;
    const int32_t full = channels - channels % pack_group(depth);
    return (size_t)full * (size_t)depth / 2;
}

/* SXTB16 of a little-endian word of bytes b0..b3: b0 and b2 sign-extended
 * to the low and high halves (ror 0), or b1 and b3 (ror 8). */
static uint32_t sxtb16(const int8_t *b, int ror8) {
    const int8_t lo = b[ror8 ? 1 : 0], hi = b[ror8 ? 3 : 2];
    return (uint32_t)(uint16_t)(int16_t)lo | (uint32_t)(uint16_t)(int16_t)hi << 16;
}

ta_status ta_kernel_pw_pack(const int8_t *w, int32_t depth, int32_t channels, uint32_t *words, size_t n_words,
                            int32_t *wsum) {
    const size_t need = ta_kernel_pw_pack_words(depth, channels);
    if (!w || !words || !wsum || !need) return TA_E_INVALID_ARG;
    if (n_words < need) return TA_E_INVALID_ARG;
    const int32_t g = pack_group(depth), full = channels - channels % g;
    for (int32_t oc = 0; oc < channels; oc++) {
        /* every channel's sum (the kernel's C tail sums its own) */
        int32_t s = 0;
        for (int32_t i = 0; i < depth; i++) s += w[(size_t)oc * (size_t)depth + (size_t)i];
        wsum[oc] = s;
    }
    for (int32_t c0 = 0; c0 < full; c0 += g) {
        uint32_t *grp = words + (size_t)c0 * (size_t)depth / 2;
        for (int32_t i = 0; i < depth / 4; i++)
            for (int32_t j = 0; j < g; j++) {
                const int8_t *b = w + (size_t)(c0 + j) * (size_t)depth + 4 * (size_t)i;
                grp[(size_t)i * 2 * (size_t)g + 2 * (size_t)j] = sxtb16(b, 0);
                grp[(size_t)i * 2 * (size_t)g + 2 * (size_t)j + 1] = sxtb16(b, 1);
            }
    }
    return TA_OK;
}

size_t ta_kernel_pw_pack_m0_words(int32_t depth, int32_t channels) {
    if (depth < 4 || depth > 256 || depth % 4 || channels < 4) return 0;
    return (size_t)(channels - channels % 4) * (size_t)depth / 2;
}

ta_status ta_kernel_pw_pack_m0(const int8_t *w, int32_t depth, int32_t channels, uint32_t *words, size_t n_words,
                               int32_t *wsum) {
    const size_t need = ta_kernel_pw_pack_m0_words(depth, channels);
    if (!w || !words || !wsum || !need) return TA_E_INVALID_ARG;
    if (n_words < need) return TA_E_INVALID_ARG;
    const int32_t full = channels - channels % 4;
    for (int32_t oc = 0; oc < channels; oc++) {
        const int8_t *r = w + (size_t)oc * (size_t)depth;
        int32_t s = 0;
        for (int32_t i = 0; i < depth; i++) s += r[i];
        wsum[oc] = s;
        if (oc >= full) continue;
        /* the pair's word as the kernel's MULS reads it: integers, the
         * first weight in the top half (its input is in the bottom one) */
        uint32_t *d = words + (size_t)(oc - oc % 4) * (size_t)depth / 2 + (size_t)(oc % 4);
        for (int32_t i = 0; i < depth; i += 2, d += 4) {
            if (r[i] == -128 && r[i + 1] == -128) return TA_E_UNSUPPORTED;
            *d = (uint32_t)(int32_t)r[i] * 65536u + (uint32_t)(int32_t)r[i + 1];
        }
    }
    return TA_OK;
}
