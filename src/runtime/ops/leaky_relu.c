/*
 * LEAKY_RELU: int8 and int16 (two requantisations) and float32.
 * Elementwise (element i read before it is written), it may run in place.
 */
#include "runtime/ops/op.h"

typedef struct leaky_params {
    ta_leaky_relu_params p;
    size_t count;
} leaky_params;

/* clang-format off */
#define TA__PARAMS_T leaky_params
static const ta__field k_fields_leaky[] = {
    F(p.input_zp, TA__F_I32), F(p.output_zp, TA__F_I32), F(p.alpha_mult, TA__F_I32), F(p.alpha_shift, TA__F_I32),
    F(p.identity_mult, TA__F_I32), F(p.identity_shift, TA__F_I32), F(p.alpha, TA__F_F32), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_leaky, leaky_params)

static ta_status prep_leaky(ta__op_ctx *c) {
    ((leaky_params *)c->params)->p.alpha = c->op->opt.alpha;
    ta_status st = ta__op_prep_unary(c, &((leaky_params *)c->params)->count);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", in->dtype);
    c->path = in->dtype == TA_DTYPE_INT8 ? TA__P_S8 : TA__P_S16;
    st = ta_leaky_relu_prepare(&((leaky_params *)c->params)->p, c->op->opt.alpha, ta__op_scale(in), ta__op_zp(in),
                               ta__op_scale(out), ta__op_zp(out));
    return st ? ta__op_fail(c, st, "alpha or scales out of range") : TA_OK;
}

static ta_status run_leaky(const ta__op_run *r) {
    const leaky_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8    ? ta_kernel_leaky_relu_s8(&p->p, p->count, in, out)
           : r->path == TA__P_S16 ? ta_kernel_leaky_relu_s16(&p->p, p->count, in, out)
                                  : ta_kernel_leaky_relu_f32(&p->p, p->count, in, out);
}

TA__OP_DEF(ta_op_LEAKY_RELU, LEAKY_RELU, leaky_params, k_fields_leaky, TA__CLEAR_PADDING(clear_leaky), prep_leaky,
           run_leaky, TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
