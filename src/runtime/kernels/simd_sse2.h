/* Internal: SSE2 pieces of the fast int8 kernels on x86-64 (kernels_fast.h,
 * TA__X86_DISPATCH): the x86-64 baseline, so no target attribute -- every
 * x86-64 CPU runs them.  Same contract as dot_s8.h and requant.h, lane for
 * lane (tests/test_kernels_fast.c runs them against the reference kernels).
 *
 * What SSE2 lacks, and what stands in for it:
 *  - no PMOVSXBW: int8 is sign-extended to int16 by PUNPCKLBW/PUNPCKHBW of a
 *    vector with itself (each byte lands in both halves of a word) and
 *    PSRAW 8; the 1x1/general convolution widens each 8-channel weight set
 *    once per call into a stack buffer instead (kernels_sse2.c);
 *  - no PHADDD: lane sums by a 4x4 transpose (PUNPCK{L,H}DQ, PUNPCK{L,H}QDQ)
 *    and adds;
 *  - no PMULDQ (signed 32x32->64): PMULUDQ, whose product of the unsigned
 *    readings differs from the signed one by 2^32 * (m * [s < 0] + s *
 *    [m < 0]) modulo 2^64.  That is a multiple of 2^31, so bits 31..62 of
 *    the product + 2^30 -- the high multiply's result -- are the unsigned
 *    ones minus twice that correction, in wrapping int32;
 *  - no PSRAVD (per-lane shift) for the rounding shift of per-channel
 *    layers: floor(hm / 2^r) = floor(u * 2^(31 - r) / 2^31) - 2^(31 - r)
 *    with u = hm + 2^31 (as unsigned, u < 2^32, so the product is below
 *    2^63): one PMULUDQ per lane pair and a shift by 31 for every lane.
 *    A block whose lanes share one shift uses PSRAD instead;
 *  - no PMINSD/PMAXSD: the requantised int32 are packed to int16 with
 *    saturation (PACKSSDW), the zero point added with saturation (PADDSW)
 *    and clamped by PMAXSW/PMINSW.  Exact: with an int8 activation range
 *    and a zero point within +-32640, a value that saturates lies beyond
 *    the range before and after, so it clamps to the same end. */
#ifndef TA_KERNELS_SIMD_SSE2_H
#define TA_KERNELS_SIMD_SSE2_H

#include <emmintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"

/* The 8 low bytes at p, sign-extended to int16. */
static inline __m128i ta__ld8_s16_sse2(const int8_t *p) {
    const __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)p);
    return _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
}

/* The 16 bytes of v sign-extended to int16: bytes 0..7, bytes 8..15. */
static inline __m128i ta__s16_lo_sse2(__m128i v) { return _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8); }
static inline __m128i ta__s16_hi_sse2(__m128i v) { return _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8); }

/* The lane sums of a, b, c, d, in that order, as one vector. */
static inline __m128i ta__hsum4_sse2(__m128i a, __m128i b, __m128i c, __m128i d) {
    const __m128i ab = _mm_add_epi32(_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b)); /* a02 b02 a13 b13 */
    const __m128i cd = _mm_add_epi32(_mm_unpacklo_epi32(c, d), _mm_unpackhi_epi32(c, d));
    return _mm_add_epi32(_mm_unpacklo_epi64(ab, cd), _mm_unpackhi_epi64(ab, cd));
}

