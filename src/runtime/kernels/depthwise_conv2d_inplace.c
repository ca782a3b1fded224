/*
 * DEPTHWISE_CONV_2D in place (the DWINPLACE rewrite, rewrite.h): the output
 * is written over the input's own buffer, channel by channel, through a
 * one-channel scratch (TinyEngine's scheme).
 *
 * Why it is safe.  Depth multiplier 1: output channel c reads input channel
 * c only.  Per batch b and channel c the kernel
 *  1. computes every output pixel of channel c into the scratch
 *     (out.h * out.w elements), reading only input channel c of batch b;
 *  2. copies the scratch to output positions (b * P + p) * C + c, p < P
 *     (P = out.h * out.w <= in.h * in.w, which prepare requires).
 * Step 2 writes only channel-c slots, at pixel indices below (b + 1) * P <=
 * (b + 1) * in.h * in.w: those are channel c of batches <= b, all read by
 * now (earlier batches entirely, batch b in step 1), or slots already
 * holding outputs of earlier channels, which it never reaches (they are
 * other channels).  No later step reads a byte step 2 wrote over, so the
 * result is the out-of-place kernel's.
 *
 * At the end (the _end variants): the output ends where the input ends,
 * at pixel base = N * (in.h * in.w - P), so a later op can reuse the front
 * the input no longer needs (the rewrite puts it there so an overlapping
 * walk after it can start in that front).  Batches then run from the last
 * down: batch b writes pixels base + b * P + p >= b * in.h * in.w, which
 * are channel c of batch b (read in step 1) or of later batches (read
 * entirely), never an output slot of a later batch (those start at
 * base + (b + 1) * P).
 *
 * Why it is bit-exact.  Each output element is the reference kernel's
 * expression (depthwise_conv2d.c): the taps ta__conv_taps keeps, fy outer
 * and fx inner, the sum of filter * (input + input_offset) wrapped to
 * int32 and requantised by ta__conv_out_s8 (float: the running sum from
 * +0.0 in the same tap order, then ta__conv_out_f32).  The fast kernel is
 * byte-identical to that reference, so in place equals both.
 *
 * int8 3x3 layers of one batch whose channels come in fours (MobileNet's)
 * take the fast path instead (depthwise_conv2d_s8_inplace_fast.c): the
 * same bytes in the same place within the same scratch, in channel groups
 * written slot by slot; this loop stays its oracle (TA_KERNEL_IMPL_REFERENCE
 * runs it) and covers every other geometry.
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"

/* The checks the out-of-place kernels make, plus what in place needs. */
static ta_status dwip_check(const ta_dwconv_params *p) {
    if (!p) return TA_E_INVALID_ARG;
    ta_status st = ta__conv_check(&p->input, &p->filter, &p->output, p->stride_h, p->stride_w, p->dilation_h,
                                  p->dilation_w, p->pad_h, p->pad_w);
    if (st) return st;
    if (p->depth_multiplier != 1 || p->filter.n != 1 || p->filter.c != p->input.c || p->output.c != p->input.c)
        return TA_E_INVALID_ARG;
    if ((int64_t)p->output.h * p->output.w > (int64_t)p->input.h * p->input.w) return TA_E_INVALID_ARG;
    return TA_OK;
}

size_t ta_kernel_depthwise_conv2d_inplace_scratch(const ta_dwconv_params *p, size_t elem_bytes) {
    if (dwip_check(p)) return 0;
    return (size_t)p->output.h * (size_t)p->output.w * elem_bytes;
}

static ta_status dwip_s8(const ta_dwconv_params *p, int8_t *data, bool at_end, const int8_t *filter,
                         const int32_t *bias, int8_t *scratch, size_t scratch_bytes) {
    ta_status st = dwip_check(p);
    if (st) return st;
    if (!data || !filter || !scratch || !p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const ptrdiff_t npix = (ptrdiff_t)out.h * out.w, C = in.c;
    if (scratch_bytes < (size_t)npix) return TA_E_INVALID_ARG;
    /* MobileNet's 3x3 layers: channel groups, the same bytes in the same
     * place (depthwise_conv2d_s8_inplace_fast.c); this loop is its oracle */
    if (ta__kernel_impl() != TA_KERNEL_IMPL_REFERENCE &&
        ta__dwip_s8_fast(p, data, at_end, filter, bias, scratch, scratch_bytes))
        return TA_OK;
    const int32_t in_off = p->q.input_offset;
    const ptrdiff_t base = at_end ? (ptrdiff_t)out.n * ((ptrdiff_t)in.h * in.w - npix) : 0;
    for (int32_t bi = 0; bi < out.n; bi++) {
        const int32_t b = at_end ? out.n - 1 - bi : bi;
        for (int32_t c = 0; c < in.c; c++) {
            const int8_t *src = data + ta__nhwc_p(&in, b, 0, 0) + c;
            int8_t *s = scratch;
            for (int32_t oy = 0; oy < out.h; oy++) {
                const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
                for (int32_t ox = 0; ox < out.w; ox++) {
                    const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                    int64_t acc = 0;
                    for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                        const int32_t iy = ty.i0 + p->dilation_h * fy;
                        const int8_t *row = src + ((ptrdiff_t)iy * in.w) * C;
                        const int8_t *frow = filter + ((ptrdiff_t)fy * f.w) * C + c;
                        for (int32_t fx = tx.lo; fx < tx.hi; fx++) {
                            const int32_t iv = row[(ptrdiff_t)(tx.i0 + p->dilation_w * fx) * C];
                            acc += (int32_t)frow[(ptrdiff_t)fx * C] * (iv + in_off);
                        }
                    }
                    *s++ = ta__conv_out_s8(&p->q, acc, bias, c);
                }
            }
            /* step 2: channel c of this batch's output, over consumed slots */
            int8_t *dst = data + (base + (ptrdiff_t)b * npix) * C + c;
            for (ptrdiff_t i = 0; i < npix; i++) dst[i * C] = scratch[i];
        }
    }
    return TA_OK;
}

