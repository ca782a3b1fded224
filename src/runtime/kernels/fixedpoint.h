/*
 * Internal: gemmlowp-style fixed-point arithmetic shared by the kernels that
 * TFLM implements with gemmlowp (softmax, logistic, tanh) and the broadcast
 * walker shared by the binary ops.  Not installed.
 *
 * A "Qk" value below is an int32 raw with k integer bits and 31-k fraction
 * bits (gemmlowp FixedPoint<int32_t, k>).  Addition of raws is plain
 * two's-complement addition (gemmlowp does not saturate int32 adds); we wrap
 * explicitly so the sanitiser sees well-defined code.
 */
#ifndef TA_KERNELS_FIXEDPOINT_H
#define TA_KERNELS_FIXEDPOINT_H

#include <stdint.h>

#include "tinyarena/kernels.h"

/* Wrapping int32 add/sub (gemmlowp's raw + and -). */
static inline int32_t ta__wadd(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t ta__wsub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

/* Arithmetic right shift, well defined for negative x. */
static inline int32_t ta__asr(int32_t x, int s) { return x >= 0 ? (x >> s) : ~((~x) >> s); }

/* gemmlowp SaturatingRoundingMultiplyByPOT<e> for e > 0: x * 2^e saturated. */
int32_t ta__sat_shl(int32_t x, int e);

/* gemmlowp exp_on_negative_values for a Q(int_bits) input <= 0; Q0 result. */
int32_t ta__exp_on_negative(int32_t a, int int_bits);

/* gemmlowp one_over_one_plus_x_for_x_in_0_1: Q0 in, Q0 out. */
int32_t ta__one_over_one_plus_x(int32_t a);

/* gemmlowp one_minus_x_over_one_plus_x_for_x_in_0_1: Q0 in, Q0 out. */
int32_t ta__one_minus_x_over_one_plus_x(int32_t a);

/* gemmlowp logistic / tanh of a Q(int_bits) value; Q0 result. */
int32_t ta__logistic(int32_t a, int int_bits);
int32_t ta__tanh(int32_t a, int int_bits);

/* TFLM GetReciprocal: 1 / x for x a Q(x_int_bits) positive value; returns a
 * Q0 raw and the extra exponent in *num_bits_over_unit. */
int32_t ta__reciprocal(int32_t x, int x_int_bits, int *num_bits_over_unit);

/* TFLM CalculateInputRadius. */
int32_t ta__input_radius(int int_bits, int left_shift, int total_signed_bits);

/* TFLM's sigmoid table (sigmoid(i / 24) in Q0.16) for the int16 LUT
 * logistic and tanh (sigmoid_table.c). */
extern const uint16_t ta__sigmoid_table[256];

/* int8 LOGISTIC (is_tanh = 0) and TANH (is_tanh = 1), logistic.c: the same steps
 * (see there) but for the gemmlowp function and the output step. */
ta_status ta__lut_act_s8(const ta_lut_act_params *p, size_t n, const int8_t *input, int8_t *output, int is_tanh);

/* The int16 LUT logistic and tanh's input rescale (TFLM's int16 Logistic /
 * Tanh): x = (in * mult + round) >> left_shift in wrapping int32, where a
 * multiplier of 0 means 3 << left_shift and no shift. */
typedef struct ta__lut_in {
    int32_t mult, left_shift, round;
} ta__lut_in;

static inline ta__lut_in ta__lut_in_make(int32_t mult, int32_t left_shift) {
    if (mult == 0) {
        mult = (int32_t)(3u << left_shift);
        left_shift = 0;
    }
    const ta__lut_in r = {mult, left_shift, left_shift > 0 ? (int32_t)1 << (left_shift - 1) : 0};
    return r;
}

static inline int32_t ta__lut_in_apply(const ta__lut_in *r, int16_t v) {
    return ta__asr((int32_t)((uint32_t)(uint64_t)((int64_t)v * r->mult) + (uint32_t)r->round), r->left_shift);
}

/* Broadcast walker: linear output index -> offsets into in1 and in2. */
typedef struct ta__bcast_iter {
    int32_t rank;
    int32_t idx[TA_KERNEL_MAX_BROADCAST_RANK];
    int64_t s1[TA_KERNEL_MAX_BROADCAST_RANK], s2[TA_KERNEL_MAX_BROADCAST_RANK];
    int64_t o1, o2;
} ta__bcast_iter;

/* Validates b and returns the output element count in *n (TA_E_INVALID_ARG
 * when the shapes do not broadcast). */
ta_status ta__bcast_begin(ta__bcast_iter *it, const ta_broadcast *b, int64_t *n);
/* Advances to the next output element. */
void ta__bcast_next(ta__bcast_iter *it, const ta_broadcast *b);

#endif
