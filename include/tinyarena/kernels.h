/*
 * tinyarena/kernels.h -- compute kernels, one op per file, bit-exact with
 * TensorFlow Lite Micro's reference kernels.
 *
 * Every kernel is a pure function: explicit parameter struct, caller-owned
 * input/output/scratch memory, no graph, no file format, no allocation.
 * Quantisation constants (multipliers, shifts, activation clamps) are derived
 * ONCE, at prepare time, with the helpers below, and stored in the params
 * struct; the kernels only do integer arithmetic with them.
 *
 * Conventions
 *  - Shapes are int32 dims, NHWC for images (ta_dims4 {n, h, w, c}).
 *    Conv filters are OHWI ({n = out channels, h, w, c = in channels per
 *    group}); depthwise filters are 1HWO ({n = 1, h, w, c = out channels}).
 *  - Quantised tensors use real = scale * (q - zero_point).  Params carry
 *    `input_offset = -input_zero_point` and `output_offset = output_zero_point`
 *    exactly as TFLM's op params do.
 *  - A fixed-point multiplier is (multiplier, shift): real ~= multiplier *
 *    2^(shift - 31), multiplier in [2^30, 2^31) (or 0), shift > 0 meaning a
 *    left shift.  This is TFLM's QuantizeMultiplier convention.
 *  - Rounding is TFLM's default "double rounding" (gemmlowp
 *    SaturatingRoundingDoublingHighMul followed by RoundingDivideByPOT);
 *    TFLITE_SINGLE_ROUNDING is not emulated.
 *  - Return values: TA_OK; TA_E_INVALID_ARG for NULL pointers or shapes that
 *    do not fit together (the check runs before anything is written);
 *    TA_E_UNSUPPORTED for valid combinations this build does not implement;
 *    TA_E_NO_MEMORY when the scratch given is smaller than the matching
 *    `_scratch_bytes` query.  The output may alias the input only where the
 *    kernel says so: reshape, and the kinds rewrite.h writes in place --
 *    ADD/SUB/MUL when both inputs have the output's shape (no broadcasting),
 *    LOGISTIC, TANH, and requantisation between types of one size.  Those
 *    read element i (of every input) before writing element i, so output ==
 *    input gives the same bytes (tests/test_rewrite.c runs each).
 *
 * Example (int8 conv, per-channel):
 *     ta_conv_params p = {.input = {1, 8, 8, 3}, .filter = {16, 3, 3, 3},
 *                         .output = {1, 8, 8, 16}, .stride_h = 1, .stride_w = 1,
 *                         .dilation_h = 1, .dilation_w = 1};
 *     p.pad_h = ta_kernel_padding(1, 1, 8, 3, 8, NULL);   // SAME -> 1
 *     p.pad_w = p.pad_h;
 *     ta_quant_conv_multipliers(in_scale, w_scales, 16, out_scale, 16, mult, shift);
 *     p.q.input_offset = -in_zp; p.q.output_offset = out_zp;
 *     p.q.mult = mult; p.q.shift = shift; p.q.per_channel = true;
 *     ta_quant_activation_range(TA_ACT_RELU6, out_scale, out_zp, TA_DTYPE_INT8,
 *                               &p.q.act_min, &p.q.act_max);
 *     ta_status st = ta_kernel_conv2d_s8(&p, in, w, bias, out);
 */
#ifndef TINYARENA_KERNELS_H
#define TINYARENA_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"
#include "tinyarena/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Fixed-point helpers (src/runtime/kernels/quant.c)                         */
/* ------------------------------------------------------------------------ */

/* TFLM QuantizeMultiplier: splits `real` (>= 0) into a Q0.31 significand and
 * a power-of-two exponent with frexp + round-half-away-from-zero.  A
 * significand that rounds to 2^31 becomes 2^30 with shift + 1; a shift below
 * -31 flushes to (0, 0); real == 0 gives (0, 0).  Never fails for finite
 * real >= 0. */
void ta_quant_multiplier(double real, int32_t *multiplier, int32_t *shift);

/* gemmlowp SaturatingRoundingDoublingHighMul: a*b / 2^31 rounded to nearest
 * with ties toward +infinity (gemmlowp's nudge then truncating division),
 * saturating the single overflow case (INT32_MIN * INT32_MIN). */
int32_t ta_q_high_mul(int32_t a, int32_t b);

/* gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away
 * from zero.  exponent in [0, 31]. */
int32_t ta_q_div_pot(int32_t x, int32_t exponent);

/* TFLM MultiplyByQuantizedMultiplier (double rounding): left shift (if
 * shift > 0, wrapping like TFLM's int32 arithmetic does), high mul, then
 * rounding right shift (if shift < 0).  shift in [-31, 30]. */
int32_t ta_q_mul(int32_t x, int32_t multiplier, int32_t shift);

/* TFLM's int64-input MultiplyByQuantizedMultiplier (used by int16
 * activations): multiplier reduced to 16 bits, one rounding shift.
 * x in [-2^47, 2^47), shift in [-31, 7]. */
int32_t ta_q_mul64(int64_t x, int32_t multiplier, int32_t shift);

/* TFLM CalculateActivationRangeQuantized: clamp bounds in the output's
 * integer domain for a fused activation.  `type` is INT8, UINT8 or INT16
 * (else TA_E_UNSUPPORTED); NONE gives the type's full range; RELU, RELU6 and
 * RELU_N1_TO_1 quantise 0, 6, -1, 1 with zp + (int32)roundf(x / scale).
 * Other activations give TA_E_UNSUPPORTED. */
ta_status ta_quant_activation_range(ta_activation act, float out_scale, int32_t out_zero_point,
                                    ta_dtype type, int32_t *act_min, int32_t *act_max);

/* TFLM CalculateActivationRange for float kernels (NONE: +-FLT_MAX).
 * TA_E_UNSUPPORTED for TANH / SIGN_BIT / SIGMOID. */
ta_status ta_float_activation_range(ta_activation act, float *act_min, float *act_max);

/* Per-channel conv / depthwise / FC multipliers as TFLM derives them:
 * for each of `channels`, real = (double)in_scale * (double)w_scale[c] /
 * (double)out_scale (w_scale[0] for all channels when n_scales == 1), then
 * ta_quant_multiplier.  TA_E_INVALID_ARG when n_scales is neither 1 nor
 * `channels`; TA_E_UNSUPPORTED when a shift does not fit int8 (a ratio
 * beyond 2^127). */
ta_status ta_quant_conv_multipliers(float in_scale, const float *w_scales, uint32_t n_scales,
                                    float out_scale, uint32_t channels, int32_t *multipliers,
                                    int8_t *shifts);

/* TFLM GetQuantizedConvolutionMultipler (per-tensor FULLY_CONNECTED): note
 * the FLOAT product in_scale * w_scale, widened to double afterwards. */
double ta_quant_fc_real_multiplier(float in_scale, float w_scale, float out_scale);

/* TFLM ComputeOutSize: output extent for a padding mode (0 when stride 0). */
int32_t ta_kernel_out_size(ta_padding padding, int32_t in, int32_t filter, int32_t stride,
                           int32_t dilation);

/* TFLM ComputePaddingWithOffset: the leading (top/left) padding for SAME
 * given the output extent `out` (pass ta_kernel_out_size's result, as TFLM
 * does); *offset (optional) gets the odd extra trailing pixel.  Returns 0
 * when no padding is needed (always so for VALID-sized outputs). */
int32_t ta_kernel_padding(int32_t stride, int32_t dilation, int32_t in, int32_t filter,
                          int32_t out, int32_t *offset);

/* ------------------------------------------------------------------------ */
/* Shared parameter pieces                                                   */
/* ------------------------------------------------------------------------ */

typedef struct ta_dims4 {
    int32_t n, h, w, c;
} ta_dims4;

/* Requantisation of an int32 accumulator to the output type. */
typedef struct ta_requant {
    int32_t input_offset;   /* -input zero point */
    int32_t weights_offset; /* -weights zero point (FC only; TFLM requires 0 for int8) */
    int32_t output_offset;  /* output zero point */
    const int32_t *mult;    /* per_channel ? one per output channel : mult[0] */
    const int8_t *shift;    /* same count; int8 keeps per-channel tables small */
    bool per_channel;
    int32_t act_min, act_max; /* clamp in the output's integer domain */
} ta_requant;

/* ------------------------------------------------------------------------ */
/* Kernel implementations (kernel_impl.c)                                     */
/* ------------------------------------------------------------------------ */

/* int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED have two
 * implementations with byte-identical outputs:
 *  - TA_KERNEL_IMPL_FAST (the default): int32 sums with the input offset
 *    folded into per-channel weight sums, inline requantisation, blocked
 *    dot products (2 pixels x 2 output channels); on Cortex-M cores with the
 *    DSP extension (__ARM_FEATURE_DSP: M4, M7, M33) SXTB16 + SMLAD dual MACs,
 *    chosen at compile time; on x86-64 the same C built for AVX2 as well,
 *    chosen at run time when the CPU has AVX2.  Shapes it does not cover (a
 *    dot product over more than 65,536 terms, FC weights with a zero point, a
 *    multiplier of INT32_MIN or a shift outside [-31, 30]) fall back to the
 *    reference loops.  int8/int16 ADD and SUB without broadcasting also have
 *    a fast loop (inline rescales).
 *  - TA_KERNEL_IMPL_PORTABLE: the fast kernels without run-time dispatch
 *    (on x86-64 the SSE2 baseline build, elsewhere the same as FAST).
 *  - TA_KERNEL_IMPL_REFERENCE: TFLM's reference loops (int64 window sums
 *    wrapped to int32), the oracle the tests compare the fast kernels with.
 * The choice is process-wide (one static variable, not thread-safe: set it
 * before invoking); meant for tests and benchmarks. */
typedef enum ta_kernel_impl {
    TA_KERNEL_IMPL_FAST = 0,
    TA_KERNEL_IMPL_REFERENCE = 1,
    TA_KERNEL_IMPL_PORTABLE = 2,
} ta_kernel_impl;

/* TA_E_INVALID_ARG for a value outside the enum (the choice is unchanged). */
ta_status ta_kernel_use_impl(ta_kernel_impl impl);

/* ------------------------------------------------------------------------ */
/* CONV_2D (conv2d.c)                                                        */
/* ------------------------------------------------------------------------ */

