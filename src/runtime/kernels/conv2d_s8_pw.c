/*
 * CONV_2D int8 on Cortex-M: the 1x1 kernels in assembly, variants of the
 * fast kernel (conv2d_s8_fast.c) that its dispatcher reaches through the
 * variant table (tinyarena/kernel_link.h), so a firmware links only those its
 * model uses:
 *  - the DSP cores (M4, M7, M33): 1x1 convolutions by channel groups, the
 *    weights unpacked to int16 pairs, one pixel loop per channel count and
 *    requantisation (each a variant), and small one-group windows gathered
 *    into it;
 *  - armv6-m (M0/M0+): one pixel x 4 output channels in assembly.
 * Byte-identical to ta__conv2d_s8_ref, as the rest of the fast kernel
 * (tests/test_kernels_fast.c, bare-metal under kernels_mcu).
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/conv_pw.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#include "tinyarena/pw_pack.h"

/* Shared by the DSP cores' gathered windows and the armv6-m ones. */
#if defined(TA__DOT_DSP) || defined(__ARM_ARCH_6M__)
/* Small convolutions (the first layer's 3x3 on 3 channels, kws's 10x4 on
 * one): each window's K = h * w * c input bytes gathered into a word-aligned
 * buffer (col), padded to a multiple of 4, so the pointwise loops below run
 * them as a depth-K 1x1 convolution.  Taps outside the image read the byte
 * -input_offset, whose term filter * (input + input_offset) is 0, so the
 * weight sum over all taps stays exact (as in the 3x3 depthwise kernel); the
 * weights past K unpack as 0. */
typedef struct pw_gather {
    const int8_t *input;
    ta_dims4 in;
    int32_t fh, fw, sh, sw, dh, dw, ph, pw, k, kp;
    int8_t pad;
} pw_gather;

/* Short runs (a window row is a few bytes): GCC would turn these loops into
 * memcpy and memset calls, which cost more than the copy. */
#define TA__NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

static TA__NO_LIBCALL void pw_copy(int8_t *d, const int8_t *src, int32_t n) {
#if defined(__ARM_ARCH_6M__)
    /* armv6-m traps unaligned words (a 4-byte memcpy is a call there):
     * bytes, 4 a step with immediate offsets */
    for (; n >= 4; n -= 4, d += 4, src += 4) d[0] = src[0], d[1] = src[1], d[2] = src[2], d[3] = src[3];
#else
    for (; n >= 4; n -= 4, d += 4, src += 4) memcpy(d, src, 4); /* LDR/STR: the DSP cores allow unaligned words */
#endif
    for (; n > 0; n--) *d++ = *src++;
}

static TA__NO_LIBCALL void pw_fill(int8_t *d, int8_t v, int32_t n) {
    for (; n > 0; n--) *d++ = v;
}

static TA__NO_LIBCALL void pw_gather_px(const pw_gather *g, int32_t b, int32_t oy, int32_t ox, uint32_t *colw) {
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
            pw_copy(col, src, row);
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
        pw_fill(col, 0, g->kp - g->k);
        return;
    }
    for (int32_t fy = 0; fy < g->fh; fy++, col += row) {
        const int32_t iy = iy0 + fy * g->dh;
        if (iy < 0 || iy >= g->in.h) {
            pw_fill(col, g->pad, row);
            continue;
        }
        const int8_t *src = g->input + (((ptrdiff_t)b * g->in.h + iy) * g->in.w) * c;
        if (x_in && g->dw == 1) {
            pw_copy(col, src + (ptrdiff_t)ix0 * c, row);
            continue;
        }
        for (int32_t fx = 0; fx < g->fw; fx++) {
            const int32_t ix = ix0 + fx * g->dw;
            if (ix < 0 || ix >= g->in.w)
                pw_fill(col + fx * c, g->pad, c);
            else
                pw_copy(col + fx * c, src + (ptrdiff_t)ix * c, c);
        }
    }
    pw_fill(col, 0, g->kp - g->k);
}
#endif

#if defined(TA__DOT_DSP)
/* The DSP cores' 1x1 convolution (pointwise: most of MobileNet's MACs),
 * one pixel against 4 output channels (2 when the depth is over 128):
 *  - The channels' weights are unpacked once into int16 pairs, in the order
 *    the inner loop reads them (per 4 input channels: each output channel's
 *    SXTB16 word of bytes 0 and 2, then of bytes 1 and 3), in a 1 KB stack
 *    buffer: the weights then cost one LDM of 4 words per 2 SMLADs instead
 *    of a load and two SXTB16s each.  All pixels reuse it.
 *  - Per 4 input channels: one load, two SXTB16s for the input, two LDMs
 *    and eight SMLADs, a compare and a branch: 15 instructions for 16 MACs.
 *    The loop is written in assembly: GCC does not form LDM from C, and
 *    LDM needs its registers in ascending order (r8-r11, fixed).
 *  - Requantisation per channel with ta__rqs when the channel's windows are
 *    small enough, ta__rq_s8 otherwise.
 * Applies to 1x1 filters, one group, no padding, every window inside the
 * image, depth a multiple of 4 up to 256.  Returns how many output
 * channels it did (a multiple of its channel count); the caller does the
 * rest. */
#define TA__PW_BUF_WORDS 256

static TA__ALWAYS_INLINE int8_t pw_out(int rmode, const ta__rq *rq, const ta__rqs *rs, bool small, bool full,
                                       uint32_t fold, ta__rq_out ro, int32_t acc) {
    if (rmode) return ta__rqs_s8(rs, ro, rmode == 1, acc);
    if (small) return ta__rqs_s8(rs, ro, full, acc);
    return ta__rq_s8(rq, ro, (uint32_t)acc + fold);
}

/* ta__rqs_s8 (full range) of accumulator %[A] in assembly: the channel's
 * fold2, mult, add and right in one LDM (rc: 4 words per channel). */
#define PW_RQS(A)                                        \
    "ldmia %[cp]!, {%[w0], %[w1], %[w2], %[w3]}\n\t"     \
    "add %[" A "], %[w0], %[" A "], lsl #1\n\t"          \
    "smmulr %[" A "], %[" A "], %[w1]\n\t"                \
    "add %[" A "], %[" A "], %[" A "], asr #31\n\t"       \
    "add %[" A "], %[" A "], %[w2]\n\t"                   \
    "asr %[" A "], %[" A "], %[w3]\n\t"                   \
    "ssat %[" A "], #8, %[" A "]\n\t"

/* The same for rounding shifts up to 31 (rmode 3), where the zero point
 * times 2^right no longer fits the add: it is added after the shift, a 5th
 * constant (fold2, mult, 2^(right-1), right, zero point).  With |hm| < 2^28
 * the add of 2^30 cannot overflow.  A constant channel (ta__pw_const) has all
 * but the zero point 0: the product is 0 and the output that constant. */
#define PW_RQS5(A)                                             \
    "ldmia %[cp]!, {%[w0], %[w1], %[w2], %[w3], %[w4]}\n\t"    \
    "add %[" A "], %[w0], %[" A "], lsl #1\n\t"                \
    "smmulr %[" A "], %[" A "], %[w1]\n\t"                      \
    "add %[" A "], %[" A "], %[" A "], asr #31\n\t"             \
    "add %[" A "], %[" A "], %[w2]\n\t"                         \
    "asr %[" A "], %[" A "], %[w3]\n\t"                         \
    "add %[" A "], %[" A "], %[w4]\n\t"                         \
    "ssat %[" A "], #8, %[" A "]\n\t"

/* One word of 4 input channels (in %[xv]) against the unpacked weights of
 * 4 output channels (PW_STEP4: 2 LDMs, 8 SMLADs) or of 2 (PW_STEP2). */
#define PW_STEP4                                         \
    "sxtb16 %[x02], %[xv]\n\t"                            \
    "sxtb16 %[xv], %[xv], ror #8\n\t"                     \
    "ldmia %[wp]!, {%[w0], %[w1], %[w2], %[w3]}\n\t"     \
    "smlad %[a0], %[x02], %[w0], %[a0]\n\t"               \
    "smlad %[a0], %[xv], %[w1], %[a0]\n\t"                \
    "smlad %[a1], %[x02], %[w2], %[a1]\n\t"               \
    "smlad %[a1], %[xv], %[w3], %[a1]\n\t"                \
    "ldmia %[wp]!, {%[w0], %[w1], %[w2], %[w3]}\n\t"     \
    "smlad %[a2], %[x02], %[w0], %[a2]\n\t"               \
    "smlad %[a2], %[xv], %[w1], %[a2]\n\t"                \
    "smlad %[a3], %[x02], %[w2], %[a3]\n\t"               \
    "smlad %[a3], %[xv], %[w3], %[a3]\n\t"
