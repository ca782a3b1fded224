/*
 * Pre-unpacked 1x1 convolution weights for the DSP cores (Cortex-M4, M7,
 * M33): flash for instructions, no RAM.
 *
 * The DSP cores' int8 1x1 kernel (src/runtime/kernels/conv2d_s8_pw_dsp.c) reads
 * its weights as int16 pairs, two per SMLAD.  Without a pack it unpacks
 * every channel group's weights into a 1 KB stack buffer at every call --
 * once per layer layer by layer, but once per row band when the plan
 * overlaps a layer's output with its input (the OVERLAP rewrite: a deep
 * layer walked row by row) or when a patch stage calls it band by band.
 * A pack is those words computed once, on the host, into a const array:
 * the kernel then reads them in place and unpacks nothing.
 *
 * A firmware names its packs with TA_PW_PACKS_LINK (file scope, once):
 *
 *     static const ta_pw_pack packs[] = {MODEL_BUDGET_PW_PACKS(model_data)};
 *     TA_PW_PACKS_LINK(packs);
 *
 * `tinyarena plan --header` emits <P>_PW_PACKS(model) and the arrays it
 * points to for every int8 1x1 CONV_2D of one group whose depth is a
 * multiple of 4 up to 256, under `#if defined(__ARM_FEATURE_DSP)`, and the
 * same layers in the armv6-m layout (ta_kernel_pw_pack_m0) under
 * `#elif defined(__ARM_ARCH_6M__)` (no other target reads them), unless the
 * firmware defines <P>_NO_PW_PACKS (their flash is twice those layers'
 * weight bytes).  Without a table the
 * library's weak default is empty and every call unpacks as before.  A
 * pack changes no output byte: the words and sums are exactly what the
 * kernel would have unpacked and summed (tests/test_pw_pack.c,
 * kernels_mcu and cortex_m check it).
 */
#ifndef TINYARENA_PW_PACK_H
#define TINYARENA_PW_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One layer's pack.  The kernel takes it for a call whose filter pointer
 * is `weights` (the filter tensor's bytes in the model, as the runtime
 * sees them) with that depth (input channels) and channel count (output
 * channels); anything else unpacks as without a pack. */
typedef struct ta_pw_pack {
    const int8_t *weights;  /* key: the filter, channels x depth int8 (the model's bytes) */
    const uint32_t *words;  /* ta_kernel_pw_pack_words(depth, channels) words */
    const int32_t *wsum;    /* per output channel: the sum of its depth weights */
    int32_t depth;          /* input channels: a multiple of 4, 4..256 */
    int32_t channels;       /* output channels */
} ta_pw_pack;

typedef struct ta_pw_packs {
    const ta_pw_pack *packs;
    uint32_t n;
} ta_pw_packs;

/* The table the kernel reads: the library's weak default is empty. */
extern const ta_pw_packs ta__pw_packs;
#define TA_PW_PACKS_LINK(arr) const ta_pw_packs ta__pw_packs = {(arr), (uint32_t)(sizeof(arr) / sizeof((arr)[0]))}

/* Words of a pack for a 1x1 filter of `channels` x `depth` int8 weights:
 * the channels the kernel runs in groups (4 a group up to depth 128, 2
 * above; the last channels short of a group stay unpacked: the kernel's C
 * tail does them) times depth / 2.  0 when the kernel takes no pack for
 * that shape (depth not a multiple of 4, or outside 4..256, or fewer
 * channels than one group). */
size_t ta_kernel_pw_pack_words(int32_t depth, int32_t channels);

/* Fills words[0 .. ta_kernel_pw_pack_words(depth, channels)) from the
 * filter w (channels rows of depth int8, as in the model) and wsum[0 ..
 * channels) with each channel's weight sum.  Per group of g channels from
 * channel c0 on (at words + c0 * depth / 2), per 4 input channels i, per
 * channel j of the group: the SXTB16 words of bytes (0, 2) and (1, 3),
 * i.e. the int16 pairs the kernel's SMLADs read, in its order.  Returns
 * TA_E_INVALID_ARG for a NULL pointer or a shape without a pack, or
 * n_words short of the size. */
ta_status ta_kernel_pw_pack(const int8_t *w, int32_t depth, int32_t channels, uint32_t *words, size_t n_words,
                            int32_t *wsum);

/* The armv6-m (M0/M0+) layout of the same packs: the M0 1x1 kernel
 * (conv2d_s8_pw_m0.c) takes two MACs per MULS from words w1 + w0 * 2^16
 * of a weight pair (w0, w1), 4 output channels a group at every depth.
 * Words: the channels in full groups of 4 (the last 1 to 3 channels stay
 * unpacked) times depth / 2; 0 for a depth not a multiple of 4 or outside
 * 4..256, or fewer than 4 channels. */
size_t ta_kernel_pw_pack_m0_words(int32_t depth, int32_t channels);

/* Fills words[0 .. ta_kernel_pw_pack_m0_words(depth, channels)) and
 * wsum[0 .. channels) (each channel's weight sum).  Per group of 4 channels
 * from channel c0 on (at words + c0 * depth / 2), per input pair i (inputs
 * 2i, 2i + 1), per channel j of the group: word 4i + j is
 * w[2i + 1] + w[2i] * 2^16 as integers (mod 2^32).  Returns
 * TA_E_INVALID_ARG as ta_kernel_pw_pack, and TA_E_UNSUPPORTED when a
 * grouped channel has a pair of -128 weights (whose two-MAC sum does not
 * fit the kernel's int16 half: that layer takes no pack). */
ta_status ta_kernel_pw_pack_m0(const int8_t *w, int32_t depth, int32_t channels, uint32_t *words, size_t n_words,
                               int32_t *wsum);

#ifdef __cplusplus
}
#endif
#endif
