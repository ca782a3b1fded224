/* Internal: the int8 requantisation of the fast kernels, inline and with
 * everything that depends only on the output channel hoisted out of the pixel
 * loops.  ta_q_mul (quant.c) stays the oracle: ta__rq_apply returns exactly
 * ta_q_mul(acc, mult, shift) for every acc, mult and shift ta_q_mul accepts
 * (tests/test_kernels_fast.c checks it on random and extreme values).
 *
 * Why it is exact without gemmlowp's branchy nudge:
 *   SaturatingRoundingDoublingHighMul(a, b) = trunc((ab + nudge) / 2^31) with
 *   nudge = 2^30 for ab >= 0 and 1 - 2^30 for ab < 0.  For ab < 0 the truncation
 *   is a ceiling, and ceil((ab + 1 - 2^30) / 2^31) = floor((ab + 2^30) / 2^31),
 *   which is also the ab >= 0 case: one add and one arithmetic shift of the
 *   64-bit product (SMLAL on a Cortex-M4) instead of a division.  The only
 *   saturating input (a = b = INT32_MIN) needs mult == INT32_MIN, which
 *   ta_quant_multiplier never makes; ta__rq_ok sends such layers to the
 *   reference loops.
 *   RoundingDivideByPOT stays as gemmlowp writes it (mask, threshold): the
 *   "add half then shift" shortcut would overflow near INT32_MAX. */
#ifndef TA_KERNELS_REQUANT_H
#define TA_KERNELS_REQUANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/kernels/fixedpoint.h"
#include "tinyarena/kernels.h"
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

typedef struct ta__rq {
    int32_t mult;        /* Q0.31 multiplier */
    int32_t left, right; /* left shift before, rounding right shift after */
    uint32_t mask;       /* 2^right - 1 */
    int32_t half;        /* mask >> 1 */
    int32_t rnd;         /* 2^(right - 1), 0 when right is 0 (ta__rq_s8_sat) */
} ta__rq;

/* What every channel of a layer shares: output zero point and clamp. */
typedef struct ta__rq_out {
    int32_t out_off, act_min, act_max;
} ta__rq_out;

/* Whether ta__rq_mul is exact for every channel: no multiplier of INT32_MIN
 * (ta_quant_multiplier never makes one) and shifts within ta_q_mul's
 * [-31, 30].  The fast kernels check it once per call and leave other layers
 * to the reference loops, so the hot loops carry no fallback branch. */
static inline bool ta__rq_ok(const ta_requant *q, int32_t channels) {
    const int32_t n = q->per_channel ? channels : 1;
    for (int32_t c = 0; c < n; c++)
        if (q->mult[c] == INT32_MIN || q->shift[c] < -31 || q->shift[c] > 30) return false;
    return true;
}

/* Constants of output channel oc (channel 0's for per-tensor quantisation). */
static inline ta__rq ta__rq_make(const ta_requant *q, int32_t oc) {
    const int32_t ch = q->per_channel ? oc : 0;
    const int32_t shift = q->shift[ch];
    ta__rq r;
    r.mult = q->mult[ch];
    r.left = shift > 0 ? shift : 0;
    r.right = shift > 0 ? 0 : -shift;
    r.mask = (uint32_t)((UINT64_C(1) << r.right) - 1);
    r.half = (int32_t)(r.mask >> 1);
    r.rnd = r.right > 0 ? (int32_t)(UINT32_C(1) << (r.right - 1)) : 0;
    return r;
}

static inline ta__rq_out ta__rq_out_make(const ta_requant *q) {
    const ta__rq_out o = {q->output_offset, q->act_min, q->act_max};
    return o;
}

/* The bias of channel oc plus input_offset * its weight sum, wrapping: what
 * the fast kernels add to a window's sum(filter * input). */
static inline uint32_t ta__fold(const int32_t *bias, int32_t oc, int32_t input_offset, int32_t wsum) {
    return (bias ? (uint32_t)bias[oc] : 0u) + (uint32_t)input_offset * (uint32_t)wsum;
}