#define PW_STEP2                                         \
    "sxtb16 %[x02], %[xv]\n\t"                            \
    "sxtb16 %[xv], %[xv], ror #8\n\t"                     \
    "ldmia %[wp]!, {%[w0], %[w1], %[w2], %[w3]}\n\t"     \
    "smlad %[a0], %[x02], %[w0], %[a0]\n\t"               \
    "smlad %[a0], %[xv], %[w1], %[a0]\n\t"                \
    "smlad %[a1], %[x02], %[w2], %[a1]\n\t"               \
    "smlad %[a1], %[xv], %[w3], %[a1]\n\t"


/* One pixel of rmode 1 (every channel PW_RQS) against nch channels: the
 * dot products from xp (depth bytes) and the 4 words a channel at rc,
 * stored at op; returns xp + depth. */
static TA__ALWAYS_INLINE const int8_t *pw_px_r1(const int8_t *xp, int32_t depth, bool by16, int32_t nch,
                                                const uint32_t *wbuf, const uint32_t *rc, int8_t *op) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const int8_t *xe = xp + depth;
    const uint32_t *wp = wbuf, *cp = rc;
    register uint32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");
    uint32_t xv, x02;
    if (nch == 4) {
        if (by16)
            __asm__ volatile("1:\n\t"
                             "ldr %[xv], [%[xp]], #16\n\t" PW_STEP4
                             "ldr %[xv], [%[xp], #-12]\n\t" PW_STEP4
                             "ldr %[xv], [%[xp], #-8]\n\t" PW_STEP4
                             "ldr %[xv], [%[xp], #-4]\n\t" PW_STEP4
                             "cmp %[xp], %[xe]\n\t"
                             "bne 1b\n\t"
                             : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [xp] "+r"(xp), [wp] "+r"(wp),
                               [xv] "=&r"(xv), [x02] "=&r"(x02), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2),
                               [w3] "=&r"(w3)
                             : [xe] "r"(xe)
                             : "cc", "memory");
        else
            __asm__ volatile("1:\n\t"
                             "ldr %[xv], [%[xp]], #4\n\t" PW_STEP4
                             "cmp %[xp], %[xe]\n\t"
                             "bne 1b\n\t"
                             : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [xp] "+r"(xp), [wp] "+r"(wp),
                               [xv] "=&r"(xv), [x02] "=&r"(x02), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2),
                               [w3] "=&r"(w3)
                             : [xe] "r"(xe)
                             : "cc", "memory");
        __asm__ volatile(PW_RQS("a0") PW_RQS("a1") PW_RQS("a2") PW_RQS("a3")
                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [cp] "+r"(cp), [w0] "=&r"(w0),
                           [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                         :
                         : "memory");
        op[0] = (int8_t)a0, op[1] = (int8_t)a1, op[2] = (int8_t)a2, op[3] = (int8_t)a3;
    } else {
        if (by16)
            __asm__ volatile("1:\n\t"
                             "ldr %[xv], [%[xp]], #16\n\t" PW_STEP2
                             "ldr %[xv], [%[xp], #-12]\n\t" PW_STEP2
                             "ldr %[xv], [%[xp], #-8]\n\t" PW_STEP2
                             "ldr %[xv], [%[xp], #-4]\n\t" PW_STEP2
                             "cmp %[xp], %[xe]\n\t"
                             "bne 1b\n\t"
                             : [a0] "+r"(a0), [a1] "+r"(a1), [xp] "+r"(xp), [wp] "+r"(wp), [xv] "=&r"(xv),
                               [x02] "=&r"(x02), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                             : [xe] "r"(xe)
                             : "cc", "memory");
        else
            __asm__ volatile("1:\n\t"
                             "ldr %[xv], [%[xp]], #4\n\t" PW_STEP2
                             "cmp %[xp], %[xe]\n\t"
                             "bne 1b\n\t"
                             : [a0] "+r"(a0), [a1] "+r"(a1), [xp] "+r"(xp), [wp] "+r"(wp), [xv] "=&r"(xv),
                               [x02] "=&r"(x02), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                             : [xe] "r"(xe)
                             : "cc", "memory");
        __asm__ volatile(PW_RQS("a0") PW_RQS("a1")
                         : [a0] "+r"(a0), [a1] "+r"(a1), [cp] "+r"(cp), [w0] "=&r"(w0), [w1] "=&r"(w1),
                           [w2] "=&r"(w2), [w3] "=&r"(w3)
                         :
                         : "memory");
        op[0] = (int8_t)a0, op[1] = (int8_t)a1;
    }
    return xp;
}

/* The pixels of one group of nch channels; rmode (a constant in each build):
 * 0 requantises channel by channel, 1 all with ta__rqs and no activation
 * clamp, 2 all with ta__rqs and the clamp, 3 all as ta__rqs with rounding
 * shifts up to 30 and no clamp (PW_RQS5, rc5). */
