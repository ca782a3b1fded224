/*
 * The SSE2 build's own loops (simd_sse2.h): the convolution's whole windows
 * 8 output channels at a time and the depthwise rows 16 channels at a time,
 * both with the requantisation in vectors.  The rest of the SSE2 build (the
 * clipped windows, the fully connected dot products) is the kernel bodies of
 * conv2d_s8_fast.c, depthwise_conv2d_s8_fast.c and fully_connected_s8_fast.c
 * built with isa TA__ISA_SSE2 (simd_x86.h).
 *
 * Why the weights are widened into a stack buffer first: SSE2 has no
 * PMOVSXBW, so every int8 operand costs a PUNPCKLBW and a PSRAW on top of
 * its load.  The input run of a pixel is widened once and used against 8
 * weight rows; the weight rows are used by every pixel of the layer, so they
 * are widened once per call (and the aligned int16 rows then feed PMADDWD
 * straight from memory).  No malloc: 16 KB of stack at most.
 */
#include "runtime/kernels/kernels_fast.h"

#ifdef TA__X86_DISPATCH
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/simd_sse2.h"

/* Vectors of 8 int16 weights the convolution's buffer holds: 8 channels x
 * (filter rows x whole 8-byte chunks of a row), i.e. depths up to 1024. */
#define TA__CONV8_SSE2_VECS 1024

/* One output row of the convolution, n pixels of whole windows, 8 channels:
 * wb holds the channels' weights as int16, per filter row and 8-byte chunk
 * the 8 channels' vectors in order; the last row_w % 8 bytes of each filter
 * row (tail: there are some; a constant in each build, so the 1x1 layers
 * carry no scalar sums) come from the int8 rows w + k * depth. */
static inline __attribute__((always_inline)) void conv_row8(const int8_t *x, ptrdiff_t px_step, int32_t n,
                                                           ptrdiff_t dil_y, int32_t fh, int32_t row_w,
                                                           const __m128i *wb, const int8_t *w, ptrdiff_t depth,
                                                           const ta__rq4 *r0, const ta__rq4 *r1, __m128i f0,
                                                           __m128i f1, const ta__rq_out16 *o, int8_t *op,
                                                           ptrdiff_t out_c, bool tail) {
    const int32_t whole = row_w & ~7; /* bytes of a filter row in whole chunks */
    for (int32_t p = 0; p < n; p++, x += px_step, op += out_c) {
        __m128i s0 = _mm_setzero_si128(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
        int32_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        const __m128i *wp = wb;
        for (int32_t fy = 0; fy < fh; fy++) {
            const int8_t *xr = x + fy * dil_y;
            int32_t i = 0;
            for (; i + 16 <= whole; i += 16, wp += 16) {
                const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(xr + i));
                const __m128i lo = ta__s16_lo_sse2(v), hi = ta__s16_hi_sse2(v);
                s0 = _mm_add_epi32(s0, _mm_add_epi32(_mm_madd_epi16(lo, wp[0]), _mm_madd_epi16(hi, wp[8])));
                s1 = _mm_add_epi32(s1, _mm_add_epi32(_mm_madd_epi16(lo, wp[1]), _mm_madd_epi16(hi, wp[9])));
                s2 = _mm_add_epi32(s2, _mm_add_epi32(_mm_madd_epi16(lo, wp[2]), _mm_madd_epi16(hi, wp[10])));
                s3 = _mm_add_epi32(s3, _mm_add_epi32(_mm_madd_epi16(lo, wp[3]), _mm_madd_epi16(hi, wp[11])));
                s4 = _mm_add_epi32(s4, _mm_add_epi32(_mm_madd_epi16(lo, wp[4]), _mm_madd_epi16(hi, wp[12])));
                s5 = _mm_add_epi32(s5, _mm_add_epi32(_mm_madd_epi16(lo, wp[5]), _mm_madd_epi16(hi, wp[13])));
                s6 = _mm_add_epi32(s6, _mm_add_epi32(_mm_madd_epi16(lo, wp[6]), _mm_madd_epi16(hi, wp[14])));
                s7 = _mm_add_epi32(s7, _mm_add_epi32(_mm_madd_epi16(lo, wp[7]), _mm_madd_epi16(hi, wp[15])));
            }
            if (i < whole) { /* one chunk of 8 left */
                const __m128i lo = ta__ld8_s16_sse2(xr + i);
                s0 = _mm_add_epi32(s0, _mm_madd_epi16(lo, wp[0]));
                s1 = _mm_add_epi32(s1, _mm_madd_epi16(lo, wp[1]));
                s2 = _mm_add_epi32(s2, _mm_madd_epi16(lo, wp[2]));
                s3 = _mm_add_epi32(s3, _mm_madd_epi16(lo, wp[3]));
                s4 = _mm_add_epi32(s4, _mm_madd_epi16(lo, wp[4]));
                s5 = _mm_add_epi32(s5, _mm_madd_epi16(lo, wp[5]));
                s6 = _mm_add_epi32(s6, _mm_madd_epi16(lo, wp[6]));
                s7 = _mm_add_epi32(s7, _mm_madd_epi16(lo, wp[7]));
                wp += 8;
            }
            for (i = whole; tail && i < row_w; i++) {
                const int32_t xv = xr[i];
                const int8_t *wr = w + fy * row_w + i;
                for (int k = 0; k < 8; k++) t[k] += xv * wr[k * depth];
            }
        }
        /* sum(filter * input) + fold, wrapping like TFLM's int32 */
        __m128i a = _mm_add_epi32(ta__hsum4_sse2(s0, s1, s2, s3), f0);
        __m128i b = _mm_add_epi32(ta__hsum4_sse2(s4, s5, s6, s7), f1);
        if (tail) {
            a = _mm_add_epi32(a, _mm_loadu_si128((const __m128i *)(const void *)t));
            b = _mm_add_epi32(b, _mm_loadu_si128((const __m128i *)(const void *)(t + 4)));
        }
        const __m128i v = ta__rq_clamp8_sse2(o, ta__rq4_mul(r0, a), ta__rq4_mul(r1, b));
        _mm_storel_epi64((__m128i *)(void *)op, _mm_packs_epi16(v, v));
    }
}

