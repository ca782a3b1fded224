/* Internal: the int8 dot-product micro-kernels under the fast convolution and
 * fully connected kernels.  They add exact products of int8 values in int32;
 * the callers only use them where no partial sum can leave int32
 * (|x * w| <= 2^14, at most TA__FAST_MAX_DEPTH terms), so the order of the
 * additions cannot change the result and every target may pick its own.
 *
 *  - Cortex-M with the DSP extension (__ARM_FEATURE_DSP: M4, M7, M33):
 *    four int8 lanes are loaded as one word, split into two pairs of int16
 *    lanes with SXTB16 (bytes 0 and 2, then bytes 1 and 3 after a rotate) and
 *    multiplied pairwise with SMLAD, two multiply-accumulates per instruction.
 *    With 2 pixels x 2 weight rows, each unpacked word is used twice.
 *  - Arm64 (__aarch64__ with NEON): 16 int8 lanes per load; with the
 *    dot-product extension (__ARM_FEATURE_DOTPROD, armv8.2-a+dotprod) SDOT
 *    adds 4 products into each int32 lane, otherwise SMULL/SMULL2 widen the
 *    products to int16 (each fits: |x * w| <= 2^14) and SADALP adds pairs
 *    of them into int32 lanes.  Chosen at compile time.
 *  - Everywhere else (x86-64, armv6-m): plain C over bytes.  Compilers
 *    vectorise these loops on hosts (int8 loads widened to int16, PMADDWD on
 *    x86); on armv6-m they stay byte loads, so nothing is ever read unaligned.
 *
 * Naming: dot_RxC multiplies R input vectors by C weight rows;
 * acc[r * C + c] += sum_i x_r[i] * w_c[i]. */
#ifndef TA_KERNELS_DOT_S8_H
#define TA_KERNELS_DOT_S8_H

#include <stdint.h>
#include <string.h>

#include "runtime/kernels/kernels_fast.h"

/* Longest dot product the fast kernels accept (terms): 2^16 * 2^14 = 2^30,
 * so sums of products, and the weight sums times |input_offset| <= 2^8,
 * stay inside int32. */
#define TA__FAST_MAX_DEPTH 65536

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#define TA__DOT_DSP 1

static inline uint32_t ta__ld32(const int8_t *p) {
    uint32_t v; /* LDR: the DSP cores load unaligned words */
    memcpy(&v, p, sizeof v);
    return v;
}
/* SXTB16 of the word rotated by 8 (bytes 1 and 3): one instruction with the
 * rotate folded in; GCC 12's arm_acle.h has no intrinsic for it and does not
 * fold a separate rotate, so this one is written out, as CMSIS does. */
static inline int32_t ta__sxtb16_ror8(uint32_t v) {
    int32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}

static inline void ta__dot_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1,
                               int32_t n, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint32_t xa = ta__ld32(x0 + i), xb = ta__ld32(x1 + i);
        const uint32_t wa = ta__ld32(w0 + i), wb = ta__ld32(w1 + i);
        const int32_t xa02 = __sxtb16(xa), xa13 = ta__sxtb16_ror8(xa);
        const int32_t xb02 = __sxtb16(xb), xb13 = ta__sxtb16_ror8(xb);
        const int32_t wa02 = __sxtb16(wa), wa13 = ta__sxtb16_ror8(wa);
        const int32_t wb02 = __sxtb16(wb), wb13 = ta__sxtb16_ror8(wb);
        a00 = __smlad(xa02, wa02, a00);
        a00 = __smlad(xa13, wa13, a00);
        a01 = __smlad(xa02, wb02, a01);
        a01 = __smlad(xa13, wb13, a01);
        a10 = __smlad(xb02, wa02, a10);
        a10 = __smlad(xb13, wa13, a10);
        a11 = __smlad(xb02, wb02, a11);
        a11 = __smlad(xb13, wb13, a11);
    }
    for (; i < n; i++) {
        a00 += x0[i] * w0[i];
        a01 += x0[i] * w1[i];
        a10 += x1[i] * w0[i];
        a11 += x1[i] * w1[i];
    }
    acc[0] = a00, acc[1] = a01, acc[2] = a10, acc[3] = a11;
}

static inline void ta__dot_1x2(const int8_t *x0, const int8_t *w0, const int8_t *w1, int32_t n,
                               int32_t acc[2]) {
    int32_t a0 = acc[0], a1 = acc[1];
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint32_t xa = ta__ld32(x0 + i), wa = ta__ld32(w0 + i), wb = ta__ld32(w1 + i);
        const int32_t x02 = __sxtb16(xa), x13 = ta__sxtb16_ror8(xa);
        a0 = __smlad(x02, __sxtb16(wa), a0);
        a0 = __smlad(x13, ta__sxtb16_ror8(wa), a0);
        a1 = __smlad(x02, __sxtb16(wb), a1);
        a1 = __smlad(x13, ta__sxtb16_ror8(wb), a1);
    }
    for (; i < n; i++) {
        a0 += x0[i] * w0[i];
        a1 += x0[i] * w1[i];
    }
    acc[0] = a0, acc[1] = a1;
}

#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define TA__DOT_NEON 1

/* s += the products of 16 lanes, in int32 lanes (their sum is what counts) */
static inline int32x4_t ta__dot16_neon(int32x4_t s, int8x16_t x, int8x16_t w) {
#if defined(__ARM_FEATURE_DOTPROD)
    return vdotq_s32(s, x, w);
#else
    s = vpadalq_s16(s, vmull_s8(vget_low_s8(x), vget_low_s8(w)));
    return vpadalq_s16(s, vmull_high_s8(x, w));
#endif
}

