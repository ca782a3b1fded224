/*
 * DEPTHWISE_CONV_2D, int8 (per-channel) and float32: TFLM
 * reference_integer_ops::DepthwiseConvPerChannel and reference_ops::
 * DepthwiseConv.
 *
 * Steps, per output pixel, input channel ic and multiplier m:
 *  1. Output channel oc = ic * depth_multiplier + m; the filter is 1HWO so
 *     tap (fy, fx) of oc is filter[(fy * W + fx) * out_c + oc].
 *  2. Sum over the window taps that fall inside the image (fy outer, fx
 *     inner), int8 as filter * (input + input_offset) in wrapping int32.
 *  3. + bias, then int8: requantise with oc's multiplier, + zero point,
 *     clamp; float: clamp(total + bias).
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"

static ta_status dw_check(const ta_dwconv_params *p) {
    if (!p) return TA_E_INVALID_ARG;
    ta_status st = ta__conv_check(&p->input, &p->filter, &p->output, p->stride_h, p->stride_w,
                                  p->dilation_h, p->dilation_w, p->pad_h, p->pad_w);
    if (st) return st;
    if (p->depth_multiplier <= 0 || p->filter.n != 1) return TA_E_INVALID_ARG;
    if ((int64_t)p->input.c * p->depth_multiplier != p->filter.c) return TA_E_INVALID_ARG;
    if (p->output.c != p->filter.c) return TA_E_INVALID_ARG;
    return TA_OK;
}

ta_status ta_kernel_depthwise_conv2d_s8(const ta_dwconv_params *p, const int8_t *input,
                                        const int8_t *filter, const int32_t *bias, int8_t *output) {
    ta_status st = dw_check(p);
    if (st) return st;
    if (!input || !filter || !output || !p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    ta_kernel_args a = {.p = p, .input = input, .weights = filter, .bias = bias, .output = output};
    TA__KV_NOTE(ta__kv_dw_s8_need(p));
    if (ta__kernel_impl() != TA_KERNEL_IMPL_REFERENCE && ta__depthwise_conv2d_s8_fast_ok(p))
        return ta__depthwise_conv2d_s8_fast_run(&a);
    return ta__kv_run(TA_KV_DW_S8_REF, &a);
}

void ta__depthwise_conv2d_s8_ref(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                 const int32_t *bias, int8_t *output) {
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t dm = p->depth_multiplier, in_off = p->q.input_offset;
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
            for (int32_t ox = 0; ox < out.w; ox++) {
                const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                int8_t *op = output + ta__nhwc(&out, b, oy, ox);
                for (int32_t ic = 0; ic < in.c; ic++) {
                    for (int32_t m = 0; m < dm; m++) {
                        const int32_t oc = ic * dm + m;
                        int64_t acc = 0;
                        for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                            const int32_t iy = ty.i0 + p->dilation_h * fy;
                            for (int32_t fx = tx.lo; fx < tx.hi; fx++) {
                                int32_t iv = input[ta__nhwc(&in, b, iy, tx.i0 + p->dilation_w * fx) + ic];
                                int32_t fv = filter[ta__nhwc(&f, 0, fy, fx) + oc];
                                acc += fv * (iv + in_off);
                            }
                        }
                        op[oc] = ta__conv_out_s8(&p->q, acc, bias, oc);
                    }
                }
            }
        }
    }
}

ta_status ta_kernel_depthwise_conv2d_f32(const ta_dwconv_params *p, const float *input,
                                         const float *filter, const float *bias, float *output) {
    ta_status st = dw_check(p);
    if (st) return st;
    if (!input || !filter || !output) return TA_E_INVALID_ARG;
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t dm = p->depth_multiplier;
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
            for (int32_t ox = 0; ox < out.w; ox++) {
                const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
                float *op = output + ta__nhwc(&out, b, oy, ox);
                for (int32_t ic = 0; ic < in.c; ic++) {
                    for (int32_t m = 0; m < dm; m++) {
                        const int32_t oc = ic * dm + m;
                        float total = 0.0f;
                        for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
                            const int32_t iy = ty.i0 + p->dilation_h * fy;
                            for (int32_t fx = tx.lo; fx < tx.hi; fx++)
                                total += input[ta__nhwc(&in, b, iy, tx.i0 + p->dilation_w * fx) + ic] *
                                         filter[ta__nhwc(&f, 0, fy, fx) + oc];
                        }
                        op[oc] = ta__conv_out_f32(total, bias, oc, p->act_min, p->act_max);
                    }
                }
            }
        }
    }
    return TA_OK;
}

/* The variants behind the table (tinyarena/kernel_link.h). */
ta_status ta__kv_dw_s8_ref(ta_kernel_args *a) {
    ta__depthwise_conv2d_s8_ref(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}

ta_status ta__kv_dw_f32(ta_kernel_args *a) {
    return ta_kernel_depthwise_conv2d_f32(a->p, a->input, a->weights, a->bias, a->output);
}
