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
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    const int32_t groups = in.c / f.c, per_group = f.n / groups;
    const int32_t in_off = p->q.input_offset;
    for (int32_t b = 0; b < out.n; b++) {
        for (int32_t oy = 0; oy < out.h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (int32_t ox = 0; ox < out.w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (int32_t oc = 0; oc < out.c; oc++) {
                    const int32_t g = oc / per_group;
                    int64_t acc = 0;
                    for (int32_t fy = 0; fy < f.h; fy++) {
                        const int32_t iy = y0 + p->dilation_h * fy;
                        if (iy < 0 || iy >= in.h) continue;
                        for (int32_t fx = 0; fx < f.w; fx++) {
                            const int32_t ix = x0 + p->dilation_w * fx;
                            if (ix < 0 || ix >= in.w) continue;
                            const int8_t *ip = input + (((int64_t)b * in.h + iy) * in.w + ix) * in.c + (int64_t)g * f.c;
                            const int8_t *fp = filter + (((int64_t)oc * f.h + fy) * f.w + fx) * f.c;
                            for (int32_t ic = 0; ic < f.c; ic++)
                                acc += (int32_t)fp[ic] * ((int32_t)ip[ic] + in_off);
                        }
                    }
                    /* int32 wrap-around, as TFLM's accumulator */
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
    return TA_OK;
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
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (int32_t ox = 0; ox < out.w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (int32_t oc = 0; oc < out.c; oc++) {
                    const int32_t g = oc / per_group;
                    float total = 0.0f;
                    for (int32_t fy = 0; fy < f.h; fy++) {
                        const int32_t iy = y0 + p->dilation_h * fy;
                        if (iy < 0 || iy >= in.h) continue;
                        for (int32_t fx = 0; fx < f.w; fx++) {
                            const int32_t ix = x0 + p->dilation_w * fx;
                            if (ix < 0 || ix >= in.w) continue;
                            const float *ip = input + (((int64_t)b * in.h + iy) * in.w + ix) * in.c + (int64_t)g * f.c;
                            const float *fp = filter + (((int64_t)oc * f.h + fy) * f.w + fx) * f.c;
                            for (int32_t ic = 0; ic < f.c; ic++) total += ip[ic] * fp[ic];
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
    return TA_OK;
}
