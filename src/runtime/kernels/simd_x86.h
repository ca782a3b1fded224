/* Internal: AVX2 pieces of the fast int8 kernels on x86-64 (kernels_fast.h,
 * TA__X86_DISPATCH).  Every function carries target("avx2"): it is only ever
 * inlined into the kernels' AVX2 builds, which run only when the CPU reports
 * AVX2.  Same contract as dot_s8.h and requant.h, lane for lane:
 *  - the dot products sign-extend int8 to int16 (VPMOVSXBW) and multiply and
 *    add pairs into int32 (VPMADDWD), exact for the depths the callers allow;
 *  - ta__rq8_s8 is ta__rq_s8 on 8 lanes: the 64-bit products of VPMULDQ (even
 *    lanes, then the odd ones shifted down), + 2^30, bits 31..62, then
 *    gemmlowp's rounding shift with per-lane shift counts (VPSRAVD). */
#ifndef TA_KERNELS_SIMD_X86_H
#define TA_KERNELS_SIMD_X86_H

#include <immintrin.h>
#include <stdint.h>

#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#include "runtime/kernels/simd_sse2.h"

/* The sums of the four vectors' lanes, in order, added to acc[0..3]. */
static inline TA__TARGET_AVX2 void ta__hsum4_avx2(__m256i a, __m256i b, __m256i c, __m256i d, int32_t acc[4]) {
    const __m256i ab = _mm256_hadd_epi32(a, b), cd = _mm256_hadd_epi32(c, d);
    const __m256i abcd = _mm256_hadd_epi32(ab, cd); /* per 128-bit half: a b c d */
    const __m128i s = _mm_add_epi32(_mm256_castsi256_si128(abcd), _mm256_extracti128_si256(abcd, 1));
    const __m128i old = _mm_loadu_si128((const __m128i *)(const void *)acc);
    _mm_storeu_si128((__m128i *)(void *)acc, _mm_add_epi32(old, s));
}

static inline TA__TARGET_AVX2 __m256i ta__ld16_s16_avx2(const int8_t *p) {
    return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)p));
}

static inline TA__TARGET_AVX2 void ta__dot_2x2_avx2(const int8_t *x0, const int8_t *x1, const int8_t *w0,
                                                    const int8_t *w1, int32_t n, int32_t acc[4]) {
    __m256i s00 = _mm256_setzero_si256(), s01 = s00, s10 = s00, s11 = s00;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i xa = ta__ld16_s16_avx2(x0 + i), xb = ta__ld16_s16_avx2(x1 + i);
        const __m256i wa = ta__ld16_s16_avx2(w0 + i), wb = ta__ld16_s16_avx2(w1 + i);
        s00 = _mm256_add_epi32(s00, _mm256_madd_epi16(xa, wa));
        s01 = _mm256_add_epi32(s01, _mm256_madd_epi16(xa, wb));
        s10 = _mm256_add_epi32(s10, _mm256_madd_epi16(xb, wa));
        s11 = _mm256_add_epi32(s11, _mm256_madd_epi16(xb, wb));
    }
    if (i + 8 <= n) { /* an 8-byte step in the low halves (depths of 24, 40, 144...) */
        const __m256i xa = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(x0 + i)));
        const __m256i xb = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(x1 + i)));
        const __m256i wa = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(w0 + i)));
        const __m256i wb = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(w1 + i)));
        s00 = _mm256_add_epi32(s00, _mm256_madd_epi16(xa, wa)); /* upper lanes are 0 * 0 */
        s01 = _mm256_add_epi32(s01, _mm256_madd_epi16(xa, wb));
        s10 = _mm256_add_epi32(s10, _mm256_madd_epi16(xb, wa));
        s11 = _mm256_add_epi32(s11, _mm256_madd_epi16(xb, wb));
        i += 8;
    }
    ta__hsum4_avx2(s00, s01, s10, s11, acc);
    for (; i < n; i++) {
        acc[0] += x0[i] * w0[i];
        acc[1] += x0[i] * w1[i];
        acc[2] += x1[i] * w0[i];
        acc[3] += x1[i] * w1[i];
    }
}