/* floor((s * m + 2^30) / 2^31) from 16-bit halves and 32-bit multiplies
 * only: for cores without a 32x32->64 multiply (armv6-m, where int64
 * products call __aeabi_lmul).  s = sh * 2^16 + sl, m = mh * 2^16 + ml
 * (sh, mh arithmetic shifts, sl, ml the unsigned low halves); every partial
 * product fits 32 bits, and the 64-bit sum is carried by hand.  Exact
 * wherever the result fits int32 (not for s = m = INT32_MIN). */
#if defined(__ARM_ARCH_6M__)
/* Thumb-1 assembly is written in unified syntax; GCC writes its own in
 * divided syntax unless __ARM_ASM_SYNTAX_UNIFIED__, so switch and back. */
#if defined(__ARM_ASM_SYNTAX_UNIFIED__)
#define TA__ASM_UNIFIED ""
#define TA__ASM_RESTORE ""
#else
#define TA__ASM_UNIFIED ".syntax unified\n\t"
#define TA__ASM_RESTORE ".syntax divided\n\t"
#endif
/* The high multiply's body, written once (ta__hmul_nudged_32 and
 * ta__rqm_s8's long path): %[sl] = s and %[ml] = m in, %[sh] =
 * floor((s * m + 2^30) / 2^31) out; the sum carried by ADDS/ADCS pairs in
 * six low registers (GCC's C takes about twice the instructions: compares
 * for the carries, and spills); every product as above. */
#define TA__M0_HMUL(SL, ML, SH, MH, LO, T)                                \
    "asrs " SH ", " SL ", #16\n\t" \
    "uxth " SL ", " SL "\n\t" \
    "asrs " MH ", " ML ", #16\n\t" \
    "uxth " ML ", " ML "\n\t" \
    "movs " LO ", " SL "\n\t" \
    "muls " LO ", " ML ", " LO "\n\t"  /* sl * ml, unsigned */ \
    "muls " ML ", " SH ", " ML "\n\t"  /* c1 = sh * ml */ \
    "muls " SL ", " MH ", " SL "\n\t"  /* c2 = sl * mh */ \
    "muls " SH ", " MH ", " SH "\n\t"  /* high word: sh * mh */ \
    "lsls " T ", " ML ", #16\n\t" \
    "asrs " ML ", " ML ", #16\n\t" \
    "adds " LO ", " LO ", " T "\n\t" \
    "adcs " SH ", " SH ", " ML "\n\t" \
    "lsls " T ", " SL ", #16\n\t" \
    "asrs " SL ", " SL ", #16\n\t" \
    "adds " LO ", " LO ", " T "\n\t" \
    "adcs " SH ", " SH ", " SL "\n\t" \
    "movs " T ", #1\n\t" \
    "lsls " T ", " T ", #30\n\t" \
    "movs " SL ", #0\n\t" \
    "adds " LO ", " LO ", " T "\n\t" \
    "adcs " SH ", " SH ", " SL "\n\t" \
    "lsls " SH ", " SH ", #1\n\t" \
    "lsrs " LO ", " LO ", #31\n\t" \
    "orrs " SH ", " SH ", " LO "\n\t"
#endif
static inline int32_t ta__hmul_nudged_32(int32_t s, int32_t m) {
#if defined(__ARM_ARCH_6M__)
    /* the same sum, carried by ADDS/ADCS pairs in six low registers (GCC's
     * C takes about twice the instructions: compares for the carries, and
     * spills); every product as above */
    uint32_t sl = (uint32_t)s, ml = (uint32_t)m, sh, mh, lo, t;
    __asm__(TA__ASM_UNIFIED TA__M0_HMUL("%[sl]", "%[ml]", "%[sh]", "%[mh]", "%[lo]", "%[t]") TA__ASM_RESTORE
            : [sl] "+l"(sl), [ml] "+l"(ml), [sh] "=&l"(sh), [mh] "=&l"(mh), [lo] "=&l"(lo), [t] "=&l"(t)
            :
            : "cc");
    return (int32_t)sh;
#else
    const uint32_t sl = (uint32_t)s & 0xFFFFu, ml = (uint32_t)m & 0xFFFFu;
    const int32_t sh = ta__asr(s, 16), mh = ta__asr(m, 16);
    const uint32_t ll = sl * ml;
    const int32_t c1 = sh * (int32_t)ml, c2 = (int32_t)sl * mh;
    uint32_t lo = ll + 0x40000000u, carry = lo < ll;
    uint32_t t = (uint32_t)c1 << 16;
    lo += t, carry += lo < t;
    t = (uint32_t)c2 << 16;
    lo += t, carry += lo < t;
    const uint32_t hi = (uint32_t)(sh * mh) + (uint32_t)ta__asr(c1, 16) + (uint32_t)ta__asr(c2, 16) + carry;
    return (int32_t)((hi << 1) | (lo >> 31));
#endif
}

