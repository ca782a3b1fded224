/*
 * Broadcasting binary (and ternary) kernels that are not arithmetic in the
 * ADD/MUL sense: the six comparisons, LOGICAL_AND/OR, SELECT_V2, PRELU,
 * SQUARED_DIFFERENCE and FLOOR_DIV/FLOOR_MOD -- TFLM's comparisons, logical,
 * select, prelu, squared_difference, floor_div and floor_mod kernels.
 *
 * Every kernel walks the output in order with the broadcast walker and
 * reads an element's inputs before it writes the output element.  8-byte
 * elements (int64) are read with memcpy: a constant operand in the model
 * is only promised 4-byte alignment.
 */
#include <math.h>
#include <string.h>

#include "runtime/kernels/fixedpoint.h"

/* ---- comparisons ----------------------------------------------------------- */

ta_status ta_compare_prepare_s8(ta_compare_params *p, float s1, int32_t zp1, float s2, int32_t zp2) {
    if (!p) return TA_E_INVALID_ARG;
    /* TFLM's QuantizeMultiplierSmallerThanOneExp: a scale in (0, 1), whose
     * multiplier then has a right shift only */
    if (!(s1 > 0.0f && s1 < 1.0f) || !(s2 > 0.0f && s2 < 1.0f)) return TA_E_UNSUPPORTED;
    p->input1_offset = -zp1;
    p->input2_offset = -zp2;
    ta_quant_multiplier((double)s1, &p->mult1, &p->shift1);
    ta_quant_multiplier((double)s2, &p->mult2, &p->shift2);
    if (p->shift1 > 0 || p->shift2 > 0 || p->shift1 < -31 || p->shift2 < -31) return TA_E_UNSUPPORTED;
    return TA_OK;
}

static uint8_t cmp(int fn, int lt, int eq) {
    switch (fn) {
        case TA_CMP_EQUAL: return (uint8_t)eq;
        case TA_CMP_NOT_EQUAL: return (uint8_t)!eq;
        case TA_CMP_GREATER: return (uint8_t)(!lt && !eq);
        case TA_CMP_GREATER_EQUAL: return (uint8_t)!lt;
        case TA_CMP_LESS: return (uint8_t)lt;
        default: return (uint8_t)(lt || eq);
    }
}

/* float comparisons must stay IEEE ones (NaN compares unequal and neither
 * less nor greater), so they are spelled out per op rather than through
 * lt/eq */
static uint8_t cmp_f32(int fn, float x, float y) {
    switch (fn) {
        case TA_CMP_EQUAL: return x == y;
        case TA_CMP_NOT_EQUAL: return x != y;
        case TA_CMP_GREATER: return x > y;
        case TA_CMP_GREATER_EQUAL: return x >= y;
        case TA_CMP_LESS: return x < y;
        default: return x <= y;
    }
}

ta_status ta_kernel_compare(const ta_compare_params *p, ta_dtype type, const void *in1, const void *in2,
                            uint8_t *output) {
    if (!p || !in1 || !in2 || !output || p->fn < 0 || p->fn > TA_CMP_LESS_EQUAL) return TA_E_INVALID_ARG;
    if (type == TA_DTYPE_BOOL && p->fn != TA_CMP_EQUAL && p->fn != TA_CMP_NOT_EQUAL) return TA_E_UNSUPPORTED;
    if (type == TA_DTYPE_INT8 && (p->shift1 > 0 || p->shift2 > 0 || p->shift1 < -31 || p->shift2 < -31))
        return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    const int fn = p->fn;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        uint8_t r;
        switch (type) {
            case TA_DTYPE_BOOL: {
                const int x = ((const uint8_t *)in1)[it.o1] != 0, y = ((const uint8_t *)in2)[it.o2] != 0;
                r = cmp(fn, x < y, x == y);
                break;
            }
            case TA_DTYPE_FLOAT32: r = cmp_f32(fn, ((const float *)in1)[it.o1], ((const float *)in2)[it.o2]); break;
            case TA_DTYPE_INT32: {
                const int32_t x = ((const int32_t *)in1)[it.o1], y = ((const int32_t *)in2)[it.o2];
                r = cmp(fn, x < y, x == y);
                break;
            }
            case TA_DTYPE_INT64: {
                int64_t x, y;
                memcpy(&x, (const uint8_t *)in1 + 8 * it.o1, 8);
                memcpy(&y, (const uint8_t *)in2 + 8 * it.o2, 8);
                r = cmp(fn, x < y, x == y);
                break;
            }
            case TA_DTYPE_INT8: {
                /* TFLM's ComparisonWithScaling: both sides on a common real
             * scale, 2^8 finer than either input's, then compared */
                const int32_t x = (p->input1_offset + ((const int8_t *)in1)[it.o1]) * 256;
                const int32_t y = (p->input2_offset + ((const int8_t *)in2)[it.o2]) * 256;
                const int32_t sx = ta_q_mul(x, p->mult1, p->shift1), sy = ta_q_mul(y, p->mult2, p->shift2);
                r = cmp(fn, sx < sy, sx == sy);
                break;
            }
            default: return TA_E_UNSUPPORTED;
        }
        output[i] = r;
    }
    return TA_OK;
}