static inline TA__TARGET_AVX2 void ta__dot_1x2_avx2(const int8_t *x0, const int8_t *w0, const int8_t *w1,
                                                    int32_t n, int32_t acc[2]) {
    __m256i s0 = _mm256_setzero_si256(), s1 = s0;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i xa = ta__ld16_s16_avx2(x0 + i);
        s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(xa, ta__ld16_s16_avx2(w0 + i)));
        s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(xa, ta__ld16_s16_avx2(w1 + i)));
    }
    if (i + 8 <= n) {
        const __m256i xa = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(x0 + i)));
        const __m256i wa = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(w0 + i)));
        const __m256i wb = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(w1 + i)));
        s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(xa, wa));
        s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(xa, wb));
        i += 8;
    }
    int32_t t[4] = {0, 0, 0, 0};
    ta__hsum4_avx2(s0, s1, _mm256_setzero_si256(), _mm256_setzero_si256(), t);
    acc[0] += t[0];
    acc[1] += t[1];
    for (; i < n; i++) {
        acc[0] += x0[i] * w0[i];
        acc[1] += x0[i] * w1[i];
    }
}

/* Depthwise, 16 channels of one whole window: x steps sx bytes per tap along
 * x and sy per filter row, w steps C per tap.  Products of int8 fit int16
 * (|x * w| <= 2^14), so VPMULLW, then widened into two int32 vectors. */
static inline TA__TARGET_AVX2 void ta__dw16_avx2(const int8_t *x, int64_t sx, int64_t sy, const int8_t *w,
                                                 int32_t C, int32_t fh, int32_t fw, __m256i *lo, __m256i *hi) {
    __m256i a = _mm256_setzero_si256(), b = a;
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C) {
            const __m256i p = _mm256_mullo_epi16(ta__ld16_s16_avx2(xp), ta__ld16_s16_avx2(w));
            a = _mm256_add_epi32(a, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(p)));
            b = _mm256_add_epi32(b, _mm256_cvtepi16_epi32(_mm256_extracti128_si256(p, 1)));
        }
    }
    *lo = a;
    *hi = b;
}

/* Requantisation constants of 8 consecutive channels, one per lane. */
typedef struct ta__rq8 {
    __m256i mult, left, right, mask, half;
} ta__rq8;

static inline TA__TARGET_AVX2 ta__rq8 ta__rq8_make(const ta__rq *r) {
    int32_t m[8], l[8], s[8], k[8], h[8];
    for (int c = 0; c < 8; c++) {
        m[c] = r[c].mult, l[c] = r[c].left, s[c] = r[c].right;
        k[c] = (int32_t)r[c].mask, h[c] = r[c].half;
    }
    ta__rq8 v;
    v.mult = _mm256_loadu_si256((const __m256i *)(const void *)m);
    v.left = _mm256_loadu_si256((const __m256i *)(const void *)l);
    v.right = _mm256_loadu_si256((const __m256i *)(const void *)s);
    v.mask = _mm256_loadu_si256((const __m256i *)(const void *)k);
    v.half = _mm256_loadu_si256((const __m256i *)(const void *)h);
    return v;
}

/* ta__rq_mul on 8 lanes, before the zero point and the clamp. */
static inline TA__TARGET_AVX2 __m256i ta__rq8_mul(const ta__rq8 *r, __m256i x) {
    const __m256i s = _mm256_sllv_epi32(x, r->left);
    const __m256i round = _mm256_set1_epi64x(INT64_C(1) << 30);
    /* even lanes: products in 64 bits, + 2^30, bits 31..62 into the low word */
    const __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(s, r->mult), round);
    const __m256i po = _mm256_add_epi64(
        _mm256_mul_epi32(_mm256_srli_epi64(s, 32), _mm256_srli_epi64(r->mult, 32)), round);
    const __m256i he = _mm256_srli_epi64(pe, 31);
    const __m256i ho = _mm256_slli_epi64(_mm256_srli_epi64(po, 31), 32);
    const __m256i hm = _mm256_blend_epi32(he, ho, 0xAA);
    /* gemmlowp RoundingDivideByPOT */
    const __m256i rem = _mm256_and_si256(hm, r->mask);
    const __m256i thr = _mm256_add_epi32(r->half, _mm256_srli_epi32(hm, 31));
    const __m256i q = _mm256_srav_epi32(hm, r->right);
    return _mm256_sub_epi32(q, _mm256_cmpgt_epi32(rem, thr)); /* cmpgt gives -1 */
}