static TA__ALWAYS_INLINE void pw_pixels(const ta_conv_params *p, const int8_t *input, int8_t *output, int32_t oc0,
                                        int32_t nch, int rmode, const uint32_t *wbuf, const ta__pw_group *g) {
    const ta__rq *rq = g->rq;
    const ta__rqs *rs = g->rs;
    const bool *small = g->small;
    const uint32_t *fold = g->fold, *rc = g->rc, *rc5 = g->rc5;
    const ta_dims4 in = p->input, out = p->output;
    const int32_t depth = in.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const bool full = p->q.act_min == -128 && p->q.act_max == 127;
    const ptrdiff_t xs = (ptrdiff_t)p->stride_w * in.c, ys = (ptrdiff_t)p->stride_h * in.w * in.c;
    /* 16 input channels per pass when the depth allows: one compare and
     * branch per 4 words instead of per word */
    const bool by16 = depth % 16 == 0;
    if (rmode == 1 && p->stride_w == 1 && in.w == out.w && (out.n == 1 || in.h == out.h) &&
        (p->stride_h == 1 || out.h == 1)) {
        /* every pixel's input follows the last one's (stride 1 along the
         * rows, rows and images back to back: a layer, or one of its row
         * bands): one loop over them, the input pointer the kernel's own */
        const int8_t *xp = input, *xend = input + (ptrdiff_t)out.n * out.h * out.w * depth;
        for (int8_t *op = output + oc0; xp != xend; op += out.c) xp = pw_px_r1(xp, depth, by16, nch, wbuf, rc, op);
        return;
    }
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const int8_t *x = input + ((ptrdiff_t)b * in.h * in.w * in.c) + (ptrdiff_t)oy * ys;
            int8_t *op = output + ta__nhwc_p(&out, b, oy, 0) + oc0;
            for (int32_t ox = 0; ox < out.w; ox++, x += xs, op += out.c) {
                int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
                const int8_t *xp = x, *xe = x + depth;
                const uint32_t *wp = wbuf;
                register uint32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");
                uint32_t xv, x02;
                if (nch == 4) {
                    if (by16)
                        __asm__ volatile("1:\n\t"
                                         "ldr %[xv], [%[xp]], #16\n\t" PW_STEP4
                                         "ldr %[xv], [%[xp], #-12]\n\t" PW_STEP4
                                         "ldr %[xv], [%[xp], #-8]\n\t" PW_STEP4
                                         "ldr %[xv], [%[xp], #-4]\n\t" PW_STEP4
                                         "cmp %[xp], %[xe]\n\t"
                                         "bne 1b\n\t"
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
                                           [xp] "+r"(xp), [wp] "+r"(wp), [xv] "=&r"(xv), [x02] "=&r"(x02),
                                           [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                                         : [xe] "r"(xe)
                                         : "cc", "memory");
                    else
                        __asm__ volatile("1:\n\t"
                                         "ldr %[xv], [%[xp]], #4\n\t" PW_STEP4
                                         "cmp %[xp], %[xe]\n\t"
                                         "bne 1b\n\t"
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
                                           [xp] "+r"(xp), [wp] "+r"(wp), [xv] "=&r"(xv), [x02] "=&r"(x02),
                                           [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                                         : [xe] "r"(xe)
                                         : "cc", "memory");
                    if (rmode == 3) {
                        const uint32_t *cp = rc5;
                        register uint32_t w4 __asm__("r12");
                        __asm__ volatile(PW_RQS5("a0") PW_RQS5("a1") PW_RQS5("a2") PW_RQS5("a3")
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
                                           [cp] "+r"(cp), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2),
                                           [w3] "=&r"(w3), [w4] "=&r"(w4)
                                         :
                                         : "memory");
                        op[0] = (int8_t)a0, op[1] = (int8_t)a1, op[2] = (int8_t)a2, op[3] = (int8_t)a3;
                        continue;
                    }
                    if (rmode == 1) {
                        /* ta__rqs_s8 without a clamp, its constants loaded
                         * 4 at a time: 7 instructions per output */
                        const uint32_t *cp = rc;
                        __asm__ volatile(PW_RQS("a0") PW_RQS("a1") PW_RQS("a2") PW_RQS("a3")
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
                                           [cp] "+r"(cp), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2),
                                           [w3] "=&r"(w3)
                                         :
                                         : "memory");
                        op[0] = (int8_t)a0, op[1] = (int8_t)a1, op[2] = (int8_t)a2, op[3] = (int8_t)a3;
                        continue;
                    }
                    op[0] = pw_out(rmode, &rq[0], &rs[0], small[0], full, fold[0], ro, a0);
                    op[1] = pw_out(rmode, &rq[1], &rs[1], small[1], full, fold[1], ro, a1);
                    op[2] = pw_out(rmode, &rq[2], &rs[2], small[2], full, fold[2], ro, a2);
                    op[3] = pw_out(rmode, &rq[3], &rs[3], small[3], full, fold[3], ro, a3);
                } else {
                    if (by16)
                        __asm__ volatile("1:\n\t"
                                         "ldr %[xv], [%[xp]], #16\n\t" PW_STEP2
                                         "ldr %[xv], [%[xp], #-12]\n\t" PW_STEP2
                                         "ldr %[xv], [%[xp], #-8]\n\t" PW_STEP2
                                         "ldr %[xv], [%[xp], #-4]\n\t" PW_STEP2
                                         "cmp %[xp], %[xe]\n\t"
                                         "bne 1b\n\t"
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [xp] "+r"(xp), [wp] "+r"(wp),
                                           [xv] "=&r"(xv), [x02] "=&r"(x02), [w0] "=&r"(w0), [w1] "=&r"(w1),
                                           [w2] "=&r"(w2), [w3] "=&r"(w3)
                                         : [xe] "r"(xe)
                                         : "cc", "memory");
                    else
                        __asm__ volatile("1:\n\t"
                                         "ldr %[xv], [%[xp]], #4\n\t" PW_STEP2
                                         "cmp %[xp], %[xe]\n\t"
                                         "bne 1b\n\t"
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [xp] "+r"(xp), [wp] "+r"(wp),
                                           [xv] "=&r"(xv), [x02] "=&r"(x02), [w0] "=&r"(w0), [w1] "=&r"(w1),
                                           [w2] "=&r"(w2), [w3] "=&r"(w3)
                                         : [xe] "r"(xe)
                                         : "cc", "memory");
                    if (rmode == 3) {
                        const uint32_t *cp = rc5;
                        register uint32_t w4 __asm__("r12");
                        __asm__ volatile(PW_RQS5("a0") PW_RQS5("a1")
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [cp] "+r"(cp), [w0] "=&r"(w0),
                                           [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4)
                                         :
                                         : "memory");
                        op[0] = (int8_t)a0, op[1] = (int8_t)a1;
                        continue;
                    }
                    if (rmode == 1) {
                        const uint32_t *cp = rc;
                        __asm__ volatile(PW_RQS("a0") PW_RQS("a1")
                                         : [a0] "+r"(a0), [a1] "+r"(a1), [cp] "+r"(cp), [w0] "=&r"(w0),
                                           [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                                         :
                                         : "memory");
                        op[0] = (int8_t)a0, op[1] = (int8_t)a1;
                        continue;
                    }
                    op[0] = pw_out(rmode, &rq[0], &rs[0], small[0], full, fold[0], ro, a0);
                    op[1] = pw_out(rmode, &rq[1], &rs[1], small[1], full, fold[1], ro, a1);
                }
            }
        }
    }
}

/* Unpacks one output channel's depth weights (a multiple of 4) into int16
 * pairs at dst, 2 words per 4 weights and the next 4 `stride` bytes on,
 * and returns the USADA8 sum of the bytes + 128.  Assembly: GCC reloads
 * the constants and stores word by word (11 instructions a word, about
 * 0.5 M of person_detect's invoke); here 7, two words per pass with STRD. */
static TA__ALWAYS_INLINE uint32_t pw_unpack(const int8_t *w, int32_t depth, uint32_t *dst, const int stride) {
    const int8_t *we = w + depth;
    const uint32_t k = 0x80808080u, z = 0;
    uint32_t u = 0, v, a, b, v2, a2, b2;
    if (depth & 4)
        __asm__ volatile("ldr %[v], [%[w]], #4\n\t"
                         "sxtb16 %[a], %[v]\n\t"
                         "sxtb16 %[b], %[v], ror #8\n\t"
                         "eor %[v], %[v], %[k]\n\t"
                         "strd %[a], %[b], [%[d]], #%c[s]\n\t"
                         "usada8 %[u], %[v], %[z], %[u]\n\t"
                         : [w] "+r"(w), [d] "+r"(dst), [u] "+r"(u), [v] "=&r"(v), [a] "=&r"(a), [b] "=&r"(b)
                         : [k] "r"(k), [z] "r"(z), [s] "i"(stride)
                         : "memory");
    if (w != we)
        __asm__ volatile("1:\n\t"
                         "ldr %[v], [%[w]], #8\n\t"
                         "ldr %[v2], [%[w], #-4]\n\t"
                         "sxtb16 %[a], %[v]\n\t"
                         "sxtb16 %[b], %[v], ror #8\n\t"
                         "strd %[a], %[b], [%[d]], #%c[s]\n\t"
                         "sxtb16 %[a2], %[v2]\n\t"
                         "sxtb16 %[b2], %[v2], ror #8\n\t"
                         "strd %[a2], %[b2], [%[d]], #%c[s]\n\t"
                         "eor %[v], %[v], %[k]\n\t"
                         "eor %[v2], %[v2], %[k]\n\t"
                         "usada8 %[u], %[v], %[z], %[u]\n\t"
                         "usada8 %[u], %[v2], %[z], %[u]\n\t"
                         "cmp %[w], %[we]\n\t"
                         "bne 1b\n\t"
                         : [w] "+r"(w), [d] "+r"(dst), [u] "+r"(u), [v] "=&r"(v), [a] "=&r"(a), [b] "=&r"(b),
                           [v2] "=&r"(v2), [a2] "=&r"(a2), [b2] "=&r"(b2)
                         : [we] "r"(we), [k] "r"(k), [z] "r"(z), [s] "i"(stride)
                         : "cc", "memory");
    return u;
}

/* One group's pixel loop, a variant of its own (TA_KV_CONV_S8_PW{4,2}_R*):
 * a firmware links the builds its model's groups use. */
typedef struct pw_px {
    const ta_conv_params *p;
    const int8_t *input;
    int8_t *output;
    int32_t oc0;
    const uint32_t *wbuf;
    const ta__pw_group *g;
} pw_px;
#define PW_VARIANT(NAME, NCH, RMODE)                                                 \
    ta_status NAME(ta_kernel_args *a) {                                              \
        const pw_px *x = a->ctx;                                                     \
        pw_pixels(x->p, x->input, x->output, x->oc0, NCH, RMODE, x->wbuf, x->g);     \
        return TA_OK;                                                                \
    }
