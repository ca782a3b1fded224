/*
 * LOGICAL_AND, LOGICAL_OR (bool, broadcasting) and LOGICAL_NOT (bool):
 * TFLM's logical and elementwise kernels.  A bool is one byte; any nonzero
 * byte reads as true, results are 0 or 1.
 */
#include "runtime/ops/op.h"

typedef struct logical_params {
    ta_broadcast shape; /* AND, OR */
    size_t count;       /* NOT */
} logical_params;

/* clang-format off */
#define TA__PARAMS_T logical_params
static const ta__field k_fields_log[] = {BCAST(shape), F(count, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_log, logical_params)

static ta_status prep_logical(ta__op_ctx *c) {
    logical_params *p = (logical_params *)c->params;
    c->path = TA__P_COPY;
    ta_status st;
    if (c->op->kind == TA_OP_LOGICAL_NOT) {
        st = ta__op_prep_unary(c, &p->count);
    } else {
        float lo, hi;
        st = ta__op_prep_binary(c, &p->shape, &lo, &hi);
    }
    if (st) return st;
    if (ta__op_in(c, 0)->dtype != TA_DTYPE_BOOL) return ta__op_fail_type(c, "input", ta__op_in(c, 0)->dtype);
    return TA_OK;
}

static ta_status run_logical(const ta__op_run *r) {
    const logical_params *p = r->params;
    if (r->kind == TA_OP_LOGICAL_NOT) return ta_kernel_logical_not(p->count, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
    return ta_kernel_logical(&p->shape, r->kind == TA_OP_LOGICAL_OR, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1),
                             ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_LOGICAL_AND, LOGICAL_AND, logical_params, k_fields_log, TA__CLEAR_PADDING(clear_log), prep_logical,
           run_logical, TA__OP_INPLACE, TA__T(BOOL));
TA__OP_DEF(ta_op_LOGICAL_OR, LOGICAL_OR, logical_params, k_fields_log, TA__CLEAR_PADDING(clear_log), prep_logical,
           run_logical, TA__OP_INPLACE, TA__T(BOOL));
TA__OP_DEF(ta_op_LOGICAL_NOT, LOGICAL_NOT, logical_params, k_fields_log, TA__CLEAR_PADDING(clear_log), prep_logical,
           run_logical, TA__OP_INPLACE, TA__T(BOOL));
