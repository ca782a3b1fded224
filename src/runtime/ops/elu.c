/*
 * ELU: float32 (x < 0 ? expm1f(x) : x) and int8 through TFLM's 256-entry
 * lookup table, built by prepare into the record.  The int8 table uses
 * expf(x) - 1 where the float kernel uses expm1f: TFLM's two paths differ
 * that way, and each is matched.
 */
#include "runtime/ops/op.h"

typedef struct elu_params {
    const int8_t *table; /* 256 entries in the record (int8) */
    size_t count;
} elu_params;

/* clang-format off */
#define TA__PARAMS_T elu_params
static const ta__field k_fields_elu[] = {F(table, TA__F_PTR), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_elu, elu_params)

static ta_status prep_elu(ta__op_ctx *c) {
    elu_params *p = (elu_params *)c->params;
    ta_status st = ta__op_prep_unary(c, &p->count);
    if (st || c->path == TA__P_F32) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    c->path = TA__P_S8;
    int8_t *t = ta__op_take(c, 256);
    if (t) {
        st = ta_elu_table_s8(ta__op_scale(in), ta__op_zp(in), ta__op_scale(out), ta__op_zp(out), t);
        if (st) return ta__op_fail(c, st, "scales out of range");
        p->table = t;
    } else if (!(ta__op_scale(in) > 0.0f) || !(ta__op_scale(out) > 0.0f)) {
        return ta__op_fail(c, TA_E_UNSUPPORTED, "scales out of range");
    }
    return TA_OK;
}

static ta_status run_elu(const ta__op_run *r) {
    const elu_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_lut_s8(p->table, p->count, in, out)
                               : ta_kernel_unary_f32(TA_UNARY_ELU, p->count, in, out);
}

TA__OP_DEF(ta_op_ELU, ELU, elu_params, k_fields_elu, TA__CLEAR_PADDING(clear_elu), prep_elu, run_elu, TA__OP_INPLACE,
           TA__T(FLOAT32) | TA__T(INT8));
