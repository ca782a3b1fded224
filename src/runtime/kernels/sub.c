/*
 * SUB with broadcasting, int8, int16 and float32: TFLM reference_ops::Sub /
 * BroadcastQuantSubSlow (int16: the same scheme with left_shift 15).  Same rescaling scheme as ADD (see add.c and
 * ta_addsub_prepare), with the two rescaled inputs subtracted.
 */
#include "runtime/kernels/fixedpoint.h"
#include "runtime/kernels/binary_common.h"

ta_status ta_kernel_sub_s8(const ta_addsub_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out) {
    return ta__addsub_q_run(p, 1, 0, in1, in2, out);
}

ta_status ta_kernel_sub_s16(const ta_addsub_params *p, const int16_t *in1, const int16_t *in2,
                            int16_t *out) {
    return ta__addsub_q_run(p, 1, 1, in1, in2, out);
}

ta_status ta_kernel_sub_f32(const ta_addsub_params *p, const float *in1, const float *in2,
                            float *out) {
    if (!p) return TA_E_INVALID_ARG;
    return ta__binary_f32(&p->shape, TA__BIN_SUB, p->f_act_min, p->f_act_max, in1, in2, out);
}

ta_status ta_sub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                         int32_t zp2, float s_out, int32_t zp_out, ta_activation act) {
    return ta__addsub_prepare(p, type, s1, zp1, s2, zp2, s_out, zp_out, act, 1);
}
