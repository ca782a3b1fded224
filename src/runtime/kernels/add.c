/*
 * ADD with NumPy broadcasting, int8/int16, float32 and int32: TFLM reference
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
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"

ta_status ta__addsub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2, int32_t zp2,
                             float s_out, int32_t zp_out, ta_activation act, int float_ratios) {
    if (!p) return TA_E_INVALID_ARG;
    if (type == TA_DTYPE_FLOAT32) return ta_float_activation_range(act, &p->f_act_min, &p->f_act_max);
    if (type != TA_DTYPE_INT8 && type != TA_DTYPE_INT16) return TA_E_UNSUPPORTED;
    if (!(s1 > 0.0f) || !(s2 > 0.0f) || !(s_out > 0.0f)) return TA_E_INVALID_ARG;
    p->input1_offset = -zp1;
    p->input2_offset = -zp2;
    p->output_offset = zp_out;
    p->left_shift = type == TA_DTYPE_INT16 ? 15 : 20;
    double r1, r2, ro;
    if (float_ratios) {
        /* float arithmetic on purpose (SUB, see ta_sub_prepare in kernels.h) */
        const float twice_max = 2.0f * (s1 > s2 ? s1 : s2);
        const float f1 = s1 / twice_max;
        const float f2 = s2 / twice_max;
        const float fo = twice_max / ((float)(1 << p->left_shift) * s_out);
        r1 = (double)f1;
        r2 = (double)f2;
        ro = (double)fo;
    } else {
        const double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
        r1 = (double)s1 / twice_max;
        r2 = (double)s2 / twice_max;
        ro = twice_max / ((double)(1 << p->left_shift) * (double)s_out);
    }
    ta_quant_multiplier(r1, &p->input1_mult, &p->input1_shift);
    ta_quant_multiplier(r2, &p->input2_mult, &p->input2_shift);
    ta_quant_multiplier(ro, &p->output_mult, &p->output_shift);
    /* TFLM insists on multipliers below one (QuantizeMultiplierSmallerThanOneExp). */
    if (p->input1_shift > 0 || p->input2_shift > 0 || p->output_shift > 0) return TA_E_UNSUPPORTED;
    return ta_quant_activation_range(act, s_out, zp_out, type, &p->act_min, &p->act_max);
}

ta_status ta_addsub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2,
                            int32_t zp2, float s_out, int32_t zp_out, ta_activation act) {
    return ta__addsub_prepare(p, type, s1, zp1, s2, zp2, s_out, zp_out, act, 0);
}