typedef struct ta_conv_params {
    ta_dims4 input;  /* NHWC */
    ta_dims4 filter; /* OHWI; input.c must be a multiple of filter.c (groups) */
    ta_dims4 output; /* NHWC; output.n == input.n, output.c == filter.n */
    int32_t stride_h, stride_w;     /* >= 1 */
    int32_t dilation_h, dilation_w; /* >= 1 */
    int32_t pad_h, pad_w;           /* leading padding, >= 0 */
    ta_requant q;                   /* int8 only */
    float act_min, act_max;         /* float only */
} ta_conv_params;

/* int8 x int8 -> int8 with int32 bias (may be NULL), per-channel or
 * per-tensor multipliers.  No scratch. */
ta_status ta_kernel_conv2d_s8(const ta_conv_params *p, const int8_t *input, const int8_t *filter,
                              const int32_t *bias, int8_t *output);
ta_status ta_kernel_conv2d_f32(const ta_conv_params *p, const float *input, const float *filter,
                               const float *bias, float *output);

/* ------------------------------------------------------------------------ */
/* DEPTHWISE_CONV_2D (depthwise_conv2d.c)                                    */
/* ------------------------------------------------------------------------ */

typedef struct ta_dwconv_params {
    ta_dims4 input;  /* NHWC */
    ta_dims4 filter; /* 1HWO, filter.c == input.c * depth_multiplier */
    ta_dims4 output; /* NHWC, output.c == filter.c */
    int32_t depth_multiplier; /* >= 1 */
    int32_t stride_h, stride_w, dilation_h, dilation_w, pad_h, pad_w;
    ta_requant q;
    float act_min, act_max;
} ta_dwconv_params;

ta_status ta_kernel_depthwise_conv2d_s8(const ta_dwconv_params *p, const int8_t *input,
                                        const int8_t *filter, const int32_t *bias, int8_t *output);
ta_status ta_kernel_depthwise_conv2d_f32(const ta_dwconv_params *p, const float *input,
                                         const float *filter, const float *bias, float *output);

/* In place (depthwise_conv2d_inplace.c; the DWINPLACE rewrite, rewrite.h):
 * the output is written over `data`, which holds the input on entry and
 * the output (its first output.n*h*w*c elements, NHWC) on return, channel
 * by channel through `scratch` (out.h * out.w elements, scratch_bytes at
 * least that many bytes times the element size).  Depth multiplier 1 and
 * out.h * out.w <= in.h * in.w only, else TA_E_INVALID_ARG.  Every output
 * element is byte-identical to the out-of-place kernels'.
 * _scratch: the bytes of scratch for elem_bytes-byte elements (0 when the
 * geometry cannot run in place). */
size_t ta_kernel_depthwise_conv2d_inplace_scratch(const ta_dwconv_params *p, size_t elem_bytes);
ta_status ta_kernel_depthwise_conv2d_s8_inplace(const ta_dwconv_params *p, int8_t *data, const int8_t *filter,
                                                const int32_t *bias, int8_t *scratch, size_t scratch_bytes);
ta_status ta_kernel_depthwise_conv2d_f32_inplace(const ta_dwconv_params *p, float *data, const float *filter,
                                                 const float *bias, float *scratch, size_t scratch_bytes);
/* _end: the same, with the output in the last output.n*h*w*c elements of
 * `data` (it ends where the input ends), batches from the last down: the
 * rewrite places the output there so that the input's front, free after
 * the op, can take the next op's output (pass 2 of rewrite.h). */
ta_status ta_kernel_depthwise_conv2d_s8_inplace_end(const ta_dwconv_params *p, int8_t *data, const int8_t *filter,
                                                    const int32_t *bias, int8_t *scratch, size_t scratch_bytes);
ta_status ta_kernel_depthwise_conv2d_f32_inplace_end(const ta_dwconv_params *p, float *data, const float *filter,
                                                     const float *bias, float *scratch, size_t scratch_bytes);

/* ------------------------------------------------------------------------ */
/* FULLY_CONNECTED (fully_connected.c)                                       */
/* ------------------------------------------------------------------------ */

typedef struct ta_fc_params {
    int32_t batches;     /* rows of input and output */
    int32_t accum_depth; /* input features = weights columns */
    int32_t out_depth;   /* output features = weights rows (weights are [out_depth, accum_depth]) */
    ta_requant q;        /* per_channel: one multiplier per output feature */
    float act_min, act_max;
} ta_fc_params;

ta_status ta_kernel_fully_connected_s8(const ta_fc_params *p, const int8_t *input,
                                       const int8_t *weights, const int32_t *bias, int8_t *output);
ta_status ta_kernel_fully_connected_f32(const ta_fc_params *p, const float *input,
                                        const float *weights, const float *bias, float *output);

/* ------------------------------------------------------------------------ */
/* ADD, SUB, MUL with broadcasting (add.c, sub.c, mul.c)                    */
/* ------------------------------------------------------------------------ */

#define TA_KERNEL_MAX_BROADCAST_RANK 6

/* Shapes of both inputs and the output, right-aligned to `rank` (pad with
 * leading 1s).  Each input dim equals the output dim or is 1. */
typedef struct ta_broadcast {
    int32_t rank; /* 0..TA_KERNEL_MAX_BROADCAST_RANK */
    int32_t in1[TA_KERNEL_MAX_BROADCAST_RANK];
    int32_t in2[TA_KERNEL_MAX_BROADCAST_RANK];
    int32_t out[TA_KERNEL_MAX_BROADCAST_RANK];
} ta_broadcast;

/* Fills b from two shapes of any ranks <= 6 (NumPy rules: right-aligned,
 * each dim equal or 1).  TA_E_INVALID_ARG when they do not broadcast. */
ta_status ta_broadcast_init(ta_broadcast *b, const int32_t *shape1, int32_t rank1,
                            const int32_t *shape2, int32_t rank2);

/* Quantised ADD/SUB (TFLM's scheme): both inputs are shifted left by
 * `left_shift` (20 for int8, 15 for int16), rescaled to the common scale
 * 2*max(s1, s2), summed, and rescaled to the output. */
typedef struct ta_addsub_params {
    ta_broadcast shape;
    int32_t input1_offset, input2_offset, output_offset; /* -zp1, -zp2, +zp_out */
    int32_t left_shift;
    int32_t input1_mult, input1_shift; /* shifts <= 0 */
    int32_t input2_mult, input2_shift;
    int32_t output_mult, output_shift;
    int32_t act_min, act_max;
    float f_act_min, f_act_max; /* float kernels */
} ta_addsub_params;

/* Derives the multipliers exactly as TFLM's ADD/SUB prepare does (int8 or
 * int16 output selects left_shift 20 / 15), plus the activation range.
 * Does not touch p->shape.  TA_E_UNSUPPORTED for other types. */
ta_status ta_addsub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                            int32_t zp2, float s_out, int32_t zp_out, ta_activation act);

/* SUB's prepare: same scheme, but TFLM computes its three real multipliers
 * in FLOAT (then widens to double), so they can differ from ADD's in the
 * last bit.  Use this one for SUB. */
ta_status ta_sub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                         int32_t zp2, float s_out, int32_t zp_out, ta_activation act);

ta_status ta_kernel_add_s8(const ta_addsub_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out);
ta_status ta_kernel_add_s16(const ta_addsub_params *p, const int16_t *in1, const int16_t *in2,
                            int16_t *out);
ta_status ta_kernel_add_f32(const ta_addsub_params *p, const float *in1, const float *in2,
                            float *out);
ta_status ta_kernel_sub_s8(const ta_addsub_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out);
ta_status ta_kernel_sub_f32(const ta_addsub_params *p, const float *in1, const float *in2,
                            float *out);
/* int16 SUB: the same scheme with left_shift 15 (ta_sub_prepare with INT16). */
ta_status ta_kernel_sub_s16(const ta_addsub_params *p, const int16_t *in1, const int16_t *in2,
                            int16_t *out);

typedef struct ta_mul_params {
    ta_broadcast shape;
    int32_t input1_offset, input2_offset, output_offset;
    int32_t output_mult, output_shift; /* s1 * s2 / s_out, in double */
    int32_t act_min, act_max;
    float f_act_min, f_act_max;
} ta_mul_params;

ta_status ta_mul_prepare(ta_mul_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                         int32_t zp2, float s_out, int32_t zp_out, ta_activation act);
ta_status ta_kernel_mul_s8(const ta_mul_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out);
ta_status ta_kernel_mul_f32(const ta_mul_params *p, const float *in1, const float *in2,
                            float *out);

/* ------------------------------------------------------------------------ */
/* AVERAGE_POOL_2D, MAX_POOL_2D (pooling.c)                                  */
/* ------------------------------------------------------------------------ */

typedef struct ta_pool_params {
    ta_dims4 input, output; /* NHWC, same n and c */
    int32_t filter_h, filter_w, stride_h, stride_w, pad_h, pad_w;
    int32_t act_min, act_max;   /* int8 */
    float f_act_min, f_act_max; /* float */
} ta_pool_params;

/* Average: only the in-image part of each window counts; int8 rounds the
 * sum / count half away from zero.  TA_E_INVALID_ARG if a window falls
 * entirely outside the image. */
ta_status ta_kernel_avg_pool_s8(const ta_pool_params *p, const int8_t *input, int8_t *output);
ta_status ta_kernel_avg_pool_f32(const ta_pool_params *p, const float *input, float *output);
ta_status ta_kernel_max_pool_s8(const ta_pool_params *p, const int8_t *input, int8_t *output);
ta_status ta_kernel_max_pool_f32(const ta_pool_params *p, const float *input, float *output);

/* ------------------------------------------------------------------------ */
/* MEAN (mean.c)                                                             */
/* ------------------------------------------------------------------------ */

#define TA_KERNEL_MAX_REDUCE_RANK 5

typedef struct ta_mean_params {
    int32_t rank;                               /* 1..5 */
    int32_t in_shape[TA_KERNEL_MAX_REDUCE_RANK];
    bool reduce[TA_KERNEL_MAX_REDUCE_RANK];      /* axes to average over */
    /* int8: the requantising path with (mult, shift) =
     * ta_quant_multiplier(s_in / s_out) is what TFLM's micro MEAN runs at
     * the reference commit -- even when input and output quantisation are
     * identical (checked bit for bit on MobileNetV2's 7x7 mean).
     * same_quant = true selects the truncating raw average that newer TFLM
     * versions use for identical quantisation; leave it false to match. */
    bool same_quant;
    int32_t input_zp, output_zp;
    int32_t mult, shift;
} ta_mean_params;

