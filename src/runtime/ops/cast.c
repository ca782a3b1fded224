/*
 * CAST between the integer types and bool, and to float32.
 */
#include "runtime/ops/op.h"

typedef struct cast_params {
    ta_dtype in_type, out_type;
    size_t n;
} cast_params;

/* clang-format off */
#define TA__PARAMS_T cast_params
static const ta__field k_fields_cast[] = {
    F(in_type, TA__F_DTYPE), F(out_type, TA__F_DTYPE), F(n, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_cast, cast_params)

static ta_status prep_cast(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (ta__op_elems(in) != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    if (!ta_kernel_cast_supported(in->dtype, out->dtype))
        return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): cast from %s to %s is not supported", c->index,
                           ta__op_ctx_name(c), ta_dtype_str(in->dtype), ta_dtype_str(out->dtype));
    ((cast_params *)c->params)->in_type = in->dtype;
    ((cast_params *)c->params)->out_type = out->dtype;
    ((cast_params *)c->params)->n = (size_t)ta__op_elems(in);
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_cast(const ta__op_run *r) {
    const cast_params *p = r->params;
    return ta_kernel_cast(p->n, p->in_type, ta__op_in_ptr(r, 0), p->out_type, ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_CAST, CAST, cast_params, k_fields_cast, TA__CLEAR_PADDING(clear_cast), prep_cast, run_cast, 0, TA__T(INT8) | TA__T(UINT8) | TA__T(INT16) | TA__T(UINT16) | TA__T(INT32) | TA__T(UINT32) | TA__T(INT64) | TA__T(UINT64) | TA__T(BOOL) | TA__T(FLOAT32));
