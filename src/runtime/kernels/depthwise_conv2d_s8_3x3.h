/* Internal: DEPTHWISE_CONV_2D int8's 3x3 kernels on Cortex-M, the variant
 * TA_KV_DW_S8_3X3_DSP / _M0 (tinyarena/kernel_link.h): MobileNet's 3x3
 * depthwise layers, 4 channels at a time with each window's 9 taps unrolled
 * -- SXTB16 and SMLAxy on the DSP cores, Thumb-1 assembly on armv6-m.
 * Included once, by depthwise_conv2d_s8_fast.c (its ta__kv_dw_s8_3x3 calls
 * dw3_run or dw3_m0_run), where this code was written: kept in that
 * translation unit because GCC's choices depend on it -- compiled as a unit
 * of its own, the shared requant.h and kernel_variants.h helpers got inlined
 * at -Os (one caller left in each unit) and dw3_run's registers were
 * allocated differently at -O2, which would have changed the firmware's
 * code and instruction counts.  Nothing here is compiled for the hosts. */
#ifndef TA_KERNELS_DEPTHWISE_CONV2D_S8_3X3_H
#define TA_KERNELS_DEPTHWISE_CONV2D_S8_3X3_H


#if defined(TA__DOT_DSP)
/* The DSP cores' 3x3 kernel (depth multiplier 1, channels a multiple of 4:
 * MobileNet's depthwise layers).  Per block of 4 channels the 9 taps'
 * weights are unpacked once into int16 pairs (dw3_block: wx, on the stack,
 * 72 bytes), so a tap costs one input load, two SXTB16 and four
 * SMLABB/SMLATT, with the 9 taps unrolled and no loop counter.
 * A window clipped by padding is not special-cased tap by tap: its outside
 * taps read the byte -input_offset instead, whose term w * (x +
 * input_offset) is 0, so the fold over all 9 taps' weights stays right
 * (needs -input_offset to be an int8, checked).  Such windows are gathered
 * into a 9-word local copy first; the inside ones are read in place.
 * A depth multiplier that is a multiple of 4 (a one-channel image's first
 * layer) goes the same way: the 4 channels of a block read one input byte,
 * replicated into the word's 4 lanes. */
#define DW3_LOAD(ptr) (bcast ? (uint32_t)(uint8_t)*(ptr) * 0x01010101u : ta__ld32(ptr))

/* One window's 9 taps in assembly (dm 1): per tap an LDRD of its two
 * unpacked weight words, a load of the 4 channels' bytes (LDR with a
 * register offset, the third tap of a row at 2 * tx by LSL #1), two SXTB16
 * and four SMLAxy -- 8 instructions, where GCC, short of registers for the
 * 18 weight words and the strides, reloads and spills (about 14).  %[r]
 * walks the rows (ty bytes apart), %[wp] the weights (wk: 18 words, then
 * the 4 channels' PW_RQS-style constants, which DW3_RQS reads on). */
#define DW3_ASM_TAP0(OFF)                                  \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                  \
    "ldr %[xv], [%[r]" OFF "]\n\t"                         \
    "sxtb16 %[x02], %[xv]\n\t"                             \
    "sxtb16 %[xv], %[xv], ror #8\n\t"                      \
    "smulbb %[a0], %[x02], %[w0]\n\t"                      \
    "smultt %[a2], %[x02], %[w0]\n\t"                      \
    "smulbb %[a1], %[xv], %[w1]\n\t"                       \
    "smultt %[a3], %[xv], %[w1]\n\t"
#define DW3_ASM_TAP(OFF)                                   \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                  \
    "ldr %[xv], [%[r]" OFF "]\n\t"                         \
    "sxtb16 %[x02], %[xv]\n\t"                             \
    "sxtb16 %[xv], %[xv], ror #8\n\t"                      \
    "smlabb %[a0], %[x02], %[w0], %[a0]\n\t"               \
    "smlatt %[a2], %[x02], %[w0], %[a2]\n\t"               \
    "smlabb %[a1], %[xv], %[w1], %[a1]\n\t"                \
    "smlatt %[a3], %[xv], %[w1], %[a3]\n\t"
