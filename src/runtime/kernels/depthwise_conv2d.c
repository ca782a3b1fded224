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
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t dm = p->depth_multiplier, in_off = p->q.input_offset;
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (int32_t ox = 0; ox < out.w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (int32_t ic = 0; ic < in.c; ic++) {
                    for (int32_t m = 0; m < dm; m++) {
                        const int32_t oc = ic * dm + m;
                        int64_t acc = 0;
                        for (int32_t fy = 0; fy < f.h; fy++) {
                            const int32_t iy = y0 + p->dilation_h * fy;
                            if (iy < 0 || iy >= in.h) continue;
                            for (int32_t fx = 0; fx < f.w; fx++) {
                                const int32_t ix = x0 + p->dilation_w * fx;
                                if (ix < 0 || ix >= in.w) continue;
                                int32_t iv = input[(((int64_t)b * in.h + iy) * in.w + ix) * in.c + ic];
                                int32_t fv = filter[((int64_t)fy * f.w + fx) * f.c + oc];
                                acc += fv * (iv + in_off);
                            }
                        }
                        int32_t a = (int32_t)(uint32_t)(uint64_t)acc;
                        if (bias) a = (int32_t)((uint32_t)a + (uint32_t)bias[oc]);
                        const int32_t ch = p->q.per_channel ? oc : 0;
                        a = ta_q_mul(a, p->q.mult[ch], p->q.shift[ch]);
                        a += p->q.output_offset;
                        if (a < p->q.act_min) a = p->q.act_min;
                        if (a > p->q.act_max) a = p->q.act_max;
                        output[(((int64_t)b * out.h + oy) * out.w + ox) * out.c + oc] = (int8_t)a;
                    }
                }
            }
        }
    }
    return TA_OK;
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
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (int32_t ox = 0; ox < out.w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (int32_t ic = 0; ic < in.c; ic++) {
                    for (int32_t m = 0; m < dm; m++) {
                        const int32_t oc = ic * dm + m;
                        float total = 0.0f;
                        for (int32_t fy = 0; fy < f.h; fy++) {
                            const int32_t iy = y0 + p->dilation_h * fy;
                            if (iy < 0 || iy >= in.h) continue;
                            for (int32_t fx = 0; fx < f.w; fx++) {
                                const int32_t ix = x0 + p->dilation_w * fx;
                                if (ix < 0 || ix >= in.w) continue;
                                total += input[(((int64_t)b * in.h + iy) * in.w + ix) * in.c + ic] *
                                         filter[((int64_t)fy * f.w + fx) * f.c + oc];
                            }
                        }
                        float v = total + (bias ? bias[oc] : 0.0f);
                        v = v < p->act_min ? p->act_min : v;
                        v = v > p->act_max ? p->act_max : v;
                        output[(((int64_t)b * out.h + oy) * out.w + ox) * out.c + oc] = v;
                    }
                }
            }
        }
    }
    return TA_OK;
}
