/*
 * SUB with broadcasting, int8, int16 and float32: TFLM reference_ops::Sub /
 * BroadcastQuantSubSlow (int16: the same scheme with left_shift 15).  Same rescaling scheme as ADD (see add.c and
 * ta_addsub_prepare), with the two rescaled inputs subtracted.
 */
#include "runtime/kernels/fixedpoint.h"
#include "runtime/kernels/binary_common.h"

ta_status ta_kernel_sub_s8(const ta_addsub_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out) {
    if (!p || !in1 || !in2 || !out || p->left_shift < 0 || p->left_shift > 30) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape))
        out[i] = (int8_t)ta__addsub_q(p, in1[it.o1], in2[it.o2], 1);
    return TA_OK;
}

ta_status ta_kernel_sub_s16(const ta_addsub_params *p, const int16_t *in1, const int16_t *in2,
                            int16_t *out) {
    if (!p || !in1 || !in2 || !out || p->left_shift < 0 || p->left_shift > 30) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape))
        out[i] = (int16_t)ta__addsub_q(p, in1[it.o1], in2[it.o2], 1);
    return TA_OK;
}

ta_status ta_kernel_sub_f32(const ta_addsub_params *p, const float *in1, const float *in2,
                            float *out) {
    if (!p || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        float v = in1[it.o1] - in2[it.o2];
        v = v < p->f_act_min ? p->f_act_min : v;
        out[i] = v > p->f_act_max ? p->f_act_max : v;
    }
    return TA_OK;
}

ta_status ta_sub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                         int32_t zp2, float s_out, int32_t zp_out, ta_activation act) {
    if (!p) return TA_E_INVALID_ARG;
    if (type == TA_DTYPE_FLOAT32) return ta_float_activation_range(act, &p->f_act_min, &p->f_act_max);
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_UNSUPPORTED;
    if (!(s1 > 0.0f) || !(s2 > 0.0f) || !(s_out > 0.0f)) return TA_E_INVALID_ARG;
    p->input1_offset = -zp1;
    p->input2_offset = -zp2;
    p->output_offset = zp_out;
    p->left_shift = type == TA_DTYPE_INT16 ? 15 : 20;
    /* float arithmetic on purpose (see the header) */
    const float twice_max = 2.0f * (s1 > s2 ? s1 : s2);
    const float r1 = s1 / twice_max;
    const float r2 = s2 / twice_max;
    const float ro = twice_max / ((float)(1 << p->left_shift) * s_out);
    ta_quant_multiplier((double)r1, &p->input1_mult, &p->input1_shift);
    ta_quant_multiplier((double)r2, &p->input2_mult, &p->input2_shift);
    ta_quant_multiplier((double)ro, &p->output_mult, &p->output_shift);
    if (p->input1_shift > 0 || p->input2_shift > 0 || p->output_shift > 0) return TA_E_UNSUPPORTED;
    return ta_quant_activation_range(act, s_out, zp_out, type, &p->act_min, &p->act_max);
}
