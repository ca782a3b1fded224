/*
 * MUL: int8 with TFLM's rescaling, int32 (clamped product) and float32.
 * Elementwise without broadcasting, it may run in place.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_mul_params
static const ta__field k_fields_mul[] = {
    BCAST(shape), F(input1_offset, TA__F_I32), F(input2_offset, TA__F_I32), F(output_offset, TA__F_I32),
    F(output_mult, TA__F_I32), F(output_shift, TA__F_I32), F(act_min, TA__F_I32), F(act_max, TA__F_I32),
    F(f_act_min, TA__F_F32), F(f_act_max, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_mul, ta_mul_params)

static ta_status prep_mul(ta__op_ctx *c) {
    ta_mul_params *p = (ta_mul_params *)c->params;
    ta_status st = ta__op_prep_binary(c, &p->shape, &p->f_act_min, &p->f_act_max);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *a = ta__op_in(c, 0), *b = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (a->dtype == TA_DTYPE_INT32) {
        /* TFLM's int32 MUL: the product clamped to the activation's int32 range */
        c->path = TA__P_S32;
        st = ta_int32_activation_range(c->op->opt.activation, &p->act_min, &p->act_max);
        return st ? ta__op_fail(c, st, "unsupported fused activation") : TA_OK;
    }
    if (a->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", a->dtype);
    c->path = TA__P_S8;
    st = ta_mul_prepare(p, a->dtype, ta__op_scale(a), ta__op_zp(a), ta__op_scale(b), ta__op_zp(b), ta__op_scale(out),
                        ta__op_zp(out), c->op->opt.activation);
    if (!st && p->output_shift > 30) st = TA_E_UNSUPPORTED; /* the kernel shifts left by it in int32 */
    return st ? ta__op_fail(c, st, "cannot derive the rescaling") : TA_OK;
}

static ta_status run_mul(const ta__op_run *r) {
    const ta_mul_params *p = r->params;
    void *a = ta__op_in_ptr(r, 0), *b = ta__op_in_ptr(r, 1), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8    ? ta_kernel_mul_s8(p, a, b, out)
           : r->path == TA__P_S32 ? ta_kernel_mul_s32(p, a, b, out)
                                  : ta_kernel_mul_f32(p, a, b, out);
}

/* A stage's band of rows (patch.h, band_elem.c): the shapes cut to it. */
static void geom_mul(const ta__op_run *r, ta__op_rows_geom *g) {
    ta__op_geom_binary(r, &((const ta_mul_params *)r->params)->shape, g);
}
static bool rows_mul(void *p, int32_t rows, int32_t h) { return ta__op_rows_binary(&((ta_mul_params *)p)->shape, rows, h); }
static const ta__op_banded k_banded_mul = {geom_mul, NULL, rows_mul};

TA__OP_DEF_ELEM(ta_op_MUL, MUL, ta_mul_params, k_fields_mul, TA__CLEAR_PADDING(clear_mul), prep_mul, run_mul,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32), &k_banded_mul);