PW_VARIANT(ta__kv_pw4_r0, 4, 0)
PW_VARIANT(ta__kv_pw4_r1, 4, 1)
PW_VARIANT(ta__kv_pw4_r2, 4, 2)
PW_VARIANT(ta__kv_pw4_r3, 4, 3)
PW_VARIANT(ta__kv_pw2_r0, 2, 0)
PW_VARIANT(ta__kv_pw2_r1, 2, 1)
PW_VARIANT(ta__kv_pw2_r2, 2, 2)
PW_VARIANT(ta__kv_pw2_r3, 2, 3)

/* ta__pw_group_make's first choice, rmode 1 (every channel ta__rqs, no
 * activation clamp), when rq1 (the layer's ta__rqs_layer_ok and full range)
 * holds and each channel's fold passes ta__rqs_make's bound: then only the
 * 4 words a channel PW_RQS loads (rc) are built -- the group's other
 * constants (ta__rq, the rc5 words, the constant-channel test) are never
 * read in that pixel loop.  Called once per group and row band, so this is
 * most of a deep layer's per-call cost.  False: the caller builds the group
 * in full (and may still get rmode 1). */
static TA__ALWAYS_INLINE bool pw_group_r1(const ta_conv_params *p, bool rq1, int32_t oc0, int32_t nch, int32_t depth,
                                          ta__pw_group *g) {
    if (!rq1) return false;
    const int64_t reach = (int64_t)depth * 16384;
    for (int32_t j = 0; j < nch; j++) {
        const int64_t f = (int32_t)g->fold[j];
        if ((f < 0 ? -f : f) + reach >= (INT64_C(1) << 29)) return false;
    }
    for (int32_t j = 0; j < nch; j++) {
        const int32_t ch = p->q.per_channel ? oc0 + j : 0, right = -p->q.shift[ch];
        g->rc[4 * j] = g->fold[j] << 1, g->rc[4 * j + 1] = (uint32_t)p->q.mult[ch];
        g->rc[4 * j + 2] = (UINT32_C(1) << (right - 1)) + ((uint32_t)p->q.output_offset << right);
        g->rc[4 * j + 3] = (uint32_t)right;
    }
    return true;
}

/* The layer's pack (tinyarena/pw_pack.h), if the firmware named one for
 * this filter and shape: a few compares per call, against unpacking every
 * group's weights again at every row band. */
static const ta_pw_pack *pw_find(const int8_t *filter, int32_t depth, int32_t channels) {
    const ta_pw_packs *t = &ta__pw_packs;
    for (uint32_t i = 0; i < t->n; i++) {
        const ta_pw_pack *k = &t->packs[i];
        if (k->weights == filter && k->depth == depth && k->channels == channels) return k;
    }
    return NULL;
}

/* The pointwise kernel proper, on a 1x1 convolution p whose depth is a
 * multiple of 4 up to 256 and whose windows all lie in the image; output
 * channel oc's weights start at filter + oc * k (k <= depth: the gathered
 * windows' weights, zero-extended to the depth).  Returns the channels done,
 * -1 when a group's pixel loop is not linked. */
static int32_t pw_run(const ta_conv_params *p, const int8_t *input, const int8_t *filter, int32_t k,
                      const int32_t *bias, int8_t *output, uint32_t *wbuf) {
    const ta_dims4 out = p->output;
    const int32_t depth = p->filter.c;
    const int32_t nch = depth <= 128 ? 4 : 2;
    const bool layer_ok = ta__rqs_layer_ok(&p->q, out.c);
    const ta_pw_pack *pack = k == depth ? pw_find(filter, depth, out.c) : NULL;
    const bool rq1 = layer_ok && p->q.act_min == -128 && p->q.act_max == 127;
    int32_t oc0 = 0;
    for (; oc0 + nch <= out.c; oc0 += nch) {
        ta__pw_group g;
        const uint32_t *wg = wbuf;
        if (pack) {
            /* the host unpacked and summed these weights (pw_pack.c) */
            wg = pack->words + (size_t)oc0 * (size_t)depth / 2;
            for (int32_t j = 0; j < nch; j++) g.fold[j] = ta__fold(bias, oc0 + j, p->q.input_offset, pack->wsum[oc0 + j]);
        }
        for (int32_t j = 0; !pack && j < nch; j++) {
            /* unpack the channel's weights and sum them in one pass (the
             * sum as ta__sum_s8 does it: USADA8 of the bytes + 128) */
            const int8_t *w = filter + (ptrdiff_t)(oc0 + j) * k;
            const int32_t k4 = k & ~3;
            uint32_t u = nch == 4 ? pw_unpack(w, k4, wbuf + 2 * j, 32) : pw_unpack(w, k4, wbuf + 2 * j, 16);
            if (k4 != k) { /* the last 1 to 3 weights, zero-extended (each 0 adds 128 to u, as the 128 * depth below expects) */
                uint32_t wv = 0;
                memcpy(&wv, w + k4, (size_t)(k - k4));
                uint32_t *dst = wbuf + 2 * j + (k4 / 4) * 2 * nch;
                dst[0] = (uint32_t)__sxtb16(wv), dst[1] = (uint32_t)ta__sxtb16_ror8(wv);
                u = __usada8(wv ^ 0x80808080u, 0, u);
            }
            const int32_t wsum = (int32_t)(u - (uint32_t)depth * 128u);
            g.fold[j] = ta__fold(bias, oc0 + j, p->q.input_offset, wsum);
        }
        /* one build per channel count and requantisation */
        const int rmode = pw_group_r1(p, rq1, oc0, nch, depth, &g) ? 1 : ta__pw_group_make(p, layer_ok, oc0, nch, depth, &g);
        const pw_px x = {p, input, output, oc0, wg, &g};
        ta_kernel_args a; /* the pixel loop reads only ctx: no memset per group */
        a.ctx = &x;
        if (ta__kv_run((nch == 4 ? TA_KV_CONV_S8_PW4_R0 : TA_KV_CONV_S8_PW2_R0) + (unsigned)rmode, &a)) return -1;
    }
    return oc0;
}

/* Gathered windows: as many of an output row's windows at a time as the
 * part of buf the unpacked weights leave (one gather per pixel for all
 * output channels: 28 pixels of vww's first layer), each run as a 1x1
 * convolution of depth kp over those pixels.  The weights take 2 * kp words
 * of buf; kp <= 84 leaves room for at least 4 windows. */
static int32_t pw_gathered(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                           int8_t *output, int32_t k, int32_t kp, uint32_t *buf) {
    const ta_dims4 in = p->input, out = p->output;
    const pw_gather g = {input, in, p->filter.h, p->filter.w, p->stride_h, p->stride_w, p->dilation_h,
                         p->dilation_w, p->pad_h, p->pad_w, k, kp, (int8_t)-p->q.input_offset};
    uint32_t *col = buf + 2 * kp;
    const int32_t tile = (TA__PW_BUF_WORDS - 2 * kp) * 4 / kp;
    int32_t done = 0;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox0 = 0; ox0 < out.w; ox0 += tile) {
                const int32_t t = out.w - ox0 < tile ? out.w - ox0 : tile;
                for (int32_t i = 0; i < t; i++) pw_gather_px(&g, b, oy, ox0 + i, col + i * (kp / 4));
                ta_conv_params v = *p;
                v.input = (ta_dims4){1, 1, t, kp};
                v.filter = (ta_dims4){p->filter.n, 1, 1, kp};
                v.output = (ta_dims4){1, 1, t, out.c};
                v.stride_h = v.stride_w = v.dilation_h = v.dilation_w = 1;
                v.pad_h = v.pad_w = 0;
                done = pw_run(&v, (const int8_t *)col, filter, k, bias, output + ta__nhwc_p(&out, b, oy, ox0), buf);
                if (done < 0) return -1;
            }
    return done;
}

/* The DSP cores' pointwise kernel (ta__pw_dsp_kind 1): a 1x1 convolution
 * as it is (depth a multiple of 4 up to 256, no padding, every window inside
 * the image).  a->done: the output channels it did; the caller does the
 * rest. */
ta_status ta__kv_conv_s8_pw_dsp(ta_kernel_args *a) {
    const ta_conv_params *p = a->p;
    uint32_t buf[TA__PW_BUF_WORDS]; /* the unpacked weights */
    a->done = pw_run(p, a->input, a->weights, p->filter.c, a->bias, a->output, buf);
    return a->done < 0 ? TA_E_UNSUPPORTED : TA_OK;
}

