/*
 * RESHAPE, SQUEEZE and EXPAND_DIMS: the same bytes under another shape, a
 * copy (nothing when the ALIAS rewrite gave the output the input's buffer).
 */
#include "runtime/ops/op.h"

typedef struct copy_params {
    size_t bytes;
} copy_params;

/* clang-format off */
#define TA__PARAMS_T copy_params
static const ta__field k_fields_copy[] = {
    F(bytes, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_copy, copy_params)

static ta_status prep_copy(ta__op_ctx *c) {
    if (c->op->n_inputs < 1 || c->op->n_outputs != 1 || !ta__op_in(c, 0) || !ta__op_out(c, 0))
        return ta__op_fail(c, TA_E_MALFORMED, "expects an input and an output");
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->bytes != out->bytes) return ta__op_fail(c, TA_E_MALFORMED, "output bytes differ from input");
    c->path = TA__P_COPY;
    ((copy_params *)c->params)->bytes = out->bytes;
    return TA_OK;
}

static ta_status run_copy(const ta__op_run *r) {
    const copy_params *p = r->params;
    return ta_kernel_reshape(ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0), p->bytes);
}

TA__OP_DEF(ta_op_RESHAPE, RESHAPE, copy_params, k_fields_copy, TA__CLEAR_PADDING(clear_copy), prep_copy, run_copy, 0, TA__T_ANY);
TA__OP_DEF(ta_op_SQUEEZE, SQUEEZE, copy_params, k_fields_copy, TA__CLEAR_PADDING(clear_copy), prep_copy, run_copy, 0, TA__T_ANY);
TA__OP_DEF(ta_op_EXPAND_DIMS, EXPAND_DIMS, copy_params, k_fields_copy, TA__CLEAR_PADDING(clear_copy), prep_copy,
           run_copy, 0, TA__T_ANY);
