/*
 * DEPTHWISE_CONV_2D int8, the fast kernel (kernels_fast.h): byte-identical
 * to ta__depthwise_conv2d_s8_ref (TFLM's
 * reference_integer_ops::DepthwiseConvPerChannel), exact for the reason
 * conv2d_s8_fast.c gives: sum(f * x) + input_offset * sum(f) modulo 2^32.
 *
 * Steps:
 *  1. Channels in blocks of TA__DW_BLOCK, the block outermost: its
 *     per-channel weight sums (over all taps) and requantisation constants
 *     are computed once, then every output pixel of those channels.
 *  2. Per pixel, the window's taps inside the image (fy outer, fx inner, as
 *     TFLM skips the others), channels innermost: the block's accumulators
 *     stay in registers (vectors on hosts) and both operands are contiguous
 *     bytes.  On cores with the DSP extension four channels come in one word,
 *     split by SXTB16 into int16 pairs and multiplied with SMLABB/SMLATT.
 *     A depth multiplier m > 1 (output channel oc reads input channel
 *     oc / m: TFLite's form of a convolution of a one-channel image) reads
 *     each block's inputs through a small index table instead.
 *  3. A window clipped by padding sums its remaining taps' weights instead.
 *  4. + input_offset * weight sum + bias, requantised inline (requant.h).
 * With the DSP extension whole windows go two pixels at a time (each weight
 * word unpacked once); on x86-64 the SSE4.1 and AVX2 builds do whole
 * windows 16 channels wide (simd_x86.h).  The Cortex-M 3x3 variant (DSP
 * cores and armv6-m) is in depthwise_conv2d_s8_3x3.h.
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#ifdef TA__X86_DISPATCH
#include "runtime/kernels/simd_x86.h"
#endif

#if defined(TA__DOT_DSP)
#define TA__DW_BLOCK 4 /* one word of channels, four accumulators in registers */
#elif defined(__arm__) || defined(__thumb__)
#define TA__DW_BLOCK 4 /* armv6-m/armv7-m: few registers */
#else
#define TA__DW_BLOCK 16 /* hosts: one or two vector registers of int32 */
#endif

bool ta__depthwise_conv2d_s8_fast_ok(const ta_dwconv_params *p) {
    return (ptrdiff_t)p->filter.h * p->filter.w <= TA__FAST_MAX_DEPTH && ta__rq_ok(&p->q, p->output.c);
}

/* acc[c] += x[c] * w[c] for the block's n channels (n == TA__DW_BLOCK on the
 * fast path: a constant trip count the compiler unrolls or vectorises). */
static TA__ALWAYS_INLINE void dw_tap(const int8_t *x, const int8_t *w, int32_t n, int32_t *acc) {
#if defined(TA__DOT_DSP) && TA__DW_BLOCK == 4
    if (n == 4) {
        const uint32_t xv = ta__ld32(x), wv = ta__ld32(w);
        const int32_t x02 = __sxtb16(xv), x13 = ta__sxtb16_ror8(xv);
        const int32_t w02 = __sxtb16(wv), w13 = ta__sxtb16_ror8(wv);
        acc[0] = __smlabb(x02, w02, acc[0]);
        acc[2] = __smlatt(x02, w02, acc[2]);
        acc[1] = __smlabb(x13, w13, acc[1]);
        acc[3] = __smlatt(x13, w13, acc[3]);
        return;
    }
#endif
    if (n == TA__DW_BLOCK) {
        for (int32_t c = 0; c < TA__DW_BLOCK; c++) acc[c] += x[c] * w[c];
    } else {
        for (int32_t c = 0; c < n; c++) acc[c] += x[c] * w[c];
    }
}

/* The hot path: a whole window inside the image, a full block, depth
 * multiplier 1.  acc[c] = sum over the taps of x[c] * w[c]; x steps sx bytes
 * per tap along x and sy per filter row, w steps C per tap.  The
 * accumulators are locals, so they live in registers. */