/* Fills rank/in_shape/reduce from an axis list (negative axes count from the
 * end; duplicates allowed).  TA_E_INVALID_ARG for an axis out of range. */
ta_status ta_mean_axes(ta_mean_params *p, const int32_t *shape, int32_t rank, const int32_t *axes,
                       int32_t n_axes);
/* Scratch: an int32 sum per output element (int8) or none (float). */
size_t ta_kernel_mean_s8_scratch_bytes(const ta_mean_params *p);
ta_status ta_kernel_mean_s8(const ta_mean_params *p, const int8_t *input, int8_t *output,
                            void *scratch, size_t scratch_bytes);
ta_status ta_kernel_mean_f32(const ta_mean_params *p, const float *input, float *output);

/* ------------------------------------------------------------------------ */
/* SOFTMAX (softmax.c)                                                       */
/* ------------------------------------------------------------------------ */

typedef struct ta_softmax_params {
    int32_t outer, depth; /* rows x softmax length (last axis) */
    /* int8: from ta_softmax_prepare_s8 */
    int32_t input_mult, input_left_shift, diff_min;
    float beta; /* float */
} ta_softmax_params;

/* TFLM's int8 softmax constants: beta * s_in * 2^26 as a multiplier >= 1
 * (capped at 2^31 - 1), and diff_min, the most negative (x - max) that still
 * contributes.  TA_E_UNSUPPORTED when beta * s_in makes the multiplier < 1. */
ta_status ta_softmax_prepare_s8(ta_softmax_params *p, float beta, float in_scale);
/* int8 -> int8 (output zp -128, scale 1/256) and int8 -> int16 (output zp
 * -32768, scale 1/65536): gemmlowp fixed-point exp, as TFLM's reference. */
ta_status ta_kernel_softmax_s8(const ta_softmax_params *p, const int8_t *input, int8_t *output);
ta_status ta_kernel_softmax_s8_s16(const ta_softmax_params *p, const int8_t *input,
                                   int16_t *output);
ta_status ta_kernel_softmax_f32(const ta_softmax_params *p, const float *input, float *output);

/* ------------------------------------------------------------------------ */
/* LOGISTIC, TANH (logistic.c, tanh.c)                                       */
/* ------------------------------------------------------------------------ */

typedef struct ta_lut_act_params {
    int32_t input_zp;
    int32_t input_mult, input_left_shift, input_range_radius;
} ta_lut_act_params;

/* TFLM's int8 prepare: s_in * 2^27 split by frexp (no 2^31 fix-up, as TFLM). */
void ta_act_prepare_s8(ta_lut_act_params *p, float in_scale, int32_t in_zp);
/* int8 logistic (output zp -128, scale 1/256) and tanh (zp 0, scale 1/128);
 * in place allowed. */
ta_status ta_kernel_logistic_s8(const ta_lut_act_params *p, size_t n, const int8_t *input,
                                int8_t *output);
ta_status ta_kernel_logistic_f32(size_t n, const float *input, float *output);
ta_status ta_kernel_tanh_s8(const ta_lut_act_params *p, size_t n, const int8_t *input,
                            int8_t *output);
ta_status ta_kernel_tanh_f32(size_t n, const float *input, float *output);

/* SILU: LOGISTIC then MUL(x, sigmoid(x)), fused by the SILU rewrite
 * (rewrite.h; silu.c).  Per block of elements, the LOGISTIC kernel writes
 * the sigmoid into a stack block and the MUL kernel multiplies x by it, so
 * each output element is the unfused pair's, bit for bit.  int8: act is
 * the LOGISTIC's prepare (x's scale and zero point), the rest the MUL's
 * (ta_mul_prepare with x, the sigmoid tensor's quantisation and y);
 * float32: the activation range.  y may be x (each element is read before
 * it is written); no other overlap. */
typedef struct ta_silu_params {
    ta_lut_act_params act;
    int32_t x_offset, s_offset, output_offset; /* -zp_x, -zp_sigmoid, zp_y */
    int32_t output_mult, output_shift;
    int32_t act_min, act_max;
    float f_act_min, f_act_max;
} ta_silu_params;
ta_status ta_kernel_silu_s8(const ta_silu_params *p, size_t n, const int8_t *x, int8_t *y);
ta_status ta_kernel_silu_f32(const ta_silu_params *p, size_t n, const float *x, float *y);

/* ------------------------------------------------------------------------ */
/* QUANTIZE, DEQUANTIZE (quantize.c, dequantize.c)                          */
/* ------------------------------------------------------------------------ */

/* float -> int: q = clamp(zp + (int32)round((double)x / (double)scale)). */
ta_status ta_kernel_quantize_f32(size_t n, const float *input, float scale, int32_t zp,
                                 ta_dtype out_type, void *output);
/* int8/uint8/int16/int32 -> int8/uint8/int16/int32 requantisation (TFLM
 * Requantize): clamp(zp_out + ta_q_mul(x - zp_in, mult, shift)), mult/shift
 * from ta_quant_multiplier(s_in / s_out); int32 arithmetic wraps as TFLM's,
 * the clamp is to the output type's range. */
ta_status ta_kernel_requantize(size_t n, ta_dtype in_type, const void *input, int32_t in_zp,
                               int32_t mult, int32_t shift, ta_dtype out_type, int32_t out_zp,
                               void *output);
/* int -> float: (float)((double)scale * (x - zp)). */
ta_status ta_kernel_dequantize(size_t n, ta_dtype in_type, const void *input, float scale,
                               int32_t zp, float *output);

/* ------------------------------------------------------------------------ */
/* Data movement: RESHAPE, PAD, TRANSPOSE, CONCATENATION, STRIDED_SLICE      */
/* ------------------------------------------------------------------------ */

/* Copies bytes (memmove semantics; input == output is a no-op). */
ta_status ta_kernel_reshape(const void *input, void *output, size_t bytes);

#define TA_KERNEL_MAX_PAD_RANK 5
typedef struct ta_pad_params {
    int32_t rank;                              /* 1..5 */
    int32_t in_shape[TA_KERNEL_MAX_PAD_RANK];
    int32_t before[TA_KERNEL_MAX_PAD_RANK];    /* >= 0 */
    int32_t after[TA_KERNEL_MAX_PAD_RANK];     /* >= 0 */
    size_t elem_size;                          /* 1, 2, 4 or 8 */
} ta_pad_params;

/* pad_value: elem_size bytes (int8: the output zero point; float: 0.0f). */
ta_status ta_kernel_pad(const ta_pad_params *p, const void *input, const void *pad_value,
                        void *output);
/* The same bytes, walked from the last output element down
 * (pad_backward.c): the output may lie over the input as long as the input
 * starts at most ta_kernel_pad_first(p) bytes above the output's start
 * (the output may start anywhere higher).  The OVERLAP rewrite's backward
 * walk (walk.h ta_walk_pad_backward). */
ta_status ta_kernel_pad_backward(const ta_pad_params *p, const void *input, const void *pad_value, void *output);
/* The byte offset of the input's first element in the output: the
 * padding before it.  SIZE_MAX for an empty input or bad params. */
size_t ta_kernel_pad_first(const ta_pad_params *p);

#define TA_KERNEL_MAX_TRANSPOSE_RANK 6
typedef struct ta_transpose_params {
    int32_t rank;                                 /* 1..6 */
    int32_t in_shape[TA_KERNEL_MAX_TRANSPOSE_RANK];
    int32_t perm[TA_KERNEL_MAX_TRANSPOSE_RANK];   /* out dim i = in dim perm[i] */
    size_t elem_size;
} ta_transpose_params;

ta_status ta_kernel_transpose(const ta_transpose_params *p, const void *input, void *output);

/* Concatenation along `axis` of n inputs that agree on every other dim:
 * viewed as [outer, inputs' axis extent * inner] blocks.  Quantised inputs
 * with different scales are not requantised here (TFLM int8 requires equal
 * params). */
typedef struct ta_concat_params {
    int32_t n_inputs;
    int64_t outer;              /* product of dims before axis */
    const int64_t *copy_bytes;  /* per input: axis extent * inner * elem size */
} ta_concat_params;

ta_status ta_kernel_concatenation(const ta_concat_params *p, const void *const *inputs,
                                  void *output);

/* Strided slice, already resolved (TFLM's StartForAxis/StopForAxis with the
 * masks applied at prepare time): for each of rank <= 5 dims, indices start,
 * start+stride, ... while < stop (stride > 0) or > stop (stride < 0). */
#define TA_KERNEL_MAX_SLICE_RANK 5
typedef struct ta_slice_params {
    int32_t rank;
    int32_t in_shape[TA_KERNEL_MAX_SLICE_RANK];
    int32_t start[TA_KERNEL_MAX_SLICE_RANK];
    int32_t stop[TA_KERNEL_MAX_SLICE_RANK];
    int32_t stride[TA_KERNEL_MAX_SLICE_RANK]; /* != 0 */
    size_t elem_size;
} ta_slice_params;

/* TFLM's resolution of begin/end/strides and the masks for one op
 * (ellipsis and new_axis masks unsupported: TA_E_UNSUPPORTED). */
ta_status ta_strided_slice_resolve(ta_slice_params *p, const int32_t *in_shape, int32_t rank,
                                   const int32_t *begin, const int32_t *end,
                                   const int32_t *strides, int32_t begin_mask, int32_t end_mask,
                                   int32_t shrink_axis_mask, bool offset, size_t elem_size);
/* Whether the resolved slice is one contiguous byte range of the input
 * (every stride 1; one index per axis before the first that keeps more,
 * whole axes after it); *offset gets its first byte.  The SLICE rewrite
 * (rewrite.h) plans such an output inside its input, and the kernel then
 * finds it there and copies nothing. */
bool ta_strided_slice_view(const ta_slice_params *p, size_t *offset);

/* Whether the kernel's walk is a forward gather (every stride positive,
 * the output not empty): output element j comes from a strictly later
 * input element than element j - 1, so writing the output over the input
 * from up to *first bytes above the input's start (the first element's
 * byte offset) never overwrites an element still to be read (walk.h,
 * ta_walk_gather).  The kernel moves each element with memmove. */