/* 16 channels: acc (+ fold, wrapping) requantised, + zero point, clamped,
 * stored as 16 int8. */
static inline TA__TARGET_AVX2 void ta__rq16_s8_store(const ta__rq8 *r0, const ta__rq8 *r1, ta__rq_out o,
                                                     __m256i acc0, __m256i acc1, int8_t *dst) {
    const __m256i off = _mm256_set1_epi32(o.out_off);
    const __m256i lo = _mm256_set1_epi32(o.act_min), hi = _mm256_set1_epi32(o.act_max);
    __m256i a = _mm256_add_epi32(ta__rq8_mul(r0, acc0), off);
    __m256i b = _mm256_add_epi32(ta__rq8_mul(r1, acc1), off);
    a = _mm256_min_epi32(_mm256_max_epi32(a, lo), hi);
    b = _mm256_min_epi32(_mm256_max_epi32(b, lo), hi);
    /* a, b are in [-128, 127] now: the saturating packs only reorder */
    const __m256i w = _mm256_packs_epi32(a, b);  /* a0-3 b0-3 | a4-7 b4-7 */
    const __m256i v = _mm256_permute4x64_epi64(w, 0xD8); /* a0-3 a4-7 | b0-3 b4-7 */
    const __m128i bytes = _mm_packs_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storeu_si128((__m128i *)(void *)dst, bytes);
}


/* Depthwise, one row of n whole windows (x steps x_step per output pixel,
 * op steps C): 16 channels with constants rq[0..15] and folds fold[0..15]. */
static inline TA__TARGET_AVX2 void ta__dw16_row_avx2(const int8_t *x, int64_t x_step, int32_t n, int64_t sx, int64_t sy,
                                              const int8_t *w, int32_t C, int32_t fh, int32_t fw, const ta__rq *rq,
                                              const uint32_t *fold, ta__rq_out ro, int8_t *op) {
    const ta__rq8 v0 = ta__rq8_make(rq), v1 = ta__rq8_make(rq + 8);
    const __m256i f0 = _mm256_loadu_si256((const __m256i *)(const void *)fold);
    const __m256i f1 = _mm256_loadu_si256((const __m256i *)(const void *)(fold + 8));
    for (int32_t i = 0; i < n; i++, x += x_step, op += C) {
        __m256i lo, hi;
        ta__dw16_avx2(x, sx, sy, w, C, fh, fw, &lo, &hi);
        ta__rq16_s8_store(&v0, &v1, ro, _mm256_add_epi32(lo, f0), _mm256_add_epi32(hi, f1), op);
    }
}

/* Convolution, 8 output channels of one pixel: s[k] += the run x[0..n) times
 * weight row k (w + k * ws), in 8 lanes of partial sums each; the last
 * n % 8 bytes go to the scalar sums t[k] (added once per pixel). */
static inline TA__TARGET_AVX2 void ta__dot_1x8_avx2(const int8_t *x, const int8_t *w, ptrdiff_t ws, int32_t n,
                                                    __m256i s[8], int32_t t[8]) {
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i xv = ta__ld16_s16_avx2(x + i);
        for (int k = 0; k < 8; k++)
            s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(xv, ta__ld16_s16_avx2(w + k * ws + i)));
    }
    if (i + 8 <= n) {
        const __m256i xv = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(x + i)));
        for (int k = 0; k < 8; k++) {
            const __m256i wv = _mm256_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(w + k * ws + i)));
            s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(xv, wv));
        }
        i += 8;
    }
    for (; i < n; i++) {
        const int32_t xv = x[i];
        for (int k = 0; k < 8; k++) t[k] += xv * w[k * ws + i];
    }
}

