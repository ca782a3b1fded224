/*
 * PRELU: x >= 0 ? x : alpha * x, alpha broadcast against the input.
 * float32; int8 input with int8 alpha; int16 input with int8 alpha (TFLM's
 * prelu refuses an int16 alpha).  Quantised: two multipliers, one per sign
 * (see ta_prelu_prepare).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_prelu_params
static const ta__field k_fields_prelu[] = {
    BCAST(shape), F(input_zp, TA__F_I32), F(alpha_zp, TA__F_I32), F(output_zp, TA__F_I32), F(mult1, TA__F_I32),
    F(shift1, TA__F_I32), F(mult2, TA__F_I32), F(shift2, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_prelu, ta_prelu_params)

static ta_status prep_prelu(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    ta_prelu_params *p = (ta_prelu_params *)c->params;
    const ta_tensor *in = ta__op_in(c, 0), *alpha = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (ta_broadcast_init(&p->shape, in->shape, in->rank, alpha->shape, alpha->rank))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "input and alpha shapes do not broadcast (or rank > 6)");
    int64_t n = 1;
    for (int32_t i = 0; i < p->shape.rank; i++) n *= p->shape.out[i];
    if (n != ta__op_elems(out) || ta__op_elems(in) != ta__op_elems(out))
        /* alpha may broadcast, the input not: the kernel walks the output
         * in the input's order */
        return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the input's");
    if (in->dtype == TA_DTYPE_FLOAT32) {
        if (alpha->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "alpha", alpha->dtype);
        c->path = TA__P_F32;
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", in->dtype);
    if (alpha->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "alpha", alpha->dtype);
    c->path = in->dtype == TA_DTYPE_INT8 ? TA__P_S8 : TA__P_S16;
    st = ta_prelu_prepare(p, ta__op_scale(in), ta__op_zp(in), ta__op_scale(alpha), ta__op_zp(alpha), ta__op_scale(out),
                          ta__op_zp(out));
    return st ? ta__op_fail(c, st, "scales out of range") : TA_OK;
}

static ta_status run_prelu(const ta__op_run *r) {
    const ta_prelu_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *alpha = ta__op_in_ptr(r, 1), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8    ? ta_kernel_prelu_s8(p, in, alpha, out)
           : r->path == TA__P_S16 ? ta_kernel_prelu_s16(p, in, alpha, out)
                                  : ta_kernel_prelu_f32(p, in, alpha, out);
}

TA__OP_DEF(ta_op_PRELU, PRELU, ta_prelu_params, k_fields_prelu, TA__CLEAR_PADDING(clear_prelu), prep_prelu, run_prelu,
           0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