#define DW3_ASM_ROW                                        \
    DW3_ASM_TAP("") DW3_ASM_TAP(", %[tx]") DW3_ASM_TAP(", %[tx], lsl #1") "add %[r], %[r], %[ty]\n\t"
/* The same for a depth multiplier that is a multiple of 4 (bcast): the 4
 * channels read one input byte, LDRSB then PKHBT into both halves (what
 * SXTB16 of the byte replicated would give): 7 instructions a tap. */
#define DW3_ASM_TAPB0(OFF)                                 \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                  \
    "ldrsb %[xv], [%[r]" OFF "]\n\t"                       \
    "pkhbt %[x02], %[xv], %[xv], lsl #16\n\t"              \
    "smulbb %[a0], %[x02], %[w0]\n\t"                      \
    "smultt %[a2], %[x02], %[w0]\n\t"                      \
    "smulbb %[a1], %[x02], %[w1]\n\t"                      \
    "smultt %[a3], %[x02], %[w1]\n\t"
#define DW3_ASM_TAPB(OFF)                                  \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                  \
    "ldrsb %[xv], [%[r]" OFF "]\n\t"                       \
    "pkhbt %[x02], %[xv], %[xv], lsl #16\n\t"              \
    "smlabb %[a0], %[x02], %[w0], %[a0]\n\t"               \
    "smlatt %[a2], %[x02], %[w0], %[a2]\n\t"               \
    "smlabb %[a1], %[x02], %[w1], %[a1]\n\t"               \
    "smlatt %[a3], %[x02], %[w1], %[a3]\n\t"
#define DW3_ASM_ROWB                                       \
    DW3_ASM_TAPB("") DW3_ASM_TAPB(", %[tx]") DW3_ASM_TAPB(", %[tx], lsl #1") "add %[r], %[r], %[ty]\n\t"
/* ta__rqs_s8 (full range, no clamp: mode 2) of %[A], the channel's fold2,
 * mult, add and right loaded by one LDM: as the 1x1 kernel's PW_RQS. */
#define DW3_RQS(A)                                        \
    "ldmia %[wp]!, {%[k0], %[k1], %[k2], %[k3]}\n\t"      \
    "add %[" A "], %[k0], %[" A "], lsl #1\n\t"          \
    "smmulr %[" A "], %[" A "], %[k1]\n\t"                \
    "add %[" A "], %[" A "], %[" A "], asr #31\n\t"       \
    "add %[" A "], %[" A "], %[k2]\n\t"                   \
    "asr %[" A "], %[" A "], %[k3]\n\t"                   \
    "ssat %[" A "], #8, %[" A "]\n\t"

/* The window at x (taps tx apart along a row, rows ty apart) against the
 * block's wk: the 4 sums, requantised (DW3_RQS) when rq, in acc. */