/* ta_q_mul(x, mult, shift) with the hoisted constants (ta__rq_ok holds). */
static inline int32_t ta__rq_mul(const ta__rq *r, int32_t x) {
    const int32_t s = (int32_t)((uint32_t)x << r->left);
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
    const int32_t hm = ta__hmul_nudged_32(s, r->mult);
#else
    const int64_t ab = (int64_t)s * r->mult + (INT64_C(1) << 30);
    /* floor(ab / 2^31) fits int32 (|s * mult| < 2^62 once INT32_MIN * INT32_MIN
     * is excluded), so it is bits 31..62 of ab: a logical shift gives the same
     * low word as an arithmetic one, without a sign branch. */
    const int32_t hm = (int32_t)(uint32_t)((uint64_t)ab >> 31);
#endif
    const int32_t rem = (int32_t)((uint32_t)hm & r->mask);
    const int32_t thr = r->half + (hm < 0 ? 1 : 0);
    return ta__asr(hm, r->right) + (rem > thr ? 1 : 0);
}

/* A window sum acc plus its fold (ta__fold: bias and offset term), wrapping
 * as TFLM's int32 does, to the int8 output: requantise, + zero point, clamp. */
static inline int8_t ta__rq_s8(const ta__rq *r, ta__rq_out o, uint32_t acc_plus_fold) {
    int32_t a = ta__rq_mul(r, (int32_t)acc_plus_fold);
    a += o.out_off;
    a = a < o.act_min ? o.act_min : a;
    a = a > o.act_max ? o.act_max : a;
    return (int8_t)a;
}

/* The outputs of a 2x2 block of dot products (dot_s8.h's acc[r * 2 + c]):
 * channels c0 and c1 (constants r0, r1, folds f0, f1) of one pixel at op,
 * and when two, of the next at op + stride.  c1 == c0 (an odd last channel
 * paired with itself) stores it once.  The general convolution's clipped
 * windows and the fully connected kernel share it. */
static inline void ta__rq_store_2x2(int8_t *op, ptrdiff_t stride, int32_t c0, int32_t c1, const ta__rq *r0,
                                    const ta__rq *r1, ta__rq_out ro, uint32_t f0, uint32_t f1, const int32_t acc[4],
                                    bool two) {
    op[c0] = ta__rq_s8(r0, ro, (uint32_t)acc[0] + f0);
    if (c1 != c0) op[c1] = ta__rq_s8(r1, ro, (uint32_t)acc[1] + f1);
    if (two) {
        op += stride;
        op[c0] = ta__rq_s8(r0, ro, (uint32_t)acc[2] + f0);
        if (c1 != c0) op[c1] = ta__rq_s8(r1, ro, (uint32_t)acc[3] + f1);
    }
}

/* A shorter requantisation for the common layer: no left shift, rounding
 * shifts in [1, 23], an int8 output range.  gemmlowp's RoundingDivideByPOT
 * of hm by r is floor((hm + 2^(r-1) - [hm < 0]) / 2^r) (the remainder
 * exceeds the threshold exactly when adding 2^(r-1) - [hm < 0] carries), and
 * that sum is formed with a saturating add (QADD on the DSP cores).  It
 * saturates only for hm >= 2^31 - 2^(r-1), where the exact quotient is
 * 2^(31-r) and the saturated one 2^(31-r) - 1 >= 255: after + zero point
 * (>= -128) both clamp to act_max (<= 127).  ta__rq_sat_ok checks the
 * layer; tests/test_kernels_fast.c compares with ta__rq_s8. */