bool ta_strided_slice_forward(const ta_slice_params *p, size_t *first);

ta_status ta_kernel_strided_slice(const ta_slice_params *p, const void *input, void *output);

/* RESIZE_NEAREST_NEIGHBOR (resize_nearest.c), any element size, NHWC.
 * Source row for output row y: min(floor((y + o) * in/out), in - 1), or
 * round((y + o) * (in-1)/(out-1)) with align_corners, o = 0.5 with
 * half_pixel_centers (then >= 0); the ratio is a float, as in TFLM. */
typedef struct ta_resize_params {
    ta_dims4 input;
    int32_t out_h, out_w;
    bool align_corners, half_pixel_centers;
    size_t elem_size;
} ta_resize_params;

ta_status ta_kernel_resize_nearest(const ta_resize_params *p, const void *input, void *output);

/* ------------------------------------------------------------------------ */
/* CONV_2D, int16 activations x int8 weights (conv2d_s16.c)                 */
/* ------------------------------------------------------------------------ */

/* TFLM reference_integer_ops::ConvPerChannel for int16 input and output
 * (both zero points 0; q.input_offset and q.output_offset must be 0) with
 * int8 per-channel weights.  With int64 bias (the converter's default for
 * 16x8) the accumulator is int64 and the requantisation is ta_q_mul64; with
 * int32 bias (or none, _b32) the accumulator is int32 and it is ta_q_mul.
 * Clamped to q.act_min..q.act_max (int16 domain).  Same window walk, groups
 * and padding as ta_kernel_conv2d_s8.  No scratch. */
ta_status ta_kernel_conv2d_s16(const ta_conv_params *p, const int16_t *input, const int8_t *filter,
                               const int64_t *bias, int16_t *output);
ta_status ta_kernel_conv2d_s16_b32(const ta_conv_params *p, const int16_t *input, const int8_t *filter,
                                   const int32_t *bias, int16_t *output);

/* ------------------------------------------------------------------------ */
/* TRANSPOSE_CONV (transpose_conv.c)                                         */
/* ------------------------------------------------------------------------ */

/* TFLM's transpose convolution: every input pixel scatters
 * input * filter into the output window at (in * stride - pad + filter
 * offset); taps outside the output are dropped.  The output shape is the
 * output tensor's (TFLM ignores the output_shape operand's values); the
 * padding is ComputePaddingWithOffset over the OUTPUT extent (dilation 1).
 * No dilation, no groups. */
typedef struct ta_tconv_params {
    ta_dims4 input;  /* NHWC */
    ta_dims4 filter; /* OHWI: n = output channels, c = input channels */
    ta_dims4 output; /* NHWC */
    int32_t stride_h, stride_w; /* >= 1 */
    int32_t pad_h, pad_w;       /* leading padding, >= 0 */
    ta_requant q;               /* int8 / int16 (per channel) */
} ta_tconv_params;

/* Scratch: an accumulator per output element, int32 (int8) or int64
 * (int16), as TFLM's scratch buffer; float needs none. */
size_t ta_kernel_transpose_conv_scratch_bytes(const ta_tconv_params *p, ta_dtype type);
/* int8 x int8, int32 bias (may be NULL): acc += (x + input_offset) * w in
 * wrapping int32, + bias, ta_q_mul, + output zero point, clamp. */
ta_status ta_kernel_transpose_conv_s8(const ta_tconv_params *p, const int8_t *input, const int8_t *filter,
                                      const int32_t *bias, int8_t *output, void *scratch, size_t scratch_bytes);
/* int16 x int8, int64 bias (may be NULL): int64 accumulators, ta_q_mul64, no
 * zero points, clamp. */
ta_status ta_kernel_transpose_conv_s16(const ta_tconv_params *p, const int16_t *input, const int8_t *filter,
                                       const int64_t *bias, int16_t *output, void *scratch, size_t scratch_bytes);
/* float: the output is zeroed, then accumulated in scatter order (batch,
 * in_y, in_x, in_c, filter_y, filter_x, out_c), then the bias is added. */
ta_status ta_kernel_transpose_conv_f32(const ta_tconv_params *p, const float *input, const float *filter,
                                       const float *bias, float *output);
/* The same int8 and int16 x int8 results, output-stationary
 * (transpose_conv_gather.c): each output element sums the products of the
 * input elements that reach it in a register, then the same bias,
 * requantisation and clamp -- no accumulator scratch.  Integer sums do not
 * depend on their order (int8: wrapping int32; int16: int64, which prepare
 * proves cannot overflow), so the bytes are the scatter kernels'.  The
 * runtime runs these when the GATHER rewrite (rewrite.h) marked the op. */
ta_status ta_kernel_transpose_conv_gather_s8(const ta_tconv_params *p, const int8_t *input, const int8_t *filter,
                                             const int32_t *bias, int8_t *output);
ta_status ta_kernel_transpose_conv_gather_s16(const ta_tconv_params *p, const int16_t *input, const int8_t *filter,
                                              const int64_t *bias, int16_t *output);

/* ------------------------------------------------------------------------ */
/* LEAKY_RELU (leaky_relu.c)                                                 */
/* ------------------------------------------------------------------------ */

typedef struct ta_leaky_relu_params {
    int32_t input_zp, output_zp;
    int32_t alpha_mult, alpha_shift;       /* s_in * alpha / s_out (float product) */
    int32_t identity_mult, identity_shift; /* s_in / s_out (float quotient) */
    float alpha;                           /* float kernel */
} ta_leaky_relu_params;

/* TFLM's prepare: both ratios are computed in float, then widened to double
 * for ta_quant_multiplier.  TA_E_UNSUPPORTED for a negative alpha or a
 * non-positive scale. */
ta_status ta_leaky_relu_prepare(ta_leaky_relu_params *p, float alpha, float in_scale, int32_t in_zp,
                                float out_scale, int32_t out_zp);
/* x - zp_in >= 0: zp_out + ta_q_mul(x - zp_in, identity), else with alpha;
 * clamped to the type.  In place allowed. */
ta_status ta_kernel_leaky_relu_s8(const ta_leaky_relu_params *p, size_t n, const int8_t *input, int8_t *output);
ta_status ta_kernel_leaky_relu_s16(const ta_leaky_relu_params *p, size_t n, const int16_t *input,
                                   int16_t *output);
/* x > 0 ? x : x * alpha. */
ta_status ta_kernel_leaky_relu_f32(const ta_leaky_relu_params *p, size_t n, const float *input, float *output);

/* ------------------------------------------------------------------------ */
/* Elementwise math, activations, comparisons, logic, select, PRELU,        */
/* SQUARED_DIFFERENCE, FLOOR_DIV/MOD, L2_NORMALIZATION, LOG_SOFTMAX         */
/* (elementwise.c, compare.c, prelu.c, l2_norm.c, log_softmax.c)            */
/* ------------------------------------------------------------------------ */

/* float32 elementwise functions (ta_kernel_unary_f32), each the C library's
 * float function TFLM calls: fabsf, -x, expf, logf, sqrtf, 1 / sqrtf, x * x,
 * floorf, ceilf, round half to even, sinf, cosf, max(x, 0), min(max(x, 0), 6),
 * min(max(x, -1), 1), x < 0 ? expm1f(x) : x. */
typedef enum ta_unary_fn {
    TA_UNARY_ABS = 0,
    TA_UNARY_NEG,
    TA_UNARY_EXP,
    TA_UNARY_LOG,
    TA_UNARY_SQRT,
    TA_UNARY_RSQRT,
    TA_UNARY_SQUARE,
    TA_UNARY_FLOOR,
    TA_UNARY_CEIL,
    TA_UNARY_ROUND,
    TA_UNARY_SIN,
    TA_UNARY_COS,
    TA_UNARY_RELU,
    TA_UNARY_RELU6,
    TA_UNARY_RELU_N1_TO_1,
    TA_UNARY_ELU,
    TA_UNARY_COUNT
} ta_unary_fn;

/* n elements of fn(input) into output; in place allowed.  TA_E_INVALID_ARG
 * for an unknown fn. */
ta_status ta_kernel_unary_f32(ta_unary_fn fn, size_t n, const float *input, float *output);

/* Quantised RELU family, ABS and RSQRT (int8, int16): one params struct. */
typedef struct ta_unary_q_params {
    int32_t input_zp, output_zp;
    int32_t mult, shift; /* the output rescale (see each prepare) */
    int32_t act_min, act_max;
    int32_t rescale;     /* 0: no multiply (ABS with equal scales, RELU6) */
} ta_unary_q_params;

/* RELU (act = TA_ACT_RELU) and RELU_N1_TO_1 (TA_ACT_RELU_N1_TO_1): TFLM's
 * ReluQuantized, mult/shift from ta_quant_multiplier((double)s_in /
 * (double)s_out), clamp bounds zp_out + (int32)roundf(lo / s_out) (lo 0 or
 * -1) and the same for 1 (none for RELU), capped to the type.
 * RELU6 (TA_ACT_RELU6): TFLM's Relu6 clamps in the INPUT's quantisation,
 * [zp_in, zp_in + round(6 / s_in)] capped to the type, and never rescales
 * to the output's (a TFLM quirk, kept for bit-exactness).  `type` INT8 or
 * INT16, else TA_E_UNSUPPORTED; TA_E_UNSUPPORTED for a non-positive scale. */
ta_status ta_relu_prepare(ta_unary_q_params *p, ta_activation act, ta_dtype type, float in_scale, int32_t in_zp,
                          float out_scale, int32_t out_zp);
/* rescale: clamp(zp_out + ta_q_mul(x - zp_in, mult, shift)), else clamp(x). */
ta_status ta_kernel_relu_s8(const ta_unary_q_params *p, size_t n, const int8_t *input, int8_t *output);
ta_status ta_kernel_relu_s16(const ta_unary_q_params *p, size_t n, const int16_t *input, int16_t *output);

/* ABS: rescale when the scales differ, mult/shift from
 * ta_quant_multiplier((double)(s_in / s_out)) (the quotient in float, as
 * TFLM).  |x - zp_in| (+ rescale) + zp_out, clamped to the type. */
ta_status ta_abs_prepare(ta_unary_q_params *p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp);
ta_status ta_kernel_abs_s8(const ta_unary_q_params *p, size_t n, const int8_t *input, int8_t *output);
ta_status ta_kernel_abs_s16(const ta_unary_q_params *p, size_t n, const int16_t *input, int16_t *output);
/* int16 without quantisation: (int16_t)|x|, so -32768 stays -32768 (TFLM
 * casts std::abs's int back to int16). */