static inline void ta__dot_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1,
                               int32_t n, int32_t acc[4]) {
    int32x4_t s00 = vdupq_n_s32(0), s01 = s00, s10 = s00, s11 = s00;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const int8x16_t xa = vld1q_s8(x0 + i), xb = vld1q_s8(x1 + i);
        const int8x16_t wa = vld1q_s8(w0 + i), wb = vld1q_s8(w1 + i);
        s00 = ta__dot16_neon(s00, xa, wa);
        s01 = ta__dot16_neon(s01, xa, wb);
        s10 = ta__dot16_neon(s10, xb, wa);
        s11 = ta__dot16_neon(s11, xb, wb);
    }
    int32_t a00 = acc[0] + vaddvq_s32(s00), a01 = acc[1] + vaddvq_s32(s01);
    int32_t a10 = acc[2] + vaddvq_s32(s10), a11 = acc[3] + vaddvq_s32(s11);
    for (; i < n; i++) {
        const int32_t xa = x0[i], xb = x1[i], wa = w0[i], wb = w1[i];
        a00 += xa * wa;
        a01 += xa * wb;
        a10 += xb * wa;
        a11 += xb * wb;
    }
    acc[0] = a00, acc[1] = a01, acc[2] = a10, acc[3] = a11;
}

static inline void ta__dot_1x2(const int8_t *x0, const int8_t *w0, const int8_t *w1, int32_t n,
                               int32_t acc[2]) {
    int32x4_t s0 = vdupq_n_s32(0), s1 = s0;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const int8x16_t xa = vld1q_s8(x0 + i);
        s0 = ta__dot16_neon(s0, xa, vld1q_s8(w0 + i));
        s1 = ta__dot16_neon(s1, xa, vld1q_s8(w1 + i));
    }
    int32_t a0 = acc[0] + vaddvq_s32(s0), a1 = acc[1] + vaddvq_s32(s1);
    for (; i < n; i++) {
        const int32_t xa = x0[i];
        a0 += xa * w0[i];
        a1 += xa * w1[i];
    }
    acc[0] = a0, acc[1] = a1;
}

#elif defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)

/* armv6-m: eight low registers.  One input row against two weight rows
 * fits them (three pointers, one index counting up to 0, two sums, two
 * temporaries: 10 instructions per 2 MACs; unrolled, GCC spills); a 2x2 block would spill, so
 * it is two of those.  Byte loads only: nothing is read unaligned. */
static inline void ta__dot_1x2(const int8_t *x0, const int8_t *w0, const int8_t *w1, int32_t n, int32_t acc[2]) {
    int32_t a0 = acc[0], a1 = acc[1];
    x0 += n, w0 += n, w1 += n;
    for (int32_t i = -n; i != 0; i++) {
        const int32_t xa = x0[i];
        a0 += xa * w0[i];
        a1 += xa * w1[i];
    }
    acc[0] = a0, acc[1] = a1;
}

static inline void ta__dot_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1,
                               int32_t n, int32_t acc[4]) {
    ta__dot_1x2(x0, w0, w1, n, acc);
    ta__dot_1x2(x1, w0, w1, n, acc + 2);
}

#else

static inline void ta__dot_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1,
                               int32_t n, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    for (int32_t i = 0; i < n; i++) {
        const int32_t xa = x0[i], xb = x1[i], wa = w0[i], wb = w1[i];
        a00 += xa * wa;
        a01 += xa * wb;
        a10 += xb * wa;
        a11 += xb * wb;
    }
    acc[0] = a00, acc[1] = a01, acc[2] = a10, acc[3] = a11;
}

static inline void ta__dot_1x2(const int8_t *x0, const int8_t *w0, const int8_t *w1, int32_t n,
                               int32_t acc[2]) {
    int32_t a0 = acc[0], a1 = acc[1];
    for (int32_t i = 0; i < n; i++) {
        const int32_t xa = x0[i];
        a0 += xa * w0[i];
        a1 += xa * w1[i];
    }
    acc[0] = a0, acc[1] = a1;
}
#endif

/* Sum of n int8 values (a weight row's share of the folded input offset). */
static inline int32_t ta__sum_s8(const int8_t *p, int32_t n) {
    int32_t s = 0, i = 0;
#if defined(TA__DOT_DSP)
    /* four bytes per USADA8: flipping the sign bits makes them x + 128, whose
     * unsigned sum is the signed sum + 512 */
    uint32_t u = 0;
    for (; i + 4 <= n; i += 4) u = __usada8(ta__ld32(p + i) ^ 0x80808080u, 0, u);
    s = (int32_t)(u - (uint32_t)(i / 4) * 512u);
#elif defined(__ARM_ARCH_6M__)
    /* four bytes a step: LDRB with immediate offsets and SXTB (LDRSB only
     * takes a register offset), one pointer add and compare per four */
    const int8_t *q = p, *end = p + (n & ~3);
    for (; q != end; q += 4) s += q[0] + q[1] + q[2] + q[3];
    i = n & ~3;
#endif
    for (; i < n; i++) s += p[i];
    return s;
}

/* The dot products a kernel body calls: the portable ones, or on x86 the
 * ISA level's (simd_x86.h defines TA__DOT_2X2 / TA__DOT_1X2 there). */
#ifndef TA__X86_DISPATCH
#define TA__DOT_2X2(...) ta__dot_2x2(__VA_ARGS__)
#define TA__DOT_1X2(...) ta__dot_1x2(__VA_ARGS__)
#endif

#endif