/* ta__dot_2x2 (dot_s8.h): 16 bytes a step, then 8, then single bytes. */
static inline void ta__dot_2x2_sse2(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1, int32_t n,
                                    int32_t acc[4]) {
    __m128i s00 = _mm_setzero_si128(), s01 = s00, s10 = s00, s11 = s00;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m128i xa = _mm_loadu_si128((const __m128i *)(const void *)(x0 + i));
        const __m128i xb = _mm_loadu_si128((const __m128i *)(const void *)(x1 + i));
        const __m128i wa = _mm_loadu_si128((const __m128i *)(const void *)(w0 + i));
        const __m128i wb = _mm_loadu_si128((const __m128i *)(const void *)(w1 + i));
        const __m128i xal = ta__s16_lo_sse2(xa), xah = ta__s16_hi_sse2(xa);
        const __m128i xbl = ta__s16_lo_sse2(xb), xbh = ta__s16_hi_sse2(xb);
        const __m128i wal = ta__s16_lo_sse2(wa), wah = ta__s16_hi_sse2(wa);
        const __m128i wbl = ta__s16_lo_sse2(wb), wbh = ta__s16_hi_sse2(wb);
        s00 = _mm_add_epi32(s00, _mm_add_epi32(_mm_madd_epi16(xal, wal), _mm_madd_epi16(xah, wah)));
        s01 = _mm_add_epi32(s01, _mm_add_epi32(_mm_madd_epi16(xal, wbl), _mm_madd_epi16(xah, wbh)));
        s10 = _mm_add_epi32(s10, _mm_add_epi32(_mm_madd_epi16(xbl, wal), _mm_madd_epi16(xbh, wah)));
        s11 = _mm_add_epi32(s11, _mm_add_epi32(_mm_madd_epi16(xbl, wbl), _mm_madd_epi16(xbh, wbh)));
    }
    if (i + 8 <= n) {
        const __m128i xa = ta__ld8_s16_sse2(x0 + i), xb = ta__ld8_s16_sse2(x1 + i);
        const __m128i wa = ta__ld8_s16_sse2(w0 + i), wb = ta__ld8_s16_sse2(w1 + i);
        s00 = _mm_add_epi32(s00, _mm_madd_epi16(xa, wa));
        s01 = _mm_add_epi32(s01, _mm_madd_epi16(xa, wb));
        s10 = _mm_add_epi32(s10, _mm_madd_epi16(xb, wa));
        s11 = _mm_add_epi32(s11, _mm_madd_epi16(xb, wb));
        i += 8;
    }
    const __m128i old = _mm_loadu_si128((const __m128i *)(const void *)acc);
    _mm_storeu_si128((__m128i *)(void *)acc, _mm_add_epi32(old, ta__hsum4_sse2(s00, s01, s10, s11)));
    for (; i < n; i++) {
        acc[0] += x0[i] * w0[i];
        acc[1] += x0[i] * w1[i];
        acc[2] += x1[i] * w0[i];
        acc[3] += x1[i] * w1[i];
    }
}

/* ta__dot_1x2 (dot_s8.h), the same steps. */
static inline void ta__dot_1x2_sse2(const int8_t *x0, const int8_t *w0, const int8_t *w1, int32_t n, int32_t acc[2]) {
    __m128i s0 = _mm_setzero_si128(), s1 = s0;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m128i xa = _mm_loadu_si128((const __m128i *)(const void *)(x0 + i));
        const __m128i wa = _mm_loadu_si128((const __m128i *)(const void *)(w0 + i));
        const __m128i wb = _mm_loadu_si128((const __m128i *)(const void *)(w1 + i));
        const __m128i xl = ta__s16_lo_sse2(xa), xh = ta__s16_hi_sse2(xa);
        s0 = _mm_add_epi32(s0, _mm_add_epi32(_mm_madd_epi16(xl, ta__s16_lo_sse2(wa)),
                                             _mm_madd_epi16(xh, ta__s16_hi_sse2(wa))));
        s1 = _mm_add_epi32(s1, _mm_add_epi32(_mm_madd_epi16(xl, ta__s16_lo_sse2(wb)),
                                             _mm_madd_epi16(xh, ta__s16_hi_sse2(wb))));
    }
    if (i + 8 <= n) {
        const __m128i xa = ta__ld8_s16_sse2(x0 + i);
        s0 = _mm_add_epi32(s0, _mm_madd_epi16(xa, ta__ld8_s16_sse2(w0 + i)));
        s1 = _mm_add_epi32(s1, _mm_madd_epi16(xa, ta__ld8_s16_sse2(w1 + i)));
        i += 8;
    }
    const __m128i z = _mm_setzero_si128();
    int32_t t[4];
    _mm_storeu_si128((__m128i *)(void *)t, ta__hsum4_sse2(s0, s1, z, z));
    acc[0] += t[0];
    acc[1] += t[1];
    for (; i < n; i++) {
        acc[0] += x0[i] * w0[i];
        acc[1] += x0[i] * w1[i];
    }
}

