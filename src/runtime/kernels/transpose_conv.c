/*
 * TRANSPOSE_CONV, int8, int16 (x int8 weights) and float32: TFLM
 * reference_integer_ops::TransposeConv and reference_ops::TransposeConv.
 *
 * Steps (TFLM's "scatter" order):
 *  1. Zero one accumulator per output element (the scratch: int32 for int8,
 *     int64 for int16; the output itself for float).
 *  2. For every input element (batch, in_y, in_x, in_c) and every filter tap
 *     (filter_y, filter_x, out_c): the output position is
 *     (in_y * stride_h - pad_h + filter_y, in_x * stride_w - pad_w +
 *     filter_x); inside the output, accumulate input * filter (int8: with
 *     the input offset).
 *  3. Quantised: + bias, requantise per channel (ta_q_mul / ta_q_mul64), +
 *     output zero point (int8), clamp.  Float: + bias after the scatter.
 * Integer sums are exact (or wrap like TFLM's int32), so only the float path
 * depends on the order, which is TFLM's.
 */
#include <string.h>

#include "runtime/kernels/conv_common.h"

static ta_status check(const ta_tconv_params *p, const void *input, const void *filter, const void *output) {
    if (!p || !input || !filter || !output) return TA_E_INVALID_ARG;
    ta_status st = ta__conv_check(&p->input, &p->filter, &p->output, p->stride_h, p->stride_w, 1, 1, p->pad_h, p->pad_w);
    if (st) return st;
    if (p->filter.c != p->input.c || p->filter.n != p->output.c) return TA_E_INVALID_ARG;
    return TA_OK;
}

static int64_t out_elems(const ta_tconv_params *p) {
    return (int64_t)p->output.n * p->output.h * p->output.w * p->output.c;
}

size_t ta_kernel_transpose_conv_scratch_bytes(const ta_tconv_params *p, ta_dtype type) {
    if (!p) return 0;
    const size_t n = (size_t)out_elems(p);
    if (type == TA_DTYPE_INT8) return n * sizeof(int32_t);
    if (type == TA_DTYPE_INT16) return n * sizeof(int64_t);
    return 0;
}

/* Calls visit(out_index, in_index, filter_index) for every tap in TFLM's order. */
#define SCATTER(p, BODY)                                                                                     \
    do {                                                                                                     \
        const ta_dims4 in_ = (p)->input, f_ = (p)->filter, o_ = (p)->output;                                 \
        for (int32_t b_ = 0; b_ < in_.n; b_++)                                                               \
            for (int32_t iy_ = 0; iy_ < in_.h; iy_++)                                                        \
                for (int32_t ix_ = 0; ix_ < in_.w; ix_++)                                                    \
                    for (int32_t ic_ = 0; ic_ < in_.c; ic_++) {                                              \
                        const int64_t ii = (((int64_t)b_ * in_.h + iy_) * in_.w + ix_) * in_.c + ic_;         \
                        const int32_t oy0_ = iy_ * (p)->stride_h - (p)->pad_h;                               \
                        const int32_t ox0_ = ix_ * (p)->stride_w - (p)->pad_w;                               \
                        for (int32_t fy_ = 0; fy_ < f_.h; fy_++)                                             \
                            for (int32_t fx_ = 0; fx_ < f_.w; fx_++)                                         \
                                for (int32_t oc_ = 0; oc_ < o_.c; oc_++) {                                   \
                                    const int32_t oy_ = oy0_ + fy_, ox_ = ox0_ + fx_;                        \
                                    if (oy_ < 0 || oy_ >= o_.h || ox_ < 0 || ox_ >= o_.w) continue;          \
                                    const int64_t oi = (((int64_t)b_ * o_.h + oy_) * o_.w + ox_) * o_.c + oc_; \
                                    const int64_t fi = (((int64_t)oc_ * f_.h + fy_) * f_.w + fx_) * f_.c + ic_; \
                                    BODY;                                                                    \
                                }                                                                            \
                    }                                                                                        \
    } while (0)

static int32_t clamp_q(const ta_requant *q, int32_t a) {
    if (a < q->act_min) a = q->act_min;
    if (a > q->act_max) a = q->act_max;
    return a;
}

ta_status ta_kernel_transpose_conv_s8(const ta_tconv_params *p, const int8_t *input, const int8_t *filter,
                                      const int32_t *bias, int8_t *output, void *scratch, size_t scratch_bytes) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    if (!p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    const int64_t n = out_elems(p);
    if (!scratch || scratch_bytes < (size_t)n * sizeof(int32_t)) return TA_E_NO_MEMORY;
    uint32_t *acc = scratch; /* wrapping int32 */
    memset(acc, 0, (size_t)n * sizeof *acc);
    const int32_t in_off = p->q.input_offset;
    SCATTER(p, acc[oi] += (uint32_t)(((int32_t)input[ii] + in_off) * (int32_t)filter[fi]));
    const int32_t oc_n = p->output.c;
    for (int64_t i = 0; i < n; i++) {
        const int32_t oc = (int32_t)(i % oc_n), ch = p->q.per_channel ? oc : 0;
        int32_t a = (int32_t)(acc[i] + (bias ? (uint32_t)bias[oc] : 0u));
        a = ta_q_mul(a, p->q.mult[ch], p->q.shift[ch]);
        a = (int32_t)((uint32_t)a + (uint32_t)p->q.output_offset);
        output[i] = (int8_t)clamp_q(&p->q, a);
    }
    return TA_OK;
}

ta_status ta_kernel_transpose_conv_s16(const ta_tconv_params *p, const int16_t *input, const int8_t *filter,
                                       const int64_t *bias, int16_t *output, void *scratch, size_t scratch_bytes) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    if (!p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    const int64_t n = out_elems(p);
    if (!scratch || scratch_bytes < (size_t)n * sizeof(int64_t) || ((uintptr_t)scratch & 7u)) return TA_E_NO_MEMORY;
    int64_t *acc = scratch;
    memset(acc, 0, (size_t)n * sizeof *acc);
    SCATTER(p, acc[oi] += (int32_t)input[ii] * (int32_t)filter[fi]);
    const int32_t oc_n = p->output.c;
    for (int64_t i = 0; i < n; i++) {
        const int32_t oc = (int32_t)(i % oc_n), ch = p->q.per_channel ? oc : 0;
        const int64_t a = bias ? (int64_t)((uint64_t)acc[i] + (uint64_t)ta__ld64(bias + oc)) : acc[i];
        output[i] = (int16_t)clamp_q(&p->q, ta_q_mul64(a, p->q.mult[ch], p->q.shift[ch]));
    }
    return TA_OK;
}

ta_status ta_kernel_transpose_conv_f32(const ta_tconv_params *p, const float *input, const float *filter,
                                       const float *bias, float *output) {
    ta_status st = check(p, input, filter, output);
    if (st) return st;
    const int64_t n = out_elems(p);
    for (int64_t i = 0; i < n; i++) output[i] = 0.0f;
    SCATTER(p, output[oi] += input[ii] * filter[fi]);
    if (bias)
        for (int64_t i = 0; i < n; i++) output[i] += bias[i % p->output.c];
    return TA_OK;
}