/* The 8 lane sums of s[0..7], in order, as one vector. */
static inline TA__TARGET_AVX2 __m256i ta__hsum8_avx2(const __m256i s[8]) {
    const __m256i t0 = _mm256_hadd_epi32(s[0], s[1]), t1 = _mm256_hadd_epi32(s[2], s[3]);
    const __m256i t2 = _mm256_hadd_epi32(s[4], s[5]), t3 = _mm256_hadd_epi32(s[6], s[7]);
    const __m256i u0 = _mm256_hadd_epi32(t0, t1), u1 = _mm256_hadd_epi32(t2, t3); /* [0..3 | 0..3], [4..7 | 4..7] */
    return _mm256_add_epi32(_mm256_permute2x128_si256(u0, u1, 0x20), _mm256_permute2x128_si256(u0, u1, 0x31));
}

/* Convolution, n pixels of one output row whose windows lie inside the
 * image (x steps px_step per pixel, dil_y per filter row of row_w bytes),
 * 8 output channels: weight rows w + k * depth, constants rq[0..7], folds
 * fold[0..7]; outputs at op (8 bytes), op += out_c per pixel. */
static inline TA__TARGET_AVX2 void ta__conv_row8_avx2(const int8_t *x, ptrdiff_t px_step, int32_t n, ptrdiff_t dil_y,
                                                      int32_t fh, int32_t row_w, const int8_t *w, ptrdiff_t depth,
                                                      const ta__rq *rq, const uint32_t *fold, ta__rq_out ro,
                                                      int8_t *op, ptrdiff_t out_c) {
    const ta__rq8 v = ta__rq8_make(rq);
    const __m256i f = _mm256_loadu_si256((const __m256i *)(const void *)fold);
    const __m256i off = _mm256_set1_epi32(ro.out_off);
    const __m256i lo = _mm256_set1_epi32(ro.act_min), hi = _mm256_set1_epi32(ro.act_max);
    for (int32_t p = 0; p < n; p++, x += px_step, op += out_c) {
        __m256i s[8];
        int32_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int k = 0; k < 8; k++) s[k] = _mm256_setzero_si256();
        for (int32_t fy = 0; fy < fh; fy++) ta__dot_1x8_avx2(x + fy * dil_y, w + fy * row_w, depth, row_w, s, t);
        const __m256i sum = _mm256_add_epi32(ta__hsum8_avx2(s), _mm256_loadu_si256((const __m256i *)(const void *)t));
        __m256i a = _mm256_add_epi32(ta__rq8_mul(&v, _mm256_add_epi32(sum, f)), off);
        a = _mm256_min_epi32(_mm256_max_epi32(a, lo), hi);
        const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        _mm_storel_epi64((__m128i *)(void *)op, _mm_packs_epi16(w16, w16));
    }
}

/* ---- SSE4.1: the same steps 16 bytes wide (PMOVSXBW, PMADDWD, PHADDD);
 * SSE has no per-lane shift (VPSRAVD), so its requantisation stays scalar. */

static inline TA__TARGET_SSE41 __m128i ta__ld8_s16_sse(const int8_t *p) {
    return _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p));
}

static inline TA__TARGET_SSE41 void ta__dot_2x2_sse(const int8_t *x0, const int8_t *x1, const int8_t *w0,
                                                    const int8_t *w1, int32_t n, int32_t acc[4]) {
    __m128i s00 = _mm_setzero_si128(), s01 = s00, s10 = s00, s11 = s00;
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i xa = ta__ld8_s16_sse(x0 + i), xb = ta__ld8_s16_sse(x1 + i);
        const __m128i wa = ta__ld8_s16_sse(w0 + i), wb = ta__ld8_s16_sse(w1 + i);
        s00 = _mm_add_epi32(s00, _mm_madd_epi16(xa, wa));
        s01 = _mm_add_epi32(s01, _mm_madd_epi16(xa, wb));
        s10 = _mm_add_epi32(s10, _mm_madd_epi16(xb, wa));
        s11 = _mm_add_epi32(s11, _mm_madd_epi16(xb, wb));
    }
    const __m128i sum = _mm_hadd_epi32(_mm_hadd_epi32(s00, s01), _mm_hadd_epi32(s10, s11));
    const __m128i old = _mm_loadu_si128((const __m128i *)(const void *)acc);
    _mm_storeu_si128((__m128i *)(void *)acc, _mm_add_epi32(old, sum));
    for (; i < n; i++) {
        acc[0] += x0[i] * w0[i];
        acc[1] += x0[i] * w1[i];
        acc[2] += x1[i] * w0[i];
        acc[3] += x1[i] * w1[i];
    }
}

