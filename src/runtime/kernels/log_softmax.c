/*
 * LOG_SOFTMAX over the last axis: TFLM's reference LogSoftmax (float) and
 * its int8 LogSoftmaxQuantized.
 *
 * int8 steps, per row (output scale 16/256, zero point 127):
 *  1. max of the row; every d = x - max >= diff_min is rescaled to Q5.26
 *     (input_mult, input_left_shift: beta 1, as SOFTMAX's prepare) and
 *     exp(d) (Q0.31) is summed in Q12.19;
 *  2. log(sum) in Q5.26 by gemmlowp's log_x_for_x_greater_than_or_equal_to_1
 *     (written out below: split off the power of two, a rational
 *     approximation of log on [sqrt(1/2), 1], Newton-Raphson reciprocal);
 *  3. elements at or below an adjusted diff_min (the smallest difference
 *     the output can show, the log sum taken back to input units through
 *     the reverse multiplier) give -128; others (d - log sum), from Q5.26 to
 *     Q4 by a rounding shift of 22, + 127, clamped.
 */
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

enum { kDiffBits = 5, kSumBits = 12, kOutBits = 4 };

ta_status ta_log_softmax_prepare_s8(ta_log_softmax_params *p, float in_scale) {
    if (!p) return TA_E_INVALID_ARG;
    ta_softmax_params sp;
    ta_status st = ta_softmax_prepare_s8(&sp, 1.0f, in_scale);
    if (st) return st;
    /* the reverse divisor needs 2^(31 - shift) to be a positive int in
     * TFLM's arithmetic and a multiplier below one */
    if (sp.input_left_shift < 1 || sp.input_left_shift > 30 || sp.input_mult <= 0) return TA_E_UNSUPPORTED;
    p->input_mult = sp.input_mult;
    p->input_left_shift = sp.input_left_shift;
    p->diff_min = sp.diff_min;
    const double rev = (double)(INT64_C(1) << (31 - sp.input_left_shift)) / (double)sp.input_mult;
    if (!(rev > 0.0 && rev < 1.0)) return TA_E_UNSUPPORTED;
    ta_quant_multiplier(rev, &p->reverse_mult, &p->reverse_shift);
    if (p->reverse_shift > 0 || p->reverse_shift < -31) return TA_E_UNSUPPORTED;
    return TA_OK;
}

ta_status ta_kernel_log_softmax_f32(const ta_log_softmax_params *p, const float *input, float *output) {
    if (!p || !input || !output || p->outer < 0 || p->depth <= 0) return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->outer; i++) {
        const float *x = input + (size_t)i * (size_t)p->depth;
        float *y = output + (size_t)i * (size_t)p->depth;
        float mx = -3.402823466e+38f;
        for (int32_t c = 0; c < p->depth; c++) mx = x[c] > mx ? x[c] : mx;
        float sum = 0.0f;
        for (int32_t c = 0; c < p->depth; c++) sum += expf(x[c] - mx);
        const float log_sum = logf(sum);
        for (int32_t c = 0; c < p->depth; c++) y[c] = x[c] - mx - log_sum;
    }
    return TA_OK;
}

