/*
 * MINIMUM and MAXIMUM (one params struct): int8, int16, int32 and float32
 * with broadcasting.
 */
#include "runtime/ops/op.h"

typedef struct minmax_params {
    ta_broadcast shape;
    ta_dtype type;
} minmax_params;

/* clang-format off */
#define TA__PARAMS_T minmax_params
static const ta__field k_fields_mm[] = {
    BCAST(shape), F(type, TA__F_DTYPE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_mm, minmax_params)

static ta_status prep_minmax(ta__op_ctx *c) {
    float lo, hi;
    ta_status st = ta__op_prep_binary(c, &((minmax_params *)c->params)->shape, &lo, &hi);
    if (st) return st;
    const ta_dtype t = ta__op_in(c, 0)->dtype;
    if (t != TA_DTYPE_INT8 && t != TA_DTYPE_INT16 && t != TA_DTYPE_INT32 && t != TA_DTYPE_FLOAT32)
        return ta__op_fail_type(c, "input", t);
    ((minmax_params *)c->params)->type = t;
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_minimum(const ta__op_run *r) {
    const minmax_params *p = r->params;
    return ta_kernel_minimum(&p->shape, p->type, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

static ta_status run_maximum(const ta__op_run *r) {
    const minmax_params *p = r->params;
    return ta_kernel_maximum(&p->shape, p->type, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_MINIMUM, MINIMUM, minmax_params, k_fields_mm, TA__CLEAR_PADDING(clear_mm), prep_minmax, run_minimum,
           0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16) | TA__T(INT32));
TA__OP_DEF(ta_op_MAXIMUM, MAXIMUM, minmax_params, k_fields_mm, TA__CLEAR_PADDING(clear_mm), prep_minmax, run_maximum,
           0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16) | TA__T(INT32));