/* Where it pays: the DSP cores (QADD, one instruction); on armv6-m and the
 * hosts the kernels keep ta__rq_s8 (measured: person_detect as M0 code got
 * 4% slower with it). */
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define TA__RQ_SAT 1
#else
#define TA__RQ_SAT 0
#endif

static inline bool ta__rq_sat_ok(const ta_requant *q, int32_t channels) {
    if (q->output_offset < -128 || q->output_offset > 127 || q->act_min < -128 || q->act_max > 127) return false;
    const int32_t n = q->per_channel ? channels : 1;
    for (int32_t c = 0; c < n; c++)
        if (q->shift[c] > -1 || q->shift[c] < -23 || q->mult[c] == INT32_MIN) return false;
    return true;
}

static inline int32_t ta__qadd32(int32_t a, int32_t b) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    return __qadd(a, b);
#else
    const int64_t s = (int64_t)a + b;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
#endif
}

static inline int8_t ta__rq_s8_sat(const ta__rq *r, ta__rq_out o, uint32_t acc_plus_fold) {
    const int32_t s = (int32_t)acc_plus_fold;
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
    const int32_t hm = ta__hmul_nudged_32(s, r->mult);
#else
    const int32_t hm = (int32_t)(uint32_t)((uint64_t)((int64_t)s * r->mult + (INT64_C(1) << 30)) >> 31);
#endif
    const int32_t t = ta__qadd32(hm + ta__asr(hm, 31), r->rnd);
    int32_t a = ta__asr(t, r->right) + o.out_off;
    a = a < o.act_min ? o.act_min : a;
    a = a > o.act_max ? o.act_max : a;
    return (int8_t)a;
}

#if defined(__ARM_ARCH_6M__)
/* armv6-m: ta__rq_s8_sat in one assembly block, for the layers
 * ta__rqm_layer_ok accepts (no left shift, rounding shifts in [1, 23], an
 * int8 range, multipliers >= 0).  The constants sit in one struct the block reads by immediate
 * offsets (GCC kept them in spilled locals); the saturating add is ADDS and
 * a branch on overflow (BVC), where ta__qadd32's int64 sum costs calls; the
 * clamps are compare-and-branch.  30 instructions for a sum within +-2^19
 * (about 45 otherwise) against about 70 for ta__rq_s8 as GCC compiles it.  tests/test_kernels_fast.c compares it
 * with ta__rq_s8 bare-metal (kernels_mcu). */
typedef struct ta__rqm {
    int32_t mult;             /* offset 0: Q0.31 multiplier */
    int32_t rnd;              /* 4: 2^(right - 1) */
    int32_t right;            /* 8: rounding right shift, [1, 23] */
    int32_t out_off;          /* 12: output zero point */
    int32_t act_min, act_max; /* 16, 20: the clamp */
    int32_t m_hi, m_mid, m_lo; /* 24, 28, 32: mult's bits 30..20, 19..10, 9..0 */
    int32_t add;              /* 36: rnd + out_off * 2^right (the short path) */
    int32_t k1024;            /* 40: 2^10, the short multiply's rounding */
    uint32_t fold;            /* 44: the channel's fold (ta__fold), where a kernel keeps it here */
} ta__rqm;

/* Whether every channel's constants fit ta__rqm_s8: ta__rq_sat_ok and a
 * non-negative multiplier (ta_quant_multiplier never makes a negative
 * one; the short high multiply splits it into unsigned pieces). */
static inline bool ta__rqm_layer_ok(const ta_requant *q, int32_t channels) {
    if (!ta__rq_sat_ok(q, channels)) return false;
    const int32_t n = q->per_channel ? channels : 1;
    for (int32_t c = 0; c < n; c++)
        if (q->mult[c] < 0) return false;
    return true;
}

/* The same for output channel oc alone (the 1x1 kernel decides per group
 * of 4 channels, so one channel out of range no longer sends its whole
 * layer to the C requantisation). */
static inline bool ta__rqm_ch_ok(const ta_requant *q, int32_t oc) {
    const int32_t ch = q->per_channel ? oc : 0;
    return q->output_offset >= -128 && q->output_offset <= 127 && q->act_min >= -128 && q->act_max <= 127 &&
           q->shift[ch] <= -1 && q->shift[ch] >= -23 && q->mult[ch] >= 0;
}