static TA__ALWAYS_INLINE void dw_full(const int8_t *x, ptrdiff_t sx, ptrdiff_t sy, const int8_t *w, int32_t C, int32_t fh,
                           int32_t fw, int32_t *acc) {
#if defined(TA__DOT_DSP) && TA__DW_BLOCK == 4
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C) {
            const uint32_t xv = ta__ld32(xp), wv = ta__ld32(w);
            const int32_t x02 = __sxtb16(xv), x13 = ta__sxtb16_ror8(xv);
            const int32_t w02 = __sxtb16(wv), w13 = ta__sxtb16_ror8(wv);
            a0 = __smlabb(x02, w02, a0);
            a2 = __smlatt(x02, w02, a2);
            a1 = __smlabb(x13, w13, a1);
            a3 = __smlatt(x13, w13, a3);
        }
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
#elif TA__DW_BLOCK == 4
    /* armv6-m: written out, GCC keeps a 4-element array in memory */
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C) {
            a0 += xp[0] * w[0];
            a1 += xp[1] * w[1];
            a2 += xp[2] * w[2];
            a3 += xp[3] * w[3];
        }
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
#else
    int32_t a[TA__DW_BLOCK] = {0};
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C)
            for (int32_t c = 0; c < TA__DW_BLOCK; c++) a[c] += xp[c] * w[c];
    }
    memcpy(acc, a, sizeof a);
#endif
}

#if defined(TA__DOT_DSP) && TA__DW_BLOCK == 4
/* dw_full for two pixels (the second xs bytes after the first): each weight
 * word is loaded and unpacked once for both. */
static inline void dw_full2(const int8_t *x, ptrdiff_t xs, ptrdiff_t sx, ptrdiff_t sy, const int8_t *w, int32_t C,
                            int32_t fh, int32_t fw, int32_t *acc) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C) {
            const uint32_t wv = ta__ld32(w), xv = ta__ld32(xp), yv = ta__ld32(xp + xs);
            const int32_t w02 = __sxtb16(wv), w13 = ta__sxtb16_ror8(wv);
            const int32_t x02 = __sxtb16(xv), x13 = ta__sxtb16_ror8(xv);
            a0 = __smlabb(x02, w02, a0);
            a2 = __smlatt(x02, w02, a2);
            a1 = __smlabb(x13, w13, a1);
            a3 = __smlatt(x13, w13, a3);
            const int32_t y02 = __sxtb16(yv), y13 = ta__sxtb16_ror8(yv);
            b0 = __smlabb(y02, w02, b0);
            b2 = __smlatt(y02, w02, b2);
            b1 = __smlabb(y13, w13, b1);
            b3 = __smlatt(y13, w13, b3);
        }
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    acc[4] = b0, acc[5] = b1, acc[6] = b2, acc[7] = b3;
}
#endif

/* The Cortex-M 3x3 kernels (dw3_run, dw3_m0_run): depthwise_conv2d_s8_3x3.h,
 * included here so that they stay in this translation unit (why: there). */
#include "runtime/kernels/depthwise_conv2d_s8_3x3.h"

/* dw_full for a depth multiplier > 1: channel c reads input x[xi[c]]. */
static TA__ALWAYS_INLINE void dw_full_dm(const int8_t *x, ptrdiff_t sx, ptrdiff_t sy, const int8_t *w, int32_t C, int32_t fh,
                              int32_t fw, const uint8_t *xi, int32_t *acc) {
#if TA__DW_BLOCK == 4
    /* written out: GCC keeps a 4-element array in memory here */
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const int32_t i0 = xi[0], i1 = xi[1], i2 = xi[2], i3 = xi[3];
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C) {
            a0 += xp[i0] * w[0];
            a1 += xp[i1] * w[1];
            a2 += xp[i2] * w[2];
            a3 += xp[i3] * w[3];
        }
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
#else
    int32_t a[TA__DW_BLOCK] = {0};
    for (int32_t fy = 0; fy < fh; fy++, x += sy) {
        const int8_t *xp = x;
        for (int32_t fx = 0; fx < fw; fx++, xp += sx, w += C)
            for (int32_t c = 0; c < TA__DW_BLOCK; c++) a[c] += xp[xi[c]] * w[c];
    }
    memcpy(acc, a, sizeof a);
#endif
}

#if defined(TA__DOT_DSP) || defined(__ARM_ARCH_6M__)
/* The 3x3 kernel, a variant of its own (TA_KV_DW_S8_3X3_DSP / _M0). */
ta_status ta__kv_dw_s8_3x3(ta_kernel_args *a) {
#if defined(TA__DOT_DSP)
    return dw3_run(a->p, a->input, a->weights, a->bias, a->output) ? TA_OK : TA_E_UNSUPPORTED;
#else
    return dw3_m0_run(a->p, a->input, a->weights, a->bias, a->output) ? TA_OK : TA_E_UNSUPPORTED;
#endif
}
#endif

