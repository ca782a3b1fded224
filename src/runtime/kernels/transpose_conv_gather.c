/*
 * TRANSPOSE_CONV, int8 and int16 x int8, output-stationary ("gather"): each
 * output element is computed from the input elements that reach it, summed
 * in a register, then finished exactly as transpose_conv.c finishes an
 * accumulator.  No accumulator scratch.
 *
 * Why it is bit-exact with TFLM's scatter kernel: the scatter adds, for an
 * output element (b, oy, ox, oc), the products input(b, iy, ix, ic) x
 * filter(oc, fy, fx, ic) over every (iy, ix, fy, fx, ic) with
 * iy * stride_h - pad_h + fy = oy and ix * stride_w - pad_w + fx = ox --
 * exactly the set this kernel walks.  Integer addition is associative and
 * commutative: int8 sums wrap modulo 2^32 (uint32, as the scatter's), int16
 * sums are int64 and prepare proved they cannot overflow
 * (ta__op_acc64_ok), so the order is free and the sum is the same.  The bias
 * is added to the finished sum, then the same requantisation, zero point and
 * clamp.  (The float kernel keeps the scatter: its sums depend on the order,
 * and it needs no scratch anyway.)
 *
 * Which input rows reach output row oy: iy * stride_h + fy = oy + pad_h with
 * 0 <= fy < filter.h, so iy runs from ceil((oy + pad_h - filter.h + 1) /
 * stride_h) to floor((oy + pad_h) / stride_h), clipped to the input; the
 * same for columns.  Per output pixel the taps are found once and reused
 * for every output channel; the innermost loop is a dot product over input
 * channels, contiguous in both the input (NHWC) and the filter (OHWI).
 */
#include "runtime/kernels/conv_common.h"