static inline ta__rqm ta__rqm_make(const ta__rq *r, ta__rq_out o) {
    const ta__rqm k = {r->mult,
                       r->rnd,
                       r->right,
                       o.out_off,
                       o.act_min,
                       o.act_max,
                       r->mult >> 20,
                       (r->mult >> 10) & 1023,
                       r->mult & 1023,
                       (int32_t)((uint32_t)r->rnd + ((uint32_t)o.out_off << r->right)),
                       1024,
                       0};
    return k;
}

/* ta__rq_s8_sat of SL for the constants at K (a ta__rqm), into SH; ML, MH,
 * LO and T are scratch, SL too.  Written once as text, for ta__rqm_s8 and
 * the armv6-m 1x1 kernel's assembly (conv2d_s8_pw_m0.c); local labels 1-7.
 *  - |s| < 2^19 (the usual window): the high multiply from the
 *    multiplier's three pieces, each product within int32 and the floors
 *    nested exactly: floor((s * m + 2^30) / 2^31) = floor((s * m_hi +
 *    floor((s * m_mid + floor(s * m_lo / 2^10)) / 2^10) + 2^10) / 2^11).
 *    Then |hm| < 2^19, so the rounding add cannot saturate and the zero
 *    point joins it: one add of 2^(right-1) + zero point * 2^right (|that|
 *    < 2^30 + 2^22), one shift.
 *  - any other sum: TA__M0_HMUL and the saturating rounding add (ADDS and
 *    a branch on overflow), then the zero point. */
/* In three pieces, so that the 4-output routine can keep its long paths
 * out of line: the short path (to the clamp; BR: the branch to the long
 * path, taken when unsigned higher), the long one (to the clamp), the
 * clamp. */
#define TA__M0_RQM_SHORT(SL, SH, LO, T, K, BR, ADD1024)                        \
    "asrs " SH ", " SL ", #19\n\t"                                             \
    "adds " SH ", " SH ", #1\n\t"                                              \
    "cmp " SH ", #1\n\t" BR                                                    \
    "ldr " SH ", [" K ", #32]\n\t"                                              \
    "muls " SH ", " SL ", " SH "\n\t"                                          \
    "asrs " SH ", " SH ", #10\n\t"                                             \
    "ldr " LO ", [" K ", #28]\n\t"                                              \
    "muls " LO ", " SL ", " LO "\n\t"                                          \
    "adds " SH ", " SH ", " LO "\n\t"                                          \
    "asrs " SH ", " SH ", #10\n\t"                                             \
    "ldr " LO ", [" K ", #24]\n\t"                                              \
    "muls " LO ", " SL ", " LO "\n\t"                                          \
    "adds " SH ", " SH ", " LO "\n\t" ADD1024                                  \
    "asrs " SH ", " SH ", #11\n\t"                                             \
    "asrs " T ", " SH ", #31\n\t"                                              \
    "adds " SH ", " SH ", " T "\n\t" /* hm - [hm < 0] */                        \
    "ldr " T ", [" K ", #36]\n\t"                                               \
    "adds " SH ", " SH ", " T "\n\t"                                           \
    "ldr " T ", [" K ", #8]\n\t"                                                \
    "asrs " SH ", " T "\n\t"
#define TA__M0_RQM_LONG(SL, ML, SH, MH, LO, T, K)                              \
    "ldr " ML ", [" K "]\n\t" TA__M0_HMUL(SL, ML, SH, MH, LO, T)                \
    "asrs " T ", " SH ", #31\n\t"                                              \
    "adds " SH ", " SH ", " T "\n\t" /* hm - [hm < 0] */                        \
    "ldr " T ", [" K ", #4]\n\t"                                                \
    "adds " SH ", " SH ", " T "\n\t" /* + 2^(right - 1), saturating: */         \
    "bvc 1f\n\t"                                                               \
    "movs " SH ", #1\n\t"                                                      \
    "lsls " SH ", " SH ", #31\n\t"                                             \
    "subs " SH ", " SH ", #1\n"                                                \
    "1:\n\t"                                                                   \
    "ldr " T ", [" K ", #8]\n\t"                                                \
    "asrs " SH ", " T "\n\t"                                                   \
    "ldr " T ", [" K ", #12]\n\t"                                               \
    "adds " SH ", " SH ", " T "\n\t"
