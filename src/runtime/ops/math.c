/*
 * Elementwise math (one params struct): ABS, NEG, EXP, LOG, SQRT, RSQRT,
 * SQUARE, FLOOR, CEIL, ROUND, SIN, COS.
 *
 * Types, as TFLM's kernels take them: float32 for all; ABS also int8 and
 * int16 (quantised, or plain int16 without quantisation); RSQRT also int8
 * and int16.  TFLM's quantised ABS/RSQRT need int16 zero points 0, and its
 * RSQRT fails on an input below the zero point (a negative value) -- so does
 * this kernel, at invoke, with the op's name in the message.
 */
#include "runtime/ops/op.h"

typedef struct math_params {
    ta_unary_q_params q;
    size_t count;
} math_params;

/* clang-format off */
#define TA__PARAMS_T math_params
static const ta__field k_fields_math[] = {
    F(q.input_zp, TA__F_I32), F(q.output_zp, TA__F_I32), F(q.mult, TA__F_I32), F(q.shift, TA__F_I32),
    F(q.act_min, TA__F_I32), F(q.act_max, TA__F_I32), F(q.rescale, TA__F_I32), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_math, math_params)

static ta_status prep_math(ta__op_ctx *c) {
    math_params *p = (math_params *)c->params;
    ta_status st = ta__op_prep_unary(c, &p->count);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const ta_op_kind k = c->op->kind;
    if ((k != TA_OP_ABS && k != TA_OP_RSQRT) || (in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT16))
        return ta__op_fail_type(c, "input", in->dtype);
    const bool quantised = in->quant.count > 0;
    if (k == TA_OP_ABS && in->dtype == TA_DTYPE_INT16 && !quantised) {
        c->path = TA__P_COPY; /* plain int16 |x| */
        return TA_OK;
    }
    if (!quantised || !out->quant.count)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int8/int16 input and output need quantisation");
    if (in->dtype == TA_DTYPE_INT16 && (ta__op_zp(in) != 0 || ta__op_zp(out) != 0))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 needs zero points 0 (as TFLM)");
    c->path = in->dtype == TA_DTYPE_INT8 ? TA__P_S8 : TA__P_S16;
    st = k == TA_OP_ABS ? ta_abs_prepare(&p->q, ta__op_scale(in), ta__op_zp(in), ta__op_scale(out), ta__op_zp(out))
                        : ta_rsqrt_prepare(&p->q, ta__op_scale(in), ta__op_zp(in), ta__op_scale(out), ta__op_zp(out));
    return st ? ta__op_fail(c, st, "scales out of range") : TA_OK;
}

static ta_unary_fn fn_of(unsigned kind) {
    switch (kind) {
        case TA_OP_ABS: return TA_UNARY_ABS;
        case TA_OP_NEG: return TA_UNARY_NEG;
        case TA_OP_EXP: return TA_UNARY_EXP;
        case TA_OP_LOG: return TA_UNARY_LOG;
        case TA_OP_SQRT: return TA_UNARY_SQRT;
        case TA_OP_RSQRT: return TA_UNARY_RSQRT;
        case TA_OP_SQUARE: return TA_UNARY_SQUARE;
        case TA_OP_FLOOR: return TA_UNARY_FLOOR;
        case TA_OP_CEIL: return TA_UNARY_CEIL;
        case TA_OP_ROUND: return TA_UNARY_ROUND;
        case TA_OP_SIN: return TA_UNARY_SIN;
        case TA_OP_COS: return TA_UNARY_COS;
        default: return TA_UNARY_COUNT; /* refused by the kernel */
    }
}

static ta_status run_math(const ta__op_run *r) {
    const math_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    const bool abs = r->kind == TA_OP_ABS;
    switch (r->path) {
        case TA__P_S8:
            return abs ? ta_kernel_abs_s8(&p->q, p->count, in, out) : ta_kernel_rsqrt_s8(&p->q, p->count, in, out);
        case TA__P_S16:
            return abs ? ta_kernel_abs_s16(&p->q, p->count, in, out) : ta_kernel_rsqrt_s16(&p->q, p->count, in, out);
        case TA__P_COPY: return ta_kernel_abs_s16_plain(p->count, in, out);
        default: return ta_kernel_unary_f32(fn_of(r->kind), p->count, in, out);
    }
}

#define MATH_DEF(K, TY)                                                                                                \
    TA__OP_DEF(ta_op_##K, K, math_params, k_fields_math, TA__CLEAR_PADDING(clear_math), prep_math, run_math,           \
               TA__OP_INPLACE, TY)
MATH_DEF(ABS, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
MATH_DEF(NEG, TA__T(FLOAT32));
MATH_DEF(EXP, TA__T(FLOAT32));
MATH_DEF(LOG, TA__T(FLOAT32));
MATH_DEF(SQRT, TA__T(FLOAT32));
MATH_DEF(RSQRT, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
MATH_DEF(SQUARE, TA__T(FLOAT32));
MATH_DEF(FLOOR, TA__T(FLOAT32));
MATH_DEF(CEIL, TA__T(FLOAT32));
MATH_DEF(ROUND, TA__T(FLOAT32));
MATH_DEF(SIN, TA__T(FLOAT32));
MATH_DEF(COS, TA__T(FLOAT32));
