/* Internal: what the convolution-like kernels share -- shape checks, the
 * window walk (which filter taps land inside the input), NHWC offsets and
 * the int8 requantisation of a window sum.  Each kernel keeps its own
 * arithmetic; these only say where to read and how TFLM finishes an
 * accumulator. */
#ifndef TA_KERNELS_CONV_COMMON_H
#define TA_KERNELS_CONV_COMMON_H
#include <string.h>

#include "tinyarena/kernels.h"

/* Positive dims, matching batch, positive strides/dilations, padding >= 0. */
ta_status ta__conv_check(const ta_dims4 *in, const ta_dims4 *f, const ta_dims4 *out, int32_t sh,
                         int32_t sw, int32_t dh, int32_t dw, int32_t ph, int32_t pw);

/* Offset of element (n, y, x, 0) of a row-major NHWC (or OHWI) tensor. */
static inline int64_t ta__nhwc(const ta_dims4 *d, int32_t n, int32_t y, int32_t x) {
    return (((int64_t)n * d->h + y) * d->w + x) * d->c;
}

/* The same in pointer-sized arithmetic, for the fast kernels: a tensor in
 * memory is smaller than the address space, and on 32-bit cores an int64
 * product is a library call (__aeabi_lmul on armv6-m). */
static inline ptrdiff_t ta__nhwc_p(const ta_dims4 *d, int32_t n, int32_t y, int32_t x) {
    return (((ptrdiff_t)n * d->h + y) * d->w + x) * d->c;
}

/* One axis of an output position's filter window: tap k reads input index
 * i0 + dilation * k (i0 = out * stride - pad, negative in the leading
 * padding), and the taps in [lo, hi) are the ones inside the input; the
 * others fall in the padding and are skipped (conv2d.c says why).  Walking
 * [lo, hi) in order visits the taps TFLM's loops keep, in TFLM's order. */
typedef struct ta__taps {
    int32_t i0, lo, hi;
} ta__taps;

static inline ta__taps ta__conv_taps(int32_t out, int32_t stride, int32_t pad, int32_t dilation, int32_t k,
                                     int32_t size) {
    ta__taps t;
    t.i0 = out * stride - pad;
    /* the whole window inside: no division (this runs once per pixel), and
     * no 64-bit multiply for the common dilation 1 (a call on armv6-m) */
    const int64_t extent = dilation == 1 ? (int64_t)k - 1 : (int64_t)dilation * (k - 1);
    if (t.i0 >= 0 && t.i0 + extent < size) {
        t.lo = 0;
        t.hi = k;
        return t;
    }
    const int64_t lo = t.i0 < 0 ? (-(int64_t)t.i0 + dilation - 1) / dilation : 0;
    const int64_t span = (int64_t)size - t.i0;
    const int64_t hi = span > 0 ? (span + dilation - 1) / dilation : 0;
    t.lo = (int32_t)(lo < k ? lo : k);
    t.hi = (int32_t)(hi < k ? hi : k);
    return t;
}

/* TFLM's int32 accumulator: the exact window sum wrapped to int32, plus the
 * bias (wrapping too), requantised with output channel oc's multiplier. */
static inline int32_t ta__conv_acc32(const ta_requant *q, int64_t acc, const int32_t *bias, int32_t oc) {
    int32_t a = (int32_t)(uint32_t)(uint64_t)acc;
    if (bias) a = (int32_t)((uint32_t)a + (uint32_t)bias[oc]);
    const int32_t ch = q->per_channel ? oc : 0;
    return ta_q_mul(a, q->mult[ch], q->shift[ch]);
}

/* int8 output: ta__conv_acc32, + output zero point, clamp. */
static inline int8_t ta__conv_out_s8(const ta_requant *q, int64_t acc, const int32_t *bias, int32_t oc) {
    int32_t a = ta__conv_acc32(q, acc, bias, oc);
    a += q->output_offset;
    if (a < q->act_min) a = q->act_min;
    if (a > q->act_max) a = q->act_max;
    return (int8_t)a;
}

/* float output: clamp(total + bias). */
static inline float ta__conv_out_f32(float total, const float *bias, int32_t oc, float act_min, float act_max) {
    float v = total + (bias ? bias[oc] : 0.0f);
    v = v < act_min ? act_min : v;
    return v > act_max ? act_max : v;
}

/* int64 bias, read whatever its alignment in the model bytes (flatbuffer
 * buffers are only 4-byte aligned in practice). */
static inline int64_t ta__ld64(const int64_t *p) {
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
#endif
