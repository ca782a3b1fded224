/*
 * DIV: int32 without quantisation (C's truncating division), with
 * broadcasting.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_div_params
static const ta__field k_fields_div[] = {
    BCAST(shape), F(act_min, TA__F_I32), F(act_max, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_div, ta_div_params)

static ta_status prep_div(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *a = ta__op_in(c, 0), *b = ta__op_in(c, 1);
    if (a->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "input", a->dtype);
    /* TFLM: int32 DIV only without quantisation */
    if (a->quant.count || b->quant.count) return ta__op_fail(c, TA_E_UNSUPPORTED, "quantised int32 inputs");
    float lo, hi;
    if ((st = ta__op_prep_binary(c, &((ta_div_params *)c->params)->shape, &lo, &hi))) return st;
    c->path = TA__P_S32;
    st = ta_int32_activation_range(c->op->opt.activation, &((ta_div_params *)c->params)->act_min,
                                   &((ta_div_params *)c->params)->act_max);
    return st ? ta__op_fail(c, st, "unsupported fused activation") : TA_OK;
}

static ta_status run_div(const ta__op_run *r) {
    return ta_kernel_div_s32(r->params, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_DIV, DIV, ta_div_params, k_fields_div, TA__CLEAR_PADDING(clear_div), prep_div, run_div, 0, TA__T(INT32));