ta_status ta_kernel_logical(const ta_broadcast *shape, int is_or, const uint8_t *in1, const uint8_t *in2,
                            uint8_t *output) {
    if (!shape || !in1 || !in2 || !output) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, shape)) {
        const int x = in1[it.o1] != 0, y = in2[it.o2] != 0;
        output[i] = (uint8_t)(is_or ? (x || y) : (x && y));
    }
    return TA_OK;
}

/* ---- SELECT_V2 ---------------------------------------------------------------- */

ta_status ta_kernel_select(const ta_select_params *p, size_t elem_size, const uint8_t *cond, const void *x,
                           const void *y, void *output) {
    if (!p || !cond || !x || !y || !output || p->rank < 0 || p->rank > TA_KERNEL_MAX_BROADCAST_RANK)
        return TA_E_INVALID_ARG;
    if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8) return TA_E_INVALID_ARG;
    /* two walkers in lockstep over the same output: (cond, x) and (y, y) */
    ta_broadcast a, b;
    a.rank = b.rank = p->rank;
    for (int32_t d = 0; d < p->rank; d++) {
        a.in1[d] = p->cond[d];
        a.in2[d] = p->x[d];
        b.in1[d] = b.in2[d] = p->y[d];
        a.out[d] = b.out[d] = p->out[d];
    }
    ta__bcast_iter ia, ib;
    int64_t n, n2;
    ta_status st = ta__bcast_begin(&ia, &a, &n);
    if (!st) st = ta__bcast_begin(&ib, &b, &n2);
    if (st) return st;
    const uint8_t *xs = x, *ys = y;
    uint8_t *o = output;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&ia, &a), ta__bcast_next(&ib, &b)) {
        const uint8_t *src = cond[ia.o1] ? xs + (size_t)ia.o2 * elem_size : ys + (size_t)ib.o1 * elem_size;
        memcpy(o + (size_t)i * elem_size, src, elem_size);
    }
    return TA_OK;
}

/* ---- PRELU ---------------------------------------------------------------------- */

ta_status ta_prelu_prepare(ta_prelu_params *p, float s_in, int32_t zp_in, float s_alpha, int32_t zp_alpha, float s_out,
                           int32_t zp_out) {
    if (!p) return TA_E_INVALID_ARG;
    if (!(s_in > 0.0f) || !(s_alpha > 0.0f) || !(s_out > 0.0f)) return TA_E_UNSUPPORTED;
    p->input_zp = zp_in;
    p->alpha_zp = zp_alpha;
    p->output_zp = zp_out;
    /* TFLM: both ratios in double */
    ta_quant_multiplier((double)s_in / (double)s_out, &p->mult1, &p->shift1);
    ta_quant_multiplier((double)s_in * (double)s_alpha / (double)s_out, &p->mult2, &p->shift2);
    if (p->shift1 > 30 || p->shift2 > 30 || p->shift1 < -31 || p->shift2 < -31) return TA_E_UNSUPPORTED;
    return TA_OK;
}

ta_status ta_kernel_prelu_f32(const ta_prelu_params *p, const float *input, const float *alpha, float *output) {
    if (!p || !input || !alpha || !output) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        const float x = input[it.o1];
        output[i] = x >= 0.0f ? x : x * alpha[it.o2];
    }
    return TA_OK;
}

#define PRELU_Q(T, lo, hi)                                                                                             \
    do {                                                                                                               \
        if (!p || !input || !alpha || !output) return TA_E_INVALID_ARG;                                                \
        if (p->shift1 > 30 || p->shift2 > 30 || p->shift1 < -31 || p->shift2 < -31) return TA_E_INVALID_ARG;           \
        ta__bcast_iter it;                                                                                             \
        int64_t n;                                                                                                     \
        ta_status st = ta__bcast_begin(&it, &p->shape, &n);                                                            \
        if (st) return st;                                                                                             \
        for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {                                              \
            /* |v| < 2^16 and |a| < 2^9: the product fits int32 */                                                     \
            const int32_t v = (int32_t)input[it.o1] - p->input_zp;                                                     \
            int32_t o = v >= 0 ? ta_q_mul(v, p->mult1, p->shift1)                                                      \
                               : ta_q_mul(v * ((int32_t)alpha[it.o2] - p->alpha_zp), p->mult2, p->shift2);             \
            o = ta__wadd(o, p->output_zp);                                                                             \
            output[i] = (T)(o < lo ? lo : o > hi ? hi : o);                                                            \
        }                                                                                                              \
        return TA_OK;                                                                                                  \
    } while (0)

ta_status ta_kernel_prelu_s8(const ta_prelu_params *p, const int8_t *input, const int8_t *alpha, int8_t *output) {
    PRELU_Q(int8_t, -128, 127);
}