ta_status ta_kernel_abs_s16_plain(size_t n, const int16_t *input, int16_t *output);

/* RSQRT: mult/shift from ta_quant_multiplier(1 / (double)(sqrtf(s_in) *
 * s_out)).  Per element v = x - zp_in: v == 0 gives the type's max; else
 * TFLM's fixed-point 1/sqrt(v) (ta_inv_sqrt_multiplier) rescaled by 2^20,
 * then by mult/shift - 20, + zp_out, clamped.  TA_E_UNSUPPORTED, before
 * any output is written, when some x < zp_in (TFLM fails the invoke: rsqrt
 * of a negative value). */
ta_status ta_rsqrt_prepare(ta_unary_q_params *p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp);
ta_status ta_kernel_rsqrt_s8(const ta_unary_q_params *p, size_t n, const int8_t *input, int8_t *output);
ta_status ta_kernel_rsqrt_s16(const ta_unary_q_params *p, size_t n, const int16_t *input, int16_t *output);

/* TFLM GetInvSqrtQuantizedMultiplierExp: 1/sqrt(x) as a Q0.31 multiplier and
 * a shift (x >= 0; x <= 1 gives INT32_MAX, 0), five Newton-Raphson steps in
 * Q3.28; reverse_shift -1 returns the shift as a left shift (TFLM's
 * kReverseShift). */
void ta_inv_sqrt_multiplier(int32_t x, int reverse_shift, int32_t *mult, int32_t *shift);

/* ELU int8 (TFLM's lookup table): for each int8 q, x = s_in * (q - zp_in)
 * in float, y = x < 0 ? expf(x) - 1 : x, out = clamp(round(y * (1 / s_out))
 * + zp_out).  Fills the 256-entry table indexed by (uint8_t)q. */
ta_status ta_elu_table_s8(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp, int8_t table[256]);
/* output[i] = table[(uint8_t)input[i]]; in place allowed. */
ta_status ta_kernel_lut_s8(const int8_t *table, size_t n, const int8_t *input, int8_t *output);

/* LOGICAL_NOT over bools (one byte each, 0 or 1 read as != 0). */
ta_status ta_kernel_logical_not(size_t n, const uint8_t *input, uint8_t *output);

/* Comparisons: EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL
 * with broadcasting, into bools (one byte, 0 or 1). */
typedef enum ta_compare_fn {
    TA_CMP_EQUAL = 0,
    TA_CMP_NOT_EQUAL,
    TA_CMP_GREATER,
    TA_CMP_GREATER_EQUAL,
    TA_CMP_LESS,
    TA_CMP_LESS_EQUAL
} ta_compare_fn;

typedef struct ta_compare_params {
    ta_broadcast shape;
    int32_t fn;   /* ta_compare_fn */
    /* int8: TFLM's ComparisonWithScaling: each input (x - zp) * 2^8,
     * ta_q_mul by its scale as a multiplier below one */
    int32_t input1_offset, input2_offset; /* -zp1, -zp2 */
    int32_t mult1, shift1, mult2, shift2;
} ta_compare_params;

/* int8: scales in (0, 1) (TFLM's QuantizeMultiplierSmallerThanOneExp),
 * else TA_E_UNSUPPORTED.  Fills the int8 fields; shape and fn are the
 * caller's. */
ta_status ta_compare_prepare_s8(ta_compare_params *p, float s1, int32_t zp1, float s2, int32_t zp2);
/* `type`: BOOL (EQUAL, NOT_EQUAL), FLOAT32, INT32, INT64, INT8 (scaled). */
ta_status ta_kernel_compare(const ta_compare_params *p, ta_dtype type, const void *in1, const void *in2,
                            uint8_t *output);

/* LOGICAL_AND (is_or 0) / LOGICAL_OR (is_or 1) with broadcasting. */
ta_status ta_kernel_logical(const ta_broadcast *shape, int is_or, const uint8_t *in1, const uint8_t *in2,
                            uint8_t *output);

/* SELECT_V2: out = cond ? x : y with three-way broadcasting over `rank`
 * right-aligned dims (each input dim equal to the output's or 1). */
typedef struct ta_select_params {
    int32_t rank; /* 0..TA_KERNEL_MAX_BROADCAST_RANK */
    int32_t cond[TA_KERNEL_MAX_BROADCAST_RANK], x[TA_KERNEL_MAX_BROADCAST_RANK], y[TA_KERNEL_MAX_BROADCAST_RANK];
    int32_t out[TA_KERNEL_MAX_BROADCAST_RANK];
} ta_select_params;
/* elem_size 1, 2, 4 or 8 (copied as bytes: any type). */
ta_status ta_kernel_select(const ta_select_params *p, size_t elem_size, const uint8_t *cond, const void *x,
                           const void *y, void *output);

/* PRELU with alpha broadcast against the input (TFLM BroadcastPrelu4DSlow).
 * Quantised: v = x - zp_in; v >= 0: ta_q_mul(v, mult1, shift1), else
 * ta_q_mul(v * (alpha - zp_alpha), mult2, shift2); + zp_out, clamped.
 * mult1 from (double)s_in / (double)s_out, mult2 from (double)s_in *
 * (double)s_alpha / (double)s_out. */
typedef struct ta_prelu_params {
    ta_broadcast shape; /* in1: input, in2: alpha */
    int32_t input_zp, alpha_zp, output_zp;
    int32_t mult1, shift1, mult2, shift2;
} ta_prelu_params;
ta_status ta_prelu_prepare(ta_prelu_params *p, float s_in, int32_t zp_in, float s_alpha, int32_t zp_alpha,
                           float s_out, int32_t zp_out);
/* x >= 0 ? x : x * alpha */
ta_status ta_kernel_prelu_f32(const ta_prelu_params *p, const float *input, const float *alpha, float *output);
/* int8 input, int8 alpha, int8 output. */
ta_status ta_kernel_prelu_s8(const ta_prelu_params *p, const int8_t *input, const int8_t *alpha, int8_t *output);
/* int16 input, int8 alpha, int16 output. */
ta_status ta_kernel_prelu_s16(const ta_prelu_params *p, const int16_t *input, const int8_t *alpha,
                              int16_t *output);

/* SQUARED_DIFFERENCE with broadcasting.  Quantised (TFLM's scheme): each
 * input (x - zp) << left_shift (7 for int8, 0 for int16 -- TFLM's int16 path
 * keeps 0, losing up to a few output LSB), ta_q_mul by s_i / (2 max(s1, s2)),
 * the difference squared, ta_q_mul by (2 max)^2 / (2^(2 left_shift) s_out),
 * + zp_out, clamped. */
typedef struct ta_sqdiff_params {
    ta_broadcast shape;
    int32_t input1_offset, input2_offset, output_zp; /* -zp1, -zp2, zp_out */
    int32_t left_shift;
    int32_t mult1, shift1, mult2, shift2, out_mult, out_shift;
} ta_sqdiff_params;
/* `type` INT8 or INT16; TA_E_UNSUPPORTED for scales whose multipliers do
 * not fit. */
ta_status ta_sqdiff_prepare(ta_sqdiff_params *p, ta_dtype type, float s1, int32_t zp1, float s2, int32_t zp2,
                            float s_out, int32_t zp_out);
/* `type` FLOAT32 ((x - y)^2), INT32 (wrapping), INT8, INT16. */
ta_status ta_kernel_sqdiff(const ta_sqdiff_params *p, ta_dtype type, const void *in1, const void *in2, void *output);

/* FLOOR_DIV (is_mod 0): floor((double)x / (double)y) as float (TFLM divides
 * in double); FLOOR_MOD (is_mod 1): fmodf(x, y),
 * plus y when nonzero and of the other sign than y.  float32, broadcasting. */
ta_status ta_kernel_floor_div_mod_f32(const ta_broadcast *shape, int is_mod, const float *in1, const float *in2,
                                      float *output);

/* L2_NORMALIZATION over the last axis: `outer` rows of `depth`. */
typedef struct ta_l2norm_params {
    int32_t outer, depth;
    int32_t input_zp; /* int8 */
} ta_l2norm_params;
/* x / max(sqrtf(sum x^2), 1e-6f) */
ta_status ta_kernel_l2norm_f32(const ta_l2norm_params *p, const float *input, float *output);
/* int8 (output scale 1/128, zp 0): acc = sum (x - zp)^2 in int32,
 * ta_inv_sqrt_multiplier(acc), out = clamp(ta_q_mul(x - zp, mult, shift + 7)). */
ta_status ta_kernel_l2norm_s8(const ta_l2norm_params *p, const int8_t *input, int8_t *output);

/* LOG_SOFTMAX over the last axis. */
typedef struct ta_log_softmax_params {
    int32_t outer, depth;
    /* int8 (output scale 16/256, zp 127): see ta_log_softmax_prepare_s8 */
    int32_t input_mult, input_left_shift, diff_min;
    int32_t reverse_mult, reverse_shift;
} ta_log_softmax_params;
/* TFLM's PreprocessLogSoftmaxScalingExp with beta 1 and 5 integer bits.
 * TA_E_UNSUPPORTED when the input scale gives no usable multiplier. */
ta_status ta_log_softmax_prepare_s8(ta_log_softmax_params *p, float in_scale);
/* x - max - logf(sum expf(x - max)) */
ta_status ta_kernel_log_softmax_f32(const ta_log_softmax_params *p, const float *input, float *output);
/* TFLM's fixed-point LogSoftmax (Q5.26 differences, Q12 sum of exps, Q4 output). */
ta_status ta_kernel_log_softmax_s8(const ta_log_softmax_params *p, const int8_t *input, int8_t *output);

/* ------------------------------------------------------------------------ */
/* HARD_SWISH (hard_swish.c)                                                 */
/* ------------------------------------------------------------------------ */

/* TFLM's int8 hard swish: 16-bit fixed point throughout.  The input is
 * moved to a "hires" scale s_in / 128; one int16 multiplier (Q15, from the
 * Q31 one rounded to 16 bits) takes it to the output scale, another to the
 * "reluish" scale where 3.0 is 32768. */
