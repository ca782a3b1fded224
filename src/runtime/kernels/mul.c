/*
 * MUL with broadcasting, int8, float32 and int32: TFLM reference_integer_ops::Mul /
 * BroadcastMul6DSlow and reference_ops::Mul.
 *
 * Quantised steps, per element: (x - zp1) * (y - zp2) in int32, requantise
 * by s1 * s2 / s_out (computed in double at prepare), + output zero point,
 * clamp.
 */
#include "runtime/kernels/fixedpoint.h"
#include "runtime/kernels/binary_common.h"

ta_status ta_mul_prepare(ta_mul_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                         int32_t zp2, float s_out, int32_t zp_out, ta_activation act) {
    if (!p) return TA_E_INVALID_ARG;
    if (type == TA_DTYPE_FLOAT32) return ta_float_activation_range(act, &p->f_act_min, &p->f_act_max);
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_UNSUPPORTED;
    if (!(s_out > 0.0f)) return TA_E_INVALID_ARG;
    p->input1_offset = -zp1;
    p->input2_offset = -zp2;
    p->output_offset = zp_out;
    const double real = (double)s1 * (double)s2 / (double)s_out;
    ta_quant_multiplier(real, &p->output_mult, &p->output_shift);
    return ta_quant_activation_range(act, s_out, zp_out, type, &p->act_min, &p->act_max);
}

ta_status ta_kernel_mul_s8(const ta_mul_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out) {
    if (!p || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        const int32_t a = p->input1_offset + in1[it.o1];
        const int32_t b = p->input2_offset + in2[it.o2];
        int32_t v = ta__wadd(p->output_offset, ta_q_mul(a * b, p->output_mult, p->output_shift));
        if (v < p->act_min) v = p->act_min;
        if (v > p->act_max) v = p->act_max;
        out[i] = (int8_t)v;
    }
    return TA_OK;
}

ta_status ta_kernel_mul_f32(const ta_mul_params *p, const float *in1, const float *in2,
                            float *out) {
    if (!p) return TA_E_INVALID_ARG;
    return ta__binary_f32(&p->shape, TA__BIN_MUL, p->f_act_min, p->f_act_max, in1, in2, out);
}

ta_status ta_kernel_mul_s32(const ta_mul_params *p, const int32_t *in1, const int32_t *in2, int32_t *out) {
    if (!p || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        /* the int32 product, wrapping (TFLM's overflows are undefined) */
        int32_t v = (int32_t)(uint32_t)((uint64_t)(int64_t)in1[it.o1] * (uint64_t)(int64_t)in2[it.o2]);
        if (v < p->act_min) v = p->act_min;
        if (v > p->act_max) v = p->act_max;
        out[i] = v;
    }
    return TA_OK;
}
