/*
 * Fixed-point helpers shared by the kernels: TFLM's multiplier derivation,
 * gemmlowp's rounding primitives, activation ranges, padding, and the
 * gemmlowp transcendental functions (exp, 1/(1+x), logistic, tanh).
 *
 * Every function reproduces the *results* of TFLM's C++ (which leans on
 * wrapping signed arithmetic and arithmetic right shifts) with C that is
 * well defined: products are formed in int64, shifts of negative values go
 * through ta__asr, and wrap-around is spelled out with unsigned casts.
 */
#include <float.h>
#include <math.h>

#include "runtime/kernels/fixedpoint.h"
#include "tinyarena/kernels.h"

/* Steps (TFLM QuantizeMultiplier):
 * 1. frexp: real = q * 2^e with q in [0.5, 1).
 * 2. q_fixed = round(q * 2^31), ties away from zero (std::round).
 * 3. q_fixed == 2^31 (q rounded up to 1.0): halve it and bump e.
 * 4. e < -31: every bit would shift out, flush to (0, 0). */
void ta_quant_multiplier(double real, int32_t *multiplier, int32_t *shift) {
    if (real == 0.0 || !(real == real)) {
        *multiplier = 0;
        *shift = 0;
        return;
    }
    /* An infinite ratio (a float product that overflowed in a hostile
     * model's scales) has no fixed-point form: give a shift no caller
     * accepts (every one refuses shifts above 30), without converting inf
     * to an integer. */
    if (real > DBL_MAX || real < -DBL_MAX) {
        *multiplier = INT32_MAX;
        *shift = 127;
        return;
    }
    int e = 0;
    double q = frexp(real, &e);
    int64_t q_fixed = (int64_t)round(q * 2147483648.0);
    if (q_fixed == (INT64_C(1) << 31)) {
        q_fixed /= 2;
        ++e;
    }
    if (e < -31) {
        e = 0;
        q_fixed = 0;
    }
    *multiplier = (int32_t)q_fixed;
    *shift = e;
}

int32_t ta_q_high_mul(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t ab = (int64_t)a * (int64_t)b;
    int64_t nudge = ab >= 0 ? (INT64_C(1) << 30) : (1 - (INT64_C(1) << 30));
    /* C division truncates toward zero, like the C++ it mirrors. */
    return (int32_t)((ab + nudge) / (INT64_C(1) << 31));
}

int32_t ta_q_div_pot(int32_t x, int32_t exponent) {
    if (exponent <= 0) return x;
    uint32_t mask = (uint32_t)((UINT64_C(1) << exponent) - 1);
    int32_t remainder = (int32_t)((uint32_t)x & mask);
    int32_t threshold = (int32_t)(mask >> 1) + (x < 0 ? 1 : 0);
    return ta__asr(x, exponent) + (remainder > threshold ? 1 : 0);
}

int32_t ta_q_mul(int32_t x, int32_t multiplier, int32_t shift) {
    int left = shift > 0 ? shift : 0;
    int right = shift > 0 ? 0 : -shift;
    /* TFLM multiplies by (1 << left) in int32; wrap like the hardware does. */
    int32_t shifted = (int32_t)((uint32_t)x << left);
    return ta_q_div_pot(ta_q_high_mul(shifted, multiplier), right);
}

int32_t ta_q_mul64(int64_t x, int32_t multiplier, int32_t shift) {
    /* Steps: round the Q31 multiplier to Q15, multiply in 64 bits, one
     * rounding right shift by 15 - shift (round half up, as TFLM adds
     * 2^(n-1) and shifts arithmetically). */
    int32_t reduced = multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
    int total_shift = 15 - shift;
    int64_t round_ = INT64_C(1) << (total_shift - 1);
    int64_t r = x * (int64_t)reduced + round_;
    r = r >= 0 ? (r >> total_shift) : ~((~r) >> total_shift);
    return (int32_t)r;
}