static TA__ALWAYS_INLINE void dw3_asm(const int8_t *x, ptrdiff_t tx, ptrdiff_t ty, const uint32_t *wk, bool rq,
                                      bool bcast, int32_t acc[4]) {
    int32_t a0, a1, a2, a3;
    uint32_t w0, w1, xv, x02;
    const uint32_t *wp = wk;
    const int8_t *r = x;
    if (bcast)
        __asm__ volatile(DW3_ASM_TAPB0("") DW3_ASM_TAPB(", %[tx]") DW3_ASM_TAPB(", %[tx], lsl #1")
                         "add %[r], %[r], %[ty]\n\t" DW3_ASM_ROWB DW3_ASM_ROWB
                         : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [r] "+r"(r), [wp] "+r"(wp),
                           [w0] "=&r"(w0), [w1] "=&r"(w1), [xv] "=&r"(xv), [x02] "=&r"(x02)
                         : [tx] "r"(tx), [ty] "r"(ty)
                         : "memory");
    else
        __asm__ volatile(DW3_ASM_TAP0("") DW3_ASM_TAP(", %[tx]") DW3_ASM_TAP(", %[tx], lsl #1")
                     "add %[r], %[r], %[ty]\n\t" DW3_ASM_ROW DW3_ASM_ROW
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [r] "+r"(r), [wp] "+r"(wp),
                       [w0] "=&r"(w0), [w1] "=&r"(w1), [xv] "=&r"(xv), [x02] "=&r"(x02)
                     : [tx] "r"(tx), [ty] "r"(ty)
                     : "memory");
    if (rq) {
        /* LDM fills its registers in ascending order: fixed ones, as the
         * 1x1 kernel's */
        register uint32_t k0 __asm__("r8"), k1 __asm__("r9"), k2 __asm__("r10"), k3 __asm__("r11");
        __asm__ volatile(DW3_RQS("a0") DW3_RQS("a1") DW3_RQS("a2") DW3_RQS("a3")
                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [wp] "+r"(wp),
                           [k0] "=&r"(k0), [k1] "=&r"(k1), [k2] "=&r"(k2), [k3] "=&r"(k3)
                         :
                         : "memory");
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}
#undef DW3_RQS
#undef DW3_ASM_ROWB
#undef DW3_ASM_TAPB
#undef DW3_ASM_TAPB0
#undef DW3_ASM_ROW
#undef DW3_ASM_TAP
#undef DW3_ASM_TAP0


static TA__ALWAYS_INLINE void dw3_block(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                        const int32_t *bias, int8_t *output, int32_t c0, int mode, bool bcast) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t C = out.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const ptrdiff_t sx = (ptrdiff_t)p->dilation_w * in.c, sy = (ptrdiff_t)p->dilation_h * in.w * in.c;
    const int32_t dh = p->dilation_h, dw = p->dilation_w;
    const uint32_t padw = (uint32_t)(uint8_t)(int8_t)(-p->q.input_offset) * 0x01010101u;
    /* the block's input: channels c0.. (depth multiplier 1), or the one
     * input channel all 4 read (a multiple of 4: bcast, its byte
     * replicated into the 4 lanes) */
    const int32_t xc = bcast ? c0 / p->depth_multiplier : c0;
    uint32_t wx[18];
    int32_t ws[4] = {0, 0, 0, 0};
    for (int32_t t = 0; t < 9; t++) {
        const int8_t *w = filter + (ptrdiff_t)t * C + c0;
        const uint32_t wv = ta__ld32(w);
        wx[2 * t] = (uint32_t)__sxtb16(wv), wx[2 * t + 1] = (uint32_t)ta__sxtb16_ror8(wv);
        for (int32_t c = 0; c < 4; c++) ws[c] += w[c];
    }
    ta__rq rq[4];
    uint32_t fold[4];
    ta__rqs rs[4];
    for (int32_t c = 0; c < 4; c++) {
        rq[c] = ta__rq_make(&p->q, c0 + c);
        fold[c] = ta__fold(bias, c0 + c, p->q.input_offset, ws[c]);
        if (mode >= 2) (void)ta__rqs_make(&p->q, c0 + c, fold[c], 9, &rs[c]); /* dw3_run checked it */
    }
    /* dw3_asm's weights and, in mode 2, its requantisation constants */
    uint32_t wk[18 + 16];
    for (int32_t k = 0; k < 18; k++) wk[k] = wx[k];
    for (int32_t c = 0; mode == 2 && c < 4; c++) {
        wk[18 + 4 * c] = rs[c].fold2, wk[19 + 4 * c] = (uint32_t)rs[c].mult;
        wk[20 + 4 * c] = (uint32_t)rs[c].add, wk[21 + 4 * c] = (uint32_t)rs[c].right;
    }
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const int32_t iy0 = oy * p->stride_h - p->pad_h;
            const bool full_y = iy0 >= 0 && iy0 + 2 * dh < in.h;
            int8_t *op = output + ta__nhwc_p(&out, b, oy, 0) + c0;
            /* mode 2: the row's windows inside the image, [xlo, xhi), in one
             * loop that steps the input pointer (no bounds test, no address
             * arithmetic per window); the others below */
            const int32_t lim = in.w - 2 * dw + p->pad_w - 1; /* ox * stride_w <= lim */
            const int32_t xlo = (p->pad_w + p->stride_w - 1) / p->stride_w;
            const int32_t xhi = lim < 0 ? 0 : lim / p->stride_w + 1 < out.w ? lim / p->stride_w + 1 : out.w;
            const bool run = mode == 2 && full_y && xlo < xhi;
            for (int32_t ox = 0; ox < out.w; ox++, op += C) {
                if (run && ox == xlo) {
                    const int8_t *xi = input + ta__nhwc_p(&in, b, iy0, xlo * p->stride_w - p->pad_w) + xc;
                    const ptrdiff_t xs = (ptrdiff_t)p->stride_w * in.c;
                    for (; ox < xhi; ox++, op += C, xi += xs) {
                        int32_t acc[4];
                        dw3_asm(xi, sx, sy, wk, true, bcast, acc);
                        op[0] = (int8_t)acc[0], op[1] = (int8_t)acc[1], op[2] = (int8_t)acc[2], op[3] = (int8_t)acc[3];
                    }
                    if (ox == out.w) break;
                }
                const int32_t ix0 = ox * p->stride_w - p->pad_w;
                const int8_t *x;
                ptrdiff_t tx, ty;
                uint32_t win[9];
                if (full_y && ix0 >= 0 && ix0 + 2 * dw < in.w) {
                    x = input + ta__nhwc_p(&in, b, iy0, ix0) + xc;
                    tx = sx, ty = sy;
                } else {
                    /* the taps' x positions inside the image, as 3 bits */
                    uint32_t in_x = 0;
                    for (int32_t fx = 0; fx < 3; fx++)
                        in_x |= (uint32_t)((uint32_t)(ix0 + fx * dw) < (uint32_t)in.w) << fx;
                    for (int32_t fy = 0; fy < 3; fy++) {
                        const int32_t iy = iy0 + fy * dh;
                        uint32_t *wr = win + 3 * fy;
                        if ((uint32_t)iy >= (uint32_t)in.h) {
                            wr[0] = wr[1] = wr[2] = padw;
                            continue;
                        }
                        /* (the tap's offset is added only when it is inside) */
                        const int8_t *row = input + ta__nhwc_p(&in, b, iy, 0) + xc;
                        const ptrdiff_t o0 = (ptrdiff_t)ix0 * in.c;
                        wr[0] = in_x & 1 ? DW3_LOAD(row + o0) : padw;
                        wr[1] = in_x & 2 ? DW3_LOAD(row + (o0 + sx)) : padw;
                        wr[2] = in_x & 4 ? DW3_LOAD(row + (o0 + 2 * sx)) : padw;
                    }
                    x = (const int8_t *)win;
                    tx = 4, ty = 12;
                }
                /* (a gathered bcast window's words are its bytes replicated:
                 * LDRSB reads each word's first) */
                int32_t acc[4];
                dw3_asm(x, tx, ty, wk, mode == 2, bcast, acc);
                const int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
                if (mode == 2) {
                    op[0] = (int8_t)a0, op[1] = (int8_t)a1, op[2] = (int8_t)a2, op[3] = (int8_t)a3;
                    continue;
                }
                if (mode == 3) {
                    op[0] = ta__rqs_s8(&rs[0], ro, false, a0);
                    op[1] = ta__rqs_s8(&rs[1], ro, false, a1);
                    op[2] = ta__rqs_s8(&rs[2], ro, false, a2);
                    op[3] = ta__rqs_s8(&rs[3], ro, false, a3);
                } else if (mode == 1) {
                    op[0] = ta__rq_s8_sat(&rq[0], ro, (uint32_t)a0 + fold[0]);
                    op[1] = ta__rq_s8_sat(&rq[1], ro, (uint32_t)a1 + fold[1]);
                    op[2] = ta__rq_s8_sat(&rq[2], ro, (uint32_t)a2 + fold[2]);
                    op[3] = ta__rq_s8_sat(&rq[3], ro, (uint32_t)a3 + fold[3]);
                } else {
                    op[0] = ta__rq_s8(&rq[0], ro, (uint32_t)a0 + fold[0]);
                    op[1] = ta__rq_s8(&rq[1], ro, (uint32_t)a1 + fold[1]);
                    op[2] = ta__rq_s8(&rq[2], ro, (uint32_t)a2 + fold[2]);
                    op[3] = ta__rq_s8(&rq[3], ro, (uint32_t)a3 + fold[3]);
                }
            }
        }
    }
}
#undef DW3_LOAD

