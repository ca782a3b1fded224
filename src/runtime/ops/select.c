/*
 * SELECT_V2: cond ? x : y with three-way broadcasting (each operand's dims
 * right-aligned, equal to the output's or 1).  cond is bool; x, y and the
 * output share a type: float32, int8, int16, as TFLM's select.  int8/int16 x and y must share the
 * output's quantisation: TFLM copies bytes without rescaling, and so does
 * this kernel, so a differing scale is refused rather than silently copied.
 */
#include "runtime/ops/op.h"

typedef struct select_op {
    ta_select_params p;
    int32_t elem_size;
} select_op;

/* clang-format off */
#define TA__PARAMS_T select_op
static const ta__field k_fields_sel[] = {
    F(p.rank, TA__F_I32), FA(p.cond, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK), FA(p.x, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK),
    FA(p.y, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK), FA(p.out, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK),
    F(elem_size, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sel, select_op)

static ta_status prep_select(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 3, 3, 1);
    if (st) return st;
    select_op *o = (select_op *)c->params;
    const ta_tensor *cond = ta__op_in(c, 0), *x = ta__op_in(c, 1), *y = ta__op_in(c, 2), *out = ta__op_out(c, 0);
    if (cond->dtype != TA_DTYPE_BOOL) return ta__op_fail_type(c, "condition", cond->dtype);
    if (x->dtype != y->dtype || x->dtype != out->dtype) return ta__op_fail_type(c, "mixed x/y/output", y->dtype);
    if (x->dtype != TA_DTYPE_FLOAT32 && x->dtype != TA_DTYPE_INT8 && x->dtype != TA_DTYPE_INT16)
        return ta__op_fail_type(c, "input", x->dtype);
    if ((x->dtype == TA_DTYPE_INT8 || x->dtype == TA_DTYPE_INT16) &&
        (ta__op_scale(x) != ta__op_scale(out) || ta__op_scale(y) != ta__op_scale(out) ||
         ta__op_zp(x) != ta__op_zp(out) || ta__op_zp(y) != ta__op_zp(out)))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "x and y must share the output's quantisation");
    /* the output shape: the three right-aligned, each dim the largest */
    const ta_tensor *ts[3] = {cond, x, y};
    int32_t rank = 0;
    for (int k = 0; k < 3; k++) rank = ts[k]->rank > rank ? ts[k]->rank : rank;
    if (rank > TA_KERNEL_MAX_BROADCAST_RANK || out->rank != rank)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "ranks differ from the output's (or rank > 6)");
    o->p.rank = rank;
    int32_t *dims[3] = {o->p.cond, o->p.x, o->p.y};
    for (int32_t d = 0; d < rank; d++) {
        const int32_t od = out->shape[d];
        o->p.out[d] = od;
        for (int k = 0; k < 3; k++) {
            const int32_t off = rank - ts[k]->rank;
            const int32_t v = d < off ? 1 : ts[k]->shape[d - off];
            if (v != od && v != 1)
                return ta__op_fail(c, TA_E_MALFORMED, "operand shapes do not broadcast to the output's");
            dims[k][d] = v;
        }
    }
    o->elem_size = (int32_t)ta_dtype_size(x->dtype);
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_select(const ta__op_run *r) {
    const select_op *o = r->params;
    return ta_kernel_select(&o->p, (size_t)o->elem_size, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_in_ptr(r, 2),
                            ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_SELECT_V2, SELECT_V2, select_op, k_fields_sel, TA__CLEAR_PADDING(clear_sel), prep_select, run_select,
           0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