/* The general loops (TA_KV_DW_S8_GEN*). */
#ifdef TA__X86_DISPATCH
static TA__ALWAYS_INLINE void dw_body(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                  const int32_t *bias, int8_t *output, int isa) {
#else
/* One build: the body is a function of its own, not inlined into the
 * variant's wrapper (reading its arguments from the ta_kernel_args there
 * cost GCC registers in the hot loops: Cortex-M3 10% more instructions). */
#define isa 0
static __attribute__((noinline)) void dw_gen(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                   int8_t *output) {
#endif
    (void)isa;
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t C = out.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const bool sat = TA__RQ_SAT && ta__rq_sat_ok(&p->q, out.c); /* the shorter requantisation (requant.h) */
    const int32_t taps = f.h * f.w, dm = p->depth_multiplier;
    const ptrdiff_t sx = (ptrdiff_t)p->dilation_w * in.c, sy = (ptrdiff_t)p->dilation_h * in.w * in.c;
    const ptrdiff_t x_step = (ptrdiff_t)p->stride_w * in.c;
    /* output x positions whose window lies inside the image in x */
    int32_t fx_lo = 0, fx_hi = 0;
    for (int32_t ox = 0; ox < out.w; ox++) {
        const ta__taps t = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
        if (t.lo == 0 && t.hi == f.w) {
            if (fx_hi == 0) fx_lo = ox;
            fx_hi = ox + 1;
        } else if (fx_hi) {
            break;
        }
    }
    for (int32_t c0 = 0; c0 < C; c0 += TA__DW_BLOCK) {
        const int32_t n = C - c0 < TA__DW_BLOCK ? C - c0 : TA__DW_BLOCK;
        int32_t wsum[TA__DW_BLOCK];
        ta__rq rq[TA__DW_BLOCK];
        uint32_t fold[TA__DW_BLOCK]; /* bias + input_offset * wsum */
        /* depth multiplier > 1: input channel of each output channel, from
         * the block's first input channel x0 (one division per block) */
        const int32_t x0 = c0 / dm;
        uint8_t xi[TA__DW_BLOCK];
        for (int32_t c = 0; c < n; c++) {
            xi[c] = (uint8_t)((c0 + c) / dm - x0);
            int32_t s = 0;
            for (int32_t t = 0; t < taps; t++) s += filter[(ptrdiff_t)t * C + c0 + c];
            wsum[c] = s;
            rq[c] = ta__rq_make(&p->q, c0 + c);
            fold[c] = ta__fold(bias, c0 + c, p->q.input_offset, s);
        }
        const bool hot = n == TA__DW_BLOCK;
        for (int32_t b = 0; b < out.n; b++) {
            for (int32_t oy = 0; oy < out.h; oy++) {
                const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
                const bool full_y = ty.lo == 0 && ty.hi == f.h;
                for (int32_t ox = 0; ox < out.w; ox++) {
                    if (full_y && hot && ox >= fx_lo && ox < fx_hi) {
                        /* the hot loop: windows inside the image along this row */
                        const int8_t *x = input + ta__nhwc_p(&in, b, ty.i0, ox * p->stride_w - p->pad_w) + x0;
                        int8_t *op = output + ta__nhwc_p(&out, b, oy, ox) + c0;
#ifdef TA__X86_DISPATCH
                        /* 16 channels: taps (and with AVX2 and SSE2 requantisation) in vectors; the SSE2 row
                         * (kernels_sse2.c) declines layers it does not fit */
                        if (isa && dm == 1 &&
                            (isa != TA__ISA_SSE2 || ta__dw16_row_sse2(x, x_step, fx_hi - ox, sx, sy, filter + c0, C,
                                                                      f.h, f.w, rq, fold, ro, op))) {
                            if (isa == 2)
                                ta__dw16_row_avx2(x, x_step, fx_hi - ox, sx, sy, filter + c0, C, f.h, f.w, rq, fold,
                                                  ro, op);
                            else if (isa == 1)
                                ta__dw16_row_sse(x, x_step, fx_hi - ox, sx, sy, filter + c0, C, f.h, f.w, rq, fold,
                                                 ro, op);
                            ox = fx_hi - 1; /* the for loop's increment */
                            continue;
                        }
#endif
#if defined(TA__DOT_DSP) && TA__DW_BLOCK == 4
                        for (; dm == 1 && ox + 1 < fx_hi; ox += 2, x += 2 * x_step, op += 2 * C) {
                            int32_t acc[8];
                            dw_full2(x, x_step, sx, sy, filter + c0, C, f.h, f.w, acc);
                            /* one channel's constants for both pixels */
                            if (sat) {
                                for (int32_t c = 0; c < 4; c++) {
                                    const ta__rq r = rq[c];
                                    const uint32_t fc = fold[c];
                                    op[c] = ta__rq_s8_sat(&r, ro, (uint32_t)acc[c] + fc);
                                    op[C + c] = ta__rq_s8_sat(&r, ro, (uint32_t)acc[4 + c] + fc);
                                }
                                continue;
                            }
                            for (int32_t c = 0; c < 4; c++) {
                                const ta__rq r = rq[c];
                                const uint32_t fc = fold[c];
                                op[c] = ta__rq_s8(&r, ro, (uint32_t)acc[c] + fc);
                                op[C + c] = ta__rq_s8(&r, ro, (uint32_t)acc[4 + c] + fc);
                            }
                        }
#endif
                        for (; ox < fx_hi; ox++, x += x_step, op += C) {
                            int32_t acc[TA__DW_BLOCK];
                            if (dm == 1)
                                dw_full(x, sx, sy, filter + c0, C, f.h, f.w, acc);
                            else
                                dw_full_dm(x, sx, sy, filter + c0, C, f.h, f.w, xi, acc);
                            if (sat)
                                for (int32_t c = 0; c < TA__DW_BLOCK; c++)
                                    op[c] = ta__rq_s8_sat(&rq[c], ro, (uint32_t)acc[c] + fold[c]);
                            else
                                for (int32_t c = 0; c < TA__DW_BLOCK; c++)
                                    op[c] = ta__rq_s8(&rq[c], ro, (uint32_t)acc[c] + fold[c]);
                        }
                        ox--; /* the for loop's increment */
                        continue;
                    }
                    const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                    const bool full = ty.lo == 0 && ty.hi == f.h && tx.lo == 0 && tx.hi == f.w;
                    int32_t acc[TA__DW_BLOCK] = {0};
                    int8_t *op = output + ta__nhwc_p(&out, b, oy, ox) + c0;
                    int32_t part[TA__DW_BLOCK] = {0}; /* weight sums of a clipped window */
                    for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                        const int8_t *xr = input + ta__nhwc_p(&in, b, ty.i0 + p->dilation_h * fy, 0) + x0;
                        const int8_t *wr = filter + (ptrdiff_t)fy * f.w * C + c0;
                        for (int32_t fx = tx.lo; fx < tx.hi; fx++) {
                            const int8_t *xp = xr + (ptrdiff_t)(tx.i0 + p->dilation_w * fx) * in.c;
                            const int8_t *wp = wr + (ptrdiff_t)fx * C;
                            if (dm == 1)
                                dw_tap(xp, wp, n, acc);
                            else
                                for (int32_t c = 0; c < n; c++) acc[c] += xp[xi[c]] * wp[c];
                            if (!full)
                                for (int32_t c = 0; c < n; c++) part[c] += wp[c];
                        }
                    }
                    const int32_t *s = full ? wsum : part;
                    for (int32_t c = 0; c < n; c++)
                        op[c] = ta__rq_s8(&rq[c], ro, (uint32_t)acc[c] + ta__fold(bias, c0 + c, p->q.input_offset, s[c]));
                }
            }
        }
    }
}