/* Requantisation constants of 4 consecutive channels, one per lane; *_odd:
 * lanes 1 and 3 moved down to where PMULUDQ reads (lanes 0 and 2). */
typedef struct ta__rq4 {
    __m128i mult, mult_odd, msign; /* Q0.31 multiplier, its sign (0 or -1) */
    __m128i p2, p2_odd;            /* 2^left: the left shift as a multiply */
    __m128i c, c_odd;              /* 2^(31 - right) */
    __m128i mask, half;            /* gemmlowp's remainder mask and threshold */
    __m128i cnt;                   /* the right shift, when every lane has the same */
    bool left, uniform, neg;       /* some lane shifts left; the lanes share one right shift;
                                      some multiplier is negative (never derived, still exact) */
} ta__rq4;

static inline ta__rq4 ta__rq4_make(const ta__rq *r) {
    int32_t m[4], p2[4], c[4], k[4], h[4];
    ta__rq4 v;
    v.left = v.neg = false;
    v.uniform = true;
    for (int j = 0; j < 4; j++) {
        m[j] = r[j].mult, k[j] = (int32_t)r[j].mask, h[j] = r[j].half;
        p2[j] = (int32_t)(UINT32_C(1) << r[j].left); /* left <= 30 (ta__rq_ok) */
        c[j] = (int32_t)(UINT32_C(1) << (31 - r[j].right)); /* right <= 31 */
        v.left |= r[j].left != 0;
        v.neg |= r[j].mult < 0;
        v.uniform &= r[j].right == r[0].right;
    }
    v.mult = _mm_loadu_si128((const __m128i *)(const void *)m);
    v.mult_odd = _mm_srli_epi64(v.mult, 32);
    v.msign = _mm_srai_epi32(v.mult, 31);
    v.p2 = _mm_loadu_si128((const __m128i *)(const void *)p2);
    v.p2_odd = _mm_srli_epi64(v.p2, 32);
    v.c = _mm_loadu_si128((const __m128i *)(const void *)c);
    v.c_odd = _mm_srli_epi64(v.c, 32);
    v.mask = _mm_loadu_si128((const __m128i *)(const void *)k);
    v.half = _mm_loadu_si128((const __m128i *)(const void *)h);
    v.cnt = _mm_cvtsi32_si128(r[0].right);
    return v;
}

/* ta__rq_mul on 4 lanes (the sums with their folds), before the zero point
 * and the clamp. */