typedef struct ta_hard_swish_params {
    int32_t input_zp, output_zp;
    int32_t output_mult16, output_exp;   /* exp <= 0 */
    int32_t reluish_mult16, reluish_exp;
} ta_hard_swish_params;

ta_status ta_hard_swish_prepare(ta_hard_swish_params *p, float in_scale, int32_t in_zp, float out_scale,
                                int32_t out_zp);
ta_status ta_kernel_hard_swish_s8(const ta_hard_swish_params *p, size_t n, const int8_t *input, int8_t *output);
/* x * min(6, max(0, x + 3)) / 6, in float, in that order. */
ta_status ta_kernel_hard_swish_f32(size_t n, const float *input, float *output);

/* ------------------------------------------------------------------------ */
/* BATCH_MATMUL (batch_matmul.c)                                             */
/* ------------------------------------------------------------------------ */

/* out[..., a, c] = sum_k lhs[..., a, k] * rhs[..., k, c] (adj_x / adj_y:
 * the stored operand is the transpose).  Shapes right-aligned to rank 5;
 * the three batch dims broadcast (equal or 1).  Quantised: (l - zp_l) *
 * (r - zp_r) summed in int32 (int8) or int64 (int16), requantised with
 * ta_quant_multiplier(fc_real_multiplier(s_l, s_r, s_out)) -- ta_q_mul for
 * int8, ta_q_mul64 for int16 -- + output zero point, clamped to the type.
 * float: k ascending from 0.0f.  Results equal TFLM's, which transposes the
 * RHS into a persistent buffer first; this kernel reads it in place. */
typedef struct ta_batch_matmul_params {
    int32_t lhs[5], rhs[5]; /* stored shapes, leading 1s */
    bool adj_x, adj_y;
    int32_t lhs_offset, rhs_offset, output_offset; /* -zp_l, -zp_r, +zp_out */
    int32_t mult, shift;
} ta_batch_matmul_params;

/* Output shape (rank 5) of p, or TA_E_INVALID_ARG when the operands do not
 * fit together. */
ta_status ta_batch_matmul_shape(const ta_batch_matmul_params *p, int32_t out[5]);
ta_status ta_kernel_batch_matmul_s8(const ta_batch_matmul_params *p, const int8_t *lhs, const int8_t *rhs,
                                    int8_t *output);
ta_status ta_kernel_batch_matmul_s16(const ta_batch_matmul_params *p, const int16_t *lhs, const int16_t *rhs,
                                     int16_t *output);
ta_status ta_kernel_batch_matmul_f32(const ta_batch_matmul_params *p, const float *lhs, const float *rhs,
                                     float *output);

/* ------------------------------------------------------------------------ */
/* SVDF (svdf.c)                                                             */
/* ------------------------------------------------------------------------ */

/* TFLM's integer SVDF with an int16 (or int8) activation state of
 * [batch, n_filter * n_memory] that the op itself updates: each invoke
 * shifts the state left by one element, writes the feature matmul
 * (requantised to the state scale, + state zero point, clamped) into each
 * filter's newest slot, takes the dot product of every filter's memory with
 * its time weights (int32, state zero point removed), sums `rank` filters
 * per unit onto the bias, requantises to int8 and clamps to [-128, 127]
 * (TFLM applies no other activation on this path). */
typedef struct ta_svdf_params {
    int32_t batch, input_size, n_filter, n_memory, rank; /* units = n_filter / rank */
    int32_t input_zp, state_zp, output_zp;
    int32_t mult1, shift1; /* s_in * s_wf / s_state, float product */
    int32_t mult2, shift2; /* s_state * s_wt / s_out, float product */
    int32_t activation;    /* float path: the fused ta_activation (not SIGN_BIT) */
} ta_svdf_params;

/* TFLM's two scratch buffers, int32 [batch, n_filter] and [batch, units],
 * 16-byte aligned one after the other. */
size_t ta_kernel_svdf_scratch_bytes(const ta_svdf_params *p);
ta_status ta_svdf_prepare(ta_svdf_params *p, float in_scale, int32_t in_zp, float wf_scale, float wt_scale,
                          float state_scale, int32_t state_zp, float out_scale, int32_t out_zp);
/* int8 input and feature weights, int16 time weights and state. */
ta_status ta_kernel_svdf_s8(const ta_svdf_params *p, const int8_t *input, const int8_t *w_feature,
                            const int16_t *w_time, const int32_t *bias, int16_t *state, int8_t *output,
                            void *scratch, size_t scratch_bytes);
/* The same with int8 time weights and state. */
ta_status ta_kernel_svdf_s8_s8(const ta_svdf_params *p, const int8_t *input, const int8_t *w_feature,
                               const int8_t *w_time, const int32_t *bias, int8_t *state, int8_t *output,
                               void *scratch, size_t scratch_bytes);

/* float32 (svdf_f32.c, TFLM's EvalFloatSvdfReference): the state shifts
 * left by one, each filter's newest entry becomes the dot product of the
 * input row with its feature weights (float, index order); per filter the
 * time-weighted sum of its memory; per unit the bias plus its rank
 * filters' sums; then the activation (TFLM's ActivationValFloat: fmaxf /
 * fminf clamps, tanhf, 1 / (1 + expf(-x))).  Scratch: batch x n_filter
 * floats; bias may be NULL. */
size_t ta_kernel_svdf_f32_scratch_bytes(const ta_svdf_params *p);
ta_status ta_kernel_svdf_f32(const ta_svdf_params *p, const float *input, const float *w_feature,
                             const float *w_time, const float *bias, float *state, float *output, void *scratch,
                             size_t scratch_bytes);

/* ------------------------------------------------------------------------ */
/* UNIDIRECTIONAL_SEQUENCE_LSTM (lstm.c)                                     */
/* ------------------------------------------------------------------------ */

/* TFLM's integer LSTM (8-bit activations and weights, 16-bit cell state,
 * int32 bias; no peephole, projection or layer norm).  Per time step:
 *   gate g = act(FC(x, W_g) + bias_g  (+sat)  FC(h, R_g)), each FC
 *     requantised to int16 at scale 2^-12; act = sigmoid for input, forget
 *     and output, the op's activation (tanh) for the cell gate -- TFLM's
 *     int16 LUT sigmoid/tanh (Q3.12 in, Q0.15 out);
 *   c = sat16(f * c) (+sat) sat16(i * g) (int16 Mul with its multiplier),
 *     clipped to +-cell_clip (quantised) when it is > 0;
 *   h = int8(tanh(c) * o) (tanh reads c at its own power-of-two scale),
 *     copied to the output at this step's offset.
 * Gate order everywhere: input, forget, cell, output (TFLM's tensor order). */
enum { TA_LSTM_INPUT = 0, TA_LSTM_FORGET, TA_LSTM_CELL, TA_LSTM_OUTPUT };

typedef struct ta_lstm_fc {
    int32_t input_offset, weights_offset; /* -zp */
    int32_t mult, shift;                  /* s_x * s_w (float product) / 2^-12 */
} ta_lstm_fc;

typedef struct ta_lstm_params {
    bool time_major;
    int32_t batch, time, input_dim, state_dim;
    ta_lstm_fc in_fc[4], rec_fc[4];
    int32_t cell_act;        /* ta_activation of the cell gate: TANH or SIGMOID */
    int32_t cell_scale_power;/* log2 of the cell state scale (e.g. -11) */
    int32_t cell_clip;       /* quantised clip, 0: none */
    int32_t fc_mult, fc_shift; /* forget x cell -> cell */
    int32_t ic_mult, ic_shift; /* input x cell gate -> cell */
    int32_t h_mult, h_shift, h_zp; /* tanh(cell) x output gate -> hidden (int8) */
    float cell_clip_f32;     /* float LSTM: the clip, 0: none */
} ta_lstm_params;

/* The operands, by TFLM's roles; hidden and cell are the op's variable
 * tensors, updated in place; bias entries may be NULL. */
typedef struct ta_lstm_tensors {
    const int8_t *input;  /* [batch, time, input_dim] or [time, batch, input_dim] */
    const int8_t *w_in[4];  /* [state_dim, input_dim] */
    const int8_t *w_rec[4]; /* [state_dim, state_dim] */
    const int32_t *bias[4]; /* [state_dim] */
    int8_t *hidden;       /* [batch, state_dim] */
    int16_t *cell;        /* [batch, state_dim] */
    int8_t *output;       /* same layout as input, state_dim wide */
} ta_lstm_tensors;

/* One gate's two FCs (TFLM CreateGateParams: per-tensor multipliers into
 * int16 at 2^-12). */
void ta_lstm_fc_prepare(ta_lstm_fc *fc, float x_scale, int32_t x_zp, float w_scale, int32_t w_zp);
/* The cell and hidden updates (TFLM CreateLstmCellStateInfo and
 * CreateInterGateMulParams).  TA_E_UNSUPPORTED when the cell scale is not a
 * power of two. */
ta_status ta_lstm_cell_prepare(ta_lstm_params *p, float cell_scale, float cell_clip, float hidden_scale,
                               int32_t hidden_zp);
/* TFLM's four scratch buffers: batch x state_dim int16 each (time-major
 * runs all batches per step), 16-byte aligned. */
size_t ta_kernel_lstm_scratch_bytes(const ta_lstm_params *p);
ta_status ta_kernel_lstm_s8(const ta_lstm_params *p, const ta_lstm_tensors *t, void *scratch,
                            size_t scratch_bytes);

/* TFLM's float LSTM (lstm_f32.c, reference_ops arithmetic): per step and
 * batch row, gate g = act(FC(x, W_g) + bias_g + FC(h, R_g)) -- float sums
 * in index order, the sum of the two FCs after each is complete -- with
 * TFLM's float sigmoid and tanhf; c = f * c + i * g, clipped to
 * +-cell_clip_f32 when > 0; h = tanh(c) * o, copied to the output.  Each
 * product and FC result passes TFLM's no-activation clamp to +-FLT_MAX.
 * Rows are independent, so batch-major and time-major runs give the same
 * bytes.  Scratch: 5 x state_dim floats. */
typedef struct ta_lstm_f32_tensors {
    const float *input;
    const float *w_in[4], *w_rec[4];
    const float *bias[4];
    float *hidden, *cell; /* [batch, state_dim], updated in place */
    float *output;
} ta_lstm_f32_tensors;
size_t ta_kernel_lstm_f32_scratch_bytes(const ta_lstm_params *p);
ta_status ta_kernel_lstm_f32(const ta_lstm_params *p, const ta_lstm_f32_tensors *t, void *scratch,
                             size_t scratch_bytes);

