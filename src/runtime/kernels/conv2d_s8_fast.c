/*
 * CONV_2D int8, the fast kernel (kernels_fast.h): byte-identical to
 * ta__conv2d_s8_ref, i.e. to TFLM's reference_integer_ops::ConvPerChannel.
 *
 * Why it is exact: TFLM sums filter * (input + input_offset) in int32 and
 * wraps.  Modulo 2^32 that sum equals sum(filter * input) + input_offset *
 * sum(filter) over the same taps, whatever the order.  The first sum is
 * exact in int32 here (at most TA__FAST_MAX_DEPTH products of +-2^14); the
 * second and the bias are added in uint32, i.e. wrapping like TFLM.
 *
 * Steps:
 *  1. Output channels two at a time (within one group): their filters' full
 *     weight sums and requantisation constants are computed once, then every
 *     output pixel is produced for that pair (the weights stay put, the input
 *     streams past).
 *  2. Pixels two at a time along x when both windows lie inside the image in
 *     x (the common case): a 2x2 block of dot products, each unpacked value
 *     used twice.  For a filter row, the taps inside the image are one
 *     contiguous run of input bytes (dilation 1, one group), so a row is one
 *     dot product of (taps * channels) terms; 1x1 convolutions are one dot
 *     product of in.c terms per pixel -- a blocked matrix multiply.
 *  3. Windows clipped by padding skip the outside taps like TFLM does; their
 *     weight sum is taken over the taps that remain.
 *  4. + input_offset * weight sum + bias, requantised inline (requant.h).
 * On x86-64 the SSE2, SSE4.1 and AVX2 builds first do the whole windows of
 * each group's channels 8 at a time (one input run against 8 weight rows, the
 * 8 sums requantised together, simd_x86.h, kernels_sse2.c); steps 1-4 then
 * do the rest.
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#ifdef TA__X86_DISPATCH
#include "runtime/kernels/simd_x86.h"
#endif

bool ta__conv2d_s8_fast_ok(const ta_conv_params *p) {
    return (ptrdiff_t)p->filter.h * p->filter.w * p->filter.c <= TA__FAST_MAX_DEPTH &&
           ta__rq_ok(&p->q, p->output.c);
}

/* Output x positions whose window lies fully inside the image in x:
 * [*lo, *hi).  Empty (lo == hi) when there is none. */
static void full_x_range(const ta_conv_params *p, int32_t *lo, int32_t *hi) {
    *lo = *hi = 0;
    bool seen = false;
    for (int32_t ox = 0; ox < p->output.w; ox++) {
        const ta__taps t = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, p->filter.w, p->input.w);
        if (t.lo == 0 && t.hi == p->filter.w) {
            if (!seen) *lo = ox;
            seen = true;
            *hi = ox + 1;
        } else if (seen) {
            break; /* windows move monotonically: once out, out for good */
        }
    }
}

/* The general loops (TA_KV_CONV_S8_GEN*), from output channel pw_done on
 * (the Cortex-M 1x1 kernels, conv2d_s8_pw_{dsp,m0}.c, did those before it). */