/* Whether dw3_block covers the layer; then runs it on every block. */
static bool dw3_run(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                    int8_t *output) {
    const int32_t C = p->output.c;
    const int32_t dm = p->depth_multiplier;
    if (!ta__dw3_ok(p)) return false;
    const bool sat = TA__RQ_SAT && ta__rq_sat_ok(&p->q, C);
    const bool rqs = TA__RQS && ta__rqs_layer_ok(&p->q, C);
    const bool full = p->q.act_min == -128 && p->q.act_max == 127;
    for (int32_t c0 = 0; c0 < C; c0 += 4) {
        /* four builds of the block, the requantisation chosen once per
         * block: the shortest (ta__rqs, with or without an activation
         * clamp) when all 4 channels' windows are small enough */
        bool small = rqs;
        for (int32_t c = 0; small && c < 4; c++) {
            int32_t ws = 0;
            for (int32_t t = 0; t < 9; t++) ws += filter[(ptrdiff_t)t * C + c0 + c];
            ta__rqs unused;
            small = ta__rqs_make(&p->q, c0 + c, ta__fold(bias, c0 + c, p->q.input_offset, ws), 9, &unused);
        }
        const int mode = small && full ? 2 : small ? 3 : sat ? 1 : 0;
        if (dm != 1)
            dw3_block(p, input, filter, bias, output, c0, mode, true);
        else if (mode == 2)
            dw3_block(p, input, filter, bias, output, c0, 2, false);
        else if (mode == 3)
            dw3_block(p, input, filter, bias, output, c0, 3, false);
        else if (mode == 1)
            dw3_block(p, input, filter, bias, output, c0, 1, false);
        else
            dw3_block(p, input, filter, bias, output, c0, 0, false);
    }
    return true;
}
#endif

