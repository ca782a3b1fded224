/*
 * FLOOR_DIV and FLOOR_MOD (one params struct): float32 with broadcasting,
 * the one type TFLM's kernels run (they refuse int32 at invoke).  A zero
 * divisor gives IEEE results (inf, NaN), as in TFLM's float path.
 */
#include "runtime/ops/op.h"

typedef struct fdm_params {
    ta_broadcast shape;
} fdm_params;

/* clang-format off */
#define TA__PARAMS_T fdm_params
static const ta__field k_fields_fdm[] = {BCAST(shape)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_fdm, fdm_params)

static ta_status prep_fdm(ta__op_ctx *c) {
    float lo, hi;
    ta_status st = ta__op_prep_binary(c, &((fdm_params *)c->params)->shape, &lo, &hi);
    if (st) return st;
    if (ta__op_in(c, 0)->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "input", ta__op_in(c, 0)->dtype);
    return TA_OK;
}

static ta_status run_fdm(const ta__op_run *r) {
    const fdm_params *p = r->params;
    return ta_kernel_floor_div_mod_f32(&p->shape, r->kind == TA_OP_FLOOR_MOD, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1),
                                       ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_FLOOR_DIV, FLOOR_DIV, fdm_params, k_fields_fdm, TA__CLEAR_PADDING(clear_fdm), prep_fdm, run_fdm,
           TA__OP_INPLACE, TA__T(FLOAT32));
TA__OP_DEF(ta_op_FLOOR_MOD, FLOOR_MOD, fdm_params, k_fields_fdm, TA__CLEAR_PADDING(clear_fdm), prep_fdm, run_fdm,
           TA__OP_INPLACE, TA__T(FLOAT32));