/* gemmlowp RoundingHalfSum on int32: (a + b) / 2 rounded away from zero. */
static int32_t half_sum(int32_t a, int32_t b) {
    const int64_t s = (int64_t)a + b;
    return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

static int32_t sat_add(int32_t a, int32_t b) {
    const int64_t s = (int64_t)a + b;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

static int32_t sat_sub(int32_t a, int32_t b) {
    const int64_t s = (int64_t)a - b;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

static int clz32(uint32_t u) {
    int n = 0;
    if (!u) return 32;
    while (!(u & 0x80000000u)) {
        u <<= 1;
        n++;
    }
    return n;
}

/* log(x) for x >= 1: x in Q(in_bits), result in Q5.26 (accumulated in
 * Q6.25, one bit of headroom for the power-of-two part).  x = 2^k * r with
 * r in [sqrt(1/2), 1) taken two ways (r_a from x's headroom, r_b from
 * x * sqrt(1/2)'s), the smaller r and the matching k; then log(r) from the
 * rational approximation num / (1 + denom) in q = 2 (r - 2^-1/4). */
static int32_t log_ge1_q5(int32_t x, int in_bits) {
    const int accum_bits = kDiffBits + 1;
    const int32_t ln2 = 1488522236;            /* log(2) in Q0.31 */
    const int32_t sqrt_sqrt_half = 1805811301; /* 2^-1/4 */
    const int32_t sqrt_half = 1518500250;      /* 2^-1/2 */
    const int32_t quarter = 536870912;
    const int32_t alpha_n = 117049297;                             /* 11/240 * 2^1/4 */
    const int32_t alpha_d = 127690142;                             /* 1/20 * 2^1/4 */
    const int32_t alpha_i = 1057819769;                            /* 2 / 2^1/4 - 2^1/4 */
    const int32_t alpha_f = 638450708;                             /* 1/4 * 2^1/4 */
    const int32_t quarter_acc = ta_q_div_pot(quarter, accum_bits); /* 1/4 in Q6.25 */

    const int hr_a = clz32((uint32_t)x); /* headroom + 1 */
    const int32_t ra_tmp = ta__sat_shl(x, hr_a - 1);
    const int32_t r_a = ta__sat_shl(ta_q_high_mul(ra_tmp, sqrt_half), 1);
    const int32_t k_a = sat_add(ta__sat_shl(in_bits - hr_a, 31 - accum_bits), quarter_acc);

    const int32_t z_b = ta_q_high_mul(x, sqrt_half);
    const int hr_b = clz32((uint32_t)z_b) - 1;
    const int32_t r_b = ta__sat_shl(x, hr_b);
    const int32_t k_b = sat_sub(ta__sat_shl(in_bits - hr_b, 31 - accum_bits), quarter_acc);

    const int32_t r = r_a < r_b ? r_a : r_b;
    const int32_t k = k_a > k_b ? k_a : k_b;

    const int32_t pp = half_sum(r, sqrt_sqrt_half);
    int32_t q = ta__wsub(r, sqrt_sqrt_half);
    q = ta__wadd(q, q);
    const int32_t q2 = ta_q_high_mul(q, q);
    const int32_t num = ta__wadd(ta_q_high_mul(q, r), ta_q_high_mul(ta_q_high_mul(q, q2), alpha_n));
    const int32_t inner = ta__wadd(ta__wadd(alpha_i, q), ta_q_high_mul(alpha_d, q2));
    const int32_t den = ta__wadd(ta_q_high_mul(pp, inner), ta_q_high_mul(alpha_f, q));
    const int32_t recip = ta__one_over_one_plus_x(den);
    const int32_t num_acc = ta_q_div_pot(num, accum_bits);
    const int32_t sum = ta__wadd(ta_q_high_mul(k, ln2), ta_q_high_mul(num_acc, recip));
    return ta__sat_shl(sum, accum_bits - kDiffBits); /* Q6.25 -> Q5.26 */
}

ta_status ta_kernel_log_softmax_s8(const ta_log_softmax_params *p, const int8_t *input, int8_t *output) {
    if (!p || !input || !output || p->outer < 0 || p->depth <= 0) return TA_E_INVALID_ARG;
    if (p->input_left_shift < 0 || p->input_left_shift > 30 || p->reverse_shift > 0 || p->reverse_shift < -31)
        return TA_E_INVALID_ARG;
    for (int32_t i = 0; i < p->outer; i++) {
        const int8_t *x = input + (size_t)i * (size_t)p->depth;
        int8_t *y = output + (size_t)i * (size_t)p->depth;
        int32_t mx = -128;
        for (int32_t c = 0; c < p->depth; c++) mx = x[c] > mx ? x[c] : mx;
        int32_t sum = 0; /* Q12.19 */
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t d = x[c] - mx;
            if (d < p->diff_min) continue;
            const int32_t d5 = ta_q_mul(d, p->input_mult, p->input_left_shift);
            sum = ta__wadd(sum, ta_q_div_pot(ta__exp_on_negative(d5, kDiffBits), kSumBits));
        }
        const int32_t log_sum = log_ge1_q5(sum, kSumBits);
        const int32_t back = ta_q_mul(ta__wadd(log_sum, INT32_MIN), p->reverse_mult, p->reverse_shift);
        const int32_t adj_min = p->diff_min - 1 > back ? p->diff_min - 1 : back;
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t d = x[c] - mx;
            if (d > adj_min) {
                const int32_t d5 = ta_q_mul(d, p->input_mult, p->input_left_shift);
                int32_t o = ta__wadd(ta_q_div_pot(ta__wsub(d5, log_sum), 31 - kDiffBits - kOutBits), 127);
                y[c] = (int8_t)(o > 127 ? 127 : o < -128 ? -128 : o);
            } else {
                y[c] = -128;
            }
        }
    }
    return TA_OK;
}
