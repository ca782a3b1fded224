/*
 * QUANTIZE (float to int, and requantisation between int8, uint8, int16
 * and int32) and DEQUANTIZE (int to float), one params struct.  Of equal
 * element size, they may run in place.
 */
#include "runtime/ops/op.h"

typedef struct quant_params {
    ta_dtype in_type, out_type;
    float scale;
    int32_t in_zp, out_zp, mult, shift;
    size_t n;
} quant_params;

/* clang-format off */
#define TA__PARAMS_T quant_params
static const ta__field k_fields_q[] = {
    F(in_type, TA__F_DTYPE), F(out_type, TA__F_DTYPE), F(scale, TA__F_F32), F(in_zp, TA__F_I32),
    F(out_zp, TA__F_I32), F(mult, TA__F_I32), F(shift, TA__F_I32), F(n, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_q, quant_params)

static ta_status prep_quantize(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (ta__op_elems(in) != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    ((quant_params *)c->params)->n = (size_t)ta__op_elems(in);
    ((quant_params *)c->params)->in_type = in->dtype;
    ((quant_params *)c->params)->out_type = out->dtype;
    ((quant_params *)c->params)->in_zp = ta__op_zp(in);
    ((quant_params *)c->params)->out_zp = ta__op_zp(out);
    const bool int_out = out->dtype == TA_DTYPE_INT8 || out->dtype == TA_DTYPE_UINT8 || out->dtype == TA_DTYPE_INT16 ||
                         (out->dtype == TA_DTYPE_INT32 && (in->dtype == TA_DTYPE_INT8 || in->dtype == TA_DTYPE_INT16));
    const bool int_in = in->dtype == TA_DTYPE_INT8 || in->dtype == TA_DTYPE_UINT8 || in->dtype == TA_DTYPE_INT16 ||
                        (in->dtype == TA_DTYPE_INT32 && c->op->kind == TA_OP_QUANTIZE);
    if (c->op->kind == TA_OP_DEQUANTIZE) {
        if (!int_in) return ta__op_fail_type(c, "input", in->dtype);
        if (out->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "output", out->dtype);
        ((quant_params *)c->params)->scale = ta__op_scale(in);
        c->path = TA__P_F32;
        return TA_OK;
    }
    if (!int_out) return ta__op_fail_type(c, "output", out->dtype);
    if (!(ta__op_scale(out) > 0.0f)) return ta__op_fail(c, TA_E_MALFORMED, "output scale is not positive");
    if (in->dtype == TA_DTYPE_FLOAT32) {
        ((quant_params *)c->params)->scale = ta__op_scale(out);
        c->path = TA__P_F32;
        return TA_OK;
    }
    if (!int_in) return ta__op_fail_type(c, "input", in->dtype);
    ta_quant_multiplier((double)ta__op_scale(in) / (double)ta__op_scale(out), &((quant_params *)c->params)->mult,
                        &((quant_params *)c->params)->shift);
    if (((quant_params *)c->params)->shift > 30)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large");
    c->path = TA__P_S8;
    return TA_OK;
}

static ta_status run_quantize(const ta__op_run *r) {
    const quant_params *q = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_F32
               ? ta_kernel_quantize_f32(q->n, in, q->scale, q->out_zp, q->out_type, out)
               : ta_kernel_requantize(q->n, q->in_type, in, q->in_zp, q->mult, q->shift, q->out_type, q->out_zp, out);
}

static ta_status run_dequantize(const ta__op_run *r) {
    const quant_params *q = r->params;
    return ta_kernel_dequantize(q->n, q->in_type, ta__op_in_ptr(r, 0), q->scale, q->in_zp, ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_QUANTIZE, QUANTIZE, quant_params, k_fields_q, TA__CLEAR_PADDING(clear_q), prep_quantize, run_quantize,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(UINT8) | TA__T(INT16) | TA__T(INT32));
TA__OP_DEF(ta_op_DEQUANTIZE, DEQUANTIZE, quant_params, k_fields_q, TA__CLEAR_PADDING(clear_q), prep_quantize,
           run_dequantize, TA__OP_INPLACE, TA__T(INT8) | TA__T(UINT8) | TA__T(INT16));
