/*
 * HARD_SWISH: int8 (TFLM's int16 intermediate arithmetic) and float32.
 */
#include "runtime/ops/op.h"

typedef struct hswish_params {
    ta_hard_swish_params p;
    size_t count;
} hswish_params;

/* clang-format off */
#define TA__PARAMS_T hswish_params
static const ta__field k_fields_hswish[] = {
    F(p.input_zp, TA__F_I32), F(p.output_zp, TA__F_I32), F(p.output_mult16, TA__F_I32), F(p.output_exp, TA__F_I32),
    F(p.reluish_mult16, TA__F_I32), F(p.reluish_exp, TA__F_I32), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_hswish, hswish_params)

static ta_status prep_hswish(ta__op_ctx *c) {
    ta_status st = ta__op_prep_unary(c, &((hswish_params *)c->params)->count);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    c->path = TA__P_S8;
    st = ta_hard_swish_prepare(&((hswish_params *)c->params)->p, ta__op_scale(in), ta__op_zp(in), ta__op_scale(out),
                               ta__op_zp(out));
    return st ? ta__op_fail(c, st, "scales out of range (output multiplier above one)") : TA_OK;
}

static ta_status run_hswish(const ta__op_run *r) {
    const hswish_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_hard_swish_s8(&p->p, p->count, in, out)
                               : ta_kernel_hard_swish_f32(p->count, in, out);
}

TA__OP_DEF(ta_op_HARD_SWISH, HARD_SWISH, hswish_params, k_fields_hswish, TA__CLEAR_PADDING(clear_hswish), prep_hswish,
           run_hswish, 0, TA__T(FLOAT32) | TA__T(INT8));