#define TA__M0_RQM_CLAMP(SH, T, K)                                             \
    "ldr " T ", [" K ", #16]\n\t"                                               \
    "cmp " SH ", " T "\n\t"                                                    \
    "bge 2f\n\t"                                                               \
    "movs " SH ", " T "\n"                                                     \
    "2:\n\t"                                                                   \
    "ldr " T ", [" K ", #20]\n\t"                                               \
    "cmp " SH ", " T "\n\t"                                                    \
    "ble 3f\n\t"                                                               \
    "movs " SH ", " T "\n"                                                     \
    "3:\n\t"
#define TA__M0_RQM(SL, ML, SH, MH, LO, T, K)                                   \
    TA__M0_RQM_SHORT(SL, SH, LO, T, K, "bhi 4f\n\t",                           \
                     "ldr " LO ", [" K ", #40]\n\tadds " SH ", " SH ", " LO "\n\t")  \
    "6:\n\t" TA__M0_RQM_CLAMP(SH, T, K) "b 7f\n"                              \
    "4:\n\t" TA__M0_RQM_LONG(SL, ML, SH, MH, LO, T, K) "b 6b\n"               \
    "7:\n\t"

/* In the armv6-m kernels' assembly (the 1x1 and 3x3 depthwise kernels with
 * their requantisation): the 4 sums (their folds included: the kernels
 * start each sum at its channel's fold) on top of the stack, out 16 bytes
 * above them, r7 = k, the 4 channels' ta__rqm.  TA__M0_RQ4 calls the one
 * routine that requantises and stores them (conv2d_s8_pw_m0.c): it pops the
 * sums, keeps lr in r6 and returns with BX; r0-r5 are scratch.  Inside it
 * r3 holds out and r1 2^10 (the short multiply's rounding), which the
 * short path leaves alone and the long path puts back.
 * TA__M0_RQ_OUT(J, L) is its output J (L: its long path's label, emitted
 * by TA__M0_RQ_LONG_OUT). */
#define TA__M0_RQ4 "bl ta__m0_rq4\n\t"
/* (the long path beyond a conditional branch's reach: BLS over a B, the
 * same one instruction on the short path) */
#define TA__M0_RQ_OUT(J, L)                                                    \
    "pop {r0}\n\t"                                                              \
    TA__M0_RQM_SHORT("r0", "r2", "r4", "r5", "r7", "bls 8f\n\tb " L "\n8:\n\t", "adds r2, r2, r1\n\t") \
    "6" J ":\n\t" TA__M0_RQM_CLAMP("r2", "r5", "r7")                            \
    "strb r2, [r3, #" J "]\n\t"                                                \
    "adds r7, #48\n\t"
#define TA__M0_RQ_LONG_OUT(J, L)                                               \
    L ":\n\tpush {r3}\n\t" TA__M0_RQM_LONG("r0", "r1", "r2", "r3", "r4", "r5", "r7") \
    "pop {r3}\n\tmovs r1, #1\n\tlsls r1, r1, #10\n\tb 6" J "b\n\t"

/* ta__rq_s8_sat(r, o, acc_plus_fold) for k = ta__rqm_make(r, o). */
static inline int8_t ta__rqm_s8(const ta__rqm *k, uint32_t acc_plus_fold) {
    uint32_t sl = acc_plus_fold, ml, sh, mh, lo, t;
    __asm__(TA__ASM_UNIFIED TA__M0_RQM("%[sl]", "%[ml]", "%[sh]", "%[mh]", "%[lo]", "%[t]", "%[k]") TA__ASM_RESTORE
            : [sl] "+l"(sl), [ml] "=&l"(ml), [sh] "=&l"(sh), [mh] "=&l"(mh), [lo] "=&l"(lo), [t] "=&l"(t)
            : [k] "l"(k), "m"(*k)
            : "cc");
    return (int8_t)sh;
}
#endif