#ifdef TA__X86_DISPATCH
static TA__ALWAYS_INLINE void conv_body(const ta_conv_params *p, const int8_t *input, const int8_t *filter,
                        const int32_t *bias, int8_t *output, int isa) {
    const int32_t pw_done = 0;
#else
/* One build: the body is a function of its own, not inlined into the
 * variant's wrapper (reading its arguments from the ta_kernel_args there
 * cost GCC registers in the hot loops: Cortex-M3 9% more instructions). */
#define isa 0
static __attribute__((noinline)) void conv_gen(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                     int8_t *output, int32_t pw_done) {
#endif
    (void)isa;
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t groups = in.c / f.c, per_group = f.n / groups;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const bool sat = TA__RQ_SAT && ta__rq_sat_ok(&p->q, out.c); /* the shorter requantisation (requant.h) */
    /* the shortest one (ta__rqs), for channel pairs whose whole windows are
     * small enough; full: no activation clamp narrower than int8 */
    const bool rqs = TA__RQS && ta__rqs_layer_ok(&p->q, out.c);
    const bool full_range = p->q.act_min == -128 && p->q.act_max == 127;
    const int32_t row_w = f.w * f.c; /* bytes of one filter row */
    const int32_t depth = f.h * row_w;
    const int32_t dil_x = p->dilation_w * in.c; /* input bytes between taps along x */
    /* One contiguous run per filter row, or one run per tap. */
    const bool merged = groups == 1 && p->dilation_w == 1;
    const ptrdiff_t in_row = (ptrdiff_t)in.w * in.c, in_img = (ptrdiff_t)in.h * in_row;
    const ptrdiff_t px_step = (ptrdiff_t)p->stride_w * in.c;
    const ptrdiff_t dil_y = (ptrdiff_t)p->dilation_h * in_row; /* input bytes between filter rows */
    int32_t fx_lo, fx_hi;
    full_x_range(p, &fx_lo, &fx_hi);

    for (int32_t g = 0; g < groups; g++) {
        const int32_t oc_end = (g + 1) * per_group;
        /* output channels [g * per_group, covered) have their whole windows
         * done already (x86 SSE2, SSE4.1 and AVX2: 8 channels per pixel) */
        int32_t covered = g * per_group;
#ifdef TA__X86_DISPATCH
        if (isa == TA__ISA_SSE2 && merged && fx_hi > fx_lo) {
            /* SSE2: its own loops (kernels_sse2.c), 0 when the layer does not fit them */
            covered = g * per_group +
                      ta__conv_oc8_sse2(p, input, filter, bias, output, g * per_group, per_group, fx_lo, fx_hi);
        } else if (isa && merged && fx_hi > fx_lo) {
            covered = g * per_group + per_group / 8 * 8;
            for (int32_t oc8 = g * per_group; oc8 < covered; oc8 += 8) {
                ta__rq rq[8];
                uint32_t fold[8];
                for (int32_t k = 0; k < 8; k++) {
                    rq[k] = ta__rq_make(&p->q, oc8 + k);
                    fold[k] = ta__fold(bias, oc8 + k, p->q.input_offset,
                                       ta__sum_s8(filter + (ptrdiff_t)(oc8 + k) * depth, depth));
                }
                for (int32_t b = 0; b < out.n; b++)
                    for (int32_t oy = 0; oy < out.h; oy++) {
                        const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
                        if (ty.lo != 0 || ty.hi != f.h) continue;
                        const int8_t *x = input + b * in_img + (ptrdiff_t)ty.i0 * in_row +
                                          (ptrdiff_t)(fx_lo * p->stride_w - p->pad_w) * in.c;
                        int8_t *op = output + ta__nhwc_p(&out, b, oy, fx_lo) + oc8;
                        if (isa == 2)
                            ta__conv_row8_avx2(x, px_step, fx_hi - fx_lo, dil_y, f.h, row_w,
                                               filter + (ptrdiff_t)oc8 * depth, depth, rq, fold, ro, op, out.c);
                        else
                            ta__conv_row8_sse(x, px_step, fx_hi - fx_lo, dil_y, f.h, row_w,
                                              filter + (ptrdiff_t)oc8 * depth, depth, rq, fold, ro, op, out.c);
                    }
            }
        }
#endif
        for (int32_t oc0 = g * per_group + pw_done; oc0 < oc_end; oc0 += 2) {
            /* An odd last channel runs as a pair with itself; only one is stored. */
            const int32_t oc1 = oc0 + 1 < oc_end ? oc0 + 1 : oc0;
            const int8_t *w0 = filter + (ptrdiff_t)oc0 * depth, *w1 = filter + (ptrdiff_t)oc1 * depth;
            const int32_t sum0 = ta__sum_s8(w0, depth), sum1 = ta__sum_s8(w1, depth);
            const ta__rq r0 = ta__rq_make(&p->q, oc0), r1 = ta__rq_make(&p->q, oc1);
            const uint32_t full0 = ta__fold(bias, oc0, p->q.input_offset, sum0);
            const uint32_t full1 = ta__fold(bias, oc1, p->q.input_offset, sum1);
            ta__rqs q0 = {0, 0, 1, 0}, q1 = {0, 0, 1, 0};
            const bool small = rqs && ta__rqs_make(&p->q, oc0, full0, depth, &q0) &&
                               ta__rqs_make(&p->q, oc1, full1, depth, &q1);
            for (int32_t b = 0; b < out.n; b++) {
                for (int32_t oy = 0; oy < out.h; oy++) {
                    const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
                    const bool full_y = ty.lo == 0 && ty.hi == f.h;
                    int8_t *orow = output + ta__nhwc_p(&out, b, oy, 0);
                    for (int32_t ox = 0; ox < out.w;) {
                        if (oc0 < covered && full_y && ox >= fx_lo && ox < fx_hi) {
                            ox = fx_hi; /* done 8 channels at a time */
                            continue;
                        }
                        if (full_y && merged && ox >= fx_lo && ox + 1 < fx_hi) {
                            /* The hot loop: pixel pairs whose windows lie inside the
                             * image, one dot product per filter row. */
                            const int8_t *x = input + b * in_img + (ptrdiff_t)ty.i0 * in_row +
                                              (ptrdiff_t)(ox * p->stride_w - p->pad_w) * in.c;
                            int8_t *op = orow + (ptrdiff_t)ox * out.c;
                            for (; ox + 1 < fx_hi; ox += 2, x += 2 * px_step, op += 2 * out.c) {
                                int32_t acc[4] = {0, 0, 0, 0};
                                for (int32_t fy = 0; fy < f.h; fy++)
                                    TA__DOT_2X2(x + fy * dil_y, x + fy * dil_y + px_step, w0 + fy * row_w,
                                                w1 + fy * row_w, row_w, acc);
                                if (small && full_range) {
                                    op[oc0] = ta__rqs_s8(&q0, ro, true, acc[0]);
                                    op[out.c + oc0] = ta__rqs_s8(&q0, ro, true, acc[2]);
                                    op[oc1] = ta__rqs_s8(&q1, ro, true, acc[1]);
                                    op[out.c + oc1] = ta__rqs_s8(&q1, ro, true, acc[3]);
                                    continue; /* oc1 == oc0 stores the same byte twice */
                                }
                                if (small) {
                                    op[oc0] = ta__rqs_s8(&q0, ro, false, acc[0]);
                                    op[out.c + oc0] = ta__rqs_s8(&q0, ro, false, acc[2]);
                                    op[oc1] = ta__rqs_s8(&q1, ro, false, acc[1]);
                                    op[out.c + oc1] = ta__rqs_s8(&q1, ro, false, acc[3]);
                                    continue;
                                }
                                if (sat) {
                                    op[oc0] = ta__rq_s8_sat(&r0, ro, (uint32_t)acc[0] + full0);
                                    op[out.c + oc0] = ta__rq_s8_sat(&r0, ro, (uint32_t)acc[2] + full0);
                                    if (oc1 != oc0) {
                                        op[oc1] = ta__rq_s8_sat(&r1, ro, (uint32_t)acc[1] + full1);
                                        op[out.c + oc1] = ta__rq_s8_sat(&r1, ro, (uint32_t)acc[3] + full1);
                                    }
                                    continue;
                                }
                                op[oc0] = ta__rq_s8(&r0, ro, (uint32_t)acc[0] + full0);
                                op[out.c + oc0] = ta__rq_s8(&r0, ro, (uint32_t)acc[2] + full0);
                                if (oc1 != oc0) {
                                    op[oc1] = ta__rq_s8(&r1, ro, (uint32_t)acc[1] + full1);
                                    op[out.c + oc1] = ta__rq_s8(&r1, ro, (uint32_t)acc[3] + full1);
                                }
                            }
                            continue;
                        }
                        const bool pair = ox >= fx_lo && ox + 1 < fx_hi;
                        const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                        const int32_t ntx = tx.hi - tx.lo;
                        int32_t acc[4] = {0, 0, 0, 0};
                        int32_t s0 = sum0, s1 = sum1;
                        const bool full = full_y && tx.lo == 0 && tx.hi == f.w;
                        if (!full) s0 = s1 = 0;
                        for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                            const int8_t *xr = input + b * in_img + (ptrdiff_t)(ty.i0 + p->dilation_h * fy) * in_row +
                                               (ptrdiff_t)(tx.i0 + p->dilation_w * tx.lo) * in.c + (ptrdiff_t)g * f.c;
                            const int8_t *wr0 = w0 + fy * row_w + tx.lo * f.c, *wr1 = w1 + fy * row_w + tx.lo * f.c;
                            if (!full) {
                                s0 += ta__sum_s8(wr0, ntx * f.c);
                                s1 += ta__sum_s8(wr1, ntx * f.c);
                            }
                            if (merged) {
                                if (pair)
                                    TA__DOT_2X2(xr, xr + px_step, wr0, wr1, ntx * f.c, acc);
                                else
                                    TA__DOT_1X2(xr, wr0, wr1, ntx * f.c, acc);
                            } else {
                                for (int32_t k = 0; k < ntx; k++) {
                                    const int8_t *xk = xr + (ptrdiff_t)k * dil_x;
                                    if (pair)
                                        TA__DOT_2X2(xk, xk + px_step, wr0 + k * f.c, wr1 + k * f.c, f.c, acc);
                                    else
                                        TA__DOT_1X2(xk, wr0 + k * f.c, wr1 + k * f.c, f.c, acc);
                                }
                            }
                        }
                        const uint32_t f0 = ta__fold(bias, oc0, p->q.input_offset, s0);
                        const uint32_t f1 = ta__fold(bias, oc1, p->q.input_offset, s1);
                        ta__rq_store_2x2(orow + (ptrdiff_t)ox * out.c, out.c, oc0, oc1, &r0, &r1, ro, f0, f1, acc,
                                         pair);
                        ox += pair ? 2 : 1;
                    }
                }
            }
        }
    }
}