static inline TA__TARGET_SSE41 void ta__dot_1x2_sse(const int8_t *x0, const int8_t *w0, const int8_t *w1,
                                                    int32_t n, int32_t acc[2]) {
    __m128i s0 = _mm_setzero_si128(), s1 = s0;
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i xa = ta__ld8_s16_sse(x0 + i);
        s0 = _mm_add_epi32(s0, _mm_madd_epi16(xa, ta__ld8_s16_sse(w0 + i)));
        s1 = _mm_add_epi32(s1, _mm_madd_epi16(xa, ta__ld8_s16_sse(w1 + i)));
    }
    const __m128i sum = _mm_hadd_epi32(_mm_hadd_epi32(s0, s1), _mm_setzero_si128());
    acc[0] += _mm_cvtsi128_si32(sum);
    acc[1] += _mm_extract_epi32(sum, 1);
    for (; i < n; i++) {
        acc[0] += x0[i] * w0[i];
        acc[1] += x0[i] * w1[i];
    }
}

/* ta__conv_row8_avx2 for SSE4.1. */
static inline TA__TARGET_SSE41 void ta__conv_row8_sse(const int8_t *x, ptrdiff_t px_step, int32_t n, ptrdiff_t dil_y,
                                                      int32_t fh, int32_t row_w, const int8_t *w, ptrdiff_t depth,
                                                      const ta__rq *rq, const uint32_t *fold, ta__rq_out ro,
                                                      int8_t *op, ptrdiff_t out_c) {
    for (int32_t p = 0; p < n; p++, x += px_step, op += out_c) {
        __m128i s[8];
        int32_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int k = 0; k < 8; k++) s[k] = _mm_setzero_si128();
        for (int32_t fy = 0; fy < fh; fy++) {
            const int8_t *xr = x + fy * dil_y, *wr = w + fy * row_w;
            int32_t i = 0;
            for (; i + 8 <= row_w; i += 8) {
                const __m128i xv = ta__ld8_s16_sse(xr + i);
                for (int k = 0; k < 8; k++)
                    s[k] = _mm_add_epi32(s[k], _mm_madd_epi16(xv, ta__ld8_s16_sse(wr + k * depth + i)));
            }
            for (; i < row_w; i++)
                for (int k = 0; k < 8; k++) t[k] += xr[i] * wr[k * depth + i];
        }
        int32_t sum[8];
        _mm_storeu_si128((__m128i *)(void *)sum,
                         _mm_hadd_epi32(_mm_hadd_epi32(s[0], s[1]), _mm_hadd_epi32(s[2], s[3])));
        _mm_storeu_si128((__m128i *)(void *)(sum + 4),
                         _mm_hadd_epi32(_mm_hadd_epi32(s[4], s[5]), _mm_hadd_epi32(s[6], s[7])));
        for (int k = 0; k < 8; k++) op[k] = ta__rq_s8(&rq[k], ro, (uint32_t)sum[k] + (uint32_t)t[k] + fold[k]);
    }
}

/* ta__dw16_row_avx2 for SSE4.1. */
static inline TA__TARGET_SSE41 void ta__dw16_row_sse(const int8_t *x, ptrdiff_t x_step, int32_t n, ptrdiff_t sx,
                                                     ptrdiff_t sy, const int8_t *w0, int32_t C, int32_t fh, int32_t fw,
                                                     const ta__rq *rq, const uint32_t *fold, ta__rq_out ro,
                                                     int8_t *op) {
    for (int32_t i = 0; i < n; i++, x += x_step, op += C) {
        __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
        const int8_t *xr = x, *w = w0;
        for (int32_t fy = 0; fy < fh; fy++, xr += sy) {
            const int8_t *xp = xr;
            for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C) {
                const __m128i lo = _mm_mullo_epi16(ta__ld8_s16_sse(xp), ta__ld8_s16_sse(w));
                const __m128i hi = _mm_mullo_epi16(ta__ld8_s16_sse(xp + 8), ta__ld8_s16_sse(w + 8));
                a0 = _mm_add_epi32(a0, _mm_cvtepi16_epi32(lo));
                a1 = _mm_add_epi32(a1, _mm_cvtepi16_epi32(_mm_srli_si128(lo, 8)));
                a2 = _mm_add_epi32(a2, _mm_cvtepi16_epi32(hi));
                a3 = _mm_add_epi32(a3, _mm_cvtepi16_epi32(_mm_srli_si128(hi, 8)));
            }
        }
        int32_t acc[16];
        _mm_storeu_si128((__m128i *)(void *)acc, a0);
        _mm_storeu_si128((__m128i *)(void *)(acc + 4), a1);
        _mm_storeu_si128((__m128i *)(void *)(acc + 8), a2);
        _mm_storeu_si128((__m128i *)(void *)(acc + 12), a3);
        for (int c = 0; c < 16; c++) op[c] = ta__rq_s8(&rq[c], ro, (uint32_t)acc[c] + fold[c]);
    }
}