int32_t ta__conv_oc8_sse2(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                          int8_t *output, int32_t oc, int32_t per_group, int32_t fx_lo, int32_t fx_hi) {
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t row_w = f.w * f.c, depth = f.h * row_w;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    if ((int64_t)f.h * (row_w / 8) * 8 > TA__CONV8_SSE2_VECS || !ta__rq16_ok(ro)) return 0;
    const ta__rq_out16 o = ta__rq_out16_make(ro);
    const ptrdiff_t in_row = (ptrdiff_t)in.w * in.c, in_img = (ptrdiff_t)in.h * in_row;
    const ptrdiff_t px_step = (ptrdiff_t)p->stride_w * in.c, dil_y = (ptrdiff_t)p->dilation_h * in_row;
    const int32_t n = per_group / 8 * 8;
    __m128i wb[TA__CONV8_SSE2_VECS];
    for (int32_t oc8 = oc; oc8 < oc + n; oc8 += 8) {
        const int8_t *w = filter + (ptrdiff_t)oc8 * depth;
        ta__rq rq[8];
        uint32_t fold[8];
        for (int32_t k = 0; k < 8; k++) {
            rq[k] = ta__rq_make(&p->q, oc8 + k);
            fold[k] = ta__fold(bias, oc8 + k, p->q.input_offset, ta__sum_s8(w + (ptrdiff_t)k * depth, depth));
        }
        __m128i *wp = wb;
        for (int32_t fy = 0; fy < f.h; fy++)
            for (int32_t i = 0; i + 8 <= row_w; i += 8)
                for (int32_t k = 0; k < 8; k++) *wp++ = ta__ld8_s16_sse2(w + (ptrdiff_t)k * depth + fy * row_w + i);
        const ta__rq4 r0 = ta__rq4_make(rq), r1 = ta__rq4_make(rq + 4);
        const __m128i f0 = _mm_loadu_si128((const __m128i *)(const void *)fold);
        const __m128i f1 = _mm_loadu_si128((const __m128i *)(const void *)(fold + 4));
        for (int32_t b = 0; b < out.n; b++)
            for (int32_t oy = 0; oy < out.h; oy++) {
                const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
                if (ty.lo != 0 || ty.hi != f.h) continue; /* the generic loops do clipped rows */
                const int8_t *x = input + b * in_img + (ptrdiff_t)ty.i0 * in_row +
                                  (ptrdiff_t)(fx_lo * p->stride_w - p->pad_w) * in.c;
                int8_t *op = output + ta__nhwc_p(&out, b, oy, fx_lo) + oc8;
                if (row_w % 8)
                    conv_row8(x, px_step, fx_hi - fx_lo, dil_y, f.h, row_w, wb, w, depth, &r0, &r1, f0, f1, &o, op,
                              out.c, true);
                else
                    conv_row8(x, px_step, fx_hi - fx_lo, dil_y, f.h, row_w, wb, w, depth, &r0, &r1, f0, f1, &o, op,
                              out.c, false);
            }
    }
    return n;
}