/* Small windows of one group (ta__pw_dsp_kind 2: at most 84 bytes)
 * gathered into the same kernel. */
ta_status ta__kv_conv_s8_gather(ta_kernel_args *a) {
    const ta_conv_params *p = a->p;
    uint32_t buf[TA__PW_BUF_WORDS]; /* the unpacked weights and gathered windows */
    const int32_t k = p->filter.h * p->filter.w * p->filter.c, kp = (k + 3) & ~3;
    a->done = pw_gathered(p, a->input, a->weights, a->bias, a->output, k, kp, buf);
    return a->done < 0 ? TA_E_UNSUPPORTED : TA_OK;
}
#endif

#if defined(__ARM_ARCH_6M__)
/* armv6-m (M0/M0+) 1x1 convolutions: one pixel against 4 output channels,
 * in assembly.  Eight low registers hold the input pointer, the 4 weight
 * rows, a shared index counting up to 0 (LDRSB only takes a register
 * offset), the input byte and a product; the 4 sums live in r8-r11 (ADD
 * reaches the high registers, and neither MULS nor the sums need them low).
 * A term is LDRSB, MULS, ADD; the input byte is loaded once for 4 channels:
 * 57 instructions per 16 MACs, against GCC's 10 per 2 (it keeps two sums
 * and spills).  Byte loads only: nothing is read unaligned.
 *   void ta__m0_dot1x4(const int8_t *x, const int8_t *const rows[4],
 *                      int32_t depth, int32_t acc[4]);
 * rows: where each of the 4 channels' depth weights END (the rows need not
 * be adjacent: the kernel groups the channels that are not constant, below);
 * depth a multiple of 4, at least 4. */
void ta__m0_dot1x4(const int8_t *x, const int8_t *const rows[4], int32_t depth, int32_t acc[4]);
/* The same dot products, then each sum + its fold requantised in the same
 * assembly (TA__M0_RQM, requant.h) and stored: out[j] for the constants
 * k[j] (ta__rqm with fold set), j = 0..3.  The sums go from r8-r11 to the
 * stack and come back one POP each; no acc array, no call per output, the
 * constants read by immediate offsets from k (48 bytes per channel). */
void ta__m0_dot1x4_rq(const int8_t *x, const int8_t *const rows[4], int32_t depth, int8_t *out, const ta__rqm *k);
_Static_assert(sizeof(ta__rqm) == 48 && offsetof(ta__rqm, fold) == 44, "ta__m0_dot1x4_rq reads ta__rqm by offsets");
#define M0_TERM(W, A) "ldrsb r7, [" W ", r5]\n\tmuls r7, r6, r7\n\tadd " A ", r7\n\t"
#define M0_STEP                                                                         \
    "ldrsb r6, [r0, r5]\n\t" M0_TERM("r1", "r8") M0_TERM("r2", "r9") M0_TERM("r3", "r10") \
        M0_TERM("r4", "r11") "adds r5, #1\n\t"
/* Entry and loop of both: r8-r11 saved, r3 pushed, the 4 sums in r8-r11,
 * started by INIT. */
#define M0_DOT(NAME, INIT)                                                                 \
    ".section .text." NAME ",\"ax\",%progbits\n\t"                                   \
    ".balign 2\n\t"                                                                   \
    ".global " NAME "\n\t"                                                            \
    ".thumb\n\t"                                                                      \
    ".thumb_func\n\t"                                                                 \
    ".type " NAME ", %function\n" NAME ":\n\t"                                        \
    "push {r4, r5, r6, r7, lr}\n\t"                                                   \
    "mov r4, r8\n\t"                                                                  \
    "mov r5, r9\n\t"                                                                  \
    "mov r6, r10\n\t"                                                                 \
    "mov r7, r11\n\t"                                                                 \
    "push {r4, r5, r6, r7}\n\t"                                                       \
    "push {r3}\n\t"                                                                   \
    "adds r0, r0, r2\n\t" /* every pointer at its row's end, index -depth .. -1 */    \
    "rsbs r5, r2, #0\n\t"                                                             \
    "ldr r4, [r1, #12]\n\t"                                                           \
    "ldr r3, [r1, #8]\n\t"                                                            \
    "ldr r2, [r1, #4]\n\t"                                                            \
    "ldr r1, [r1]\n\t"                                                                \
    INIT "1:\n\t" M0_STEP M0_STEP M0_STEP M0_STEP "bne 1b\n\t"
/* Restores r8-r11 and returns. */
#define M0_RET(NAME)                                                                   \
    "pop {r4, r5, r6, r7}\n\t"                                                        \
    "mov r8, r4\n\t"                                                                  \
    "mov r9, r5\n\t"                                                                  \
    "mov r10, r6\n\t"                                                                 \
    "mov r11, r7\n\t"                                                                 \
    "pop {r4, r5, r6, r7, pc}\n\t"                                                    \
    ".size " NAME ", .-" NAME "\n\t"
#define M0_ZERO "movs r6, #0\n\tmov r8, r6\n\tmov r9, r6\n\tmov r10, r6\n\tmov r11, r6\n"
/* the sums start at the channels' folds (k: the fifth argument, sp + 40) */
#define M0_FOLDS                                                                                                \
    "ldr r6, [sp, #40]\n\tldr r7, [r6, #44]\n\tmov r8, r7\n\tldr r7, [r6, #92]\n\tmov r9, r7\n\t"              \
    "adds r6, #96\n\tldr r7, [r6, #44]\n\tmov r10, r7\n\tldr r7, [r6, #92]\n\tmov r11, r7\n"
__asm__(TA__ASM_UNIFIED M0_DOT("ta__m0_dot1x4", M0_ZERO)
        "pop {r3}\n\t"
        "mov r4, r8\n\t"
        "mov r5, r9\n\t"
        "mov r6, r10\n\t"
        "mov r7, r11\n\t"
        "stmia r3!, {r4, r5, r6, r7}\n\t" M0_RET("ta__m0_dot1x4")
        ".text\n\t" TA__ASM_RESTORE);
/* After the loop: sums pushed (sp: acc0..acc3, out, saved r8-r11, saved
 * r4-r7 and lr, then the caller's k at sp + 56). */
__asm__(TA__ASM_UNIFIED M0_DOT("ta__m0_dot1x4_rq", M0_FOLDS)
        "mov r4, r8\n\t"
        "mov r5, r9\n\t"
        "mov r6, r10\n\t"
        "mov r7, r11\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "ldr r7, [sp, #56]\n\t" TA__M0_RQ4
        "pop {r3}\n\t" M0_RET("ta__m0_dot1x4_rq")
        ".text\n\t" TA__ASM_RESTORE);
/* TA__M0_RQ4's routine (requant.h): the 4 outputs' requantisation, one
 * copy for the 1x1 and the 3x3 depthwise kernels (BL and BX: 2 instructions
 * per 4 outputs, 1.1 KB less code than a copy in each). */
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_rq4,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_rq4\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_rq4, %function\n"
        "ta__m0_rq4:\n\t"
        "mov r6, lr\n\t"
        "ldr r3, [sp, #16]\n\t"
        "movs r1, #1\n\t"
        "lsls r1, r1, #10\n\t" TA__M0_RQ_OUT("0", ".Lrq4_l0") TA__M0_RQ_OUT("1", ".Lrq4_l1")
            TA__M0_RQ_OUT("2", ".Lrq4_l2") TA__M0_RQ_OUT("3", ".Lrq4_l3") "bx r6\n\t"
        /* the long paths, out of line: a short one costs no branch past them */
        TA__M0_RQ_LONG_OUT("0", ".Lrq4_l0") TA__M0_RQ_LONG_OUT("1", ".Lrq4_l1") TA__M0_RQ_LONG_OUT("2", ".Lrq4_l2")
            TA__M0_RQ_LONG_OUT("3", ".Lrq4_l3")
        ".size ta__m0_rq4, .-ta__m0_rq4\n\t"
        ".text\n\t" TA__ASM_RESTORE);