/* Defines NAME(p, input, weights, bias, output), the x86-64 entry point of
 * a fast kernel whose body is BODY(p, input, weights, bias, output, isa):
 * four builds of the body (isa 0 portable C, 3 SSE2, 1 SSE4.1, 2 AVX2), and
 * the one ta__x86_level() picks runs. */
#define TA__ISA_SSE2 3
#define TA__X86_KERNEL(NAME, PARAMS, BODY)                                                               \
    static void BODY##_base(const PARAMS *p, const int8_t *input, const int8_t *weights,                 \
                            const int32_t *bias, int8_t *output) {                                       \
        BODY(p, input, weights, bias, output, 0);                                                        \
    }                                                                                                    \
    static void BODY##_sse2(const PARAMS *p, const int8_t *input, const int8_t *weights,                 \
                            const int32_t *bias, int8_t *output) {                                       \
        BODY(p, input, weights, bias, output, TA__ISA_SSE2);                                             \
    }                                                                                                    \
    static TA__TARGET_SSE41 void BODY##_sse(const PARAMS *p, const int8_t *input, const int8_t *weights, \
                                            const int32_t *bias, int8_t *output) {                       \
        BODY(p, input, weights, bias, output, 1);                                                        \
    }                                                                                                    \
    static TA__TARGET_AVX2 void BODY##_avx2(const PARAMS *p, const int8_t *input, const int8_t *weights, \
                                            const int32_t *bias, int8_t *output) {                       \
        BODY(p, input, weights, bias, output, 2);                                                        \
    }                                                                                                    \
    void NAME(const PARAMS *p, const int8_t *input, const int8_t *weights, const int32_t *bias,           \
              int8_t *output) {                                                                          \
        const int level = ta__x86_level();                                                               \
        if (level == TA__X86_AVX2)                                                                       \
            BODY##_avx2(p, input, weights, bias, output);                                                \
        else if (level == TA__X86_SSE41)                                                                 \
            BODY##_sse(p, input, weights, bias, output);                                                 \
        else if (level == TA__X86_SSE2)                                                                  \
            BODY##_sse2(p, input, weights, bias, output);                                                \
        else                                                                                             \
            BODY##_base(p, input, weights, bias, output);                                                \
    }

/* The 2x2 and 1x2 dot products of a kernel body built by TA__X86_KERNEL:
 * `isa` is a constant in each build, so one branch remains. */
#define TA__DOT_2X2(...)                                                                          \
    (isa == 2 ? ta__dot_2x2_avx2(__VA_ARGS__)                                                     \
     : isa == 1 ? ta__dot_2x2_sse(__VA_ARGS__)                                                    \
     : isa == TA__ISA_SSE2 ? ta__dot_2x2_sse2(__VA_ARGS__) : ta__dot_2x2(__VA_ARGS__))
#define TA__DOT_1X2(...)                                                                          \
    (isa == 2 ? ta__dot_1x2_avx2(__VA_ARGS__)                                                     \
     : isa == 1 ? ta__dot_1x2_sse(__VA_ARGS__)                                                    \
     : isa == TA__ISA_SSE2 ? ta__dot_1x2_sse2(__VA_ARGS__) : ta__dot_1x2(__VA_ARGS__))

#endif

