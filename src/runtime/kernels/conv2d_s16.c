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
#include <string.h>

#include "runtime/kernels/conv_common.h"

/* int64 bias, read whatever its alignment in the model bytes (flatbuffer
 * buffers are only 4-byte aligned in practice). */
static int64_t ld64(const int64_t *p) {
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

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
    const int32_t y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    int64_t acc = 0;
    for (int32_t fy = 0; fy < f.h; fy++) {
        const int32_t iy = y0 + p->dilation_h * fy;
        if (iy < 0 || iy >= in.h) continue;
        for (int32_t fx = 0; fx < f.w; fx++) {
            const int32_t ix = x0 + p->dilation_w * fx;
            if (ix < 0 || ix >= in.w) continue;
            const int16_t *ip = input + (((int64_t)b * in.h + iy) * in.w + ix) * in.c + (int64_t)g * f.c;
            const int8_t *fp = filter + (((int64_t)oc * f.h + fy) * f.w + fx) * f.c;
            for (int32_t ic = 0; ic < f.c; ic++) acc += (int32_t)fp[ic] * (int32_t)ip[ic];
        }
    }
    return acc;
}

static int16_t clamp16(const ta_requant *q, int32_t a) {
    if (a < q->act_min) a = q->act_min;
    if (a > q->act_max) a = q->act_max;
    return (int16_t)a;
}

ta_status ta_kernel_conv2d_s16(const ta_conv_params *p, const int16_t *input, const int8_t *filter,
                               const int64_t *bias, int16_t *output) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    const ta_dims4 out = p->output;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox = 0; ox < out.w; ox++)
                for (int32_t oc = 0; oc < out.c; oc++) {
                    int64_t acc = window_sum(p, input, filter, b, oy, ox, oc);
                    if (bias) acc = (int64_t)((uint64_t)acc + (uint64_t)ld64(bias + oc));
                    const int32_t ch = p->q.per_channel ? oc : 0;
                    const int32_t a = ta_q_mul64(acc, p->q.mult[ch], p->q.shift[ch]);
                    output[(((int64_t)b * out.h + oy) * out.w + ox) * out.c + oc] = clamp16(&p->q, a);
                }
    return TA_OK;
}

ta_status ta_kernel_conv2d_s16_b32(const ta_conv_params *p, const int16_t *input, const int8_t *filter,
                                   const int32_t *bias, int16_t *output) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    const ta_dims4 out = p->output;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox = 0; ox < out.w; ox++)
                for (int32_t oc = 0; oc < out.c; oc++) {
                    /* int32 wrap-around, as TFLM's int32 accumulator */
                    int32_t a = (int32_t)(uint32_t)(uint64_t)window_sum(p, input, filter, b, oy, ox, oc);
                    if (bias) a = (int32_t)((uint32_t)a + (uint32_t)bias[oc]);
                    const int32_t ch = p->q.per_channel ? oc : 0;
                    a = ta_q_mul(a, p->q.mult[ch], p->q.shift[ch]);
                    output[(((int64_t)b * out.h + oy) * out.w + ox) * out.c + oc] = clamp16(&p->q, a);
                }
    return TA_OK;
}