/* armv6-m: two multiply-accumulates per MULS.  With X = x0 + x1 * 2^16
 * (two input bytes of a pixel) and W = w1 + w0 * 2^16 (the channel's weights
 * for them, swapped), X * W = x0 * w1 + (x0 * w0 + x1 * w1) * 2^16 +
 * x1 * w0 * 2^32, and modulo 2^32 (MULS) the 2^32 term is gone: the top
 * half is the two-term dot product S plus floor(x0 * w1 / 2^16).  |x0 * w1|
 * <= 2^14 < 2^15, so rounding that half (ASRS #16 leaves bit 15 in the
 * carry, ADCS adds it) gives S exactly, as long as S fits int16: it is at
 * most 2 * 128 * 128 = 2^15 only for w0 = w1 = -128 (and x0 = x1 = -128),
 * so a set with such a pair of weights keeps ta__m0_dot1x4_rq
 * (pw_m0_pack).  A pair of input bytes is 6 instructions (LDRB, SXTB;
 * LDRB, LSLS, ASRS; ADDS) shared by the 4 channels, a channel's two MACs 4
 * (LDR W, MULS, ASRS, ADCS): 22 instructions per 8 MACs plus 4 per 32 for
 * the loop, against 57 per 16.  The sums are exact (each S is, and the
 * 32-bit sums wrap as TFLM's int32 does), so the result is the same bytes.
 *   void ta__m0_dot2x4_rq(const int8_t *x, const uint32_t *wp, int32_t depth,
 *                         int8_t *out, const ta__rqm *k);
 * wp: the set's packed weights, 4 words per input pair (channel 0..3),
 * depth / 2 pairs; depth a multiple of 4, at least 4; x byte loads only.
 * The sums start at the folds, live in r4-r7 (ADCS takes low registers),
 * and go to TA__M0_RQ4 as ta__m0_dot1x4_rq's do. */
void ta__m0_dot2x4_rq(const int8_t *x, const uint32_t *wp, int32_t depth, int8_t *out, const ta__rqm *k);
#define M0_PAIR(XO, WO)                                                                                \
    "ldrb r2, [r0, #" XO "]\n\tsxtb r2, r2\n\tldrb r3, [r0, #" XO "+1]\n\tlsls r3, r3, #24\n\t"         \
    "asrs r3, r3, #8\n\tadds r2, r2, r3\n\t"                                                         \
    "ldr r3, [r1, #" WO "]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r4, r3\n\t"                 \
    "ldr r3, [r1, #" WO "+4]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r5, r3\n\t"               \
    "ldr r3, [r1, #" WO "+8]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r6, r3\n\t"               \
    "ldr r3, [r1, #" WO "+12]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r7, r3\n\t"
/* sp after the entry: out, saved r8, saved r4-r7 and lr, then k (sp + 28) */
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_dot2x4_rq,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_dot2x4_rq\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_dot2x4_rq, %function\n"
        "ta__m0_dot2x4_rq:\n\t"
        "push {r4, r5, r6, r7, lr}\n\t"
        "mov r4, r8\n\t"
        "push {r3, r4}\n\t"
        "lsls r2, r2, #3\n\t" /* depth / 2 pairs of 16 bytes */
        "adds r2, r1, r2\n\t"
        "mov r8, r2\n\t"
        "ldr r7, [sp, #28]\n\t"
        "ldr r4, [r7, #44]\n\t"
        "ldr r5, [r7, #92]\n\t"
        "adds r7, #96\n\t"
        "ldr r6, [r7, #44]\n\t"
        "ldr r7, [r7, #92]\n"
        "1:\n\t" M0_PAIR("0", "0") M0_PAIR("2", "16")
        "adds r0, #4\n\t"
        "adds r1, #32\n\t"
        "cmp r1, r8\n\t"
        "bne 1b\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "ldr r7, [sp, #44]\n\t" TA__M0_RQ4
        "pop {r3, r4}\n\t"
        "mov r8, r4\n\t"
        "pop {r4, r5, r6, r7, pc}\n\t"
        ".size ta__m0_dot2x4_rq, .-ta__m0_dot2x4_rq\n\t"
        ".text\n\t" TA__ASM_RESTORE);

/* armv6-m: the sum of (byte + 128) over nw words at p (word-aligned, nw in
 * [1, 128]): each word's bytes flipped to x + 128 and added in two 16-bit
 * lanes (bytes 0 + 1 and 2 + 3, at most 510 a word, so 128 words cannot
 * carry out of a lane), folded at the end.  9 instructions a word against
 * 14 for 4 LDRSBs and adds; written as assembly because GCC's -Os kept the
 * lanes' masks in spilled locals (slower than the bytes).  Only the 1x1
 * kernel's weight rows take it (ta__sum_s8 inlined in every kernel grew
 * hello_world's fully connected firmware past 10 KB). */
static inline uint32_t m0_sum_words(const int8_t *p, int32_t nw) {
    uint32_t acc = 0, v, t;
    const uint32_t end = (uint32_t)(uintptr_t)p + 4u * (uint32_t)nw, m = 0x00FF00FFu, x = 0x80808080u;
    uintptr_t q = (uintptr_t)p;
    __asm__(".syntax unified\n"
            "1:\n\t"
            "ldmia %[q]!, {%[v]}\n\t"
            "eors %[v], %[x]\n\t"
            "lsrs %[t], %[v], #8\n\t"
            "ands %[v], %[m]\n\t"
            "ands %[t], %[m]\n\t"
            "adds %[acc], %[acc], %[v]\n\t"
            "adds %[acc], %[acc], %[t]\n\t"
            "cmp %[q], %[end]\n\t"
            "bne 1b\n\t"
#if !defined(__ARM_ASM_SYNTAX_UNIFIED__)
            ".syntax divided\n\t"
#endif
            : [acc] "+l"(acc), [q] "+l"(q), [v] "=&l"(v), [t] "=&l"(t)
            : [end] "l"(end), [m] "l"(m), [x] "l"(x), "m"(*(const int8_t(*)[512])p)
            : "cc");
    return (acc & 0xFFFFu) + (acc >> 16);
}

/* The same sum over 2 * n2 words (n2 in [1, 64]), two words per LDM and no
 * second mask: with a_i the flipped bytes, E = sum(word & 0x00FF00FF) holds
 * sum a0 and sum a2 in its halves, H = sum(word >> 8) = sum a1 + 2^8 sum a2
 * + 2^16 sum a3 (below 2^32 for 128 words), so H - 2^8 sum a2 holds sum a1
 * and sum a3 in its halves.  13 instructions per 2 words, against 18; the
 * end pointer in r8. */
uint32_t ta__m0_sum_words2(const int8_t *p, int32_t n2);
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_sum_words2,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_sum_words2\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_sum_words2, %function\n"
        "ta__m0_sum_words2:\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "mov r4, r8\n\t"
        "push {r4}\n\t"
        "lsls r1, r1, #3\n\t"
        "adds r1, r0, r1\n\t"
        "mov r8, r1\n\t"
        "movs r6, #255\n\t"
        "lsls r7, r6, #16\n\t"
        "orrs r6, r7\n\t" /* 0x00FF00FF */
        "lsls r7, r6, #7\n\t"
        "ands r7, r6\n\t" /* 0x00800080 */
        "lsls r1, r7, #8\n\t"
        "orrs r7, r1\n\t" /* 0x80808080 */
        "movs r2, #0\n\t"
        "movs r3, #0\n"
        "1:\n\t"
        "ldmia r0!, {r4, r5}\n\t"
        "eors r4, r7\n\t"
        "eors r5, r7\n\t"
        "lsrs r1, r4, #8\n\t"
        "ands r4, r6\n\t"
        "adds r2, r2, r4\n\t"
        "adds r3, r3, r1\n\t"
        "lsrs r1, r5, #8\n\t"
        "ands r5, r6\n\t"
        "adds r2, r2, r5\n\t"
        "adds r3, r3, r1\n\t"
        "cmp r0, r8\n\t"
        "bne 1b\n\t"
        "lsrs r4, r2, #16\n\t" /* sum a2 */
        "lsls r5, r4, #8\n\t"
        "subs r3, r3, r5\n\t" /* sum a1 + 2^16 sum a3 */
        "uxth r5, r2\n\t"
        "adds r4, r4, r5\n\t"
        "uxth r5, r3\n\t"
        "adds r4, r4, r5\n\t"
        "lsrs r3, r3, #16\n\t"
        "adds r0, r4, r3\n\t"
        "pop {r4}\n\t"
        "mov r8, r4\n\t"
        "pop {r4, r5, r6, r7}\n\t"
        "bx lr\n\t"
        ".size ta__m0_sum_words2, .-ta__m0_sum_words2\n\t"
        ".text\n\t" TA__ASM_RESTORE);