ta_status ta_quant_activation_range(ta_activation act, float out_scale, int32_t out_zero_point,
                                    ta_dtype type, int32_t *act_min, int32_t *act_max) {
    if (!act_min || !act_max) return TA_E_INVALID_ARG;
    int32_t qmin, qmax;
    switch (type) {
    case TA_DTYPE_INT8: qmin = -128; qmax = 127; break;
    case TA_DTYPE_UINT8: qmin = 0; qmax = 255; break;
    case TA_DTYPE_INT16: qmin = -32768; qmax = 32767; break;
    default: return TA_E_UNSUPPORTED;
    }
    /* TFLM: zero_point + (int32_t)round(f / scale) with f and scale floats.
     * Clamp the float before converting so absurd scales stay defined. */
    float lo = 0.0f, hi = 0.0f;
    bool has_lo = false, has_hi = false;
    switch (act) {
    case TA_ACT_NONE: break;
    case TA_ACT_RELU: lo = 0.0f; has_lo = true; break;
    case TA_ACT_RELU6: lo = 0.0f; hi = 6.0f; has_lo = has_hi = true; break;
    case TA_ACT_RELU_N1_TO_1: lo = -1.0f; hi = 1.0f; has_lo = has_hi = true; break;
    default: return TA_E_UNSUPPORTED;
    }
    *act_min = qmin;
    *act_max = qmax;
    if (has_lo || has_hi) {
        if (!(out_scale > 0.0f)) return TA_E_INVALID_ARG;
    }
    if (has_lo) {
        float r = roundf(lo / out_scale);
        int64_t v = (int64_t)out_zero_point + (r < -4e9f ? INT64_C(-4000000000) : r > 4e9f ? INT64_C(4000000000) : (int64_t)r);
        if (v > qmin) *act_min = v > qmax ? qmax : (int32_t)v;
    }
    if (has_hi) {
        float r = roundf(hi / out_scale);
        int64_t v = (int64_t)out_zero_point + (r < -4e9f ? INT64_C(-4000000000) : r > 4e9f ? INT64_C(4000000000) : (int64_t)r);
        if (v < qmax) *act_max = v < qmin ? qmin : (int32_t)v;
    }
    return TA_OK;
}

ta_status ta_float_activation_range(ta_activation act, float *act_min, float *act_max) {
    if (!act_min || !act_max) return TA_E_INVALID_ARG;
    switch (act) {
    case TA_ACT_NONE: *act_min = -FLT_MAX; *act_max = FLT_MAX; return TA_OK;
    case TA_ACT_RELU: *act_min = 0.0f; *act_max = FLT_MAX; return TA_OK;
    case TA_ACT_RELU6: *act_min = 0.0f; *act_max = 6.0f; return TA_OK;
    case TA_ACT_RELU_N1_TO_1: *act_min = -1.0f; *act_max = 1.0f; return TA_OK;
    default: return TA_E_UNSUPPORTED;
    }
}

ta_status ta_int32_activation_range(ta_activation act, int32_t *act_min, int32_t *act_max) {
    if (!act_min || !act_max) return TA_E_INVALID_ARG;
    switch (act) {
    case TA_ACT_NONE: *act_min = INT32_MIN; *act_max = INT32_MAX; return TA_OK;
    case TA_ACT_RELU: *act_min = 0; *act_max = INT32_MAX; return TA_OK;
    case TA_ACT_RELU6: *act_min = 0; *act_max = 6; return TA_OK;
    case TA_ACT_RELU_N1_TO_1: *act_min = -1; *act_max = 1; return TA_OK;
    default: return TA_E_UNSUPPORTED;
    }
}

ta_status ta_quant_conv_multipliers(float in_scale, const float *w_scales, uint32_t n_scales,
                                    float out_scale, uint32_t channels, int32_t *multipliers,
                                    int8_t *shifts) {
    if (!w_scales || !multipliers || !shifts) return TA_E_INVALID_ARG;
    if (n_scales != 1 && n_scales != channels) return TA_E_INVALID_ARG;
    if (!(out_scale > 0.0f)) return TA_E_INVALID_ARG;
    for (uint32_t c = 0; c < channels; c++) {
        double ws = (double)w_scales[n_scales == 1 ? 0 : c];
        double real = (double)in_scale * ws / (double)out_scale;
        int32_t sh;
        ta_quant_multiplier(real, &multipliers[c], &sh);
        if (sh > 127 || sh < -128) return TA_E_UNSUPPORTED;
        shifts[c] = (int8_t)sh;
    }
    return TA_OK;
}

double ta_quant_fc_real_multiplier(float in_scale, float w_scale, float out_scale) {
    float product = in_scale * w_scale; /* float on purpose: TFLM multiplies the floats */
    return (double)product / (double)out_scale;
}

int32_t ta_kernel_out_size(ta_padding padding, int32_t in, int32_t filter, int32_t stride,
                           int32_t dilation) {
    if (stride <= 0) return 0;
    int64_t eff = (int64_t)(filter - 1) * dilation + 1;
    int64_t r;
    if (padding == TA_PAD_SAME) r = ((int64_t)in + stride - 1) / stride;
    else r = ((int64_t)in + stride - eff) / stride;
    return (int32_t)r;
}

int32_t ta_kernel_padding(int32_t stride, int32_t dilation, int32_t in, int32_t filter,
                          int32_t out, int32_t *offset) {
    int64_t eff = (int64_t)(filter - 1) * dilation + 1;
    int64_t total = ((int64_t)out - 1) * stride + eff - in;
    if (total < 0) total = 0;
    if (offset) *offset = (int32_t)(total % 2);
    return (int32_t)(total / 2);
}

