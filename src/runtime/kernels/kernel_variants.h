/* Internal: how the ops and kernels reach their variants through
 * ta__kernel_variants (tinyarena/kernel_link.h), and what the host records.
 *
 * A dispatcher decides which variant a call needs from its parameters, as
 * before, then calls it through the table: a firmware whose table lacks it
 * (its budget header said the model never needs it) fails the call with
 * TA_E_UNSUPPORTED instead of linking it.  The decisions live in the
 * predicates below and in conv_pw.h, which the dispatchers and the host's
 * recorder (kernel_variants.c) share, so the recorded mask is what the
 * dispatchers will ask for. */
#ifndef TA_KERNELS_KERNEL_VARIANTS_H
#define TA_KERNELS_KERNEL_VARIANTS_H

#include "tinyarena/kernel_link.h"
#include "tinyarena/kernels.h"

/* The recorder exists in hosted builds only: a bare-metal firmware links
 * none of it (its mask came from the host). */
#if defined(__arm__) && !defined(__linux__)
#define TA__KV_RECORD 0
#else
#define TA__KV_RECORD 1
#endif

static inline ta_status ta__kv_run(unsigned v, ta_kernel_args *a) {
    ta_kernel_variant_fn *fn = ta__kernel_variants[v];
    return fn ? fn(a) : TA_E_UNSUPPORTED;
}

#if TA__KV_RECORD
/* The mask ta_kernel_variants_record set (NULL: not recording). */
uint32_t *ta__kv_recorder(void);
/* The variants an int8 call with these parameters needs on each family
 * (kernel_variants.c). */
uint32_t ta__kv_conv_s8_need(const ta_conv_params *p, const int8_t *filter, const int32_t *bias);
uint32_t ta__kv_dw_s8_need(const ta_dwconv_params *p);
uint32_t ta__kv_fc_s8_need(const ta_fc_params *p);
#define TA__KV_NOTE(bits)                         \
    do {                                          \
        uint32_t *ta__kv_m = ta__kv_recorder();   \
        if (ta__kv_m) *ta__kv_m |= (bits);        \
    } while (0)
#else
#define TA__KV_NOTE(bits) ((void)0)
#endif

/* Whether the 3x3 depthwise kernels (DSP and armv6-m) take the layer:
 * depth multiplier 1 or a multiple of 4, channels a multiple of 4, the pad
 * byte -input_offset an int8. */
static inline bool ta__dw3_ok(const ta_dwconv_params *p) {
    const int32_t dm = p->depth_multiplier;
    return p->filter.h == 3 && p->filter.w == 3 && (dm == 1 || dm % 4 == 0) && p->output.c % 4 == 0 &&
           p->q.input_offset >= -127 && p->q.input_offset <= 128;
}

/* The DSP cores' 1x1 kernel: which path a one-group convolution takes
 * (0 none, 1 the 1x1 kernel as it is, 2 windows gathered into it). */
static inline int ta__pw_dsp_kind(const ta_conv_params *p) {
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    if (in.c != f.c) return 0;
    if (f.h == 1 && f.w == 1 && p->pad_h == 0 && p->pad_w == 0 && f.c % 4 == 0 && f.c <= 256 &&
        (int64_t)(out.h - 1) * p->stride_h < in.h && (int64_t)(out.w - 1) * p->stride_w < in.w)
        return 1;
    const int64_t k = (int64_t)f.h * f.w * f.c, kp = (k + 3) & ~(int64_t)3;
    /* the pad byte -input_offset must be an int8 */
    if (kp > 84 || p->q.input_offset < -127 || p->q.input_offset > 128) return 0;
    return 2;
}

/* The armv6-m 1x1 kernel: one group, 1x1, no padding, every window inside
 * the image, depth a multiple of 4. */
static inline bool ta__pw_m0_ok(const ta_conv_params *p) {
    const ta_dims4 in = p->input, f = p->filter, out = p->output;
    return f.h == 1 && f.w == 1 && in.c == f.c && p->pad_h == 0 && p->pad_w == 0 && f.c % 4 == 0 && f.c > 0 &&
           (int64_t)(out.h - 1) * p->stride_h < in.h && (int64_t)(out.w - 1) * p->stride_w < in.w;
}

/* The armv6-m gathered windows (the same 1x1 kernel): one group, not 1x1
 * as above, 4 or 8 output channels whose kp-byte weight rows (K = the
 * window's bytes, kp = K rounded up to 4) fit TA__GATHER_M0_BYTES of stack,
 * and a pad byte -input_offset that is an int8. */
#define TA__GATHER_M0_BYTES 256
#define TA__GATHER_M0_CH 8
static inline bool ta__gather_m0_ok(const ta_conv_params *p) {
    const int64_t k = (int64_t)p->filter.h * p->filter.w * p->filter.c, kp = (k + 3) & ~(int64_t)3;
    return !ta__pw_m0_ok(p) && p->input.c == p->filter.c && (p->output.c == 4 || p->output.c == TA__GATHER_M0_CH) &&
           kp * p->output.c <= TA__GATHER_M0_BYTES && p->q.input_offset >= -127 && p->q.input_offset <= 128;
}
#endif
