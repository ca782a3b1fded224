/*
 * L2_NORMALIZATION over the last axis: float32 and int8.  TFLM requires no
 * fused activation and rank <= 4, and reads an int8 output as scale 1/128,
 * zero point 0 whatever the tensor says (see kernels/l2_norm.c): so does
 * this op.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_l2norm_params
static const ta__field k_fields_l2[] = {F(outer, TA__F_I32), F(depth, TA__F_I32), F(input_zp, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_l2, ta_l2norm_params)

static ta_status prep_l2(ta__op_ctx *c) {
    ta_l2norm_params *p = (ta_l2norm_params *)c->params;
    size_t count;
    ta_status st = ta__op_prep_unary(c, &count);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0);
    if (c->op->opt.activation != TA_ACT_NONE)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "fused activation (TFLM has none)");
    if (in->rank < 1 || in->rank > 4 || in->shape[in->rank - 1] <= 0)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "input rank must be 1..4 with a non-empty last axis");
    p->depth = in->shape[in->rank - 1];
    p->outer = (int32_t)(ta__op_elems(in) / p->depth);
    if (c->path == TA__P_F32) return TA_OK;
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (p->depth > 32767) return ta__op_fail(c, TA_E_UNSUPPORTED, "int8 last axis above 32767 (int32 sum of squares)");
    p->input_zp = ta__op_zp(in);
    c->path = TA__P_S8;
    return TA_OK;
}

static ta_status run_l2(const ta__op_run *r) {
    const ta_l2norm_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_l2norm_s8(p, in, out) : ta_kernel_l2norm_f32(p, in, out);
}

/* in place: each row is read whole before any of it is written */
TA__OP_DEF(ta_op_L2_NORMALIZATION, L2_NORMALIZATION, ta_l2norm_params, k_fields_l2, TA__CLEAR_PADDING(clear_l2),
           prep_l2, run_l2, TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8));
