/*
 * SOFTMAX over the last axis: int8 to int8 or int16 (TFLM's fixed-point
 * exp), float32.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_softmax_params
static const ta__field k_fields_sm[] = {
    F(outer, TA__F_I32), F(depth, TA__F_I32), F(input_mult, TA__F_I32), F(input_left_shift, TA__F_I32),
    F(diff_min, TA__F_I32), F(beta, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sm, ta_softmax_params)

static ta_status prep_softmax(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    ta_softmax_params *p = (ta_softmax_params *)c->params;
    if (in->rank < 1 || in->shape[in->rank - 1] <= 0) return ta__op_fail(c, TA_E_MALFORMED, "input has no last axis");
    p->depth = in->shape[in->rank - 1];
    p->outer = (int32_t)(ta__op_elems(in) / p->depth);
    if (ta__op_elems(out) != ta__op_elems(in)) return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    if (in->dtype == TA_DTYPE_FLOAT32 && out->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        p->beta = c->op->opt.beta;
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (out->dtype == TA_DTYPE_INT8) {
        if (ta__op_zp(out) != -128 || ta__op_scale(out) != 1.0f / 256.0f)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "int8 output must have scale 1/256 and zero point -128");
        c->path = TA__P_S8;
    } else if (out->dtype == TA_DTYPE_INT16) {
        if (ta__op_zp(out) != -32768)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 output must have zero point -32768");
        c->path = TA__P_S8_S16;
    } else {
        return ta__op_fail_type(c, "output", out->dtype);
    }
    st = ta_softmax_prepare_s8(p, c->op->opt.beta, ta__op_scale(in));
    return st ? ta__op_fail(c, st, "beta * input scale too small") : TA_OK;
}

static ta_status run_softmax(const ta__op_run *r) {
    const ta_softmax_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8       ? ta_kernel_softmax_s8(p, in, out)
           : r->path == TA__P_S8_S16 ? ta_kernel_softmax_s8_s16(p, in, out)
                                     : ta_kernel_softmax_f32(p, in, out);
}

/* In place (TA__OP_INPLACE): each row's max and sum of exponentials are
 * taken before the row's first write, and element i is read before it is
 * written (softmax.c), so int8 -> int8 and float -> float run with the
 * output over the input (the INPLACE rewrite; int8 -> int16 changes the
 * element size, which that rewrite never pairs). */
TA__OP_DEF(ta_op_SOFTMAX, SOFTMAX, ta_softmax_params, k_fields_sm, TA__CLEAR_PADDING(clear_sm), prep_softmax,
           run_softmax, TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8));
