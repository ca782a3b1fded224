/*
 * LOG_SOFTMAX over the last axis: float32, and int8 with TFLM's fixed
 * output quantisation (scale 16/256, zero point 127; TFLM refuses others).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_log_softmax_params
static const ta__field k_fields_ls[] = {
    F(outer, TA__F_I32), F(depth, TA__F_I32), F(input_mult, TA__F_I32), F(input_left_shift, TA__F_I32),
    F(diff_min, TA__F_I32), F(reverse_mult, TA__F_I32), F(reverse_shift, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_ls, ta_log_softmax_params)

static ta_status prep_ls(ta__op_ctx *c) {
    ta_log_softmax_params *p = (ta_log_softmax_params *)c->params;
    size_t count;
    ta_status st = ta__op_prep_unary(c, &count);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->rank < 1 || in->shape[in->rank - 1] <= 0) return ta__op_fail(c, TA_E_MALFORMED, "input has no last axis");
    p->depth = in->shape[in->rank - 1];
    p->outer = (int32_t)(ta__op_elems(in) / p->depth);
    if (c->path == TA__P_F32) return TA_OK;
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (ta__op_scale(out) != 16.0f / 256.0f || ta__op_zp(out) != 127)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int8 output must have scale 16/256 and zero point 127 (as TFLM)");
    c->path = TA__P_S8;
    st = ta_log_softmax_prepare_s8(p, ta__op_scale(in));
    return st ? ta__op_fail(c, st, "input scale gives no usable multiplier") : TA_OK;
}

static ta_status run_ls(const ta__op_run *r) {
    const ta_log_softmax_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_log_softmax_s8(p, in, out) : ta_kernel_log_softmax_f32(p, in, out);
}

/* in place: each row is read whole before any of it is written */
TA__OP_DEF(ta_op_LOG_SOFTMAX, LOG_SOFTMAX, ta_log_softmax_params, k_fields_ls, TA__CLEAR_PADDING(clear_ls), prep_ls,
           run_ls, TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8));
