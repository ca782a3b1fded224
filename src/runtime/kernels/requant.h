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
 *   ta_quant_multiplier never makes; such a channel keeps ta_q_mul.
 *   RoundingDivideByPOT stays as gemmlowp writes it (mask, threshold): the
 *   "add half then shift" shortcut would overflow near INT32_MAX. */
#ifndef TA_KERNELS_REQUANT_H
#define TA_KERNELS_REQUANT_H

#include <stdint.h>

#include "runtime/kernels/fixedpoint.h"
#include "tinyarena/kernels.h"

typedef struct ta__rq {
    int32_t mult;         /* Q0.31 multiplier */
    int32_t left, right;  /* left shift before, rounding right shift after */
    uint32_t mask;        /* 2^right - 1 */
    int32_t half;         /* mask >> 1 */
    int32_t slow;         /* mult == INT32_MIN: use ta_q_mul */
    int32_t bias;         /* the channel's bias (0 without one) */
    int32_t out_off, act_min, act_max;
} ta__rq;

/* Constants of output channel oc (channel 0's for per-tensor quantisation). */
static inline ta__rq ta__rq_make(const ta_requant *q, const int32_t *bias, int32_t oc) {
    const int32_t ch = q->per_channel ? oc : 0;
    const int32_t shift = q->shift[ch];
    ta__rq r;
    r.mult = q->mult[ch];
    r.left = shift > 0 ? shift : 0;
    r.right = shift > 0 ? 0 : -shift;
    r.mask = (uint32_t)((UINT64_C(1) << r.right) - 1);
    r.half = (int32_t)(r.mask >> 1);
    r.slow = r.mult == INT32_MIN || r.right > 31;
    r.bias = bias ? bias[oc] : 0;
    r.out_off = q->output_offset;
    r.act_min = q->act_min;
    r.act_max = q->act_max;
    return r;
}

/* ta_q_mul(x, mult, shift) with the hoisted constants. */
static inline int32_t ta__rq_mul(const ta__rq *r, int32_t x) {
    if (r->slow) return ta_q_mul(x, r->mult, r->left - r->right);
    const int32_t s = (int32_t)((uint32_t)x << r->left);
    const int64_t ab = (int64_t)s * r->mult + (INT64_C(1) << 30);
    /* floor(ab / 2^31) fits int32 (|s * mult| < 2^62 once INT32_MIN * INT32_MIN
     * is excluded), so it is bits 31..62 of ab: a logical shift gives the same
     * low word as an arithmetic one, without a sign branch. */
    const int32_t hm = (int32_t)(uint32_t)((uint64_t)ab >> 31);
    const int32_t rem = (int32_t)((uint32_t)hm & r->mask);
    const int32_t thr = r->half + (hm < 0 ? 1 : 0);
    return ta__asr(hm, r->right) + (rem > thr ? 1 : 0);
}

/* A window sum acc (wrapping int32, bias not yet added) to the int8 output:
 * + bias (wrapping, as TFLM's int32 does), requantise, + zero point, clamp. */
static inline int8_t ta__rq_s8(const ta__rq *r, int32_t acc) {
    int32_t a = ta__rq_mul(r, (int32_t)((uint32_t)acc + (uint32_t)r->bias));
    a += r->out_off;
    a = a < r->act_min ? r->act_min : a;
    a = a > r->act_max ? r->act_max : a;
    return (int8_t)a;
}

#endif
