/*
 * CONV_2D, int8 (per-channel) and float32: TFLM reference_integer_ops::
 * ConvPerChannel and reference_ops::Conv.
 *
 * Steps, per output pixel and output channel:
 *  1. Walk the filter window (with dilation) over the padded input; taps that
 *     land in the padding are skipped (they contribute zero real value, which
 *     is why int8 adds input_offset to the input rather than padding with zp).
 *  2. int8: acc = sum filter * (input + input_offset) in int32 (wrapping, as
 *     TFLM's int32 does), + bias, requantise with the channel's multiplier,
 *     + output zero point, clamp to the activation range.
 *     float: total = sum input * filter in that same order, then
 *     clamp(total + bias).  The summation order matters for bit-exactness:
 *     filter_y, filter_x, then input channel, bias added last.
 *  3. Grouped convolution: input.c / filter.c groups; output channel oc reads
 *     input channels of group oc / (filter.n / groups).
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"

ta_status ta__conv_check(const ta_dims4 *in, const ta_dims4 *f, const ta_dims4 *out, int32_t sh,
                         int32_t sw, int32_t dh, int32_t dw, int32_t ph, int32_t pw) {
    if (in->n <= 0 || in->h <= 0 || in->w <= 0 || in->c <= 0) return TA_E_INVALID_ARG;
    if (f->n <= 0 || f->h <= 0 || f->w <= 0 || f->c <= 0) return TA_E_INVALID_ARG;
    if (out->n != in->n || out->h <= 0 || out->w <= 0 || out->c <= 0) return TA_E_INVALID_ARG;
    if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0 || ph < 0 || pw < 0) return TA_E_INVALID_ARG;
    return TA_OK;
}

static ta_status conv_check(const ta_conv_params *p) {
    if (!p) return TA_E_INVALID_ARG;
    ta_status st = ta__conv_check(&p->input, &p->filter, &p->output, p->stride_h, p->stride_w,
                                  p->dilation_h, p->dilation_w, p->pad_h, p->pad_w);
    if (st) return st;
    if (p->input.c % p->filter.c != 0) return TA_E_INVALID_ARG;
    int32_t groups = p->input.c / p->filter.c;
    if (p->output.c != p->filter.n || p->filter.n % groups != 0) return TA_E_INVALID_ARG;
    return TA_OK;
}

ta_status ta_kernel_conv2d_s8(const ta_conv_params *p, const int8_t *input, const int8_t *filter,
                              const int32_t *bias, int8_t *output) {
    ta_status st = conv_check(p);
    if (st) return st;
    if (!input || !filter || !output || !p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    ta_kernel_args a = {.p = p, .input = input, .weights = filter, .bias = bias, .output = output};
    TA__KV_NOTE(ta__kv_conv_s8_need(p, filter, bias));
    if (ta__kernel_impl() != TA_KERNEL_IMPL_REFERENCE && ta__conv2d_s8_fast_ok(p)) return ta__conv2d_s8_fast_run(&a);
    return ta__kv_run(TA_KV_CONV_S8_REF, &a);
}

void ta__conv2d_s8_ref(const ta_conv_params *p, const int8_t *input, const int8_t *filter,
                       const int32_t *bias, int8_t *output) {
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t groups = in.c / f.c, per_group = f.n / groups;
    const int32_t in_off = p->q.input_offset;
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
            for (int32_t ox = 0; ox < out.w; ox++) {
                const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                int8_t *op = output + ta__nhwc(&out, b, oy, ox);
                for (int32_t oc = 0; oc < out.c; oc++) {
                    const int64_t g_off = (int64_t)(oc / per_group) * f.c;
                    int64_t acc = 0;
                    for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                        const int32_t iy = ty.i0 + p->dilation_h * fy;
                        for (int32_t fx = tx.lo; fx < tx.hi; fx++) {
                            const int8_t *ip = input + ta__nhwc(&in, b, iy, tx.i0 + p->dilation_w * fx) + g_off;
                            const int8_t *fp = filter + ta__nhwc(&f, oc, fy, fx);
                            for (int32_t ic = 0; ic < f.c; ic++)
                                acc += (int32_t)fp[ic] * ((int32_t)ip[ic] + in_off);
                        }
                    }
                    op[oc] = ta__conv_out_s8(&p->q, acc, bias, oc);
                }
            }
        }
    }
}

ta_status ta_kernel_conv2d_f32(const ta_conv_params *p, const float *input, const float *filter,
                               const float *bias, float *output) {
    ta_status st = conv_check(p);
    if (st) return st;
    if (!input || !filter || !output) return TA_E_INVALID_ARG;
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t groups = in.c / f.c, per_group = f.n / groups;
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
            for (int32_t ox = 0; ox < out.w; ox++) {
                const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                float *op = output + ta__nhwc(&out, b, oy, ox);
                for (int32_t oc = 0; oc < out.c; oc++) {
                    const int64_t g_off = (int64_t)(oc / per_group) * f.c;
                    float total = 0.0f;
                    for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                        const int32_t iy = ty.i0 + p->dilation_h * fy;
                        for (int32_t fx = tx.lo; fx < tx.hi; fx++) {
                            const float *ip = input + ta__nhwc(&in, b, iy, tx.i0 + p->dilation_w * fx) + g_off;
                            const float *fp = filter + ta__nhwc(&f, oc, fy, fx);
                            for (int32_t ic = 0; ic < f.c; ic++) total += ip[ic] * fp[ic];
                        }
                    }
                    op[oc] = ta__conv_out_f32(total, bias, oc, p->act_min, p->act_max);
                }
            }
        }
    }
    return TA_OK;
}

/* The variants behind the table (tinyarena/kernel_link.h). */
ta_status ta__kv_conv_s8_ref(ta_kernel_args *a) {
    ta__conv2d_s8_ref(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}

ta_status ta__kv_conv_f32(ta_kernel_args *a) {
    return ta_kernel_conv2d_f32(a->p, a->input, a->weights, a->bias, a->output);
}
