/*
 * CONV_2D int8 on the DSP cores (M4, M7, M33): the 1x1 kernel in assembly,
 * variants of the fast kernel (conv2d_s8_fast.c) that its dispatcher
 * reaches through the variant table (tinyarena/kernel_link.h), so a
 * firmware links only those its model uses: 1x1 convolutions by channel
 * groups, the weights unpacked to int16 pairs, one pixel loop per channel
 * count and requantisation (each a variant), and small one-group windows
 * gathered into it (conv_pw_gather.h).  armv6-m's 1x1 kernel is
 * conv2d_s8_pw_m0.c.
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

#if defined(TA__DOT_DSP)
#include "runtime/kernels/conv_pw_gather.h"

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


/* The dot products of one pixel (xp to xe, depth bytes) against nch (4 or
 * 2) channels' unpacked weights at wbuf, into acc[0..nch-1]; returns xe. */
static TA__ALWAYS_INLINE const int8_t *pw_dot(const int8_t *xp, const int8_t *xe, bool by16, int32_t nch,
                                              const uint32_t *wbuf, int32_t acc[4]) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
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
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    return xp;
}

/* One pixel of rmode 1 (every channel PW_RQS) against nch channels: the
 * dot products from xp (depth bytes) and the 4 words a channel at rc,
 * stored at op; returns xp + depth. */
static TA__ALWAYS_INLINE const int8_t *pw_px_r1(const int8_t *xp, int32_t depth, bool by16, int32_t nch,
                                                const uint32_t *wbuf, const uint32_t *rc, int8_t *op) {
    int32_t acc[4];
    xp = pw_dot(xp, xp + depth, by16, nch, wbuf, acc);
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const uint32_t *cp = rc;
    register uint32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");
    if (nch == 4) {
        __asm__ volatile(PW_RQS("a0") PW_RQS("a1") PW_RQS("a2") PW_RQS("a3")
                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [cp] "+r"(cp), [w0] "=&r"(w0),
                           [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3)
                         :
                         : "memory");
        op[0] = (int8_t)a0, op[1] = (int8_t)a1, op[2] = (int8_t)a2, op[3] = (int8_t)a3;
    } else {
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
                int32_t acc[4];
                pw_dot(x, x + depth, by16, nch, wbuf, acc);
                int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
                register uint32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");
                if (nch == 4) {
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
    const ta__pw_gather g = {input, in, p->filter.h, p->filter.w, p->stride_h, p->stride_w, p->dilation_h,
                         p->dilation_w, p->pad_h, p->pad_w, k, kp, (int8_t)-p->q.input_offset};
    uint32_t *col = buf + 2 * kp;
    const int32_t tile = (TA__PW_BUF_WORDS - 2 * kp) * 4 / kp;
    int32_t done = 0;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox0 = 0; ox0 < out.w; ox0 += tile) {
                const int32_t t = out.w - ox0 < tile ? out.w - ox0 : tile;
                for (int32_t i = 0; i < t; i++) ta__pw_gather_px(&g, b, oy, ox0 + i, col + i * (kp / 4));
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
