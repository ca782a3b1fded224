/*
 * CONV_2D with int16 activations and int8 weights (the "16x8" scheme): TFLM
 * reference_integer_ops::ConvPerChannel for int16.  Kept apart from
 * conv2d.c (int8, float) so the two can change independently; the op, the
 * params struct and the window walk are the same.
 *
 * Steps, per output pixel and output channel:
 *  1. Walk the filter window (with dilation) over the input; taps in the
 *     padding are skipped.  No zero points: TFLM's 16x8 scheme is symmetric.
 *  2. acc = sum filter * input.  With int64 bias the accumulator is int64
 *     and the requantisation TFLM's int64 MultiplyByQuantizedMultiplier
 *     (ta_q_mul64: multiplier rounded to 16 bits, one rounding shift); with
 *     int32 bias (or none, the _b32 variant) it is a wrapping int32 and
 *     ta_q_mul.
 *  3. + bias, requantise with the channel's multiplier, clamp to the
 *     activation range (int16 domain).
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/kernel_variants.h"

static ta_status check(const ta_conv_params *p, const void *input, const void *filter, const void *output) {
    if (!p || !input || !filter || !output || !p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    ta_status st = ta__conv_check(&p->input, &p->filter, &p->output, p->stride_h, p->stride_w, p->dilation_h,
                                  p->dilation_w, p->pad_h, p->pad_w);
    if (st) return st;
    if (p->input.c % p->filter.c != 0) return TA_E_INVALID_ARG;
    const int32_t groups = p->input.c / p->filter.c;
    if (p->output.c != p->filter.n || p->filter.n % groups != 0) return TA_E_INVALID_ARG;
    if (p->q.input_offset != 0 || p->q.output_offset != 0) return TA_E_INVALID_ARG;
    return TA_OK;
}

/* One output value's raw sum over the window (exact in int64). */
static int64_t window_sum(const ta_conv_params *p, const int16_t *input, const int8_t *filter, int32_t b, int32_t oy,
                          int32_t ox, int32_t oc) {
    const ta_dims4 in = p->input, f = p->filter;
    const int32_t groups = in.c / f.c, per_group = f.n / groups, g = oc / per_group;
    const ta__taps ty = ta__conv_taps(oy, p->stride_h, p->pad_h, p->dilation_h, f.h, in.h);
    const ta__taps tx = ta__conv_taps(ox, p->stride_w, p->pad_w, p->dilation_w, f.w, in.w);
    int64_t acc = 0;
    for (int32_t fy = ty.lo; fy < ty.hi; fy++) {
        const int32_t iy = ty.i0 + p->dilation_h * fy;
        for (int32_t fx = tx.lo; fx < tx.hi; fx++) {
            const int16_t *ip = input + ta__nhwc(&in, b, iy, tx.i0 + p->dilation_w * fx) + (int64_t)g * f.c;
            const int8_t *fp = filter + ta__nhwc(&f, oc, fy, fx);
            for (int32_t ic = 0; ic < f.c; ic++) acc += (int32_t)fp[ic] * (int32_t)ip[ic];
        }
    }
    return acc;
}

/* Both variants: bias64 selects the int64 accumulator (bias int64 or none)
 * over TFLM's wrapping int32 one (bias int32 or none). */
static ta_status conv_s16(const ta_conv_params *p, const int16_t *input, const int8_t *filter, const void *bias,
                          int bias64, int16_t *output) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    const ta_dims4 out = p->output;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox = 0; ox < out.w; ox++)
                for (int32_t oc = 0; oc < out.c; oc++) {
                    const int64_t sum = window_sum(p, input, filter, b, oy, ox, oc);
                    int32_t a;
                    if (bias64) {
                        int64_t acc = sum;
                        if (bias) acc = (int64_t)((uint64_t)acc + (uint64_t)ta__ld64((const int64_t *)bias + oc));
                        const int32_t ch = p->q.per_channel ? oc : 0;
                        a = ta_q_mul64(acc, p->q.mult[ch], p->q.shift[ch]);
                    } else {
                        a = ta__conv_acc32(&p->q, sum, bias, oc);
                    }
                    if (a < p->q.act_min) a = p->q.act_min;
                    if (a > p->q.act_max) a = p->q.act_max;
                    output[ta__nhwc(&out, b, oy, ox) + oc] = (int16_t)a;
                }
    return TA_OK;
}

ta_status ta_kernel_conv2d_s16(const ta_conv_params *p, const int16_t *input, const int8_t *filter,
                               const int64_t *bias, int16_t *output) {
    return conv_s16(p, input, filter, bias, 1, output);
}

ta_status ta_kernel_conv2d_s16_b32(const ta_conv_params *p, const int16_t *input, const int8_t *filter,
                                   const int32_t *bias, int16_t *output) {
    return conv_s16(p, input, filter, bias, 0, output);
}

/* The variants behind the table (tinyarena/kernel_link.h). */
ta_status ta__kv_conv_s16(ta_kernel_args *a) {
    return ta_kernel_conv2d_s16(a->p, a->input, a->weights, a->bias, a->output);
}

ta_status ta__kv_conv_s16_b32(ta_kernel_args *a) {
    return ta_kernel_conv2d_s16_b32(a->p, a->input, a->weights, a->bias, a->output);
}