/* TFLM's int16 LUT activations (reference_integer_ops::Logistic / Tanh for
 * int16, as the LSTM calls them): x * mult (mult = 3 << left_shift when
 * `mult` is 0), rounding right shift, then interpolation in the 256-entry
 * sigmoid table.  In place allowed. */
void ta_kernel_logistic_s16_lut(int32_t mult, int32_t left_shift, size_t n, const int16_t *input,
                                int16_t *output);
void ta_kernel_tanh_s16_lut(int32_t mult, int32_t left_shift, size_t n, const int16_t *input, int16_t *output);

/* ------------------------------------------------------------------------ */
/* Integer arithmetic: int32 ADD, MUL, DIV, MINIMUM/MAXIMUM, CAST            */
/* ------------------------------------------------------------------------ */

/* TFLM CalculateActivationRange<int32_t>: NONE the full int32 range, RELU
 * [0, max], RELU6 [0, 6], RELU_N1_TO_1 [-1, 1]; TA_E_UNSUPPORTED otherwise. */
ta_status ta_int32_activation_range(ta_activation act, int32_t *act_min, int32_t *act_max);

/* int32 ADD (add.c), with p->shape's broadcasting: in1 + in2, wrapping.  TFLM
 * clamps its int32 ADD to the full int32 range whatever the fused activation
 * says, so only the shape of p is read.  In place allowed. */
ta_status ta_kernel_add_s32(const ta_addsub_params *p, const int32_t *in1, const int32_t *in2, int32_t *out);
/* int32 MUL (mul.c): in1 * in2 (wrapping), clamped to [p->act_min,
 * p->act_max] (ta_int32_activation_range).  In place allowed. */
ta_status ta_kernel_mul_s32(const ta_mul_params *p, const int32_t *in1, const int32_t *in2, int32_t *out);

/* int32 DIV (div.c): in1 / in2 truncated toward zero (C division, TFLM's
 * reference Div), clamped to [act_min, act_max].  Where TFLM would trap (a
 * zero divisor, INT32_MIN / -1) the kernel fails with TA_E_INVALID_ARG
 * before writing anything. */
typedef struct ta_div_params {
    ta_broadcast shape;
    int32_t act_min, act_max;
} ta_div_params;
ta_status ta_kernel_div_s32(const ta_div_params *p, const int32_t *in1, const int32_t *in2, int32_t *out);

/* MINIMUM / MAXIMUM (minimum_maximum.c) with broadcasting: x < y ? x : y and
 * x > y ? x : y, as TFLM's.  type: INT8, INT16, INT32 or FLOAT32. */
ta_status ta_kernel_minimum(const ta_broadcast *shape, ta_dtype type, const void *in1, const void *in2, void *out);
ta_status ta_kernel_maximum(const ta_broadcast *shape, ta_dtype type, const void *in1, const void *in2, void *out);

/* CAST (cast.c): C's conversion of every element (TFLM's static_cast):
 * between int8, uint8, int16, uint16, int32, uint32, int64, uint64 and bool
 * the value is taken modulo the output type's range (bool: x != 0); an
 * integer or bool to float32 rounds to nearest; float32 to float32 copies.
 * ta_kernel_cast_supported() says which pairs run (float to integer does not:
 * out of range it is undefined in TFLM's C++). */
bool ta_kernel_cast_supported(ta_dtype in_type, ta_dtype out_type);
ta_status ta_kernel_cast(size_t n, ta_dtype in_type, const void *input, ta_dtype out_type, void *output);

/* ------------------------------------------------------------------------ */
/* TFLM's signal library: the audio front end's custom ops                   */
/* ------------------------------------------------------------------------ */

/* The library's integer helpers (signal_math.c), exactly as TFLM computes
 * them: most significant bit (1-based; 32 for 0, as TFLM's GCC build),
 * square roots by the bit-pair method rounded to nearest (Sqrt64 takes the
 * 32-bit path when the high word is 0), and the fixed-point natural log of
 * x > 0 scaled by out_scale / 2^16 (log2 from the leading bit and a 129-point
 * correction table, times ln 2 as 45426 / 2^16, each step rounded). */
uint32_t ta_signal_msb32(uint32_t x);
uint32_t ta_signal_msb64(uint64_t x);
uint16_t ta_signal_sqrt32(uint32_t x);
uint32_t ta_signal_sqrt64(uint64_t x);
/* log2(x) in Q16: the leading bit's position, then the bits below it as a
 * Q16 fraction plus the table's correction, linearly interpolated (0 for 0). */
uint32_t ta_signal_log2_q16(uint32_t x);
uint32_t ta_signal_log32(uint32_t x, uint32_t out_scale);

/* SignalWindow (signal_window.c): out[i] = clamp16((in[i] * w[i % window])
 * >> shift), the product in int32, the shift arithmetic.  size must be a
 * multiple of window. */
typedef struct ta_signal_window_params {
    int32_t size;   /* input and output elements */
    int32_t window; /* weights: one frame */
    int32_t shift;  /* 0..31 */
} ta_signal_window_params;
ta_status ta_kernel_signal_window(const ta_signal_window_params *p, const int16_t *input, const int16_t *weights,
                                  int16_t *output);

/* SignalFftAutoScale (signal_fft_auto_scale.c): m = TFLM's int16 running
 * max |x| (where -32768 wraps, as TFLM's), s = max(0, 15 - msb(m)) taken as
 * unsigned, out = in * 2^s (wrapping to int16), *scale_bits = s. */
ta_status ta_kernel_signal_fft_auto_scale(size_t n, const int16_t *input, int16_t *output, int32_t *scale_bits);

/* SignalRfft, int16 (signal_rfft.c): kissfft's fixed-point real FFT (v1.3.0,
 * FIXED_POINT 16, as TFLM builds it): an n = fft_length / 2 point complex
 * FFT of the even/odd samples (radix 4 stages, then a radix 2 one, each
 * dividing by its radix with kissfft's rounding), then the real-FFT split
 * with the super twiddles.  Each frame of input_length samples is zero
 * padded to fft_length; the output has fft_length / 2 + 1 complex values
 * (int16 real, imaginary) per frame.  The complex FFT runs in the output
 * frame itself: no scratch. */
typedef struct ta_signal_rfft_params {
    int32_t fft_length;      /* even; fft_length / 2 a power of two >= 2 */
    int32_t input_length;    /* samples per frame, 1..fft_length */
    int32_t frames;          /* >= 1 */
    const int16_t *twiddles; /* ta_signal_rfft_twiddles(fft_length) */
} ta_signal_rfft_params;
/* int16 entries of the twiddle table: n twiddles then n / 2 super twiddles,
 * (real, imaginary) each; 0 for an unsupported fft_length. */
size_t ta_signal_rfft_table_count(int32_t fft_length);
/* kissfft's tables: floor(0.5 + 32767 cos(phase)) (and sin) with phase
 * -2 pi i / n, and -pi ((i + 1) / n + 0.5) for the super twiddles, in double
 * arithmetic, as kiss_fft_alloc and kiss_fftr_alloc compute them. */
ta_status ta_signal_rfft_twiddles(int32_t fft_length, int16_t *table);
ta_status ta_kernel_signal_rfft_s16(const ta_signal_rfft_params *p, const int16_t *input, int16_t *output);

/* SignalEnergy (signal_energy.c): out[i] = re^2 + im^2 (uint32) for i in
 * [start, end) of `count` complex int16 inputs.  TFLM leaves the other
 * outputs unwritten; here they are 0. */
typedef struct ta_signal_energy_params {
    int32_t count;      /* complex inputs = outputs */
    int32_t start, end; /* 0 <= start <= end <= count */
} ta_signal_energy_params;
ta_status ta_kernel_signal_energy(const ta_signal_energy_params *p, const int16_t *input, uint32_t *output);

/* SignalFilterBank (signal_filter_bank.c): triangular mel filters.  For
 * channel i in 0..num_channels (one more than the outputs), over its band
 * input[freq_starts[i] + j], j < widths[i], accumulate weights[weight_starts[i]
 * + j] * x into channel i and unweights[...] * x into channel i + 1 (uint64,
 * the int16 weights taken modulo 2^64); channel 0 is dropped.  The tables are
 * checked against the sizes before anything is written. */
typedef struct ta_signal_filter_bank_params {
    int32_t num_channels; /* outputs; the three channel tables have one more */
    int32_t input_size;   /* energy bins */
    int32_t weights_size; /* entries of weights and of unweights */
} ta_signal_filter_bank_params;
typedef struct ta_signal_filter_bank_tables {
    const int16_t *weights, *unweights;
    const int16_t *freq_starts, *weight_starts, *widths; /* num_channels + 1 each */
} ta_signal_filter_bank_tables;
ta_status ta_signal_filter_bank_check(const ta_signal_filter_bank_params *p, const ta_signal_filter_bank_tables *t);
ta_status ta_kernel_signal_filter_bank(const ta_signal_filter_bank_params *p, const ta_signal_filter_bank_tables *t,
                                       const uint32_t *input, uint64_t *output);

/* SignalFilterBankSquareRoot (signal_filter_bank_sqrt.c): out[i] =
 * ta_signal_sqrt64(in[i]) >> scale_bits (the count taken modulo 32, as the
 * x86 shift TFLM compiles to). */
ta_status ta_kernel_signal_filter_bank_sqrt(size_t n, const uint64_t *input, int32_t scale_bits, uint32_t *output);

/* SignalFilterBankSpectralSubtraction (signal_spectral_subtraction.c): per
 * channel (the alternate coefficients on odd channels), s = in << smoothing_bits,
 * noise = (s * smoothing + noise * one_minus_smoothing) >> spectral_subtraction_bits
 * (uint64), the estimate capped at s (and noise with it when clamping),
 * out = max((s - estimate) >> smoothing_bits, (in * min_signal_remaining) >>
 * spectral_subtraction_bits).  `state` (num_channels uint32, the noise
 * estimates, zero at start) carries from call to call; noise_out gets a copy. */