/* The shortest requantisation, for windows whose sum is known to be small:
 * |acc + fold| < 2^29 (ta__rqs_make checks it per channel from the weight
 * sum's bound), no left shift, a rounding shift r in [1, 22], int8 output.
 *  - The high multiply: for such s, 2s fits int32 and
 *    floor((s * m + 2^30) / 2^31) = floor((2s * m + 2^31) / 2^32), one
 *    SMMULR (rounding most-significant-word multiply) on the DSP cores; the
 *    doubling is folded into the add of the fold (ADD with LSL #1).
 *  - Rounding divide by 2^r, then + zero point: floor((hm - [hm < 0] +
 *    2^(r-1)) / 2^r) + z = floor((hm - [hm < 0] + 2^(r-1) + z * 2^r) / 2^r),
 *    one constant add; |hm| < 2^29 and |z * 2^r| <= 2^29, so no add can
 *    overflow (no saturation needed).
 *  - The clamp: SSAT to int8, then the activation range when it is
 *    narrower (full == false).
 * About 8 instructions against ta__rq_s8_sat's 14-20; tests/test_kernels_fast.c
 * compares it with ta__rq_s8 on the host and on the Cortex-M4F. */
/* Where the kernels use it: everywhere but armv6-m, whose int64 products
 * (the portable ta__smmulr) are library calls. */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define TA__RQS 0
#else
#define TA__RQS 1
#endif

typedef struct ta__rqs {
    int32_t mult;   /* Q0.31 multiplier */
    int32_t add;    /* 2^(right-1) + output_offset * 2^right */
    int32_t right;  /* rounding right shift, [1, 22] */
    uint32_t fold2; /* 2 * (bias + input_offset * weight sum), wrapping */
} ta__rqs;

/* Whether the layer's requantisation fits ta__rqs (apart from the window
 * bound, which ta__rqs_make checks per channel). */
static inline bool ta__rqs_layer_ok(const ta_requant *q, int32_t channels) {
    if (q->output_offset < -128 || q->output_offset > 127 || q->act_min < -128 || q->act_max > 127) return false;
    const int32_t n = q->per_channel ? channels : 1;
    for (int32_t c = 0; c < n; c++)
        if (q->shift[c] > -1 || q->shift[c] < -22 || q->mult[c] == INT32_MIN) return false;
    return true;
}

/* The constants of channel oc, whose windows sum at most `terms` int8
 * products (each within +-2^14) onto `fold`: false when such a sum could
 * reach 2^29 (the channel then needs ta__rq_s8). */
static inline bool ta__rqs_make(const ta_requant *q, int32_t oc, uint32_t fold, int32_t terms, ta__rqs *r) {
    const int32_t ch = q->per_channel ? oc : 0;
    const int64_t f = (int32_t)fold;
    if ((f < 0 ? -f : f) + (int64_t)terms * 16384 >= (INT64_C(1) << 29)) return false;
    r->mult = q->mult[ch];
    r->right = -q->shift[ch];
    r->add = (int32_t)(UINT32_C(1) << (r->right - 1)) + (int32_t)((uint32_t)q->output_offset << r->right);
    r->fold2 = fold << 1;
    return true;
}

static inline int32_t ta__smmulr(int32_t a, int32_t b) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return (int32_t)(((int64_t)a * b + (INT64_C(1) << 31)) >> 32);
#endif
}

static inline int32_t ta__ssat8(int32_t a) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    return __ssat(a, 8);
#else
    return a < -128 ? -128 : a > 127 ? 127 : a;
#endif
}

/* acc: a window's sum(filter * input) (not yet folded). */
static inline int8_t ta__rqs_s8(const ta__rqs *r, ta__rq_out o, bool full, int32_t acc) {
    const int32_t s2 = (int32_t)(((uint32_t)acc << 1) + r->fold2);
    const int32_t hm = ta__smmulr(s2, r->mult);
    int32_t a = ta__asr(hm + ta__asr(hm, 31) + r->add, r->right);
    a = ta__ssat8(a);
    if (!full) {
        a = a < o.act_min ? o.act_min : a;
        a = a > o.act_max ? o.act_max : a;
    }
    return (int8_t)a;
}

#endif
