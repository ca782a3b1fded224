/*
 * ADD with NumPy broadcasting, int8/int16 and float32: TFLM reference
 * integer_ops::Add / BroadcastAdd6DSlow and reference_ops::Add.
 *
 * Quantised steps (TFLM's scheme, per element):
 *  1. Remove each input's zero point and shift left by left_shift (20 for
 *     int8 so that 8-bit values gain 20 bits of headroom for the rescale).
 *  2. Rescale both to the shared scale 2 * max(s1, s2) with multipliers < 1.
 *  3. Add, rescale to the output scale, add the output zero point, clamp.
 * Each rescale is MultiplyByQuantizedMultiplierSmallerThanOneExp, which with
 * a non-positive shift is exactly ta_q_mul.
 */
#include "runtime/kernels/fixedpoint.h"
#include "runtime/kernels/binary_common.h"

ta_status ta_addsub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                            int32_t zp2, float s_out, int32_t zp_out, ta_activation act) {
    if (!p) return TA_E_INVALID_ARG;
    if (type == TA_DTYPE_FLOAT32) return ta_float_activation_range(act, &p->f_act_min, &p->f_act_max);
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_UNSUPPORTED;
    if (!(s1 > 0.0f) || !(s2 > 0.0f) || !(s_out > 0.0f)) return TA_E_INVALID_ARG;
    p->input1_offset = -zp1;
    p->input2_offset = -zp2;
    p->output_offset = zp_out;
    p->left_shift = type == TA_DTYPE_INT16 ? 15 : 20;
    const double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    const double r1 = (double)s1 / twice_max;
    const double r2 = (double)s2 / twice_max;
    const double ro = twice_max / ((double)(1 << p->left_shift) * (double)s_out);
    ta_quant_multiplier(r1, &p->input1_mult, &p->input1_shift);
    ta_quant_multiplier(r2, &p->input2_mult, &p->input2_shift);
    ta_quant_multiplier(ro, &p->output_mult, &p->output_shift);
    /* TFLM insists on multipliers below one (QuantizeMultiplierSmallerThanOneExp). */
    if (p->input1_shift > 0 || p->input2_shift > 0 || p->output_shift > 0) return TA_E_UNSUPPORTED;
    return ta_quant_activation_range(act, s_out, zp_out, type, &p->act_min, &p->act_max);
}

int32_t ta__addsub_q(const ta_addsub_params *p, int32_t x, int32_t y, int negate) {
    const int32_t a = (int32_t)((uint32_t)(p->input1_offset + x) << p->left_shift);
    const int32_t b = (int32_t)((uint32_t)(p->input2_offset + y) << p->left_shift);
    const int32_t sa = ta_q_mul(a, p->input1_mult, p->input1_shift);
    const int32_t sb = ta_q_mul(b, p->input2_mult, p->input2_shift);
    const int32_t raw = negate ? ta__wsub(sa, sb) : ta__wadd(sa, sb);
    int32_t out = ta__wadd(ta_q_mul(raw, p->output_mult, p->output_shift), p->output_offset);
    if (out < p->act_min) out = p->act_min;
    if (out > p->act_max) out = p->act_max;
    return out;
}

ta_status ta_kernel_add_s8(const ta_addsub_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out) {
    if (!p || !in1 || !in2 || !out || p->left_shift < 0 || p->left_shift > 30) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape))
        out[i] = (int8_t)ta__addsub_q(p, in1[it.o1], in2[it.o2], 0);
    return TA_OK;
}

ta_status ta_kernel_add_s16(const ta_addsub_params *p, const int16_t *in1, const int16_t *in2,
                            int16_t *out) {
    if (!p || !in1 || !in2 || !out || p->left_shift < 0 || p->left_shift > 30) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape))
        out[i] = (int16_t)ta__addsub_q(p, in1[it.o1], in2[it.o2], 0);
    return TA_OK;
}

ta_status ta_kernel_add_f32(const ta_addsub_params *p, const float *in1, const float *in2,
                            float *out) {
    if (!p || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        float v = in1[it.o1] + in2[it.o2];
        v = v < p->f_act_min ? p->f_act_min : v;
        out[i] = v > p->f_act_max ? p->f_act_max : v;
    }
    return TA_OK;
}