bool ta__dw16_row_sse2(const int8_t *x, ptrdiff_t x_step, int32_t n, ptrdiff_t sx, ptrdiff_t sy, const int8_t *w,
                       int32_t C, int32_t fh, int32_t fw, const ta__rq *rq, const uint32_t *fold, ta__rq_out ro,
                       int8_t *op) {
    const int32_t taps = fh * fw;
    if (taps > TA__DW16_SSE2_TAPS || !ta__rq16_ok(ro)) return false;
    /* Taps in pairs: the two taps' bytes interleaved (PUNPCKLBW of the two
     * runs), so one PMADDWD adds both taps' products of 4 channels.  An odd
     * last tap pairs with itself and zero weights. */
    const int32_t pairs = (taps + 1) / 2;
    ptrdiff_t off[TA__DW16_SSE2_TAPS + 1];
    __m128i wb[TA__DW16_SSE2_TAPS / 2 * 4];
    for (int32_t fy = 0, t = 0; fy < fh; fy++)
        for (int32_t fx = 0; fx < fw; fx++) off[t++] = fy * sy + fx * sx;
    off[taps] = off[taps - 1];
    for (int32_t pr = 0; pr < pairs; pr++) {
        const __m128i wa = _mm_loadu_si128((const __m128i *)(const void *)(w + (ptrdiff_t)2 * pr * C));
        const __m128i wz = 2 * pr + 1 < taps
                               ? _mm_loadu_si128((const __m128i *)(const void *)(w + (ptrdiff_t)(2 * pr + 1) * C))
                               : _mm_setzero_si128();
        const __m128i lo = _mm_unpacklo_epi8(wa, wz), hi = _mm_unpackhi_epi8(wa, wz);
        wb[4 * pr + 0] = ta__s16_lo_sse2(lo); /* channels 0..3, two taps each */
        wb[4 * pr + 1] = ta__s16_hi_sse2(lo);
        wb[4 * pr + 2] = ta__s16_lo_sse2(hi);
        wb[4 * pr + 3] = ta__s16_hi_sse2(hi);
    }
    const ta__rq4 q0 = ta__rq4_make(rq), q1 = ta__rq4_make(rq + 4), q2 = ta__rq4_make(rq + 8),
                  q3 = ta__rq4_make(rq + 12);
    const __m128i f0 = _mm_loadu_si128((const __m128i *)(const void *)fold);
    const __m128i f1 = _mm_loadu_si128((const __m128i *)(const void *)(fold + 4));
    const __m128i f2 = _mm_loadu_si128((const __m128i *)(const void *)(fold + 8));
    const __m128i f3 = _mm_loadu_si128((const __m128i *)(const void *)(fold + 12));
    const ta__rq_out16 o = ta__rq_out16_make(ro);
    for (int32_t i = 0; i < n; i++, x += x_step, op += C) {
        /* the sums start from the folds: int32 adds wrap like TFLM's */
        __m128i a0 = f0, a1 = f1, a2 = f2, a3 = f3;
        const __m128i *wp = wb;
        for (int32_t pr = 0; pr < pairs; pr++, wp += 4) {
            const __m128i xa = _mm_loadu_si128((const __m128i *)(const void *)(x + off[2 * pr]));
            const __m128i xb = _mm_loadu_si128((const __m128i *)(const void *)(x + off[2 * pr + 1]));
            const __m128i lo = _mm_unpacklo_epi8(xa, xb), hi = _mm_unpackhi_epi8(xa, xb);
            a0 = _mm_add_epi32(a0, _mm_madd_epi16(ta__s16_lo_sse2(lo), wp[0]));
            a1 = _mm_add_epi32(a1, _mm_madd_epi16(ta__s16_hi_sse2(lo), wp[1]));
            a2 = _mm_add_epi32(a2, _mm_madd_epi16(ta__s16_lo_sse2(hi), wp[2]));
            a3 = _mm_add_epi32(a3, _mm_madd_epi16(ta__s16_hi_sse2(hi), wp[3]));
        }
        const __m128i v0 = ta__rq_clamp8_sse2(&o, ta__rq4_mul(&q0, a0), ta__rq4_mul(&q1, a1));
        const __m128i v1 = ta__rq_clamp8_sse2(&o, ta__rq4_mul(&q2, a2), ta__rq4_mul(&q3, a3));
        _mm_storeu_si128((__m128i *)(void *)op, _mm_packs_epi16(v0, v1));
    }
    return true;
}
#else
/* Not x86-64: nothing here (ISO C wants a declaration in every file). */
typedef int ta__kernels_sse2_unused;
#endif