#ifdef TA__X86_DISPATCH
/* x86-64: the portable, SSE2, SSE4.1 and AVX2 builds of the body, chosen at
 * run time (simd_x86.h). */
TA__X86_KERNEL(ta__depthwise_conv2d_s8_gen_x86, ta_dwconv_params, dw_body)
ta_status ta__kv_dw_s8_gen(ta_kernel_args *a) {
    ta__depthwise_conv2d_s8_gen_x86(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}
#else
#undef isa
ta_status ta__kv_dw_s8_gen(ta_kernel_args *a) {
    dw_gen(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}
#endif

/* Which variant runs: the 3x3 kernel where it applies (Cortex-M), else the
 * general loops. */
ta_status ta__depthwise_conv2d_s8_fast_run(ta_kernel_args *a) {
#if defined(TA__DOT_DSP)
    return ta__kv_run(ta__dw3_ok(a->p) ? TA_KV_DW_S8_3X3_DSP : TA_KV_DW_S8_GEN_DSP, a);
#elif defined(__ARM_ARCH_6M__)
    return ta__kv_run(ta__dw3_ok(a->p) ? TA_KV_DW_S8_3X3_M0 : TA_KV_DW_S8_GEN_M0, a);
#else
    return ta__kv_run(TA_KV_DW_S8_GEN, a);
#endif
}

void ta__depthwise_conv2d_s8_fast(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                  const int32_t *bias, int8_t *output) {
    ta_kernel_args a = {.p = p, .input = input, .weights = filter, .bias = bias, .output = output};
    (void)ta__depthwise_conv2d_s8_fast_run(&a);
}