ta_status ta_kernel_prelu_s16(const ta_prelu_params *p, const int16_t *input, const int8_t *alpha, int16_t *output) {
    PRELU_Q(int16_t, -32768, 32767);
}

/* ---- SQUARED_DIFFERENCE ------------------------------------------------------------ */

ta_status ta_sqdiff_prepare(ta_sqdiff_params *p, ta_dtype type, float s1, int32_t zp1, float s2, int32_t zp2,
                            float s_out, int32_t zp_out) {
    if (!p) return TA_E_INVALID_ARG;
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_UNSUPPORTED;
    if (!(s1 > 0.0f) || !(s2 > 0.0f) || !(s_out > 0.0f)) return TA_E_UNSUPPORTED;
    p->input1_offset = -zp1;
    p->input2_offset = -zp2;
    p->output_zp = zp_out;
    /* 7 keeps 255^2 * 2^14 inside int32 for int8; TFLM's int16 path keeps
     * 0, so int16 inputs are rescaled at their own precision (its NOTE: a
     * few output LSB from the exact result) */
    p->left_shift = type == TA_DTYPE_INT8 ? 7 : 0;
    const double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    ta_quant_multiplier((double)s1 / twice_max, &p->mult1, &p->shift1);
    ta_quant_multiplier((double)s2 / twice_max, &p->mult2, &p->shift2);
    /* TFLM multiplies 2^(2 left_shift) by the output scale in float */
    const float denom = (float)(1 << (p->left_shift * 2)) * s_out;
    ta_quant_multiplier(twice_max * twice_max / (double)denom, &p->out_mult, &p->out_shift);
    if (p->shift1 > 0 || p->shift2 > 0 || p->shift1 < -31 || p->shift2 < -31 || p->out_shift > 30 || p->out_shift < -31)
        return TA_E_UNSUPPORTED;
    return TA_OK;
}

#define SQDIFF_Q(T, lo, hi)                                                                                            \
    do {                                                                                                               \
        const T *a = in1, *b = in2;                                                                                    \
        T *o = output;                                                                                                 \
        for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {                                              \
            const int32_t x = (p->input1_offset + a[it.o1]) * (1 << p->left_shift);                                    \
            const int32_t y = (p->input2_offset + b[it.o2]) * (1 << p->left_shift);                                    \
            const int32_t d = ta_q_mul(x, p->mult1, p->shift1) - ta_q_mul(y, p->mult2, p->shift2);                     \
            int32_t r = ta__wadd(ta_q_mul(d * d, p->out_mult, p->out_shift), p->output_zp);                            \
            o[i] = (T)(r < lo ? lo : r > hi ? hi : r);                                                                 \
        }                                                                                                              \
    } while (0)

ta_status ta_kernel_sqdiff(const ta_sqdiff_params *p, ta_dtype type, const void *in1, const void *in2, void *output) {
    if (!p || !in1 || !in2 || !output) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    if (type == TA_DTYPE_INT8 || type == TA_DTYPE_INT16) {
        if (p->left_shift < 0 || p->left_shift > 7 || p->shift1 > 0 || p->shift2 > 0 || p->shift1 < -31 ||
            p->shift2 < -31 || p->out_shift > 30 || p->out_shift < -31)
            return TA_E_INVALID_ARG;
    }
    switch (type) {
        case TA_DTYPE_FLOAT32: {
            const float *a = in1, *b = in2;
            float *o = output;
            for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
                const float d = a[it.o1] - b[it.o2];
                o[i] = d * d;
            }
            break;
        }
        case TA_DTYPE_INT32: {
            const int32_t *a = in1, *b = in2;
            int32_t *o = output;
            for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
                /* wrapping, as TFLM's int32 arithmetic on its targets */
                const uint32_t d = (uint32_t)a[it.o1] - (uint32_t)b[it.o2];
                o[i] = (int32_t)(d * d);
            }
            break;
        }
        case TA_DTYPE_INT8: SQDIFF_Q(int8_t, -128, 127); break;
        case TA_DTYPE_INT16: SQDIFF_Q(int16_t, -32768, 32767); break;
        default: return TA_E_UNSUPPORTED;
    }
    return TA_OK;
}

/* ---- FLOOR_DIV, FLOOR_MOD ------------------------------------------------------------ */

ta_status ta_kernel_floor_div_mod_f32(const ta_broadcast *shape, int is_mod, const float *in1, const float *in2,
                                      float *output) {
    if (!shape || !in1 || !in2 || !output) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, shape)) {
        const float x = in1[it.o1], y = in2[it.o2];
        float r;
        if (is_mod) {
            /* truncated remainder, moved to the divisor's sign */
            r = fmodf(x, y);
            if (r != 0.0f && ((y < 0.0f) != (r < 0.0f))) r += y;
        } else {
            r = (float)floor((double)x / (double)y);
        }
        output[i] = r;
    }
    return TA_OK;
}
