/*
 * LOGISTIC and TANH (one params struct): int8 through TFLM's fixed-point
 * LUT arithmetic, and float32.  Elementwise, they may run in place.
 */
#include "runtime/ops/op.h"

/* The int8 constants and the element count. */
typedef struct act_params {
    ta_lut_act_params p;
    size_t count;
} act_params;

/* clang-format off */
#define TA__PARAMS_T act_params
static const ta__field k_fields_act[] = {
    F(p.input_zp, TA__F_I32), F(p.input_mult, TA__F_I32), F(p.input_left_shift, TA__F_I32),
    F(p.input_range_radius, TA__F_I32), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_act, act_params)

static ta_status prep_act(ta__op_ctx *c) {
    ta_status st = ta__op_prep_unary(c, &((act_params *)c->params)->count);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    const bool logistic = c->op->kind == TA_OP_LOGISTIC;
    if (ta__op_zp(out) != (logistic ? -128 : 0))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "unexpected output zero point");
    c->path = TA__P_S8;
    ta_act_prepare_s8(&((act_params *)c->params)->p, ta__op_scale(in), ta__op_zp(in));
    return TA_OK;
}

static ta_status run_logistic(const ta__op_run *r) {
    const act_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_logistic_s8(&p->p, p->count, in, out)
                               : ta_kernel_logistic_f32(p->count, in, out);
}

static ta_status run_tanh(const ta__op_run *r) {
    const act_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_tanh_s8(&p->p, p->count, in, out) : ta_kernel_tanh_f32(p->count, in, out);
}

/* A stage's band of rows (patch.h, band_elem.c): the same count per row. */
static void geom_logistic_tanh(const ta__op_run *r, ta__op_rows_geom *g) {
    ta__op_geom_unary(r, ((const act_params *)r->params)->count, g);
}
static bool rows_logistic_tanh(void *p, int32_t rows, int32_t h) { return ta__op_rows_unary(&((act_params *)p)->count, rows, h); }
static const ta__op_banded k_banded_logistic_tanh = {geom_logistic_tanh, NULL, rows_logistic_tanh};

TA__OP_DEF_ELEM(ta_op_LOGISTIC, LOGISTIC, act_params, k_fields_act, TA__CLEAR_PADDING(clear_act), prep_act, run_logistic,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8), &k_banded_logistic_tanh);
TA__OP_DEF_ELEM(ta_op_TANH, TANH, act_params, k_fields_act, TA__CLEAR_PADDING(clear_act), prep_act, run_tanh,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8), &k_banded_logistic_tanh);
