/*
 * SQUARED_DIFFERENCE: (x - y)^2 with broadcasting.  float32, int32
 * (wrapping), int8 and int16 (TFLM's rescaling scheme, ta_sqdiff_prepare).
 *
 * TFLM quirk kept: its int16 path rescales the inputs with left_shift 0,
 * i.e. at the inputs' own precision, so int16 results sit up to a few
 * output LSB from the exact value (the manifest's NOTE); int16 zero points
 * must be 0, as TFLM's prepare requires.
 */
#include "runtime/ops/op.h"

typedef struct sqdiff_op {
    ta_sqdiff_params p;
    ta_dtype type;
} sqdiff_op;

/* clang-format off */
#define TA__PARAMS_T sqdiff_op
static const ta__field k_fields_sqd[] = {
    BCAST(p.shape), F(p.input1_offset, TA__F_I32), F(p.input2_offset, TA__F_I32), F(p.output_zp, TA__F_I32),
    F(p.left_shift, TA__F_I32), F(p.mult1, TA__F_I32), F(p.shift1, TA__F_I32), F(p.mult2, TA__F_I32),
    F(p.shift2, TA__F_I32), F(p.out_mult, TA__F_I32), F(p.out_shift, TA__F_I32), F(type, TA__F_DTYPE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sqd, sqdiff_op)

static ta_status prep_sqdiff(ta__op_ctx *c) {
    sqdiff_op *o = (sqdiff_op *)c->params;
    float lo, hi;
    ta_status st = ta__op_prep_binary(c, &o->p.shape, &lo, &hi);
    if (st) return st;
    const ta_tensor *a = ta__op_in(c, 0), *b = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    o->type = a->dtype;
    c->path = TA__P_COPY;
    if (a->dtype == TA_DTYPE_FLOAT32 || a->dtype == TA_DTYPE_INT32) return TA_OK;
    if (a->dtype != TA_DTYPE_INT8 && a->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", a->dtype);
    if (a->dtype == TA_DTYPE_INT16 && (ta__op_zp(a) || ta__op_zp(b) || ta__op_zp(out)))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 needs zero points 0 (as TFLM)");
    st = ta_sqdiff_prepare(&o->p, a->dtype, ta__op_scale(a), ta__op_zp(a), ta__op_scale(b), ta__op_zp(b),
                           ta__op_scale(out), ta__op_zp(out));
    return st ? ta__op_fail(c, st, "scales out of range") : TA_OK;
}

static ta_status run_sqdiff(const ta__op_run *r) {
    const sqdiff_op *o = r->params;
    return ta_kernel_sqdiff(&o->p, o->type, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_SQUARED_DIFFERENCE, SQUARED_DIFFERENCE, sqdiff_op, k_fields_sqd, TA__CLEAR_PADDING(clear_sqd),
           prep_sqdiff, run_sqdiff, TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16) | TA__T(INT32));