static inline __m128i ta__rq4_mul(const ta__rq4 *r, __m128i x) {
    const __m128i even = _mm_set_epi32(0, -1, 0, -1); /* the low word of each 64-bit lane */
    __m128i s = x;
    if (r->left) { /* x << left per lane: the low words of x * 2^left */
        const __m128i e = _mm_mul_epu32(x, r->p2), o = _mm_mul_epu32(_mm_srli_epi64(x, 32), r->p2_odd);
        s = _mm_or_si128(_mm_and_si128(e, even), _mm_slli_epi64(o, 32));
    }
    /* bits 31..62 of s * mult + 2^30, from the unsigned products, then the
     * signed correction (see the top of this file) */
    const __m128i round = _mm_set1_epi64x(INT64_C(1) << 30);
    const __m128i pe = _mm_add_epi64(_mm_mul_epu32(s, r->mult), round);
    const __m128i po = _mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64(s, 32), r->mult_odd), round);
    const __m128i hu = _mm_or_si128(_mm_and_si128(_mm_srli_epi64(pe, 31), even),
                                    _mm_andnot_si128(even, _mm_slli_epi64(po, 1)));
    __m128i k = _mm_and_si128(_mm_srai_epi32(s, 31), r->mult);
    if (r->neg) k = _mm_add_epi32(k, _mm_and_si128(r->msign, s));
    const __m128i hm = _mm_sub_epi32(hu, _mm_add_epi32(k, k));
    /* gemmlowp's RoundingDivideByPOT: floor(hm / 2^right) + (rem > thr) */
    const __m128i rem = _mm_and_si128(hm, r->mask);
    const __m128i thr = _mm_sub_epi32(r->half, _mm_srai_epi32(hm, 31)); /* half + (hm < 0) */
    __m128i q;
    if (r->uniform) {
        q = _mm_sra_epi32(hm, r->cnt);
    } else {
        const __m128i u = _mm_xor_si128(hm, _mm_set1_epi32(INT32_MIN)); /* hm + 2^31, unsigned */
        const __m128i qe = _mm_srli_epi64(_mm_mul_epu32(u, r->c), 31); /* < 2^32: the high word is 0 */
        const __m128i qo = _mm_slli_epi64(_mm_mul_epu32(_mm_srli_epi64(u, 32), r->c_odd), 1);
        q = _mm_sub_epi32(_mm_or_si128(qe, _mm_andnot_si128(even, qo)), r->c);
    }
    return _mm_sub_epi32(q, _mm_cmpgt_epi32(rem, thr)); /* cmpgt gives -1 */
}

/* The layer's zero point and clamp as int16 lanes (see the top: valid when
 * ta__rq16_ok). */
typedef struct ta__rq_out16 {
    __m128i off, lo, hi;
} ta__rq_out16;

static inline bool ta__rq16_ok(ta__rq_out o) {
    return o.act_min >= -128 && o.act_max <= 127 && o.out_off >= -32640 && o.out_off <= 32640;
}

static inline ta__rq_out16 ta__rq_out16_make(ta__rq_out o) {
    ta__rq_out16 v;
    v.off = _mm_set1_epi16((int16_t)o.out_off);
    v.lo = _mm_set1_epi16((int16_t)o.act_min);
    v.hi = _mm_set1_epi16((int16_t)o.act_max);
    return v;
}

/* 8 requantised lanes (a: 0..3, b: 4..7) + zero point, clamped, as int16. */
static inline __m128i ta__rq_clamp8_sse2(const ta__rq_out16 *o, __m128i a, __m128i b) {
    const __m128i w = _mm_adds_epi16(_mm_packs_epi32(a, b), o->off);
    return _mm_min_epi16(_mm_max_epi16(w, o->lo), o->hi);
}

/* kernels_sse2.c: the SSE2 build's own loops. */

/* Convolution (one group, dilation 1 along x): output channels [oc, oc + n)
 * with n = per_group / 8 * 8, 8 at a time, on the output pixels whose
 * windows lie inside the image (x in [fx_lo, fx_hi), the full rows); returns
 * n, or 0 (nothing written) when the layer does not fit the loops (the
 * generic loops then do all of it). */
int32_t ta__conv_oc8_sse2(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                          int8_t *output, int32_t oc, int32_t per_group, int32_t fx_lo, int32_t fx_hi);

/* Depthwise, depth multiplier 1: n whole windows of one output row (x steps
 * x_step per pixel, sx per tap along x, sy per filter row; weights w step C
 * per tap), 16 channels with constants rq[0..15] and folds fold[0..15],
 * outputs at op (op += C per pixel).  Returns false (nothing written) when
 * the layer does not fit (more than TA__DW16_SSE2_TAPS taps, or a zero
 * point/clamp outside ta__rq16_ok). */
#define TA__DW16_SSE2_TAPS 64
bool ta__dw16_row_sse2(const int8_t *x, ptrdiff_t x_step, int32_t n, ptrdiff_t sx, ptrdiff_t sy, const int8_t *w,
                       int32_t C, int32_t fh, int32_t fw, const ta__rq *rq, const uint32_t *fold, ta__rq_out ro,
                       int8_t *op);

#endif