typedef struct ta_signal_spectral_subtraction_params {
    int32_t num_channels;
    uint32_t smoothing, one_minus_smoothing;
    uint32_t alternate_smoothing, alternate_one_minus_smoothing;
    uint32_t min_signal_remaining;
    uint32_t smoothing_bits;            /* 0..31 */
    uint32_t spectral_subtraction_bits; /* 0..63 */
    bool clamping;
} ta_signal_spectral_subtraction_params;
ta_status ta_kernel_signal_spectral_subtraction(const ta_signal_spectral_subtraction_params *p, const uint32_t *input,
                                                uint32_t *output, uint32_t *noise_out, uint32_t *state);

/* SignalPCAN (signal_pcan.c): per-channel automatic gain control.  gain =
 * the LUT's piecewise quadratic at the noise estimate (int16, taken as
 * uint32), snr = (in * gain) >> snr_shift, out = snr^2 >> 20 below 2 << 12,
 * else (snr >> 6) - 64. */
typedef struct ta_signal_pcan_params {
    int32_t num_channels;
    int32_t snr_shift; /* 0..63 */
    int32_t lut_size;  /* >= 125: the table covers every 32-bit noise value */
} ta_signal_pcan_params;
ta_status ta_kernel_signal_pcan(const ta_signal_pcan_params *p, const uint32_t *input, const uint32_t *noise,
                                const int16_t *lut, uint32_t *output);

/* SignalFilterBankLog (signal_filter_bank_log.c): x = in << input_correction_bits;
 * out = x > 1 ? min(ta_signal_log32(x, output_scale), 32767) : 0. */
typedef struct ta_signal_filter_bank_log_params {
    int32_t num_channels;
    int32_t input_correction_bits; /* 0..31 */
    int32_t output_scale;          /* taken as uint32, as TFLM's */
} ta_signal_filter_bank_log_params;
ta_status ta_kernel_signal_filter_bank_log(const ta_signal_filter_bank_log_params *p, const uint32_t *input,
                                           int16_t *output);

/* ------------------------------------------------------------------------ */
/* Indexing, shape and reduction ops (issue 18 part B)                      */
/* ------------------------------------------------------------------------ */

/* SPLIT, SPLIT_V, UNPACK (split.c): the inverse of CONCATENATION with the
 * same params -- n_inputs is the number of outputs, copy_bytes[k] output k's
 * bytes per outer step -- so input bytes per outer step are their sum. */
ta_status ta_kernel_split(const ta_concat_params *p, const void *input, void *const *outputs);

/* GATHER (gather.c): output[b][o][i][:] = params[b][o][idx[b][i]][:], with
 * batch = product of the first batch_dims dims, outer the dims from there to
 * the axis, inner_bytes the bytes of the dims after it.  Indices are data:
 * one outside [0, axis_size) fails with TA_E_OUT_OF_RANGE before anything
 * past it is read (the output is then partly written). */
typedef struct ta_gather_params {
    int64_t batch, outer, n_idx; /* n_idx: indices per batch */
    int64_t inner_bytes;
    int32_t axis_size;
    int32_t idx_size;            /* 4 (int32) or 8 (int64 indices) */
} ta_gather_params;
ta_status ta_kernel_gather(const ta_gather_params *p, const void *params, const void *indices, void *output);

/* GATHER_ND (gather.c): n_slices rows of nd indices; row i copies the slice
 * of slice_bytes at sum(idx[i][j] * strides[j]) elements.  As TFLM, only the
 * flat position is checked: it must lie in [0, total - slice] (TA_E_OUT_OF_RANGE). */
#define TA_KERNEL_MAX_GATHER_ND 8
typedef struct ta_gather_nd_params {
    int64_t n_slices;
    int64_t slice_elems, total_elems;
    int64_t strides[TA_KERNEL_MAX_GATHER_ND]; /* elements */
    int32_t nd;
    int32_t elem_size;
    int32_t idx_size;                         /* 4 or 8 */
} ta_gather_nd_params;
ta_status ta_kernel_gather_nd(const ta_gather_nd_params *p, const void *params, const void *indices, void *output);

/* EMBEDDING_LOOKUP (gather.c): output row i = value row ids[i] (ids int32 in
 * [0, rows), else TA_E_OUT_OF_RANGE); with `dequant` the int8 row is written as
 * float (q - 0) * scale, TFLM's hybrid path. */
typedef struct ta_embedding_params {
    int32_t n_ids, rows;
    int64_t row_elems;
    int32_t elem_size;
    bool dequant;
    float scale;
} ta_embedding_params;
ta_status ta_kernel_embedding_lookup(const ta_embedding_params *p, const int32_t *ids, const void *value,
                                     void *output);

/* FILL (fill.c): n copies of the elem_size bytes at `value`. */
ta_status ta_kernel_fill(size_t n, size_t elem_size, const void *value, void *output);

/* BROADCAST_TO (fill.c): out dims `out_shape` (rank <= 6); in_shape is the
 * input right-aligned to that rank, each dim equal to the output's or 1. */
typedef struct ta_broadcast_to_params {
    int32_t rank;
    int32_t in_shape[TA_KERNEL_MAX_BROADCAST_RANK];
    int32_t out_shape[TA_KERNEL_MAX_BROADCAST_RANK];
    int32_t elem_size;
} ta_broadcast_to_params;
ta_status ta_kernel_broadcast_to(const ta_broadcast_to_params *p, const void *input, void *output);

/* SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND (space_batch.c), NHWC (3-D
 * tensors as W = 1): TFLM's reference loops.  `in`/`out` the 4-D shapes,
 * pad_top/pad_left the paddings (space to batch) or crops (batch to space).
 * Space to batch fills padded positions with raw zero bytes (TFLM's, also
 * for int8 with a non-zero zero point). */
typedef struct ta_space_batch_params {
    ta_dims4 in, out;
    int32_t block_h, block_w;
    int32_t pad_top, pad_left;
    int32_t elem_size;
} ta_space_batch_params;
ta_status ta_kernel_space_to_batch(const ta_space_batch_params *p, const void *input, void *output);
ta_status ta_kernel_batch_to_space(const ta_space_batch_params *p, const void *input, void *output);

/* MIRROR_PAD (mirror_pad.c), rank <= 5: output index i along a dim maps to
 * the input index TFLM's GetInputDimension gives (offset 1 REFLECT, 0
 * SYMMETRIC). */
typedef struct ta_mirror_pad_params {
    int32_t rank;
    int32_t in_shape[TA_KERNEL_MAX_PAD_RANK];
    int32_t before[TA_KERNEL_MAX_PAD_RANK];
    int32_t after[TA_KERNEL_MAX_PAD_RANK];
    int32_t offset;    /* 1 REFLECT, 0 SYMMETRIC */
    int32_t elem_size;
} ta_mirror_pad_params;
ta_status ta_kernel_mirror_pad(const ta_mirror_pad_params *p, const void *input, void *output);

/* RESIZE_BILINEAR (resize_bilinear.c), NHWC: TFLM's ResizeBilinear (float,
 * float weights, same evaluation order) and ResizeBilinearInteger (int8,
 * 10-bit fixed-point weights, double rounding). */
typedef struct ta_resize_bilinear_params {
    ta_dims4 in;
    int32_t out_h, out_w;
    bool align_corners, half_pixel_centers;
} ta_resize_bilinear_params;
ta_status ta_kernel_resize_bilinear_f32(const ta_resize_bilinear_params *p, const float *input, float *output);
ta_status ta_kernel_resize_bilinear_s8(const ta_resize_bilinear_params *p, const int8_t *input, int8_t *output);

/* ARG_MAX / ARG_MIN (reduce.c): over the middle dim of [outer, axis, inner];
 * the first index of the extreme on ties (TFLM's strict compare).  `type`
 * float32, int8 or int32; output int32 or int64 (out_size 4 or 8). */
typedef struct ta_arg_params {
    int64_t outer, inner;
    int32_t axis_size;
    ta_dtype type;
    int32_t out_size;
    bool is_min;
} ta_arg_params;
ta_status ta_kernel_arg_min_max(const ta_arg_params *p, const void *input, void *output);

/* REDUCE_MAX, REDUCE_MIN, SUM (reduce.c) over the axes of a ta_mean_params
 * (ta_mean_axes): every input element in linear order folded into its
 * output element, TFLM's ReduceGeneric.  Max/min: float32 and int8 (one
 * quantisation: values compared raw).  Sum: float32, and int8/int16 as
 * TFLM's QuantizedMeanOrSum with compute_sum -- int32 sums in scratch
 * (ta_kernel_mean_s8_scratch_bytes), then clamp(zp_out + ta_q_mul(sum -
 * zp_in * N, mult, shift)). */
typedef enum { TA_REDUCE_MAX = 0, TA_REDUCE_MIN, TA_REDUCE_SUM } ta_reduce_kind;
ta_status ta_kernel_reduce(const ta_mean_params *p, ta_reduce_kind kind, ta_dtype type, const void *input,
                           void *output, void *scratch, size_t scratch_bytes);

/* ADD_N and CUMSUM int8 (add_n.c): TFLM's arithmetic -- every
 * term (x - zp_in) << 20 scaled by in_mult/in_shift (1/2), summed in int32,
 * then scaled by out_mult/out_shift (2 s_in / (2^20 s_out)) + zp_out,
 * clamped.  TFLM's sum starts at the scaled input offset (-zp_in), not at
 * 0: the NOTE quirk, reproduced. */
typedef struct ta_sum_q_params {
    int32_t input_offset; /* -zp_in */
    int32_t output_offset;
    int32_t in_mult, in_shift, out_mult, out_shift;
    int32_t act_min, act_max;
} ta_sum_q_params;
ta_status ta_sum_q_prepare(ta_sum_q_params *p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp);
ta_status ta_kernel_add_n_s8(const ta_sum_q_params *p, size_t n, uint32_t n_in, const int8_t *const *inputs,
                             int8_t *output);
ta_status ta_kernel_add_n_f32(size_t n, uint32_t n_in, const float *const *inputs, float *output);

/* CUMSUM (add_n.c) along the middle dim of [outer, depth, inner]. */
typedef struct ta_cumsum_params {
    int64_t outer, inner;
    int32_t depth;
    bool exclusive, reverse;
    ta_sum_q_params q; /* int8 */
} ta_cumsum_params;
ta_status ta_kernel_cumsum_f32(const ta_cumsum_params *p, const float *input, float *output);
ta_status ta_kernel_cumsum_s8(const ta_cumsum_params *p, const int8_t *input, int8_t *output);

#ifdef __cplusplus
}
#endif
#endif