static ta_status check(const ta_tconv_params *p, const void *input, const void *filter, const void *output) {
    if (!p || !input || !filter || !output) return TA_E_INVALID_ARG;
    ta_status st = ta__conv_check(&p->input, &p->filter, &p->output, p->stride_h, p->stride_w, 1, 1, p->pad_h, p->pad_w);
    if (st) return st;
    if (p->filter.c != p->input.c || p->filter.n != p->output.c) return TA_E_INVALID_ARG;
    if (!p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    return TA_OK;
}

/* The input indices along one axis that reach output index o: [*lo, *hi). */
static void reach(int32_t o, int32_t stride, int32_t pad, int32_t taps, int32_t size, int32_t *lo, int32_t *hi) {
    const int64_t top = (int64_t)o + pad;          /* >= 0 */
    const int64_t first = top - (taps - 1);        /* may be negative */
    int64_t a = first <= 0 ? 0 : (first + stride - 1) / stride;
    int64_t b = top / stride + 1;
    if (b > size) b = size;
    if (a > b) a = b;
    *lo = (int32_t)a;
    *hi = (int32_t)b;
}

static int32_t clamp_q(const ta_requant *q, int32_t a) {
    if (a < q->act_min) a = q->act_min;
    if (a > q->act_max) a = q->act_max;
    return a;
}

/* The taps of one output pixel: the input rows [ylo, yhi) and columns
 * [xlo, xhi) that reach it, and the pixel's place. */
typedef struct pixel {
    int32_t b, oy, ox, ylo, yhi, xlo, xhi;
} pixel;

static pixel pixel_at(const ta_tconv_params *p, int32_t b, int32_t oy, int32_t ox) {
    pixel px = {.b = b, .oy = oy, .ox = ox};
    reach(oy, p->stride_h, p->pad_h, p->filter.h, p->input.h, &px.ylo, &px.yhi);
    reach(ox, p->stride_w, p->pad_w, p->filter.w, p->input.w, &px.xlo, &px.xhi);
    return px;
}

/* Input pixel (iy, ix) meets filter tap (oy + pad_h - iy * stride_h,
 * ox + pad_w - ix * stride_w) of output channel oc: the first element of
 * that tap's input-channel run (OHWI). */
static int64_t tap_of(const ta_tconv_params *p, const pixel *px, int32_t oc, int32_t iy, int32_t ix) {
    const int32_t fy = px->oy + p->pad_h - iy * p->stride_h, fx = px->ox + p->pad_w - ix * p->stride_w;
    return (((int64_t)oc * p->filter.h + fy) * p->filter.w + fx) * p->filter.c;
}

static uint32_t sum_s8(const ta_tconv_params *p, const pixel *px, int32_t oc, const int8_t *input,
                       const int8_t *filter) {
    const int32_t in_off = p->q.input_offset, n = p->input.c;
    uint32_t acc = 0; /* wrapping int32, as the scatter's accumulators */
    for (int32_t iy = px->ylo; iy < px->yhi; iy++)
        for (int32_t ix = px->xlo; ix < px->xhi; ix++) {
            const int8_t *x = input + ta__nhwc(&p->input, px->b, iy, ix), *w = filter + tap_of(p, px, oc, iy, ix);
            for (int32_t k = 0; k < n; k++) acc += (uint32_t)(((int32_t)x[k] + in_off) * (int32_t)w[k]);
        }
    return acc;
}

static int64_t sum_s16(const ta_tconv_params *p, const pixel *px, int32_t oc, const int16_t *input,
                       const int8_t *filter) {
    const int32_t n = p->input.c;
    int64_t acc = 0;
    for (int32_t iy = px->ylo; iy < px->yhi; iy++)
        for (int32_t ix = px->xlo; ix < px->xhi; ix++) {
            const int16_t *x = input + ta__nhwc(&p->input, px->b, iy, ix);
            const int8_t *w = filter + tap_of(p, px, oc, iy, ix);
            for (int32_t k = 0; k < n; k++) acc += (int32_t)x[k] * (int32_t)w[k];
        }
    return acc;
}

ta_status ta_kernel_transpose_conv_gather_s8(const ta_tconv_params *p, const int8_t *input, const int8_t *filter,
                                             const int32_t *bias, int8_t *output) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    const ta_dims4 o = p->output;
    for (int32_t b = 0; b < o.n; b++)
        for (int32_t oy = 0; oy < o.h; oy++)
            for (int32_t ox = 0; ox < o.w; ox++) {
                const pixel px = pixel_at(p, b, oy, ox);
                int8_t *y = output + ta__nhwc(&o, b, oy, ox);
                for (int32_t oc = 0; oc < o.c; oc++) {
                    const int32_t ch = p->q.per_channel ? oc : 0;
                    int32_t a = (int32_t)(sum_s8(p, &px, oc, input, filter) + (bias ? (uint32_t)bias[oc] : 0u));
                    a = ta_q_mul(a, p->q.mult[ch], p->q.shift[ch]);
                    a = (int32_t)((uint32_t)a + (uint32_t)p->q.output_offset);
                    y[oc] = (int8_t)clamp_q(&p->q, a);
                }
            }
    return TA_OK;
}

ta_status ta_kernel_transpose_conv_gather_s16(const ta_tconv_params *p, const int16_t *input, const int8_t *filter,
                                              const int64_t *bias, int16_t *output) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    const ta_dims4 o = p->output;
    for (int32_t b = 0; b < o.n; b++)
        for (int32_t oy = 0; oy < o.h; oy++)
            for (int32_t ox = 0; ox < o.w; ox++) {
                const pixel px = pixel_at(p, b, oy, ox);
                int16_t *y = output + ta__nhwc(&o, b, oy, ox);
                for (int32_t oc = 0; oc < o.c; oc++) {
                    const int32_t ch = p->q.per_channel ? oc : 0;
                    const int64_t acc = sum_s16(p, &px, oc, input, filter);
                    const int64_t a = bias ? (int64_t)((uint64_t)acc + (uint64_t)ta__ld64(bias + oc)) : acc;
                    y[oc] = (int16_t)clamp_q(&p->q, ta_q_mul64(a, p->q.mult[ch], p->q.shift[ch]));
                }
            }
    return TA_OK;
}
