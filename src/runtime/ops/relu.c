/*
 * RELU, RELU6 and RELU_N1_TO_1 (one params struct): float32, int8, int16.
 *
 * TFLM quirks kept for bit-exactness:
 *  - RELU6 on int8/int16 clamps to [zp_in, zp_in + round(6 / s_in)] in the
 *    input's quantisation and never rescales to the output's: an output
 *    with another scale or zero point gets the input's integers (the
 *    manifest's RELU6 *_diffq cases);
 *  - RELU on int16 requires zero points 0 (TFLM's prepare refuses others).
 * TFLM registers no RELU_N1_TO_1 kernel at all; this runtime runs it in
 * float32 (min(max(x, -1), 1), beyond TFLM: tests/test_kernels_math.c
 * checks it against its float definition) and refuses quantised types.
 */
#include "runtime/ops/op.h"

typedef struct relu_params {
    ta_unary_q_params q;
    size_t count;
} relu_params;

/* clang-format off */
#define TA__PARAMS_T relu_params
static const ta__field k_fields_relu[] = {
    F(q.input_zp, TA__F_I32), F(q.output_zp, TA__F_I32), F(q.mult, TA__F_I32), F(q.shift, TA__F_I32),
    F(q.act_min, TA__F_I32), F(q.act_max, TA__F_I32), F(q.rescale, TA__F_I32), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_relu, relu_params)

static ta_status prep_relu(ta__op_ctx *c) {
    relu_params *p = (relu_params *)c->params;
    ta_status st = ta__op_prep_unary(c, &p->count);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const ta_op_kind k = c->op->kind;
    if (k == TA_OP_RELU_N1_TO_1) return ta__op_fail_type(c, "input (TFLM has no quantised RELU_N1_TO_1)", in->dtype);
    if (in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", in->dtype);
    if (k == TA_OP_RELU && in->dtype == TA_DTYPE_INT16 && (ta__op_zp(in) != 0 || ta__op_zp(out) != 0))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 RELU needs zero points 0 (as TFLM)");
    c->path = in->dtype == TA_DTYPE_INT8 ? TA__P_S8 : TA__P_S16;
    st = ta_relu_prepare(&p->q, k == TA_OP_RELU6 ? TA_ACT_RELU6 : TA_ACT_RELU, in->dtype, ta__op_scale(in),
                         ta__op_zp(in), ta__op_scale(out), ta__op_zp(out));
    return st ? ta__op_fail(c, st, "scales out of range") : TA_OK;
}

static ta_status run_relu(const ta__op_run *r) {
    const relu_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    if (r->path == TA__P_S8) return ta_kernel_relu_s8(&p->q, p->count, in, out);
    if (r->path == TA__P_S16) return ta_kernel_relu_s16(&p->q, p->count, in, out);
    const ta_unary_fn fn = r->kind == TA_OP_RELU6  ? TA_UNARY_RELU6
                           : r->kind == TA_OP_RELU ? TA_UNARY_RELU
                                                   : TA_UNARY_RELU_N1_TO_1;
    return ta_kernel_unary_f32(fn, p->count, in, out);
}

/* A stage's band of rows (patch.h, band_elem.c): the same count per row. */
static void geom_relu(const ta__op_run *r, ta__op_rows_geom *g) {
    ta__op_geom_unary(r, ((const relu_params *)r->params)->count, g);
}
static bool rows_relu(void *p, int32_t rows, int32_t h) { return ta__op_rows_unary(&((relu_params *)p)->count, rows, h); }
static const ta__op_banded k_banded_relu = {geom_relu, NULL, rows_relu};

TA__OP_DEF_ELEM(ta_op_RELU, RELU, relu_params, k_fields_relu, TA__CLEAR_PADDING(clear_relu), prep_relu, run_relu,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16), &k_banded_relu);
TA__OP_DEF_ELEM(ta_op_RELU6, RELU6, relu_params, k_fields_relu, TA__CLEAR_PADDING(clear_relu), prep_relu, run_relu,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16), &k_banded_relu);
TA__OP_DEF_ELEM(ta_op_RELU_N1_TO_1, RELU_N1_TO_1, relu_params, k_fields_relu, TA__CLEAR_PADDING(clear_relu), prep_relu,
           run_relu, TA__OP_INPLACE, TA__T(FLOAT32), &k_banded_relu);