/* ---- gemmlowp transcendental functions ---------------------------------- */

int32_t ta__sat_shl(int32_t x, int e) {
    if (e <= 0) return x;
    int32_t threshold = (int32_t)((UINT32_C(1) << (31 - e)) - 1);
    if (x > threshold) return INT32_MAX;
    if (x < -threshold) return INT32_MIN;
    return (int32_t)((uint32_t)x << e);
}

/* exp(a) for a in [-1/4, 0), Q0: Taylor series around -1/8. */
static int32_t exp_on_quarter_interval(int32_t a) {
    const int32_t constant_term = 1895147668;   /* exp(-1/8) in Q0 */
    const int32_t constant_1_over_3 = 715827883;
    int32_t x = ta__wadd(a, 1 << 28);           /* x = a + 1/8 */
    int32_t x2 = ta_q_high_mul(x, x);
    int32_t x3 = ta_q_high_mul(x2, x);
    int32_t x4 = ta_q_high_mul(x2, x2);
    int32_t x4_over_4 = ta_q_div_pot(x4, 2);
    int32_t poly = ta_q_div_pot(
        ta__wadd(ta_q_high_mul(ta__wadd(x4_over_4, x3), constant_1_over_3), x2), 1);
    return ta__wadd(constant_term, ta_q_high_mul(constant_term, ta__wadd(x, poly)));
}

/* Steps (gemmlowp exp_on_negative_values):
 * 1. Split a = r + k/4 with r in [-1/4, 0): exp(r) by the Taylor series.
 * 2. Multiply in exp(-2^j) for every bit j set in the rest (barrel shifter).
 * 3. Inputs below -32 give 0 (only reachable with > 5 integer bits); a == 0
 *    gives one (INT32_MAX in Q0). */
int32_t ta__exp_on_negative(int32_t a, int int_bits) {
    const int frac_bits = 31 - int_bits;
    const int32_t one_quarter = (int32_t)1 << (frac_bits - 2);
    const int32_t mask = one_quarter - 1;
    int32_t a_mod = ta__wsub((int32_t)((uint32_t)a & (uint32_t)mask), one_quarter);
    int32_t result = exp_on_quarter_interval(ta__sat_shl(a_mod, int_bits));
    int32_t remainder = ta__wsub(a_mod, a);
    static const int32_t k_mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                      39332535,   720401,     242};
    for (int exponent = -2; exponent <= 4; exponent++) {
        if (int_bits > exponent) {
            int sh = frac_bits + exponent;
            if (sh >= 0 && sh < 31 && ((uint32_t)remainder & (UINT32_C(1) << sh)))
                result = ta_q_high_mul(result, k_mult[exponent + 2]);
        }
    }
    if (int_bits > 5) {
        int clamp_b = 36 - int_bits;
        int32_t clamp = -((int32_t)1 << clamp_b);
        if (a < clamp) result = 0;
    }
    if (a == 0) result = INT32_MAX;
    return result;
}

/* Newton-Raphson for 1/(1+a) in Q2 (three iterations), as gemmlowp. */
static int32_t newton_reciprocal_q2(int32_t a, int32_t *half_denominator_out) {
    int64_t sum = (int64_t)a + INT32_MAX;
    int64_t sign = sum >= 0 ? 1 : -1;
    int32_t half_denominator = (int32_t)((sum + sign) / 2);
    const int32_t c48_17 = 1515870810;
    const int32_t cneg32_17 = -1010580540;
    int32_t x = ta__wadd(c48_17, ta_q_high_mul(half_denominator, cneg32_17));
    for (int i = 0; i < 3; i++) {
        int32_t hdx = ta_q_high_mul(half_denominator, x);
        int32_t one_minus = ta__wsub((int32_t)1 << 29, hdx);
        x = ta__wadd(x, ta__sat_shl(ta_q_high_mul(x, one_minus), 2));
    }
    if (half_denominator_out) *half_denominator_out = half_denominator;
    return x;
}

int32_t ta__one_over_one_plus_x(int32_t a) {
    int32_t x = newton_reciprocal_q2(a, NULL);
    return ta__sat_shl(x, 1); /* Q2 -> (exact halving) Q1 -> Q0 */
}

int32_t ta__one_minus_x_over_one_plus_x(int32_t a) {
    int32_t x = newton_reciprocal_q2(a, NULL);
    return ta__sat_shl(ta__wsub(x, (int32_t)1 << 29), 2);
}

