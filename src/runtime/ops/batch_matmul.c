/*
 * BATCH_MATMUL, operands of rank 2 to 5 with broadcast batch dims: int8,
 * int16 (zero points 0) and float32.  The RHS is read in place.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_batch_matmul_params
static const ta__field k_fields_bmm[] = {
    FA(lhs, TA__F_I32, 5), FA(rhs, TA__F_I32, 5), F(adj_x, TA__F_BOOL), F(adj_y, TA__F_BOOL),
    F(lhs_offset, TA__F_I32), F(rhs_offset, TA__F_I32), F(output_offset, TA__F_I32), F(mult, TA__F_I32),
    F(shift, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_bmm, ta_batch_matmul_params)

static ta_status prep_bmm(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *l = ta__op_in(c, 0), *r = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    ta_batch_matmul_params *p = (ta_batch_matmul_params *)c->params;
    if (l->rank < 2 || l->rank > 5 || r->rank < 2 || r->rank > 5)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "operand rank outside 2..5");
    for (int32_t d = 0; d < 5; d++) {
        p->lhs[d] = d < 5 - l->rank ? 1 : l->shape[d - (5 - l->rank)];
        p->rhs[d] = d < 5 - r->rank ? 1 : r->shape[d - (5 - r->rank)];
    }
    p->adj_x = c->op->opt.adj_x;
    p->adj_y = c->op->opt.adj_y;
    int32_t os[5];
    if (ta_batch_matmul_shape(p, os))
        return ta__op_fail(c, TA_E_MALFORMED, "operand shapes do not multiply (or batch dims do not broadcast)");
    int64_t n = 1;
    for (int d = 0; d < 5; d++) n *= os[d];
    if (n != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the product");
    if (l->dtype != r->dtype || l->dtype != out->dtype) return ta__op_fail_type(c, "mixed operand/output", r->dtype);
    if (l->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        return TA_OK;
    }
    if (l->dtype != TA_DTYPE_INT8 && l->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", l->dtype);
    if (!(ta__op_scale(out) > 0.0f)) return ta__op_fail(c, TA_E_MALFORMED, "output scale is not positive");
    p->lhs_offset = -ta__op_zp(l);
    p->rhs_offset = -ta__op_zp(r);
    p->output_offset = ta__op_zp(out);
    ta_quant_multiplier(ta_quant_fc_real_multiplier(ta__op_scale(l), ta__op_scale(r), ta__op_scale(out)), &p->mult,
                        &p->shift);
    if (l->dtype == TA_DTYPE_INT16) {
        if (ta__op_zp(l) || ta__op_zp(r) || ta__op_zp(out))
            return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 operands need zero point 0");
        if (p->shift > 7) return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large");
        if ((st = ta__op_acc64_ok(c, NULL, p->adj_x ? p->lhs[3] : p->lhs[4], 30))) return st;
        c->path = TA__P_S16;
        return TA_OK;
    }
    if (p->shift > 30) return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large");
    c->path = TA__P_S8;
    return TA_OK;
}

static ta_status run_bmm(const ta__op_run *r) {
    const ta_batch_matmul_params *p = r->params;
    void *a = ta__op_in_ptr(r, 0), *b = ta__op_in_ptr(r, 1), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8    ? ta_kernel_batch_matmul_s8(p, a, b, out)
           : r->path == TA__P_S16 ? ta_kernel_batch_matmul_s16(p, a, b, out)
                                  : ta_kernel_batch_matmul_f32(p, a, b, out);
}

TA__OP_DEF(ta_op_BATCH_MATMUL, BATCH_MATMUL, ta_batch_matmul_params, k_fields_bmm, TA__CLEAR_PADDING(clear_bmm),
           prep_bmm, run_bmm, 0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
