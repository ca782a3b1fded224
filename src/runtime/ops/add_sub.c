/*
 * ADD and SUB (one params struct): int8 and int16 with TFLM's rescaling,
 * float32, and int32 ADD (a plain sum).  Elementwise without broadcasting,
 * they may run in place.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_addsub_params
static const ta__field k_fields_as[] = {
    BCAST(shape), F(input1_offset, TA__F_I32), F(input2_offset, TA__F_I32), F(output_offset, TA__F_I32),
    F(left_shift, TA__F_I32), F(input1_mult, TA__F_I32), F(input1_shift, TA__F_I32), F(input2_mult, TA__F_I32),
    F(input2_shift, TA__F_I32), F(output_mult, TA__F_I32), F(output_shift, TA__F_I32), F(act_min, TA__F_I32),
    F(act_max, TA__F_I32), F(f_act_min, TA__F_F32), F(f_act_max, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_as, ta_addsub_params)

static ta_status prep_addsub(ta__op_ctx *c) {
    ta_addsub_params *p = (ta_addsub_params *)c->params;
    ta_status st = ta__op_prep_binary(c, &p->shape, &p->f_act_min, &p->f_act_max);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *a = ta__op_in(c, 0), *b = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    const bool sub = c->op->kind == TA_OP_SUB;
    if (a->dtype == TA_DTYPE_INT32 && !sub) {
        /* TFLM's int32 ADD: a plain sum (no activation, no quantisation) */
        c->path = TA__P_S32;
        return TA_OK;
    }
    if (a->dtype != TA_DTYPE_INT8 && a->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", a->dtype);
    c->path = a->dtype == TA_DTYPE_INT8 ? TA__P_S8 : TA__P_S16;
    st = (sub ? ta_sub_prepare : ta_addsub_prepare)(p, a->dtype, ta__op_scale(a), ta__op_zp(a), ta__op_scale(b),
                                                    ta__op_zp(b), ta__op_scale(out), ta__op_zp(out),
                                                    c->op->opt.activation);
    return st ? ta__op_fail(c, st, "cannot derive the rescaling (scales or activation)") : TA_OK;
}

static ta_status run_add(const ta__op_run *r) {
    const ta_addsub_params *p = r->params;
    void *a = ta__op_in_ptr(r, 0), *b = ta__op_in_ptr(r, 1), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8    ? ta_kernel_add_s8(p, a, b, out)
           : r->path == TA__P_S32 ? ta_kernel_add_s32(p, a, b, out)
           : r->path == TA__P_S16 ? ta_kernel_add_s16(p, a, b, out)
                                  : ta_kernel_add_f32(p, a, b, out);
}

static ta_status run_sub(const ta__op_run *r) {
    const ta_addsub_params *p = r->params;
    void *a = ta__op_in_ptr(r, 0), *b = ta__op_in_ptr(r, 1), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8    ? ta_kernel_sub_s8(p, a, b, out)
           : r->path == TA__P_S16 ? ta_kernel_sub_s16(p, a, b, out)
                                  : ta_kernel_sub_f32(p, a, b, out);
}

/* A stage's band of rows (patch.h, band_elem.c): the shapes cut to it. */
static void geom_add_sub(const ta__op_run *r, ta__op_rows_geom *g) {
    ta__op_geom_binary(r, &((const ta_addsub_params *)r->params)->shape, g);
}
static bool rows_add_sub(void *p, int32_t rows, int32_t h) { return ta__op_rows_binary(&((ta_addsub_params *)p)->shape, rows, h); }
static const ta__op_banded k_banded_add_sub = {geom_add_sub, NULL, rows_add_sub};

TA__OP_DEF_ELEM(ta_op_ADD, ADD, ta_addsub_params, k_fields_as, TA__CLEAR_PADDING(clear_as), prep_addsub, run_add,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16) | TA__T(INT32), &k_banded_add_sub);
TA__OP_DEF_ELEM(ta_op_SUB, SUB, ta_addsub_params, k_fields_as, TA__CLEAR_PADDING(clear_as), prep_addsub, run_sub,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16), &k_banded_add_sub);