int32_t ta__logistic(int32_t a, int int_bits) {
    if (a == 0) return (int32_t)1 << 30;
    int32_t abs_a = a > 0 ? a : ta__wsub(0, a);
    int32_t pos = ta__one_over_one_plus_x(ta__exp_on_negative(ta__wsub(0, abs_a), int_bits));
    return a > 0 ? pos : ta__wsub(INT32_MAX, pos);
}

int32_t ta__tanh(int32_t a, int int_bits) {
    if (a == 0) return 0;
    int32_t n = a < 0 ? a : ta__wsub(0, a);
    /* exp(2n): same raw read with one more integer bit */
    int32_t t = ta__one_minus_x_over_one_plus_x(ta__exp_on_negative(n, int_bits + 1));
    return a < 0 ? ta__wsub(0, t) : t;
}

static int clz32(uint32_t x) {
    if (x == 0) return 32;
    int n = 0;
    while (!(x & UINT32_C(0x80000000))) {
        x <<= 1;
        n++;
    }
    return n;
}

int32_t ta__reciprocal(int32_t x, int x_int_bits, int *num_bits_over_unit) {
    int headroom_plus_one = clz32((uint32_t)x);
    *num_bits_over_unit = x_int_bits - headroom_plus_one;
    uint32_t shifted = headroom_plus_one >= 32 ? 0 : ((uint32_t)x << headroom_plus_one);
    int32_t shifted_minus_one = (int32_t)(shifted - (UINT32_C(1) << 31));
    return ta__one_over_one_plus_x(shifted_minus_one);
}

int32_t ta__input_radius(int int_bits, int left_shift, int total_signed_bits) {
    double max_rescaled = 1.0 * (double)((1 << int_bits) - 1) *
                          (double)(INT64_C(1) << (total_signed_bits - int_bits)) /
                          (double)(INT64_C(1) << left_shift);
    return (int32_t)floor(max_rescaled);
}

/* ---- broadcasting ------------------------------------------------------- */

ta_status ta_broadcast_init(ta_broadcast *b, const int32_t *shape1, int32_t rank1,
                            const int32_t *shape2, int32_t rank2) {
    if (!b || rank1 < 0 || rank2 < 0 || rank1 > TA_KERNEL_MAX_BROADCAST_RANK ||
        rank2 > TA_KERNEL_MAX_BROADCAST_RANK || (rank1 && !shape1) || (rank2 && !shape2))
        return TA_E_INVALID_ARG;
    int32_t rank = rank1 > rank2 ? rank1 : rank2;
    b->rank = rank;
    for (int32_t i = 0; i < rank; i++) {
        int32_t j1 = i - (rank - rank1), j2 = i - (rank - rank2);
        int32_t d1 = j1 >= 0 ? shape1[j1] : 1, d2 = j2 >= 0 ? shape2[j2] : 1;
        if (d1 < 0 || d2 < 0) return TA_E_INVALID_ARG;
        if (d1 != d2 && d1 != 1 && d2 != 1) return TA_E_INVALID_ARG;
        b->in1[i] = d1;
        b->in2[i] = d2;
        b->out[i] = d1 == 1 ? d2 : d1;
    }
    return TA_OK;
}

ta_status ta__bcast_begin(ta__bcast_iter *it, const ta_broadcast *b, int64_t *n) {
    if (!b || b->rank < 0 || b->rank > TA_KERNEL_MAX_BROADCAST_RANK) return TA_E_INVALID_ARG;
    it->rank = b->rank;
    int64_t count = 1, st1 = 1, st2 = 1;
    for (int32_t i = b->rank - 1; i >= 0; i--) {
        int32_t o = b->out[i], d1 = b->in1[i], d2 = b->in2[i];
        if (o < 0 || (d1 != o && d1 != 1) || (d2 != o && d2 != 1)) return TA_E_INVALID_ARG;
        it->idx[i] = 0;
        it->s1[i] = d1 == 1 ? 0 : st1;
        it->s2[i] = d2 == 1 ? 0 : st2;
        st1 *= d1;
        st2 *= d2;
        count *= o;
        if (count > (INT64_C(1) << 40)) return TA_E_INVALID_ARG;
    }
    it->o1 = it->o2 = 0;
    *n = count;
    return TA_OK;
}

void ta__bcast_next(ta__bcast_iter *it, const ta_broadcast *b) {
    for (int32_t i = it->rank - 1; i >= 0; i--) {
        it->idx[i]++;
        it->o1 += it->s1[i];
        it->o2 += it->s2[i];
        if (it->idx[i] < b->out[i]) return;
        it->o1 -= it->s1[i] * it->idx[i];
        it->o2 -= it->s2[i] * it->idx[i];
        it->idx[i] = 0;
    }
}
