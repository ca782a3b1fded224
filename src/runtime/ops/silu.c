/*
 * SILU: the SILU rewrite's fused LOGISTIC -> MUL(x, sigmoid(x)) (rewrite.h),
 * int8 and float32.  Input 0 is x, output 0 the MUL's output; the sigmoid
 * tensor is the op's intermediate 0, elided from the arena: prepare reads
 * only its quantisation, which the LOGISTIC wrote with and the MUL read
 * with.  Prepare checks what LOGISTIC's and MUL's prepares check, so the
 * fused op runs exactly where the pair runs.  Elementwise, it may run in
 * place (the kernel reads element i before writing it).
 */
#include "runtime/ops/op.h"

typedef struct silu_op_params {
    ta_silu_params p;
    size_t count;
} silu_op_params;

/* clang-format off */
#define TA__PARAMS_T silu_op_params
static const ta__field k_fields_silu[] = {
    F(p.act.input_zp, TA__F_I32), F(p.act.input_mult, TA__F_I32), F(p.act.input_left_shift, TA__F_I32),
    F(p.act.input_range_radius, TA__F_I32), F(p.x_offset, TA__F_I32), F(p.s_offset, TA__F_I32),
    F(p.output_offset, TA__F_I32), F(p.output_mult, TA__F_I32), F(p.output_shift, TA__F_I32),
    F(p.act_min, TA__F_I32), F(p.act_max, TA__F_I32), F(p.f_act_min, TA__F_F32), F(p.f_act_max, TA__F_F32),
    F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_silu, silu_op_params)

static ta_status prep_silu(ta__op_ctx *c) {
    silu_op_params *sp = (silu_op_params *)c->params;
    ta_status st = ta__op_prep_unary(c, &sp->count);
    if (st) return st;
    const ta_tensor *x = ta__op_in(c, 0), *y = ta__op_out(c, 0);
    const ta_op *op = c->op;
    const ta_tensor *s = op->n_intermediates == 1 ? ta_graph_tensor(c->g, c->sg, op->intermediates[0]) : NULL;
    if (!s) return ta__op_fail(c, TA_E_MALFORMED, "no sigmoid tensor (intermediate 0)");
    if (s->dtype != x->dtype || ta__op_elems(s) != ta__op_elems(x))
        return ta__op_fail(c, TA_E_MALFORMED, "sigmoid tensor differs from input");
    if (c->path == TA__P_F32) return ta__op_float_act(c, &sp->p.f_act_min, &sp->p.f_act_max);
    if (x->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", x->dtype);
    /* LOGISTIC's prepare */
    if (ta__op_zp(s) != -128) return ta__op_fail(c, TA_E_UNSUPPORTED, "unexpected sigmoid zero point");
    c->path = TA__P_S8;
    ta_act_prepare_s8(&sp->p.act, ta__op_scale(x), ta__op_zp(x));
    /* MUL's prepare, x by the sigmoid (the product is the same either way round) */
    ta_mul_params m;
    memset(&m, 0, sizeof m);
    st = ta_mul_prepare(&m, x->dtype, ta__op_scale(x), ta__op_zp(x), ta__op_scale(s), ta__op_zp(s), ta__op_scale(y),
                        ta__op_zp(y), op->opt.activation);
    if (!st && m.output_shift > 30) st = TA_E_UNSUPPORTED; /* the MUL kernel shifts left by it in int32 */
    if (st) return ta__op_fail(c, st, "cannot derive the rescaling");
    sp->p.x_offset = m.input1_offset;
    sp->p.s_offset = m.input2_offset;
    sp->p.output_offset = m.output_offset;
    sp->p.output_mult = m.output_mult;
    sp->p.output_shift = m.output_shift;
    sp->p.act_min = m.act_min;
    sp->p.act_max = m.act_max;
    return TA_OK;
}

static ta_status run_silu(const ta__op_run *r) {
    const silu_op_params *sp = r->params;
    void *x = ta__op_in_ptr(r, 0), *y = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_silu_s8(&sp->p, sp->count, x, y) : ta_kernel_silu_f32(&sp->p, sp->count, x, y);
}

/* A stage's band of rows (patch.h, band_elem.c): the same count per row. */
static void geom_silu(const ta__op_run *r, ta__op_rows_geom *g) {
    ta__op_geom_unary(r, ((const silu_op_params *)r->params)->count, g);
}
static bool rows_silu(void *p, int32_t rows, int32_t h) { return ta__op_rows_unary(&((silu_op_params *)p)->count, rows, h); }
static const ta__op_banded k_banded_silu = {geom_silu, NULL, rows_silu};

TA__OP_DEF_ELEM(ta_op_SILU, SILU, silu_op_params, k_fields_silu, TA__CLEAR_PADDING(clear_silu), prep_silu, run_silu,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8), &k_banded_silu);