#if defined(__ARM_ARCH_6M__)
/* armv6-m (M0/M0+) 3x3 depthwise, depth multiplier 1: one window of 4
 * channels in assembly.  Thumb-1's LDRSB takes only a register offset, which
 * costs GCC a register and an add per tap (it spilled: 25 instructions per
 * MAC); LDRB takes an immediate, so a term is LDRB, SXTB, LDR (the weight,
 * sign-extended into a word table built once per block), MULS, ADD, and the
 * 4 sums stay in r2-r5.  The taps' input strides live in r8/r9 (ADD reaches
 * the high registers).  Byte loads only: nothing is read unaligned.
 *   void ta__m0_dw3x4(const int8_t *x, const int32_t wx[36], int32_t acc[4],
 *                     const int32_t st[2]);
 * x: the window's first tap, channel c0; wx[4 * t + c]: tap t's (fy * 3 +
 * fx) weight of channel c0 + c; st[0] bytes between taps along x, st[1]
 * from a row's last tap to the next row's first. */
void ta__m0_dw3x4(const int8_t *x, const int32_t *wx, int32_t *acc, const int32_t *st);
#define M0_DW_TERM(C, W, A) \
    "ldrb r6, [r0, #" C "]\n\tsxtb r6, r6\n\tldr r7, [r1, #" W "]\n\tmuls r6, r7, r6\n\tadds " A ", r6\n\t"