#ifdef TA__X86_DISPATCH
/* x86-64: the portable, SSE2, SSE4.1 and AVX2 builds of the body, chosen at
 * run time (simd_x86.h). */
TA__X86_KERNEL(ta__conv2d_s8_gen_x86, ta_conv_params, conv_body)
ta_status ta__kv_conv_s8_gen(ta_kernel_args *a) {
    ta__conv2d_s8_gen_x86(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}
#else
#undef isa
ta_status ta__kv_conv_s8_gen(ta_kernel_args *a) {
#if defined(TA__DOT_DSP) || defined(__ARM_ARCH_6M__)
    conv_gen(a->p, a->input, a->weights, a->bias, a->output, a->from);
#else
    conv_gen(a->p, a->input, a->weights, a->bias, a->output, 0); /* no 1x1 kernel runs before it */
#endif
    return TA_OK;
}
#endif

/* Which variants run, from the parameters: on Cortex-M a 1x1 kernel first
 * (conv2d_s8_pw_dsp.c, conv2d_s8_pw_m0.c) where it applies, then the general loops for the output
 * channels it left. */
ta_status ta__conv2d_s8_fast_run(ta_kernel_args *a) {
    const ta_conv_params *p = a->p;
    a->from = 0;
#if defined(TA__DOT_DSP)
    const int kind = ta__pw_dsp_kind(p);
    if (kind) {
        const ta_status st = ta__kv_run(kind == 1 ? TA_KV_CONV_S8_PW_DSP : TA_KV_CONV_S8_GATHER_DSP, a);
        if (st) return st;
        a->from = a->done;
    }
    return a->from < p->output.c ? ta__kv_run(TA_KV_CONV_S8_GEN_DSP, a) : TA_OK;
#elif defined(__ARM_ARCH_6M__)
    if (ta__pw_m0_ok(p) || ta__gather_m0_ok(p)) {
        const ta_status st = ta__kv_run(TA_KV_CONV_S8_PW_M0, a);
        if (st) return st;
        a->from = a->done;
    }
    return a->from < p->output.c ? ta__kv_run(TA_KV_CONV_S8_GEN_M0, a) : TA_OK;
#else
    (void)p;
    return ta__kv_run(TA_KV_CONV_S8_GEN, a);
#endif
}

void ta__conv2d_s8_fast(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                        int8_t *output) {
    ta_kernel_args a = {.p = p, .input = input, .weights = filter, .bias = bias, .output = output};
    (void)ta__conv2d_s8_fast_run(&a);
}