/* ta__sum_s8 of a weight row, by words when it is word-aligned (the usual
 * rows: depth a multiple of 4, the tensor aligned in the model): pairs of
 * words by ta__m0_sum_words2, an odd last word by m0_sum_words. */
static int32_t pw_m0_wsum(const int8_t *w, int32_t n) {
    if (((uintptr_t)w & 3u) != 0 || n % 4 != 0) return ta__sum_s8(w, n);
    const int32_t nw = n >> 2;
    uint32_t u = 0;
    int32_t j = 0;
    for (; nw - j >= 2; j += 128) {
        const int32_t m = nw - j < 128 ? nw - j : 128;
        u += ta__m0_sum_words2(w + 4 * j, m >> 1);
        if (m & 1) break;
    }
    if (nw & 1) u += m0_sum_words(w + 4 * (nw - 1), 1);
    return (int32_t)(u - (uint32_t)nw * 512u);
}

/* Up to 4 output channels the 1x1 kernel runs together: their rows (ends),
 * output channels and constants; n of them set. */
typedef struct pw_m0_set {
    const int8_t *rows[4];
    int32_t ch[4];
    ta__rqm rqm[4]; /* for ta__m0_dot1x4_rq (fold inside) */
    ta__rq rq[4];   /* for the C requantisation */
    int n;
} pw_m0_set;

/* n pixels of an adjacent set with the assembly requantisation, from x
 * and op on (xs, os bytes apart): nothing else is live in this loop (GCC's
 * -Os kept the set's fields in spilled locals when it was inline). */
static __attribute__((noinline)) void pw_m0_px_rq(const int8_t *x, int8_t *op, int32_t n, ptrdiff_t xs, ptrdiff_t os,
                                                  const pw_m0_set *s, int32_t depth, const uint32_t *wp) {
    const int8_t *const *rows = s->rows;
    const ta__rqm *k = s->rqm;
    if (wp != NULL)
        for (; n > 0; n--, x += xs, op += os) ta__m0_dot2x4_rq(x, wp, depth, op, k);
    else
        for (; n > 0; n--, x += xs, op += os) ta__m0_dot1x4_rq(x, rows, depth, op, k);
}

/* The deepest layer ta__m0_dot2x4_rq takes: its packed weights, 8 bytes per
 * input channel for the set's 4 channels, sit on the stack (1 KB). */
#define PW_M0_PAIR_DEPTH 128

/* A set's weights packed for ta__m0_dot2x4_rq: word 4i + j is
 * w1 + w0 * 2^16 for channel j's input pair i (w0 = row[2i], w1 =
 * row[2i + 1], as integers, not as bit fields).  False (nothing usable) when
 * a pair is -128, -128, whose two-term dot product can reach 2^15 (that
 * pair's word is 0xFF7FFF80 and no other pair's is).  One pass per call,
 * about 6 instructions a pair, against 2 MACs per pixel saved a pair. */
/* One row of pw_m0_pack from a word-aligned row, a word (two pairs) per
 * pass: 21 instructions per 2 pairs, where GCC's byte loop took 15 a pair.
 *   int ta__m0_pack_row(const int8_t *w, int32_t depth, uint32_t *d);
 * d: the row's first word, the next pair's 16 bytes on; 0 on a pair of -128. */
int ta__m0_pack_row(const int8_t *w, int32_t depth, uint32_t *d);
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_pack_row,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_pack_row\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_pack_row, %function\n"
        "ta__m0_pack_row:\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "adds r1, r0, r1\n\t"
        "movs r7, #128\n\t"
        "lsls r7, r7, #16\n\t"
        "adds r7, #127\n\t"
        "mvns r7, r7\n" /* 0xFF7FFF80: the pair -128, -128 */
        "1:\n\t"
        "ldmia r0!, {r3}\n\t"
        "lsls r4, r3, #24\n\t"
        "asrs r4, r4, #8\n\t" /* byte 0 * 2^16 */
        "lsls r5, r3, #16\n\t"
        "asrs r5, r5, #24\n\t" /* byte 1 */
        "adds r4, r4, r5\n\t"
        "cmp r4, r7\n\t"
        "beq 2f\n\t"
        "str r4, [r2]\n\t"
        "asrs r5, r3, #24\n\t" /* byte 3 */
        "lsls r4, r3, #8\n\t"
        "asrs r4, r4, #24\n\t"
        "lsls r4, r4, #16\n\t" /* byte 2 * 2^16 */
        "adds r4, r4, r5\n\t"
        "cmp r4, r7\n\t"
        "beq 2f\n\t"
        "str r4, [r2, #16]\n\t"
        "adds r2, #32\n\t"
        "cmp r0, r1\n\t"
        "bne 1b\n\t"
        "movs r0, #1\n\t"
        "pop {r4, r5, r6, r7}\n\t"
        "bx lr\n"
        "2:\n\t"
        "movs r0, #0\n\t"
        "pop {r4, r5, r6, r7}\n\t"
        "bx lr\n\t"
        ".size ta__m0_pack_row, .-ta__m0_pack_row\n\t"
        ".text\n\t" TA__ASM_RESTORE);

static bool pw_m0_pack(const int8_t *const rows[4], int32_t depth, uint32_t *wp) {
    for (int j = 0; j < 4; j++) {
        const int8_t *w = rows[j] - depth;
        uint32_t *d = wp + j;
        if (((uintptr_t)w & 3u) == 0) {
            if (!ta__m0_pack_row(w, depth, d)) return false;
            continue;
        }
        for (int32_t i = 0; i < depth; i += 2, d += 4) {
            const uint32_t v = (uint32_t)(int32_t)w[i] * 65536u + (uint32_t)(int32_t)w[i + 1];
            if (v == 0xFF7FFF80u) return false;
            *d = v;
        }
    }
    return true;
}

/* Every pixel of set s's 4 channels: by ta__m0_dot2x4_rq on the packed
 * weights wp when given, else with the assembly requantisation when asm_rq
 * (every channel ta__rqm_ch_ok), else the dot products and ta__rq_s8.
 * Adjacent channels are stored in place, others through 4 bytes on the
 * stack. */
static __attribute__((noinline)) void pw_m0_set_loop(const ta_conv_params *p, const int8_t *input, int8_t *output,
                                                     pw_m0_set *s, bool asm_rq, const uint32_t *wp) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t depth = p->filter.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const ptrdiff_t xs = (ptrdiff_t)p->stride_w * in.c, ys = (ptrdiff_t)p->stride_h * in.w * in.c;
    const int32_t c0 = s->ch[0];
    const bool adjacent = s->ch[1] == c0 + 1 && s->ch[2] == c0 + 2 && s->ch[3] == c0 + 3;
    int8_t tmp[4];
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++) {
            const int8_t *x = input + ((ptrdiff_t)b * in.h * in.w * in.c) + (ptrdiff_t)oy * ys;
            int8_t *op = output + ta__nhwc_p(&out, b, oy, 0);
            if (asm_rq && adjacent) {
                /* the common set: a loop of its own, with the row whole
                 * when stride 1 makes the image one run of pixels */
                const bool whole = xs == in.c && out.w == in.w && p->stride_h == 1;
                pw_m0_px_rq(x, op + c0, whole ? out.h * out.w : out.w, xs, out.c, s, depth, wp);
                if (whole) break;
                continue;
            }
            for (int32_t ox = 0; ox < out.w; ox++, x += xs, op += out.c) {
                int8_t *dst = adjacent ? op + c0 : tmp;
                if (wp != NULL) {
                    ta__m0_dot2x4_rq(x, wp, depth, dst, s->rqm);
                } else if (asm_rq) {
                    ta__m0_dot1x4_rq(x, s->rows, depth, dst, s->rqm);
                } else {
                    int32_t acc[4];
                    ta__m0_dot1x4(x, s->rows, depth, acc);
                    for (int j = 0; j < 4; j++) dst[j] = ta__rq_s8(&s->rq[j], ro, (uint32_t)acc[j] + s->rqm[j].fold);
                }
                if (!adjacent) op[s->ch[0]] = tmp[0], op[s->ch[1]] = tmp[1], op[s->ch[2]] = tmp[2], op[s->ch[3]] = tmp[3];
            }
        }
}