#define M0_DW_TAP(T, C1, C2, C3)                                                                            \
    M0_DW_TERM("0", #T "*16", "r2") M0_DW_TERM(C1, #T "*16+4", "r3") M0_DW_TERM(C2, #T "*16+8", "r4") \
        M0_DW_TERM(C3, #T "*16+12", "r5")
#define M0_DW_ROW(C1, C2, C3)                                                                       \
    M0_DW_TAP(0, C1, C2, C3) "add r0, r8\n\t" M0_DW_TAP(1, C1, C2, C3) "add r0, r8\n\t" M0_DW_TAP(2, C1, C2, C3)
/* NAME reads channel c's byte at offset 0, C1, C2, C3 of each tap; TAIL
 * stores or requantises the sums in r2-r5 (r1, r6, r7 free; sp: the third
 * argument, saved r8, r9, then r4-r7 and lr, then a fifth argument). */
#define M0_DW_FUNC(NAME, C1, C2, C3, INIT, TAIL)              \
    __asm__(TA__ASM_UNIFIED                                   \
            ".section .text." #NAME ",\"ax\",%progbits\n\t"   \
            ".balign 2\n\t"                                   \
            ".global " #NAME "\n\t"                           \
            ".thumb\n\t"                                      \
            ".thumb_func\n\t"                                 \
            ".type " #NAME ", %function\n" #NAME ":\n\t"      \
            "push {r4, r5, r6, r7, lr}\n\t"                   \
            "mov r4, r8\n\t"                                  \
            "mov r5, r9\n\t"                                  \
            "push {r2, r4, r5}\n\t"                           \
            "ldr r4, [r3]\n\t"                                \
            "mov r8, r4\n\t"                                  \
            "ldr r4, [r3, #4]\n\t"                            \
            "mov r9, r4\n\t" INIT M0_DW_ROW(C1, C2, C3) "add r0, r9\n\t" \
            "adds r1, #48\n\t" M0_DW_ROW(C1, C2, C3) "add r0, r9\n\t" \
            "adds r1, #48\n\t" M0_DW_ROW(C1, C2, C3) TAIL     \
            "pop {r1, r6, r7}\n\t"                            \
            "mov r8, r6\n\t"                                  \
            "mov r9, r7\n\t"                                  \
            "pop {r4, r5, r6, r7, pc}\n\t"                    \
            ".size " #NAME ", .-" #NAME "\n\t"                \
            ".text\n\t" TA__ASM_RESTORE)
/* ta__m0_dw3x1: the same for a depth multiplier that is a multiple of 4,
 * whose 4 channels all read one input byte (offset 0). */
void ta__m0_dw3x1(const int8_t *x, const int32_t *wx, int32_t *acc, const int32_t *st);
/* _rq: the 4 sums + their folds requantised in the same assembly
 * (TA__M0_RQ_OUT, requant.h) and stored at out[0..3], the constants k[c]
 * (ta__rqm with fold set): no acc array, no call per output. */
void ta__m0_dw3x4_rq(const int8_t *x, const int32_t *wx, int8_t *out, const int32_t *st, const ta__rqm *k);
void ta__m0_dw3x1_rq(const int8_t *x, const int32_t *wx, int8_t *out, const int32_t *st, const ta__rqm *k);
_Static_assert(sizeof(ta__rqm) == 48 && offsetof(ta__rqm, fold) == 44, "the _rq kernels read ta__rqm by offsets");
#define M0_DW_STORE "ldr r1, [sp]\n\tstmia r1!, {r2, r3, r4, r5}\n\t"
#define M0_DW_RQ                                                                                        \
    "push {r2, r3, r4, r5}\n\t"                                                                        \
    "ldr r7, [sp, #48]\n\t" TA__M0_RQ4
#define M0_DW_ZERO "movs r2, #0\n\tmovs r3, #0\n\tmovs r4, #0\n\tmovs r5, #0\n\t"
/* the sums start at the channels' folds (k: the fifth argument, sp + 32) */
#define M0_DW_FOLDS                                                                            \
    "ldr r5, [sp, #32]\n\tldr r2, [r5, #44]\n\tldr r3, [r5, #92]\n\tadds r5, #96\n\tldr r4, [r5, #44]\n\t" \
    "ldr r5, [r5, #92]\n\t"
M0_DW_FUNC(ta__m0_dw3x4, "1", "2", "3", M0_DW_ZERO, M0_DW_STORE);
M0_DW_FUNC(ta__m0_dw3x1, "0", "0", "0", M0_DW_ZERO, M0_DW_STORE);
M0_DW_FUNC(ta__m0_dw3x4_rq, "1", "2", "3", M0_DW_FOLDS, M0_DW_RQ);
M0_DW_FUNC(ta__m0_dw3x1_rq, "0", "0", "0", M0_DW_FOLDS, M0_DW_RQ);
#undef M0_DW_FOLDS
#undef M0_DW_ZERO
#undef M0_DW_RQ
#undef M0_DW_STORE
#undef M0_DW_FUNC
#undef M0_DW_ROW
#undef M0_DW_TAP
#undef M0_DW_TERM

/* 4 bytes as the little-endian word they would be in memory, by byte
 * loads (the address may be unaligned). */
static inline uint32_t ta__m0_ld4(const int8_t *p) {
    const uint8_t *u = (const uint8_t *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

/* Whether the M0 kernel covers the layer (3x3, depth multiplier 1 or a
 * multiple of 4, channels a multiple of 4, -input_offset an int8); then runs
 * it on every block.
 * Windows clipped by padding are gathered into a 36-byte local window whose
 * outside taps hold the byte -input_offset: their term w * (x +
 * input_offset) is 0, so the fold over all 9 taps' weights stays right. */
static bool dw3_m0_run(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                       int8_t *output) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t C = out.c;
    const int32_t dm = p->depth_multiplier;
    if (!ta__dw3_ok(p)) return false;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const bool sat = ta__rqm_layer_ok(&p->q, C); /* ta__rqm_s8, the assembly requantisation */
    const int32_t dh = p->dilation_h, dw = p->dilation_w;
    const ptrdiff_t sx = (ptrdiff_t)dw * in.c, sy = (ptrdiff_t)dh * in.w * in.c;
    const int32_t st_in[2] = {(int32_t)sx, (int32_t)(sy - 2 * sx)}, st_win[2] = {4, 4};
    const uint32_t padw = (uint32_t)(uint8_t)(int8_t)(-p->q.input_offset) * 0x01010101u;
    /* output x in [xlo, xhi): windows inside the image in x (monotonic) */
    int32_t xlo = out.w, xhi = out.w;
    for (int32_t ox = 0; ox < out.w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        const bool in_x = ix0 >= 0 && ix0 + 2 * dw < in.w;
        if (in_x && xlo == out.w) xlo = ox;
        if (!in_x && xlo != out.w) {
            xhi = ox;
            break;
        }
    }
    const ptrdiff_t xstep = (ptrdiff_t)p->stride_w * in.c;
    for (int32_t c0 = 0; c0 < C; c0 += 4) {
        /* the block's input: channels c0.. (depth multiplier 1), or the one
         * input channel its 4 output channels read */
        const int32_t xc = dm == 1 ? c0 : c0 / dm;
        int32_t wx[36], ws[4] = {0, 0, 0, 0};
        for (int32_t t = 0; t < 9; t++)
            for (int32_t c = 0; c < 4; c++) {
                const int32_t w = filter[(ptrdiff_t)t * C + c0 + c];
                wx[4 * t + c] = w;
                ws[c] += w;
            }
        ta__rq rq[4];
        ta__rqm rqm[4];
        uint32_t fold[4];
        for (int32_t c = 0; c < 4; c++) {
            rq[c] = ta__rq_make(&p->q, c0 + c);
            rqm[c] = ta__rqm_make(&rq[c], ro);
            fold[c] = ta__fold(bias, c0 + c, p->q.input_offset, ws[c]);
            rqm[c].fold = fold[c];
        }
        for (int32_t b = 0; b < out.n; b++) {
            for (int32_t oy = 0; oy < out.h; oy++) {
                const int32_t iy0 = oy * p->stride_h - p->pad_h;
                const bool full_y = iy0 >= 0 && iy0 + 2 * dh < in.h;
                int8_t *op = output + ta__nhwc_p(&out, b, oy, 0) + c0;
                for (int32_t ox = 0; ox < out.w; ox++, op += C) {
                    if (sat && full_y && ox == xlo) {
                        /* the row's whole windows: a loop of its own, the
                         * input pointer stepped instead of recomputed and
                         * no test per pixel (the last one is left to the
                         * loop's step) */
                        const int8_t *x = input + ta__nhwc_p(&in, b, iy0, ox * p->stride_w - p->pad_w) + xc;
                        for (; ox + 1 < xhi; ox++, op += C, x += xstep) {
                            if (dm != 1)
                                ta__m0_dw3x1_rq(x, wx, op, st_in, rqm);
                            else
                                ta__m0_dw3x4_rq(x, wx, op, st_in, rqm);
                        }
                    }
                    const int32_t ix0 = ox * p->stride_w - p->pad_w;
                    const int8_t *x;
                    const int32_t *st = st_in;
                    bool one = false; /* the 4 channels read one byte */
                    uint32_t win[9];
                    if (full_y && ix0 >= 0 && ix0 + 2 * dw < in.w) {
                        x = input + ta__nhwc_p(&in, b, iy0, ix0) + xc;
                        one = dm != 1;
                    } else {
                        /* the taps' x positions inside the image, as 3 bits;
                         * rows by pointer, no multiply per tap */
                        uint32_t in_x = 0;
                        for (int32_t fx = 0; fx < 3; fx++)
                            in_x |= (uint32_t)((uint32_t)(ix0 + fx * dw) < (uint32_t)in.w) << fx;
                        for (int32_t fy = 0; fy < 3; fy++) {
                            const int32_t iy = iy0 + fy * dh;
                            uint32_t *wr = win + 3 * fy;
                            if ((uint32_t)iy >= (uint32_t)in.h) {
                                wr[0] = wr[1] = wr[2] = padw;
                                continue;
                            }
                            const int8_t *row = input + ta__nhwc_p(&in, b, iy, 0) + xc + (ptrdiff_t)ix0 * in.c;
                            for (int32_t fx = 0; fx < 3; fx++, row += sx)
                                wr[fx] = in_x >> fx & 1 ? (dm == 1 ? ta__m0_ld4(row) : (uint32_t)(uint8_t)*row * 0x01010101u)
                                                      : padw;
                        }
                        x = (const int8_t *)win;
                        st = st_win;
                    }
                    if (sat) {
                        if (one)
                            ta__m0_dw3x1_rq(x, wx, op, st, rqm);
                        else
                            ta__m0_dw3x4_rq(x, wx, op, st, rqm);
                        continue;
                    }
                    int32_t acc[4];
                    if (one)
                        ta__m0_dw3x1(x, wx, acc, st);
                    else
                        ta__m0_dw3x4(x, wx, acc, st);
                    for (int32_t c = 0; c < 4; c++) op[c] = ta__rq_s8(&rq[c], ro, (uint32_t)acc[c] + fold[c]);
                }
            }
        }
    }
    return true;
}
#endif

#endif
