/* Internal: the window gather shared by the two Cortex-M 1x1 kernels that
 * run small convolutions as pointwise ones -- the DSP cores'
 * (conv2d_s8_pw_dsp.c) and armv6-m's (conv2d_s8_pw_m0.c).  Only one of
 * them is built for a given core, so the functions are static and each
 * kernel file includes this header inside its own #if: the code is compiled
 * (and inlined) in the kernel's translation unit, as it was when both
 * lived in one file. */
#ifndef TA_KERNELS_CONV_PW_GATHER_H
#define TA_KERNELS_CONV_PW_GATHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runtime/kernels/conv_common.h"

/* Small convolutions (the first layer's 3x3 on 3 channels, kws's 10x4 on
 * one): each window's K = h * w * c input bytes gathered into a word-aligned
 * buffer (col), padded to a multiple of 4, so the including kernel's
 * pointwise loops run them as a depth-K 1x1 convolution.  Taps outside the
 * image read the byte -input_offset, whose term filter * (input +
 * input_offset) is 0, so the weight sum over all taps stays exact (as in the
 * 3x3 depthwise kernel); the weights past K unpack as 0. */
typedef struct ta__pw_gather {
    const int8_t *input;
    ta_dims4 in;
    int32_t fh, fw, sh, sw, dh, dw, ph, pw, k, kp;
    int8_t pad;
} ta__pw_gather;

/* Short runs (a window row is a few bytes): GCC would turn these loops into
 * memcpy and memset calls, which cost more than the copy. */
#define TA__NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

static TA__NO_LIBCALL void ta__pw_copy(int8_t *d, const int8_t *src, int32_t n) {
#if defined(__ARM_ARCH_6M__)
    /* armv6-m traps unaligned words (a 4-byte memcpy is a call there):
     * bytes, 4 a step with immediate offsets */
    for (; n >= 4; n -= 4, d += 4, src += 4) d[0] = src[0], d[1] = src[1], d[2] = src[2], d[3] = src[3];
#else
    for (; n >= 4; n -= 4, d += 4, src += 4) memcpy(d, src, 4); /* LDR/STR: the DSP cores allow unaligned words */
#endif
    for (; n > 0; n--) *d++ = *src++;
}

static TA__NO_LIBCALL void ta__pw_fill(int8_t *d, int8_t v, int32_t n) {
    for (; n > 0; n--) *d++ = v;
}

static TA__NO_LIBCALL void ta__pw_gather_px(const ta__pw_gather *g, int32_t b, int32_t oy, int32_t ox, uint32_t *colw) {
    int8_t *col = (int8_t *)colw;
    const int32_t c = g->in.c, row = g->fw * c;
    const int32_t iy0 = oy * g->sh - g->ph, ix0 = ox * g->sw - g->pw;
    const bool x_in = ix0 >= 0 && ix0 + (g->fw - 1) * g->dw < g->in.w;
    if (x_in && g->dw == 1 && iy0 >= 0 && iy0 + (g->fh - 1) * g->dh < g->in.h) {
        /* the common window: fh runs of row bytes */
        const ptrdiff_t step = (ptrdiff_t)g->dh * g->in.w * c;
        const int8_t *src = g->input + (((ptrdiff_t)b * g->in.h + iy0) * g->in.w + ix0) * c;
        for (int32_t fy = 0; fy < g->fh; fy++, col += row, src += step) {
#if defined(__ARM_ARCH_6M__)
            ta__pw_copy(col, src, row);
#else
            const int8_t *sp = src;
            int8_t *dp = col;
            int32_t n = row;
            for (; n >= 4; n -= 4, sp += 4, dp += 4) {
                uint32_t v;
                memcpy(&v, sp, 4);
                memcpy(dp, &v, 4);
            }
            for (; n > 0; n--) *dp++ = *sp++;
#endif
        }
        ta__pw_fill(col, 0, g->kp - g->k);
        return;
    }
    for (int32_t fy = 0; fy < g->fh; fy++, col += row) {
        const int32_t iy = iy0 + fy * g->dh;
        if (iy < 0 || iy >= g->in.h) {
            ta__pw_fill(col, g->pad, row);
            continue;
        }
        const int8_t *src = g->input + (((ptrdiff_t)b * g->in.h + iy) * g->in.w) * c;
        if (x_in && g->dw == 1) {
            ta__pw_copy(col, src + (ptrdiff_t)ix0 * c, row);
            continue;
        }
        for (int32_t fx = 0; fx < g->fw; fx++) {
            const int32_t ix = ix0 + fx * g->dw;
            if (ix < 0 || ix >= g->in.w)
                ta__pw_fill(col + fx * c, g->pad, c);
            else
                ta__pw_copy(col + fx * c, src + (ptrdiff_t)ix * c, c);
        }
    }
    ta__pw_fill(col, 0, g->kp - g->k);
}

#endif