/* One quantised ADD (negate = 0) or SUB (negate = 1) element, clamped. */
static int32_t addsub_q(const ta_addsub_params *p, int32_t x, int32_t y, int negate) {
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

/* The fast kernels' ADD/SUB (kernels.h, "Kernel implementations"): shapes
 * without broadcasting, the three rescales inline with their constants
 * hoisted (requant.h), contiguous elements.  Same steps as addsub_q. */
static void addsub_q_flat(const ta_addsub_params *p, int negate, int wide, const void *in1, const void *in2,
                          void *out, int64_t n) {
    int8_t s1 = (int8_t)p->input1_shift, s2 = (int8_t)p->input2_shift, so = (int8_t)p->output_shift;
    const ta_requant a = {.mult = &p->input1_mult, .shift = &s1}, b = {.mult = &p->input2_mult, .shift = &s2},
                     o = {.mult = &p->output_mult, .shift = &so};
    const ta__rq r1 = ta__rq_make(&a, 0), r2 = ta__rq_make(&b, 0), ro = ta__rq_make(&o, 0);
    const int32_t off1 = p->input1_offset, off2 = p->input2_offset, ls = p->left_shift;
    const int32_t off_o = p->output_offset, lo = p->act_min, hi = p->act_max;
    for (int64_t i = 0; i < n; i++) {
        const int32_t x = wide ? ((const int16_t *)in1)[i] : ((const int8_t *)in1)[i];
        const int32_t y = wide ? ((const int16_t *)in2)[i] : ((const int8_t *)in2)[i];
        const int32_t sa = ta__rq_mul(&r1, (int32_t)((uint32_t)(off1 + x) << ls));
        const int32_t sb = ta__rq_mul(&r2, (int32_t)((uint32_t)(off2 + y) << ls));
        const int32_t raw = negate ? ta__wsub(sa, sb) : ta__wadd(sa, sb);
        int32_t v = ta__wadd(ta__rq_mul(&ro, raw), off_o);
        v = v < lo ? lo : v;
        v = v > hi ? hi : v;
        if (wide) ((int16_t *)out)[i] = (int16_t)v;
        else ((int8_t *)out)[i] = (int8_t)v;
    }
}

/* Whether the inline rescales are exact for these multipliers (requant.h:
 * no INT32_MIN multiplier, shifts within [-31, 30] for the int8 tables). */
static bool addsub_fast_ok(const ta_addsub_params *p) {
    const int32_t m[3] = {p->input1_mult, p->input2_mult, p->output_mult};
    const int32_t s[3] = {p->input1_shift, p->input2_shift, p->output_shift};
    for (int k = 0; k < 3; k++)
        if (m[k] == INT32_MIN || s[k] < -31 || s[k] > 30) return false;
    for (int32_t d = 0; d < p->shape.rank; d++)
        if (p->shape.in1[d] != p->shape.out[d] || p->shape.in2[d] != p->shape.out[d]) return false;
    return true;
}

ta_status ta__addsub_q_run(const ta_addsub_params *p, int negate, int wide, const void *in1, const void *in2,
                           void *out) {
    if (!p || !in1 || !in2 || !out || p->left_shift < 0 || p->left_shift > 30) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    if (ta__kernel_impl() != TA_KERNEL_IMPL_REFERENCE && addsub_fast_ok(p)) {
        addsub_q_flat(p, negate, wide, in1, in2, out, n);
        return TA_OK;
    }
    const int8_t *a8 = in1, *b8 = in2;
    const int16_t *a16 = in1, *b16 = in2;
    int8_t *o8 = out;
    int16_t *o16 = out;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        if (wide) o16[i] = (int16_t)addsub_q(p, a16[it.o1], b16[it.o2], negate);
        else o8[i] = (int8_t)addsub_q(p, a8[it.o1], b8[it.o2], negate);
    }
    return TA_OK;
}

ta_status ta__binary_f32(const ta_broadcast *shape, ta__binop op, float act_min, float act_max, const float *in1,
                         const float *in2, float *out) {
    if (!in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, shape)) {
        const float x = in1[it.o1], y = in2[it.o2];
        float v = op == TA__BIN_ADD ? x + y : op == TA__BIN_SUB ? x - y : x * y;
        v = v < act_min ? act_min : v;
        out[i] = v > act_max ? act_max : v;
    }
    return TA_OK;
}

ta_status ta_kernel_add_s8(const ta_addsub_params *p, const int8_t *in1, const int8_t *in2,
                           int8_t *out) {
    return ta__addsub_q_run(p, 0, 0, in1, in2, out);
}

ta_status ta_kernel_add_s16(const ta_addsub_params *p, const int16_t *in1, const int16_t *in2,
                            int16_t *out) {
    return ta__addsub_q_run(p, 0, 1, in1, in2, out);
}

ta_status ta_kernel_add_f32(const ta_addsub_params *p, const float *in1, const float *in2,
                            float *out) {
    if (!p) return TA_E_INVALID_ARG;
    return ta__binary_f32(&p->shape, TA__BIN_ADD, p->f_act_min, p->f_act_max, in1, in2, out);
}

ta_status ta_kernel_add_s32(const ta_addsub_params *p, const int32_t *in1, const int32_t *in2, int32_t *out) {
    if (!p || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) out[i] = ta__wadd(in1[it.o1], in2[it.o2]);
    return TA_OK;
}