static ta_status dwip_f32(const ta_dwconv_params *p, float *data, bool at_end, const float *filter,
                          const float *bias, float *scratch, size_t scratch_bytes) {
    ta_status st = dwip_check(p);
    if (st) return st;
    if (!data || !filter || !scratch) return TA_E_INVALID_ARG;
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const ptrdiff_t npix = (ptrdiff_t)out.h * out.w, C = in.c;
    if (scratch_bytes / sizeof(float) < (size_t)npix) return TA_E_INVALID_ARG;
    const ptrdiff_t base = at_end ? (ptrdiff_t)out.n * ((ptrdiff_t)in.h * in.w - npix) : 0;
    for (int32_t bi = 0; bi < out.n; bi++) {
        const int32_t b = at_end ? out.n - 1 - bi : bi;
        for (int32_t c = 0; c < in.c; c++) {
            const float *src = data + ta__nhwc_p(&in, b, 0, 0) + c;
            float *s = scratch;
            for (int32_t oy = 0; oy < out.h; oy++) {
                const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
                for (int32_t ox = 0; ox < out.w; ox++) {
                    const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                    float total = 0.0f;
                    for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                        const int32_t iy = ty.i0 + p->dilation_h * fy;
                        const float *row = src + ((ptrdiff_t)iy * in.w) * C;
                        const float *frow = filter + ((ptrdiff_t)fy * f.w) * C + c;
                        for (int32_t fx = tx.lo; fx < tx.hi; fx++)
                            total += row[(ptrdiff_t)(tx.i0 + p->dilation_w * fx) * C] * frow[(ptrdiff_t)fx * C];
                    }
                    *s++ = ta__conv_out_f32(total, bias, c, p->act_min, p->act_max);
                }
            }
            float *dst = data + (base + (ptrdiff_t)b * npix) * C + c;
            for (ptrdiff_t i = 0; i < npix; i++) dst[i * C] = scratch[i];
        }
    }
    return TA_OK;
}

ta_status ta_kernel_depthwise_conv2d_s8_inplace(const ta_dwconv_params *p, int8_t *data, const int8_t *filter,
                                                const int32_t *bias, int8_t *scratch, size_t scratch_bytes) {
    return dwip_s8(p, data, false, filter, bias, scratch, scratch_bytes);
}

ta_status ta_kernel_depthwise_conv2d_s8_inplace_end(const ta_dwconv_params *p, int8_t *data, const int8_t *filter,
                                                    const int32_t *bias, int8_t *scratch, size_t scratch_bytes) {
    return dwip_s8(p, data, true, filter, bias, scratch, scratch_bytes);
}

ta_status ta_kernel_depthwise_conv2d_f32_inplace(const ta_dwconv_params *p, float *data, const float *filter,
                                                 const float *bias, float *scratch, size_t scratch_bytes) {
    return dwip_f32(p, data, false, filter, bias, scratch, scratch_bytes);
}

ta_status ta_kernel_depthwise_conv2d_f32_inplace_end(const ta_dwconv_params *p, float *data, const float *filter,
                                                     const float *bias, float *scratch, size_t scratch_bytes) {
    return dwip_f32(p, data, true, filter, bias, scratch, scratch_bytes);
}

/* The variants behind the table (tinyarena/kernel_link.h): over the data
 * at a->output, from its start (a->from 0) or ending where the input ends
 * (a->from 1, the _end kernels). */
ta_status ta__kv_dw_s8_inplace(ta_kernel_args *a) {
    return dwip_s8(a->p, a->output, a->from != 0, a->weights, a->bias, a->scratch, a->scratch_bytes);
}

ta_status ta__kv_dw_f32_inplace(ta_kernel_args *a) {
    return dwip_f32(a->p, a->output, a->from != 0, a->weights, a->bias, a->scratch, a->scratch_bytes);
}