/* The packed weights on the stack, in frames of their own so that only a
 * call that packs pays them: 256 B up to depth 32 (the 1x1 layers of
 * person_detect's patch stages, whose band loop is the deepest stack), 1 KB
 * up to PW_M0_PAIR_DEPTH.  False when pw_m0_pack refuses the set. */
static __attribute__((noinline)) bool pw_m0_set_pk32(const ta_conv_params *p, const int8_t *input, int8_t *output,
                                                     pw_m0_set *s) {
    uint32_t wbuf[32 * 2];
    if (!pw_m0_pack(s->rows, p->filter.c, wbuf)) return false;
    pw_m0_set_loop(p, input, output, s, true, wbuf);
    return true;
}
static __attribute__((noinline)) bool pw_m0_set_pk128(const ta_conv_params *p, const int8_t *input, int8_t *output,
                                                      pw_m0_set *s) {
    uint32_t wbuf[PW_M0_PAIR_DEPTH * 2];
    if (!pw_m0_pack(s->rows, p->filter.c, wbuf)) return false;
    pw_m0_set_loop(p, input, output, s, true, wbuf);
    return true;
}

/* Packing costs about 10 instructions per pair of weights and saves about
 * 1.4 per pair and pixel: a call of fewer pixels (the OVERLAP walk's one-row
 * bands of the 6x6 layers) keeps ta__m0_dot1x4_rq. */
#define PW_M0_PAIR_MIN_PX 12

/* Every pixel of set s's channels (a set of fewer than 4 repeats its last
 * channel), by pw_m0_set_loop: packed for ta__m0_dot2x4_rq when the
 * requantisation is the assembly's, the depth at most PW_M0_PAIR_DEPTH and
 * the call has PW_M0_PAIR_MIN_PX pixels, else ta__m0_dot1x4_rq or C. */
static void pw_m0_set_run(const ta_conv_params *p, const int8_t *input, int8_t *output, pw_m0_set *s, bool asm_rq) {
    for (int j = s->n; j < 4; j++) {
        s->rows[j] = s->rows[j - 1], s->ch[j] = s->ch[j - 1];
        s->rqm[j] = s->rqm[j - 1], s->rq[j] = s->rq[j - 1];
    }
    s->n = 0;
    const int32_t depth = p->filter.c;
    const ta_dims4 out = p->output;
    if (asm_rq && depth <= PW_M0_PAIR_DEPTH && (ptrdiff_t)out.n * out.h * out.w >= PW_M0_PAIR_MIN_PX &&
        (depth <= 32 ? pw_m0_set_pk32(p, input, output, s) : pw_m0_set_pk128(p, input, output, s)))
        return;
    pw_m0_set_loop(p, input, output, s, asm_rq, NULL);
}

/* The 1x1 convolutions it takes (ta__pw_m0_ok), every output channel:
 *  - a channel whose every window requantises to one byte (ta__pw_const:
 *    the dead channels of vww_96_int8's deep layers, a bias of +-2^30 that
 *    no window sum can move; up to 92% of a layer's channels there) is
 *    filled with that byte, no dot product;
 *  - the others in sets of 4, those the assembly requantisation takes
 *    (ta__rqm_ch_ok) apart from the rest, so that one channel with a long
 *    rounding shift no longer sends its layer to the C requantisation.
 * Only channels whose fold is at least the window's reach are tested for
 * a constant (a window sum then cannot cross 0): the test costs two
 * requantisations, and a live channel's bias is far smaller. */
static int32_t pw_m0(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                     int8_t *output) {
    const ta_dims4 out = p->output;
    const int32_t depth = p->filter.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const int64_t reach = (int64_t)depth * 16384;
    const ptrdiff_t npx = (ptrdiff_t)out.n * out.h * out.w;
    pw_m0_set sets[2]; /* [1]: the assembly requantisation's, [0]: the rest */
    sets[0].n = sets[1].n = 0;
    for (int32_t oc = 0; oc < out.c; oc++) {
        const int8_t *w = filter + (ptrdiff_t)oc * depth;
        const ta__rq rq = ta__rq_make(&p->q, oc);
        const uint32_t fold = ta__fold(bias, oc, p->q.input_offset, pw_m0_wsum(w, depth));
        const int64_t f = (int32_t)fold;
        int8_t kb;
        if ((f < 0 ? -f : f) >= reach && ta__pw_const(&rq, ro, fold, depth, &kb)) {
            int8_t *op = output + oc;
            for (ptrdiff_t i = 0; i < npx; i++, op += out.c) *op = kb;
            continue;
        }
        const bool asm_rq = ta__rqm_ch_ok(&p->q, oc);
        pw_m0_set *s = &sets[asm_rq];
        s->rows[s->n] = w + depth, s->ch[s->n] = oc, s->rq[s->n] = rq;
        s->rqm[s->n] = ta__rqm_make(&rq, ro);
        s->rqm[s->n].fold = fold;
        if (++s->n == 4) pw_m0_set_run(p, input, output, s, asm_rq);
    }
    for (int k = 0; k < 2; k++)
        if (sets[k].n) pw_m0_set_run(p, input, output, &sets[k], k == 1);
    return out.c;
}

/* Small one-group convolutions (ta__gather_m0_ok: the first layer's 3x3 on
 * RGB): each window gathered once into kp bytes (pw_gather_px) and run
 * against every 4 output channels by the 1x1 assembly.  The weights are
 * copied once into kp-byte rows, zero-extended past K (the dot product
 * reads kp bytes of each row and must not read past the filter); a set of
 * 4 channels whose constants the assembly requantisation does not take
 * (ta__rqm_ch_ok) is requantised in C. */
static int32_t gather_m0(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                         int8_t *output) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t k = p->filter.h * p->filter.w * p->filter.c, kp = (k + 3) & ~3;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    int8_t wbuf[TA__GATHER_M0_BYTES];
    const int8_t *rows[TA__GATHER_M0_CH];
    ta__rq rq[TA__GATHER_M0_CH];
    ta__rqm rqm[TA__GATHER_M0_CH];
    bool asm_rq[TA__GATHER_M0_CH / 4];
    for (int32_t oc = 0; oc < out.c; oc++) {
        int8_t *w = wbuf + oc * kp;
        for (int32_t i = 0; i < kp; i++) w[i] = i < k ? filter[(ptrdiff_t)oc * k + i] : 0;
        rows[oc] = w + kp;
        rq[oc] = ta__rq_make(&p->q, oc);
        rqm[oc] = ta__rqm_make(&rq[oc], ro);
        rqm[oc].fold = ta__fold(bias, oc, p->q.input_offset, pw_m0_wsum(w, kp));
        if (oc % 4 == 0) asm_rq[oc / 4] = true;
        asm_rq[oc / 4] = asm_rq[oc / 4] && ta__rqm_ch_ok(&p->q, oc);
    }
    const pw_gather g = {input, in, p->filter.h, p->filter.w, p->stride_h, p->stride_w, p->dilation_h,
                         p->dilation_w, p->pad_h, p->pad_w, k, kp, (int8_t)-p->q.input_offset};
    uint32_t col[21]; /* one window, kp <= 84 bytes */
    int8_t *op = output;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox = 0; ox < out.w; ox++, op += out.c) {
                pw_gather_px(&g, b, oy, ox, col);
                for (int32_t c0 = 0; c0 < out.c; c0 += 4) {
                    if (asm_rq[c0 / 4]) {
                        ta__m0_dot1x4_rq((const int8_t *)col, rows + c0, kp, op + c0, rqm + c0);
                        continue;
                    }
                    int32_t acc[4];
                    ta__m0_dot1x4((const int8_t *)col, rows + c0, kp, acc);
                    for (int j = 0; j < 4; j++)
                        op[c0 + j] = ta__rq_s8(&rq[c0 + j], ro, (uint32_t)acc[j] + rqm[c0 + j].fold);
                }
            }
    return out.c;
}

ta_status ta__kv_conv_s8_pw_m0(ta_kernel_args *a) {
    a->done = ta__pw_m0_ok(a->p) ? pw_m0(a->p, a->input, a->weights, a->bias, a->output)
                                 : gather_m0(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}
#endif
